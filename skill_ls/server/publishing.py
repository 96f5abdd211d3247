"""The server's second layer: publishing diagnostics. Pull clients that can be refreshed are
asked to re-pull (`refresh_pull_clients`); every other client is pushed every file in scope: one
document after an edit (debounced per document, tagged with its version), thousands after an index
build or a change on disk in batches (`queue_publish`), unchanged diagnostics of unopened files not
resent. After a batch, files that are not open release their text (`release_texts_soon`).
"""
from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from lsprotocol import types

from skill_ls.analysis.check import file_failure
from skill_ls.core.model import Diagnostic
from skill_ls.server.convert import uri_of
from skill_ls.server.folders import FolderServer

log = logging.getLogger("skill_ls.server")

EDIT_DEBOUNCE = 0.005  # seconds: coalesces edit storms, keeps keystroke-to-diagnostics low
PUSH_BATCH = 200  # files whose diagnostics are computed and pushed between two turns of the event loop
TEXT_RELEASE = "text release"  # scheduled: files not open will give up their text (changes nothing a client sees)


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


class PublishingServer(FolderServer):
    """Pushing and pull refreshes; per-document debounce; releasing texts after a batch."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pull = False  # diagnostics by pull: the client pulls and can be asked to re-pull (refresh)
        self.pushed: dict[str, int] = {}  # path -> hash of the diagnostics last pushed (non-empty only)
        self.pull_reported: set[str] = set()  # paths in the last workspace/diagnostic answer (pull)
        self.document_pulled: set[str] = set()  # paths answered by a document pull since (pull)
        self._doc_tasks: dict[str, asyncio.Task[None]] = {}
        self._push_pending: dict[str, None] = {}  # ordered set of paths to (re)publish
        self._push_task: asyncio.Task[None] | None = None
        self._release_handle: asyncio.TimerHandle | None = None
        self._heap_frozen = False  # the index graph is in gc's permanent generation (see _return_memory_to_os)

    # -- pushing ---------------------------------------------------------------------------------
    def scheduled(self) -> list[str]:
        out = super().scheduled()
        if any(not t.done() for t in self._doc_tasks.values()):
            out.append("document diagnostics")
        if self._push_pending or (self._push_task is not None and not self._push_task.done()):
            out.append("publishing")
        if self._release_handle is not None:
            out.append(TEXT_RELEASE)
        return out

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

    def publish_safely(self, path: str, diags: list[Diagnostic]) -> None:
        """`publish`, behind the per-file boundary: a file whose findings cannot be converted or sent
        is logged and published as its SL001 alone, and the other files of the batch still go out."""
        try:
            self.publish(path, diags)
        except Exception as exc:  # noqa: BLE001
            log.exception("publishing diagnostics of %s failed", path)
            try:
                self.publish(path, [file_failure(path, "publishing its findings", exc)], force=True)
            except Exception:  # noqa: BLE001
                log.exception("publishing SL001 on %s failed", path)

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
            self.publish_safely(path, diags)
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
                    self.publish_safely(path, diags)
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
