"""Reading ahead: while `check` imports the checker, another process lists the checked directories
and reads their skill files, so the disk's answers are waiting when the index and the per-file phase
ask for them.

A check starts with ~70 ms of imports that need one processor, while the disk questions that follow
(a listing of every directory of the checked tree, for the walk and the search for nested skill
folders, and a read of every skill file) are system calls that wait on the kernel. When the machine
has a processor for a second process (`executor.processes`, the same rule as the per-file phase),
`start` forks one before the imports: it lists the checked trees as every walk lists them
(`core.listdir.list_directory`, depth first in the Walker's order, never entering what no walk
enters, never following a symlinked directory), then reads their `SKILL.md`, `skill.md` and
`AGENT.md` files (`read_bytes`, the document store's own reader), and sends both back in batches
(pickled, each with its length) through a pipe.

This process never waits for it. The Walker and the document store ask `ReadAhead` on each miss: it
takes whatever batches have arrived (a non-blocking read) and answers from them, or says it has
nothing, and the question goes to the disk as before — so the answers are the ones this process
would have read, only earlier in the same run, and a slow or failed reader costs nothing but its own
processor. `finish` (before the per-file phase forks its workers) takes what has arrived and ends
the reader; what it had not sent is read by whoever needs it. Only `check` reads ahead, and never
with `--fix` (a file read before the fixes are written would be the old text).
"""
from __future__ import annotations

import os
import signal

from skill_ls.analysis.executor import MAX_CHUNKS, MIN_ITEMS_PER_PROCESS, processes, roomy
from skill_ls.core.listdir import Entry, list_directory
from skill_ls.core.paths import NEVER_ENTER

READ_NAMES = frozenset({"SKILL.md", "skill.md", "AGENT.md"})
MAX_DIRS = 50_000  # (as MAX_WALK_DIRS: no walk of this run lists more)
MAX_BYTES = 64 * 1024 * 1024  # read ahead at most this much in all
_BATCH_ITEMS = 256
_BATCH_BYTES = 256 * 1024
_HEADER_SIZE = 8

Listing = tuple[list[Entry], "str | None", list[str], list[str]]
FileRead = tuple[bytes, "str | None", bool]


class ReadAhead:
    """This process's end of a reader: the listings and file contents it sent, taken as they arrive."""

    def __init__(self, pid: int, fd: int):
        self._pid, self._fd = pid, fd
        self._buffer = bytearray()
        self._listings: dict[str, Listing] = {}
        self._files: dict[str, FileRead] = {}

    @classmethod
    def start(cls, paths: list[str], jobs: int = 0) -> "ReadAhead | None":
        """A reader of the directories among `paths` (absolute paths), or None when the machine has
        no processor for one (or `jobs` says one process)."""
        dirs = [p for p in paths if os.path.isdir(p)]
        if not dirs or not hasattr(os, "fork") or processes(MAX_CHUNKS * MIN_ITEMS_PER_PROCESS, jobs) <= 1:
            return None
        try:
            r, w = os.pipe()
        except OSError:
            return None
        roomy(r)  # (the reader never waits for this process to read)
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            return None
        if pid == 0:
            _reader(dirs, r, w)
        os.close(w)
        os.set_blocking(r, False)
        return cls(pid, r)

    def listing(self, path: str) -> Listing | None:
        """The listing of `path` the reader sent (taken: it is handed out once), or None."""
        if path not in self._listings:
            self._pump()
        return self._listings.pop(path, None)

    def file(self, path: str) -> FileRead | None:
        """(data, error, truncated) of `path` as the reader read it (taken once), or None."""
        if path not in self._files:
            self._pump()
        return self._files.pop(path, None)

    def finish(self, wait: bool = False) -> None:
        """Take what has arrived and end the reader (what it had not sent is read by whoever needs it;
        `wait`: let it send everything first). The answers taken stay: processes forked after this
        find them without any pipe."""
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
            if not data:  # the reader is done (or gone): nothing more will come
                self._take_frames()
                self._end()
                return
            self._buffer += data
        self._take_frames()

    def _take_frames(self) -> None:
        import pickle

        buffer, at = self._buffer, 0
        while len(buffer) - at >= _HEADER_SIZE:
            size = int.from_bytes(buffer[at:at + _HEADER_SIZE], "little")
            if len(buffer) - at - _HEADER_SIZE < size:
                break
            start = at + _HEADER_SIZE
            listings, files = pickle.loads(memoryview(buffer)[start:start + size])
            self._listings.update(listings)
            self._files.update(files)
            at = start + size
        del buffer[:at]


def _reader(dirs: list[str], r: int, w: int) -> None:
    """The reader's whole life (a forked process): list, read, send, leave with `os._exit`."""
    status = 1
    try:
        os.close(r)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C is the parent's to handle)
        _read(dirs, _Sender(w))
        status = 0
    except BaseException:  # noqa: BLE001 - a reader's failure costs only what it did not send
        pass
    finally:
        os._exit(status)


class _Sender:
    def __init__(self, fd: int):
        import pickle

        self._fd, self._dumps, self._protocol = fd, pickle.dumps, pickle.HIGHEST_PROTOCOL
        self.listings: dict[str, Listing] = {}
        self.files: dict[str, FileRead] = {}
        self._bytes = 0

    def listing(self, path: str, listing: Listing) -> None:
        self.listings[path] = listing
        if len(self.listings) >= _BATCH_ITEMS:
            self.flush()

    def file(self, path: str, read: FileRead) -> None:
        self.files[path] = read
        self._bytes += len(read[0])
        if len(self.files) >= _BATCH_ITEMS or self._bytes >= _BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        if not self.listings and not self.files:
            return
        data = self._dumps((self.listings, self.files), protocol=self._protocol)
        view = memoryview(len(data).to_bytes(_HEADER_SIZE, "little") + data)
        while view:
            view = view[os.write(self._fd, view):]
        self.listings, self.files, self._bytes = {}, {}, 0


def _read(dirs: list[str], out: _Sender) -> None:
    from skill_ls.core.parse.text import read_bytes

    to_read: list[str] = []
    listed = 0
    for top in dirs:
        stack = [top]
        while stack and listed < MAX_DIRS:
            directory = stack.pop()
            listed += 1
            listing = list_directory(directory)
            out.listing(directory, listing)
            entries, _, links, special = listing
            linked = set(links) | set(special)
            subdirs = []
            for name, full, is_dir in entries:
                if full in linked:
                    continue  # (a symlinked directory is the walks' to follow or not; a FIFO is never read)
                if is_dir:
                    if name not in NEVER_ENTER:
                        subdirs.append(full)
                elif name in READ_NAMES:
                    to_read.append(full)
            stack.extend(reversed(subdirs))
    out.flush()  # (the listings first: the index asks for them before any file)
    total = 0
    for path in to_read:
        read = read_bytes(path)
        total += len(read[0])
        if total > MAX_BYTES:
            break
        out.file(path, read)
    out.flush()
