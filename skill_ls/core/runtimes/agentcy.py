"""Agentcy: configured roots only; unique per organisation; a prompt budget (https://docs.agentcylabs.com/concepts/skills)."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import DESCRIPTION_DOC, FieldSpec, NameRule, Runtime, Setting, Vocabulary

AGENTCY_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Display name of the skill row.", required=True, min_len=1),
    "slug": FieldSpec("str", "Unique per organisation; convention `team.purpose`."),
    # "If description is empty or vague, search_skills won't rank it" (Gotchas): not a load failure.
    "description": FieldSpec("str", DESCRIPTION_DOC,
                             recommended="search_skills will not rank a skill without a description"),
    "version": FieldSpec("scalar", "Skill version."),
    "author": FieldSpec("str", "Author."),
    "tags": FieldSpec("str_list", "Tags for search."),
}

AGENTCY = Runtime(
    id="agentcy", title="Agentcy",
    tiers=("configured",),
    roots=(),
    fields=AGENTCY_FIELDS,
    name_rule=NameRule(None, "", None, None, "frontmatter"),
    settings={"max_prompt_chars": Setting("agentcy_max_prompt_chars", "int"), "roots": Setting("roots", "roots", editor=False)},
    # "Two skills with the same slug in the same org → uniqueness violation on insert" (Gotchas).
    conflict="unique", identity_key="slug", active_by_config_only=True,
    # "A skill_source of type github watches a path in a repo ... and parses every .md file into a
    # skill row." (https://docs.agentcylabs.com/concepts/skills)
    skill_files="every_md",
    prompt_budget_setting="agentcy_max_prompt_chars",
    catalog_format="full_content", catalog_order="name",
    # "Skills are not connector tools — they don't execute anything." ... "Skills are pure context."
    vocabulary=Vocabulary(executes_shell_lines=False),
)
