"""agnix's fixtures placed where Claude Code reads them (issue 25): every invalid one flagged by skill-ls with
a finding of its concern, every valid one without an error, or the difference recorded in
tests/agnix_fixtures.py (DISAGREE) with Claude Code's behaviour as the evidence; docs/agnix-fixtures.md
is that table (`python -m tests.agnix_fixtures` rewrites it)."""
from __future__ import annotations

import pytest

from tests import agnix_fixtures as af


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> list[af.Result]:
    base = tmp_path_factory.mktemp("agnix")
    home = base / "home"
    home.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("AGH_HOME", str(home / ".agh"))
        mp.setenv("CODEX_HOME", str(home / ".codex"))
        mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
        mp.delenv("AMP_TOOLBOX", raising=False)
        return af.check_all(base / "ws")


def test_every_fixture_is_vendored_and_placed():
    on_disk = {p.relative_to(af.FIXTURES).as_posix() for p in af.FIXTURES.rglob("*") if p.is_file()}
    listed = {c.fixture for c in af.CASES}
    assert listed == on_disk, "tests/data/agnix/fixtures and CASES must list the same files"
    assert (af.DATA / "LICENSE-MIT").is_file() and (af.DATA / "LICENSE-APACHE").is_file()


@pytest.mark.parametrize("case", af.CASES, ids=lambda c: c.fixture)
def test_fixture_agrees_with_agnix_or_the_difference_is_recorded(results, case):
    for r in (r for r in results if r.case == case):
        if r.agrees:
            continue
        what = ("no error" if case.valid else f"a finding among {case.codes or af.FAMILY_PREFIX.get(case.family)}")
        assert af.reason(r), (f"{r.key}: agnix expects {what}, skill-ls reports {list(r.findings) or 'nothing'}; "
                              "fix skill-ls or record Claude Code's behaviour in DISAGREE (tests/agnix_fixtures.py)")


def test_recorded_differences_still_differ(results):
    differing = {r.key for r in results if not r.agrees} | {r.case.fixture for r in results if not r.agrees}
    stale = sorted(k for k in af.DISAGREE if k not in differing)
    assert not stale, f"these fixtures now agree with agnix: remove them from DISAGREE: {stale}"


def test_doc_is_current(results):
    assert af.DOC.read_text(encoding="utf-8") == af.render(results), (
        "docs/agnix-fixtures.md is stale: run `python -m tests.agnix_fixtures`")
