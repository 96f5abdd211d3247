"""The live index: files changing on disk.

- Roots outside the workspace ($AGH_HOME/skills, ~/.claude/skills, ~/.agents/skills, …) are watched
  with watchdog. A root that does not exist yet is noticed through its nearest existing parent
  (non-recursive), so creating it triggers a re-index.
- Workspace files come from `workspace/didChangeWatchedFiles` when the client registered our globs
  dynamically; otherwise (e.g. Neovim on Linux) watchdog watches the workspace too.
Watchdog threads only hand paths to the event loop; all analysis happens there, debounced.
"""
from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from lsprotocol import types

from skill_ls.core.editor_patterns import editor_patterns
from skill_ls.core.paths import is_under

if TYPE_CHECKING:
    from watchdog.observers.api import ObservedWatch

log = logging.getLogger("skill_ls.server.watching")

# What the editors open (skill files, every agent family's definitions, sidecars, configuration),
# and pyproject.toml, which may hold `[tool.skill-ls]`.
WATCH_GLOBS = (*editor_patterns()["markdown"], *editor_patterns()["sidecars"], "**/pyproject.toml")
# Directories created and deleted. A client's watcher reports a directory moved into, out of or deleted from
# the workspace as that directory alone, never the files in it (VS Code drops the deletes of a deleted
# folder's children): `**/SKILL.md` would miss a skill folder moved away. Any path matches, so the server
# keeps only the directories that can hold what an index reads (`relevant_directory`).
DIRECTORY_GLOB = "**/*"
_SKIP_PARTS = (f"{os.sep}.git{os.sep}", f"{os.sep}node_modules{os.sep}")


class RootWatchers:
    """watchdog observers for the roots the client does not watch for us."""

    def __init__(self, ls):
        self.ls = ls
        self.observer = None
        self.watched: dict[tuple[str, bool], ObservedWatch] = {}
        self.roots: set[str] = set()
        self.parents: set[str] = set()

    def _wanted(self, state) -> tuple[set[str], set[str]]:
        """(recursive dirs, non-recursive parent dirs)."""
        index = state.index
        recursive: set[str] = set()
        pending = state.read_dirs()
        if index.env.agh_home:
            pending.add(index.env.agh_home)  # config.toml lives here
        parents: set[str] = set()
        for path in pending:
            if is_under(path, state.workspace) and self.ls.client_watches_workspace:
                continue
            if os.path.isdir(path):
                recursive.add(path)
            else:
                parent = os.path.dirname(path)
                while parent and not os.path.isdir(parent):
                    parent = os.path.dirname(parent)
                if parent and parent not in ("/", os.sep) and (
                        not index.env.home or is_under(parent, index.env.home) or is_under(parent, state.workspace)):
                    parents.add(parent)
        if not self.ls.client_watches_workspace and state.broad_workspace() is None:
            recursive.add(state.workspace)  # (not a workspace too large to list: `/`, `$HOME`)
        return recursive, parents

    def update(self, states) -> None:
        """Watch what every workspace folder's index reads (a state, or a list of them)."""
        if not isinstance(states, (list, tuple)):
            states = [states]
        recursive: set[str] = set()
        parents: set[str] = set()
        for state in states:
            if state.index is None:
                continue
            r, p = self._wanted(state)
            recursive |= r
            parents |= p
        # A recursive watch covers everything below it.
        recursive = {p for p in recursive if not any(q != p and is_under(p, q) for q in recursive)}
        parents = {p for p in parents if not any(is_under(p, q) for q in recursive)}
        self._apply(recursive, parents)

    def _apply(self, recursive: set[str], parents: set[str]) -> None:
        try:
            from watchdog.events import FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError:  # pragma: no cover - watchdog is a dependency
            log.warning("watchdog is not installed: roots outside the workspace are not watched")
            return
        wanted = {(p, True) for p in recursive} | {(p, False) for p in parents}
        if self.observer is None:
            self.observer = Observer()
            self.observer.daemon = True
            self.observer.start()
        ls = self.ls

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event):
                if event.event_type in ("opened", "closed", "closed_no_write"):
                    return
                if event.is_directory and event.event_type == "modified":
                    return  # a directory's mtime: its entries' own events follow
                for p in (getattr(event, "src_path", None), getattr(event, "dest_path", None)):
                    if not p:
                        continue
                    p = os.fsdecode(p)
                    if any(part in p for part in _SKIP_PARTS):
                        continue
                    if event.is_directory or any(st.relevant(p) for st in list(ls.states.values())):
                        ls.disk_changed_threadsafe(p)

        for key in list(self.watched):
            if key not in wanted:
                try:
                    self.observer.unschedule(self.watched.pop(key))
                except Exception:
                    pass
        for path, rec in sorted(wanted):
            if (path, rec) in self.watched:
                continue
            try:
                self.watched[(path, rec)] = self.observer.schedule(Handler(), path, recursive=rec)
            except Exception as exc:
                log.warning("cannot watch %s: %s", path, exc)
        log.info("watching %d directories (%d recursively)", len(self.watched), len(recursive))

    def stop(self) -> None:
        if self.observer is not None:
            try:
                self.observer.stop()
            except Exception:  # pragma: no cover
                pass
            self.observer = None
            self.watched.clear()


def relevant_directory(path: str, created: bool, read_dirs: list[str]) -> bool:
    """Whether a created or deleted path that is not itself a file the index reads is a directory that
    can hold such files: inside a root or agent directory, or above one (a moved `shared/` holds the
    `shared/.agh/skills` root). A created path must be a directory; a deleted one is gone, so only its
    place decides."""
    if created and not os.path.isdir(path):
        return False
    return any(is_under(path, d) or is_under(d, path) for d in read_dirs)


def register(server) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls, params: types.DidChangeWatchedFilesParams):
        if not ls.states:
            return
        read_dirs: list[str] | None = None
        for change in params.changes:
            path = ls.path(change.uri)
            if path is None:
                continue
            states = list(ls.states.values())
            if change.type == types.FileChangeType.Changed or any(st.relevant(path) for st in states):
                ls.disk_changed(path)
                continue
            # DIRECTORY_GLOB: every path created or deleted in the workspace; keep the directories.
            if any(part in path for part in _SKIP_PARTS):
                continue  # an `npm install` or a git operation: thousands of paths, none of them ours
            if read_dirs is None:
                read_dirs = sorted({d for st in states if st.index is not None for d in st.read_dirs()})
            if relevant_directory(path, change.type == types.FileChangeType.Created, read_dirs):
                ls.disk_changed(path)

