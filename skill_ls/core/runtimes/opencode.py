"""OpenCode: `.opencode/skills`, `.claude/skills` and `.agents/skills` from the current directory up to
the git worktree, and `~/.config/opencode/skills`, `~/.claude/skills`, `~/.agents/skills`; only
`name`, `description`, `license`, `compatibility` and `metadata` are read; a strict name rule.

Source (read 2026-11): https://opencode.ai/docs/skills (the page of the `skill` tool and its
`<available_skills>` list; its text is in anomalyco/opencode
`packages/web/src/content/docs/skills.mdx`); docs/fidelity.md quotes it. The load order "global
home → project (walking up to the worktree) → configured `paths`", the last copy loaded winning,
gives the tiers; within the project tier `.opencode/skills` is loaded after the compatibility
directories (OpenCode's `skill.ts` scans them last) and, walking up, the outermost directory last.
The page of the next major version, https://opencode.ai/v2/docs/skills, is not modelled yet (it reads
Markdown files at a source's root and treats `name` as a display name): docs/fidelity.md says why.
"""
from __future__ import annotations

from skill_ls.core.runtimes.spec import DESCRIPTION_DOC, STANDARD_FIELDS, STANDARD_NAME, FieldSpec, NameRule, OwnSettings, \
    RootSpec, Runtime

OPENCODE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "The skill's identifier: 1-64 lowercase letters and digits with single hyphens, equal "
                      "to its directory name (OpenCode refuses anything else).", required=True, max_len=64,
                      min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " 1-1024 characters.", required=True, max_len=1024, min_len=1),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "metadata": FieldSpec("str_map", "A string-to-string map."),
}

# "OpenCode supports both **JSON** and **JSONC** (JSON with Comments) formats"; the project config is
# looked for "in the current directory or traverse up to the nearest Git directory" (reading: every
# level from the worktree's root down to the workspace, the nearer one loaded later, `opencode.jsonc`
# before `opencode.json` in one directory). https://opencode.ai/docs/config
GLOBAL_CONFIGS = ("{home}/.config/opencode/opencode.jsonc", "{home}/.config/opencode/opencode.json")
PROJECT_CONFIGS = ("{repo_chain}/opencode.jsonc", "{repo_chain}/opencode.json")

OPENCODE = Runtime(
    id="opencode", title="OpenCode",
    tiers=("global", "project", "paths"),
    roots=(
        # `skills.paths` of opencode.json ("resolved relative to the config file location"): the
        # project's, nearest first, then the global one (reading: the project file's paths are loaded
        # last; of one directory's two files, `opencode.json` is loaded after `opencode.jsonc`).
        *(RootSpec("paths", t.replace("{repo_chain}", "{ancestors}"), ordered=True, json_keys=("skills.paths",),
                   json_base="file", jsonc=True) for t in reversed(PROJECT_CONFIGS)),
        *(RootSpec("paths", t, origin="user", ordered=True, json_keys=("skills.paths",), json_base="file", jsonc=True)
          for t in reversed(GLOBAL_CONFIGS)),
        # Walking up from the workspace to the worktree, the directory loaded last (the outermost)
        # wins; `.opencode/skills` is loaded after `.agents/skills` and `.claude/skills`.
        RootSpec("project", "{repo_chain}/.opencode/skills", ordered=True),
        RootSpec("project", "{repo_chain}/.agents/skills", ordered=True, activates=False),
        RootSpec("project", "{repo_chain}/.claude/skills", ordered=True, guest_of="claude-code", activates=False),
        RootSpec("global", "{home}/.config/opencode/skills", origin="user", ordered=True),
        RootSpec("global", "{home}/.agents/skills", origin="user", ordered=True, activates=False),
        RootSpec("global", "{home}/.claude/skills", origin="user", ordered=True, guest_of="claude-code", activates=False),
    ),
    fields=OPENCODE_FIELDS,
    # "`name` must: Be 1–64 characters; Be lowercase alphanumeric with single hyphen separators; ...
    # Match the directory name that contains `SKILL.md`": a copy that breaks it is not loaded.
    name_rule=NameRule(STANDARD_NAME, "^[a-z0-9]+(-[a-z0-9]+)*$", 64, "error", "frontmatter", refuses=True),
    default_extra_tier="paths",
    # "Unknown frontmatter fields are ignored.": a note, not a warning.
    unknown_field_severity="information",
    # "Control which skills agents can access using pattern-based permissions in `opencode.json`":
    # "`deny`: Skill hidden from agent, access rejected", "`ask`: User prompted for approval before
    # loading"; "You can set permissions globally (with `*`)" and "set all permissions at once"
    # (https://opencode.ai/docs/permissions); per agent in opencode.json's `agent.<name>` or the
    # agent's Markdown frontmatter ("Agent permissions are merged with the global config, and agent
    # rules take precedence"; "The markdown file name becomes the agent name",
    # https://opencode.ai/docs/agents), where `tools: skill: false` leaves the agent no skills.
    own_settings=OwnSettings((*GLOBAL_CONFIGS, *PROJECT_CONFIGS), "jsonc",
                             permissions=("permission", "skill"), ask_value="ask", permission_wildcards=True,
                             agents=("agent",),
                             agent_files=("{home}/.config/opencode/agent", "{home}/.config/opencode/agents",
                                          "{repo_chain}/.opencode/agent", "{repo_chain}/.opencode/agents"),
                             agent_switch=("tools", "skill"),
                             # "OpenCode comes with two built-in primary agents, Build and Plan" and the
                             # General and Explore subagents (https://opencode.ai/docs/agents; a later
                             # text adds Scout, not listed here until the page the descriptor cites does).
                             builtin_agents=("build", "explore", "general", "plan"),
                             # "Remote `urls` must serve an `index.json` listing available skills and
                             # their files. OpenCode fetches the index and downloads matching skills to
                             # a local cache", loaded last ("configured `paths` → configured `urls`").
                             remote=("skills", "urls")),
    catalog_format="opencode_xml", catalog_order="discovery", escapes_catalog=False,
    # "The agent loads a skill by calling the tool: skill({ name: \"git-release\" })"
    skill_tool="opencode_skill",
)
