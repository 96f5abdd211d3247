"""Claude Code subagents (SA001-SA006), plugin agents, plugin manifests and commands (PL001-PL003)."""
from __future__ import annotations

import json

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def pos(d):
    return d.span.start_line, d.span.start_col, d.span.end_col


def agent(workspace, name, extra="", body="You review code.\n", where=(".claude", "agents")):
    return write(workspace.joinpath(*where) / f"{name}.md",
                 f"---\nname: {name}\ndescription: Reviews code.\n{extra}---\n{body}")


def test_sa001_model(workspace):
    a = agent(workspace, "r", "model: GPT-4.1\n")
    [d] = diags_for(check_tree(workspace), a, "SA001")
    assert pos(d) == (3, 7, 14) and d.runtime == "claude-code"
    for ok in ("fable", "inherit", "haiku", "claude-opus-4-8"):
        b = agent(workspace, "ok", f"model: {ok}\n")
        assert not diags_for(check_tree(workspace), b, "SA001"), ok


def test_sa002_settings(workspace):
    a = agent(workspace, "r", "permissionMode: acceptedits\ncolor: teal\nisolation: container\nmaxTurns: 0\n")
    ds = diags_for(check_tree(workspace), a, "SA002")
    assert [pos(d) for d in ds] == [(3, 16, 27), (4, 7, 11), (5, 11, 20), (6, 10, 11)]
    assert "did you mean 'acceptEdits'" in ds[0].message
    ok = agent(workspace, "ok", "permissionMode: plan\ncolor: cyan\nisolation: worktree\nmaxTurns: 5\n")
    assert not diags_for(check_tree(workspace), ok, "SA002")


def test_sa003_sa004_tools(workspace):
    a = agent(workspace, "r", "tools: Read, bash, Bash(git *), Agent(reviewer)\ndisallowedTools: Bash, Read\n")
    res = check_tree(workspace)
    [d3] = diags_for(res, a, "SA003")
    assert pos(d3) == (3, 13, 17) and "did you mean 'Bash'" in d3.message
    ds = diags_for(res, a, "SA004")
    assert [(pos(d), d.message.split(";")[0]) for d in ds] == [
        ((3, 7, 11), "'Read' is in both tools and disallowedTools"),
        ((3, 19, 30), "disallowedTools removes 'Bash' entirely, so 'Bash(git *)' has no effect"),
    ]
    assert ds[0].related[0].span.start_line == 4


def test_sa005_hooks(workspace):
    a = agent(workspace, "r", "hooks:\n  postToolUse:\n    - hooks: [{type: command, command: x}]\n")
    [d] = diags_for(check_tree(workspace), a, "SA005")
    assert d.span.start_line == 4 and "did you mean 'PostToolUse'" in d.message


def test_sa006_project_beats_user(workspace, private_home):
    user = agent(private_home, "r", where=(".claude", "agents"))
    project = agent(workspace, "r")
    res = check_tree(workspace, paths=[workspace, private_home / ".claude"])
    [d] = diags_for(res, user, "SA006")
    assert "shadowed by the project subagent" in d.message and d.related[0].path == str(project)
    assert not diags_for(res, project, "SA006")


def test_plugin_agents_are_checked_and_namespaced(workspace):
    root = workspace / "plugins" / "review-tools"
    a = agent(root, "r", "model: gpt-4\ntools: Read, Grepp\n", where=("agents",))
    res = check_tree(workspace)
    assert [d.code for d in diags_for(res, a)] == ["SA001", "SA003"]
    # With a manifest, the namespace is the manifest's name; the same agent elsewhere is not a plugin agent.
    other = agent(workspace / "notes", "r", "model: gpt-4\n", where=("agents",))
    assert not diags_for(check_tree(workspace), other)


def test_pl001_pl002_manifest(workspace):
    root = workspace / "my-plugin"
    (root / "agents").mkdir(parents=True)
    m = write(root / ".claude-plugin" / "plugin.json", json.dumps(
        {"name": "My Plugin", "version": "1", "agents": "./agents/", "skills": "custom/skills",
         "hooks": "./hooks/hooks.json"}, indent=2) + "\n")
    res = check_tree(workspace)
    ds = diags_for(res, m, "PL001")
    # (as `claude plugin validate` reads it: a name with spaces is refused; the finding is on the value)
    assert [(pos(d), d.severity) for d in ds] == [((1, 10, 21), Severity.ERROR), ((2, 13, 16), Severity.WARNING)]
    ds = diags_for(res, m, "PL002")
    assert [(pos(d), d.message.split("'")[3]) for d in ds] == [
        ((3, 12, 23), "./agents/"), ((4, 12, 27), "custom/skills"), ((5, 11, 31), "./hooks/hooks.json")]
    assert "must name a .md file" in ds[0].message and "start with './'" in ds[1].message
    assert all(d.severity == Severity.ERROR for d in ds)


def test_pl001_unparseable(workspace):
    m = write(workspace / "p" / ".claude-plugin" / "plugin.json", "{\n  \"name\": \n}\n")
    [d] = diags_for(check_tree(workspace), m, "PL001")
    assert "not valid JSON" in d.message and d.span.start_line == 2


def test_pl003_legacy_commands(workspace):
    c = write(workspace / ".claude" / "commands" / "review.md", "Review $ARGUMENTS.\n")
    [d] = diags_for(check_tree(workspace), c, "PL003")
    assert d.severity == Severity.INFORMATION and ".claude/skills/review/SKILL.md" in d.message
    p = write(workspace / "plugins" / "t" / "commands" / "fix.md", "---\ndescription: Fix.\n---\nFix.\n")
    [d] = diags_for(check_tree(workspace), p, "PL003")
    assert "skills/fix/SKILL.md" in d.message


def test_plugin_skill_name_is_namespaced_in_the_manifest(workspace):
    root = workspace / "tools"
    write(root / ".claude-plugin" / "plugin.json", '{"name": "tools"}\n')
    f = skill(root / "skills", "lint", extra="agent: Explore\n")
    [d] = diags_for(check_tree(workspace), f, "CC002")
    assert d.runtime == "claude-code"


def test_clean_subagent_and_plugin_have_no_findings(workspace):
    a = agent(workspace, "r", "model: sonnet\npermissionMode: plan\ntools: Read, Grep, Bash(git diff *)\n"
              "disallowedTools: WebFetch\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n"
              "          command: ./notify.sh\n")
    root = workspace / "my-plugin"
    write(root / "agents" / "helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n")
    m = write(root / ".claude-plugin" / "plugin.json",  # (an agents path names .md files: `claude plugin validate`)
              '{"name": "my-plugin", "version": "1.2.0", "agents": ["./agents/helper.md"]}\n')
    res = check_tree(workspace)
    assert diags_for(res, a) == [] and diags_for(res, m) == []


def test_a_plugin_file_checked_on_its_own_is_recognised(workspace):
    """The editor checks one file at a time, without a scan of the tree first: same findings as check."""
    from skill_ls.analysis.check import Checker, CheckOptions, build_index, prepare_config

    a = agent(workspace / "plugins" / "tools", "r", "model: gpt-4\n", where=("agents",))
    c = write(workspace / ".claude" / "commands" / "go.md", "Go.\n")
    index = build_index(str(workspace), prepare_config(str(workspace), CheckOptions(workspace=str(workspace))))
    alone = Checker(index).check_files([str(a), str(c)])
    assert [d.code for d in alone] == ["PL003", "SA001"]
    assert [d.code for d in check_tree(workspace).diagnostics if d.path in (str(a), str(c))] == ["PL003", "SA001"]


def test_commands_get_claude_code_value_checks(workspace):
    c = write(workspace / ".claude" / "commands" / "go.md",
              "---\ndescription: Go.\nallowed-tools: Bash(git *), Raed\nmodel: gpt-4\n---\nGo $ARGUMENTS.\n")
    res = check_tree(workspace)
    assert [(d.code, d.span.start_line) for d in diags_for(res, c)] == [("PL003", 0), ("CC003", 2), ("CC001", 3)]


def test_plugin_skills_never_collide_with_project_skills(workspace):
    root = workspace / "tools"
    write(root / ".claude-plugin" / "plugin.json", '{"name": "tools"}\n')
    plugin_skill = skill(root / "skills", "lint")
    project_skill = skill(workspace / ".claude" / "skills", "lint")
    res = check_tree(workspace, runtimes=["claude-code"])
    assert not [d for d in res.diagnostics if d.code.startswith("SH") and d.path in (str(plugin_skill),
                                                                                    str(project_skill))]
    from skill_ls.analysis.portability import matrix

    [row] = [r for r in matrix(res.index, [str(root)])]
    assert row.verdicts[[v.column for v in row.verdicts].index("claude-code")].status == "loads"


def test_bypass_permissions_and_components_inside_claude_plugin(workspace):
    a = agent(workspace, "r", "permissionMode: bypassPermissions\n")
    [d] = diags_for(check_tree(workspace), a, "SA002")
    assert pos(d) == (3, 16, 33) and "without asking" in d.message
    root = workspace / "p"
    m = write(root / ".claude-plugin" / "plugin.json", '{"name": "p"}\n')
    (root / ".claude-plugin" / "skills").mkdir()
    [d] = diags_for(check_tree(workspace), m, "PL002")
    assert "'.claude-plugin/skills/' is never loaded" in d.message


def test_mcp_tool_hook_needs_server_and_tool(workspace):
    a = agent(workspace, "r", "hooks:\n  PostToolUse:\n    - hooks:\n        - type: mcp_tool\n          server: s\n")
    [d] = diags_for(check_tree(workspace), a, "SA005")
    assert "needs 'tool'" in d.message and d.span.start_line == 6


def test_sa004_scoped_denial_removes_the_whole_tool(workspace):
    a = agent(workspace, "r", "tools: Read, Bash\ndisallowedTools: Bash(git push *)\n")
    [d] = diags_for(check_tree(workspace), a, "SA004")
    assert "takes all of Bash away" in d.message and d.severity == Severity.WARNING
