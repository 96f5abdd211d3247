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
processor. `finish` (once the index is built, before the per-file phase forks its workers) takes what
has arrived and ends the lister. Only `check` lists ahead, and never with `--fix` (it writes files).

Measured and not kept: reading the skill files ahead as well. Sending a file's bytes through the pipe
costs this process about what reading it from the page cache costs (~10 µs a file at 10,000 skills:
the pipe's copies and unpickling), so only the listings, whose transfer is cheaper than the
directory system calls, are sent (docs/performance-history.md).
"""
from __future__ import annotations

import os
import signal
from typing import cast

from skill_ls.analysis.executor import MAX_CHUNKS, MIN_ITEMS_PER_PROCESS, processes, roomy, send_message, take_messages
from skill_ls.core.listdir import Listing, list_directory
from skill_ls.core.paths import NEVER_ENTER, is_under

MAX_DIRS = 50_000  # (as MAX_WALK_DIRS: no walk of this run lists more)
_BATCH = 256  # listings per message


class ListAhead:
    """This process's end of a lister: the listings it sent, taken as they arrive."""

    def __init__(self, pid: int, fd: int, dirs: list[str]):
        self._pid, self._fd, self._dirs = pid, fd, dirs
        self._buffer = bytearray()
        self._listings: dict[str, Listing] = {}

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
        if found is None and self._fd >= 0 and any(is_under(path, d) for d in self._dirs):
            self._pump()
            found = self._listings.pop(path, None)
        return found

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

    def _take_frames(self) -> None:
        try:
            for batch in take_messages(self._buffer):
                self._listings.update(cast("dict[str, Listing]", batch))
        except Exception:  # noqa: BLE001 - a garbled message: nothing more is taken from this lister
            self._end()


def _lister(dirs: list[str], r: int, w: int) -> None:
    """The lister's whole life (a forked process): list, send, leave with `os._exit`."""
    status = 1
    try:
        os.close(r)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C is the parent's to handle)
        _list(dirs, w)
        status = 0
    except BaseException:  # noqa: BLE001 - a lister's failure costs only what it did not send
        pass
    finally:
        os._exit(status)


def _list(dirs: list[str], w: int) -> None:
    batch: dict[str, Listing] = {}
    listed = 0
    for top in dirs:
        stack = [top]
        while stack and listed < MAX_DIRS:
            directory = stack.pop()
            listed += 1
            listing = batch[directory] = list_directory(directory)
            entries, _, links, _ = listing
            linked = set(links)
            stack.extend(reversed([full for name, full, is_dir in entries
                                   if is_dir and name not in NEVER_ENTER and full not in linked]))
            if len(batch) >= _BATCH:
                send_message(w, batch)
                batch = {}
    if batch:
        send_message(w, batch)
