"""Golden tests for every catalog format (SPEC §4, §8): the exact text each runtime injects."""
from __future__ import annotations

import pytest
from conftest import skill, write

from skill_ls.analysis.catalog import CatalogError, catalog_cost, catalog_object, render_catalog
from skill_ls.analysis.check import CheckOptions, build_index, prepare_config


def index_for(ws, runtimes=None):
    config = prepare_config(str(ws), CheckOptions(workspace=str(ws), runtimes=runtimes or []))
    return build_index(str(ws), config)


def agh_agent(ws, name, extra=""):
    return write(ws / ".agh" / "agents" / name / "AGENT.md",
                 f"---\nname: {name}\nprovider: claude\n{extra}---\nYou work.\n", dedent=False)


LONG = "ü" * 150 + "語" * 100  # 250 code points, multibyte in UTF-8


# -- AGH ---------------------------------------------------------------------------------------------
def test_agh_golden_sorted_cut_escaped_tool_guidance(workspace):
    root = workspace / ".agh" / "skills"
    skill(root, "zeta", description="Tags <b> & \"quotes\" > all.")
    skill(root, "alpha", description=LONG)
    skill(root, "mid", description="|\n  line one\n    line two\n\n  line three")
    skill(root, "odd", name="'\"odd<&>\"'", description="x")  # escaped in its attribute, not named in the guidance
    skill(root, "amp", name="'a&b'", description="x")
    text = render_catalog(index_for(workspace), "agh")
    assert text == (
        "<available-skills>\n"
        '  <skill name="&quot;odd&lt;&amp;&gt;&quot;">x</skill>\n'
        '  <skill name="a&amp;b">x</skill>\n'
        '  <skill name="agh">Operate and extend AGH, the local-first agent operating system...</skill>\n'
        f'  <skill name="alpha">{"ü" * 150 + "語" * 50}</skill>\n'
        '  <skill name="mid">line one line two line three</skill>\n'
        '  <skill name="zeta">Tags &lt;b&gt; &amp; "quotes" &gt; all.</skill>\n'
        "</available-skills>\n"
        "\n"
        'Use `agh__skill_view` with `{ "name": "a&b" }` to load full instructions for any skill.\n'
        'Use `agh__skill_view` with `{ "name": "a&b", "file": "<path>" }` to read a specific skill '
        "resource file.\n"
    )


def test_agh_json_object_full_description_and_truncated(workspace):
    path = skill(workspace / ".agh" / "skills", "alpha", description=LONG)
    obj = catalog_object(index_for(workspace), "agh")
    assert set(obj) == {"runtime", "agent", "text", "chars", "skills", "mcp_servers", "left_out", "documented"}
    assert obj["left_out"] == []
    assert obj["runtime"] == "agh" and obj["agent"] is None and obj["chars"] == len(obj["text"])
    assert obj["skills"][1:] == [{"name": "alpha", "tier": "workspace", "path": str(path), "description": LONG,
                                  "truncated": True}]
    assert obj["skills"][0]["name"] == "agh" and obj["skills"][0]["builtin"] is True
    assert obj["mcp_servers"] == []
    shown = obj["text"].split('<skill name="alpha">', 1)[1].split("</skill>", 1)[0]
    assert len(shown) == 200 and shown == LONG[:200]


def test_agh_cli_guidance_when_deny_tools_covers_skill_view(workspace):
    skill(workspace / ".agh" / "skills", "beta")
    skill(workspace / ".agh" / "skills", "alpha")
    agh_agent(workspace, "wild", 'deny_tools: ["agh__skill_*"]\n')
    agh_agent(workspace, "exact", 'deny_tools: ["agh__skill_view"]\n')
    agh_agent(workspace, "other", 'deny_tools: ["agh__skill_search", "agh__shell_*"]\n')
    index = index_for(workspace)
    cli = ("<available-skills>\n"
           '  <skill name="agh">Operate and extend AGH, the local-first agent operating system...</skill>\n'
           '  <skill name="alpha">Does things. Use when needed.</skill>\n'
           '  <skill name="beta">Does things. Use when needed.</skill>\n'
           "</available-skills>\n\n"
           "Use `agh skill view <name>` to load full instructions for any skill.\n"
           "Use `agh skill view <name> --file <path>` to read a specific skill resource file.\n")
    assert render_catalog(index, "agh", "wild") == cli
    assert render_catalog(index, "agh", "exact") == cli
    other = render_catalog(index, "agh", "other")
    assert "agh__skill_view" in other and "agh skill view" not in other


def test_agh_tombstoned_and_disabled_absent(workspace):
    for n in ("keep", "tomb", "off"):
        skill(workspace / ".agh" / "skills", n)
    write(workspace / ".skill-ls.toml", '[agh]\ndisabled = ["off"]\n')
    agh_agent(workspace, "rev", "skills:\n  disabled: [tomb]\n")
    index = index_for(workspace)
    text = render_catalog(index, "agh", "rev")
    assert 'name="keep"' in text and "tomb" not in text and "off" not in text
    base = render_catalog(index, "agh")
    assert 'name="tomb"' in base and "off" not in base


def test_agh_same_name_three_tiers_agent_local_with_agent_workspace_without(workspace, private_home):
    skill(private_home / ".agh" / "skills", "review", description="user copy")
    skill(workspace / ".agh" / "skills", "review", description="workspace copy")
    agh_agent(workspace, "rev")
    skill(workspace / ".agh" / "agents" / "rev" / "skills", "review", description="agent copy")
    index = index_for(workspace)
    assert '<skill name="review">workspace copy</skill>' in render_catalog(index, "agh")
    with_agent = catalog_object(index, "agh", "rev")
    assert '<skill name="review">agent copy</skill>' in with_agent["text"]
    assert with_agent["skills"][1]["tier"] == "agent_local" and with_agent["agent"] == "rev"


def test_empty_effective_set_renders_empty_string(workspace):
    (workspace / ".agh" / "skills").mkdir(parents=True)
    write(workspace / ".skill-ls.toml", '[agh]\ndisabled = ["agh"]\n')  # else AGH's bundled skill is there
    (workspace / ".agents" / "skills").mkdir(parents=True)
    index = index_for(workspace, ["agh", "amp", "agentskills", "codex", "workspace-agents", "claude-code"])
    for runtime in ("agh", "agentskills", "codex", "workspace-agents", "claude-code"):
        obj = catalog_object(index, runtime)
        assert obj["text"] == "" and obj["chars"] == 0 and obj["skills"] == []
    # Amp's five built-in skills are always available (no switch turns them off)
    assert all(s["builtin"] for s in catalog_object(index, "amp")["skills"])


def test_agent_that_fails_closed_is_refused(workspace):
    skill(workspace / ".agh" / "skills", "a")
    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md", "---\nname: rev\n---\n")
    with pytest.raises(CatalogError, match="fails closed: .*AG003 agent prompt is required"):
        catalog_object(index_for(workspace), "agh", "rev")


# -- Amp ---------------------------------------------------------------------------------------------
def test_amp_golden_discovery_order_unescaped_hidden_omitted(workspace, private_home):
    skill(workspace / ".agents" / "skills", "zeta", description="Z <tag> & more")
    skill(workspace / ".agents" / "skills", "alpha", extra="argument-hint: <file>\n")
    skill(workspace / ".agents" / "skills", "hidden", extra="disable-model-invocation: true\n")
    skill(private_home / ".config" / "amp" / "skills", "beta", description="B")
    text = render_catalog(index_for(workspace, ["amp"]), "amp")
    assert text == (
        "The following skills provide specialized instructions for specific tasks.\n"
        "Use the skill tool to load a skill when the task matches its description.\n"
        "\n"
        "<available_skills>\n"
        "  <skill>\n    <name>alpha</name>\n    <description>Does things. Use when needed.</description>\n  </skill>\n"
        "  <skill>\n    <name>zeta</name>\n    <description>Z <tag> & more</description>\n  </skill>\n"
        "  <skill>\n    <name>beta</name>\n    <description>B</description>\n  </skill>\n"
        # the five built-ins, last ("lowest priority"), with their documented purpose
        + "".join(f"  <skill>\n    <name>{n}</name>\n    <description>{p}</description>\n  </skill>\n" for n, p in (
            ("building-skills", "Guide for creating new skills"), ("bookkeeper", "Summarizes threads for handoff"),
            ("painter", "Image generation guidance"), ("code-review", "Automated code review"),
            ("migrating-to-skills", "Migrating from toolbox")))
        + "</available_skills>"  # formatAvailableSkills returns its template literal: no final newline
    )


# -- reference layout ----------------------------------------------------------------------------
def test_reference_golden_sorted_html_escaped(workspace):
    b = skill(workspace / ".agents" / "skills", "beta", description="Quotes \"x\" & 'y' <z>")
    a = skill(workspace / ".agents" / "skills", "alpha", description=LONG)
    text = render_catalog(index_for(workspace, ["agentskills"]), "agentskills")
    assert text == (
        "<available_skills>\n"
        f"<skill>\n<name>\nalpha\n</name>\n<description>\n{LONG}\n</description>\n<location>\n{a}\n</location>\n</skill>\n"
        "<skill>\n<name>\nbeta\n</name>\n<description>\nQuotes &quot;x&quot; &amp; &#x27;y&#x27; &lt;z&gt;\n"
        f"</description>\n<location>\n{b}\n</location>\n</skill>\n"
        "</available_skills>\n"
    )


def test_codex_reference_layout_lists_both_copies(workspace, private_home):
    w = skill(workspace / ".agents" / "skills", "dup", description="ws")
    u = skill(private_home / ".agents" / "skills", "dup", description="user")
    obj = catalog_object(index_for(workspace, ["codex"]), "codex")
    assert [s["path"] for s in obj["skills"]] == sorted([str(w), str(u)])
    assert obj["text"].count("<name>\ndup\n</name>") == 2


def test_claude_code_cuts_description_and_when_to_use_at_1536(workspace):
    skill(workspace / ".claude" / "skills", "big", description="d" * 1500, extra="when_to_use: " + "w" * 100 + "\n")
    obj = catalog_object(index_for(workspace, ["claude-code"]), "claude-code")
    [entry] = obj["skills"]
    assert entry["truncated"] and entry["description"] == "d" * 1500 + "\n" + "w" * 100
    assert ("d" * 1500 + "\n" + "w" * 35 + "\n</description>") in obj["text"]


# -- workspace-agents --------------------------------------------------------------------------------
def test_workspace_agents_golden(workspace):
    root = workspace / "workspace" / "agents" / "skills"
    skill(root, "analyze-pr", description="Analyze a GitHub pull request", extra='argument-hint: "[pr-number]"\n')
    skill(root, "generate-report", description="Generate a formatted report")
    skill(root, "internal", extra="user-invocable: false\n")
    write(workspace / "workspace" / "agents" / "my-agent.md",
          "---\nname: my-agent\nskills:\n  - generate-report\n  - internal\n  - nope\n  - analyze-pr\n---\nYou help.\n")
    text = render_catalog(index_for(workspace), "workspace-agents", "my-agent")
    assert text == (
        "## Available Skills\n"
        "\n"
        "- **generate-report**: Generate a formatted report\n"
        "- **analyze-pr** [pr-number]: Analyze a GitHub pull request\n"
        "\n"
        "Use the `skill_use` tool to load a skill's full instructions when needed.\n"
    )


# -- Agentcy -----------------------------------------------------------------------------------------
def _agentcy(workspace, budget):
    root = workspace / "agentcy"
    write(workspace / ".skill-ls.toml", f'runtimes = ["agentcy"]\n[agentcy]\nroots = ["agentcy"]\nmax_prompt_chars = {budget}\n')
    a = write(root / "pg" / "SKILL.md", "---\nname: PostgreSQL Health Triage\nslug: postgres.health-triage\n"
              "description: Diagnose slow queries.\n---\n# PostgreSQL Health Triage\n\nCheck locks.\n", dedent=False)
    b = write(root / "comms" / "SKILL.md", "---\nname: Incident Comms\ndescription: Tone.\n---\n# Style\n", dedent=False)
    return a, b


def test_agentcy_golden_blocks_and_budget(workspace):
    a, b = _agentcy(workspace, 16000)
    used = len(a.read_text()) + len(b.read_text())
    text = render_catalog(index_for(workspace), "agentcy")
    assert text == (
        '<skill name="Incident Comms">\n' + b.read_text().rstrip("\n") + "\n</skill>\n"
        '<skill name="PostgreSQL Health Triage">\n' + a.read_text().rstrip("\n") + "\n</skill>\n"
    )  # issue 23: no budget line (the source's prompt example has none); the JSON carries it
    assert catalog_object(index_for(workspace), "agentcy")["budget"] == {"budget_used_chars": used,
                                                                         "budget_max_chars": 16000}


def test_agentcy_refuses_a_set_over_budget(workspace):
    _agentcy(workspace, 100)
    with pytest.raises(CatalogError, match="agentcy.max_prompt_chars is 100"):
        catalog_object(index_for(workspace), "agentcy")
    obj = catalog_object(index_for(workspace), "agentcy", enabled=["Incident Comms"])
    assert obj["text"].startswith('<skill name="Incident Comms">') and obj["budget"]["budget_max_chars"] == 100


# -- catalog cost --------------------------------------------------------------------------------
def test_catalog_cost_per_skill(workspace):
    skill(workspace / ".agh" / "skills", "alpha", description=LONG)
    index = index_for(workspace)
    [decl] = index.by_name["agh"]["alpha"]
    cost = catalog_cost(decl)
    assert cost.truncated and cost.cut == 200
    assert cost.chars == len('  <skill name="alpha">') + 200 + len("</skill>") + 1


def test_xml_escape_is_html_escape():
    """The XML catalog escapes as `html.escape` does (its own copy spares importing `html`)."""
    import html
    import random

    from skill_ls.analysis.catalog import _xml_escape

    rnd = random.Random(3)
    for text in ["", "plain", "a&b<c>d\"e'f", "&amp;", *("".join(rnd.choice("&<>\"'aé") for _ in range(12)) for _ in range(500))]:
        assert _xml_escape(text) == html.escape(text)
