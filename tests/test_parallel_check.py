"""The per-file phase of `check` may run in processes forked after the index (analysis/executor.py);
results must not depend on it."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import check_tree, skill, write

from skill_ls.analysis import executor
from skill_ls.analysis.executor import MIN_ITEMS_PER_PROCESS, map_chunks, processes

BIG = 2 * MIN_ITEMS_PER_PROCESS + 60  # enough files for two processes


def _big_tree(workspace, n: int = BIG) -> None:
    for i in range(n):
        extra = "colour: red\n" if i % 7 == 0 else ""
        skill(workspace / f"group{i % 9}" / "skills", f"s{i:04d}", extra=extra,
              body=f"[x](missing{i}.md)\n" if i % 11 == 0 else "x\n")
    write(workspace / "group1" / "skills" / "broken" / "SKILL.md", "---\nname: broken\ndescription: Use when: x\n---\n")
    write(workspace / "group1" / "skills" / "quiet" / "SKILL.md",
          "---\nname: quiet\ndescription: d\ncolour: red\n---\n<!-- skill-ls: disable=SK007 -->\n")
    write(workspace / "plugins" / "tools" / "agents" / "helper.md", "---\nname: helper\n---\nx\n")


def _key(result):
    return [(d.path, d.span, d.code, d.message, d.runtime, d.severity, d.related, d.fix) for d in result.diagnostics], \
        result.files_checked


@pytest.mark.parametrize("jobs", [2, 3])
def test_parallel_and_serial_checks_agree(workspace, jobs):
    _big_tree(workspace)
    serial = check_tree(workspace, jobs=1)
    assert _key(check_tree(workspace, jobs=jobs)) == _key(serial)
    assert {d.code for d in serial.diagnostics} >= {"SK007", "RF001", "SK003"}
    assert not any(d.path.endswith("quiet/SKILL.md") and d.code == "SK007" for d in serial.diagnostics)


def test_results_come_back_in_chunk_order_from_the_processes_that_computed_them():
    import select

    parent = os.getpid()
    signal_r, signal_w = os.pipe()

    def work(chunk):
        if os.getpid() != parent:
            os.write(signal_w, b"x")
        elif not select.select([signal_r], [], [], 0)[0]:  # here: wait until the worker has taken one
            select.select([signal_r], [], [], 60)
        return [(i, os.getpid()) for i in chunk]

    items = list(range(BIG * 2))
    results = map_chunks(work, items, 2)
    os.close(signal_r)
    os.close(signal_w)
    assert [i for chunk in results for i, _ in chunk] == items
    assert len({pid for chunk in results for _, pid in chunk} - {parent}) == 1  # (a worker may even take all)


def test_chunks_a_failed_worker_took_are_computed_here_again():
    parent = os.getpid()

    def work(chunk):
        if os.getpid() != parent:
            raise RuntimeError("worker dies")
        return [i * 2 for i in chunk]

    items = list(range(BIG * 2))
    assert [i for chunk in map_chunks(work, items, 3) for i in chunk] == [i * 2 for i in items]


def test_a_worker_that_leaves_without_a_word_is_replaced(monkeypatch):
    parent = os.getpid()
    take = executor._take

    def take_then_die(tokens, chunks, work, done, after):
        if os.getpid() == parent:
            return take(tokens, chunks, work, done, after)
        os.read(tokens, 3)  # takes three chunks
        os._exit(3)  # and leaves

    monkeypatch.setattr(executor, "_take", take_then_die)
    items = list(range(BIG * 2))
    assert [i for chunk in map_chunks(lambda c: list(c), items, 2) for i in chunk] == items


def _forks(monkeypatch) -> list[int]:
    """The pids of the processes the executor forks from now on."""
    forked: list[int] = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    return forked


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_a_worker_forked_before_the_items_are_found_prepares_meanwhile(tmp_path, monkeypatch):
    """Given the function that finds the items (the walk), one worker is forked before it runs and
    prepares (imports) meanwhile; it is handed the items and takes chunks like any other."""
    forked = _forks(monkeypatch)
    parent = os.getpid()
    log = tmp_path / "log"

    def prepare():
        with log.open("a") as f:
            f.write(f"prepared here: {os.getpid() == parent}\n")

    def find():
        assert len(forked) == 1  # (already forked)
        return list(range(BIG * 2))

    results = map_chunks(lambda chunk: [(i * 2, os.getpid()) for i in chunk], find, 2, prepare)
    assert [i for chunk in results for i, _ in chunk] == [i * 2 for i in range(BIG * 2)]
    assert log.read_text() == "prepared here: False\n"
    assert {pid for chunk in results for _, pid in chunk} <= {parent, *forked}
    assert len(forked) == 1 and _gone(forked[0])


def test_an_early_worker_is_let_go_when_the_items_are_too_few(monkeypatch):
    forked = _forks(monkeypatch)
    parent = os.getpid()

    def prepare():
        import time
        time.sleep(60)  # (it is not waited for)

    assert map_chunks(lambda items: [os.getpid() for _ in items], lambda: [1, 2, 3], 2, prepare) == [[parent] * 3]
    assert len(forked) == 1 and _gone(forked[0])


def test_an_early_worker_that_fails_to_prepare_changes_nothing(monkeypatch):
    forked = _forks(monkeypatch)

    def prepare():
        raise RuntimeError("cannot prepare")

    items = list(range(BIG * 2))
    assert [i for chunk in map_chunks(lambda c: list(c), lambda: items, 2, prepare) for i in chunk] == items
    assert forked and all(_gone(pid) for pid in forked)


def test_a_plugin_file_is_checked_as_the_plugin_scan_found_it_in_any_process(workspace):
    """A worker forked before the walk never ran the plugin scan: the items carry what it found (an
    `AGENT.md` in a directory a `plugin.json` declares is a plugin subagent, which its path alone
    does not say)."""
    from skill_ls.analysis.check import Checker, CheckOptions, open_run

    write(workspace / "tools" / ".claude-plugin" / "plugin.json", '{"name": "tools", "agents": "./custom"}')
    write(workspace / "tools" / "custom" / "helper" / "AGENT.md", "---\nname: helper\ncolour: red\n---\nDo.\n")
    checker, _, files = open_run(CheckOptions(paths=[str(workspace)], workspace=str(workspace)))
    items = [checker._plugin_files.get(p, p) for p in files]
    here, _ = checker.per_file()(items)
    assert any(d.code == "AG002" and d.path.endswith("AGENT.md") for d in here)
    elsewhere, _ = Checker(checker.index).per_file()(items)  # (a checker that never scanned)
    assert elsewhere == here


def test_meanwhile_runs_here_while_the_workers_take_the_first_chunks():
    """Work of this process that needs no chunk's result (the checker's resolution) runs while the
    workers start: it can wait for a worker to have delivered a chunk. In one process, it runs once."""
    import select

    parent = os.getpid()
    signal_r, signal_w = os.pipe()
    ran: list[int] = []

    def work(chunk):
        if os.getpid() != parent:
            os.write(signal_w, b"x")
        return list(chunk)

    def meanwhile():
        ran.append(os.getpid())
        assert select.select([signal_r], [], [], 60)[0]  # (a worker has checked a chunk meanwhile)

    items = list(range(BIG * 2))
    assert [i for chunk in map_chunks(work, items, 2, meanwhile=meanwhile) for i in chunk] == items
    assert map_chunks(lambda c: list(c), [1, 2, 3], 2, meanwhile=lambda: ran.append(0)) == [[1, 2, 3]]
    os.close(signal_r)
    os.close(signal_w)
    assert ran == [parent, 0]


def test_small_inputs_stay_in_process():
    parent = os.getpid()
    assert map_chunks(lambda items: [os.getpid() for _ in items], [1, 2, 3], 4) == [[parent] * 3]


def test_the_number_of_processes_follows_the_work_and_the_free_processors(monkeypatch):
    monkeypatch.setattr(executor, "_cpus", lambda: 2)
    monkeypatch.setattr(executor, "_load", lambda own=0: 0.2)
    assert processes(10) == 1  # too little work to fork for
    assert processes(BIG) == 2
    assert processes(100_000) == 2  # no more processes than processors
    assert processes(BIG, jobs=1) == 1 and processes(100_000, jobs=3) == 3  # --jobs: at most that
    monkeypatch.setattr(executor, "_load", lambda own=0: 0.5)  # half a processor busy elsewhere: both
    assert processes(100_000) == 2
    monkeypatch.setattr(executor, "_load", lambda own=0: 1.0)  # one processor busy elsewhere
    assert processes(100_000) == 1
    monkeypatch.setattr(executor, "_load", lambda own=0: 5.0)
    assert processes(100_000) == 1
    monkeypatch.setattr(executor, "_cpus", lambda: 8)
    monkeypatch.setattr(executor, "_load", lambda own=0: 2.0)
    assert processes(100_000) == executor.MAX_PROCESSES


def test_the_load_is_the_smaller_of_the_average_and_what_runs_now(monkeypatch):
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 1.0, 1.0))
    load = executor._load()
    assert 0 <= load <= 3.0
    if os.path.exists("/proc/loadavg"):  # this process is running, so "now" leaves out one
        with open("/proc/loadavg") as f:
            assert load <= max(0, int(f.read().split()[3].split("/")[0]))


def test_this_runs_own_workers_are_not_the_machines_load(monkeypatch):
    """An early worker still importing is running when the walk ends: it must not count as load, or
    a check on an idle machine that ran something a minute ago stays in one process."""

    class LoadAvg:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self):
            return b"1.50 1.00 1.00 2/100 12345\n"  # this process and its early worker run

    monkeypatch.setattr(os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    monkeypatch.setattr(executor, "open", LoadAvg, raising=False)
    assert executor._load() == 1.0 and executor._load(own=1) == 0.0
    seen = []

    def spy(items, jobs=0, load=None):
        seen.append(load)
        return 2

    monkeypatch.setattr(executor, "processes", spy)
    out = executor.map_chunks(lambda chunk: len(chunk), lambda: list(range(600)), prepare=lambda: None)
    assert sum(out) == 600 and seen == [1.0, 0.0]  # (before the walk; after it, without the early worker)
    # A task that ran only while one of the two readings was taken is not load: the smaller counts.
    readings = iter([0.0, 1.0])
    monkeypatch.setattr(executor, "_load", lambda own=0: next(readings))
    seen.clear()
    executor.map_chunks(lambda chunk: len(chunk), lambda: list(range(600)), prepare=lambda: None)
    assert seen == [0.0, 0.0]


def test_the_command_line_forks_only_silent_workers(workspace):
    """Through the real command: the same report whatever `--jobs`, nothing from the workers on
    stdout or stderr, and a usage error is one line."""
    _big_tree(workspace)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "skill_ls", "check", *args], capture_output=True, text=True,
                              env=env, cwd=workspace, timeout=120)

    serial = run(".", "--format", "json", "--jobs", "1")
    for jobs in ("2", "3", "0"):
        forked = run(".", "--format", "json", "--jobs", jobs)
        assert (forked.returncode, forked.stdout, forked.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    missing = run("nowhere", "--jobs", "2")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr.strip().splitlines() == ["skill-ls: path does not exist: nowhere"]


def test_a_check_leaves_no_worker_behind(workspace, monkeypatch):
    """Every worker is collected before the check returns: no zombie, no process still running."""
    _big_tree(workspace)
    forked = _forks(monkeypatch)
    monkeypatch.setattr(executor, "MIN_ITEMS_PER_PROCESS", 50)
    check_tree(workspace, jobs=3)
    assert len(forked) == 2
    for pid in forked:  # collected: no longer a child of this process
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_findings_cross_the_pipe_whole():
    """Workers pickle their findings (Span and Diagnostic pickle by their fields): every field,
    related places and fixes included, arrives unchanged, and a field added later is not lost."""
    import pickle

    from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit
    from skill_ls.core.records import fields

    span = Span(1, 2, 3, 4)
    d = Diagnostic("/p/SKILL.md", span, "SK007", "m", Severity.WARNING, "claude-code",
                   (Related("/q/SKILL.md", Span(0, 0, 0, 1), "there"),),
                   Fix("t", (TextEdit("/p/SKILL.md", span, "x"),), safe=True), {"truncated": True})
    back = pickle.loads(pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == d and back is not d
    assert [f.name for f in fields(Diagnostic)] == list(Diagnostic.__slots__)


def test_the_report_places_a_workers_findings_in_the_text_it_checked(workspace):
    """Positions (UTF-16 columns) come from the text the findings were computed from: a worker's
    share brings the lines its findings point into back to this process's store (only those
    lines: not whole texts), so the report neither reads those files again nor sees a later
    version of them."""
    import shutil

    from skill_ls.output import format_json

    for i in range(BIG):
        # (a character outside the BMP before the link: its UTF-16 columns differ from code points)
        skill(workspace / "skills", f"s{i:04d}", extra="colour: red\n", body=f"\U0001F600 see [it](missing{i}.md)\n")
    serial = check_tree(workspace, jobs=1)
    expected = format_json(serial.diagnostics, serial.files_checked, serial.index.store)
    parallel = check_tree(workspace, jobs=2)
    shutil.rmtree(workspace / "skills")  # (nothing left on disk to read again)
    assert format_json(parallel.diagnostics, parallel.files_checked, parallel.index.store) == expected
    assert '"character": 12' in expected  # RF001's target after the emoji: 12 UTF-16 units, 11 code points
