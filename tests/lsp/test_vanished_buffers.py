"""An open buffer whose file vanished from disk (its folder moved out of the workspace, or deleted)
and that holds what the disk held is analysed as closed: the copy is gone as in `skill-ls check`,
whatever order or batches the file events come in, whoever reports them (the server's own watcher,
the client's watched files, or nobody: lost events and the rescan that follows), and even when the
server reads the editor's didOpen only after the file is gone (a loaded machine: the editor read the
file, the folder moved, then the server took the open). An edited buffer is kept with its findings:
it is what the user will save. A new buffer that was never on disk is a buffer, not a vanished file.

In process, through the server's own change handling (`ChangesServer`), so that each ordering is
deterministic: the event sequences are fed as the watchers hand them to the event loop. Over stdio,
with real watchers: tests/lsp/test_truth.py.
"""
from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from lsprotocol import types

from tests.conftest import check_tree
from tests.lsp.conftest import TIMEOUT, Tree, profile_capabilities, uri


class Harness:
    """One server in process on tests/lsp/test_truth.py's tree (`demo` in the workspace, its folder
    holding references/guide.md, shadows the user's copy; `other` reads demo's guide by name). What it
    pushes is kept as an editor keeps it: the last list per URI."""

    def __init__(self, tmp_path: Path):
        from skill_ls.server.app import create_server
        from tests.lsp.test_truth import _in_scope_tree

        self.tree = _in_scope_tree(Tree(tmp_path))
        self.demo = str(self.tree.ws_demo)
        self.folder = str(self.tree.ws_demo.parent)
        self.away = str(self.tree.tmp / "moved-away" / "demo")
        self.ls = create_server()
        self.held: dict[str, list[str]] = {}
        self.ls.text_document_publish_diagnostics = self._publish  # type: ignore[method-assign]
        self.ls.protocol.notify = lambda *args, **kwargs: None  # type: ignore[method-assign]
        caps = profile_capabilities("neovim")  # pushes; no dynamic watch registration
        caps.window = None  # (no work-done progress: nobody here answers its creation)
        self.ls.protocol.client_capabilities = caps

    def _publish(self, params: types.PublishDiagnosticsParams) -> None:
        self.held[params.uri] = sorted(str(d.code) for d in params.diagnostics)

    async def start(self) -> "Harness":
        self.ls.loop = asyncio.get_running_loop()
        self.ls.add_folder(str(self.tree.ws))
        await self.ls.request_reindex()
        await self.idle()
        return self

    # -- what the client sends (through the server's own handlers, features/diagnostics.py) -----------
    def notify(self, method: str, params: object) -> None:
        self.ls.protocol.fm.features[method](params)

    def open(self, text: str | None = None, path: str | None = None) -> None:
        """didOpen with what the editor read from the file (`text`: read earlier)."""
        path = path or self.demo
        text = Path(path).read_text(encoding="utf-8") if text is None else text
        self.notify(types.TEXT_DOCUMENT_DID_OPEN, types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=text)))

    def text(self) -> str:
        return self.tree.ws_demo.read_text(encoding="utf-8")

    def change(self, text: str, version: int) -> None:
        """didChange (the handler's part after pygls applied the change to its document)."""
        self.ls.open_docs.setdefault(self.demo, uri(self.demo))
        self.ls.buffer_changed(self.demo, text, version)

    # -- what happens on disk -----------------------------------------------------------------------
    def move_away(self) -> None:
        os.makedirs(os.path.dirname(self.away), exist_ok=True)
        os.rename(self.folder, self.away)

    async def idle(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        while [w for w in self.ls.scheduled() if w != "text release"] or self.ls._lost_handle is not None:
            assert time.monotonic() < deadline, self.ls.scheduled()
            await asyncio.sleep(0.01)

    def editor(self) -> dict[str, list[str]]:
        """What the editor shows under the workspace: path -> sorted codes (non-empty only)."""
        from tests.lsp.test_truth import types_path

        ws = str(self.tree.ws.resolve())
        return {types_path(u): c for u, c in self.held.items() if c and types_path(u).startswith(ws)}

    def check(self) -> dict[str, list[str]]:
        """What `skill-ls check` says over the workspace (its checker in process)."""
        out: dict[str, list[str]] = {}
        for d in check_tree(self.tree.ws).diagnostics:
            out.setdefault(str(Path(d.path).resolve()), []).append(d.code)
        return {p: sorted(c) for p, c in out.items()}


@pytest.fixture
async def h(tmp_path):
    harness = await Harness(tmp_path).start()
    before = harness.check()
    assert harness.editor() == before and "SH002" in before[harness.demo]
    yield harness
    if harness.ls.watchers is not None:
        harness.ls.watchers.stop()


# What reaches the event loop after the folder moved away, batch by batch (a batch: the changes one
# debounce collects; None: the watcher said events were lost, and the folders are rescanned).
SEQUENCES: dict[str, Callable[[Harness], list[list[str] | None]]] = {
    "the folder deleted (a move out of the watched tree)": lambda h: [[h.folder]],
    "the folder moved, source and destination": lambda h: [[h.folder, h.away]],
    "the file, then the folder": lambda h: [[h.demo], [h.folder]],
    "the folder, then the file": lambda h: [[h.folder], [h.demo]],
    "the file only": lambda h: [[h.demo]],
    "a file inside it, then the folder": lambda h: [[os.path.join(h.folder, "references", "guide.md")], [h.folder]],
    "a file inside it only": lambda h: [[os.path.join(h.folder, "references", "guide.md")]],
    "the parent directory only": lambda h: [[os.path.dirname(h.folder)]],
    "events lost, then the rescan": lambda h: [None],
    "events lost, then the folder": lambda h: [None, [h.folder]],
}


async def _deliver(h: Harness, batches: list[list[str] | None]) -> None:
    for batch in batches:
        if batch is None:
            h.ls.events_lost(None)
        else:
            for path in batch:
                h.ls.disk_changed(path)
        await h.idle()


def _gone(h: Harness) -> dict[str, list[str]]:
    expected = h.check()
    assert h.demo not in expected and "RF001" in expected[str(h.tree.other)]  # demo's guide went with it
    return expected


@pytest.mark.parametrize("sequence", list(SEQUENCES))
async def test_an_unedited_buffer_moved_away_follows_the_disk_whatever_the_events(h, sequence):
    h.open()
    await h.idle()
    h.move_away()
    await _deliver(h, SEQUENCES[sequence](h))
    assert h.editor() == _gone(h)


@pytest.mark.parametrize("sequence", ["the folder deleted (a move out of the watched tree)", "the file only",
                                      "a file inside it only", "events lost, then the rescan"])
async def test_the_open_read_after_the_folder_moved_away_follows_the_disk(h, sequence):
    """The editor read the file and sent didOpen; the folder moved before the server read the message
    (a loaded machine: tests/lsp/test_truth.py failed so in CI). What the editor loaded is what the
    disk held: the buffer has no edits and goes with its folder."""
    text = h.text()
    h.move_away()
    h.open(text)
    await h.idle()
    await _deliver(h, SEQUENCES[sequence](h))
    assert h.editor() == _gone(h)


@pytest.mark.parametrize("sequence", ["the folder deleted (a move out of the watched tree)",
                                      "a file inside it only", "events lost, then the rescan"])
@pytest.mark.parametrize("when", ["opened before the move", "open read after the move"])
async def test_an_edited_buffer_keeps_its_text_and_findings(h, sequence, when):
    text = h.text()
    if when == "opened before the move":
        h.open()
        await h.idle()
        h.move_away()
    else:
        h.move_away()
        h.open(text)
    h.change(text + "\nMore.\n", 2)
    await _deliver(h, SEQUENCES[sequence](h))
    assert "SH002" in h.editor()[h.demo]  # the buffer still wins over the user's copy
    assert h.demo in h.ls.open_docs


async def test_a_new_buffer_never_on_disk_is_not_taken_for_a_vanished_file(h):
    """`:e new/SKILL.md` (no file yet): unedited, and not on disk, yet nothing vanished. It stays a
    buffer with its findings through every batch of changes."""
    new = h.tree.ws / ".agh" / "skills" / "fresh" / "SKILL.md"
    path = str(new)
    h.open("", path)
    await h.idle()
    findings = h.held.get(uri(new))
    assert findings
    h.move_away()
    await _deliver(h, [[h.folder], None])
    assert path in h.ls.open_docs and h.held.get(uri(new)) == findings
