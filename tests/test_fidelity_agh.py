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


# -- the bundled `agh` skill ------------------------------------------------------------------------
def _agh_catalog(workspace):
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config

    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace), runtimes=["agh"]))
    return catalog_object(build_index(str(workspace), config), "agh")


def test_bundled_agh_skill_opens_the_catalog_as_in_the_source_example(workspace):
    # "<available-skills>\n  <skill name="agh">Operate and extend AGH, ...</skill>" and the guidance
    # naming it: `{ "name": "agh" }` (sources/agh-skills-overview.txt, Prompt Injection).
    (workspace / ".agh" / "skills").mkdir(parents=True)
    obj = _agh_catalog(workspace)
    assert obj["text"].startswith('<available-skills>\n  <skill name="agh">Operate and extend AGH, the local-first '
                                  "agent operating system...</skill>\n</available-skills>\n")
    assert 'Use `agh__skill_view` with `{ "name": "agh" }` to load full instructions' in obj["text"]
    [entry] = obj["skills"]
    assert entry["tier"] == "bundled" and entry["builtin"] is True and "not documented" in entry["description_source"]


def test_bundled_description_is_configurable_and_the_skill_can_be_disabled(workspace):
    (workspace / ".agh" / "skills").mkdir(parents=True)
    write(workspace / ".skill-ls.toml", '[agh]\nbundled_skill_description = "Operate AGH."\n')
    obj = _agh_catalog(workspace)
    assert '<skill name="agh">Operate AGH.</skill>' in obj["text"]
    assert obj["skills"][0]["description_source"] == "[agh] configuration"
    write(workspace / ".skill-ls.toml", '[agh]\ndisabled = ["agh"]\n')
    assert _agh_catalog(workspace)["text"] == ""


def test_a_workspace_skill_named_agh_overrides_the_bundled_one(workspace):
    f = skill(workspace / ".agh" / "skills", "agh", description="Our own AGH guide.")
    res = check_tree(workspace, runtimes=["agh"])
    [d] = [d for d in res.diagnostics if d.code == "SH002" and d.path == str(f)]
    assert "bundled agh" in d.message
    obj = _agh_catalog(workspace)
    assert '<skill name="agh">Our own AGH guide.</skill>' in obj["text"] and "Operate and extend" not in obj["text"]


def test_skills_enabled_false_means_no_catalog_and_says_why(workspace, private_home, capsys):
    from skill_ls.cli import main

    skill(workspace / ".agh" / "skills", "review")
    write(private_home / ".agh" / "config.toml", "[skills]\nenabled = false\n")
    assert _agh_catalog(workspace)["text"] == ""
    assert main(["catalog", "--workspace", str(workspace), "--runtime", "agh"]) == 0
    out = capsys.readouterr()
    assert out.out == "" and "skills are disabled" in out.err and "skills.enabled = false" in out.err
    assert main(["where", "review", "--workspace", str(workspace), "--runtime", "agh", "--format", "json"]) == 0
    import json
    assert "skills.enabled = false" in json.loads(capsys.readouterr().out)["skills_disabled"]
    write(private_home / ".agh" / "config.toml", "[skills]\nenabled = true\n")
    assert '<skill name="review">' in _agh_catalog(workspace)["text"]


def test_provenance_in_where_and_list_names_the_winning_tier_the_losers_and_the_marketplace(workspace, private_home,
                                                                                           capsys):
    # "provenance.precedence_tier ... Marketplace metadata remains in slug, registry, version, and
    # installed_at ... records the losing declarations in provenance.shadowed_by"
    import hashlib
    import json

    from skill_ls.cli import main

    market = skill(private_home / ".agh" / "skills", "pg-tools")
    digest = hashlib.sha256(market.read_bytes()).hexdigest()
    write(market.parent / ".agh-meta.json", json.dumps({"slug": "@author/pg-tools", "registry": "clawhub",
                                                        "version": "1.2.0", "installed_at": "2026-11-01",
                                                        "hash": f"sha256:{digest}"}))
    bundled_root = workspace / "bundle"
    skill(bundled_root / "skills", "pg-tools")
    write(workspace / ".skill-ls.toml", f"[agh]\nbundled_roots = ['{bundled_root}']\n")
    assert main(["where", "pg-tools", "--workspace", str(workspace), "--runtime", "agh", "--format", "json"]) == 0
    prov = json.loads(capsys.readouterr().out)["provenance"]
    assert prov["precedence_tier"] == "marketplace" and prov["slug"] == "@author/pg-tools"
    assert prov["registry"] == "clawhub" and prov["version"] == "1.2.0" and prov["installed_at"] == "2026-11-01"
    assert prov["shadowed_by"] == [str(bundled_root / "skills" / "pg-tools" / "SKILL.md")]
    assert main(["list", "--workspace", str(workspace), "--runtime", "agh", "--format", "json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["skills"]}
    assert rows["pg-tools"]["provenance"]["slug"] == "@author/pg-tools"


def test_skills_of_a_shadowed_agent_definition_are_said_to_be_unused(workspace, private_home):
    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\nprovider: p\n---\nWorkspace.\n")
    write(private_home / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\nprovider: p\n---\nHome.\n")
    lost = skill(private_home / ".agh" / "agents" / "rev" / "skills", "only-here")
    res = check_tree(workspace, runtimes=["agh"], paths=[workspace, lost.parent])
    [d] = [d for d in res.diagnostics if d.code == "SH004" and d.path == str(lost)]
    assert "agent definition is shadowed by .agh/agents/rev/AGENT.md" in d.message
    from skill_ls.analysis.catalog import catalog_object
    assert "only-here" not in catalog_object(res.index, "agh", "rev")["text"]



def test_any_non_empty_name_is_escaped_in_the_catalog_not_dropped(workspace):
    """AGH accepts any non-empty name and the catalog escapes the attribute: `*`, `"` and `<` are
    escaped, never a reason to leave the skill out."""
    skill(workspace / ".agh" / "skills", "star", name="'a*b'")
    skill(workspace / ".agh" / "skills", "quote", name="'say \"hi\"'")
    skill(workspace / ".agh" / "skills", "angle", name="'x<y>'")
    obj = _agh_catalog(workspace)
    assert obj["left_out"] == []
    for shown in ('name="a*b"', 'name="say &quot;hi&quot;"', 'name="x&lt;y&gt;"'):
        assert shown in obj["text"]
    assert not [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "CT001"]


def test_agh_sends_mcp_env_values_literally_so_placeholders_are_reported(workspace):
    """"env values are sent as literal strings; AGH does not expand shell placeholders inside MCP
    server definitions": `${GITHUB_TOKEN}` is MS007, and MS003 does not advise a placeholder."""
    agent = write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
                  "---\nname: rev\nprovider: claude\nmcp_servers:\n  - name: github\n    command: npx\n"
                  "    env:\n      GITHUB_TOKEN: \"${GITHUB_TOKEN}\"\n"
                  "      OTHER: ghp_abcdefghijklmnopqrstuvwxyz0123456789\n---\nReview.\n", dedent=False)
    sidecar = write(agent.parent / "mcp.json", '{"mcpServers": {"gh": {"command": "x", "env": {"T": "$TOKEN"}}}}')
    res = check_tree(workspace, runtimes=["agh"])
    ms007 = [d for d in res.diagnostics if d.code == "MS007"]
    assert {d.path for d in ms007} == {str(agent), str(sidecar)}
    assert all("literal string" in d.message and "$AGH_HOME/config.toml" in d.message for d in ms007)
    [ms003] = [d for d in res.diagnostics if d.code == "MS003"]
    assert "${VAR}\")" not in ms003.message.split("instead")[0] and "$AGH_HOME/config.toml" in ms003.message
    # Claude Code expands "${VAR}" in .mcp.json: no MS007 there
    claude = write(workspace / ".claude" / "agents" / "rev.md",
                   "---\nname: rev\ndescription: Reviews.\nmcpServers:\n  gh:\n    command: x\n    env:\n"
                   "      T: \"${TOKEN}\"\n---\nReview.\n", dedent=False)
    assert not [d for d in check_tree(workspace).diagnostics if d.code == "MS007" and d.path == str(claude)]


def test_description_in_agent_md_is_rejected_so_the_agent_has_no_catalog(workspace, capsys):
    """"description | string | Rejected as an unknown field." ... "must not be used in a live AGENT.md"."""
    from skill_ls.cli import main

    agent = write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
                  "---\nname: rev\nprovider: claude\ndescription: Reviews.\n---\nReview.\n", dedent=False)
    skill(workspace / ".agh" / "skills", "alpha")
    [d] = [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "AG002"]
    assert d.path == str(agent) and d.severity == 1 and "rejects it as an unknown field" in d.message
    assert main(["catalog", "--runtime", "agh", "--agent", "rev", "--workspace", str(workspace)]) != 0
    assert "fails closed" in capsys.readouterr().err


def test_an_agent_md_outside_agh_directories_is_not_an_agh_definition(workspace):
    """AGH scans `<workspace>/.agh/agents/<name>/AGENT.md`, additional roots' `.agh/agents/<name>/` and
    its home: a repository-root or `docs/` AGENT.md (common in repositories unrelated to AGH) is not
    an agent definition, so it gets no AG finding; one in an `.agh/agents/<name>/` directory does."""
    top = write(workspace / "AGENT.md", "# How to work in this repository\n")
    docs = write(workspace / "docs" / "AGENT.md", "Notes for coding agents.\n")
    res = check_tree(workspace)
    assert not [d for d in res.diagnostics if d.path in (str(top), str(docs))]
    other = workspace / "vendor"
    real = write(other / ".agh" / "agents" / "rev" / "AGENT.md", "no frontmatter\n")
    assert [d.code for d in check_tree(workspace, paths=[other]).diagnostics if d.path == str(real)] == ["AG001"]


def test_agent_command_with_shell_syntax_is_reported_because_agh_uses_no_shell(workspace):
    """"Parsed with shell-style quoting, but launched without a shell." """
    agent = write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
                  "---\nname: rev\nprovider: claude\ncommand: claude --model $MODEL && echo done | tee log\n---\n"
                  "Review.\n", dedent=False)
    [d] = [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "AG004" and d.path == str(agent)]
    assert d.severity == 2 and "without a shell" in d.message
    assert all(w in d.message for w in ("'$MODEL'", "'&&'", "'|'"))
    write(agent, "---\nname: rev\nprovider: claude\ncommand: claude --model 'x y'\n---\nReview.\n", dedent=False)
    assert not [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "AG004"]


def test_uppercase_tool_ids_warn_without_failing_the_agent_closed(workspace):
    """Reading: "Must be exact canonical ToolIDs" does not define canonical beyond the lowercase
    examples; an MCP server's name is the operator's own key."""
    from skill_ls.analysis.effective import resolve_effective_set
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config

    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
          "---\nname: rev\nprovider: claude\ntools: [\"mcp__GitHub__*\"]\n---\nReview.\n", dedent=False)
    skill(workspace / ".agh" / "skills", "alpha")
    [d] = [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "AG004"]
    assert d.severity == 2 and "uppercase" in d.message
    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace), runtimes=["agh"]))
    assert "alpha" in resolve_effective_set(build_index(str(workspace), config), "agh", "rev").names()


def test_a_capabilities_directory_is_said_to_be_unread(workspace):
    """"capabilities.toml (or a capabilities/ directory) declares the unified capability catalog": the
    directory form is not read by skill-ls, and AG007 says so rather than passing over it."""
    agent = write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
                  "---\nname: rev\nprovider: claude\n---\nReview.\n", dedent=False)
    assert not [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "AG007"]
    write(agent.parent / "capabilities" / "search.toml", "name = 'x'\n")
    [d] = [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "AG007"]
    assert d.path == str(agent) and d.severity == 3 and "capabilities/" in d.message


def test_the_same_skill_in_two_additional_roots_resolves_in_the_registered_order(workspace, tmp_path):
    """Reading: agent definitions resolve "Additional roots, in the registered order"; skills in
    additional roots follow the same order (no ambiguity, no SH003): the first registered root wins."""
    first, second = tmp_path / "zz-first", tmp_path / "aa-second"
    write(workspace / ".skill-ls.toml", f"[agh]\nadditional_roots = ['{first}', '{second}']\n")
    a = skill(first / ".agh" / "skills", "dup")
    b = skill(second / ".agh" / "skills", "dup")
    res = check_tree(workspace, runtimes=["agh"], paths=[workspace, first, second])
    assert not [d for d in res.diagnostics if d.code == "SH003"]
    assert [d.path for d in res.diagnostics if d.code == "SH001"] == [str(b)]
    assert [d.path for d in res.diagnostics if d.code == "SH002"] == [str(a)]
