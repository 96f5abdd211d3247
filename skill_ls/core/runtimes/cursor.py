"""Cursor: `.agents/skills` and `.cursor/skills` (project), `~/.agents/skills` and `~/.cursor/skills`
(user), and for compatibility the Claude and Codex skill directories; a few built-in skills.

Source (read 2026-11): https://cursor.com/docs/skills ("Skill directories", "Built-in Cursor
skills"); docs/fidelity.md quotes it. Not documented: which directory wins for one name (same tier:
ambiguous, SH003; the project over the user is a reading), the catalog text, a prompt budget, a
name pattern beyond the Agent Skills standard the page points to.
"""
from __future__ import annotations

from skill_ls.core.runtimes.spec import STANDARD_FIELDS, STANDARD_NAME, FieldSpec, NameRule, RootSpec, Runtime

CURSOR_FIELDS: dict[str, FieldSpec] = {
    **STANDARD_FIELDS,
    "disable-model-invocation": FieldSpec("bool", "Cursor: only included when invoked explicitly as /skill-name."),
}

CURSOR = Runtime(
    id="cursor", title="Cursor",
    tiers=("builtin", "user", "project"),
    roots=(
        RootSpec("project", "{workspace}/.agents/skills", activates=False),
        RootSpec("project", "{workspace}/.cursor/skills"),
        RootSpec("project", "{workspace}/.claude/skills", guest_of="claude-code", activates=False),
        RootSpec("project", "{workspace}/.codex/skills", guest_of="codex", activates=False),
        RootSpec("user", "{home}/.agents/skills", origin="user", activates=False),
        RootSpec("user", "{home}/.cursor/skills", origin="user"),
        RootSpec("user", "{home}/.claude/skills", origin="user", guest_of="claude-code", activates=False),
        RootSpec("user", "{home}/.codex/skills", origin="user", guest_of="codex", activates=False),
    ),
    fields=CURSOR_FIELDS,
    # The page defers to the Agent Skills standard ("an open standard"): its pattern; a name other
    # than the directory is a warning (not documented as a refusal).
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and single hyphens", 64, "warning", "frontmatter"),
    default_extra_tier="project",
    # The documentation says nothing of unknown keys being refused: a key no reader knows is a note.
    unknown_field_severity="information",
    # "Cursor includes a small set of built in skills ... managed by Cursor and appear alongside the
    # skills you add yourself": the two the page's table opens with.
    builtin_names=("automate", "babysit"),
    catalog_format="undocumented", catalog_order="name",
    catalog_hides=(("disable-model-invocation", True),),
)
