"""AGH: tiers bundled < marketplace < user < additional < workspace < agent-local (sources/agh-skills-overview.txt)."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import STANDARD_NAME, DESCRIPTION_DOC, NAME_DOC, STANDARD_FIELDS, FieldSpec, NameRule, RootSpec, Runtime

AGH_SKILL_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", NAME_DOC + " The catalog key; the highest tier with this name wins.", required=True, min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " Cut to 200 code points in AGH's catalog.", required=True, min_len=1),
    "version": FieldSpec("scalar", "Skill version (AGH shows it in list/detail payloads)."),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "metadata": FieldSpec("map", "Metadata; `metadata.agh.mcp_servers` declares MCP servers for AGH."),
    "allowed-tools": STANDARD_FIELDS["allowed-tools"],
}

AGH = Runtime(
    id="agh", title="AGH",
    tiers=("bundled", "marketplace", "user", "additional", "workspace", "agent_local"),
    roots=(
        RootSpec("bundled", "{config:agh_bundled_roots}/skills", origin="config"),
        RootSpec("user", "{agh_home}/skills", origin="user"),  # marketplace when .agh-meta.json is present
        RootSpec("additional", "{config:agh_additional_roots}/.agh/skills", origin="config"),
        RootSpec("workspace", "{workspace}/.agh/skills"),
    ),
    fields=AGH_SKILL_FIELDS,
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and single hyphens", 64, "warning", "frontmatter"),
    scan_depth=4, scan_cap=300, catalog_format="agh", catalog_cut=200,
)
