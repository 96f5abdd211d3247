"""The server's first layer: workspace folders and documents. Each workspace folder is a
`WorkspaceState` of its own (its own configuration, index and scope); a file belongs to the deepest
folder that contains it, and a file outside every folder (a user root, an additional root) to the
first folder whose index reads it, else the first folder (`state_for`). Requests wait here until
the index that answers them is built (`wait_ready`).

The server is four layers, each a class over the one below, each owning its own state
(`app.SkillLanguageServer` assembles them): folders (this module) < publishing diagnostics
(`publishing.py`) < index builds and the catalog fingerprint (`indexing.py`) < buffer and disk
changes (`changes.py`).
"""
from __future__ import annotations

import asyncio
import os
import logging
import time
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.model import Diagnostic
from skill_ls.core.parse.text import SourceText
from skill_ls.core.paths import is_under
from skill_ls.server.convert import Converter, path_of

log = logging.getLogger("skill_ls.server")

READY_TIMEOUT = 120.0


class FolderServer(LanguageServer):
    """Workspace folders, open documents, readiness."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.states: dict[str, WorkspaceState] = {}  # project root -> state, the first folder first
        self.folder_projects: dict[str, str] = {}  # the client's workspace folder -> its project root
        self.init_options: dict[str, Any] = {}
        self.open_docs: dict[str, str] = {}  # path -> uri
        self._ready: asyncio.Event | None = None
        self._result_id = 0
        self.converter = Converter()

    # -- folders -----------------------------------------------------------------------------------
    @property
    def state(self) -> WorkspaceState | None:
        """The first workspace folder's state (the default for commands and loose files)."""
        return next(iter(self.states.values()), None)

    @property
    def live_state(self) -> WorkspaceState:
        """The first folder's state, created by `initialize` before any request that uses it."""
        if self.state is None:
            raise RuntimeError("the server is not initialized")
        return self.state

    def state_for(self, path: str | None) -> WorkspaceState | None:
        """The state of the deepest workspace folder containing `path`; for a file outside every
        folder (a user root, an additional root), the first folder whose index reads it (a personal
        Claude Code skill belongs to the folder that checks Claude Code, not to an AGH-only first
        folder); else the first folder's."""
        if path:
            best = None
            for key, st in self.states.items():
                if is_under(path, key) and (best is None or len(key) > len(best[0])):
                    best = (key, st)
            if best is not None:
                return best[1]
            if len(self.states) > 1:
                for st in self.states.values():
                    if st.reads(path):
                        return st
        return self.state

    def add_folder(self, root: str, settings: dict[str, Any] | None = None) -> WorkspaceState | None:
        """A workspace folder, mapped to its project root; None when that project is already known."""
        key = os.path.abspath(root)
        if key in self.states:
            return None
        st = WorkspaceState(key)
        st.client_settings = settings
        self.states[key] = st
        return st

    def remove_folder(self, key: str) -> WorkspaceState | None:
        return self.states.pop(key, None)

    def scheduled(self) -> list[str]:
        """The work queued or running on the event loop, by kind (each layer adds its own): empty
        when the server is idle. `skillLs.status` reports it, so a client (or a test) can tell
        "nothing more will arrive" without waiting a fixed time."""
        return []

    def in_some_folder(self, path: str) -> bool:
        return any(is_under(path, key) for key in self.states)

    # -- readiness -------------------------------------------------------------------------------
    @property
    def ready(self) -> asyncio.Event:
        if self._ready is None:
            self._ready = asyncio.Event()
        return self._ready

    async def wait_ready(self, path: str | None = None) -> bool:
        """Wait until the index that answers for `path` (default: the first folder) is built."""
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            st = self.state_for(path)
            if st is not None and st.index is not None:
                return True
            if time.monotonic() > deadline or (not self.states and self.ready.is_set()):
                return False  # (every folder removed: nothing will become ready)
            if not self.ready.is_set():
                try:
                    await asyncio.wait_for(self.ready.wait(), max(0.0, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    return False
            else:
                await asyncio.sleep(0.02)  # a folder added later is still being indexed

    # -- documents -------------------------------------------------------------------------------
    def path(self, uri: str) -> str | None:
        p = path_of(uri)
        return os.path.abspath(p) if p else None

    def document(self, path: str):
        """The parsed document (editor buffer over disk) or None without an index."""
        st = self.state_for(path)
        if st is None or st.index is None:
            return None
        return st.index.store.peek(path)

    def src_of(self, path: str) -> SourceText | None:
        st = self.state_for(path)
        if st is not None and st.index is not None:
            try:
                return st.index.store.peek(path).src
            except Exception:  # pragma: no cover - defensive
                return None
        overlay = st.overlays.get(path) if st else None
        return SourceText.from_str(overlay[0]) if overlay else None

    def lsp_diagnostics(self, diags: list[Diagnostic]) -> list[types.Diagnostic]:
        return [self.converter.diagnostic(d, self.src_of) for d in diags]

    def next_result_id(self) -> str:
        self._result_id += 1
        return str(self._result_id)

    def diagnostics_of(self, paths) -> dict[str, list[Diagnostic]]:
        """Diagnostics of `paths`, each computed by the folder it belongs to."""
        groups: dict[int, tuple[WorkspaceState, list[str]]] = {}
        for p in paths:
            st = self.state_for(p)
            if st is None or st.index is None:
                continue
            groups.setdefault(id(st), (st, []))[1].append(p)
        out: dict[str, list[Diagnostic]] = {}
        moved = False
        for st, group in groups.values():
            out.update(st.diagnostics(group))
            moved |= st.dependencies_changed
            st.dependencies_changed = False
        if moved:
            self.dependencies_moved()
        return out

    def dependencies_moved(self) -> None:
        """The paths the checked files depend on changed (the watchers follow them: `IndexingServer`)."""

    def workspace_files(self) -> set[str]:
        """Every checkable file of every folder (each answered by its own folder), plus broken
        configuration files."""
        files: set[str] = set()
        for st in self.states.values():
            if st.index is None:
                continue
            files.update(p for p in st.workspace_files() if self.state_for(p) is st)
            if (st.config_error or st.config_key_errors) and st.config_path:
                files.add(st.config_path)
        return files
