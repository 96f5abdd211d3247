"""The per-file phase of `check` may run in forked workers; results must not depend on it."""
from __future__ import annotations

import os

from conftest import check_tree, skill, write

from skill_ls.analysis.check import PARALLEL_MIN_FILES, run_in_processes


def test_parallel_and_serial_checks_agree(workspace):
    for i in range(PARALLEL_MIN_FILES + 20):
        extra = "colour: red\n" if i % 7 == 0 else ""
        skill(workspace / "skills", f"s{i:04d}", extra=extra, body=f"[x](missing{i}.md)\n" if i % 11 == 0 else "x\n")
    write(workspace / "skills" / "broken" / "SKILL.md", "---\nname: broken\ndescription: Use when: x\n---\n")
    write(workspace / "skills" / "quiet" / "SKILL.md",
          "---\nname: quiet\ndescription: d\ncolour: red\n---\n<!-- skill-ls: disable=SK007 -->\n")
    serial = check_tree(workspace, jobs=1).diagnostics
    parallel = check_tree(workspace, jobs=2).diagnostics
    assert [(d.path, d.span, d.code, d.message, d.runtime) for d in serial] == \
           [(d.path, d.span, d.code, d.message, d.runtime) for d in parallel]
    assert {d.code for d in serial} >= {"SK007", "RF001", "SK003"}
    assert not any(d.path.endswith("quiet/SKILL.md") and d.code == "SK007" for d in parallel)


def test_failed_worker_share_is_redone_in_process():
    parent = os.getpid()

    def work(items):
        if os.getpid() != parent:
            raise RuntimeError("worker dies")
        return [i * 2 for i in items]

    items = list(range(PARALLEL_MIN_FILES * 2))
    assert sorted(run_in_processes(work, items, 3)) == sorted(i * 2 for i in items)


def test_small_inputs_stay_in_process():
    parent = os.getpid()
    assert run_in_processes(lambda items: [os.getpid() for _ in items], [1, 2, 3], 4) == [parent] * 3


# --- check on processes forked before the imports (analysis/parallel.py) --------------------------

import random  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from skill_ls.analysis import parallel  # noqa: E402
from skill_ls.analysis.check import CheckOptions, Checker, build_index, prepare_config, run_check  # noqa: E402


def _checker(path) -> Checker:
    opts = CheckOptions(paths=[str(path)], workspace=str(path))
    return Checker(build_index(str(path), prepare_config(str(path), opts)))


def _random_tree(root, seed: int) -> None:
    """Skills, agents, sidecars, plugins (manifest and marketplace layouts), `.claude/commands`,
    directories never entered, at random depths and fan-outs."""
    rnd = random.Random(seed)
    dirs = [root]
    for i in range(rnd.randint(40, 160)):
        parent = rnd.choice(dirs)
        name = rnd.choice(["a", "b", "skills", "plugins", "agents", "commands", ".claude", "node_modules",
                           ".git", "x", "docs", ".claude-plugin", "p"]) + ("" if rnd.random() < 0.3 else str(i))
        d = parent / name
        d.mkdir(exist_ok=True)
        dirs.append(d)
        kind = rnd.random()
        if kind < 0.35:
            skill(d, f"s{i}")
        elif kind < 0.45:
            write(d / "AGENT.md", "---\nname: a\ndescription: d\n---\nx\n")
        elif kind < 0.55:
            write(d / "mcp.json", "{}\n")
        elif kind < 0.62:
            write(d / ".claude-plugin" / "plugin.json", '{"name": "p%d"}\n' % i)
            write(d / "agents" / "helper.md", "---\nname: helper\ndescription: d\n---\nx\n")
        elif kind < 0.7:
            write(d / "commands" / "go.md", "go\n")
        elif kind < 0.75:
            write(d / ".claude" / "commands" / "run.md", "run\n")
        elif kind < 0.8:
            write(d / "agents" / "openai.yaml", "interface: {}\n")


@pytest.mark.parametrize("seed", range(12))
def test_the_shares_of_a_walk_join_into_the_whole_walk(tmp_path, seed, monkeypatch):
    from skill_ls.core import discovery

    monkeypatch.setattr(discovery, "CUT_DIRS_PER_PART", 1 + seed % 3)  # cut these small trees too
    root = tmp_path / "ws"
    root.mkdir()
    _random_tree(root, seed)
    whole = _checker(root)
    expected = whole.files_in_scope([str(root)])
    for parts in (2, 3, 4):
        shares = [_checker(root).files_in_part([str(root)], k, parts) for k in range(parts)]
        assert all(s.exact for s in shares)
        joined = _checker(root)
        assert joined.adopt([str(root)], shares) == expected
        assert joined.plugin_table == whole.plugin_table
        # each file in exactly one share
        assert sum(len(s.files) for s in shares) == len(set().union(*(s.files for s in shares)))
        assert sum(len(s.plugins) for s in shares) == len(joined.plugin_table)
        for k, share in enumerate(shares):  # below the cut, by the checksum of the directory at the cut
            for f in share.files:
                rel = os.path.relpath(f, root).split(os.sep)
                cut = share.cuts[0]
                owner = discovery.part_of(os.path.join(root, *rel[:cut]), parts) if len(rel) - 1 >= cut else 0
                assert owner == k, (f, cut)


def test_a_wide_tree_is_shared_out_between_the_parts(workspace, monkeypatch):
    from skill_ls.core import discovery

    monkeypatch.setattr(discovery, "CUT_DIRS_PER_PART", 4)
    for i in range(40):
        skill(workspace / f"team{i}", f"s{i}")
    shares = [_checker(workspace).files_in_part([str(workspace)], k, 2) for k in range(2)]
    assert shares[0].cuts == [1] and all(len(s.files) >= 5 for s in shares)  # (2^-39: all in one part)


def test_a_symlinked_directory_makes_the_shares_inexact(workspace):
    for i in range(30):
        skill(workspace / "skills" / f"g{i % 5}", f"s{i}")
    os.symlink(workspace / "skills" / "g1", workspace / "skills" / "link")
    shares = [_checker(workspace).files_in_part([str(workspace)], k, 2) for k in range(2)]
    assert not all(s.exact for s in shares)
    assert _checker(workspace).adopt([str(workspace)], shares) is None


def _big_tree(workspace, n: int = PARALLEL_MIN_FILES + 60) -> None:
    for i in range(n):
        extra = "colour: red\n" if i % 7 == 0 else ""
        skill(workspace / f"group{i % 9}" / "skills", f"s{i:04d}", extra=extra,
              body=f"[x](missing{i}.md)\n" if i % 11 == 0 else "x\n")
    write(workspace / "group1" / "skills" / "quiet" / "SKILL.md",
          "---\nname: quiet\ndescription: d\ncolour: red\n---\n<!-- skill-ls: disable=SK007 -->\n")
    write(workspace / "plugins" / "tools" / "agents" / "helper.md", "---\nname: helper\n---\nx\n")


def _key(result):
    return ([(d.path, d.span, d.code, d.message, d.runtime, d.severity) for d in result.diagnostics],
            result.files_checked, result.line_hints)


def _opts(workspace, jobs):
    return lambda: CheckOptions(paths=[str(workspace)], workspace=str(workspace), jobs=jobs, line_hints=True)


@pytest.mark.parametrize("jobs", [2, 3])
def test_forked_check_equals_the_serial_check(workspace, jobs):
    _big_tree(workspace)
    serial = run_check(_opts(workspace, 1)())
    assert _key(parallel.run_check_forked(_opts(workspace, jobs), jobs)) == _key(serial)
    assert {"SK007", "RF001"} <= {d.code for d in serial.diagnostics}


def test_forked_check_of_a_small_tree_stays_in_this_process(workspace):
    skill(workspace / "skills", "one", extra="colour: red\n")
    serial = run_check(_opts(workspace, 1)())
    assert _key(parallel.run_check_forked(_opts(workspace, 2), 2)) == _key(serial)


def test_a_worker_that_fails_before_walking_is_replaced(workspace, monkeypatch):
    _big_tree(workspace)
    serial = run_check(_opts(workspace, 1)())

    def dies(*args):
        raise RuntimeError("worker dies")

    monkeypatch.setattr(parallel, "_work", dies)  # (the forked worker runs this copy of the module)
    assert _key(parallel.run_check_forked(_opts(workspace, 2), 2)) == _key(serial)


def test_chunks_a_worker_took_and_never_sent_are_checked_again(workspace, monkeypatch):
    _big_tree(workspace)
    serial = run_check(_opts(workspace, 1)())
    parent = os.getpid()
    take = parallel._take_chunks

    def take_then_die(tokens, chunks, per_file, done, after):
        if os.getpid() == parent:
            return take(tokens, chunks, per_file, done, after)
        os.read(tokens, 3)  # takes three chunks
        os._exit(3)  # and leaves without a word

    monkeypatch.setattr(parallel, "_take_chunks", take_then_die)
    assert _key(parallel.run_check_forked(_opts(workspace, 2), 2)) == _key(serial)


def test_the_command_line_forks_only_silent_workers(workspace):
    """Through the real command: the same report whatever `--jobs`, nothing from the workers on
    stdout or stderr, and a usage error is one line (the workers leave quietly)."""
    _big_tree(workspace)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "skill_ls", "check", *args], capture_output=True, text=True,
                              env=env, cwd=workspace, timeout=120)

    serial = run(".", "--format", "json", "--jobs", "1")
    for jobs in ("2", "3"):
        forked = run(".", "--format", "json", "--jobs", jobs)
        assert (forked.returncode, forked.stdout, forked.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    missing = run("nowhere", "--jobs", "2")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr.strip().splitlines() == ["skill-ls: path does not exist: nowhere"]


def test_report_entries_written_while_checking_are_the_report_s(workspace):
    """With a writer, each process writes its findings' JSON entries as it checks them; the report
    uses them where finishing left a finding unchanged and is the same text either way."""
    from skill_ls.output import JsonEntries, format_json

    _big_tree(workspace)
    write(workspace / ".skill-ls.toml", "[rules.severity]\nSK007 = \"information\"\n")  # finishing changes these
    os.chdir(workspace)
    result = parallel.run_check_forked(_opts(workspace, 2), 2, lambda index: JsonEntries(index.store).prerender)
    pre = result.prerendered
    used = [d for d in result.diagnostics if id(d) in pre and pre[id(d)][0] is d
            and pre[id(d)][2] == JsonEntries.state(d)]
    assert all(d in used for d in result.diagnostics if d.code != "SK007")
    assert any(d.code == "SK007" and d not in used for d in result.diagnostics)  # re-written after the override
    serial = run_check(_opts(workspace, 1)())
    assert format_json(result.diagnostics, result.files_checked, result.index.store, result.line_hints, pre) == \
        format_json(serial.diagnostics, serial.files_checked, serial.index.store, serial.line_hints)


def test_a_small_tree_does_not_wait_for_the_workers(workspace, monkeypatch):
    import time

    skill(workspace / "skills", "one", extra="colour: red\n")
    serial = run_check(_opts(workspace, 1)())

    def slow(*args):
        time.sleep(60)
        return 0

    monkeypatch.setattr(parallel, "_work", slow)  # a worker that would hold the run up for a minute
    started = time.monotonic()
    assert _key(parallel.run_check_forked(_opts(workspace, 2), 2)) == _key(serial)
    assert time.monotonic() - started < 20


def test_findings_cross_the_pipe_whole():
    """Workers pickle their findings (Span and Diagnostic pickle by their fields): every field,
    related places and fixes included, arrives unchanged, and a field added later is not lost."""
    import dataclasses
    import pickle

    from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit

    span = Span(1, 2, 3, 4)
    d = Diagnostic("/p/SKILL.md", span, "SK007", "m", Severity.WARNING, "claude-code",
                   (Related("/q/SKILL.md", Span(0, 0, 0, 1), "there"),),
                   Fix("t", (TextEdit("/p/SKILL.md", span, "x"),), safe=True), {"truncated": True})
    back = pickle.loads(pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == d and back is not d
    assert [f.name for f in dataclasses.fields(Diagnostic)] == list(Diagnostic.__slots__)


def test_workers_not_waited_for_are_reaped_once_they_have_left(workspace, monkeypatch):
    """The command line does not wait for its workers' teardown (`wait=False`); `reap_workers` then
    collects them without blocking, so a finished check leaves no zombie behind."""
    import time

    _big_tree(workspace)
    forked: list[int] = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    serial = run_check(_opts(workspace, 1)())
    assert _key(parallel.run_check_forked(_opts(workspace, 3), 3, wait=False)) == _key(serial)
    assert len(forked) == 2
    deadline = time.monotonic() + 10
    while parallel._leaving and time.monotonic() < deadline:
        parallel.reap_workers()
        time.sleep(0.01)
    assert parallel._leaving == []
    for pid in forked:  # collected: no longer a child of this process
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
