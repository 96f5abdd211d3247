"""The shape of a runtime descriptor: roots, tiers, precedence, agent scoping, catalog, fields, names,
limits, MCP, and the standard's shared fields.

Every runtime module in this package builds one `Runtime` from these types; nothing else in skill-ls
decides precedence, fields, limits or catalog layout per runtime: code asks the descriptor.

Descriptors are constants (`@descriptor`): frozen to the type checker, and compared (and hashed) by
identity, as the agent families' are: each value is made once, in its runtime's module, and comparing
two runtimes' tables field by field is never a question anyone asks (nor the ~1 ms of every start
that generating those comparisons costs).
"""
from __future__ import annotations

import functools

import re
from typing import Any, Literal, TypeVar, dataclass_transform

from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass, field

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(field,))
def descriptor(cls: type[_T]) -> type[_T]:
    """A descriptor type: `@dataclass(frozen=True, eq=False)` (`core/records.py`: frozen to the type
    checker, which rejects every assignment to a field, not at run time; one shared `__init__`, not a
    compiled one per type), for values only ever built, in their modules, and read."""
    return dataclass(frozen=True, eq=False, shared_init=True)(cls)


# Field kinds: str, bool, int, number, scalar (str/number), str_list, str_or_list, map, str_map,
# list, list_of_maps, any
FieldKind = Literal["str", "bool", "int", "number", "scalar", "str_list", "str_or_list", "map", "str_map", "list",
                    "list_of_maps", "any"]
Origin = Literal["workspace", "user", "system", "config"]
Conflict = Literal["precedence", "load_both", "unique"]
CatalogOrder = Literal["name", "discovery"]
SkillsList = Literal["none", "filter", "ordered"]
McpMerge = Literal["none", "agh_layers", "skill_sidecars"]
YamlDialect = Literal["1.1", "1.2"]
IdentityKey = Literal["name", "slug"]
Truthiness = Literal["strict", "javascript", "words"]
NameSource = Literal["frontmatter", "directory", "frontmatter_or_directory"]
SettingKind = Literal["path", "paths", "str", "strs", "int", "fraction", "draft", "roots"]


@descriptor
class FieldSpec:
    """One frontmatter field as one runtime reads it. Which runtimes accept a field is the set of
    descriptors whose `fields` hold it (`all_known_fields()`)."""

    kind: FieldKind = "str"
    doc: str = ""
    required: bool = False
    enum: tuple[str, ...] = ()
    max_len: int | None = None
    min_len: int | None = None
    # A field the runtime loads without but works worse: what is lost when it is missing or empty
    # (reported by SK005 as a warning instead of "will not load").
    recommended: str | None = None
    # The attribute of the runtime's `Vocabulary` whose values completion offers for this field
    # (`model_aliases`): values the rules accept without being a closed enum.
    suggest: str | None = None


@descriptor
class RootLink:
    """A JSON file beside each expanded root that can move the root elsewhere (Gemini CLI's
    `gemini extensions link <path>`: `~/.gemini/extensions/<name>/.gemini-extension-install.json`
    holding `{"source": "<path>", "type": "link"}`; the extension, its manifest and its `skills/` are
    read from `<path>`). `file` is relative to the expanded root; when the file's `kind[0]` key holds
    `kind[1]`, the folder holding the file is replaced by the folder its `source` key names (relative:
    from the workspace, where the runtime runs), so `<ext>/skills` becomes `<source>/skills`; such a
    file whose `source` is not a string makes the root unreadable (dropped). The marker, the
    enablement file and `marker_unique` then read the moved root."""

    file: str
    kind: tuple[str, str]
    source: str


@descriptor
class RootSpec:
    """A family of directories a runtime scans. `template` placeholders (a settings file's template may
    also be `{env:NAME=default path}`: the variable's value, else the default):
    {workspace}, {home}, {agh_home}, {codex_home}, {amp_toolbox}, {ancestors} (workspace and each
    parent up to the repository root, nearest first), {repo_chain} (repository root down to the
    workspace), and {config:NAME} (each path of a Config attribute). A path segment `*` stands for
    every directory at that place, in name order (Gemini CLI: `{home}/.gemini/extensions/*/skills`);
    a segment `**` for every directory below that place at any depth, the place itself excluded,
    hidden directories (and the ones no walk enters) neither matched nor entered (Cursor:
    `{workspace}/**/.cursor/skills`, the skill folders nested in a repository's subdirectories).
    `title` names the root for people where the template alone does not (an extension's skills)."""

    tier: str
    template: str
    origin: Origin = "workspace"
    ordered: bool = False  # several expanded dirs: the earlier one wins (else: same tier, ambiguous)
    # With `ordered`: the later expanded dir wins instead (Gemini CLI loads the folders of
    # `~/.gemini/extensions` in name order, and a skill added later overrides one of its name
    # added before: `SkillManager.addSkillsWithPrecedence`).
    last_wins: bool = False
    # The runtime whose directory this root borrows (Amp reads `.claude/skills`): a key that runtime
    # knows is expected there, so a guest that ignores it reports nothing (SK007, PT001).
    guest_of: str | None = None
    # The template names a JSON settings file of the runtime's own; the roots are the paths listed
    # under the first of these keys it has (Amp: `~/.config/amp/settings.json`, "amp.skills.path").
    json_keys: tuple[str, ...] = ()
    json_base: Literal["workspace", "file"] = "workspace"  # what a relative path in that file is relative to
    jsonc: bool = False  # that file is JSON with comments and trailing commas (OpenCode's config)
    # Which of the listed paths this root takes: "all", "home" (only `~/…` ones) or "workspace" (the
    # others): VS Code's `chat.agentSkillsLocations` lists project and personal locations together.
    json_scope: Literal["all", "home", "workspace"] = "all"
    json_lists: bool = True  # a list under the key lists paths (VS Code reads only the map form)
    # A second settings file (template) whose map under the same key is merged over this file's,
    # entry by entry (VS Code merges an object setting across scopes: the workspace's
    # `.vscode/settings.json` entries over the user's `settings.json`).
    json_merge: str = ""
    # (settings file templates, lowest precedence first; key): the root is not read when the last of
    # those JSON (with comments) files that maps the root's own location, as the runtime writes it
    # (`.claude/skills`, `~/.copilot/skills`), maps it to false (VS Code:
    # `"chat.agentSkillsLocations": {".claude/skills": false}` in the user or workspace settings).
    json_switch: tuple[tuple[str, ...], str] | None = None
    # A file that must exist, relative to each expanded root, for the runtime to read it (Gemini CLI:
    # an extension is "a directory that contains a `gemini-extension.json` file": `../gemini-extension.json`).
    marker: str = ""
    # What the runtime requires of that (JSON) marker file, or it skips the root: the keys whose
    # values must be truthy as JavaScript reads them, and the pattern its `name` (as a JavaScript
    # string) must match (Gemini CLI's `loadExtensionConfig`: `if (!rawConfig.name ||
    # !rawConfig.version) throw`, `validateName`: `^[a-zA-Z0-9-]+$`; a file that is not JSON throws
    # too; `loadExtension` then logs "Skipping extension in …"). A root whose marker fails is kept,
    # unread (`RootDir.unused`: its skills "not discovered", with what is wrong in the file).
    marker_required: tuple[str, ...] = ()
    marker_name_pattern: str = ""
    # A JSON file (template) that turns such a root off for some folders, keyed by the `name` its
    # marker file holds: `{"<name>": {"overrides": ["!/home/me/*", "/home/me/work/"]}}` (Gemini CLI's
    # `~/.gemini/extensions/extension-enablement.json`, written by `gemini extensions disable|enable
    # [--scope]`): a rule starting with `!` disables, one ending in `*` also covers the folders below,
    # the last rule matching the workspace wins, no rule: enabled. A root turned off is kept, unread
    # (`RootDir.unused`: its skills are "not discovered", and `where`/hover say which rule).
    enablement: str = ""
    # Expanded roots whose marker files hold the same `name`: only the first (in expansion order) is
    # read, the others are kept unread (`RootDir.unused`, "not discovered" with the reason): Gemini
    # CLI loads the folders of `~/.gemini/extensions` in name order and skips an extension whose
    # name "already was loaded" (a disabled one included).
    marker_unique: bool = False
    # A file that moves each expanded root elsewhere (`RootLink`: a linked Gemini CLI extension).
    link: RootLink | None = None
    title: str = ""
    # Whether this directory existing makes the runtime active (`runtimes = ["auto"]`). A directory
    # the runtime reads for compatibility (Cursor's `.claude/skills`, Copilot's `.agents/skills`)
    # belongs to another runtime or to the standard and says nothing about this one being used.
    activates: bool = True
    # The skills of each expanded directory serve only the files below the directory the `**`
    # segment matched (Cursor: `apps/web/.cursor/skills` is "only surfaced when the agent works with
    # files under `apps/web/`"): such a copy takes part in precedence only there (`core.resolve`), and
    # `where`, hover and code lens say so.
    scoped: bool = False


@descriptor
class OwnSettings:
    """The runtime's own settings files, read (never written) for what turns skills off: `files` are
    templates (as `RootSpec.template`), lowest precedence first; `format` "toml" or "json"; `switch`
    the key path of a boolean whose `false` turns the whole skill system off (AGH `skills.enabled` in
    `$AGH_HOME/config.toml`, Gemini CLI `skills.enabled` in `settings.json`), `switch_effect` what
    that costs; `disabled` the key path of a list of skill names the user disabled (Gemini CLI
    `skills.disabled`: every file's list counts); `permissions` a map of name patterns to
    permissions (OpenCode's `permission.skill`)."""

    files: tuple[str, ...]
    format: Literal["toml", "json", "jsonc"]  # jsonc: comments and trailing commas allowed
    switch: tuple[str, ...] | None = None
    switch_effect: str = "no catalog"
    disabled: tuple[str, ...] | None = None
    # The key path of a map from name patterns (`*` wildcards) to an action; a name whose last
    # matching pattern (files in order, keys in order) maps to `denied_value` is disabled (OpenCode's
    # `permission.skill`: `"internal-*": "deny"` hides those skills from the agent).
    permissions: tuple[str, ...] | None = None
    denied_value: str = "deny"
    # The value that keeps a skill listed but asks the user before it loads (OpenCode `"ask"`: "User
    # prompted for approval before loading"): `where` and hover say so.
    ask_value: str | None = None
    # The parent of `permissions` may hold rules for every permission: a string (`"permission":
    # "deny"`) or a `"*"` key (`"permission": {"*": "ask"}`), in key order with the specific map
    # (OpenCode: "You can set permissions globally (with `*`), and override specific tools").
    permission_wildcards: bool = False
    # Per-agent overrides: `agents` is the key path of a map agent name -> agent settings in each
    # settings file (OpenCode `agent`); `agent_files` templates of directories whose `<agent>.md`
    # files hold the same settings in their frontmatter (the file name is the agent's name). An
    # agent's `permissions` rules come after the files' rules ("agent rules take precedence"); its
    # `agent_switch` (a key path inside the agent's settings) set to `false` leaves it no skills.
    agents: tuple[str, ...] | None = None
    agent_files: tuple[str, ...] = ()
    agent_switch: tuple[str, ...] | None = None
    builtin_agents: tuple[str, ...] = ()  # agents that exist without any settings (OpenCode `build`, `plan`)
    # The key path of a list of URLs whose skills the runtime downloads and loads after every local
    # copy (OpenCode's `skills.urls`: "OpenCode fetches the index and downloads matching skills").
    # skill-ls opens no network connection: `where`, hover and the catalog name each URL as not
    # checked, and say that a remote skill of a name would win over the local copies.
    remote: tuple[str, ...] | None = None


@descriptor
class FolderTrust:
    """Whether the runtime trusts the workspace folder, and what it leaves unread where it does not
    (Gemini CLI's Trusted Folders: `security.folderTrust.enabled` in its settings, the decisions in
    `~/.gemini/trustedFolders.json`; an untrusted folder's `.gemini/skills` and `.agents/skills` are
    not loaded, nor its `.gemini/settings.json`).

    Trust is checked only when the last of `switch_files` (templates as `RootSpec.template`, lowest
    precedence first; the workspace's own settings never decide it) that sets the boolean at key path
    `switch` sets it true (`default` where none does). Then `file` (a JSON object, comments allowed,
    mapping a folder path to a level) decides as Gemini CLI's `isPathTrusted` does: of the rules whose
    folder holds the workspace (both as real paths; a `parent_levels` rule's folder is its path's
    parent), the one with the longest path wins; its level is in `trusted_levels` or `parent_levels`
    (trusted) or not (untrusted); no rule: undecided, which the runtime treats as untrusted (it asks
    at start). A file that is not such an object, or holds another level, stops the runtime at start
    (`file_fatal`). Where the folder is not trusted, the roots whose `origin` is in `origins` are kept
    unread (`RootDir.unused`, with the file and rule that decide it) and the `OwnSettings` files of
    `ignored_settings` are not read."""

    switch: tuple[str, ...]
    switch_files: tuple[str, ...]
    file: str
    trusted_levels: tuple[str, ...]
    parent_levels: tuple[str, ...]
    untrusted_levels: tuple[str, ...]
    default: bool = False
    switch_format: Literal["json", "jsonc"] = "json"
    origins: tuple[str, ...] = ("workspace",)
    ignored_settings: tuple[str, ...] = ()
    effect: str = "the workspace's skills are not loaded"  # what a folder not trusted costs, for people
    undecided: str = "asked at start"  # what the runtime does in a folder no rule covers, for people
    file_fatal: str = "the runtime does not start"  # what a file it cannot read does, for people


@descriptor
class Vocabulary:
    """Values a runtime accepts inside fields, for value checks (rules/claude_code.py, rules/subagents.py).

    Empty tuples mean "not checked" for that runtime. Each module that fills one cites its source."""

    model_aliases: tuple[str, ...] = ()
    model_id_patterns: tuple[re.Pattern[str], ...] = ()
    builtin_tools: tuple[str, ...] = ()
    builtin_agents: tuple[str, ...] = ()
    hook_events: tuple[str, ...] = ()
    hook_types: dict[str, tuple[str, ...]] = field(default_factory=dict)  # handler type -> its required fields
    permission_modes: tuple[str, ...] = ()
    agent_colors: tuple[str, ...] = ()
    agent_isolation: tuple[str, ...] = ()
    # Body substitution: `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` and named `$arg` are replaced
    # everywhere in the body, code blocks included.
    substitutes_arguments: bool = False
    # When the substitution happens, in the runtime's own words (CC007's message): "when Claude Code
    # runs the skill with arguments", "when an agent calls skill_use with arguments". Indices are 0-based
    # in both ("$ARGUMENTS[N] / $N ... (0-based)").
    substitution_event: str = ""
    # `!`cmd`` lines run before the model reads the skill: True, False, or None (not established from the
    # runtime's sources yet: RF003 still warns, conservatively).
    executes_shell_lines: bool | None = None
    skill_dir_variables: tuple[str, ...] = ()  # templated paths resolved to the skill directory
    # The tool the agent reads a skill's supporting files with, when it refuses paths outside the skill
    # directory (workspace agents: `skill_read_file`, "traversal attempts are blocked"): a `..` link
    # never works there, even inside one repository (RF002 stays an error).
    confined_read_tool: str | None = None
    listing_budget: int | None = None  # characters of the whole skill listing (the default, see below)
    # past the budget: drop (skills fall out, in order) | names_only (Claude Code: skills keep their name
    # and lose their description, the least invoked first; `analysis/listing.py`)
    listing_overflow: str = "drop"
    # Where a budget sized from the model's context comes from (Claude Code): the budget is
    # floor(context tokens x characters per token x fraction), unless `listing_budget_env` holds a
    # positive number of characters; `listing_settings` names the runtime's own settings keys for the
    # fraction and the per-entry description cap, read from `listing_settings_files` (later files win).
    listing_context_tokens: int | None = None
    listing_chars_per_token: int = 4
    listing_budget_fraction: float | None = None
    listing_budget_env: str | None = None
    listing_description_cap: int | None = None
    listing_settings: tuple[str, str] | None = None  # (fraction key, description cap key)
    listing_settings_files: tuple[str, ...] = ()  # templates: {home}, {workspace}
    # Directories of command files the listing holds beside the skills (Claude Code: `.claude/commands`
    # of the workspace and its ancestors, `~/.claude/commands`; templates as `RootSpec.template`): each
    # `**/*.md` below is an entry named by its path (`frontend/review.md` is `frontend:review`).
    listing_command_dirs: tuple[str, ...] = ()


@descriptor
class HomeDir:
    """A directory a runtime finds through the environment: `$<env_var>`, else `$HOME/<default>`; a
    non-empty Config attribute `setting` overrides both. `placeholder` names the `Environment`
    attribute and the root template placeholder (`{agh_home}`) that hold it."""

    placeholder: str
    env_var: str
    default: str  # relative to $HOME, '/'-separated
    setting: str | None = None


@descriptor
class NameRule:
    """What a runtime accepts as a skill name, and where it takes the name from."""

    pattern: re.Pattern[str] | None
    pattern_text: str
    max_len: int | None
    dir_match: Literal["error", "warning"] | None  # severity when the name differs from the directory
    source: NameSource  # where the skill's name (its catalog key) comes from
    # The runtime does not load a copy whose name breaks the rule (pattern, length, or, with
    # `dir_match`, a name other than its directory's): the copy is blocked there, with the rule as the
    # reason (OpenCode: "`name` must: ... Match the directory name that contains `SKILL.md`").
    refuses: bool = False


@descriptor
class AgentScoping:
    """How one agent definition narrows or extends the runtime's effective set.

    - `family`: the agent family (`AgentDecl.family`) whose definitions scope this runtime.
    - `local_skills_dir`: a directory next to the winning agent file whose skills are an overlay for
      that agent only, in tier `local_tier` (AGH: `<agent dir>/skills`, tier `agent_local`).
      Resolution is then per agent name, and agent-local copies override base copies for their agent.
    - `tombstones`: the agent's `skills.disabled` removes names from its set (AGH).
    - `fail_closed`: an agent with a blocking problem, or a blocked agent-local skill, has no set.
    - `skills_list`: what the agent's `skills:` list does: "filter" (a declared list narrows the set,
      Claude Code), "ordered" (the list, in its order, is the set: workspace agents), "none".
    """

    family: str
    local_skills_dir: str | None = None
    local_tier: str | None = None
    tombstones: bool = False
    fail_closed: bool = False
    skills_list: SkillsList = "none"

    @property
    def per_agent_resolution(self) -> bool:
        """Whether names resolve per agent (agent-local copies exist only for their agent)."""
        return self.local_skills_dir is not None


@descriptor
class Marketplace:
    """Installed-from-a-marketplace copies: a root of tier `from_tier` whose skill directory holds
    `meta_file` is a copy of tier `tier` (AGH: `$AGH_HOME/skills/<s>/.agh-meta.json`)."""

    from_tier: str
    tier: str
    meta_file: str


@descriptor
class Setting:
    """A runtime's own configuration key (`[<runtime id>] key = …` in `.skill-ls.toml`), stored in
    the `Config` attribute `attr`."""

    attr: str
    kind: SettingKind
    default: Any = None  # None: the kind's empty value (no paths, no names, "")
    doc: str = ""  # the editor setting's description (generated into VS Code's package.json)
    editor: bool = True  # also an editor setting (False: `.skill-ls.toml` only, e.g. machine-wide roots)


@descriptor
class BuiltinSkill:
    """A skill compiled into the runtime (AGH's bundled `agh` skill): no file, always present, the
    lowest tier; it is rendered in the catalog with `description` unless the Config attribute
    `description_setting` holds the text. `source` says where the description comes from (the JSON
    of `catalog` repeats it, so a reader knows the text is not invented)."""

    name: str
    description: str
    description_setting: str | None = None
    source: str = ""


@descriptor
class FileShape:
    """The exact text shape a runtime's own SKILL.md parser accepts, where it is stricter than
    skill-ls's tolerant split (core/parse/frontmatter.py). `pattern` is matched against the decoded file (a BOM kept as U+FEFF, line endings as
    written); group 1 is the frontmatter, group 2 the body; an empty group is refused like a miss."""

    opening: str  # the pattern is `\A{opening}([\s\S]*?){delimiter}([\s\S]*)\Z`
    delimiter: str
    source: str  # the runtime's code or page that the pattern is copied from

    @property
    def pattern(self) -> re.Pattern[str]:
        """The runtime's regular expression, as written in its source."""
        return re.compile(r"\A" + re.escape(self.opening) + r"([\s\S]*?)" + re.escape(self.delimiter)
                          + r"([\s\S]*)\Z")

    def split(self, text: str) -> tuple[str, str] | None:
        """(group 1, group 2) of `pattern` on `text`, or None when it does not match. The same answer
        as the regular expression (its lazy group ends at the first delimiter after the opening),
        without its character-by-character backtracking (a tenth of a check's rule time at 10,000 skills)."""
        if not text.startswith(self.opening):
            return None
        start = len(self.opening)
        end = text.find(self.delimiter, start)
        if end == -1:
            return None
        return text[start:end], text[end + len(self.delimiter):]


@descriptor
class Runtime:
    """One runtime as data (roots and tiers, precedence, agent scoping, catalog, YAML dialect, fields,
    name rules, limits, MCP merge): everything outside `runtimes/` asks this descriptor."""

    # -- identity and roots ---------------------------------------------------------------------
    id: str
    title: str
    tiers: tuple[str, ...]  # lowest precedence first
    roots: tuple[RootSpec, ...]
    fields: dict[str, FieldSpec]
    name_rule: NameRule
    # What the runtime itself calls a tier, for messages, hover and lenses (`tier_label`); a tier
    # without an entry is shown as its id with spaces (`agent_local` → "agent local").
    tier_labels: dict[str, str] = field(default_factory=dict)
    settings: dict[str, Setting] = field(default_factory=dict)
    home_dirs: tuple[HomeDir, ...] = ()  # directories located through environment variables
    default_extra_tier: str | None = None  # tier of a `[[roots]]` entry without one (None: the highest tier)
    active_by_config_only: bool = False  # never auto-detected from directories (Agentcy)
    marketplace: Marketplace | None = None
    # -- precedence -----------------------------------------------------------------------------
    conflict: Conflict = "precedence"  # precedence: highest tier wins | load_both | unique
    # What the runtime prints when a copy overrides another of its name (a template of `{name}`,
    # `{winner}` and `{loser}`, the files' paths): SH001 quotes it (Gemini CLI's "Skill conflict
    # detected: …" warning). Empty: the runtime says nothing.
    conflict_warning: str = ""
    # A copy of a scoped root (`RootSpec.scoped`) whose name a copy serving its files also has: "rank"
    # (precedence and ambiguity as for any copy: Cursor) or "qualified" (both stay loaded, the scoped
    # one under `<folder>:<name>`, the folder relative to the workspace: Claude Code).
    scoped_clash: Literal["rank", "qualified"] = "rank"
    identity_key: IdentityKey = "name"  # what makes two skills "the same skill" (Agentcy: slug)
    scan_depth: int | None = None
    scan_cap: int | None = None
    builtin_names: tuple[str, ...] = ()  # names the runtime ships (they take part in resolution)
    builtin_skills: tuple[BuiltinSkill, ...] = ()  # skills compiled in: resolved AND rendered
    builtin_tier: str = "builtin"  # the tier built-ins resolve in (AGH: bundled)
    # The runtime's own settings files: the switch for its whole skill system (AGH: `[skills] enabled`
    # in `$AGH_HOME/config.toml`) and the names its user disabled (Gemini CLI `skills.disabled`).
    own_settings: OwnSettings | None = None
    # Whether it trusts the workspace folder, and what it leaves unread where it does not (Gemini
    # CLI's Trusted Folders): `FolderTrust`.
    folder_trust: FolderTrust | None = None
    agent_scoping: AgentScoping | None = None
    operator_disabled: str | None = None  # Config attribute listing names the operator disabled
    # -- parsing and fields ---------------------------------------------------------------------
    yaml_dialect: YamlDialect = "1.1"  # "1.1": PyYAML-like readers; "1.2": the core schema (JavaScript `yaml`)
    file_shape: FileShape | None = None  # None: the tolerant split of core/parse/frontmatter.py is what the runtime accepts
    # Which files of a root are skills: "skill_md" (`<dir>/SKILL.md`) or "every_md" (every `.md` file:
    # Agentcy's GitHub sources "parse every .md file into a skill row").
    skill_files: Literal["skill_md", "every_md"] = "skill_md"
    # Skill subdirectories whose files the runtime registers as executable tools (Amp: toolbox/).
    tool_dirs: tuple[str, ...] = ()
    # The tool the model calls to load a skill, as `skill_ls.analysis.preview.SKILL_TOOLS` renders it.
    skill_tool: str | None = None
    # How a flag field reads: "strict" (only a YAML boolean is true or false), "javascript" (Amp
    # tests `if (frontmatter[key])`: JavaScript truthiness of the value its YAML 1.2 reader gives) or
    # "words" (Claude Code: a boolean, or a string or number that reads 1/true/yes/on or 0/false/no/off
    # in any case, trimmed; anything else is ignored: `flag_word`).
    truthiness: Truthiness = "strict"
    # Whether the runtime loads a skill file that has no frontmatter at all (Claude Code: named after
    # its directory, described by its body, with a warning): SK001 is a warning where it alone reads
    # it, and the copy is not blocked there (`core.index.frontmatter_as_read`).
    frontmatter_optional: bool = False
    # Whether the runtime retries a frontmatter that is not valid YAML after quoting the values that
    # need it (`core.parse.frontmatter.quote_repair`; Claude Code): SK003 is then a warning where it
    # alone reads the file and the repaired block parses, and the copy loads there with the repaired values.
    repairs_unquoted_values: bool = False
    # Whether a skill without a description (none, blank, or not a string or number) is described by
    # its body (Claude Code 2.1.332: the first non-blank line, a heading's `#` marks dropped, cut at
    # 100 characters as 97 and "..."; `core.index.description_as_read`).
    description_from_body: bool = False
    # Whether the runtime still loads a file whose frontmatter does not parse (after its repair, where
    # it repairs) or is not a mapping, with the frontmatter ignored: named after its directory,
    # described by its body, none of its settings applied (Claude Code 2.1.332: "[skills] YAML
    # frontmatter in … failed to parse and was ignored"). An unterminated block, a repeated key or a
    # block past the nesting guards stays blocked.
    ignores_unreadable_frontmatter: bool = False
    unknown_field_severity: Literal["warning", "information"] = "warning"
    file_limits: dict[str, int] = field(default_factory=dict)  # files, file_bytes, skill_bytes
    prompt_budget_setting: str | None = None  # Config attribute: the budget on enabled content
    # Values accepted inside fields, body substitution, `!`cmd`` execution, listing budget.
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    # -- catalog --------------------------------------------------------------------------------
    catalog_format: str = "reference"  # a key of skill_ls.analysis.catalog.FORMATS
    catalog_order: CatalogOrder = "name"  # name (then path) | discovery (root order, then directory)
    catalog_cut: int | None = None  # the description is cut at this many code points
    catalog_appends: tuple[str, ...] = ()  # fields appended to the description on their own line
    catalog_hides: tuple[tuple[str, bool], ...] = ()  # (field, value): a skill with it is left out
    escapes_catalog: bool = True
    # -- MCP ------------------------------------------------------------------------------------
    mcp_merge: McpMerge = "none"  # agh_layers: config → provider → agent → skills | skill_sidecars
    # MCP server definitions read literally: no `${VAR}` expansion in `env`/`args` (AGH: "env values are
    # sent as literal strings; AGH does not expand shell placeholders inside MCP server definitions").
    # The text says where a secret belongs instead (MS003, MS007); None: the runtime expands, or its
    # sources do not say.
    mcp_literal_values: str | None = None

    def tier_names(self) -> tuple[str, ...]:
        return self.tiers

    def tier_label(self, tier: str) -> str:
        """The runtime's own words for a tier (project, personal, plugin, enterprise...), never an internal id."""
        return self.tier_labels.get(tier) or tier.replace("_", " ")

    def rank(self, tier: str) -> int:
        return self.tiers.index(tier)

    @functools.cached_property
    def required_fields(self) -> tuple[str, ...]:
        # (cached: asked for every copy the index declares; a descriptor never changes)
        return tuple(k for k, f in self.fields.items() if f.required)

    def setting_key(self, attr: str) -> str:
        """`<runtime id>.<key>` of the setting stored in Config attribute `attr` (for messages)."""
        return next((f"{self.id}.{key}" for key, s in self.settings.items() if s.attr == attr), attr)

    @property
    def extra_root_tier(self) -> str:
        """The tier of a configured extra root that names none."""
        return self.default_extra_tier or self.tiers[-1]


STANDARD_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
WORKSPACE_AGENTS_NAME = lazy_pattern(r"^[A-Za-z0-9_-]+$")

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


# How a kind reads in a message: "'key' must be <text>".
KIND_TEXT: dict[str, str] = {
    "str": "a string", "bool": "true or false", "int": "an integer", "number": "a number",
    "scalar": "a string or number", "str_list": "a list of strings", "str_or_list": "a string or a list of strings",
    "map": "a mapping", "str_map": "a mapping of strings to strings", "list": "a list",
    "list_of_maps": "a list of mappings",
}


FLAG_TRUE = ("1", "true", "yes", "on")
FLAG_FALSE = ("0", "false", "no", "off")


def flag_word(value: Any) -> bool | None:
    """A flag as Claude Code reads it (truthiness "words"): a boolean, or a string or number reading
    1/true/yes/on or 0/false/no/off in any case; None for anything else (the field is ignored)."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, (str, int, float)):
        return None
    text = (str(value) if not isinstance(value, float) or not value.is_integer() else str(int(value))).strip().lower()
    return True if text in FLAG_TRUE else False if text in FLAG_FALSE else None


def type_ok(spec: FieldSpec, value: Any) -> bool:
    """Whether `value` has the kind `spec` declares (the one type checker for skill and agent fields)."""
    kind = spec.kind
    if kind == "any":
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "scalar":
        return isinstance(value, (str, int, float)) and not isinstance(value, bool)
    if kind == "str_list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "str_or_list":
        return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    if kind == "map":
        return isinstance(value, dict)
    if kind == "str_map":
        return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
    if kind == "list":
        return isinstance(value, list)
    # list_of_maps: the last kind
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)


def str_items(value: Any) -> list[str]:
    """The strings of a `str_or_list` value: a string is one item, a list keeps its strings, anything
    else has none."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []
