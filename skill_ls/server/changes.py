"""The server's fourth layer: changes. An editor buffer is the truth for every folder that indexes
its file; a buffer edit that changes a name, and changes on disk (from the client's watched files
or the server's own watchers), are collected and applied to every folder's index together after
`DISK_DEBOUNCE` seconds; then the affected files are republished or re-pulled, and a folder whose
change needs a rebuild (its configuration, a new root) is re-indexed.
"""
from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.parse.text import read_bytes
from skill_ls.core.paths import is_under
from skill_ls.server.indexing import IndexingServer

log = logging.getLogger("skill_ls.server")

DISK_DEBOUNCE = 0.2
MASS_CHANGE = 64  # a batch of this many changed files rescans its folders instead of applying each
LOST_EVENTS_DELAY = 0.5  # after lost file events, rescan once the storm has had this long to pass
CATALOG_AFTER_CHANGE = 0.1  # seconds after a disk change's diagnostics are queued
CATALOG_SIDECARS = frozenset({"mcp.json", ".agh-meta.json", "config.toml"})


class ChangesServer(IndexingServer):
    """Buffers opened, edited and closed; files changed on disk."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.disk_texts: dict[str, str | None] = {}  # open path -> its file's text when opened or saved
        self._disk_pending: set[str] = set()  # paths changed on disk
        self._touched_pending: dict[str, set[tuple[str, str]]] = {}  # folder -> (runtime, name) changed in a buffer
        self._disk_task: asyncio.Task[None] | None = None
        self._lost_pending: set[str] = set()  # folders to rescan after lost file events
        self._lost_handle: asyncio.TimerHandle | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.changes_seen = 0  # changes on disk received (from the client or the server's watchers)

    def scheduled(self) -> list[str]:
        out = super().scheduled()
        if self._disk_pending or self._touched_pending or (self._disk_task is not None and not self._disk_task.done()):
            out.append("changes")
        return out

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
            # Files outside the workspace folders only have diagnostics while open.
            owner = self.state_for(path)
            if not os.path.lexists(path):
                # A new file closed without ever being saved (`:e new/SKILL.md`, `:bw!`): nothing is
                # left to check, so nothing is left to show (not a "cannot read file" error forever).
                self.clear(path)
                self.disk_texts.pop(path, None)
            elif self.in_some_folder(path):
                if owner is not None and owner.index is not None:
                    self.publish_paths([path])
            else:
                self.clear(path)

    def note_disk_text(self, path: str, held: str | None = None) -> None:
        """Remember what the file of an open buffer holds on disk (at open and save), so that a buffer
        whose file vanishes can be told clean (released) from edited (kept). `held`: what the client
        says the file held (the text it loaded at didOpen, its buffer at didSave), taken when the file
        is gone by the time the server reads the message — a loaded machine reads didOpen late, and a
        folder moved meanwhile left a clean buffer taken for an edited one for good."""
        data, error, truncated = read_bytes(path)  # never blocks on a FIFO, never reads a device
        if error is not None and held is not None and not os.path.lexists(path):
            self.disk_texts[path] = held
            return
        try:
            self.disk_texts[path] = None if error or truncated else data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            self.disk_texts[path] = None

    def note_opened(self, path: str, text: str) -> None:
        """didOpen: what the disk holds; when the file is already gone, the text the editor loaded if
        the index knew the file on disk (it vanished after the editor read it). A new buffer that was
        never on disk (`:e new/SKILL.md`) has no disk text: it is a buffer, never a vanished file."""
        self.note_disk_text(path, text if self._known_on_disk(path) else None)

    def note_saved(self, path: str) -> None:
        """didSave: the client wrote its buffer to the file: what the disk holds, or that buffer when
        the file is already gone again."""
        self.note_disk_text(path, self._buffer_text(path))

    def _buffer_text(self, path: str) -> str | None:
        return next((st.overlays[path][0] for st in self.states.values() if path in st.overlays), None)

    def _known_on_disk(self, path: str) -> bool:
        """Whether some folder's index read `path` from disk (a declaration, an agent, a listed file)."""
        for st in self.states.values():
            index = st.index
            if index is not None and path not in st.overlays and (
                    index.decls_for_path(path) or index.agent_at(path) is not None or path in st.workspace_files()):
                return True
        return False

    def _release_vanished_buffers(self, touched_by_folder: dict[str, set[tuple[str, str]]] | None = None) -> None:
        """An open buffer whose file vanished from disk (deleted, or moved away with its directory) and
        that still holds what the disk held is as good as closed: the analysis, and the shadowing of the
        other copies, follow the disk as `skill-ls check` does. (VS Code keeps a document that an extension
        opened for minutes after its tab closed; it would otherwise keep a moved copy alive.) A buffer
        with edits is kept: it may be saved back. A later edit makes it a buffer again.

        Every open buffer is looked at (a handful of `exists` calls), before each batch of changes and
        before each rebuild: not only those under the batch's paths, since which paths a batch holds
        depends on the watcher, the order and the timing of its events (a folder moved out of the
        watched tree is reported as the folder alone, or its files, or nothing at all when events were
        lost and the folders are rescanned)."""
        for path in list(self.open_docs):
            if os.path.exists(path):
                continue
            text = self._buffer_text(path)
            if text is None or text != self.disk_texts.get(path):
                continue
            log.info("%s vanished from disk and its buffer has no edits: analysed as closed", path)
            self.open_docs.pop(path, None)
            self.disk_texts.pop(path, None)
            for key, st in self.states.items():
                touched = st.drop_overlay(path)
                if touched and touched_by_folder is not None:
                    touched_by_folder.setdefault(key, set()).update(touched)

    async def _reindex_once(self, state: WorkspaceState) -> None:
        # A rescan (lost events, a configuration change) reads the disk again: a buffer whose file
        # vanished without edits is released first, as a batch of changes would (it takes part in no
        # index the rescan builds).
        self._release_vanished_buffers()
        await super()._reindex_once(state)

    # -- disk changes ------------------------------------------------------------------------------
    def disk_changed_threadsafe(self, path: str) -> None:
        """Called from watchdog threads."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.disk_changed, path)

    def events_lost_threadsafe(self, where: str | None) -> None:
        """Called from watchdog threads (or its logger) when events were lost (an inotify queue
        overflow): every change in that time is unknown, so the roots are read again."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.events_lost, where)

    def events_lost(self, where: str | None) -> None:
        """Rescan the folders whose files lie under `where` (every folder when unknown), once the
        storm that overflowed the queue has had a moment to pass; later events are applied as usual
        on top. The rebuilt index is published like any other: the server converges to `check`."""
        keys = {k for k, st in self.states.items()
                if where is None or is_under(where, st.workspace) or is_under(st.workspace, where)
                or any(is_under(d, where) or is_under(where, d) for d in st.read_dirs())} or set(self.states)
        log.warning("file events were lost (%s): rescanning %d folder(s)", where or "queue overflow", len(keys))
        self._lost_pending |= keys
        if self._lost_handle is None:
            self._lost_handle = asyncio.get_running_loop().call_later(LOST_EVENTS_DELAY, self._rescan_lost)

    def _rescan_lost(self) -> None:
        self._lost_handle = None
        keys, self._lost_pending = self._lost_pending, set()
        self.request_reindex(keys)

    def disk_changed(self, path: str) -> None:
        self.changes_seen += 1
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
        self._release_vanished_buffers(touched_by_folder)
        if any(os.path.basename(p) in CATALOG_SIDECARS for p in changed_files):
            self._catalog_salt += 1  # MCP servers, marketplace metadata, AGH consent: read by catalogs
        affected: set[str] = set()
        rebuild: set[str] = set()
        if len(pending) >= MASS_CHANGE:
            # A mass change (a checkout, a formatter over the tree, a queue overflow's aftermath): one
            # rescan of each folder concerned is linear, where applying thousands of changes one by
            # one re-resolves the names each time (2,000 rewritten files never converged).
            rebuild = {k for k, st in self.states.items() if st.index is not None and
                       any(is_under(p, k) or st.relevant(p) for p in pending)}
            if rebuild:
                log.info("%d files changed: rescanning %d folder(s)", len(pending), len(rebuild))
        for key, state in list(self.states.items()):
            if state.index is None or key in rebuild:
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
                holding |= state.depending_on(item)  # files whose findings depend on it (HK003, PL002, PL004)
                if os.path.basename(os.path.dirname(item)) == ".claude-plugin":  # a plugin's or marketplace's
                    root = os.path.dirname(os.path.dirname(item))  # manifest: what its files are may change
                    holding |= {p for p in self.pushed if is_under(p, root)}
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
