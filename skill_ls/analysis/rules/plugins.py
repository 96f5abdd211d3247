"""Claude Code plugin rules: the plugin manifest, the paths it points to, and legacy
commands. Plugin skills and agents are checked by the Claude Code skill and subagent rules."""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import AgentContext, SidecarContext
from skill_ls.core.model import Severity, Span
from skill_ls.core.parse.text import read_bytes
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.plugins import PLUGIN_TIER, command_name, plugin_file_for
from skill_ls.core.runtimes.claude_code import PLUGIN_MANIFEST_FIELDS, PLUGIN_RESERVED_NAMES, PLUGIN_RESERVED_PREFIXES

if TYPE_CHECKING:
    from skill_ls.core.jsonpos import JsonDoc

# https://code.claude.com/docs/en/plugins-reference ("Plugin manifest schema") and `claude plugin validate`
# (Claude Code 2.1.332), which is the referee: `name` is required and has no spaces (kebab-case is
# preferred, a warning); component paths start with `./` (error) and never contain `..`.
MARKETPLACE_ENTRY_FIELDS = ("category", "tags", "source", "strict")
IGNORED_IN_PLUGIN_AGENTS = ("permissionMode", "hooks", "mcpServers")
PLUGIN_NAME = lazy_pattern(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SEMVER = lazy_pattern(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
PATH_FIELDS = tuple(k for k, kind in PLUGIN_MANIFEST_FIELDS.items() if kind == "path")
URL = lazy_pattern(r"^[A-Za-z][A-Za-z0-9+.-]*://[^\s/]+")
KIND_WORDS = {"str": "a string", "url": "a URL", "bool": "true or false", "str_list": "a list of strings",
              "object": "an object", "author": "an object with a 'name'", "list": "a list"}


# JSON files parsed, by (path, text): each rule of a file (PL, HK and MS rules all read plugin.json) asks
# for it, and a text is parsed once. The documents are read, never changed, by the rules.
_JSON_DOCS: dict[tuple[str, str], JsonDoc] = {}


def json_doc(ctx: SidecarContext) -> JsonDoc:
    """The file as JSON with positions (an editor's buffer when one is open), parsed once per text."""
    from skill_ls.core.jsonpos import parse_json  # (here: most checks meet no plugin JSON file)

    text = ctx.index.store.source(ctx.path).text if ctx.index is not None else _text(ctx.path)
    key = (ctx.path, text)
    doc = _JSON_DOCS.get(key)
    if doc is None:
        if len(_JSON_DOCS) >= 256:
            _JSON_DOCS.clear()
        doc = _JSON_DOCS[key] = parse_json(text)
    return doc


def _text(path: str) -> str:
    data, _, _ = read_bytes(path)
    return data.decode("utf-8", errors="replace")


def json_object(ctx: SidecarContext, what: str, unreadable: str, not_object: str) -> tuple[JsonDoc, dict[str, Any]] | None:
    """The file's JSON object with positions, or None once it has reported why there is none: `what`
    names the file, `unreadable` and `not_object` say what the runtime does then."""
    doc = json_doc(ctx)
    if not doc.ok:
        ctx.out.report(doc.problem_span, f"{what} {doc.problem}; {unreadable}")
        return None
    if not isinstance(doc.value, dict):
        ctx.out.report(doc.at(), f"{what} must be a JSON object{not_object}")
        return None
    return doc, doc.value


def _reserved(name: str) -> bool:
    """A name `claude plugin validate` (2.1.332) reserves for Anthropic's own plugins."""
    low = name.lower()
    words = set(re.split(r"[-_\s]+", low))
    return low.startswith(PLUGIN_RESERVED_PREFIXES) or low in PLUGIN_RESERVED_NAMES or (
        "official" in words and bool(words & {"claude", "anthropic"}))


def _kind_ok(kind: str, value: Any) -> bool:
    if kind in ("any", "path"):
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "url":
        return isinstance(value, str) and URL.match(value) is not None
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str_list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "list":
        return isinstance(value, list)
    if kind == "author":
        return isinstance(value, dict) and isinstance(value.get("name"), str) and bool(value["name"].strip())
    return isinstance(value, dict)


@rule("PL001", Severity.ERROR, "sidecar", file_kinds=("manifest",))
def invalid_plugin_manifest(ctx: SidecarContext) -> None:
    """`.claude-plugin/plugin.json` is not valid: not JSON, no `name`, or a field of the wrong type.

    ## What it does
    Checks the manifest as `claude plugin validate` does: a JSON object whose `name` is a non-empty
    string without spaces and not reserved for Anthropic's own plugins (`claude-*`, `anthropic-*`,
    `cc-plugin-*`); kebab-case is recommended (a warning otherwise); `author` is an object
    with a non-empty `name` (not a string); `homepage` is a URL; `repository`, `version`,
    `description` and `license` are strings; `keywords` is a list of strings. A `version` that is not
    semantic (`1.2.0`) and a field Claude Code does not know (it is ignored at load time) are warnings.

    ## Why is this bad?
    Claude Code refuses a plugin whose manifest does not parse or validate; the name is also the
    namespace of every skill, command and agent (`name:skill`).

    ## Example
    `{"name": "my tools", "author": "Ann"}` — use `{"name": "my-tools", "author": {"name": "Ann"}}`.

    ## Source
    https://code.claude.com/docs/en/plugins-reference ("Plugin manifest schema"); `claude plugin
    validate` (docs/claude-code-validator.md).
    """
    found = json_object(ctx, "plugin.json", "Claude Code cannot load this plugin",
                        "; Claude Code cannot load this plugin")
    if found is None:
        return
    doc, data = found
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        ctx.out.report(doc.key("name") if "name" in data else Span(0, 0, 0, 1),
                       "plugin.json needs a 'name' (kebab-case): it is the plugin's namespace")
    elif " " in name:
        ctx.out.report(doc.at("name"), f"plugin name '{name}' cannot contain spaces: use kebab-case")
    elif _reserved(name):
        ctx.out.report(doc.at("name"), f"plugin name '{name}' is reserved for Anthropic's own plugins (names starting "
                       "'claude-', 'anthropic-' or 'cc-plugin-', or 'official' beside 'claude'/'anthropic'): `claude "
                       "plugin validate` and marketplaces refuse it; name the plugin for what it does")
    elif not PLUGIN_NAME.match(name):
        ctx.out.report(doc.at("name"), f"plugin name '{name}' is not kebab-case (lowercase letters, digits, single "
                       "hyphens); Claude Code accepts it, but it is the namespace users type",
                       severity=Severity.WARNING)
    for key, value in data.items():
        kind = PLUGIN_MANIFEST_FIELDS.get(key)
        if kind is None:
            where = " (it belongs in the plugin's marketplace.json entry)" if key in MARKETPLACE_ENTRY_FIELDS else ""
            ctx.out.report(doc.key(key), f"unknown field '{key}' in plugin.json{where}: Claude Code ignores it at load "
                           "time", severity=Severity.WARNING)
        elif key != "name" and not _kind_ok(kind, value):
            what = "an empty 'name'" if kind == "author" and isinstance(value, dict) else f"{type(value).__name__}"
            ctx.out.report(doc.at(key), f"'{key}' must be {KIND_WORDS.get(kind, kind)} (got {what}); "
                           "`claude plugin validate` rejects this manifest")
    version = data.get("version")
    if isinstance(version, str) and not SEMVER.match(version):
        ctx.out.report(doc.at("version"), f"plugin version {version!r} is not a semantic version like '1.2.0'",
                       severity=Severity.WARNING)


def _paths(value: Any) -> list[tuple[int | None, str]]:
    if isinstance(value, str):
        return [(None, value)]
    if isinstance(value, list):
        return [(i, v) for i, v in enumerate(value) if isinstance(v, str)]
    return []


@rule("PL002", Severity.ERROR, "sidecar", file_kinds=("manifest",))
def plugin_path_missing(ctx: SidecarContext) -> None:
    """A path in `plugin.json` (commands, agents, skills, hooks, mcpServers, ...) does not exist, is not `./`-relative, or leaves the plugin.

    ## What it does
    Resolves each path of the component fields against the plugin root (the directory that holds
    `.claude-plugin/`), as `claude plugin validate` does: a path must start with `./` (`"skills": "."`
    is the one exception: the plugin root), must not contain `..`, must exist, and an `agents` entry
    must be a `.md` file. `hooks` and `mcpServers` paths name `.json` files (or an MCPB bundle).
    Inline objects (an `mcpServers` or `hooks` object, a `commands` map) are not paths (HK001 and the
    MS rules check inline `hooks` and `mcpServers` where they are written). Component
    directories placed inside `.claude-plugin/` (where only `plugin.json` belongs) are reported too.

    ## Why is this bad?
    Claude Code loads nothing from such a path, and the component the manifest promises is silently
    absent (or the validator refuses the plugin).

    ## Example
    `"agents": "custom/agents/"` — use `["./custom/agents/reviewer.md"]` and create the file.

    ## Source
    https://code.claude.com/docs/en/plugins-reference ("Path behavior rules"); `claude plugin validate`.
    """
    doc = json_doc(ctx)
    if not doc.ok or not isinstance(doc.value, dict):
        return
    data = doc.value
    root = os.path.dirname(os.path.dirname(ctx.path))
    for component in ("commands", "agents", "skills", "hooks"):
        if ctx.disk.is_dir(os.path.join(root, ".claude-plugin", component)):
            ctx.out.report(Span(0, 0, 0, 1), f"'.claude-plugin/{component}/' is never loaded: component directories "
                           f"belong at the plugin root ('{component}/'), only plugin.json goes in .claude-plugin/")
    for key in PATH_FIELDS:
        for i, rel in _paths(data.get(key)):
            span = doc.at(key) if i is None else doc.at(key, i)
            if key == "skills" and rel in (".", "./") or key == "mcpServers" and URL.match(rel):
                continue  # the plugin root itself; an MCPB bundle's URL
            if ".." in rel.replace("\\", "/").split("/"):
                ctx.out.report(span, f"'{key}' path '{rel}' contains '..': Claude Code refuses paths that leave the "
                               "plugin directory")
                continue
            if not rel.startswith("./"):
                ctx.out.report(span, f"'{key}' path '{rel}' must start with './' (relative to the plugin root)")
                continue
            if key == "agents" and not rel.endswith(".md"):
                ctx.out.report(span, f"'agents' path '{rel}' must name a .md file (list each agent file)")
                continue
            target = os.path.normpath(os.path.join(root, rel))
            if not ctx.disk.exists(target):
                ctx.out.report(span, f"'{key}' path '{rel}' does not exist in the plugin")


@rule("PL003", Severity.INFORMATION, "sidecar", file_kinds=("command",))
def legacy_command(ctx: SidecarContext) -> None:
    """A command file (`.claude/commands/*.md` or a plugin's `commands/*.md`): skills supersede commands.

    ## What it does
    Notes each legacy command file (its frontmatter gets Claude Code's skill value checks,
    like a skill's). Claude Code still runs it as `/name`, but a skill in
    `.claude/skills/<name>/SKILL.md` (or a plugin's `skills/<name>/SKILL.md`) is the same command
    with supporting files, model invocation and the other skill fields.

    ## Why is this bad?
    It is not broken, but commands get none of a skill's features (supporting files, model
    invocation, `context: fork`), and new Claude Code features land in skills.

    ## Example
    `.claude/commands/review.md` runs as `/review`.

    ## Fix
    Move `commands/review.md` to `skills/review/SKILL.md` and add a `description`.

    ## Source
    https://code.claude.com/docs/en/skills ("Custom commands have been merged into skills"),
    https://code.claude.com/docs/en/plugins-reference.
    """
    pf = plugin_file_for(ctx.path)
    name = command_name(ctx.path, pf.plugin if pf is not None else None)
    stem = os.path.splitext(os.path.basename(ctx.path))[0]
    where = ".claude/skills" if pf is not None and pf.plugin is None else "skills"
    ctx.out.report(Span(0, 0, 0, 0), f"'/{name}' is a legacy command: move it to {where}/{stem}/SKILL.md (commands "
                   "were merged into skills)")


@rule("PL005", Severity.WARNING, "agent", file_kinds=("agent",))
def plugin_agent_ignored_field(ctx: AgentContext) -> None:
    """A plugin agent sets `permissionMode`, `hooks` or `mcpServers`, which Claude Code ignores in plugins.

    ## What it does
    Reports those three fields in an agent file of a plugin (`<plugin>/agents/*.md`, or a path its
    `plugin.json` declares). Claude Code loads the agent without them and logs "sets X, which is
    ignored for plugin agents. Use .claude/agents/ for this level of control".

    ## Why is this bad?
    The author believes the agent runs in `plan` mode, with its hooks or its MCP servers; it runs
    without them.

    ## Example
    `permissionMode: plan` in `plugins/review/agents/auditor.md` — move the agent to the project's
    `.claude/agents/`, or drop the field.

    ## Source
    https://code.claude.com/docs/en/plugins-reference ("Agents"); Claude Code 2.1.332's plugin agent loader.
    """
    agent = ctx.agent
    fm = agent.doc.fm
    if agent.tier != PLUGIN_TIER or fm is None or not fm.ok:
        return
    for key in IGNORED_IN_PLUGIN_AGENTS:
        entry = fm.fields.get(key)
        if entry is not None:
            ctx.out.report(entry.key_span, f"'{key}' is ignored for plugin agents: Claude Code loads '{agent.name}' "
                           "without it (a project's .claude/agents/ honours it)")


PLUGIN_ID = lazy_pattern(r"^[A-Za-z0-9][-A-Za-z0-9._]*$")
SOURCE_KINDS = {"github": ("repo",), "url": ("url",), "git-subdir": ("url", "path"), "git": ("url",),
                "npm": ("package",), "archive": ()}


def _id_problem(what: str, name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return f"{what} needs a non-empty 'name'"
    if " " in name:
        return f"{what} name '{name}' cannot contain spaces: use kebab-case"
    if not PLUGIN_ID.match(name) or ".." in name:
        return (f"{what} name '{name}' cannot be installed: a plugin id (plugin@marketplace) uses only letters, "
                "digits, '.', '_' and '-', starting with a letter or digit")
    if _reserved(name):
        return f"{what} name '{name}' is reserved for Anthropic's own (claude-*, anthropic-*, cc-plugin-*)"
    return None


@rule("PL004", Severity.ERROR, "sidecar", file_kinds=("marketplace",))
def invalid_marketplace(ctx: SidecarContext) -> None:
    """`.claude-plugin/marketplace.json` is not valid: not JSON, no valid `name` or `owner`, or a plugin entry Claude Code cannot install.

    ## What it does
    Checks the marketplace as `claude plugin validate` does: a JSON object with a `name` usable in
    plugin ids (letters, digits, `.`, `_`, `-`; no spaces; not reserved for Anthropic), an `owner`
    object with a non-empty `name`, and `plugins` as a list. Each entry has a valid `name` and a
    `source`: a path starting with `./` (relative to the marketplace root, never with `..`; a bare
    name only where `metadata.pluginRoot` is set) or an object whose `source` is `github` (with
    `repo`), `url` or `git` (with `url`), `git-subdir` (with `url` and `path`) or `npm` (with
    `package`). A local source that does not exist and a plugin name listed twice are warnings (the
    validator does not check them; installing that entry fails, or the second is unreachable).

    ## Why is this bad?
    Claude Code refuses to add a marketplace that does not validate, so none of its plugins can be
    installed; a bad entry cannot be installed.

    ## Example
    `{"name": "my tools", "plugins": [{"name": "fmt", "source": "plugins/fmt"}]}` — use
    `{"name": "my-tools", "owner": {"name": "Ann"}, "plugins": [{"name": "fmt", "source": "./plugins/fmt"}]}`.

    ## Source
    https://code.claude.com/docs/en/plugin-marketplaces ("Marketplace schema", "Plugin sources");
    `claude plugin validate` (Claude Code 2.1.332).
    """
    found = json_object(ctx, "marketplace.json", "Claude Code cannot add this marketplace", "")
    if found is None:
        return
    doc, data = found
    problem = _id_problem("the marketplace", data.get("name"))
    if problem:
        ctx.out.report(doc.at("name") if "name" in data else Span(0, 0, 0, 1), problem)
    owner = data.get("owner")
    if not (isinstance(owner, dict) and isinstance(owner.get("name"), str) and owner["name"].strip()):
        ctx.out.report(doc.at("owner") if "owner" in data else Span(0, 0, 0, 1),
                       "marketplace.json needs 'owner': an object with a non-empty 'name'")
    plugins = data.get("plugins")
    if not isinstance(plugins, list):
        ctx.out.report(doc.at("plugins") if "plugins" in data else Span(0, 0, 0, 1),
                       "marketplace.json needs 'plugins': a list of plugin entries")
        return
    root = os.path.dirname(os.path.dirname(ctx.path))
    meta = data.get("metadata")
    plugin_root = meta.get("pluginRoot") if isinstance(meta, dict) else None
    seen: dict[str, int] = {}
    for i, entry in enumerate(plugins):
        if not isinstance(entry, dict):
            ctx.out.report(doc.at("plugins", i), "each plugin entry must be an object with 'name' and 'source'")
            continue
        name = entry.get("name")
        problem = _id_problem("plugin", name)
        if problem:
            ctx.out.report(doc.at("plugins", i, "name") if "name" in entry else doc.at("plugins", i), problem)
        elif isinstance(name, str):
            if name in seen:
                ctx.out.report(doc.at("plugins", i, "name"), f"plugin '{name}' is listed twice (also entry "
                               f"{seen[name] + 1}); only one of them can be installed", severity=Severity.WARNING)
            seen.setdefault(name, i)
        _source(ctx, doc, i, entry, root, plugin_root)


def _source(ctx: SidecarContext, doc: JsonDoc, i: int, entry: dict[str, Any], root: str, plugin_root: Any) -> None:
    source = entry.get("source")
    where = doc.at("plugins", i, "source") if "source" in entry else doc.at("plugins", i)
    if isinstance(source, str):
        if ".." in source.replace("\\", "/").split("/"):
            ctx.out.report(where, f"source '{source}' contains '..': sources are relative to the marketplace root "
                           "(the directory holding .claude-plugin/) and never leave it")
            return
        if not source.startswith("./"):
            if isinstance(plugin_root, str) and PLUGIN_ID.match(source):
                source = "./" + os.path.join(plugin_root.removeprefix("./"), source)
            else:
                ctx.out.report(where, f"source '{source}' must start with './' (a path from the marketplace root), "
                               "or be a bare name with metadata.pluginRoot set")
                return
        if not ctx.disk.exists(os.path.normpath(os.path.join(root, source))):
            ctx.out.report(where, f"source '{source}' does not exist in this repository: installing "
                           f"'{entry.get('name')}' fails", severity=Severity.WARNING)
    elif isinstance(source, dict):
        kind = source.get("source")
        if kind not in SOURCE_KINDS:
            ctx.out.report(where, f"source object needs 'source': one of {', '.join(SOURCE_KINDS)}")
            return
        for needed in SOURCE_KINDS[kind]:
            if not (isinstance(source.get(needed), str) and source[needed].strip()):
                ctx.out.report(where, f"a '{kind}' source needs '{needed}'")
    else:
        ctx.out.report(where, "each plugin entry needs a 'source': a './path' or an object like "
                       "{\"source\": \"github\", \"repo\": \"owner/repo\"}")


def path_dependencies(ctx: SidecarContext) -> set[str]:
    """The paths whose existence the findings of a `plugin.json` (PL002: each path it declares) or a
    `marketplace.json` (PL004: each local source) depend on: the server re-checks the file when one of them is created or deleted
    (`WorkspaceState.depending_on`)."""
    doc = json_doc(ctx)
    if not doc.ok or not isinstance(doc.value, dict):
        return set()
    data = doc.value
    root = os.path.dirname(os.path.dirname(ctx.path))
    out: set[str] = set()
    if ctx.kind == "manifest":
        for key in PATH_FIELDS:
            for _, rel in _paths(data.get(key)):
                if rel.startswith("./") and ".." not in rel.replace("\\", "/").split("/"):
                    out.add(os.path.normpath(os.path.join(root, rel)))
    elif ctx.kind == "marketplace":
        meta = data.get("metadata")
        plugin_root = meta.get("pluginRoot") if isinstance(meta, dict) else None
        plugins = data.get("plugins")
        for entry in plugins if isinstance(plugins, list) else []:
            source = entry.get("source") if isinstance(entry, dict) else None
            if not isinstance(source, str) or ".." in source.replace("\\", "/").split("/"):
                continue
            if not source.startswith("./") and isinstance(plugin_root, str) and PLUGIN_ID.match(source):
                source = "./" + os.path.join(plugin_root.removeprefix("./"), source)
            if source.startswith("./"):
                out.add(os.path.normpath(os.path.join(root, source)))
    return out
