"""The language server object: state, scheduling and publishing. Feature modules register the LSP
handlers (`skill_ls.server.features.*`); this module only wires them and owns the timing:

- the whole index is built in a worker thread and installed on the event loop (all analysis state
  is touched from the loop thread only);
- diagnostics of an edited document are debounced per document and tagged with its version;
- changes on disk are collected and processed together after `DISK_DEBOUNCE` seconds;
- diagnostics are pushed (`textDocument/publishDiagnostics`) only to clients that cannot pull.
"""
from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
import os
import time
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from skill_ls import __version__
from skill_ls.core.model import Diagnostic
from skill_ls.core.paths import is_under
from skill_ls.core.parse.text import SourceText
from skill_ls.server.convert import Converter, path_of, uri_of
from skill_ls.server.protocol import SkillProtocol, converter
from skill_ls.analysis.workspace import WorkspaceState

log = logging.getLogger("skill_ls.server")

EDIT_DEBOUNCE = 0.005  # seconds: coalesces edit storms, keeps keystroke-to-diagnostics low
DISK_DEBOUNCE = 0.2
CATALOG_AFTER_CHANGE = 0.1  # seconds after a disk change's diagnostics are queued
CATALOG_DEBOUNCE = 0.3  # seconds after an edit before the catalog fingerprint is recomputed
CATALOG_SIDECARS = frozenset({"mcp.json", ".agh-meta.json", "config.toml"})
PUSH_BATCH = 200  # files whose diagnostics are computed and pushed between two turns of the event loop
READY_TIMEOUT = 120.0
INDEX_CHANGED = "skillLs/indexChanged"


def _return_memory_to_os(collect: bool) -> None:
    """Freed text is large blocks that glibc keeps unless asked; hand them back (Linux only).

    `collect`: also run a full cyclic collection, then freeze what survives (`gc.freeze`): the index
    is a graph of hundreds of thousands of long-lived objects that every later full collection would
    scan again (~0.2 s at 10,000 skills, a stall on the event loop; the automatic ones also tax every
    keystroke). The server asks for it once per index build; a rebuild unfreezes first, so the old
    index is collected."""
    if collect:
        gc.collect()
        gc.freeze()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass


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


class SkillLanguageServer(LanguageServer):
    """One server per project. Each workspace folder is a `WorkspaceState` of its own (its own
    configuration, index and scope); a file belongs to the deepest folder that contains it, and a
    file outside every folder (a user root, an additional root) to the first folder whose index reads
    it, else the first folder (`state_for`)."""

    def __init__(self) -> None:
        super().__init__("skill-ls", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=SkillProtocol, converter_factory=converter)
        self.states: dict[str, WorkspaceState] = {}  # project root -> state, the first folder first
        self.folder_projects: dict[str, str] = {}  # the client's workspace folder -> its project root
        self.init_options: dict[str, Any] = {}
        self.pull = False  # diagnostics by pull: the client pulls and can be asked to re-pull (refresh)
        self.open_docs: dict[str, str] = {}  # path -> uri
        self.disk_texts: dict[str, str | None] = {}  # open path -> its file's text when opened or saved
        self.pushed: dict[str, int] = {}  # path -> hash of the diagnostics last pushed (non-empty only)
        self.pull_reported: set[str] = set()  # paths in the last workspace/diagnostic answer (pull)
        self._ready: asyncio.Event | None = None
        self._doc_tasks: dict[str, asyncio.Task[None]] = {}
        self._disk_pending: set[str] = set()  # paths changed on disk
        self._touched_pending: dict[str, set[tuple[str, str]]] = {}  # folder -> (runtime, name) changed in a buffer
        self._disk_task: asyncio.Task[None] | None = None
        self._build_task: asyncio.Task[None] | None = None
        self._reindex_pending: set[str] = set()
        self._push_pending: dict[str, None] = {}  # ordered set of paths to (re)publish
        self._push_task: asyncio.Task[None] | None = None
        self._catalog_task: asyncio.Task[None] | None = None
        self._catalog_salt = 0  # bumped when a catalog input the fingerprint does not read changes
        self._release_handle: asyncio.TimerHandle | None = None
        self._heap_frozen = False  # the index graph is in gc's permanent generation (see _return_memory_to_os)
        self._last_summary: dict[str, Any] | None = None
        self._result_id = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watchers: Any = None  # skill_ls.server.features.watching.RootWatchers
        self.client_watches_workspace = False
        self.client_relative_patterns = False  # the client takes RelativePattern watchers
        self.skill_dirs: frozenset[str] = frozenset()  # snapshot for the watchers (features/watching.py)
        self.directory_watch_key: str | None = None
        self.directory_watch_id: str | None = None
        self.watch_tasks: list[asyncio.Task[None]] = []
        self.converter = Converter()

    def report_server_error(self, error: Exception, source) -> None:
        # Malformed input is logged, not shown: a message box per bad packet helps nobody.
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)

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
        st = self.states.pop(key, None)
        self._reindex_pending.discard(key)
        return st

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
        for st, group in groups.values():
            out.update(st.diagnostics(group))
        return out

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

    # -- pushing ---------------------------------------------------------------------------------
    def publish(self, path: str, diags: list[Diagnostic], force: bool = False) -> None:
        """Push one file's diagnostics; unchanged diagnostics of a file that is not open are not
        sent again (a re-index would otherwise repeat thousands of identical notifications)."""
        if self.pull:
            return
        st = self.state_for(path)
        overlay = st.overlays.get(path) if st else None
        if not diags and path not in self.pushed and path not in self.open_docs:
            return
        items = self.lsp_diagnostics(diags)
        digest = hash(tuple((d.code, d.message, d.severity, d.range.start.line, d.range.start.character,
                             d.range.end.line, d.range.end.character) for d in items))
        if not force and path not in self.open_docs and self.pushed.get(path) == digest and diags:
            return
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=self.open_docs.get(path) or uri_of(path), diagnostics=items,
            version=overlay[1] if overlay else None))
        if diags:
            self.pushed[path] = digest
        else:
            self.pushed.pop(path, None)

    def clear(self, path: str) -> None:
        if self.pull:
            return
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri_of(path), diagnostics=[]))
        self.pushed.pop(path, None)

    def publish_paths(self, paths) -> None:
        """Publish now (one document after an edit: latency matters more than batching)."""
        if self.pull or not paths:
            return
        results = self.diagnostics_of(sorted(paths))
        for path, diags in results.items():
            self.publish(path, diags)
        if len(results) > 1:
            self.release_texts_soon()

    def queue_publish(self, paths) -> None:
        """Publish in batches: open documents first, then PUSH_BATCH files at a time, yielding to the
        event loop between batches so edits and requests are answered while thousands of files that
        are not open get their diagnostics (index time, re-index, a change that touches many)."""
        if self.pull or not paths:
            return
        for p in sorted(paths, key=lambda p: (p not in self.open_docs, p)):
            self._push_pending[p] = None
        if self._push_task is None or self._push_task.done():
            self._push_task = asyncio.get_running_loop().create_task(self._push_batches())

    async def _push_batches(self) -> None:
        try:
            await asyncio.sleep(0)
            count = 0
            while self._push_pending:
                batch = []
                for p in list(self._push_pending):
                    batch.append(p)
                    del self._push_pending[p]
                    if len(batch) >= PUSH_BATCH:
                        break
                if not await self.wait_ready():
                    return
                for path, diags in self.diagnostics_of(batch).items():
                    self.publish(path, diags)
                count += len(batch)
                await asyncio.sleep(0)
            if count > 1:
                self.release_texts_soon()  # after a quiet second: a release sooner made disk changes re-read files
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("publishing diagnostics failed")

    def release_texts_soon(self, delay: float = 1.0) -> None:
        """After a batch (index, disk changes, workspace pull), let files that are not open drop their
        text until next needed: an index of 10,000 skills would otherwise keep every body in memory."""
        if self._release_handle is not None:
            self._release_handle.cancel()

        def release() -> None:
            self._release_handle = None
            count = 0
            for st in self.states.values():
                if st.index is not None:
                    count += st.index.store.release_texts()
            log.debug("released the text of %d documents", count)
            if count or not self._heap_frozen:
                _return_memory_to_os(collect=not self._heap_frozen)
                self._heap_frozen = True

        try:
            self._release_handle = asyncio.get_running_loop().call_later(delay, release)
        except RuntimeError:  # no running loop (tests calling directly)
            release()

    def schedule_document(self, path: str, delay: float = EDIT_DEBOUNCE) -> None:
        """Debounced diagnostics for one document (push clients)."""
        if self.pull:
            return
        task = self._doc_tasks.pop(path, None)
        if task is not None and not task.done():
            task.cancel()
        self._doc_tasks[path] = asyncio.get_running_loop().create_task(self._document_later(path, delay))

    async def _document_later(self, path: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            if not await self.wait_ready(path):
                return
            self._doc_tasks.pop(path, None)
            self.publish_paths([path])
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("diagnostics for %s failed", path)

    def refresh_pull_clients(self) -> None:
        if not self.pull:
            return
        try:
            self.workspace_diagnostic_refresh(None)
        except Exception:  # pragma: no cover
            log.exception("workspace/diagnostic/refresh failed")

    def workspace_paths_in(self, paths) -> set[str]:
        return {p for p in paths if p in self.open_docs or self.in_some_folder(p)}

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
        files |= {p for p in set(self.open_docs) | set(self.pushed) if self.state_for(p) is state}
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
            folders.append({"workspace": key, **st.summary(), "catalog": catalog})
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

    # -- buffers -----------------------------------------------------------------------------------
    def buffer_changed(self, path: str, text: str, version: int | None) -> None:
        """A buffer is the truth for every folder that indexes the file (a shared user root)."""
        for key, st in self.states.items():
            touched = st.set_overlay(path, text, version)
            if touched:
                self._queue_resolution_update(key, touched)
        self.schedule_document(path)
        self.schedule_catalog_check()

    def buffer_closed(self, path: str) -> None:
        task = self._doc_tasks.pop(path, None)
        if task is not None:
            task.cancel()
        for key, st in self.states.items():
            touched = st.drop_overlay(path)
            if touched:
                self._queue_resolution_update(key, touched)
        self.schedule_catalog_check()
        if not self.pull:
            # Files outside the workspace folders only have diagnostics while open (SPEC §8).
            owner = self.state_for(path)
            if self.in_some_folder(path):
                if owner is not None and owner.index is not None:
                    self.publish_paths([path])
            else:
                self.clear(path)

    def note_disk_text(self, path: str) -> None:
        """Remember what the file of an open buffer holds on disk (at open and save), so that a buffer
        whose file vanishes can be told clean (released) from edited (kept)."""
        try:
            with open(path, encoding="utf-8", newline="") as f:
                self.disk_texts[path] = f.read().removeprefix("\ufeff")  # editors drop the BOM
        except (OSError, UnicodeDecodeError):
            self.disk_texts[path] = None

    def _release_vanished_buffers(self, pending: set[str], touched_by_folder: dict[str, set[tuple[str, str]]]) -> None:
        """An open buffer whose file vanished from disk (deleted, or moved away with its directory) and
        that still holds what the disk held is as good as closed: the analysis, and the shadowing of the
        other copies, follow the disk as `skill-ls check` does. (VS Code keeps a document that an extension
        opened for minutes after its tab closed; it would otherwise keep a moved copy alive.) A buffer
        with edits is kept: it may be saved back. A later edit makes it a buffer again."""
        prefixes = tuple(p.rstrip(os.sep) + os.sep for p in pending)
        for path in list(self.open_docs):
            if not (path in pending or path.startswith(prefixes)) or os.path.exists(path):
                continue
            text = next((st.overlays[path][0] for st in self.states.values() if path in st.overlays), None)
            if text is None or text != self.disk_texts.get(path):
                continue
            log.info("%s vanished from disk and its buffer has no edits: analysed as closed", path)
            self.open_docs.pop(path, None)
            self.disk_texts.pop(path, None)
            for key, st in self.states.items():
                touched = st.drop_overlay(path)
                if touched:
                    touched_by_folder.setdefault(key, set()).update(touched)

    def follow_index(self) -> None:
        """The watchers follow the index: skill directories, roots, skills outside every root."""
        from skill_ls.server.features.watching import follow_index

        try:
            follow_index(self)
        except Exception:
            log.exception("cannot update the watchers")

    # -- disk changes ------------------------------------------------------------------------------
    def disk_changed_threadsafe(self, path: str) -> None:
        """Called from watchdog threads."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.disk_changed, path)

    def disk_changed(self, path: str) -> None:
        self._disk_pending.add(os.path.abspath(path))
        self._arm_disk_task()

    def _queue_resolution_update(self, key: str, touched: set[tuple[str, str]]) -> None:
        self._touched_pending.setdefault(key, set()).update(touched)
        self._arm_disk_task()

    def _arm_disk_task(self) -> None:
        if self._disk_task is not None and not self._disk_task.done():
            self._disk_task.cancel()
        self._disk_task = asyncio.get_running_loop().create_task(self._process_disk_later())

    async def _process_disk_later(self) -> None:
        try:
            await asyncio.sleep(DISK_DEBOUNCE)
        except asyncio.CancelledError:
            return
        if not await self.wait_ready():
            return
        pending, self._disk_pending = self._disk_pending, set()
        touched, self._touched_pending = self._touched_pending, {}
        log.debug("processing %d changes: %.300s", len(pending), sorted(pending))
        try:
            self._process_changes(pending, touched)
        except Exception:
            log.exception("processing file changes failed")

    def _process_changes(self, pending: set[str], touched_by_folder: dict[str, set[tuple[str, str]]]) -> None:
        """Apply changes to every folder's index; then republish (push) or ask the client to re-pull
        every affected file, open or not. A change that needs a full rebuild of a folder (its
        configuration, a new root, agent discovery) re-indexes that folder, which republishes all."""
        changed_files = pending
        self._release_vanished_buffers(pending, touched_by_folder)
        if any(os.path.basename(p) in CATALOG_SIDECARS for p in changed_files):
            self._catalog_salt += 1  # MCP servers, marketplace metadata, AGH consent: read by catalogs
        affected: set[str] = set()
        rebuild: set[str] = set()
        for key, state in list(self.states.items()):
            if state.index is None:
                continue
            touched = set(touched_by_folder.get(key, ()))
            holding: set[str] = set()  # skills whose directory holds a changed file (their references)
            for item in sorted(pending):
                result = state.file_changed(item)
                if result is None:
                    log.info("re-indexing %s after a change to %s", key, item)
                    rebuild.add(key)
                    break
                touched |= result
                if os.path.basename(item) == "config.toml" or item in self.open_docs:
                    touched.add(("", ""))
                holding |= state.skills_holding(item)
            if key in rebuild:
                continue
            affected |= {p for p in holding if self.state_for(p) is state}
            affected |= {p for p in state.affected_paths(touched) if self.state_for(p) is state}
            affected |= {p for p in changed_files if state.relevant(p) and self.state_for(p) is state}
        affected |= set(self.open_docs)  # cheap: a handful of buffers, and shadowing is global
        if rebuild:
            self.request_reindex(rebuild)
        self.follow_index()
        if self.pull:
            self.refresh_pull_clients()
            self.schedule_catalog_check(CATALOG_AFTER_CHANGE)
            return
        gone = {p for p in changed_files | affected if not os.path.exists(p) and p not in self.open_docs}
        # A directory moved or deleted as a whole (watchdog reports the directory only): every file
        # pushed from under it is gone too.
        gone_dirs = tuple(p.rstrip(os.sep) + os.sep for p in gone)
        if gone_dirs:
            gone |= {p for p in self.pushed if p.startswith(gone_dirs) and p not in self.open_docs}
        for p in gone:
            if p in self.pushed:
                self.clear(p)
        keep = {p for p in self.workspace_paths_in(affected | (changed_files & set(self.pushed))) if p not in gone}
        self.queue_publish({p for p in keep if getattr(self.state_for(p), "workspace", None) not in rebuild})
        # The fingerprint walks every declaration: after the first batch (open documents first).
        self.schedule_catalog_check(CATALOG_AFTER_CHANGE)


def create_server() -> SkillLanguageServer:
    from skill_ls.server.features import register_all

    server = SkillLanguageServer()
    register_all(server)
    return server
