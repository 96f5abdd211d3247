"""The runtimes of SPEC §3 as data: roots, tiers, precedence, scan limits, fields and name rules.

Nothing outside this module branches on a runtime's id to decide precedence or field rules; code asks
the `Runtime` value. Root templates are expanded by `skill_ls.core.discovery`.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

# Field kinds: str, bool, int, number, scalar (str/number), str_list, str_or_list, map, str_map,
# list, list_of_maps, any
@dataclass(frozen=True)
class FieldSpec:
    kind: str = "str"
    doc: str = ""
    required: bool = False
    enum: tuple[str, ...] = ()
    max_len: int | None = None
    min_len: int | None = None


@dataclass(frozen=True)
class RootSpec:
    """A family of directories a runtime scans. `template` placeholders:
    {workspace}, {home}, {agh_home}, {codex_home}, {amp_toolbox}, {ancestors} (workspace and each
    parent up to the repository root, nearest first), {repo_chain} (repository root down to the
    workspace), and {config:NAME} (each path of a Config attribute)."""

    tier: str
    template: str
    origin: str = "workspace"  # workspace | user | system | config
    ordered: bool = False  # several expanded dirs: the earlier one wins (else: same tier, ambiguous)


@dataclass(frozen=True)
class NameRule:
    pattern: re.Pattern | None
    pattern_text: str
    max_len: int | None
    dir_match: str | None  # "error" | "warning" | None
    source: str  # frontmatter | directory | frontmatter_or_directory


@dataclass(frozen=True)
class Runtime:
    id: str
    title: str
    tiers: tuple[str, ...]  # lowest precedence first
    roots: tuple[RootSpec, ...]
    fields: dict[str, FieldSpec]
    name_rule: NameRule
    conflict: str = "precedence"  # precedence | load_both | unique
    scan_depth: int | None = None
    scan_cap: int | None = None
    unknown_field_severity: str = "warning"  # warning | information
    catalog_format: str = "reference"
    catalog_cut: int | None = None
    escapes_catalog: bool = True
    needs_lf: bool = False
    builtin_names: tuple[str, ...] = ()
    file_limits: dict[str, int] = field(default_factory=dict)
    active_by_config_only: bool = False

    def tier_names(self) -> tuple[str, ...]:
        return self.tiers

    def rank(self, tier: str) -> int:
        return self.tiers.index(tier)

    @property
    def required_fields(self) -> tuple[str, ...]:
        return tuple(k for k, f in self.fields.items() if f.required)


_STD_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_WA_NAME = re.compile(r"^[A-Za-z0-9_-]+$")

_DESC = "What the skill does and when to use it; the text agents see in the catalog."
_NAME = "The skill's identifier."

STANDARD_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", _NAME + " 1-64 lowercase letters, digits and single hyphens; equals the directory name.",
                      required=True, max_len=64, min_len=1),
    "description": FieldSpec("str", _DESC + " 1-1024 characters.", required=True, max_len=1024, min_len=1),
    "license": FieldSpec("str", "License name or the path of a bundled license file."),
    "compatibility": FieldSpec("str", "Environment requirements (products, packages, network). 1-500 characters.",
                               max_len=500, min_len=1),
    "metadata": FieldSpec("str_map", "Arbitrary string-to-string metadata for clients."),
    "allowed-tools": FieldSpec("str_or_list", "Space-separated tools the skill may use without asking (experimental)."),
}

AGH_SKILL_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", _NAME + " The catalog key; the highest tier with this name wins.", required=True, min_len=1),
    "description": FieldSpec("str", _DESC + " Cut to 200 code points in AGH's catalog.", required=True, min_len=1),
    "version": FieldSpec("scalar", "Skill version (AGH shows it in list/detail payloads)."),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "metadata": FieldSpec("map", "Metadata; `metadata.agh.mcp_servers` declares MCP servers for AGH."),
    "allowed-tools": STANDARD_FIELDS["allowed-tools"],
}

AMP_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", _NAME + " Unique; the first location with this name wins.", required=True,
                      max_len=64, min_len=1),
    "description": FieldSpec("str", _DESC + " Amp prints it unescaped.", required=True, max_len=1024, min_len=1),
    "isolatedContext": FieldSpec("bool", "Run the skill in an isolated context."),
    "disable-model-invocation": FieldSpec("bool", "Hide the skill from the model's catalog (user invocation only)."),
    "argument-hint": FieldSpec("str", "Hint for arguments (Amp computes it but does not print it)."),
    "builtin-tools": FieldSpec("str_list", "Built-in tools the skill needs."),
}

CLAUDE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Display label (lowercase letters, digits, hyphens); the command name is the directory name.",
                      max_len=64),
    "description": FieldSpec("str", _DESC + " description + when_to_use are cut at 1,536 characters in the listing."),
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

CODEX_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", _NAME + " Optional; defaults to the directory name.", max_len=64),
    "description": FieldSpec("str", _DESC, required=True, max_len=1024, min_len=1),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "metadata": FieldSpec("map", "Arbitrary metadata."),
    "allowed-tools": STANDARD_FIELDS["allowed-tools"],
}

AGENTCY_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Display name of the skill row.", required=True, min_len=1),
    "slug": FieldSpec("str", "Unique per organisation; convention `team.purpose`."),
    "description": FieldSpec("str", _DESC, required=True),
    "version": FieldSpec("scalar", "Skill version."),
    "author": FieldSpec("str", "Author."),
    "tags": FieldSpec("str_list", "Tags for search."),
}

WORKSPACE_AGENTS_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Skill name; defaults to the directory name (letters, digits, '-', '_')."),
    "description": FieldSpec("str", "Shown in the agent's skill list; defaults to empty."),
    "argument-hint": FieldSpec("str", "Shown after the name in the skill list."),
    "user-invocable": FieldSpec("bool", "Whether users may invoke the skill directly (default true)."),
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
    name_rule=NameRule(_STD_NAME, "lowercase letters, digits and single hyphens", 64, "warning", "frontmatter"),
    scan_depth=4, scan_cap=300, catalog_format="agh", catalog_cut=200,
)

AGENTSKILLS = Runtime(
    id="agentskills", title="Agent Skills standard",
    tiers=("user", "workspace"),
    roots=(
        RootSpec("user", "{home}/.agents/skills", origin="user"),
        RootSpec("workspace", "{workspace}/.agents/skills"),
    ),
    fields=STANDARD_FIELDS,
    name_rule=NameRule(_STD_NAME, "lowercase letters, digits and single hyphens", 64, "error", "frontmatter"),
)

AMP = Runtime(
    id="amp", title="Amp",
    tiers=("builtin", "skills_path", "toolbox", "claude_plugins", "user_claude", "workspace_claude",
           "user_amp", "user_agents", "workspace_agents"),
    roots=(
        RootSpec("workspace_agents", "{workspace}/.agents/skills"),
        RootSpec("user_agents", "{home}/.config/agents/skills", origin="user"),
        RootSpec("user_amp", "{home}/.config/amp/skills", origin="user"),
        RootSpec("workspace_claude", "{workspace}/.claude/skills"),
        RootSpec("user_claude", "{home}/.claude/skills", origin="user"),
        RootSpec("claude_plugins", "{home}/.claude/plugins/cache", origin="user"),
        RootSpec("toolbox", "{amp_toolbox}", origin="user"),
        RootSpec("skills_path", "{config:amp_skills_path}", origin="config", ordered=True),
    ),
    fields=AMP_FIELDS,
    name_rule=NameRule(None, "", 64, None, "frontmatter"),
    catalog_format="amp", escapes_catalog=False, needs_lf=True,
    builtin_names=("building-skills", "bookkeeper", "painter", "code-review", "migrating-to-skills"),
    file_limits={"files": 100, "file_bytes": 512 * 1024, "skill_bytes": 2 * 1024 * 1024},
)

CLAUDE_CODE = Runtime(
    id="claude-code", title="Claude Code",
    tiers=("project", "personal", "enterprise"),
    roots=(
        RootSpec("enterprise", "{config:claude_enterprise_roots}", origin="config"),
        RootSpec("personal", "{home}/.claude/skills", origin="user"),
        RootSpec("project", "{ancestors}/.claude/skills", ordered=True),
    ),
    fields=CLAUDE_FIELDS,
    name_rule=NameRule(_STD_NAME, "lowercase letters, digits and hyphens", 64, "warning", "directory"),
    catalog_cut=1536,
)

CODEX = Runtime(
    id="codex", title="Codex",
    tiers=("system", "admin", "user_legacy", "user", "project", "repo"),
    roots=(
        RootSpec("repo", "{repo_chain}/.agents/skills"),
        RootSpec("project", "{workspace}/.codex/skills"),
        RootSpec("user", "{home}/.agents/skills", origin="user"),
        RootSpec("user_legacy", "{codex_home}/skills", origin="user"),
        RootSpec("system", "{codex_home}/skills/.system", origin="user"),
        RootSpec("admin", "/etc/codex/skills", origin="system"),
    ),
    fields=CODEX_FIELDS,
    name_rule=NameRule(None, "", 64, None, "frontmatter_or_directory"),
    conflict="load_both", scan_depth=6, unknown_field_severity="information",
)

AGENTCY = Runtime(
    id="agentcy", title="Agentcy",
    tiers=("configured",),
    roots=(),
    fields=AGENTCY_FIELDS,
    name_rule=NameRule(None, "", None, None, "frontmatter"),
    conflict="unique", catalog_format="agentcy", active_by_config_only=True,
)

WORKSPACE_AGENTS = Runtime(
    id="workspace-agents", title="workspace agents",
    tiers=("workspace",),
    roots=(RootSpec("workspace", "{workspace}/workspace/agents/skills"),),
    fields=WORKSPACE_AGENTS_FIELDS,
    name_rule=NameRule(_WA_NAME, "letters, digits, '-' and '_'", None, "warning", "frontmatter_or_directory"),
    catalog_format="workspace-agents",
)

RUNTIMES: dict[str, Runtime] = {r.id: r for r in (AGH, AGENTSKILLS, AMP, CLAUDE_CODE, CODEX, AGENTCY, WORKSPACE_AGENTS)}

# SPEC §8: the default runtime for catalog/where/list when several are active.
DEFAULT_ORDER = ("agh", "claude-code", "codex", "amp", "agentskills", "workspace-agents", "agentcy")


def default_runtime(active: list[str] | tuple[str, ...]) -> str:
    for rid in DEFAULT_ORDER:
        if rid in active:
            return rid
    return "agentskills"


@functools.lru_cache(maxsize=1)
def all_known_fields() -> dict[str, list[str]]:
    """Field name -> runtimes that accept it (for hover and did-you-mean)."""
    out: dict[str, list[str]] = {}
    for rt in RUNTIMES.values():
        for key in rt.fields:
            out.setdefault(key, []).append(rt.id)
    return out
