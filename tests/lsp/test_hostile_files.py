"""Issue 24 in the server: one hostile file never silences the workspace (class 1-4), special files never
block (classes 7-8), a missing workspace folder is not a walk of `/` (class 9).

Each failed before its fix: nothing was published for any file of the workspace and hover on the
hostile file failed with -32603; `skillLs.preview` of a FIFO and `didOpen` of a FIFO froze the
server; a symlink to /dev/urandom took it to 1 GB; a folder that does not exist kept it from
answering for 60 s while it walked `/`.
"""
from __future__ import annotations

import asyncio
import os
import time

import pytest
from lsprotocol import types

from tests.conftest import skill, write
from tests.lsp.conftest import TIMEOUT, uri

PROFILES = ("neovim",)
BIG = "1" * 4301


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _server_pid(s) -> int:
    return s.client._server.pid


async def _hover(s, path, line=1, col=8):
    return await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(path)), types.Position(line, col))))


async def test_one_hostile_file_never_silences_the_workspace(start, tree, profile):
    tree.standard()
    hostile = tree.ws / ".agh" / "skills" / "bad"
    skill(hostile.parent, "bad", extra=f"version: {BIG}\nmetadata:\n  x: 0x{'f' * 3600}\n")
    write(hostile / "mcp.json", '{"mcpServers":{"s":{"url":"http://[x"}, "t": {"url": "https://a\uff03b/"}}}')
    write(tree.ws / ".agh" / "skills" / "other" / "SKILL.md",
          "---\nname: other\ndescription: Other skill.\nbogus_field: 1\n---\n# Other\n", dedent=False)
    s = await start(profile)
    # The other files are still reported, and the hostile ones are reported too.
    other = await s.diagnostics(tree.ws / ".agh" / "skills" / "other" / "SKILL.md", lambda ds: ds)
    assert other
    mcp = await s.diagnostics(hostile / "mcp.json", lambda ds: any("not a URL" in d.message for d in ds))
    assert all("could not check" not in d.message for d in mcp)
    assert await _hover(s, hostile / "SKILL.md") is not None
    assert (await s.command("skillLs.status", {}))["skills"] >= 4


async def test_special_files_never_block(start, tree, profile, tmp_path):
    tree.standard()
    fifo_dir = tree.ws / ".agh" / "skills" / "fifo"
    fifo_dir.mkdir(parents=True)
    os.mkfifo(fifo_dir / "SKILL.md")
    linked = tree.ws / ".agh" / "skills" / "linked"
    linked.mkdir()
    os.symlink(fifo_dir / "SKILL.md", linked / "SKILL.md")
    rand = tree.ws / ".agh" / "skills" / "random"
    rand.mkdir()
    os.symlink("/dev/urandom", rand / "SKILL.md")
    os.mkfifo(tree.ws / ".agh" / "skills" / "demo" / "references" / "pipe.md")
    s = await start(profile)
    before = _rss_mb(_server_pid(s))
    for path in (fifo_dir / "SKILL.md", linked / "SKILL.md", rand / "SKILL.md"):
        s.open(path, text="---\nname: x\ndescription: X.\n---\nBody\n")
        s.client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri(path))))
    start_t = time.monotonic()
    assert await _hover(s, tree.ws_demo) is not None
    with pytest.raises(Exception) as info:  # a FIFO is not a file to preview: one-line error, at once
        await s.command("skillLs.preview", {"name": "demo", "runtime": "agh", "file": "references/pipe.md"})
    assert "not a regular file" in str(info.value)
    assert (await s.command("skillLs.status", {}))["skills"] >= 3
    assert time.monotonic() - start_t < TIMEOUT / 2
    assert _rss_mb(_server_pid(s)) - before < 200


@pytest.mark.parametrize("folder", ["missing", "file"])
async def test_a_missing_or_odd_workspace_folder_is_not_a_walk_of_the_machine(start, tree, profile, folder):
    tree.standard()
    # A home full of directories: a walk of it (or of `/`) would take long and show in the answer time.
    for i in range(300):
        (tree.home / f"d{i}" / "sub").mkdir(parents=True)
    odd = tree.home / "old-project" if folder == "missing" else write(tree.home / "notes.md", "# notes\n")
    start_t = time.monotonic()
    s = await start(profile, folders=[odd, tree.ws], wait_index=False)
    status = await s.command("skillLs.status", {})
    assert status is not None
    assert await _hover(s, tree.ws_demo) is not None
    assert time.monotonic() - start_t < TIMEOUT / 2
    s.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        types.WorkspaceFoldersChangeEvent(added=[types.WorkspaceFolder(uri(tree.tmp / "gone"), "gone")], removed=[])))
    assert await _hover(s, tree.ws_demo) is not None


def test_the_per_request_boundary_answers_instead_of_failing():
    """A request about a position or a document whose handler fails is answered with its empty answer
    (`null`) and logged; a command that fails gets a one-line InternalError ("skill-ls could not ...")."""
    from concurrent.futures import Future

    from skill_ls.server.app import create_server

    server = create_server()
    proto = server.protocol
    sent = []
    proto._send_response = lambda msg_id, result=None, error=None: sent.append((msg_id, result, error))
    for msg_id, method in ((1, types.TEXT_DOCUMENT_HOVER), (2, types.TEXT_DOCUMENT_COMPLETION),
                           (3, types.WORKSPACE_EXECUTE_COMMAND)):
        proto._methods[msg_id] = method
        future: Future = Future()
        future.set_exception(RuntimeError("injected\nfault"))
        proto._request_futures[msg_id] = future
        proto._send_handler_result(future, msg_id=msg_id)
    assert sent[0] == (1, None, None) and sent[1] == (2, None, None)
    error = sent[2][2]
    assert error is not None and "skill-ls could not answer workspace/executeCommand" in error.message
    assert "\n" not in error.message and not proto._methods and not proto._request_futures
