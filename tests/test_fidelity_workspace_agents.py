"""workspace agents as their documentation describes them (sources/workspace-agents-skills.txt)."""
from __future__ import annotations

from tests.conftest import check_tree, skill, write


def test_an_agent_listing_a_skill_that_is_not_available_for_use_gets_ag005(workspace):
    # "user-invocable | bool | true | Whether the skill is available for use"
    root = workspace / "workspace" / "agents" / "skills"
    skill(root, "analyze-pr")
    skill(root, "generate-report", extra="user-invocable: false\n")
    agent = write(workspace / "workspace" / "agents" / "my-agent.md",
                  "---\nname: my-agent\nskills:\n  - analyze-pr\n  - generate-report\n---\n\n"
                  "You are an assistant. Use your skills when appropriate.\n")
    res = check_tree(workspace)
    [d] = [d for d in res.diagnostics if d.code == "AG005" and d.path == str(agent)]
    assert "generate-report" in d.message and "not available for use" in d.message and d.span.start_line == 4


def test_skill_dir_script_paths_must_exist(workspace):
    # "Run: python ${SKILL_DIR}/scripts/analyze.py" (the page's ${SKILL_DIR} example)
    f = skill(workspace / "workspace" / "agents" / "skills", "analyze",
              body="# Analyze\n\nRun: `python ${SKILL_DIR}/scripts/analyze.py`\n")
    res = check_tree(workspace)
    [d] = [d for d in res.diagnostics if d.code == "RF001" and d.path == str(f)]
    assert "scripts/analyze.py" in d.message
    write(f.parent / "scripts" / "analyze.py", "print('ok')\n")
    assert not [d for d in check_tree(workspace).diagnostics if d.code == "RF001" and d.path == str(f)]
