"""How the per-file phase of a check runs: the one place that decides between this process and
processes forked after the index.

`map_chunks(work, items, jobs)` is `[work(items)]`, or the same results computed by several
processes: the items are cut into chunks of consecutive items, and every process — this one and the
workers forked after the index was built, which therefore share it (copy-on-write) instead of
building it again — takes the next chunk from a pipe of one-byte tokens until none is left, so a
process slowed down by a busy core or large files simply takes fewer. The workers send each chunk's
results back pickled; this process takes them in between its own chunks. Any chunk a worker took and
did not deliver (it failed, for any reason) is computed here again, so the result never depends on
a worker.

How many processes (`processes`): `jobs` when it is given (1: never fork); by default (`jobs=0`) as
many as there is work for (`MIN_ITEMS_PER_PROCESS` items each) and free processors for: the
processors this process may run on, less the load of everything else (the smaller of the 1-minute
load average and the tasks runnable right now, so that neither a burst a moment ago nor a job that
has just started counts as the load it is not). On a machine that is busy the check stays in one
process: forking would only add copies and pickling to the work the cores already share.

Workers write nothing (their standard streams are /dev/null) and leave with `os._exit`: a forked
copy of a program must not run that program's clean-up. `pickle` and `select` are imported only
when there are processes to talk to (pickle's import is 1.8 ms of a check that stays here).
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")

# Below this many items per process, a fork and its results' pickling cost more than they save.
MIN_ITEMS_PER_PROCESS = 250
MAX_PROCESSES = 4
MAX_CHUNKS = 255  # one-byte tokens
_HEADER_SIZE = 8  # each message: its length (8 bytes, little-endian), then the pickle


def processes(items: int, jobs: int = 0) -> int:
    """How many processes `map_chunks` uses for `items` items: `jobs` when given (> 0), else what
    the work and the machine's free processors allow (see the module's docstring)."""
    if not hasattr(os, "fork"):
        return 1
    by_work = max(1, items // MIN_ITEMS_PER_PROCESS)
    if jobs > 0:
        return min(jobs, by_work)
    return max(1, min(by_work, MAX_PROCESSES, int(_cpus() - _load() + 0.5)))


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _load() -> float:
    """What the rest of the machine keeps busy, in processors."""
    try:
        average = os.getloadavg()[0]
    except OSError:
        return 0.0
    try:
        with open("/proc/loadavg", "rb") as f:
            running = int(f.read().split()[3].split(b"/")[0]) - 1  # (this process is running)
    except (OSError, ValueError, IndexError):
        return average
    return min(average, float(running))


def chunked(items: list[_T]) -> list[list[_T]]:
    """The items in chunks of consecutive items: small enough to balance, at most MAX_CHUNKS."""
    size = max(8, -(-len(items) // MAX_CHUNKS))
    return [items[i:i + size] for i in range(0, len(items), size)]


def map_chunks(work: Callable[[list[_T]], _R], items: list[_T], jobs: int = 0) -> list[_R]:
    """`work` over `items`, in `processes(len(items), jobs)` processes: one result per chunk, in
    the chunks' order (one chunk, all the items, when it runs here alone)."""
    n = processes(len(items), jobs)
    if n <= 1:
        return [work(items)]
    import pickle  # noqa: F401 - (once, before the fork, rather than in every process)

    chunks = chunked(items)
    tokens_r, tokens_w = os.pipe()
    os.write(tokens_w, bytes(range(len(chunks))))
    os.close(tokens_w)  # (every process sees the end of the tokens once they are taken)
    workers: list[_Worker] = []
    try:
        for _ in range(n - 1):
            try:
                up_r, up_w = os.pipe()
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                _worker(work, chunks, tokens_r, up_r, up_w, [w.up for w in workers])
            os.close(up_w)
            workers.append(_Worker(pid, up_r))
        done: dict[int, _R] = {}
        _take(tokens_r, chunks, work, done, lambda: _drain(workers, done, block=False))
        _drain(workers, done, block=True)
        for k, chunk in enumerate(chunks):  # what a failed worker took and never delivered
            if k not in done:
                done[k] = work(chunk)
        return [done[k] for k in range(len(chunks))]
    finally:
        os.close(tokens_r)
        for w in workers:
            if not w.ended:
                os.close(w.up)
            try:
                os.waitpid(w.pid, 0)
            except ChildProcessError:
                pass


class _Worker:
    def __init__(self, pid: int, up: int):
        self.pid, self.up = pid, up
        self.buffer = bytearray()
        self.ended = False


def _worker(work: Callable[[list[_T]], _R], chunks: list[list[_T]], tokens: int, up_r: int, up: int,
            inherited: list[int]) -> None:
    status = 1
    try:
        for fd in (up_r, *inherited):  # (the other workers' pipes: their ends must close with them)
            os.close(fd)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        done: dict[int, _R] = {}
        # Each chunk's results are sent as soon as they are computed; an empty message says there is no more.
        _take(tokens, chunks, work, done, lambda: _send(up, done.popitem()))
        _send(up, None)
        status = 0
    except BaseException:  # noqa: BLE001 - any failure: this process redoes what the worker took
        status = 1
    finally:
        os._exit(status)


def _take(tokens: int, chunks: list[list[_T]], work: Callable[[list[_T]], _R], done: dict[int, _R],
          after: Callable[[], None]) -> None:
    """Compute the chunks whose tokens this process reads first, into `done`; `after` each one."""
    while True:
        token = os.read(tokens, 1)
        if not token:
            return
        k = token[0]
        done[k] = work(chunks[k])
        after()


def _send(fd: int, value: object) -> None:
    import pickle

    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(_HEADER_SIZE, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _drain(workers: list[_Worker], done: dict[int, _R], block: bool) -> None:
    """Take in the chunks the workers have sent: what has arrived (`block=False`), or everything
    until each worker has said it is done or has gone (`block=True`)."""
    import select

    while True:
        open_workers = [w for w in workers if not w.ended]
        if not open_workers:
            return
        ready, _, _ = select.select([w.up for w in open_workers], [], [], None if block else 0)
        if not ready:
            return
        for w in open_workers:
            if w.up in ready:
                _receive(w, done)


def _receive(w: _Worker, done: dict[int, _R]) -> None:
    import pickle

    try:
        data = os.read(w.up, 1 << 20)
    except OSError:
        data = b""
    if not data:  # the worker is gone; what it took and did not send is redone
        _end(w)
        return
    w.buffer += data
    while len(w.buffer) >= _HEADER_SIZE:
        size = int.from_bytes(w.buffer[:_HEADER_SIZE], "little")
        if len(w.buffer) < _HEADER_SIZE + size:
            return
        try:
            message = pickle.loads(w.buffer[_HEADER_SIZE:_HEADER_SIZE + size])
        except Exception:  # noqa: BLE001 - a garbled message: treat the worker as gone
            _end(w)
            return
        del w.buffer[:_HEADER_SIZE + size]
        if message is None:
            _end(w)
            return
        k, result = message
        done[k] = result


def _end(w: _Worker) -> None:
    w.ended = True
    os.close(w.up)
