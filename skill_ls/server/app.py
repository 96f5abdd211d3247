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
import logging
import os
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from skill_ls import __version__
from skill_ls.core.model import Diagnostic
from skill_ls.core.parse.text import SourceText
from skill_ls.server.convert import Converter, path_of, uri_of
from skill_ls.analysis.workspace import WorkspaceState

log = logging.getLogger("skill_ls.server")

EDIT_DEBOUNCE = 0.005  # seconds: coalesces edit storms, keeps keystroke-to-diagnostics low
DISK_DEBOUNCE = 0.2
READY_TIMEOUT = 120.0
INDEX_CHANGED = "skillLs/indexChanged"


_ANSWERED = object()  # a malformed request that was already answered with an error


def _return_memory_to_os() -> None:
    """Freed text is large blocks that glibc keeps unless asked; hand them back (Linux only)."""
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass


class SkillProtocol(LanguageServerProtocol):
    """pygls drops a request whose params do not deserialize (the client would wait forever);
    answer it with InvalidParams instead, and ignore malformed notifications."""

    def structure_message(self, data: Any):
        try:
            return super().structure_message(data)
        except JsonRpcException:
            if not isinstance(data, dict) or "method" not in data:
                raise
            if "id" in data and isinstance(data["id"], (str, int)):
                method = data.get("method")
                self._send_response(data["id"], error=JsonRpcInvalidParams(
                    f"Invalid params for {method!r}").to_response_error())
            else:
                log.warning("ignoring malformed %r notification", data.get("method"))
            return _ANSWERED

    def _send_handler_result(self, future, *, msg_id):
        """A request that fails with a JSON-RPC error of ours (an unknown agent, a bad argument) is
        an answer, not a crash: reply with the error and log one line, not a traceback."""
        if not future.cancelled() and isinstance(future.exception(), JsonRpcException):
            exc = future.exception()
            self._request_futures.pop(msg_id, None)
            log.info("request %s failed: %s", msg_id, exc)
            self._send_response(msg_id, error=exc.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def handle_message(self, message):
        if message is _ANSWERED:
            return
        if not hasattr(message, "jsonrpc"):
            log.warning("ignoring a message that is not JSON-RPC: %.200r", message)
            return
        return super().handle_message(message)


class SkillLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("skill-ls", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=SkillProtocol)
        self.state: WorkspaceState | None = None
        self.init_options: dict[str, Any] = {}
        self.pull = False  # client supports textDocument/diagnostic: never push
        self.open_docs: dict[str, str] = {}  # path -> uri
        self.pushed: set[str] = set()  # paths with non-empty pushed diagnostics
        self._ready: asyncio.Event | None = None
        self._doc_tasks: dict[str, asyncio.Task[None]] = {}
        self._disk_pending: set[str] = set()  # paths changed on disk
        self._touched_pending: set[tuple[str, str]] = set()  # (runtime, name) changed in a buffer
        self._disk_task: asyncio.Task[None] | None = None
        self._build_task: asyncio.Task[None] | None = None
        self._rebuild_again = False
        self._release_handle: asyncio.TimerHandle | None = None
        self._last_summary: dict[str, Any] | None = None
        self._result_id = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watchers: Any = None  # skill_ls.server.features.watching.RootWatchers
        self.client_watches_workspace = False
        self.converter = Converter()

    def report_server_error(self, error: Exception, source) -> None:
        # Malformed input is logged, not shown: a message box per bad packet helps nobody.
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)

    @property
    def live_state(self) -> WorkspaceState:
        """The workspace state, created by `initialize` before any request or change that uses it."""
        if self.state is None:
            raise RuntimeError("the server is not initialized")
        return self.state

    # -- readiness -------------------------------------------------------------------------------
    @property
    def ready(self) -> asyncio.Event:
        if self._ready is None:
            self._ready = asyncio.Event()
        return self._ready

    async def wait_ready(self) -> bool:
        if self.state is not None and self.state.index is not None:
            return True
        try:
            await asyncio.wait_for(self.ready.wait(), READY_TIMEOUT)
        except asyncio.TimeoutError:
            return False
        return self.state is not None and self.state.index is not None

    # -- documents -------------------------------------------------------------------------------
    def path(self, uri: str) -> str | None:
        p = path_of(uri)
        return os.path.abspath(p) if p else None

    def document(self, path: str):
        """The parsed document (editor buffer over disk) or None without an index."""
        if self.state is None or self.state.index is None:
            return None
        return self.state.index.store.peek(path)

    def src_of(self, path: str) -> SourceText | None:
        if self.state is not None and self.state.index is not None:
            try:
                return self.state.index.store.peek(path).src
            except Exception:  # pragma: no cover - defensive
                return None
        overlay = self.state.overlays.get(path) if self.state else None
        return SourceText.from_str(overlay[0]) if overlay else None

    def lsp_diagnostics(self, diags: list[Diagnostic]) -> list[types.Diagnostic]:
        return [self.converter.diagnostic(d, self.src_of) for d in diags]

    def next_result_id(self) -> str:
        self._result_id += 1
        return str(self._result_id)

    # -- pushing ---------------------------------------------------------------------------------
    def publish(self, path: str, diags: list[Diagnostic]) -> None:
        if self.pull:
            return
        overlay = self.state.overlays.get(path) if self.state else None
        if not diags and path not in self.pushed and path not in self.open_docs:
            return
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=self.open_docs.get(path) or uri_of(path), diagnostics=self.lsp_diagnostics(diags),
            version=overlay[1] if overlay else None))
        if diags:
            self.pushed.add(path)
        else:
            self.pushed.discard(path)

    def clear(self, path: str) -> None:
        if self.pull:
            return
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri_of(path), diagnostics=[]))
        self.pushed.discard(path)

    def publish_paths(self, paths) -> None:
        if self.pull or self.state is None or self.state.index is None or not paths:
            return
        results = self.state.diagnostics(sorted(paths))
        for path, diags in results.items():
            self.publish(path, diags)
        if len(results) > 1:
            self.release_texts_soon()

    def release_texts_soon(self, delay: float = 1.0) -> None:
        """After a batch (index, disk changes, workspace pull), let files that are not open drop their
        text until next needed: an index of 10,000 skills would otherwise keep every body in memory."""
        if self._release_handle is not None:
            self._release_handle.cancel()

        def release() -> None:
            self._release_handle = None
            if self.state is not None and self.state.index is not None:
                count = self.state.index.store.release_texts()
                log.debug("released the text of %d documents", count)
                if count:
                    _return_memory_to_os()

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
            if not await self.wait_ready():
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
        caps = self.client_capabilities.workspace
        if caps is not None and caps.diagnostics is not None and caps.diagnostics.refresh_support:
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:  # pragma: no cover
                log.exception("workspace/diagnostic/refresh failed")

    def workspace_paths_in(self, paths) -> set[str]:
        ws = self.live_state.workspace.rstrip(os.sep) + os.sep
        return {p for p in paths if p.startswith(ws) or p in self.open_docs}

    # -- index lifecycle -------------------------------------------------------------------------
    def request_reindex(self) -> asyncio.Task[None]:
        """Start a full rebuild (or queue one after the running rebuild)."""
        if self._build_task is not None and not self._build_task.done():
            self._rebuild_again = True
            return self._build_task
        self._build_task = asyncio.get_running_loop().create_task(self._reindex())
        return self._build_task

    async def _reindex(self) -> None:
        while True:
            self._rebuild_again = False
            try:
                await self._reindex_once()
            except Exception:
                log.exception("indexing failed")
                self.window_show_message(types.ShowMessageParams(types.MessageType.Error,
                                                                 "skill-ls: indexing failed; see the server log"))
            if not self._rebuild_again:
                return

    async def _reindex_once(self) -> None:
        state = self.live_state
        state.load_config()
        if state.settings_error:
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Warning, f"skill-ls: ignoring client settings: {state.settings_error}"))
        if state.config_error:
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Error, f"skill-ls: {state.config_error}; using the default configuration"))
        token = await self._progress_begin("skill-ls: indexing skills")
        previous_pushed = set(self.pushed)
        index = await asyncio.to_thread(state.build_index)
        state.install(index)
        self.ready.set()
        self._progress_end(token, f"{state.summary()['skills']} skills indexed")
        if self.watchers is not None:
            try:
                self.watchers.update(state)
            except Exception:
                log.exception("cannot watch roots")
        self.notify_index_changed(force=True)
        if self.pull:
            self.refresh_pull_clients()
            return
        files = set(state.workspace_files()) | set(self.open_docs) | previous_pushed
        if state.config_error and state.config_path:
            files.add(state.config_path)
        self.publish_paths(files)

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

    def notify_index_changed(self, force: bool = False) -> None:
        summary = self.live_state.summary()
        if force or summary != self._last_summary:
            self._last_summary = summary
            self.protocol.notify(INDEX_CHANGED, summary)

    # -- buffers -----------------------------------------------------------------------------------
    def buffer_changed(self, path: str, text: str, version: int | None) -> None:
        touched = self.live_state.set_overlay(path, text, version)
        self.schedule_document(path)
        if touched:
            self._queue_resolution_update(touched)

    def buffer_closed(self, path: str) -> None:
        task = self._doc_tasks.pop(path, None)
        if task is not None:
            task.cancel()
        touched = self.live_state.drop_overlay(path)
        if touched:
            self._queue_resolution_update(touched)
        if not self.pull:
            # Files outside the workspace only have diagnostics while open (SPEC §8).
            ws = self.live_state.workspace.rstrip(os.sep) + os.sep
            if path.startswith(ws) and self.live_state.index is not None:
                self.publish_paths([path])
            else:
                self.clear(path)

    # -- disk changes ------------------------------------------------------------------------------
    def disk_changed_threadsafe(self, path: str) -> None:
        """Called from watchdog threads."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.disk_changed, path)

    def disk_changed(self, path: str) -> None:
        self._disk_pending.add(os.path.abspath(path))
        self._arm_disk_task()

    def _queue_resolution_update(self, touched: set[tuple[str, str]]) -> None:
        self._touched_pending |= touched
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
        touched, self._touched_pending = self._touched_pending, set()
        log.debug("processing %d changes: %.300s", len(pending), sorted(pending))
        try:
            self._process_changes(pending, touched)
        except Exception:
            log.exception("processing file changes failed")

    def _process_changes(self, pending: set[str], touched: set[tuple[str, str]]) -> None:
        """Disk changes (`pending` paths) and buffer edits that changed names (`touched`)."""
        state = self.live_state
        touched = set(touched)
        for item in sorted(pending):
            result = state.file_changed(item)
            if result is None:
                log.info("re-indexing after a change to %s", item)
                self.request_reindex()
                return
            touched |= result
            if os.path.basename(item) == "config.toml" or item in self.open_docs:
                touched.add(("", ""))
        changed_files = pending
        affected = state.affected_paths(touched) | {p for p in changed_files if state.relevant(p)}
        affected |= set(self.open_docs)  # cheap: a handful of buffers, and shadowing is global
        self.notify_index_changed()
        if self.pull:
            self.refresh_pull_clients()
            return
        gone = {p for p in changed_files | affected if not os.path.exists(p) and p not in self.open_docs}
        for p in gone:
            self.clear(p)
        self.publish_paths({p for p in self.workspace_paths_in(affected | (changed_files & self.pushed)) if p not in gone})


def create_server() -> SkillLanguageServer:
    from skill_ls.server.features import register_all

    server = SkillLanguageServer()
    register_all(server)
    return server
