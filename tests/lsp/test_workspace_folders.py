"""Multi-root workspaces and the server's notion of a project (issue 10, SPEC §6.3): every workspace
folder is indexed as a workspace of its own with its own configuration; folders come and go with
`workspace/didChangeWorkspaceFolders`; commands take the folder; a folder that is part of a
configured project (a skill directory, an additional root) maps to that project's root."""
from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.conftest import skill, write
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, uri
from tests.lsp.test_truth import _editor_codes, settle_async

PROFILES = DIAGNOSTIC_PROFILES


def _two_folders(tree) -> tuple[Path, Path]:
    """Folder `a` checks AGH with a shadowed workspace skill; folder `b` ignores every SH rule and
    checks Claude Code only. Both have a skill named `shared-name`."""
    a, b = tree.tmp / "a", tree.tmp / "b"
    tree.a_skill = skill(a / ".agh" / "skills", "shared-name", description="A copy.")
    tree.a_bad = write(a / ".agh" / "skills" / "broken" / "SKILL.md", "---\nname: broken\n---\n# no description\n")
    skill(tree.agh_home / "skills", "shared-name", description="User copy.")
    write(a / ".skill-ls.toml", 'runtimes = ["agh"]\n', dedent=False)
    tree.b_skill = skill(b / ".claude" / "skills", "shared-name", description="B copy.")
    tree.b_bad = write(b / ".claude" / "skills" / "nodesc" / "SKILL.md", "---\nname: other-name\ndescription: Mismatch.\n---\n# x\n")
    write(b / ".skill-ls.toml", 'runtimes = ["claude-code"]\n\n[rules]\nignore = ["SH"]\n', dedent=False)
    return a, b


def _p(path: Path) -> str:
    return str(path.resolve())


async def test_every_folder_is_indexed_with_its_own_configuration(start, tree, profile):
    a, b = _two_folders(tree)
    s = await start(profile, folders=[a, b])
    codes = await settle_async(lambda: _editor_codes(s),
                               lambda c: _p(tree.a_bad) in c and _p(tree.b_bad) in c)
    # b's files never opened, checked under b's configuration (Claude Code, SH ignored)
    assert "SK009" in codes[_p(tree.b_bad)]
    assert not any(x.startswith("SH") for x in codes.get(_p(tree.b_skill), []))
    # a's copy is the workspace winner over the user copy (SH002) under a's configuration (AGH)
    assert "SH002" in codes[_p(tree.a_skill)]
    status = await s.command("skillLs.status", {})
    assert [f["workspace"] for f in status["folders"]] == [_p(a), _p(b)]
    assert status["folders"][1]["runtimes"] == ["claude-code"]


async def test_commands_take_the_folder(start, tree, profile):
    a, b = _two_folders(tree)
    s = await start(profile, folders=[a, b])
    for target in (str(b), uri(b), str(tree.b_skill)):  # a path, a URI, or a file inside the folder
        result = await s.command("skillLs.where", {"name": "shared-name", "workspace": target})
        assert result["runtime"] == "claude-code", target
        assert [e["path"] for e in result["entries"]][0] == _p(tree.b_skill)
    catalog = await s.command("skillLs.renderCatalog", {"workspace": str(b)})
    assert catalog["runtime"] == "claude-code" and "B copy." in catalog["text"]
    catalog = await s.command("skillLs.renderCatalog", {"workspace": str(a)})
    assert catalog["runtime"] == "agh" and "A copy." in catalog["text"]
    default = await s.command("skillLs.renderCatalog", {})
    assert default["runtime"] == "agh"  # no folder given: the first one
    agents = await s.command("skillLs.listAgents", {"workspace": str(b)})
    assert agents["runtimes"] == ["claude-code"]
    with pytest.raises(JsonRpcException):
        await s.command("skillLs.where", {"name": "x", "workspace": str(tree.tmp / "missing")})


async def test_hover_in_a_second_folder_uses_that_folder(start, tree, profile):
    a, b = _two_folders(tree)
    s = await start(profile, folders=[a, b])
    s.open(tree.b_skill)
    text = tree.b_skill.read_text()
    line = text.splitlines().index("name: shared-name")
    hover = await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(tree.b_skill)), types.Position(line=line, character=8))))
    value = hover.contents.value if hover is not None else ""
    assert "**Claude Code** (`claude-code`)" in value and "**AGH** (`agh`)" not in value  # b's runtimes, not a's


async def test_folders_are_added_and_removed(start, tree, profile):
    a, b = _two_folders(tree)
    s = await start(profile, folders=[a])
    await settle_async(lambda: _editor_codes(s), lambda c: _p(tree.a_bad) in c)
    assert _p(tree.b_bad) not in await _editor_codes(s)
    before = len(s.index_changes)
    s.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        types.WorkspaceFoldersChangeEvent(added=[types.WorkspaceFolder(uri(b), "b")], removed=[])))
    await s.wait_index_changes(before + 1)
    codes = await settle_async(lambda: _editor_codes(s), lambda c: _p(tree.b_bad) in c)
    assert "SK009" in codes[_p(tree.b_bad)]
    status = await s.command("skillLs.status", {})
    assert [f["workspace"] for f in status["folders"]] == [_p(a), _p(b)]
    s.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        types.WorkspaceFoldersChangeEvent(added=[], removed=[types.WorkspaceFolder(uri(b), "b")])))
    await settle_async(lambda: _editor_codes(s), lambda c: _p(tree.b_bad) not in c)
    status = await s.command("skillLs.status", {})
    assert [f["workspace"] for f in status["folders"]] == [_p(a)]


async def test_a_folder_inside_a_configured_project_is_that_project(start, tree, profile):
    """Neovim used to root a second client at the demo's `shared/` (it contains `.agh`): that server
    said "this workspace copy wins" where `skill-ls check` says it is shadowed. The server maps a
    folder without project markers to the configured project above it."""
    tree.standard()
    shared = tree.ws / "shared"
    shared_copy = skill(shared / ".agh" / "skills", "other", description="Shared copy.")
    write(tree.ws / ".skill-ls.toml", f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{tree.bundled}"]\n'
          f'additional_roots = ["{shared}"]\n', dedent=False)
    s = await start(profile, folders=[shared])
    status = await s.command("skillLs.status", {})
    assert status["workspace"] == _p(tree.ws)
    s.open(shared_copy)
    items = await s.diagnostics(shared_copy, lambda ds: any(d.code == "SH001" for d in ds))
    assert any(d.code == "SH001" for d in items)  # shadowed by the workspace copy, as check says


async def test_removing_a_second_folder_of_the_same_project_keeps_the_project(start, tree, profile):
    """A skill directory added as a workspace folder of its own maps to its project, which is already a
    folder; removing that extra folder again must not drop the project (its files lost their
    diagnostics and its commands failed)."""
    a, _ = _two_folders(tree)
    sub = tree.a_skill.parent  # a/.agh/skills/shared-name: part of project a
    s = await start(profile, folders=[a, sub])
    await settle_async(lambda: _editor_codes(s), lambda c: _p(tree.a_bad) in c)
    s.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        types.WorkspaceFoldersChangeEvent(added=[], removed=[types.WorkspaceFolder(uri(sub), "shared-name")])))
    status = await s.command("skillLs.status", {})  # (answered after the notification was handled)
    assert [f["workspace"] for f in status["folders"]] == [_p(a)]
    assert _p(tree.a_bad) in await _editor_codes(s)  # a's files keep their findings
    s.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        types.WorkspaceFoldersChangeEvent(added=[], removed=[types.WorkspaceFolder(uri(a), "a")])))
    with pytest.raises(JsonRpcException):  # the last folder of the project gone: the project goes
        await s.command("skillLs.status", {})


async def test_a_file_outside_every_folder_belongs_to_the_folder_that_reads_it(start, tree, profile):
    """The personal copy in ~/.claude/skills is outside both folders; only folder b (Claude Code) reads
    it. Opened (e.g. from Show Skill Shadows), its hover and diagnostics answer for b, not for the
    first folder (AGH only), which would treat it as a loose file under the base rules."""
    a, b = _two_folders(tree)
    write(b / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)  # b with SH rules
    personal = skill(tree.home / ".claude" / "skills", "shared-name", description="Personal copy.")
    s = await start(profile, folders=[a, b])
    s.open(personal)
    line = personal.read_text().splitlines().index("name: shared-name")
    hover = await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(personal)), types.Position(line=line, character=8))))
    value = hover.contents.value if hover is not None else ""
    assert "**Claude Code** (`claude-code`)" in value and "winner" in value, value
    items = await s.diagnostics(personal, lambda ds: any(d.code == "SH002" for d in ds))
    assert any(d.code == "SH002" for d in items)  # it wins over b's project copy
