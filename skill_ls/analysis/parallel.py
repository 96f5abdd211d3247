"""`skill-ls check` on several processes from its first milliseconds (the command line only).

A check of a large tree is three things: start-up (imports, configuration, the index), the walk of
the checked directories, and the per-file phase (parsing, rules). `run_in_processes` (check.py)
forks after the first two, so they are serial. Here the workers are forked *before* the imports:

1. Every process (this one and `jobs - 1` forked workers) imports, reads the configuration and
   builds the index itself: the same work at the same time, on different cores.
2. Each process walks its own share of the checked directories (`Checker.files_in_part`, cut by
   `discovery.WalkPart`); the workers send their shares here, and this process joins them
   (`Checker.adopt`) into exactly the list `Checker.files_in_scope` would give, or walks the
   whole tree itself when they cannot be joined exactly (symlinked directories and the like).
3. The joined list goes back to the workers, cut into chunks of consecutive files. Every process
   takes the next chunk from a shared pipe of one-byte tokens until none is left, so a process that
   is slowed down (a busy core, large files) simply takes fewer chunks.
4. The workers send their chunks' findings here; resolution and the finishing steps run here, as
   in a serial check. Any chunk a worker took and did not deliver (it failed, for any reason) is
   checked here again, so the result never depends on a worker.

Workers write nothing (their standard streams are /dev/null) and leave with `os._exit`. This
module imports nothing heavy itself: it must be cheap to import before the fork.
"""
from __future__ import annotations

import os
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skill_ls.analysis.check import CheckOptions, CheckResult, LineHints, PerFile
    from skill_ls.core.index import DocumentStore

_HEADER = struct.Struct("<Q")
# A report writer for one process's index: its findings' entries, each with the state it was written in.
Render = Callable[[list[Any]], list[tuple[str, Any]]]
MakeRender = Callable[[Any], Render]
# Entries written while checking, by finding: id -> (finding, entry, state); see output.format_json.
Rendered = dict[int, tuple[Any, str, Any]]
# A checked chunk: its per-file results and, with a writer, their entries.
Chunk = tuple[list["PerFile"], list[list[tuple[str, Any]]] | None]
MAX_CHUNKS = 255  # one-byte tokens


def default_jobs() -> int:
    """Processes for `check` when `--jobs` is not given: the CPU count, at most 4."""
    return max(1, min(os.cpu_count() or 1, 4))


def can_fork() -> bool:
    return hasattr(os, "fork")


def chunked(files: list[str]) -> list[list[str]]:
    """The run's files in chunks of consecutive files (the same in every process): small enough to
    balance, at most MAX_CHUNKS of them."""
    size = max(8, -(-len(files) // MAX_CHUNKS))
    return [files[i:i + size] for i in range(0, len(files), size)]


class _Worker:
    def __init__(self, pid: int, up: int, down: int):
        self.pid, self.up, self.down = pid, up, down
        self.alive = True


def run_check_forked(make_opts: Callable[[], CheckOptions], jobs: int,
                     make_render: MakeRender | None = None, wait: bool = True) -> CheckResult:
    """`run_check(make_opts())` on `jobs` processes (see the module's docstring). `make_opts` is
    called in every process, after the fork (it may import what it needs). With `make_render` (the
    report's writer, given the index), every process also writes its findings' report entries as it
    checks them: `CheckResult.prerendered`. With `wait=False` (a caller about to exit), workers that
    have sent everything but are still leaving (their memory's teardown: a few milliseconds) are not
    waited for; the system reaps them when this process exits."""
    tokens_r, tokens_w = os.pipe()
    workers: list[_Worker] = []
    inherited: list[int] = [tokens_w]  # descriptors a new worker must close: the earlier workers' pipes
    for k in range(1, jobs):
        try:
            up_r, up_w = os.pipe()
            down_r, down_w = os.pipe()
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            _worker_main(k, jobs, make_opts, make_render, up_r, up_w, down_r, down_w, tokens_r, inherited)
        os.close(up_w)
        os.close(down_r)
        workers.append(_Worker(pid, up_r, down_w))
        inherited += [up_r, down_w]
    # (`_parent` closes the token pipe's write end once the tokens are written, taking it out of this
    # list: a descriptor number closed twice could close whatever reused it)
    write_end = [tokens_w]
    try:
        return _parent(make_opts, make_render, workers, tokens_r, write_end)
    finally:
        _close_quietly(tokens_r, *write_end, *(fd for w in workers for fd in (w.up, w.down)))
        for w in workers:
            try:
                if os.waitpid(w.pid, 0 if wait else os.WNOHANG)[0] == 0:
                    _leaving.append(w.pid)
            except ChildProcessError:
                pass


# Workers not waited for (`run_check_forked(wait=False)`) that had not left yet.
_leaving: list[int] = []


def reap_workers() -> None:
    """Collect the workers `run_check_forked(wait=False)` did not wait for that have left since (by
    the time the report is written, usually all of them), without waiting for the others: a worker
    still leaving when this process exits is reaped by the system."""
    for pid in list(_leaving):
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == 0:
                continue
        except ChildProcessError:
            pass
        _leaving.remove(pid)


def _parent(make_opts: Callable[[], CheckOptions], make_render: MakeRender | None, workers: list[_Worker],
            tokens_r: int, tokens_w: list[int]) -> CheckResult:
    from skill_ls.analysis.check import PARALLEL_MIN_FILES, CheckResult, open_run

    opts = make_opts()
    parts = len(workers) + 1
    checker, scope, _ = open_run(opts, walk=False)
    shares = [checker.files_in_part(scope, 0, parts)]
    if shares[0].exact and len(shares[0].files) * parts < PARALLEL_MIN_FILES // 2:
        # A small tree (this share is a fair sample of it, or all of it when it is too small to be
        # cut): the rest of its walk is quicker here than waiting for the workers, which are stopped.
        _dismiss(workers)
    for w in workers:
        share = _receive(w)
        if share is None:
            shares = []  # a worker that did not walk its share: walk it all here
            break
        shares.append(share)
    files = checker.adopt(scope, shares) if len(shares) == parts else None
    if files is None:
        files = checker.files_in_scope(scope)
    hints: LineHints | None = {} if opts.line_hints else None
    wanted = set(files)
    per_file = checker.per_file(files, opts.line_hints)
    live = [w for w in workers if w.alive]
    if len(files) < PARALLEL_MIN_FILES or not live:
        for w in workers:
            _send(w, None)
        return CheckResult(checker.finish(per_file(files), wanted, hints), len(files), checker.index, hints)
    chunks = chunked(files)
    for w in workers:
        _send(w, (files, checker.plugin_table))
    os.write(tokens_w[0], bytes(range(len(chunks))))
    os.close(tokens_w.pop())  # (every process sees the end of the tokens once they are taken)
    done: dict[int, Chunk] = {}
    # (while the workers take their first chunks)
    render = make_render(checker.index) if make_render is not None else None
    resolution = checker.resolved(wanted)
    rendered: Rendered | None = None
    if render is not None:
        rendered = {}
        _keep(rendered, resolution, render(resolution))
    streams = [_Stream(w) for w in workers if w.alive]
    # Between its own chunks, this process takes in what the workers have sent so far: their
    # pickling and its unpickling happen during the run, not after it.
    check = _chunk_checker(per_file, render, checker.index.store)
    _take_chunks(tokens_r, chunks, check, done, lambda: _drain(streams, done, block=False))
    _drain(streams, done, block=True)
    for k, chunk in enumerate(chunks):  # what a failed worker took and never delivered
        if k not in done:
            done[k] = check(chunk)
    if rendered is not None:
        for results, texts in done.values():
            for (found, _), entries in zip(results, texts or ()):
                _keep(rendered, found, entries)
    ordered = (share for k in range(len(chunks)) for share in done[k][0])
    result = CheckResult(checker.finish(ordered, wanted, hints, resolution), len(files), checker.index, hints)
    result.prerendered = rendered
    return result


def _dismiss(workers: list[_Worker]) -> None:
    """Stop workers that are not needed (they hold nothing and write nothing)."""
    import signal

    for w in workers:
        if w.alive:
            try:
                os.kill(w.pid, signal.SIGKILL)
            except OSError:
                pass
            w.alive = False


def _chunk_checker(per_file: Callable[[list[str]], list[PerFile]], render: Render | None,
                   store: DocumentStore) -> Callable[[list[str]], Chunk]:
    store.release_read()  # (from now on, each chunk's documents give up their texts once checked)

    def check(paths: list[str]) -> Chunk:
        shares = per_file(paths)
        chunk = shares, None if render is None else [render(found) for found, _ in shares]
        # Its findings and their lines are taken: the texts can go (a later use reads the file
        # again), and the next chunk's texts take their memory instead of new pages (~2,400 fewer
        # page faults per process on the corpus, ~5 ms of each).
        store.release_read()
        return chunk

    return check


def _keep(rendered: Rendered, found: list[Any], entries: list[tuple[str, Any]]) -> None:
    for d, (text, state) in zip(found, entries):
        rendered[id(d)] = (d, text, state)


def _worker_main(k: int, parts: int, make_opts: Callable[[], CheckOptions], make_render: MakeRender | None,
                 up_r: int, up_w: int, down_r: int, down_w: int, tokens_r: int, inherited: list[int]) -> None:
    status = 1
    try:
        _close_quietly(up_r, down_w, *inherited)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        status = _work(k, parts, make_opts, make_render, up_w, down_r, tokens_r)
    except BaseException:  # noqa: BLE001 - any failure: the parent does this worker's part itself
        status = 1
    finally:
        os._exit(status)


def _work(k: int, parts: int, make_opts: Callable[[], CheckOptions], make_render: MakeRender | None, up: int,
          down: int, tokens: int) -> int:
    from skill_ls.analysis.check import open_run

    opts = make_opts()
    checker, scope, _ = open_run(opts, walk=False)
    _write(up, checker.files_in_part(scope, k, parts))
    joined = _read(down)
    if joined is None:
        return 0
    files, plugins = joined
    checker.use_plugin_files(plugins)
    chunks = chunked(files)
    done: dict[int, Chunk] = {}
    render = make_render(checker.index) if make_render is not None else None
    # Each chunk's findings are sent as soon as they are found (the parent reads them between its
    # own chunks); an empty message says there is no more.
    check = _chunk_checker(checker.per_file(files, opts.line_hints), render, checker.index.store)
    _take_chunks(tokens, chunks, check, done, lambda: _write(up, done.popitem()))
    _write(up, None)
    return 0


def _take_chunks(tokens: int, chunks: list[list[str]], check: Callable[[list[str]], Chunk],
                 done: dict[int, Chunk], after: Callable[[], None]) -> None:
    """Check the chunks whose tokens this process reads first, into `done`; `after` each one."""
    while True:
        token = os.read(tokens, 1)
        if not token:
            return
        k = token[0]
        done[k] = check(chunks[k])
        after()


class _Stream:
    """The messages a worker sends while it checks: (chunk, findings) each, then None."""

    def __init__(self, worker: _Worker):
        self.worker = worker
        self.buffer = bytearray()
        self.ended = False


def _drain(streams: list[_Stream], done: dict[int, Chunk], block: bool) -> None:
    """Take in the chunks the workers have sent: what has arrived (`block=False`), or everything
    until each worker has said it is done or has gone (`block=True`)."""
    import pickle
    import select

    while True:
        open_streams = [st for st in streams if not st.ended]
        if not open_streams:
            return
        ready, _, _ = select.select([st.worker.up for st in open_streams], [], [], None if block else 0)
        if not ready:
            return
        for st in open_streams:
            if st.worker.up not in ready:
                continue
            try:
                data = os.read(st.worker.up, 1 << 20)
            except OSError:
                data = b""
            if not data:  # the worker is gone; what it took and did not send is redone
                st.ended, st.worker.alive = True, False
                continue
            st.buffer += data
            while len(st.buffer) >= _HEADER.size:
                (size,) = _HEADER.unpack_from(st.buffer)
                if len(st.buffer) < _HEADER.size + size:
                    break
                try:
                    message = pickle.loads(st.buffer[_HEADER.size:_HEADER.size + size])
                except Exception:  # noqa: BLE001 - a garbled message: treat the worker as gone
                    st.ended, st.worker.alive = True, False
                    break
                del st.buffer[:_HEADER.size + size]
                if message is None:
                    st.ended = True
                    break
                k, found = message
                done[k] = found


def _send(w: _Worker, value: Any) -> None:
    if not w.alive:
        return
    try:
        _write(w.down, value)
    except OSError:  # the worker is gone: its chunks are redone here
        w.alive = False


def _receive(w: _Worker) -> Any:
    if not w.alive:
        return None
    try:
        return _read(w.up)
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError):
        w.alive = False
        return None


def _write(fd: int, value: Any) -> None:
    import pickle

    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read(fd: int) -> Any:
    import pickle

    (size,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size))
    return pickle.loads(_read_exactly(fd, size))


def _read_exactly(fd: int, size: int) -> bytes:
    parts, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError("the other process closed the pipe")
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _close_quietly(*fds: int) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
