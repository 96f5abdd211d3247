"""AGH: tiers bundled < marketplace < user < additional < workspace < agent-local (https://agh.network/runtime/core/skills/)."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import DESCRIPTION_DOC, NAME_DOC, STANDARD_FIELDS, AgentScoping, FieldSpec, \
    BuiltinSkill, HomeDir, Marketplace, NameRule, OwnSettings, RootSpec, Runtime, Setting, Vocabulary

AGH_SKILL_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", NAME_DOC + " The catalog key; the highest tier with this name wins.", required=True, min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " Cut to 200 code points in AGH's catalog.", required=True, min_len=1),
    "version": FieldSpec("scalar", "Skill version (AGH shows it in list/detail payloads)."),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "metadata": FieldSpec("map", "Metadata; `metadata.agh.mcp_servers` declares MCP servers for AGH."),
    "allowed-tools": STANDARD_FIELDS["allowed-tools"],
}

# SKILL.md frontmatter declares MCP servers for AGH under `metadata.<this key>.mcp_servers`.
MCP_METADATA_KEY = "agh"

AGH = Runtime(
    skill_tool="skill_view",
    id="agh", title="AGH",
    tiers=("bundled", "marketplace", "user", "additional", "workspace", "agent_local"),
    tier_labels={"agent_local": "agent-local"},
    roots=(
        RootSpec("bundled", "{config:agh_bundled_roots}/skills", origin="config"),
        RootSpec("user", "{agh_home}/skills", origin="user"),  # marketplace when .agh-meta.json is present
        # Reading: the registered order decides between additional roots, as it does for agent definitions
        # ("Additional roots, in the registered order"); the skills overview states no order of its own.
        RootSpec("additional", "{config:agh_additional_roots}/.agh/skills", origin="config", ordered=True),
        RootSpec("workspace", "{workspace}/.agh/skills"),
    ),
    fields=AGH_SKILL_FIELDS,
    # Reading: no AGH source states a name pattern or length ("The frontmatter gives AGH the skill
    # name, description, version", AGH Skills Overview); the name is the catalog key and the
    # `agh__skill_view` argument, so any non-empty string is accepted. Names outside the standard's
    # pattern are flagged where the standard's rules apply, not under AGH.
    name_rule=NameRule(None, "", None, "warning", "frontmatter"),
    settings={
        "home": Setting("agh_home", "path"),
        "bundled_roots": Setting("agh_bundled_roots", "paths"),
        "additional_roots": Setting("agh_additional_roots", "paths"),
        "disabled": Setting("agh_disabled", "strs"),
        "draft_fields": Setting("agh_draft_fields", "draft"),
        "bundled_skill_description": Setting("agh_bundled_skill_description", "str"),
    },
    home_dirs=(HomeDir("agh_home", "AGH_HOME", ".agh", setting="agh_home"),),
    default_extra_tier="additional",
    marketplace=Marketplace(from_tier="user", tier="marketplace", meta_file=".agh-meta.json"),
    scan_depth=4, scan_cap=300,
    # "Bundled | compiled into the binary from skills/*/SKILL.md | Lowest precedence. Always available
    # when skills are enabled." The catalog example starts with it; its full description is not
    # documented, so the documented excerpt is used unless `[agh] bundled_skill_description` says more.
    builtin_skills=(BuiltinSkill(
        "agh", "Operate and extend AGH, the local-first agent operating system...",
        description_setting="agh_bundled_skill_description",
        source="the excerpt in the catalog example of https://agh.network/runtime/core/skills/ (the binary's full text is "
               "not documented; set [agh] bundled_skill_description to it)"),),
    builtin_tier="bundled",
    # "skills.enabled = false: The registry, catalog provider, skill MCP resolver, watcher, and skill
    # hooks are not wired." (https://agh.network/runtime/core/skills/, Reload And Failure Behavior)
    own_settings=OwnSettings(("{agh_home}/config.toml",), "toml", switch=("skills", "enabled"),
                             switch_effect="no catalog, no skill MCP servers"),
    # The winning AGENT.md's skills/ directory is an overlay for that agent; skills.disabled tombstones;
    # an agent with a blocking problem (or a blocked agent-local skill) fails closed.
    agent_scoping=AgentScoping(family="agh", local_skills_dir="skills", local_tier="agent_local", tombstones=True,
                               fail_closed=True),
    operator_disabled="agh_disabled",
    yaml_dialect="1.1",
    catalog_format="agh_lines", catalog_order="name", catalog_cut=200,
    mcp_merge="agh_layers",
    # "env values are sent as literal strings; AGH does not expand shell placeholders inside MCP server
    # definitions" (agent definitions, Sidecar behavior): a secret belongs in the operator's own
    # configuration, whose servers merge first ("top-level config MCP servers").
    mcp_literal_values="declare the server in $AGH_HOME/config.toml's mcp_servers (the operator's configuration, "
                       "not committed with the skill or agent)",
    # The skill body reaches the model as written: AGH's sources describe no `!`command`` injection
    # ("The Markdown body is procedural guidance for the agent", AGH Skills Overview).
    vocabulary=Vocabulary(executes_shell_lines=False),
)
