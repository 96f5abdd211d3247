"""Amp: first location wins; catalog printed unescaped (https://decodeclaude.com/amp-code-spec/enhancements/16-skills/)."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import BuiltinSkill, DESCRIPTION_DOC, NAME_DOC, FieldSpec, FileShape, HomeDir, NameRule, RootSpec, Runtime, \
    Setting, Vocabulary

AMP_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", NAME_DOC + " Unique; the first location with this name wins.", required=True,
                      max_len=64, min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " Amp prints it unescaped.", required=True, max_len=1024, min_len=1),
    "isolatedContext": FieldSpec("bool", "Run the skill in an isolated context."),
    "disable-model-invocation": FieldSpec("bool", "Hide the skill from the model's catalog (user invocation only)."),
    "argument-hint": FieldSpec("str", "Hint for arguments (Amp computes it but does not print it)."),
    "builtin-tools": FieldSpec("str_list", "Built-in tools the skill needs."),
}

# `parseSkillFile` (https://decodeclaude.com/amp-code-spec/enhancements/16-skills/): `content.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/)` and
# `if (!match || !match[1] || !match[2]) throw`: LF only, no BOM, no `...`, no trailing spaces on a
# delimiter, a newline after the closing `---`, and a non-empty frontmatter and body.
AMP_FILE_SHAPE = FileShape("---\n", "\n---\n", "parseSkillFile in https://decodeclaude.com/amp-code-spec/enhancements/16-skills/")

AMP_BUILTIN_SOURCE = ("the skill's purpose in the Built-in Skills table of Amp's skills page (its own description is "
                      "compiled into Amp and not documented)")

AMP = Runtime(
    skill_tool="loaded_skill",
    id="amp", title="Amp",
    tiers=("builtin", "skills_path", "toolbox", "claude_plugins", "user_claude", "workspace_claude",
           "user_amp", "user_agents", "workspace_agents"),
    tier_labels={"builtin": "built-in", "skills_path": "skills.path", "claude_plugins": "Claude Code plugin",
                 "user_claude": "personal (~/.claude/skills)", "workspace_claude": "project (.claude/skills)",
                 "user_amp": "user (~/.config/amp/skills)", "user_agents": "user (~/.config/agents/skills)",
                 "workspace_agents": "project (.agents/skills)"},
    roots=(
        RootSpec("workspace_agents", "{workspace}/.agents/skills"),
        RootSpec("user_agents", "{home}/.config/agents/skills", origin="user"),
        RootSpec("user_amp", "{home}/.config/amp/skills", origin="user"),
        RootSpec("workspace_claude", "{workspace}/.claude/skills", guest_of="claude-code"),
        RootSpec("user_claude", "{home}/.claude/skills", origin="user", guest_of="claude-code"),
        RootSpec("claude_plugins", "{home}/.claude/plugins/cache", origin="user", guest_of="claude-code"),
        RootSpec("toolbox", "{amp_toolbox}", origin="user"),
        # `...(settings["skills.path"] || [])`: Amp's own settings file first (reading: the file is
        # ~/.config/amp/settings.json and the key "amp.skills.path", as Amp's other settings are
        # named; "skills.path" is accepted too), then skill-ls's `[amp] skills_path`.
        RootSpec("skills_path", "{home}/.config/amp/settings.json", origin="user", ordered=True,
                 json_keys=("amp.skills.path", "skills.path")),
        RootSpec("skills_path", "{config:amp_skills_path}", origin="config", ordered=True),
    ),
    fields=AMP_FIELDS,
    name_rule=NameRule(None, "", 64, None, "frontmatter"),
    settings={"skills_path": Setting("amp_skills_path", "paths")},
    home_dirs=(HomeDir("amp_toolbox", "AMP_TOOLBOX", ".config/amp/tools"),),
    default_extra_tier="skills_path",
    conflict="precedence",  # the first location (root order, then directory name) wins
    yaml_dialect="1.2",  # `yaml.parse` of the JavaScript `yaml` package: YAML 1.2, core schema
    file_shape=AMP_FILE_SHAPE, truthiness="javascript",
    tool_dirs=("toolbox",),  # "toolbox/  # Optional: auto-registered tools"
    # `loadSkill` returns `skill.content` as read: no shell injection (https://decodeclaude.com/amp-code-spec/enhancements/16-skills/).
    vocabulary=Vocabulary(executes_shell_lines=False),
    catalog_format="amp_xml", catalog_order="discovery", escapes_catalog=False,
    catalog_hides=(("disable-model-invocation", True),),
    mcp_merge="skill_sidecars",  # each skill's bundled mcp.json
    # "Five skills are always available" (Built-in Skills): resolved last ("Built-in skills have
    # lowest priority") and listed by `formatAvailableSkills` like any other; their descriptions are
    # not documented, so the catalog shows the documented purpose, marked as such.
    builtin_skills=tuple(BuiltinSkill(name, purpose, source=AMP_BUILTIN_SOURCE) for name, purpose in (
        ("building-skills", "Guide for creating new skills"),
        ("bookkeeper", "Summarizes threads for handoff"),
        ("painter", "Image generation guidance"),
        ("code-review", "Automated code review"),
        ("migrating-to-skills", "Migrating from toolbox"),
    )),
    file_limits={"files": 100, "file_bytes": 512 * 1024, "skill_bytes": 2 * 1024 * 1024},
)
