"""The Agent Skills open standard: the base rules for any SKILL.md."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import STANDARD_NAME, STANDARD_FIELDS, NameRule, RootSpec, Runtime

AGENTSKILLS = Runtime(
    id="agentskills", title="Agent Skills standard",
    tiers=("user", "workspace"),
    roots=(
        RootSpec("user", "{home}/.agents/skills", origin="user"),
        RootSpec("workspace", "{workspace}/.agents/skills"),
    ),
    fields=STANDARD_FIELDS,
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and single hyphens", 64, "error", "frontmatter"),
    catalog_format="reference", catalog_order="name",
)
