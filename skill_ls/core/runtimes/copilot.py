"""GitHub Copilot (agent mode in VS Code, the Copilot CLI, the cloud agent): project skills in
`.github/skills`, `.claude/skills` or `.agents/skills`; personal skills in `~/.copilot/skills`,
`~/.claude/skills` or `~/.agents/skills`.

Sources (read 2026-11): https://docs.github.com/en/copilot/concepts/agents/about-agent-skills,
https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills and
https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-skills (the shared
"Creating and adding a skill" steps), https://code.visualstudio.com/docs/copilot/customization/agent-skills
(field limits), and the skill reference VS Code ships to its own agent,
https://github.com/microsoft/vscode/blob/main/extensions/copilot/assets/prompts/skills/agent-customization/references/skills.md
(`argument-hint`, `user-invocable`, `disable-model-invocation`). docs/fidelity.md quotes each one.
Not documented: which of a project's three directories wins for one name (same tier: ambiguous,
SH003), the catalog text, a prompt budget.
"""
from __future__ import annotations

from skill_ls.core.runtimes.spec import DESCRIPTION_DOC, STANDARD_FIELDS, STANDARD_NAME, FieldSpec, NameRule, RootSpec, Runtime

# "The Agent Skills specification is an open standard": the standard's fields are read (reading: the
# page lists name, description and license "in their simplest form", not every field).
COPILOT_FIELDS: dict[str, FieldSpec] = {
    **STANDARD_FIELDS,
    "name": FieldSpec("str", "A unique identifier for the skill: lowercase, hyphens for spaces; typically the name of "
                      "the skill's directory. At most 64 characters.", required=True, max_len=64, min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " At most 1,024 characters.", required=True, max_len=1024,
                             min_len=1),
    "license": FieldSpec("str", "A description of the license that applies to this skill."),
    "argument-hint": FieldSpec("str", "VS Code: hint shown for slash invocation."),
    "user-invocable": FieldSpec("bool", "VS Code: show the skill as a slash command (default true)."),
    "disable-model-invocation": FieldSpec("bool", "VS Code: the model does not load the skill on its own."),
}

COPILOT = Runtime(
    id="copilot", title="GitHub Copilot",
    # Reading: the documentation names project and personal skills without saying which wins for one
    # name; a project copy wins, as in every other runtime that has both.
    tiers=("personal", "project"),
    roots=(
        RootSpec("project", "{workspace}/.github/skills"),
        RootSpec("project", "{workspace}/.claude/skills", guest_of="claude-code", activates=False),
        RootSpec("project", "{workspace}/.agents/skills", activates=False),
        RootSpec("personal", "{home}/.copilot/skills", origin="user"),
        RootSpec("personal", "{home}/.claude/skills", origin="user", guest_of="claude-code", activates=False),
        RootSpec("personal", "{home}/.agents/skills", origin="user", activates=False),
    ),
    fields=COPILOT_FIELDS,
    # "name (required): A unique identifier for the skill. This must be lowercase, using hyphens for
    # spaces. Typically, this matches the name of the skill's directory."
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and hyphens", 64, "warning", "frontmatter"),
    default_extra_tier="project",
    # The documentation says nothing of unknown keys being refused: a key no reader knows is a note.
    unknown_field_severity="information",
    catalog_format="undocumented", catalog_order="name",
    catalog_hides=(("disable-model-invocation", True),),
)
