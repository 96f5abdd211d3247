"""AG001-AG005: agent definitions (SPEC §3.1, §3.4, §3.7, §5, §8)."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity

GOOD = "name: {name}\nprovider: claude\n"


def agh_agent(ws, name, frontmatter=None, body="You review code.\n", *, raw=None):
    text = raw if raw is not None else f"---\n{(frontmatter if frontmatter is not None else GOOD).format(name=name)}---\n{body}"
    return write(ws / ".agh" / "agents" / name / "AGENT.md", text, dedent=False)


def codes_at(res, path, code):
    return diags_for(res, path, code)


def test_valid_agent_has_no_findings(workspace):
    path = agh_agent(workspace, "reviewer", GOOD + "model: claude-sonnet-4-6\npermissions: approve-reads\n"
                     'tools: ["mcp__github__*", "agh__skill_view"]\ntoolsets: ["agh__coordination"]\n'
                     'deny_tools: ["agh__network_send"]\nmcp_servers:\n  - name: github\n    command: npx\n'
                     '    args: ["-y", "@modelcontextprotocol/server-github@2025.4.8"]\n    env:\n      GITHUB_TOKEN: "x"\n')
    res = check_tree(workspace)
    assert diags_for(res, path) == []


# -- AG001 -------------------------------------------------------------------------------------------
def test_ag001_missing_unterminated_and_invalid_frontmatter(workspace):
    missing = agh_agent(workspace, "a", raw="You review code.\n")
    unterminated = agh_agent(workspace, "b", raw="---\nname: b\nYou review code.\n")
    invalid = agh_agent(workspace, "c", raw="---\nname: [c\n---\nYou review.\n")
    dup = agh_agent(workspace, "d", raw="---\nname: d\nname: d\n---\nYou review.\n")
    res = check_tree(workspace)
    for path in (missing, unterminated, invalid, dup):
        [d] = codes_at(res, path, "AG001")
        assert d.severity == Severity.ERROR
    assert "unterminated" in codes_at(res, unterminated, "AG001")[0].message
    assert codes_at(res, dup, "AG001")[0].span.start_line == 2


def test_ag001_toml_frontmatter_is_accepted(workspace):
    path = agh_agent(workspace, "t", raw='---\nname = "t"\nprovider = "claude"\npermissions = "approve-all"\n---\nHi.\n')
    res = check_tree(workspace)
    assert diags_for(res, path) == []


def test_ag001_yaml_scalar_then_toml(workspace):
    # The YAML value is not a mapping (a plain scalar), so the block is parsed as TOML (SPEC §8).
    path = agh_agent(workspace, "t", raw='---\nname = "t"\n---\nHi.\n')
    res = check_tree(workspace)
    assert codes_at(res, path, "AG001") == []


# -- AG002 -------------------------------------------------------------------------------------------
def test_ag002_unknown_field_is_an_error_with_rename_fix(workspace):
    path = agh_agent(workspace, "r", GOOD + "permission: approve-reads\n")
    res = check_tree(workspace)
    [d] = codes_at(res, path, "AG002")
    assert d.severity == Severity.ERROR and "permissions" in d.message
    assert d.fix is not None and d.fix.edits[0].new_text == "permissions"
    assert (d.span.start_line, d.span.start_col) == (3, 0)


def test_ag002_known_fields_only_no_finding(workspace):
    path = agh_agent(workspace, "r", GOOD + "hooks: []\n")
    assert codes_at(check_tree(workspace), path, "AG002") == []


def test_ag002_draft_fields_follow_config_severity(workspace):
    """Issue 23: "Rejected as an unknown field" — `description` is an error by default; the
    `skills.disabled` tombstones AGH's skills overview applies stay a warning."""
    path = agh_agent(workspace, "r", GOOD + "description: Reviews.\nskills:\n  disabled: [x]\n")
    res = check_tree(workspace)
    found = {d.message.split("'")[1]: d.severity for d in codes_at(res, path, "AG002")}
    assert found == {"description": Severity.ERROR, "skills": Severity.WARNING}
    write(workspace / ".skill-ls.toml", '[agh]\ndraft_fields = "warning"\n')
    assert {d.severity for d in codes_at(check_tree(workspace), path, "AG002")} == {Severity.WARNING}
    write(workspace / ".skill-ls.toml", '[agh]\ndraft_fields = "ignore"\n')
    assert codes_at(check_tree(workspace), path, "AG002") == []


def test_ag002_dotted_draft_key_and_unknown_subkey(workspace):
    path = agh_agent(workspace, "r", GOOD + "skills.disabled: [x]\nmemory:\n  scope: user\n  colour: red\n")
    res = check_tree(workspace)
    messages = [d.message for d in codes_at(res, path, "AG002")]
    assert any("'skills.disabled'" in m for m in messages)
    assert any("memory.colour" in m for m in messages)


def test_ag002_claude_subagent_unknown_key_is_a_warning(workspace):
    path = write(workspace / ".claude" / "agents" / "rev.md",
                 "---\nname: rev\ndescription: Reviews code.\ncolour: red\n---\nYou review.\n", dedent=False)
    res = check_tree(workspace)
    [d] = codes_at(res, path, "AG002")
    assert d.severity == Severity.WARNING and "color" in d.message


def test_ag002_unknown_key_in_mcp_server_entry(workspace):
    path = agh_agent(workspace, "r", GOOD + "mcp_servers:\n  - name: gh\n    command: npx\n    url: http://x\n")
    [d] = codes_at(check_tree(workspace), path, "AG002")
    assert "'url'" in d.message and d.span.start_line == 6


# -- AG003 -------------------------------------------------------------------------------------------
def test_ag003_empty_prompt(workspace):
    path = agh_agent(workspace, "r", body="  \n\n")
    [d] = codes_at(check_tree(workspace), path, "AG003")
    assert "agent prompt is required" in d.message and d.span.start_line == 3


def test_ag003_prompt_present(workspace):
    path = agh_agent(workspace, "r", body="\nYou review.\n")
    assert codes_at(check_tree(workspace), path, "AG003") == []


# -- AG004 -------------------------------------------------------------------------------------------
def test_ag004_permissions_enum_with_fix(workspace):
    path = agh_agent(workspace, "r", GOOD + "permissions: approve-read\n")
    [d] = codes_at(check_tree(workspace), path, "AG004")
    assert "deny-all, approve-reads, approve-all" in d.message
    assert d.fix.edits[0].new_text == "approve-reads"


def test_ag004_tool_id_grammar(workspace):
    path = agh_agent(workspace, "r", GOOD + 'tools: ["agh__skill_view", "agh__skill_*", "mcp__github__*", '
                     '"github.search", "agh", "agh__*x", "Agh__x"]\ntoolsets: ["agh__tasks", "agh__*"]\n'
                     'deny_tools: ["*"]\n')
    found = codes_at(check_tree(workspace), path, "AG004")
    bad = sorted(d.message.split("'")[1] for d in found)
    assert bad == ["*", "Agh__x", "agh", "agh__*", "agh__*x", "github.search"]
    # Each finding points at its list item.
    [item] = [d for d in found if "github.search" in d.message]
    assert item.span.start_line == 3


def test_ag004_name_must_match_directory_with_fix(workspace):
    path = agh_agent(workspace, "reviewer", "name: review\nprovider: claude\n")
    [d] = codes_at(check_tree(workspace), path, "AG004")
    assert "directory 'reviewer'" in d.message and d.fix.edits[0].new_text == "reviewer"


def test_ag004_name_missing(workspace):
    path = agh_agent(workspace, "reviewer", "provider: claude\n")
    [d] = codes_at(check_tree(workspace), path, "AG004")
    assert "'name' is missing" in d.message


def test_ag004_mcp_server_needs_name_and_command(workspace):
    path = agh_agent(workspace, "r", GOOD + "mcp_servers:\n  - name: gh\n    args: [x]\n  - command: npx\n"
                     "  - name: env\n    command: x\n    env:\n      PORT: 8080\n")
    messages = sorted(d.message for d in codes_at(check_tree(workspace), path, "AG004"))
    assert len(messages) == 3
    assert any("gh needs a 'command'" in m for m in messages)
    assert any("needs a 'name'" in m for m in messages)
    assert any("'env' must map names to string values" in m for m in messages)


def test_ag004_command_quoting(workspace):
    path = agh_agent(workspace, "r", GOOD + "command: 'claude --flag \"unterminated'\n")
    [d] = codes_at(check_tree(workspace), path, "AG004")
    assert "shell-style quoting" in d.message


def test_ag004_provider_fallback_to_defaults(workspace, private_home):
    path = agh_agent(workspace, "r", "name: r\n")
    [d] = codes_at(check_tree(workspace), path, "AG004")
    assert d.severity == Severity.WARNING and "defaults.provider" in d.message
    write(private_home / ".agh" / "config.toml", '[defaults]\nprovider = "claude"\n')
    assert codes_at(check_tree(workspace), path, "AG004") == []


def test_ag004_claude_subagent_required_fields(workspace):
    bad = write(workspace / ".claude" / "agents" / "x.md", "---\nname: Code Reviewer\n---\nPrompt.\n", dedent=False)
    good = write(workspace / ".claude" / "agents" / "sub" / "y.md",
                 "---\nname: y\ndescription: Does y.\nmemory: project\nmaxTurns: 3\n---\nPrompt.\n", dedent=False)
    res = check_tree(workspace)
    messages = [d.message for d in codes_at(res, bad, "AG004")]
    assert any("lowercase" in m for m in messages) and any("'description' is required" in m for m in messages)
    assert codes_at(res, good, "AG004") == []


def test_ag004_sidecar_server_without_command(workspace):
    path = agh_agent(workspace, "r")
    sidecar = write(path.parent / "mcp.json", '{"mcpServers": {"gh": {"args": []}}}')
    res = check_tree(workspace)
    [d] = diags_for(res, sidecar, "AG004")
    assert "'gh' needs a 'command'" in d.message


# -- AG005 -------------------------------------------------------------------------------------------
def test_ag005_workspace_agents_list_names_missing_skill(workspace):
    skill(workspace / "workspace" / "agents" / "skills", "review-code")
    path = write(workspace / "workspace" / "agents" / "helper.md",
                 "---\nname: helper\nskills:\n  - review-code\n  - review-cod\n---\nYou help.\n", dedent=False)
    [d] = codes_at(check_tree(workspace), path, "AG005")
    assert "'review-cod'" in d.message and d.span.start_line == 4 and d.severity == Severity.WARNING


def test_ag005_all_listed_skills_exist(workspace):
    skill(workspace / "workspace" / "agents" / "skills", "review-code")
    path = write(workspace / "workspace" / "agents" / "helper" / "AGENT.md",
                 "---\nname: helper\nskills: [review-code]\n---\nYou help.\n", dedent=False)
    assert codes_at(check_tree(workspace), path, "AG005") == []


def test_ag005_tombstone_for_absent_or_blocked_skill(workspace):
    skill(workspace / ".agh" / "skills", "present")
    write(workspace / ".agh" / "skills" / "broken" / "SKILL.md", "---\nname: broken\n---\n")
    path = agh_agent(workspace, "r", GOOD + "skills:\n  disabled: [present, brokn, broken]\n")
    found = codes_at(check_tree(workspace), path, "AG005")
    assert sorted(d.message.split("'")[1] for d in found) == ["broken", "brokn"]
    assert any("blocked" in d.message for d in found)


def test_ag005_claude_subagent_skills_are_references(workspace):
    skill(workspace / ".claude" / "skills", "pdf")
    path = write(workspace / ".claude" / "agents" / "rev.md",
                 "---\nname: rev\ndescription: Reviews.\nskills: [pdf, docx]\n---\nYou review.\n", dedent=False)
    [d] = codes_at(check_tree(workspace), path, "AG005")
    assert "'docx'" in d.message
