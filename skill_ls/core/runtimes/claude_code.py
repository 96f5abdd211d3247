"""Claude Code: enterprise > personal > project; the command name is the directory (SPEC §3.4)."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import STANDARD_NAME, DESCRIPTION_DOC, STANDARD_FIELDS, FieldSpec, NameRule, RootSpec, Runtime

CLAUDE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Display label (lowercase letters, digits, hyphens); the command name is the directory name.",
                      max_len=64),
    "description": FieldSpec("str", DESCRIPTION_DOC + " description + when_to_use are cut at 1,536 characters in the listing."),
    "when_to_use": FieldSpec("str", "When Claude should use the skill; appended to the description in the listing."),
    "argument-hint": FieldSpec("str", "Hint shown for the slash command's arguments."),
    "arguments": FieldSpec("any", "Named arguments of the skill."),
    "disable-model-invocation": FieldSpec("bool", "Only the user can invoke the skill."),
    "user-invocable": FieldSpec("bool", "Whether the skill appears as a slash command."),
    "allowed-tools": FieldSpec("str_or_list", "Tools the skill may use without asking."),
    "disallowed-tools": FieldSpec("str_or_list", "Tools the skill may not use."),
    "model": FieldSpec("str", "Model to use while the skill is active."),
    "effort": FieldSpec("str", "Reasoning effort.", enum=("low", "medium", "high", "xhigh", "max")),
    "context": FieldSpec("str", "Run in a forked context.", enum=("fork",)),
    "agent": FieldSpec("str", "Subagent type for a forked context."),
    "background": FieldSpec("bool", "Run in the background."),
    "hooks": FieldSpec("any", "Hooks scoped to the skill."),
    "paths": FieldSpec("str_or_list", "Glob patterns that make the skill relevant."),
    "shell": FieldSpec("str", "Shell for `!` commands.", enum=("bash", "powershell")),
    "metadata": FieldSpec("map", "Arbitrary metadata."),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "version": FieldSpec("scalar", "Skill version (informational)."),
}

CLAUDE_CODE = Runtime(
    id="claude-code", title="Claude Code",
    tiers=("project", "personal", "enterprise"),
    roots=(
        RootSpec("enterprise", "{config:claude_enterprise_roots}", origin="config"),
        RootSpec("personal", "{home}/.claude/skills", origin="user"),
        RootSpec("project", "{ancestors}/.claude/skills", ordered=True),
    ),
    fields=CLAUDE_FIELDS,
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and hyphens", 64, "warning", "directory"),
    catalog_cut=1536,
)
