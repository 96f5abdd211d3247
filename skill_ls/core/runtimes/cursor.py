"""Cursor: `.agents/skills` and `.cursor/skills` (project), `~/.agents/skills` and `~/.cursor/skills`
(user), and for compatibility the Claude and Codex skill directories; a few built-in skills.

Source (read 2026-11): https://cursor.com/docs/skills ("Skill directories", "Built-in Cursor
skills", "Frontmatter fields", "Nested skill directories"); docs/fidelity.md quotes it. Not documented:
which directory wins for one name (same tier: ambiguous, SH003; the project over the user is a
reading), the catalog text, a prompt budget. `.cursor/skills` and `.agents/skills` folders nested in
the workspace's subdirectories are roots scoped to the files below their folder (`RootSpec.scoped`).
Not modelled: `paths` scoping (it narrows when a skill is surfaced, not whether it loads).
"""
from __future__ import annotations

from skill_ls.core.runtimes.spec import STANDARD_FIELDS, STANDARD_NAME, FieldSpec, NameRule, RootSpec, Runtime

# The page's "Frontmatter fields" table.
CURSOR_FIELDS: dict[str, FieldSpec] = {
    **STANDARD_FIELDS,
    "name": FieldSpec("str", "Skill identifier. Lowercase letters, numbers, and hyphens only. Must match the parent "
                      "folder name.", required=True, max_len=64, min_len=1),
    "description": FieldSpec("str", "Describes what the skill does and when to use it. Used by the agent to determine "
                             "relevance.", required=True, max_len=1024, min_len=1),
    "paths": FieldSpec("str_or_list", "Cursor: glob patterns that scope the skill to matching files (a comma-separated "
                       "string or a list); the skill is only surfaced when the agent works with matching files."),
    "globs": FieldSpec("str_or_list", "Cursor: the legacy name of `paths`, still accepted as a fallback."),
    "disable-model-invocation": FieldSpec("bool", "Cursor: only included when invoked explicitly as /skill-name."),
    "icon": FieldSpec("str", "Cursor: the badge icon when the skill is used as a Custom Mode (an icon name such as "
                      "`beaker`; unrecognized icons fall back to the lightning icon)."),
    # No enum check: "Unrecognized icons or colors fall back to the default badge" (nothing fails).
    "color": FieldSpec("str", "Cursor: the badge color when the skill is used as a Custom Mode: `default`, `green`, "
                       "`cyan`, `blue`, `purple`, `magenta`, `orange`, `yellow`, `red` or `brand` (unrecognized colors "
                       "fall back to the default badge)."),
}

# "Built-in Cursor skills": the page's table, in its order (read 2026-11; an earlier copy of the page
# had `/babysit` where this one has `/autopilot`).
CURSOR_BUILTINS = ("automate", "autopilot", "canvas", "create-hook", "create-rule", "create-skill", "create-subagent",
                   "cursor-blame", "loop", "migrate-to-skills", "review", "review-bugbot", "review-security", "sdk",
                   "shell", "split-to-prs", "statusline", "update-cli-config", "update-cursor-settings")

CURSOR = Runtime(
    id="cursor", title="Cursor",
    tiers=("builtin", "user", "project"),
    roots=(
        RootSpec("project", "{workspace}/.agents/skills", activates=False),
        RootSpec("project", "{workspace}/.cursor/skills"),
        RootSpec("project", "{workspace}/.claude/skills", guest_of="claude-code", activates=False),
        RootSpec("project", "{workspace}/.codex/skills", guest_of="codex", activates=False),
        # "Cursor also discovers skills inside nested project subdirectories. A `.cursor/skills/` (or
        # `.agents/skills/`) folder anywhere inside your repository is picked up" and "Skills in nested
        # project directories are automatically scoped to files inside that directory": every
        # subdirectory of the workspace (https://cursor.com/docs/cli/changelog: scans "no longer descend into hidden
        # dot-directories"), each root serving the files below the folder that holds it. Reading: the
        # page ranks a nested copy against no other; it is a project copy there (a copy of the same
        # name in the repository-wide directories is ambiguous for those files, SH003).
        RootSpec("project", "{workspace}/**/.cursor/skills", scoped=True, title="nested project directories"),
        RootSpec("project", "{workspace}/**/.agents/skills", scoped=True, activates=False,
                 title="nested project directories"),
        RootSpec("user", "{home}/.agents/skills", origin="user", activates=False),
        RootSpec("user", "{home}/.cursor/skills", origin="user"),
        RootSpec("user", "{home}/.claude/skills", origin="user", guest_of="claude-code", activates=False),
        RootSpec("user", "{home}/.codex/skills", origin="user", guest_of="codex", activates=False),
    ),
    fields=CURSOR_FIELDS,
    # "Lowercase letters, numbers, and hyphens only. Must match the parent folder name.": the
    # standard's pattern; a name other than the directory is a warning (not documented as a refusal).
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and single hyphens", 64, "warning", "frontmatter"),
    default_extra_tier="project",
    # The documentation says nothing of unknown keys being refused: a key no reader knows is a note.
    unknown_field_severity="information",
    # "Cursor includes a small set of built in skills to improve your general workflows. These skills
    # are managed by Cursor and appear alongside the skills you add yourself." (the page's table)
    builtin_names=CURSOR_BUILTINS,
    catalog_format="undocumented", catalog_order="name",
    catalog_hides=(("disable-model-invocation", True),),
)
