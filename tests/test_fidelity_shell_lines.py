"""`` !`command` `` lines run only in runtimes that execute them (Claude Code, workspace agents);
elsewhere RF003 is a portability note, not a warning that something runs."""
from __future__ import annotations

from skill_ls.core.model import Severity
from tests.conftest import check_tree, skill

BODY = "# Status\n\nCurrent branch: !`git branch --show-current`\n"


def _rf003(res, path):
    return [d for d in res.diagnostics if d.code == "RF003" and d.path == str(path)]


def test_workspace_agents_executes_it(workspace):
    f = skill(workspace / "workspace" / "agents" / "skills", "s", body=BODY)
    [d] = _rf003(check_tree(workspace), f)
    assert d.severity == Severity.WARNING and "runs a shell command" in d.message and "workspace agents" in d.message


def test_agh_only_skill_gets_a_note(workspace):
    f = skill(workspace / ".agh" / "skills", "s", body=BODY)
    [d] = _rf003(check_tree(workspace), f)
    assert d.severity == Severity.INFORMATION and "not executed by AGH" in d.message


def test_amp_only_skill_gets_a_note(workspace):
    f = skill(workspace / ".agents" / "skills", "s", body=BODY)
    [d] = _rf003(check_tree(workspace, runtimes=["amp"]), f)
    assert d.severity == Severity.INFORMATION and "not executed by Amp" in d.message


def test_a_runtime_not_established_either_way_keeps_the_warning(workspace):
    # Codex's sources do not say: RF003 stays a warning there (conservative).
    f = skill(workspace / ".agents" / "skills", "s", body=BODY)
    [d] = _rf003(check_tree(workspace, runtimes=["amp", "codex"]), f)
    assert d.severity == Severity.WARNING


def test_claude_code_root_warns(workspace):
    f = skill(workspace / ".claude" / "skills", "s", body=BODY)
    [d] = _rf003(check_tree(workspace), f)
    assert d.severity == Severity.WARNING and "Claude Code" in d.message


def test_loose_skill_warns_naming_the_runtimes_that_run_it(workspace):
    f = skill(workspace / "skills", "s", body=BODY)
    [d] = _rf003(check_tree(workspace), f)
    assert d.severity == Severity.WARNING and "Claude Code, workspace agents" in d.message
