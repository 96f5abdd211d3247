"""Regression guard on the shared corpus of 1,504 real SKILL.md files (../shared/corpus).

The per-code counts are pinned: a change in them is either a fixed false positive or a new false
negative, and must be looked at. Every finding sampled by hand when these were pinned was a true
finding (see docs/corpus-review.md)."""
from __future__ import annotations

import collections
import os

import pytest
from conftest import CORPUS

from skill_ls.analysis.check import CheckOptions, run_check

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")

# Issue 11: SK007 872 -> 858: keys some runtime knows (argument-hint, version, context, user-invocable)
# in skills under no root became PT001 notes (14), and the 181 skills of plugins/<p>/skills are
# now read by Claude Code, where `version` is unknown (14). New: CC007 (11 `$N` in code), PT002
# (3 reserved words), PT003 (2 XML tags), RF004 (2 reference files that link further files); the
# 202 plugin subagents (SA001-SA006, MS001-MS006) are clean; each reviewed in docs/corpus-review.md.
# Issue 12: SK009 86 -> 22: 64 of them repeated an SK008 on the same invalid name; SK008 now
# suppresses SK009 on that name (one finding per root cause).
# Issue 25: SK007 858 -> 844: `version` is a field Claude Code reads (`version: String(...)` in its
# skill loader), so the 14 plugin skills that set it are clean.
EXPECTED = {"CC007": 11, "PT001": 14, "PT002": 3, "PT003": 2, "RF001": 5, "RF002": 23, "RF004": 2, "SK006": 2,
            "SK007": 844,
            "SK008": 92, "SK009": 22, "SK010": 1, "SK012": 45}


@pytest.fixture(scope="module")
def corpus_result():
    return run_check(CheckOptions(paths=[str(CORPUS)], no_user_roots=True))


def test_per_code_counts_are_pinned(corpus_result):
    counts = collections.Counter(d.code for d in corpus_result.diagnostics)
    assert dict(sorted(counts.items())) == EXPECTED
    # 1,505 skills and sidecars + 202 plugin subagents of wshobson/agents (plugins/<p>/agents/*.md), checked
    # as Claude Code subagents since issue 11.
    assert corpus_result.files_checked == 1707
    # Issue 12: links to existing files of sibling skills are warnings (standalone-install risk);
    # the 8 that point at nothing stay errors.
    rf002 = collections.Counter(d.severity.label for d in corpus_result.diagnostics if d.code == "RF002")
    assert rf002 == {"warning": 15, "error": 8}


def test_every_range_lies_inside_its_file(corpus_result):
    store = corpus_result.index.store
    for d in corpus_result.diagnostics:
        src = store.peek(d.path).src
        assert 0 <= d.span.start_line < src.line_count, d
        assert 0 <= d.span.end_line < src.line_count, d
        assert (d.span.start_line, d.span.start_col) <= (d.span.end_line, d.span.end_col), d
        assert d.span.start_col <= len(src.line_text(d.span.start_line)), d
        assert d.span.end_col <= len(src.line_text(d.span.end_line)), d
        for r in d.related:
            assert os.path.exists(r.path)


def test_no_false_positives_on_valid_fields(corpus_result):
    # Known standard fields with valid values never produce SK007 or SK006 on well-formed skills.
    for d in corpus_result.diagnostics:
        if d.code == "SK007":
            key = d.message.split("'")[1]
            assert key not in ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
        assert d.code not in ("SK001", "SK002", "SK003", "SK004"), d  # the corpus parses cleanly


def test_portability_matrix_on_the_corpus(corpus_result):
    """`skill-ls portability` works on the 1,504 real skills, in every format (issue 11)."""
    from skill_ls.analysis.portability import as_json, as_markdown, as_text, matrix

    index = corpus_result.index
    rows = matrix(index, [str(CORPUS)])
    assert len(rows) == 1504
    data = as_json(rows, index.display_path)
    statuses = {v["status"] for s in data["skills"] for v in s["verdicts"].values()}
    assert statuses <= {"loads", "warnings", "fails", "not_read"} and "loads" in statuses
    # The 181 plugin skills are read by Claude Code only; the other skills are judged as if installed.
    plugin = [s for s in data["skills"] if "/plugins/" in s["path"]]
    assert len(plugin) == 181 and all(s["verdicts"]["codex"]["status"] == "not_read" for s in plugin)
    assert as_text(rows, index.display_path).count("\n") > 1504
    assert as_markdown(rows, index.display_path).count("\n| `") == 1504
