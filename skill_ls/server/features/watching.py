"""The live index: files changing on disk.

- Roots outside the workspace ($AGH_HOME/skills, ~/.claude/skills, ~/.agents/skills, …) are watched
  with watchdog. A root that does not exist yet is noticed through its nearest existing parent
  (non-recursive), so creating it triggers a re-index.
- Workspace files come from `workspace/didChangeWatchedFiles` when the client registered our globs
  dynamically; otherwise (e.g. Neovim on Linux) watchdog watches the workspace too.
- A client that watches is asked for (`client_watchers`): the skill files and sidecars anywhere in the
  workspace (`WATCH_GLOBS`); every change inside each root, agent directory and skill directory of the
  workspace (what a skill references lives there: RF001-RF005); the creation or deletion of each
  directory on the way from the workspace to a root (a folder holding a root moved in or out is
  reported as that folder alone); and each path whose existence a checked file depends on (a hook's
  script, a path a plugin.json declares: `watched_dependencies`), with the directories on the way.
  Not every path of the workspace: a build or an `npm install` elsewhere sends the server nothing.
  The directory watchers follow the index (registered again when the set changes: a new root, a new
  skill outside every root, a hook naming another script).
- Whoever watches, only paths the index reads (Claude Code's plugin and project files included), the
  paths checked files depend on, directories, and files inside a skill directory
  (`holds`) reach the event loop.
Watchdog threads only hand paths to the event loop; all analysis happens there, debounced.
"""
from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from skill_ls.core.editor_patterns import editor_patterns
from skill_ls.core.own_settings import settings_paths, workspace_settings_globs
from skill_ls.core.paths import is_under

if TYPE_CHECKING:
    from watchdog.observers.api import ObservedWatch

log = logging.getLogger("skill_ls.server.watching")

# What the editors open (skill files, every agent family's definitions, sidecars, configuration),
# and pyproject.toml, which may hold `[tool.skill-ls]`.
WATCH_GLOBS = (*editor_patterns()["markdown"], *editor_patterns()["sidecars"], "**/pyproject.toml",
               *workspace_settings_globs())  # the runtimes' own settings in a workspace (.gemini/settings.json, …)
# A client's watcher reports a directory moved into, out of or deleted from the workspace as that directory
# alone, never the files in it (VS Code drops the deletes of a deleted folder's children): `**/SKILL.md`
# would miss a skill folder moved away. The directory watchers (`client_watchers`) take every change inside
# the roots and skill directories, and the directories on the way to a root; the server keeps only the
# directories that can hold what an index reads (`relevant_directory`) and the files in skill directories.
_SKIP_PARTS = (f"{os.sep}.git{os.sep}", f"{os.sep}node_modules{os.sep}")
MAX_DIRECTORY_WATCHERS = 64  # more skill directories outside every root are watched through their parents
_GLOB_SPECIAL = str.maketrans({c: "?" for c in "*?[]{}!\\"})  # (matched as any one character)
ALL_KINDS = types.WatchKind.Create | types.WatchKind.Change | types.WatchKind.Delete


def holds(dirs: frozenset[str], path: str) -> bool:
    """Whether `path` lies inside one of `dirs` (skill directories: a reference, a script, an asset)."""
    parent = os.path.dirname(path)
    while parent and parent != os.path.dirname(parent):
        if parent in dirs:
            return True
        parent = os.path.dirname(parent)
    return False


def skill_dirs_of(states) -> frozenset[str]:
    """The skill directories of every workspace folder (the watchdog thread reads this snapshot)."""
    out: set[str] = set()
    for st in states:
        if st.index is not None:
            out.update(st.skill_dirs())
    return frozenset(out)


def watched_directories(states) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(inside, on the way) as (workspace, directory) pairs: the directories to watch for every change
    (existing roots, agent directories and skill directories outside every root, in the workspace,
    none inside another), and those whose creation or deletion alone matters (each directory from the
    workspace down to a root or agent directory, the root included)."""
    inside: dict[str, str] = {}
    way: dict[str, str] = {}
    loose: dict[str, str] = {}
    for st in states:
        if st.index is None:
            continue
        ws = st.workspace
        read = {d for d in st.read_dirs() if is_under(d, ws) and d != ws}
        for d in read:
            if os.path.isdir(d):
                inside[d] = ws
            p = d
            while p != ws and is_under(p, ws):
                way[p] = ws
                p = os.path.dirname(p)
        for d in st.skill_dirs():
            if is_under(d, ws) and not any(is_under(d, r) for r in read):
                loose[d] = ws
    while len(loose) > MAX_DIRECTORY_WATCHERS:  # a repository of skills: watch their parents
        parents = {}
        for d, ws in loose.items():
            parents[d if d == ws else os.path.dirname(d)] = ws
        if parents.keys() == loose.keys():
            break
        loose = parents
    inside.update(loose)
    keep = {d: ws for d, ws in inside.items() if not any(q != d and is_under(d, q) for q in inside)}
    on_way = [(ws, d) for d, ws in sorted(way.items()) if not any(is_under(d, q) for q in keep)]
    return [(ws, d) for d, ws in sorted(keep.items())], on_way


def client_watchers(states, relative: bool) -> list[types.FileSystemWatcher]:
    """The directory watchers a client that watches for the server is given (see the module's
    docstring): relative patterns when the client takes them (`relativePatternSupport`), else globs
    by the workspace-relative path (`**/.agh/skills/**`: also any other directory with that path below
    the workspace, which the server then drops)."""
    from skill_ls.server.convert import uri_of

    inside, on_way = watched_directories(states)
    out: list[types.FileSystemWatcher] = []

    def rel(ws: str, d: str) -> str:
        return os.path.relpath(d, ws).replace(os.sep, "/").translate(_GLOB_SPECIAL)

    for ws, d in inside:
        if relative:
            glob: types.GlobPattern = types.RelativePattern(base_uri=uri_of(d), pattern="**/*")
        else:
            glob = "**/*" if d == ws else f"**/{rel(ws, d)}/**"
        out.append(types.FileSystemWatcher(glob_pattern=glob, kind=ALL_KINDS))
    for ws, d in on_way:
        glob = types.RelativePattern(base_uri=uri_of(ws), pattern=rel(ws, d)) if relative else f"**/{rel(ws, d)}"
        out.append(types.FileSystemWatcher(glob_pattern=glob, kind=types.WatchKind.Create | types.WatchKind.Delete))
    scripts, script_way = watched_dependencies(states, [d for _, d in inside])
    for ws, d in scripts:
        glob = types.RelativePattern(base_uri=uri_of(ws), pattern=rel(ws, d)) if relative else f"**/{rel(ws, d)}"
        out.append(types.FileSystemWatcher(glob_pattern=glob, kind=ALL_KINDS))
    for ws, d in script_way:
        glob = types.RelativePattern(base_uri=uri_of(ws), pattern=rel(ws, d)) if relative else f"**/{rel(ws, d)}"
        out.append(types.FileSystemWatcher(glob_pattern=glob, kind=types.WatchKind.Create | types.WatchKind.Delete))
    return out


def watched_dependencies(states, inside: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(paths, on the way) as (workspace, path) pairs: the paths whose existence checked files depend on in
    each workspace (`WorkspaceState.dependency_paths`: hook scripts, paths a plugin.json declares),
    outside the directories watched whole (`inside`), and the directories from the workspace down to
    each (created or deleted as a whole: `rm -r scripts/`)."""
    scripts: dict[str, str] = {}
    way: dict[str, str] = {}
    for st in states:
        ws = st.workspace
        for script in st.dependency_paths() if st.index is not None else ():
            if not is_under(script, ws) or script == ws or any(is_under(script, d) for d in inside):
                continue
            scripts[script] = ws
            p = os.path.dirname(script)
            while p != ws and is_under(p, ws):
                way[p] = ws
                p = os.path.dirname(p)
    return [(ws, p) for p, ws in sorted(scripts.items())], [(ws, p) for p, ws in sorted(way.items())]


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
        pending.update(settings_paths(index))  # the runtimes' own settings files (Gemini CLI, OpenCode, Amp)
        pending.update(state.dependency_paths())  # hook scripts, declared plugin paths: their directory
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
                # (a file whose own folder exists is watched there, wherever it is: a linked Gemini
                # CLI extension's manifest, in its source; a missing folder is watched through a
                # parent only in the home directory or the workspace, never through `/` or `/etc`)
                if parent and parent not in ("/", os.sep) and (
                        not index.env.home or is_under(parent, index.env.home) or is_under(parent, state.workspace)
                        or parent == os.path.dirname(path)):
                    parents.add(parent)
        if not self.ls.client_watches_workspace and state.broad_workspace() is None:
            recursive.add(state.workspace)  # (not a workspace too large to list: `/`, `$HOME`)
        # A directory watched recursively already sees its own files: one watch per directory (a
        # settings file's directory, e.g. $AGH_HOME for config.toml, is often a root's parent too).
        parents = {p for p in parents if not any(is_under(p, r) for r in recursive)}
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
            watch_lost_events(self.ls)
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
                    if event.is_directory or any(st.relevant(p) for st in list(ls.states.values())) \
                            or holds(ls.skill_dirs, p):
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
                self.watched[(path, rec)] = self.observer.schedule(Handler(), path, recursive=rec,
                                                                   event_filter=_event_filter())
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


def _event_filter() -> list[Any]:
    """The events the handler uses. Opening, reading and closing files unwritten are left out of the
    kernel's mask: the server's own reads of thousands of files (a rescan) filled the inotify queue
    with them, overflowed it, and the overflow asked for another rescan, for ever."""
    from watchdog.events import (DirCreatedEvent, DirDeletedEvent, DirMovedEvent, FileCreatedEvent,
                                 FileDeletedEvent, FileModifiedEvent, FileMovedEvent)

    return [FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent, DirCreatedEvent,
            DirDeletedEvent, DirMovedEvent]


class _LostEvents(logging.Handler):
    """watchdog's word that the kernel dropped events (inotify's queue overflowed: a mass rewrite of
    thousands of files) reaches its logger only, not the event handlers: it becomes a rescan of the
    roots (`events_lost`), without which the lost files kept their old diagnostics for good."""

    def __init__(self, ls) -> None:
        super().__init__(logging.WARNING)
        self.ls = ls

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage().lower()
        except Exception:  # noqa: BLE001 - a log record we cannot read is not ours
            return
        if "overflow" in text or "events were lost" in text:
            self.ls.events_lost_threadsafe(None)


def watch_lost_events(ls) -> None:
    """Listen to watchdog's logger for lost events (once per server)."""
    logger = logging.getLogger("watchdog")
    if not any(isinstance(h, _LostEvents) and h.ls is ls for h in logger.handlers):
        if logger.getEffectiveLevel() > logging.WARNING:
            logger.setLevel(logging.WARNING)
        logger.addHandler(_LostEvents(ls))


def relevant_directory(path: str, created: bool, read_dirs: list[str]) -> bool:
    """Whether a created or deleted path that is not itself a file the index reads is a directory that
    can hold such files: inside a root or agent directory, or above one (a moved `shared/` holds the
    `shared/.agh/skills` root). A created path must be a directory; a deleted one is gone, so only its
    place decides."""
    if created and not os.path.isdir(path):
        return False
    return any(is_under(path, d) or is_under(d, path) for d in read_dirs)


def follow_index(ls) -> None:
    """After the index changed: the skill directories the watchers keep files of, and (a client that
    watches for the server) the directory watchers, registered again when they changed."""
    states = list(ls.states.values())
    ls.skill_dirs = skill_dirs_of(states)
    if not ls.client_watches_workspace:
        return
    watchers = client_watchers(states, ls.client_relative_patterns)
    key = repr(watchers)
    if key == ls.directory_watch_key:
        return
    ls.directory_watch_key = key
    old = ls.directory_watch_id
    ls.directory_watch_id = f"skill-ls-watched-directories-{ls.next_result_id()}"
    new = types.Registration(id=ls.directory_watch_id, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                             register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))

    async def swap() -> None:
        # The new watchers first, then the old ones go: no change falls between them.
        try:
            await asyncio.wait_for(ls.client_register_capability_async(types.RegistrationParams([new])), 10)
            if old is not None:
                await asyncio.wait_for(ls.client_unregister_capability_async(types.UnregistrationParams(
                    [types.Unregistration(id=old, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES)])), 10)
        except Exception:
            log.warning("registering the directory watchers failed", exc_info=True)

    ls.watch_tasks.append(asyncio.get_running_loop().create_task(swap()))
    ls.watch_tasks[:] = [t for t in ls.watch_tasks if not t.done()]


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
            if change.type == types.FileChangeType.Changed or any(st.relevant(path) for st in states) \
                    or holds(ls.skill_dirs, path):
                ls.disk_changed(path)
                continue
            # A directory watcher: keep the directories that can hold what an index reads.
            if any(part in path for part in _SKIP_PARTS):
                continue  # an `npm install` or a git operation: thousands of paths, none of them ours
            if read_dirs is None:
                read_dirs = sorted({d for st in states if st.index is not None for d in st.read_dirs()})
            if relevant_directory(path, change.type == types.FileChangeType.Created, read_dirs) \
                    or any(st.depending_on(path) for st in states if st.index is not None):
                ls.disk_changed(path)  # (or a directory holding a path a checked file depends on)

