"""The rule registry: rules declare where they apply (runtimes, file kinds) and run behind an error
boundary. A rule scoped to one runtime fires only for that runtime; a rule that raises becomes SL001 on
that file while every other rule and file is still reported."""
from __future__ import annotations

import pytest

from conftest import check_tree, skill, write
from skill_ls.analysis import rules as registry
from skill_ls.analysis.rules import ANY_RUNTIME, RULES, SCOPE_KINDS, all_rules, rule, rule_runtimes
from skill_ls.core.model import Severity, Span
from skill_ls.core.runtimes import RUNTIMES


@pytest.fixture
def throwaway():
    """Register rules for one test only (the registry is process-wide)."""
    all_rules()
    added: list[str] = []

    def add(code, scope, func, **kwargs):
        rule(code, Severity.WARNING, scope, **kwargs)(func)
        added.append(code)
        registry._FOR.clear()

    yield add
    for code in added:
        RULES.pop(code, None)
    registry._FOR.clear()


def _shared_skill(workspace):
    # One skill in `.agents/skills`, which several runtimes read.
    skill(workspace / ".agents" / "skills", "demo")
    write(workspace / ".claude" / "skills" / "demo" / "SKILL.md",
          "---\nname: demo\ndescription: Does things. Use when needed.\n---\nBody.\n")


def test_a_rule_scoped_to_one_runtime_fires_only_for_it(workspace, throwaway):
    _shared_skill(workspace)
    target = "codex"  # a test may name a runtime id; the package may not

    def only_one(ctx):
        """A throwaway rule.

        ## What it does
        Reports every skill.
        """
        ctx.out.report(Span(0, 0, 0, 0), "seen")

    throwaway("ZZ901", "runtime", only_one, runtimes=lambda rt: rt.id == target)
    found = [d for d in check_tree(workspace).diagnostics if d.code == "ZZ901"]
    assert found, "the rule never ran"
    assert {d.runtime for d in found} == {target}
    assert rule_runtimes(RULES["ZZ901"]) == (target,)


def test_an_unscoped_runtime_rule_is_refused_at_registration(throwaway):
    def anywhere(ctx):
        """x"""

    with pytest.raises(ValueError, match="must say which runtimes"):
        throwaway("ZZ902", "runtime", anywhere)


def test_file_kinds_limit_where_a_rule_runs(workspace, throwaway):
    skill(workspace / ".claude" / "skills", "demo")
    write(workspace / ".claude" / "commands" / "go.md", "---\ndescription: Go somewhere\n---\nGo.\n")

    def skills_only(ctx):
        """x

        ## What it does
        Reports.
        """
        ctx.out.report(Span(0, 0, 0, 0), "seen")

    throwaway("ZZ903", "runtime", skills_only, runtimes=ANY_RUNTIME, file_kinds=("skill",))
    paths = {d.path for d in check_tree(workspace).diagnostics if d.code == "ZZ903"}
    assert paths and all(p.endswith("SKILL.md") for p in paths)


@pytest.mark.parametrize("scope", ["file", "runtime", "resolution", "agent", "sidecar"])
def test_a_rule_that_raises_becomes_sl001_and_the_rest_is_still_reported(workspace, throwaway, scope):
    skill(workspace / ".claude" / "skills", "demo", extra="colr: red\n")  # SK007 on its own
    write(workspace / ".claude" / "skills" / "demo" / "mcp.json", '{"mcpServers": {"s": {"command": "npx"}}}')
    write(workspace / ".claude" / "agents" / "helper.md", "---\nname: helper\ndescription: Helps\n---\nHelp.\n")

    def broken(ctx):
        """x

        ## What it does
        Fails.
        """
        raise OverflowError("x" * 10_000)

    kwargs = {"runtimes": ANY_RUNTIME} if scope in ("runtime", "resolution") else {}
    throwaway("ZZ904", scope, broken, **kwargs)
    diags = check_tree(workspace).diagnostics
    internal = [d for d in diags if d.code == "SL001"]
    assert internal, scope
    assert all("ZZ904 failed (OverflowError" in d.message and len(d.message) < 300 for d in internal)
    assert any(d.code == "SK007" for d in diags)  # the other rules still ran


def test_every_runtime_and_resolution_rule_declares_its_runtimes():
    for r in all_rules().values():
        if r.scope in ("runtime", "resolution"):
            assert r.runtimes is not None, r.code
            assert rule_runtimes(r), f"{r.code} applies to no runtime"
        assert set(r.file_kinds) <= set(SCOPE_KINDS[r.scope]), r.code


def test_runtime_predicates_are_about_descriptors_not_ids():
    """Every registered predicate answers from descriptor data: it holds for at least one runtime and
    is the same for two descriptors that differ only in their id."""
    from skill_ls.core.records import replace

    for r in all_rules().values():
        if r.runtimes is None or r.runtimes is ANY_RUNTIME:
            continue
        for rt in RUNTIMES.values():
            twin = replace(rt, id=rt.id + "-twin")
            assert r.runtimes(twin) == r.runtimes(rt), r.code


def test_rule_docs_cleaned_as_inspect_cleans_them() -> None:
    """The registry's `cleandoc` (a check does not import `inspect`) is `inspect.cleandoc`."""
    import inspect

    from skill_ls.analysis.rules import cleandoc

    for r in all_rules().values():
        assert r.doc == inspect.cleandoc(r.func.__doc__ or ""), r.code
    for text in ["", "\n", "  one", "a\n\tb\n   c\n\n", "\n\n  x\n    y\n  \n"]:
        assert cleandoc(text) == inspect.cleandoc(text)
