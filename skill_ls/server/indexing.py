"""The server's third layer: index builds and what follows them. Each folder's index is built in a
worker thread and installed on the event loop (all analysis state is touched from the loop thread
only); then its files are published, the watchers follow the index, and `skillLs/indexChanged`
carries the counts and the catalog fingerprint (rechecked once typing pauses).
"""
from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
import os
from typing import Any

from lsprotocol import types

from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.server.publishing import PublishingServer

log = logging.getLogger("skill_ls.server")

CATALOG_DEBOUNCE = 0.3  # seconds after an edit before the catalog fingerprint is recomputed
INDEX_CHANGED = "skillLs/indexChanged"


def _build_and_list(state: WorkspaceState) -> Any:
    """Build the index and list the workspace (bounded: MAX_WALK_DIRS) in the worker thread, so the
    event loop never walks a workspace opened at `/` or `$HOME`."""
    index = state.build_index()
    if state.broad_workspace() is None:
        index.walker.walk(state.workspace, frozenset())
    return index


def broad_workspace_message(state: WorkspaceState, why: str) -> str:
    from skill_ls.core.discovery import MAX_WALK_DIRS

    if why.startswith("too large"):
        why, detail = "too large", f"listing stopped after {MAX_WALK_DIRS:,} directories"
    else:
        detail = why
    return (f"skill-ls: the workspace {state.workspace} is {why} ({detail}): only its skill roots are indexed "
            "and checked, not every file below it, and it is not watched as a whole. Open the project folder "
            "instead.")


class IndexingServer(PublishingServer):
    """Index builds per folder (queued while one runs), work-done progress, the catalog fingerprint,
    and the watchers that follow the index (`features/watching.py`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._build_task: asyncio.Task[None] | None = None
        self._reindex_pending: set[str] = set()
        self._catalog_task: asyncio.Task[None] | None = None
        self._catalog_salt = 0  # bumped when a catalog input the fingerprint does not read changes
        self._last_summary: dict[str, Any] | None = None
        self.watchers: Any = None  # skill_ls.server.features.watching.RootWatchers
        self.client_watches_workspace = False
        self.client_relative_patterns = False  # the client takes RelativePattern watchers
        self.skill_dirs: frozenset[str] = frozenset()  # snapshot for the watchers (features/watching.py)
        self.directory_watch_key: str | None = None
        self.directory_watch_id: str | None = None
        self.watch_tasks: list[asyncio.Task[None]] = []
        self._script_dirs_watched: frozenset[str] = frozenset()

    def scheduled(self) -> list[str]:
        out = super().scheduled()
        if self._reindex_pending or (self._build_task is not None and not self._build_task.done()):
            out.append("indexing")
        if self._catalog_task is not None and not self._catalog_task.done():
            out.append("catalog check")
        return out

    def remove_folder(self, key: str) -> WorkspaceState | None:
        self._reindex_pending.discard(key)
        return super().remove_folder(key)

    # -- index lifecycle -------------------------------------------------------------------------
    def request_reindex(self, keys: set[str] | None = None) -> asyncio.Task[None]:
        """Rebuild the given folders (default: all), or queue them after the running rebuild."""
        self._reindex_pending |= set(self.states if keys is None else keys)
        if self._build_task is not None and not self._build_task.done():
            return self._build_task
        self._build_task = asyncio.get_running_loop().create_task(self._reindex())
        return self._build_task

    async def _reindex(self) -> None:
        while self._reindex_pending:
            key = next((k for k in self.states if k in self._reindex_pending), None)
            if key is None:
                self._reindex_pending.clear()
                break
            self._reindex_pending.discard(key)
            try:
                await self._reindex_once(self.states[key])
            except Exception:
                log.exception("indexing %s failed", key)
                self.window_show_message(types.ShowMessageParams(types.MessageType.Error,
                                                                 "skill-ls: indexing failed; see the server log"))
        self.ready.set()
        self._after_index_change()

    async def _reindex_once(self, state: WorkspaceState) -> None:
        state.load_config()
        if state.settings_error:
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Warning, f"skill-ls: ignoring client settings: {state.settings_error}"))
        if state.config_error:
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Error, f"skill-ls: {state.config_error}; using the default configuration"))
        token = await self._progress_begin("skill-ls: indexing skills")
        if self._heap_frozen:  # the index being replaced must become collectable
            gc.unfreeze()
            self._heap_frozen = False
        index = await asyncio.to_thread(_build_and_list, state)
        if self.states.get(state.workspace) is not state:
            self._progress_end(token, "folder removed")
            return
        state.install(index)
        why = state.broad_workspace()
        if why is not None:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Warning,
                                                             broad_workspace_message(state, why)))
        self._progress_end(token, f"{state.summary()['skills']} skills indexed")
        self.follow_index()
        if self.watchers is not None:
            try:
                self.watchers.update(list(self.states.values()))
            except Exception:
                log.exception("cannot watch roots")
        if self.pull:
            return
        files = {p for p in state.workspace_files() if self.state_for(p) is state}
        held = {p for p in set(self.open_docs) | set(self.pushed) if self.state_for(p) is state} - files
        for p in held:
            if p not in self.open_docs and not os.path.exists(p):
                self.clear(p)  # gone since it was pushed: nothing to show, as in `check` (not "cannot read file")
        files |= {p for p in held if p in self.open_docs or p in self.pushed}
        if (state.config_error or state.config_key_errors) and state.config_path:
            files.add(state.config_path)
        self.queue_publish(files)

    def _after_index_change(self) -> None:
        self.notify_index_changed(force=True)
        self.refresh_pull_clients()
        if not self.pull:
            # Files outside every folder that were pushed (open once, or a folder since removed).
            self.queue_publish({p for p in set(self.pushed) | set(self.open_docs) if not self.in_some_folder(p)})

    async def _progress_begin(self, title: str):
        window = self.client_capabilities.window
        if window is None or not window.work_done_progress:
            return None
        token = f"skill-ls-index-{self.next_result_id()}"
        try:
            await asyncio.wait_for(self.work_done_progress.create_async(token), 5)
            self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, percentage=0,
                                                                               cancellable=False))
            return token
        except Exception:
            log.debug("work-done progress unavailable", exc_info=True)
            return None

    def _progress_end(self, token, message: str) -> None:
        if token is not None:
            try:
                self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
            except Exception:  # pragma: no cover
                log.debug("progress end failed", exc_info=True)

    def index_summary(self) -> dict[str, Any]:
        """The `skillLs/indexChanged` payload: counts over every folder, the catalog fingerprint (it
        changes whenever any catalog an agent receives changes), and one entry per folder."""
        folders = []
        for key, st in self.states.items():
            catalog = st.catalog_fingerprint() + (f".{self._catalog_salt}" if self._catalog_salt else "")
            folders.append({"workspace": key, **st.summary(), "roots": st.indexed_roots(), "catalog": catalog})
        runtimes: list[str] = []
        for f in folders:
            runtimes += [r for r in f["runtimes"] if r not in runtimes]
        digest = hashlib.sha256("\n".join(f["catalog"] for f in folders).encode()).hexdigest()[:16]
        return {"skills": sum(f["skills"] for f in folders), "agents": sum(f["agents"] for f in folders),
                "runtimes": runtimes, "catalog": digest, "folders": folders}

    def notify_index_changed(self, force: bool = False) -> None:
        if not self.states:
            return
        summary = self.index_summary()
        if force or summary != self._last_summary:
            self._last_summary = summary
            self.protocol.notify(INDEX_CHANGED, summary)

    def schedule_catalog_check(self, delay: float = CATALOG_DEBOUNCE) -> None:
        """An edit that changes no name may still change a catalog (a description): check the
        fingerprint once typing pauses."""
        if self._catalog_task is not None and not self._catalog_task.done():
            self._catalog_task.cancel()

        async def later() -> None:
            try:
                await asyncio.sleep(delay)
                if await self.wait_ready():
                    self.notify_index_changed()
            except asyncio.CancelledError:
                pass
            except Exception:
                log.exception("catalog check failed")

        self._catalog_task = asyncio.get_running_loop().create_task(later())

    def follow_index(self) -> None:
        """The watchers follow the index: skill directories, roots, skills outside every root."""
        from skill_ls.server.features.watching import follow_index

        try:
            follow_index(self)
        except Exception:
            log.exception("cannot update the watchers")
        # The paths checked files depend on (hook scripts, paths a plugin.json declares), watched outside
        # what the client watches: the nearest existing directory of each (a directory created on the
        # way to one moves that watch down).
        key = frozenset(_nearest_directory(p) for st in self.states.values() for p in st.dependency_paths())
        if key != self._script_dirs_watched and self.watchers is not None:
            self._script_dirs_watched = key
            try:
                self.watchers.update(list(self.states.values()))
            except Exception:
                log.exception("cannot watch the paths checked files depend on")

    def dependencies_moved(self) -> None:
        self.follow_index()


def _nearest_directory(path: str) -> str:
    """`path`'s nearest existing parent directory."""
    parent = os.path.dirname(path)
    while parent and not os.path.isdir(parent) and parent != os.path.dirname(parent):
        parent = os.path.dirname(parent)
    return parent
