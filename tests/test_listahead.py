"""Listing ahead (analysis/listahead.py): another process lists the checked trees while `check`
imports; what it hands out is exactly what this process would have listed, and a check with it finds
exactly what a check without it finds."""
from __future__ import annotations

import os
import signal

import pytest
from conftest import skill, write

from skill_ls.analysis import listahead
from skill_ls.analysis.check import CheckOptions, run_check
from skill_ls.analysis.listahead import ListAhead
from skill_ls.core.listdir import list_directory


def _tree(root) -> None:
    for i in range(30):
        skill(root / ".claude" / "skills", f"s{i:02d}", extra="colour: red\n" if i % 5 == 0 else "",
              body=f"[x](missing{i}.md)\n")
    write(root / "docs" / "nested" / ".agents" / "skills" / "deep" / "SKILL.md",
          "---\nname: deep\ndescription: Use when: x\n---\n")
    write(root / "agents" / "helper" / "AGENT.md", "---\nname: helper\n---\nx\n")
    write(root / "node_modules" / "pkg" / "SKILL.md", "---\nname: never\n---\n")
    os.symlink(root / "docs", root / "linked-docs")
    os.symlink(root / "agents" / "helper" / "AGENT.md", root / "agents" / "AGENT.md")
    os.mkfifo(root / "pipe")


def _started(paths) -> ListAhead:
    ahead = ListAhead.start([str(p) for p in paths], jobs=2)
    assert ahead is not None
    return ahead


def test_the_lister_hands_out_what_this_process_would_list(tmp_path):
    _tree(tmp_path)
    ahead = _started([tmp_path])
    ahead.finish(wait=True)
    listed = 0
    for directory, dirs, _ in os.walk(tmp_path):
        dirs[:] = [d for d in dirs if d != "node_modules"]
        assert ahead.listing(directory) == list_directory(directory)
        listed += 1
    assert listed > 30
    assert ahead.listing(str(tmp_path)) is None  # (handed out once)
    # Never entered, never followed: what no walk enters, a symlinked directory; nothing outside.
    assert ahead.listing(str(tmp_path / "node_modules")) is None
    assert ahead.listing(str(tmp_path / "linked-docs")) is None
    assert ahead.listing(str(tmp_path.parent)) is None


def _check(root, ahead: ListAhead | None, jobs: int):
    result = run_check(CheckOptions(paths=[str(root)], workspace=str(root), jobs=jobs), ahead=ahead)
    return [(d.path, d.span, d.code, d.message, d.runtime) for d in result.diagnostics], result.files_checked


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_check_with_a_lister_finds_what_a_check_without_one_finds(tmp_path, jobs):
    _tree(tmp_path)
    without = _check(tmp_path, None, 1)
    assert {code for _, _, code, _, _ in without[0]} >= {"SK007", "RF001", "SK003"}
    assert _check(tmp_path, _started([tmp_path]), jobs) == without


def test_a_lister_that_dies_or_lags_changes_nothing(tmp_path, monkeypatch):
    _tree(tmp_path)
    without = _check(tmp_path, None, 1)
    dead = _started([tmp_path])
    os.kill(dead._pid, signal.SIGKILL)
    assert _check(tmp_path, dead, 2) == without
    monkeypatch.setattr(listahead, "_BATCH", 1)  # (listings trickling in one by one)
    assert _check(tmp_path, _started([tmp_path]), 2) == without


def test_a_check_leaves_no_lister_behind(tmp_path):
    _tree(tmp_path)
    ahead = _started([tmp_path])
    _check(tmp_path, ahead, 1)
    with pytest.raises(ChildProcessError):
        os.waitpid(ahead._pid, os.WNOHANG)


def test_no_lister_for_one_process_a_busy_machine_or_no_directory(tmp_path, monkeypatch):
    """The executor's rule: a lister only when a processor is free for it (`--jobs 1`: never)."""
    from skill_ls.analysis import executor

    write(tmp_path / "x" / "SKILL.md", "---\nname: x\ndescription: d\n---\n")
    assert ListAhead.start([str(tmp_path)], jobs=1) is None
    assert ListAhead.start([str(tmp_path / "x" / "SKILL.md")], jobs=2) is None
    monkeypatch.setattr(executor, "_cpus", lambda: 2)
    monkeypatch.setattr(executor, "_load", lambda own=0: 1.0)  # (a CPU hog beside the check)
    assert ListAhead.start([str(tmp_path)]) is None
    monkeypatch.setattr(executor, "_load", lambda own=0: 0.0)
    idle = ListAhead.start([str(tmp_path)])
    assert idle is not None
    idle.finish()


def test_the_command_line_lists_ahead_except_when_it_fixes(tmp_path, monkeypatch):
    """`check --fix` writes files (a rename moves a skill): listings taken before it could be stale."""
    from skill_ls import cli

    write(tmp_path / ".claude" / "skills" / "x" / "SKILL.md", "---\nname: x\ndescription: d\n---\n")
    started: list[list[str]] = []
    monkeypatch.setattr(ListAhead, "start", classmethod(lambda cls, paths, jobs=0: started.append(paths)))
    monkeypatch.chdir(tmp_path)
    for args in (["--fix"], ["--unsafe-fixes"], ["--diff"]):
        cli.main(["check", ".", *args])
    assert started == []
    cli.main(["check", "."])
    cli.main(["check", "--workspace", str(tmp_path)])
    assert started == [[str(tmp_path)], [str(tmp_path)]]


def test_a_directory_outside_the_checked_paths_never_waits_on_the_pipe(tmp_path, monkeypatch):
    """The index lists the user's roots too: asking for one costs no read of the pipe."""
    (tmp_path / "ws").mkdir()
    ahead = _started([tmp_path / "ws"])
    pumped: list[int] = []
    monkeypatch.setattr(ahead, "_pump", lambda: pumped.append(1))
    assert ahead.listing(str(tmp_path / "home" / ".claude" / "skills")) is None
    assert pumped == []
    ahead.listing(str(tmp_path / "ws" / "missing"))
    assert pumped == [1]
    monkeypatch.undo()
    ahead.finish()


def test_the_lister_answers_the_search_for_nested_folders_as_the_walker_would(tmp_path):
    """The index's first walk (discovery's search for nested skill folders) comes from the lister's
    listings, computed by the same function; asked with another limit, it is not an answer."""
    from skill_ls.core.discovery import MAX_WALK_DIRS, Walker, _below

    _tree(tmp_path)
    expected = _below(str(tmp_path), Walker())
    assert any(d.endswith(os.sep + "nested") and ".agents" in children for d, children in expected)
    ahead = _started([tmp_path])
    ahead.finish(wait=True)
    assert ahead.below(str(tmp_path), MAX_WALK_DIRS - 1) is None
    assert ahead.below(str(tmp_path / "docs"), MAX_WALK_DIRS) is None  # (only the listed trees)
    ahead = _started([tmp_path])
    ahead.finish(wait=True)
    assert ahead.below(str(tmp_path), MAX_WALK_DIRS) == expected
    assert ahead.below(str(tmp_path), MAX_WALK_DIRS) is None  # (handed out once)


def test_a_check_takes_the_listers_answer_instead_of_walking(tmp_path, monkeypatch):
    from skill_ls.core import discovery

    _tree(tmp_path)
    without = _check(tmp_path, None, 1)
    ahead = _started([tmp_path])
    ahead.finish(wait=True)

    def walked(*args, **kwargs):
        raise AssertionError("the Walker searched the checked tree itself")

    monkeypatch.setattr(discovery, "directories_below", walked)
    assert _check(tmp_path, ahead, 2) == without
