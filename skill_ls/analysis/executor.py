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

The items may also be given as the function that finds them (`check` walks the checked directories
to find its files). When the machine has a processor for a second process, one worker is then
forked before the walk: it runs `prepare` (the imports every process needs before its first chunk:
the rule modules) while this process walks, is handed the items (pickled, through a pipe of its
own) and takes chunks like the others, so the first chunks are checked while this process is still
importing what it needs for its own. When the items are too few to share, it is let go (killed:
it has done nothing but import).

How many processes (`processes`): `jobs` when it is given (1: never fork); by default (`jobs=0`) as
many as there is work for (`MIN_ITEMS_PER_PROCESS` items each) and free processors for: the
processors this process may run on, less the load of everything else (the smaller of the 1-minute
load average and the tasks runnable right now, so that neither a burst a moment ago nor a job that
has just started counts as the load it is not; with a walk, the smaller of the readings before and
after it, this run's early worker left out). On a machine that is busy the check stays in one
process: forking would only add copies and pickling to the work the cores already share.

Workers write nothing (their standard streams are /dev/null) and leave with `os._exit`: a forked
copy of a program must not run that program's clean-up. `pickle` and `select` are imported only
when there are processes to talk to (pickle's import is 1.8 ms of a check that stays here).
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar, cast

_T = TypeVar("_T")
_R = TypeVar("_R")

# Below this many items per process, a fork and its results' pickling cost more than they save.
MIN_ITEMS_PER_PROCESS = 250
MAX_PROCESSES = 4
MAX_CHUNKS = 255  # one-byte tokens
_HEADER_SIZE = 8  # each message: its length (8 bytes, little-endian), then the pickle


def processes(items: int, jobs: int = 0, load: float | None = None) -> int:
    """How many processes `map_chunks` uses for `items` items: `jobs` when given (> 0), else what
    the work and the machine's free processors allow (see the module's docstring); `load`: what the
    rest of the machine keeps busy, when already read (`_load()`)."""
    if not hasattr(os, "fork"):
        return 1
    by_work = max(1, items // MIN_ITEMS_PER_PROCESS)
    if jobs > 0:
        return min(jobs, by_work)
    busy = _load() if load is None else load
    return max(1, min(by_work, MAX_PROCESSES, int(_cpus() - busy + 0.5)))


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _load(own: int = 0) -> float:
    """What the rest of the machine keeps busy, in processors (`own`: this run's workers, left out
    of the tasks running now)."""
    try:
        average = os.getloadavg()[0]
    except OSError:
        return 0.0
    try:
        with open("/proc/loadavg", "rb") as f:
            running = int(f.read().split()[3].split(b"/")[0]) - 1  # (this process is running)
    except (OSError, ValueError, IndexError):
        return average
    return min(average, float(max(0, running - own)))


def chunked(items: list[_T]) -> list[list[_T]]:
    """The items in chunks of consecutive items: small enough to balance, at most MAX_CHUNKS."""
    size = max(8, -(-len(items) // MAX_CHUNKS))
    return [items[i:i + size] for i in range(0, len(items), size)]


def map_chunks(work: Callable[[list[_T]], _R], items: list[_T] | Callable[[], list[_T]], jobs: int = 0,
               prepare: Callable[[], object] | None = None, meanwhile: Callable[[], object] | None = None) -> list[_R]:
    """`work` over `items`, in `processes(len(items), jobs)` processes: one result per chunk, in
    the chunks' order (one chunk, all the items, when it runs here alone).

    `items` may be the function that finds them (a walk of the checked directories): when the
    machine has a processor for a second process, one worker is forked before it is called, runs
    `prepare` (what a process does before its first chunk, such as imports) while this process
    finds the items, and is handed them; if they turn out too few, it is let go.

    `meanwhile` is other work of this process that needs no result of `work` (the checker's
    resolution): it runs here while the workers take the first chunks (or first, in one process)."""
    workers: list[_Worker] = []
    tokens_r, tokens_w = os.pipe()
    try:
        load = None
        if callable(items):
            find = items
            load = _load()
            if processes(MAX_CHUNKS * MIN_ITEMS_PER_PROCESS, jobs, load) > 1:
                _fork_early(work, prepare, tokens_r, tokens_w, workers)
            items = find()
            # The load is the smaller of the readings before and after the walk: the early worker (this
            # run's, maybe still importing) is left out of the second, and a task that ran for a moment
            # when one was taken is not load (a CPU hog beside the check is in both).
            load = min(load, _load(own=len(workers)))
        n = processes(len(items), jobs, load)
        if n <= 1:
            if meanwhile is not None:
                meanwhile()
            return [work(items)]
        import pickle  # noqa: F401 - (once, before the fork, rather than in every process)

        chunks = chunked(items)
        for w in workers:
            _hand_over(w, items)
        os.write(tokens_w, bytes(range(len(chunks))))
        os.close(tokens_w)  # (every process sees the end of the tokens once they are taken)
        tokens_w = -1
        for _ in range(n - 1 - len(workers)):
            try:
                up_r, up_w = os.pipe()
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                _worker(work, chunks, tokens_r, up_r, up_w, [w.up for w in workers])
            os.close(up_w)
            roomy(up_r)
            workers.append(_Worker(pid, up_r))
        if meanwhile is not None:
            meanwhile()  # (the workers' results wait in their pipes)
        done: dict[int, _R] = {}
        _take(tokens_r, chunks, work, done, lambda: _drain(workers, done, block=False))
        _drain(workers, done, block=True)
        for k, chunk in enumerate(chunks):  # what a failed worker took and never delivered
            if k not in done:
                done[k] = work(chunk)
        return [done[k] for k in range(len(chunks))]
    finally:
        os.close(tokens_r)
        if tokens_w >= 0:
            os.close(tokens_w)
        for w in workers:
            if w.down >= 0:  # an early worker never handed the items: it has nothing to finish
                import signal

                os.close(w.down)
                os.kill(w.pid, signal.SIGKILL)
            if not w.ended:
                os.close(w.up)
            try:
                os.waitpid(w.pid, 0)
            except ChildProcessError:
                pass


def _fork_early(work: Callable[[list[_T]], _R], prepare: Callable[[], object] | None, tokens_r: int,
                tokens_w: int, workers: list[_Worker]) -> None:
    """Fork the worker that prepares while this process finds the items (into `workers`)."""
    try:
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
    except OSError:
        return
    try:
        pid = os.fork()
    except OSError:
        for fd in (down_r, down_w, up_r, up_w):
            os.close(fd)
        return
    if pid == 0:
        _early_worker(work, prepare, tokens_r, down_r, up_w, [tokens_w, down_w, up_r])
    roomy(down_w)  # (handing the items over never waits for the worker to read them)
    os.close(down_r)
    os.close(up_w)
    roomy(up_r)
    worker = _Worker(pid, up_r)
    worker.down = down_w
    workers.append(worker)


def roomy(fd: int) -> None:
    """Give a pipe room for a megabyte (Linux; elsewhere it keeps its size): its writer does not wait
    for a reader busy with something else."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


def _hand_over(w: _Worker, items: list[_T]) -> None:
    """Send an early worker the items (pickled; the end of its pipe ends them). A worker that is
    gone cannot take any chunk: its pipe's end tells `_drain`."""
    import pickle

    view = memoryview(pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL))
    try:
        while view:
            view = view[os.write(w.down, view):]
    except OSError:
        pass
    os.close(w.down)
    w.down = -1


def _early_worker(work: Callable[[list[_T]], _R], prepare: Callable[[], object] | None, tokens: int, down: int,
                  up: int, inherited: list[int]) -> None:
    def run() -> None:
        _quiet(inherited)
        if prepare is not None:
            prepare()
        import pickle  # (while the items are still being found)

        received = bytearray()
        while True:
            data = os.read(down, 1 << 20)
            if not data:
                break
            received += data
        if received:  # (nothing: the items were too few for it)
            _serve(work, chunked(pickle.loads(received)), tokens, up)

    _as_worker(run)


class _Worker:
    def __init__(self, pid: int, up: int):
        self.pid, self.up = pid, up
        self.down = -1  # an early worker's pipe of items, until they are handed over
        self.buffer = bytearray()
        self.ended = False


def _worker(work: Callable[[list[_T]], _R], chunks: list[list[_T]], tokens: int, up_r: int, up: int,
            inherited: list[int]) -> None:
    def run() -> None:
        _quiet([up_r, *inherited])  # (the other workers' pipes: their ends must close with them)
        _serve(work, chunks, tokens, up)

    _as_worker(run)


def _as_worker(run: Callable[[], None]) -> None:
    """A forked worker's whole life: `run`, then leave with `os._exit` (never the parent's clean-up);
    any failure is status 1, and this process redoes what the worker took."""
    status = 1
    try:
        run()
        status = 0
    except BaseException:  # noqa: BLE001 - any failure: this process redoes what the worker took
        status = 1
    finally:
        os._exit(status)


def _serve(work: Callable[[list[_T]], _R], chunks: list[list[_T]], tokens: int, up: int) -> None:
    """Take chunks until none is left, sending each chunk's results as soon as they are computed; an
    empty message says there is no more."""
    done: dict[int, _R] = {}
    _take(tokens, chunks, work, done, lambda: send_message(up, done.popitem()))
    send_message(up, None)


def _quiet(inherited: list[int]) -> None:
    """A worker's first step: close the descriptors it inherited and must not hold, and write nothing
    (its standard streams become /dev/null)."""
    for fd in inherited:
        os.close(fd)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


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


def send_message(fd: int, value: object) -> None:
    """Write one message to a pipe: its length (8 bytes, little-endian), then `value` pickled (the
    form every process of a check sends; `take_messages` reads it)."""
    import pickle

    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(_HEADER_SIZE, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def take_messages(buffer: bytearray) -> list[object]:
    """The whole messages at the start of `buffer`, unpickled and removed from it (a message still
    arriving stays); raises what unpickling a garbled message raises."""
    import pickle

    out, at = [], 0
    while len(buffer) - at >= _HEADER_SIZE:
        size = int.from_bytes(buffer[at:at + _HEADER_SIZE], "little")
        start = at + _HEADER_SIZE
        if len(buffer) - start < size:
            break
        out.append(pickle.loads(memoryview(buffer)[start:start + size]))
        at = start + size
    del buffer[:at]
    return out


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
    try:
        data = os.read(w.up, 1 << 20)
    except OSError:
        data = b""
    if not data:  # the worker is gone; what it took and did not send is redone
        _end(w)
        return
    w.buffer += data
    try:
        messages = take_messages(w.buffer)
    except Exception:  # noqa: BLE001 - a garbled message: treat the worker as gone
        _end(w)
        return
    for message in messages:
        if message is None:
            _end(w)
            return
        k, result = cast("tuple[int, _R]", message)
        done[k] = result


def _end(w: _Worker) -> None:
    w.ended = True
    os.close(w.up)
