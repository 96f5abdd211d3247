"""AGH as its own documentation describes it (sources/agh-skills-overview.txt,
sources/agh-agent-definitions.txt)."""
from __future__ import annotations

from tests.conftest import check_tree, skill, write


def test_agh_states_no_name_pattern_so_sk008_is_not_raised_under_agh(workspace):
    f = skill(workspace / ".agh" / "skills", "My_Skill", name="My_Skill")
    res = check_tree(workspace, runtimes=["agh"])
    assert not [d for d in res.diagnostics if d.code == "SK008" and d.path == str(f)]
    # the Agent Skills standard still names the problem where its rules apply
    g = skill(workspace / "loose", "My_Skill", name="My_Skill")
    assert [d for d in check_tree(workspace, paths=[g.parent]).diagnostics if d.code == "SK008"]


def test_malformed_mcp_json_next_to_agent_md_names_the_agent(workspace):
    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\nprovider: p\n---\nReview.\n")
    write(workspace / ".agh" / "agents" / "rev" / "mcp.json", "{not json")
    res = check_tree(workspace, runtimes=["agh"])
    [d] = [d for d in res.diagnostics if d.code == "MC001"]
    assert "agent" in d.message and "skill" not in d.message


def test_ag006_shadowed_agent_definition_first_found_wins(workspace, private_home):
    ws_agent = write(workspace / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\nprovider: p\n---\nWorkspace.\n")
    home_agent = write(private_home / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\nprovider: p\n---\nHome.\n")
    res = check_tree(workspace, runtimes=["agh"], paths=[workspace, home_agent])
    [d] = [d for d in res.diagnostics if d.code == "AG006"]
    assert d.path == str(home_agent) and "shadowed by the workspace definition" in d.message
    assert d.related[0].path == str(ws_agent) and d.span.start_line == 1


def test_capabilities_toml_next_to_agent_md_is_parsed(workspace):
    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\nprovider: p\n---\nReview.\n")
    caps = write(workspace / ".agh" / "agents" / "rev" / "capabilities.toml", "[catalog]\nname = \"x\"\nbroken = \n")
    res = check_tree(workspace, runtimes=["agh"])
    [d] = [d for d in res.diagnostics if d.code == "MC001"]
    assert d.path == str(caps) and "invalid TOML" in d.message and d.span.start_line == 2
    write(caps, "[catalog]\nname = \"x\"\n")
    assert not [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "MC001"]


def test_sidecar_with_both_server_keys_says_which_servers_are_ignored(workspace):
    skill_md = write(workspace / ".agh" / "skills" / "s" / "SKILL.md", "---\nname: s\ndescription: d\n---\nBody.\n")
    sidecar = write(skill_md.parent / "mcp.json",
                    '{\n  "mcpServers": {"a": {"command": "x"}},\n  "mcp_servers": {"b": {"command": "y"}}\n}\n')
    res = check_tree(workspace, runtimes=["agh"])
    [d] = [d for d in res.diagnostics if d.code == "MC001" and d.path == str(sidecar)]
    assert d.severity.label == "warning" and "ignored: b" in d.message and d.span.start_line == 2
