"""The shape of a runtime descriptor: fields, roots, name rules, and the standard's shared fields.

Every runtime module in this package builds one `Runtime` from these types; nothing else in skill-ls
decides precedence, fields or limits.
"""
from __future__ import annotations

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
    # The runtime whose directory this root borrows (Amp reads `.claude/skills`): a key that runtime
    # knows is expected there, so a guest that ignores it reports nothing (SK007, PT001).
    guest_of: str | None = None


@dataclass(frozen=True)
class Vocabulary:
    """Values a runtime accepts inside fields, for value checks (rules/claude_code.py, rules/subagents.py).

    Empty tuples mean "not checked" for that runtime. Each module that fills one cites its source."""

    model_aliases: tuple[str, ...] = ()
    model_id_patterns: tuple[re.Pattern[str], ...] = ()
    builtin_tools: tuple[str, ...] = ()
    builtin_agents: tuple[str, ...] = ()
    hook_events: tuple[str, ...] = ()
    hook_types: dict[str, str | None] = field(default_factory=dict)  # handler type -> its required field
    permission_modes: tuple[str, ...] = ()
    agent_colors: tuple[str, ...] = ()
    agent_isolation: tuple[str, ...] = ()
    # Body substitution (SPEC §3.4): `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` and named `$arg` are replaced
    # everywhere in the body, code blocks included.
    substitutes_arguments: bool = False
    executes_shell_lines: bool = False  # `!`cmd`` lines run before the model reads the skill
    skill_dir_variables: tuple[str, ...] = ()  # templated paths resolved to the skill directory
    listing_budget: int | None = None  # characters of the whole skill listing
    listing_entry_overhead: int = 0  # characters each entry costs beyond its text


@dataclass(frozen=True)
class NameRule:
    pattern: re.Pattern[str] | None
    pattern_text: str
    max_len: int | None
    dir_match: str | None  # "error" | "warning" | None
    source: str  # frontmatter | directory | frontmatter_or_directory


@dataclass(frozen=True)
class FileShape:
    """The exact text shape a runtime's own SKILL.md parser accepts, where it is stricter than SPEC
    §2.1. `pattern` is matched against the decoded file (a BOM kept as U+FEFF, line endings as
    written); group 1 is the frontmatter, group 2 the body; an empty group is refused like a miss."""

    pattern: re.Pattern[str]
    source: str  # the runtime's code or page that the pattern is copied from


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
    yaml_dialect: str = "1.1"  # "1.1": PyYAML-like readers; "1.2": the core schema (JavaScript `yaml`)
    file_shape: FileShape | None = None  # None: SPEC §2.1's tolerant split is what the runtime accepts
    builtin_names: tuple[str, ...] = ()
    file_limits: dict[str, int] = field(default_factory=dict)
    active_by_config_only: bool = False
    vocabulary: Vocabulary = field(default_factory=Vocabulary)

    def tier_names(self) -> tuple[str, ...]:
        return self.tiers

    def rank(self, tier: str) -> int:
        return self.tiers.index(tier)

    @property
    def required_fields(self) -> tuple[str, ...]:
        return tuple(k for k, f in self.fields.items() if f.required)


STANDARD_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
WORKSPACE_AGENTS_NAME = re.compile(r"^[A-Za-z0-9_-]+$")

DESCRIPTION_DOC = "What the skill does and when to use it; the text agents see in the catalog."
NAME_DOC = "The skill's identifier."

STANDARD_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", NAME_DOC + " 1-64 lowercase letters, digits and single hyphens; equals the directory name.",
                      required=True, max_len=64, min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " 1-1024 characters.", required=True, max_len=1024, min_len=1),
    "license": FieldSpec("str", "License name or the path of a bundled license file."),
    "compatibility": FieldSpec("str", "Environment requirements (products, packages, network). 1-500 characters.",
                               max_len=500, min_len=1),
    "metadata": FieldSpec("str_map", "Arbitrary string-to-string metadata for clients."),
    "allowed-tools": FieldSpec("str_or_list", "Space-separated tools the skill may use without asking (experimental)."),
}
