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
