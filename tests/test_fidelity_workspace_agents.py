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


WA_ROOT = ("workspace", "agents", "skills")


def _wa_skill(workspace, dirname: str, extra: str = "", body: str = "# Skill\n\nInstructions.\n"):
    return skill(workspace.joinpath(*WA_ROOT), dirname, extra=extra, body=body)


def test_cc007_speaks_of_skill_use_and_0_based_indices_under_workspace_agents(workspace):
    """"Access individual arguments by index (0-based)" ... "processed when skill_use is called"."""
    f = _wa_skill(workspace, "ps", body="# Ps\n\n```sh\nps aux | awk '{print $1}'\n```\n")
    [d] = [d for d in check_tree(workspace, runtimes=["workspace-agents"]).diagnostics if d.code == "CC007"]
    assert d.path == str(f) and "Claude Code" not in d.message
    assert "skill_use" in d.message and "second argument (index 1: indices are 0-based)" in d.message


def test_cc008_suggests_only_argument_hint_under_workspace_agents(workspace):
    """Workspace agents' fields are name, description, argument-hint, user-invocable: the page's own
    `Compare $ARGUMENTS[0] with $ARGUMENTS[1]` gets no advice to add `arguments`."""
    _wa_skill(workspace, "cmp", body="# Compare\n\nCompare $ARGUMENTS[0] with $ARGUMENTS[1]\n")
    [d] = [d for d in check_tree(workspace, runtimes=["workspace-agents"]).diagnostics if d.code == "CC008"]
    assert "'argument-hint'" in d.message and "'arguments'" not in d.message and "Claude Code" not in d.message


def test_a_dotdot_reference_is_an_error_because_skill_read_file_blocks_traversal(workspace):
    """"Security: paths are validated to be within the skill directory — traversal attempts are
    blocked." A link to a sibling skill's file never opens, not even in this repository."""
    (workspace / ".git").mkdir()
    _wa_skill(workspace, "style")
    f = _wa_skill(workspace, "review", body="# Review\n\nRead [the guide](../style/SKILL.md).\n")
    [d] = [d for d in check_tree(workspace, runtimes=["workspace-agents"]).diagnostics
           if d.code == "RF002" and d.path == str(f)]
    assert d.severity == 1 and "skill_read_file" in d.message and "works in this repository" not in d.message



def test_the_agent_skills_standards_fields_are_known(workspace):
    """"Each skill is a directory with a SKILL.md file ... following the Agent Skills standard": its
    `license`, `compatibility` and `metadata` are not unknown keys there."""
    f = _wa_skill(workspace, "std", extra="license: MIT\ncompatibility: Python 3.11\nmetadata:\n  owner: me\n")
    res = check_tree(workspace, runtimes=["workspace-agents"])
    assert not [d for d in res.diagnostics if d.code in ("SK007", "PT001") and d.path == str(f)]


def test_a_multi_line_description_stays_in_the_agents_prompt(workspace):
    """The page says only that names and descriptions are loaded into the system prompt; nothing
    filters a skill out, so a description with `- ` lines is rendered (no CT001)."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config

    f = _wa_skill(workspace, "listy", extra="")
    f.write_text("---\nname: listy\ndescription: |\n  Does:\n  - one\n  - two\n---\nbody\n")
    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace), runtimes=["workspace-agents"]))
    obj = catalog_object(build_index(str(workspace), config), "workspace-agents")
    assert "- **listy**: Does:\n- one\n- two" in obj["text"] and obj["left_out"] == []
    assert not [d for d in check_tree(workspace, runtimes=["workspace-agents"]).diagnostics if d.code == "CT001"]


def test_a_name_that_differs_from_its_directory_is_fine(workspace):
    """"name | string | directory name | Skill identifier": the directory is the default, not a rule."""
    f = _wa_skill(workspace, "review-dir", extra="").parent / "SKILL.md"
    f.write_text("---\nname: review-code\ndescription: d\n---\nbody\n")
    assert not [d for d in check_tree(workspace, runtimes=["workspace-agents"]).diagnostics if d.code == "SK009"]
