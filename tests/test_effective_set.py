"""The effective set per runtime, workspace and agent (SPEC §1, §3, §8)."""
from __future__ import annotations

import hashlib

import pytest
from conftest import skill, write

from skill_ls.analysis.check import CheckOptions, build_index, prepare_config
from skill_ls.analysis.effective import EffectiveSetError, effective_mcp_servers, resolve_effective_set


def index_for(ws, runtimes=None):
    config = prepare_config(str(ws), CheckOptions(workspace=str(ws), runtimes=runtimes or []))
    return build_index(str(ws), config)


def agh_agent(root, name, extra="", body="You review code.\n"):
    return write(root / name / "AGENT.md", f"---\nname: {name}\nprovider: claude\n{extra}---\n{body}", dedent=False)


def from_files(eff):
    """The set without compiled-in skills (AGH's bundled `agh` is always there: tests/test_fidelity_agh.py)."""
    return [s for s in eff.skills if not s.decl.builtin]


def names(eff):
    return [s.name for s in from_files(eff)]


# -- AGH ---------------------------------------------------------------------------------------------
def test_agh_same_name_in_three_tiers(workspace, private_home):
    skill(private_home / ".agh" / "skills", "review", description="user copy")
    skill(workspace / ".agh" / "skills", "review", description="workspace copy")
    agent_dir = workspace / ".agh" / "agents"
    agh_agent(agent_dir, "reviewer")
    skill(agent_dir / "reviewer" / "skills", "review", description="agent copy")
    index = index_for(workspace)
    [base] = from_files(resolve_effective_set(index, "agh"))
    assert base.tier == "workspace"
    [local] = from_files(resolve_effective_set(index, "agh", "reviewer"))
    assert local.tier == "agent_local" and local.path.endswith("reviewer/skills/review/SKILL.md")


def test_agh_tombstones_and_operator_disabled(workspace):
    for n in ("alpha", "beta", "gamma"):
        skill(workspace / ".agh" / "skills", n)
    write(workspace / ".skill-ls.toml", '[agh]\ndisabled = ["gamma"]\n')
    agh_agent(workspace / ".agh" / "agents", "a", "skills:\n  disabled: [beta]\n")
    agh_agent(workspace / ".agh" / "agents", "b", "skills.disabled: [alpha]\n")
    index = index_for(workspace)
    base = resolve_effective_set(index, "agh")
    assert names(base) == ["alpha", "beta", "gamma"] and [s.name for s in base.enabled] == ["agh", "alpha", "beta"]
    a = resolve_effective_set(index, "agh", "a")
    assert names(a) == ["alpha", "gamma"] and [s.name for s in a.tombstoned] == ["beta"]
    assert names(resolve_effective_set(index, "agh", "b")) == ["beta", "gamma"]


def test_agh_blocked_skill_excluded_and_lower_copy_wins(workspace, private_home):
    skill(private_home / ".agh" / "skills", "review", description="user copy")
    write(workspace / ".agh" / "skills" / "review" / "SKILL.md", "---\nname: review\n---\n")  # no description
    [s] = from_files(resolve_effective_set(index_for(workspace), "agh"))
    assert s.tier == "user"


def test_agh_marketplace_copy_with_an_unverifiable_hash_still_loads(workspace, private_home):
    """Issue 23 reading: what AGH's hash covers is not documented, so a mismatch does not block."""
    path = skill(private_home / ".agh" / "skills", "market")
    write(path.parent / ".agh-meta.json", '{"slug": "m", "registry": "hub", "version": "1", "installed_at": "x", '
          f'"hash": "sha256:{"0" * 64}"}}')
    [s] = from_files(resolve_effective_set(index_for(workspace), "agh"))
    assert s.tier == "marketplace"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    write(path.parent / ".agh-meta.json", '{"slug": "m", "registry": "hub", "version": "1", "installed_at": "x", '
          f'"hash": "sha256:{digest}"}}')
    [s] = from_files(resolve_effective_set(index_for(workspace), "agh"))
    assert s.tier == "marketplace"


def test_agh_agent_fails_closed_on_agent_md_error(workspace):
    skill(workspace / ".agh" / "skills", "alpha")
    agh_agent(workspace / ".agh" / "agents", "bad", "permissions: everything\n")
    with pytest.raises(EffectiveSetError) as exc:
        resolve_effective_set(index_for(workspace), "agh", "bad")
    message = str(exc.value)
    assert "fails closed" in message and "AG004" in message and "\n" not in message


def test_agh_agent_fails_closed_on_blocked_agent_local_skill(workspace):
    agh_agent(workspace / ".agh" / "agents", "a")
    write(workspace / ".agh" / "agents" / "a" / "skills" / "x" / "SKILL.md", "no frontmatter\n")
    with pytest.raises(EffectiveSetError, match="agent-local skill 'x' is blocked"):
        resolve_effective_set(index_for(workspace), "agh", "a")


def test_agh_lowered_draft_fields_tombstones_and_provider_warning_do_not_fail_closed(workspace):
    write(workspace / ".skill-ls.toml", '[agh]\ndraft_fields = "warning"\n')
    write(workspace / ".agh" / "agents" / "a" / "AGENT.md",
          "---\nname: a\ndescription: x\nskills:\n  disabled: [beta]\n---\nPrompt.\n")
    skill(workspace / ".agh" / "skills", "alpha")
    skill(workspace / ".agh" / "skills", "beta")
    assert names(resolve_effective_set(index_for(workspace), "agh", "a")) == ["alpha"]


def test_agh_description_in_agent_md_fails_the_agent_closed(workspace):
    """Issue 23: "description | string | Rejected as an unknown field." — AGH refuses the agent."""
    write(workspace / ".agh" / "agents" / "a" / "AGENT.md", "---\nname: a\ndescription: x\n---\nPrompt.\n")
    skill(workspace / ".agh" / "skills", "alpha")
    with pytest.raises(EffectiveSetError, match="'description' is an RFC 001 draft field"):
        resolve_effective_set(index_for(workspace), "agh", "a")


def test_agh_agent_first_found_wins(workspace, private_home, tmp_path):
    extra = tmp_path / "extra"
    write(workspace / ".skill-ls.toml", f"[agh]\nadditional_roots = ['{extra}']\n")
    agh_agent(private_home / ".agh" / "agents", "rev")
    agh_agent(extra / ".agh" / "agents", "rev")
    skill(extra / ".agh" / "agents" / "rev" / "skills", "from-extra")
    index = index_for(workspace)
    assert names(resolve_effective_set(index, "agh", "rev")) == ["from-extra"]
    agh_agent(workspace / ".agh" / "agents", "rev")
    index = index_for(workspace)
    eff = resolve_effective_set(index, "agh", "rev")
    assert eff.agent_decl.tier == "workspace" and names(eff) == []


def test_missing_agent_and_agentless_runtime(workspace):
    skill(workspace / ".agents" / "skills", "a")
    agh_agent(workspace / ".agh" / "agents", "rev")
    index = index_for(workspace)
    with pytest.raises(EffectiveSetError, match="no AGH agent named 'nope'"):
        resolve_effective_set(index, "agh", "nope")
    with pytest.raises(EffectiveSetError, match="has no agent definitions"):
        resolve_effective_set(index, "amp", "rev")
    with pytest.raises(EffectiveSetError, match="unknown runtime"):
        resolve_effective_set(index, "vim")


# -- other runtimes ----------------------------------------------------------------------------------
def test_amp_first_wins_in_discovery_order_builtins_not_in_set(workspace, private_home):
    skill(workspace / ".agents" / "skills", "zeta")
    skill(workspace / ".agents" / "skills", "alpha")
    skill(private_home / ".config" / "amp" / "skills", "beta")
    skill(workspace / ".claude" / "skills", "alpha", description="loses")
    skill(workspace / ".claude" / "skills", "code-review")
    eff = resolve_effective_set(index_for(workspace, ["amp"]), "amp")
    assert names(eff) == ["alpha", "zeta", "beta", "code-review"]
    assert eff.skills[0].tier == "workspace_agents" and eff.skills[3].tier == "workspace_claude"


def test_claude_code_enterprise_beats_personal_beats_project(workspace, private_home, tmp_path):
    enterprise = tmp_path / "etc" / "skills"
    write(workspace / ".skill-ls.toml", f"[claude-code]\nenterprise_roots = ['{enterprise}']\n")
    skill(workspace / ".claude" / "skills", "a")
    skill(workspace / ".claude" / "skills", "b")
    skill(workspace / ".claude" / "skills", "c")
    skill(private_home / ".claude" / "skills", "b")
    skill(private_home / ".claude" / "skills", "c")
    skill(enterprise, "c")
    eff = resolve_effective_set(index_for(workspace, ["claude-code"]), "claude-code")
    assert [(s.name, s.tier) for s in eff.skills] == [("a", "project"), ("b", "personal"), ("c", "enterprise")]


def test_claude_subagent_skills_list_narrows_the_set(workspace):
    skill(workspace / ".claude" / "skills", "pdf")
    skill(workspace / ".claude" / "skills", "docx")
    write(workspace / ".claude" / "agents" / "rev.md", "---\nname: rev\ndescription: R.\nskills: [pdf, xlsx]\n---\nP.\n")
    index = index_for(workspace)
    eff = resolve_effective_set(index, "claude-code", "rev")
    assert names(eff) == ["pdf"] and [m.ref.name for m in eff.missing] == ["xlsx"]
    assert names(resolve_effective_set(index, "claude-code")) == ["docx", "pdf"]


def test_codex_loads_both_copies_and_notes_ambiguity(workspace, private_home):
    skill(workspace / ".agents" / "skills", "dup")
    skill(private_home / ".agents" / "skills", "dup")
    eff = resolve_effective_set(index_for(workspace, ["codex"]), "codex")
    assert names(eff) == ["dup", "dup"]
    assert len(eff.notes) == 1 and "loads every copy" in eff.notes[0]


def test_workspace_agents_follow_the_agents_list(workspace):
    root = workspace / "workspace" / "agents" / "skills"
    for n in ("a", "b", "c"):
        skill(root, n)
    write(workspace / "workspace" / "agents" / "helper.md", "---\nname: helper\nskills: [c, missing, a]\n---\nP.\n")
    index = index_for(workspace)
    eff = resolve_effective_set(index, "workspace-agents", "helper")
    assert names(eff) == ["c", "a"] and [m.ref.name for m in eff.missing] == ["missing"]
    assert names(resolve_effective_set(index, "workspace-agents")) == ["a", "b", "c"]


def test_workspace_agents_agent_matched_by_file_stem_without_name(workspace):
    skill(workspace / "workspace" / "agents" / "skills", "a")
    write(workspace / "workspace" / "agents" / "stemmy.md", "---\nskills: [a]\n---\nP.\n")
    assert names(resolve_effective_set(index_for(workspace), "workspace-agents", "stemmy")) == ["a"]


# -- MCP servers -------------------------------------------------------------------------------------
def test_agh_mcp_merge_order_sidecar_and_marketplace_consent(workspace, private_home):
    write(private_home / ".agh" / "config.toml", """\
        [mcp_servers.shared]
        command = "from-config"

        [providers.claude.mcp_servers.shared]
        command = "from-provider"

        [providers.claude.mcp_servers.prov]
        command = "p"
        """)
    agent = agh_agent(workspace / ".agh" / "agents", "rev",
                      "mcp_servers:\n  - name: gh\n    command: inline\n  - name: keep\n    command: k\n")
    write(agent.parent / "mcp.json", '{"mcp_servers": {"gh": {"command": "sidecar", "env": {"T": "$X"}}}}')
    skill(workspace / ".agh" / "skills", "db", extra="metadata:\n  agh:\n    mcp_servers:\n      - name: pg\n"
          "        command: pg-mcp\n")
    market = skill(private_home / ".agh" / "skills", "mk")
    write(market.parent / ".agh-meta.json", '{"slug": "@a/mk", "registry": "hub", "version": "1", "installed_at": "x"}')
    write(market.parent / "mcp.json", '{"mcpServers": {"mk-server": {"command": "m"}}}')
    index = index_for(workspace)
    servers = {s["name"]: s for s in effective_mcp_servers(index, resolve_effective_set(index, "agh", "rev"))}
    assert servers["shared"]["source"] == "provider" and servers["shared"]["replaces"] == "config"
    assert servers["gh"]["command"] == "sidecar" and servers["gh"]["source"] == "agent_sidecar"
    assert servers["gh"]["env"] == {"T": "$X"}  # literal, never expanded
    assert servers["keep"]["source"] == "agent" and servers["pg"]["skill"] == "db"
    assert servers["mk-server"]["blocked"] and "MC002" in servers["mk-server"]["reason"]
    write(private_home / ".agh" / "config.toml", '[skills]\nallowed_marketplace_mcp = ["hub:@a/mk"]\n')
    index = index_for(workspace)
    servers = {s["name"]: s for s in effective_mcp_servers(index, resolve_effective_set(index, "agh", "rev"))}
    assert not servers["mk-server"]["blocked"]


def test_agh_toml_agent_tombstones(workspace):
    for n in ("alpha", "beta"):
        skill(workspace / ".agh" / "skills", n)
    write(workspace / ".agh" / "agents" / "t" / "AGENT.md",
          '---\nname = "t"\nprovider = "claude"\n\n[skills]\ndisabled = ["beta", "gone"]\n---\nPrompt.\n')
    eff = resolve_effective_set(index_for(workspace), "agh", "t")
    assert names(eff) == ["alpha"] and [m.ref.name for m in eff.missing] == ["gone"]


def test_mcp_servers_are_json_safe(workspace, private_home):
    import json

    write(private_home / ".agh" / "config.toml", '[mcp_servers.x]\ncommand = "c"\nargs = [1979-05-27]\n'
          '[mcp_servers.x.env]\nWHEN = 1979-05-27T07:32:00Z\n')
    skill(workspace / ".agh" / "skills", "a")
    index = index_for(workspace)
    [server] = effective_mcp_servers(index, resolve_effective_set(index, "agh"))
    assert json.loads(json.dumps(server))["args"] == ["1979-05-27"]


def test_agh_config_is_read_once_per_index_state(workspace, private_home, monkeypatch):
    """$AGH_HOME/config.toml is read once per index state, not on every where/effective call; a
    change the index learns of (any file update) reads it again."""
    import skill_ls.core.own_settings as own
    from skill_ls.core.labels import where

    skill(workspace / ".agh" / "skills", "demo")
    config = write(private_home / ".agh" / "config.toml", "[skills]\nenabled = false\n", dedent=False)
    index = index_for(workspace, ["agh"])
    reads = []
    real = own.read_bytes
    monkeypatch.setattr(own, "read_bytes", lambda path: reads.append(path) or real(path))
    for _ in range(3):
        assert "skills.enabled = false" in where(index, "agh", "demo")["skills_disabled"]
        assert resolve_effective_set(index, "agh").skills == []
    assert len(reads) == 1
    config.write_text("[skills]\nenabled = true\n", encoding="utf-8")
    index.update_file(str(config))
    assert "skills_disabled" not in where(index, "agh", "demo")
    assert names(resolve_effective_set(index, "agh")) == ["demo"]
    assert len(reads) == 2
