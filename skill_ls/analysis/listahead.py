"""Listing ahead: while `check` imports the checker, another process lists the checked directories,
so the listings are waiting when the index's walks ask for them.

A check starts with ~70 ms of imports that need one processor, and the index is then built on a walk
of the whole checked tree (the search for nested skill folders, then the checked files): a listing
of every directory, system calls that cost ~11 µs each. When the machine has a processor for a
second process (`executor.processes`, the same rule as the per-file phase), `ListAhead.start` forks
one before the imports. It lists the checked trees as every walk lists them
(`core.listdir.list_directory`), depth first in the Walker's order, never entering what no walk
enters and never following a symlinked directory, and sends the listings back in batches (pickled,
each with its length) through a pipe.

This process never waits for it. On a miss under the checked paths the Walker asks `ListAhead`: it
takes whatever batches have arrived (a non-blocking read) and answers from them, or says it has
nothing, and the Walker lists the directory itself as before — so a listing is the one this process
would have read, only earlier in the same run, and a slow or failed lister costs nothing but its own
processor. Once the trees are listed, the lister also runs discovery's search for nested skill
folders on its listings (`core.listdir.directories_below`, the index's first walk over the whole
tree) and sends its answer for each tree; the Walker takes it instead of walking, or walks as before
when it has not arrived. `finish` (once the index is built, before the per-file phase forks its
workers) takes what has arrived and ends the lister. Only `check` lists ahead, and never with `--fix` (it writes files).

Measured and not kept: reading the skill files ahead as well. Sending a file's bytes through the pipe
costs this process about what reading it from the page cache costs (~10 µs a file at 10,000 skills:
the pipe's copies and unpickling), so only the listings, whose transfer is cheaper than the
directory system calls, are sent (docs/performance-history.md).
"""
from __future__ import annotations

import os
from typing import Any, cast

from skill_ls.analysis.executor import MAX_CHUNKS, MIN_ITEMS_PER_PROCESS, processes, roomy, send_message, take_messages
from skill_ls.core.listdir import MAX_WALK_DIRS, Below, Entry, Listing, directories_below, list_directory
from skill_ls.core.paths import NEVER_ENTER, is_under

_BATCH = 256  # listings per message


class ListAhead:
    """This process's end of a lister: the listings it sent, taken as they arrive."""

    def __init__(self, pid: int, fd: int, dirs: list[str]):
        self._pid, self._fd, self._dirs = pid, fd, dirs
        self._buffer = bytearray()
        self._listings: dict[str, Listing] = {}
        self._below: dict[str, tuple[int, Below]] = {}  # top directory -> (max_dirs, its answer)
        # Batches of listings as they arrived, unpickled when one of them is first asked for (so
        # taking `below` first, the index's first walk, does not unpickle every listing before it).
        self._packed: list[bytes] = []

    @classmethod
    def start(cls, paths: list[str], jobs: int = 0) -> "ListAhead | None":
        """A lister of the directories among `paths` (absolute paths), or None when the machine has
        no processor for one (or `jobs` says one process)."""
        dirs = [p for p in paths if os.path.isdir(p)]
        if not dirs or not hasattr(os, "fork") or processes(MAX_CHUNKS * MIN_ITEMS_PER_PROCESS, jobs) <= 1:
            return None
        try:
            r, w = os.pipe()
        except OSError:
            return None
        roomy(r)  # (the lister never waits for this process to read)
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            return None
        if pid == 0:
            _lister(dirs, r, w)
        os.close(w)
        os.set_blocking(r, False)
        return cls(pid, r, dirs)

    def listing(self, path: str) -> Listing | None:
        """The listing of `path` the lister sent (taken: it is handed out once), or None."""
        found = self._listings.pop(path, None)
        if found is None and (self._fd >= 0 or self._packed) and any(is_under(path, d) for d in self._dirs):
            self._pump()
            self._unpack()
            found = self._listings.pop(path, None)
        return found

    def below(self, base: str, max_dirs: int) -> Below | None:
        """`directories_below(base)` as the lister computed it from its listings (taken: handed out
        once), when `base` is one of the listed trees and the limit is `max_dirs`; else None."""
        if base not in self._dirs:
            return None
        if base not in self._below and self._fd >= 0:
            self._pump()
        found = self._below.pop(base, None)
        return found[1] if found is not None and found[0] == max_dirs else None

    def finish(self, wait: bool = False) -> None:
        """Take what has arrived and end the lister (`wait`: let it send everything first). The
        listings taken stay until asked for."""
        if wait and self._fd >= 0:
            os.set_blocking(self._fd, True)
        self._pump()
        self._end()

    def _end(self) -> None:
        if self._fd < 0:
            return
        os.close(self._fd)
        self._fd = -1
        import signal  # (here: a check on a busy machine, or with --jobs 1, starts no lister)

        try:
            os.kill(self._pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(self._pid, 0)
        except ChildProcessError:
            pass

    def _pump(self) -> None:
        if self._fd < 0:
            return
        while True:
            try:
                data = os.read(self._fd, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:  # the lister is done (or gone): nothing more will come
                self._take_frames()
                self._end()
                return
            self._buffer += data
        self._take_frames()

    def _unpack(self) -> None:
        import pickle

        for packed in self._packed:
            self._listings.update(pickle.loads(packed))
        self._packed.clear()

    def _take_frames(self) -> None:
        try:
            for kind, batch in cast("list[tuple[str, Any]]", take_messages(self._buffer)):
                if kind == "listings":
                    self._packed.append(batch)
                else:  # "below"
                    self._below.update(batch)
        except Exception:  # noqa: BLE001 - a garbled message: nothing more is taken from this lister
            self._end()


def _lister(dirs: list[str], r: int, w: int) -> None:
    """The lister's whole life (a forked process): list, send, leave with `os._exit`."""
    status = 1
    try:
        import signal

        os.close(r)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C is the parent's to handle)
        _list(dirs, w)
        status = 0
    except BaseException:  # noqa: BLE001 - a lister's failure costs only what it did not send
        pass
    finally:
        os._exit(status)


def _list(dirs: list[str], w: int) -> None:
    listings: dict[str, Listing] = {}
    batch: dict[str, Listing] = {}
    listed = 0
    for top in dirs:
        stack = [top]
        while stack and listed < MAX_WALK_DIRS:  # (no walk of this run lists more)
            directory = stack.pop()
            listed += 1
            listing = batch[directory] = listings[directory] = list_directory(directory)
            entries, _, linked_entries, _ = listing
            linked = set(linked_entries)
            stack.extend(reversed([full for name, full, is_dir in entries
                                   if is_dir and name not in NEVER_ENTER and full not in linked]))
            if len(batch) >= _BATCH:
                _send_listings(w, batch)
                batch = {}
    if batch:
        _send_listings(w, batch)
    # Then discovery's search for nested folders in each tree (the index's first walk), from these
    # listings, on this otherwise idle processor: the Walker takes the answer instead of walking.
    links = {link for _, _, linked_entries, _ in listings.values() for link in linked_entries}

    def listdir(path: str) -> tuple[list[Entry], str | None]:
        found = listings.get(path)
        if found is None:  # (past MAX_WALK_DIRS)
            found = list_directory(path)
            links.update(found[2])
        return found[0], found[1]

    send_message(w, ("below", {top: (MAX_WALK_DIRS, directories_below(top, listdir, links.__contains__, NEVER_ENTER,
                                                                       MAX_WALK_DIRS)) for top in dirs}))


def _send_listings(w: int, batch: dict[str, Listing]) -> None:
    import pickle

    send_message(w, ("listings", pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)))
