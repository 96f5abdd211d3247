"""Claude Code plugins: a directory with `.claude-plugin/plugin.json`.

A plugin's `skills/<name>/SKILL.md`, `agents/*.md` and `commands/*.md` are read by Claude Code and
namespaced `plugin:name`, so they never collide with project or personal skills.

Reading (docs/claude-code.md): marketplaces list plugins in `.claude-plugin/marketplace.json`, and an
entry with `strict: false` needs no `plugin.json` of its own; so a directory directly under a
directory named `plugins` that holds `skills/`, `agents/` or `commands/` is a plugin too (the layout
of public plugin marketplaces such as wshobson/agents). Reading only; nothing here is executed.
"""
from __future__ import annotations

import os
import stat as stat_module
from typing import Any

from skill_ls.core.files import read_json
from skill_ls.core.model import Span
from skill_ls.core.paths import NEVER_ENTER
from skill_ls.core.records import dataclass, field
from skill_ls.core.runtimes.claude_code import MANAGED_SETTINGS_DIRS as MANAGED_DIRS

MANIFEST = os.path.join(".claude-plugin", "plugin.json")
COMPONENT_DIRS = ("skills", "agents", "commands")
PROJECT_COMMANDS = os.path.join(".claude", "commands")  # a project's own commands (not a plugin's)
MARKETPLACE_DIR = "plugins"  # plugins/<name>/ with a component directory is a plugin without a manifest
# The tier of a command file's declaration (checked with a skill's field rules, in no resolution).
COMMAND_TIER = "command"
PLUGIN_TIER = "plugin"  # the tier of a plugin's skills and agents (in no resolution: `plugin:name`)


def command_name(path: str, plugin: Plugin | None) -> str:
    """A command's name as Claude Code gives it: the file stem, namespaced by the folders between the
    `commands` directory and the file (`commands/frontend/review.md` is `frontend:review`), and by the
    plugin's name for a plugin command (`my-plugin:frontend:review`).
    https://code.claude.com/docs/en/slash-commands ("Namespacing")."""
    parts = os.path.abspath(path).split(os.sep)
    stem = os.path.splitext(parts[-1])[0]
    folders: list[str] = []
    for part in reversed(parts[:-1]):
        if part == "commands":
            break
        folders.insert(0, part)
    else:
        folders = []
    prefix = [plugin.name] if plugin is not None else []
    return ":".join(prefix + folders + [stem])


@dataclass(frozen=True)
class Plugin:
    """A Claude Code plugin: its root directory, name and manifest."""

    root: str
    name: str
    manifest: str | None  # path of plugin.json, None for a marketplace-layout plugin


@dataclass
class Manifest:
    """A plugin's `plugin.json`: its data, or why it cannot be read."""

    path: str
    ok: bool
    data: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None
    span: Span = Span(0, 0, 0, 0)


# Manifests read, by path: kept while the file's (size, mtime) stays the same, so no index has to clear
# it and one workspace folder's rebuild never drops another's answers.
_MANIFESTS: dict[str, tuple[tuple[int, int, int], Manifest]] = {}


def _manifest_at(path: str) -> Manifest | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat_module.S_ISREG(st.st_mode):
        return None
    key = (st.st_ino, st.st_size, st.st_mtime_ns)
    hit = _MANIFESTS.get(path)
    if hit is None or hit[0] != key:
        if len(_MANIFESTS) > 4096:
            _MANIFESTS.clear()
        hit = _MANIFESTS[path] = (key, read_manifest(path))
    return hit[1]


def _plugin_at(directory: str) -> Plugin | None:
    manifest = os.path.join(directory, MANIFEST)
    m = _manifest_at(manifest)
    if m is not None:
        name = m.data.get("name") if m.ok else None
        return Plugin(directory, name if isinstance(name, str) and name.strip() else os.path.basename(directory),
                      manifest)
    if os.path.basename(os.path.dirname(directory)) == MARKETPLACE_DIR and any(
            os.path.isdir(os.path.join(directory, d)) for d in COMPONENT_DIRS):
        return Plugin(directory, os.path.basename(directory), None)
    return None


def plugin_of(path: str, component: str) -> Plugin | None:
    """The plugin whose `component` directory (skills, agents, commands) holds `path`, or None.

    skills: `<plugin>/skills/<name>/SKILL.md`; agents and commands: `<plugin>/agents/**/<name>.md`."""
    parts = os.path.abspath(path).split(os.sep)
    for i in [len(parts) - 3] if component == "skills" else range(len(parts) - 2, 0, -1):
        if i <= 0 or parts[i] != component:
            continue
        plugin = _plugin_at(os.sep.join(parts[:i]) or os.sep)
        if plugin is not None:
            return plugin
    return None


def read_manifest(path: str) -> Manifest:
    """The manifest, or why it cannot be read. Read during discovery, for the whole run: behind the
    reader boundary (a failure of skill-ls here is the manifest's problem, never the run's)."""
    try:
        value, problem, span = read_json(path)
    except Exception as exc:  # noqa: BLE001
        return Manifest(path, False, problem=f"skill-ls could not read this file ({type(exc).__name__}: "
                        f"{' '.join(str(exc).split())[:160]}); please report it")
    if problem:
        return Manifest(path, False, problem=problem, span=span)
    if not isinstance(value, dict):
        return Manifest(path, False, problem="must be a JSON object")
    return Manifest(path, True, value)


PLUGIN_DEPTH = 8  # how deep below a checked directory plugins and `.claude/commands` are looked for


@dataclass(frozen=True)
class PluginFile:
    """A file Claude Code reads for a plugin or a project, beside skills: see `KINDS`."""

    path: str
    kind: str  # one of KINDS
    plugin: Plugin | None  # None for a project's files (`.claude/commands`, settings, `.mcp.json`)


# The kinds of plugin and project files (file kinds the rule registry scopes by).
KINDS = ("agent", "command", "manifest", "plugin_mcp", "hooks", "marketplace", "settings", "project_mcp")
MARKETPLACE = os.path.join(".claude-plugin", "marketplace.json")
HOOKS_FILE = os.path.join("hooks", "hooks.json")
SETTINGS_FILES = ("settings.json", "settings.local.json")
MCP_JSON = ".mcp.json"
# Managed (enterprise) settings: `managed-settings.json` and `managed-settings.d/*.json` in
# /etc/claude-code (Linux, WSL) or /Library/Application Support/ClaudeCode (macOS), with hooks read as a
# project's are. https://code.claude.com/docs/en/settings ("Settings files").
MANAGED_SETTINGS = "managed-settings.json"
MANAGED_DROP_INS = "managed-settings.d"



def plugin_globs() -> tuple[list[str], list[str]]:
    """The editors' patterns for the files of `KINDS`: (Markdown: commands and plugin agents; JSON:
    manifests, marketplaces, hooks, settings, `.mcp.json`). The server decides per path what a file is."""
    markdown = ["**/commands/**/*.md", "**/agents/*.md"]
    json_files = [f"**/{MANIFEST}", f"**/{MARKETPLACE}", f"**/{HOOKS_FILE}",
                  *(f"**/.claude/{name}" for name in SETTINGS_FILES), f"**/{MCP_JSON}",
                  f"**/{MANAGED_SETTINGS}", f"**/{MANAGED_DROP_INS}/*.json"]
    return markdown, [g.replace(os.sep, "/") for g in json_files]


def named_like_plugin_file(path: str) -> bool:
    """Whether `path` has the name and place of a file of `KINDS` (the editors' patterns, `plugin_globs`),
    without reading anything: the server takes its changes on disk (`plugin_file_for` then decides
    what the file is; files a `plugin.json` names by a custom path are followed as its dependencies)."""
    base = os.path.basename(path)
    parent = os.path.basename(os.path.dirname(path))
    if parent == ".claude-plugin":
        return base in ("plugin.json", "marketplace.json")
    if base.endswith(".md"):
        return parent == "agents" or "commands" in path.split(os.sep)[:-1]
    return (base == "hooks.json" and parent == "hooks" or base in SETTINGS_FILES and parent == ".claude"
            or base in (MCP_JSON, MANAGED_SETTINGS) or parent == MANAGED_DROP_INS and base.endswith(".json"))


def _md_files(listdir: Any, directory: str, depth: int = 3) -> list[str]:
    out: list[str] = []
    entries, error = listdir(directory)
    if error:
        return out
    for name, full, is_dir in entries:
        if is_dir and depth > 1 and not name.startswith("."):
            out += _md_files(listdir, full, depth - 1)
        elif not is_dir and name.endswith(".md") and name.lower() not in ("readme.md",):
            out.append(full)
    return out


def _may_be_plugin(directory: str, entries: list[tuple[str, str, bool]]) -> bool:
    """False when the directory's listing rules out both kinds of plugin `_plugin_at` recognises
    (no `.claude-plugin/`; not a `plugins/<name>/` with a component directory): spares a stat per
    directory of the walk."""
    if os.path.basename(os.path.dirname(directory)) == MARKETPLACE_DIR:
        return True
    for name, _, is_dir in entries:  # (sorted by name: past ".claude-plugin", it is not there)
        if name >= ".claude-plugin":
            return is_dir and name == ".claude-plugin"
    return False


def declared_paths(plugin: Plugin, key: str) -> list[str]:
    """The existing files and directories a plugin's `plugin.json` names under `key` (`agents`,
    `commands`, `hooks`, `mcpServers`), resolved against the plugin root, never leaving it."""
    if not plugin.manifest:
        return []
    m = _manifest_at(plugin.manifest)
    if m is None or not m.ok:
        return []
    value = m.data.get(key)
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    out: list[str] = []
    for item in items:
        if not isinstance(item, str) or not item.startswith("./"):
            continue
        target = os.path.normpath(os.path.join(plugin.root, item))
        if (target == plugin.root or target.startswith(plugin.root + os.sep)) and os.path.exists(target):
            out.append(target)
    return out


def _plugin_parts(listdir: Any, plugin: Plugin) -> list[PluginFile]:
    """A plugin's agents, commands, manifest, hooks and `.mcp.json`, including the custom paths its
    `plugin.json` declares (followed: a declared agents path replaces `agents/`, as Claude Code does)."""
    out: list[PluginFile] = []
    directory = plugin.root
    for sub, kind in (("agents", "agent"), ("commands", "command")):
        declared = declared_paths(plugin, sub)
        paths = declared or [os.path.join(directory, sub)]
        for target in paths:
            if os.path.isdir(target):
                out += [PluginFile(p, kind, plugin) for p in _md_files(listdir, target)]
            elif target.endswith(".md"):
                out.append(PluginFile(target, kind, plugin))
    if plugin.manifest:
        out.append(PluginFile(plugin.manifest, "manifest", plugin))
    for target in [os.path.join(directory, HOOKS_FILE)] + declared_paths(plugin, "hooks"):
        if target.endswith(".json") and os.path.isfile(target):
            out.append(PluginFile(target, "hooks", plugin))
    for target in [os.path.join(directory, MCP_JSON)] + declared_paths(plugin, "mcpServers"):
        if target.endswith(".json") and os.path.isfile(target):
            out.append(PluginFile(target, "plugin_mcp", plugin))
    return out


def plugin_files(listdir: Any, root: str) -> list[PluginFile]:
    """Plugin agents, commands, manifests, hooks and `.mcp.json`; marketplaces; and a project's
    `.claude/commands`, `.claude/settings*.json` and `.mcp.json`, below `root` (`listdir` is the
    walker's cached directory listing)."""
    out: list[PluginFile] = []
    if os.path.basename(root.rstrip(os.sep)) == ".claude":  # `check ~/.claude`: the user's own
        out += [PluginFile(p, "command", None) for p in _md_files(listdir, os.path.join(root, "commands"))]
        out += [PluginFile(os.path.join(root, s), "settings", None) for s in SETTINGS_FILES
                if os.path.isfile(os.path.join(root, s))]
    stack: list[tuple[str, int]] = [(root, 0)]
    while stack:
        directory, depth = stack.pop()
        entries, error = listdir(directory)
        if error:
            continue
        plugin = _plugin_at(directory) if _may_be_plugin(directory, entries) else None
        if plugin is not None:
            out += _plugin_parts(listdir, plugin)
        names = {name: is_dir for name, _, is_dir in entries}
        if os.path.basename(directory) in MANAGED_DIRS:
            out += [f for f in (managed_settings_file(os.path.join(directory, MANAGED_SETTINGS)),) if f]
            if names.get(MANAGED_DROP_INS):
                drop_ins, _ = listdir(os.path.join(directory, MANAGED_DROP_INS))
                out += [PluginFile(full, "settings", None) for name, full, is_dir in drop_ins
                        if not is_dir and name.endswith(".json")]
        if plugin is None and names.get(MCP_JSON) is False and (depth == 0 or names.get(".claude")):
            out.append(PluginFile(os.path.join(directory, MCP_JSON), "project_mcp", None))
        for name, full, is_dir in entries:
            if not is_dir or name in NEVER_ENTER:
                continue
            if name == ".claude":
                commands = os.path.join(full, "commands")
                out += [PluginFile(p, "command", None) for p in _md_files(listdir, commands)]
                for settings in SETTINGS_FILES:
                    if os.path.isfile(os.path.join(full, settings)):
                        out.append(PluginFile(os.path.join(full, settings), "settings", None))
                continue
            if name == ".claude-plugin" and os.path.isfile(os.path.join(full, "marketplace.json")):
                out.append(PluginFile(os.path.join(full, "marketplace.json"), "marketplace", plugin))
            if depth + 1 <= PLUGIN_DEPTH and (not name.startswith(".") or name == ".claude-plugin"):
                if plugin is not None and name in COMPONENT_DIRS:
                    continue
                stack.append((full, depth + 1))
    return sorted(set(out), key=lambda f: f.path)


def plugin_file_for(path: str) -> PluginFile | None:
    """What `path` is, when it is a plugin or project file of `KINDS` (for a file checked on its own,
    as the editor does)."""
    base = os.path.basename(path)
    parent = os.path.dirname(path)
    if os.path.basename(parent) == ".claude-plugin" and base in ("plugin.json", "marketplace.json"):
        plugin = _plugin_at(os.path.dirname(parent))
        if base == "marketplace.json":
            return PluginFile(path, "marketplace", plugin)
        return PluginFile(path, "manifest", plugin) if plugin is not None else None
    if base == MCP_JSON:
        plugin = _plugin_at(parent)
        if plugin is not None:
            return PluginFile(path, "plugin_mcp", plugin)
        return PluginFile(path, "project_mcp", None) if os.path.isdir(os.path.join(parent, ".claude")) else None
    if base in SETTINGS_FILES and os.path.basename(parent) == ".claude":
        return PluginFile(path, "settings", None)
    if base == MANAGED_SETTINGS or os.path.basename(parent) == MANAGED_DROP_INS and base.endswith(".json"):
        return managed_settings_file(path)
    if base == "hooks.json" and os.path.basename(parent) == "hooks":
        plugin = _plugin_at(os.path.dirname(parent))
        return PluginFile(path, "hooks", plugin) if plugin is not None else None
    if base.endswith(".json"):
        # a hooks file or an MCP config that a plugin.json names by a custom path ("hooks": "./config/h.json")
        return _declared_file(os.path.abspath(path), (("hooks", "hooks"), ("mcpServers", "plugin_mcp")))
    if not base.endswith(".md") or base.lower() == "readme.md":
        return None
    parts = os.path.abspath(path).split(os.sep)
    if ".claude" in parts[:-1]:
        i = len(parts) - 1 - parts[::-1].index(".claude")
        if i + 1 < len(parts) - 1 and parts[i + 1] == "commands":
            return PluginFile(path, "command", None)
    for component, kind in (("agents", "agent"), ("commands", "command")):
        plugin = _plugin_of_component(parts, component)
        if plugin is not None:
            return PluginFile(path, kind, plugin)
    if base.lower() in ("skill.md", "agent.md"):
        return None  # skills and AGH agents are never a plugin's declared agents or commands
    return _declared_file(os.path.abspath(path))


def _declared_file(path: str, keys: tuple[tuple[str, str], ...] = (("agents", "agent"), ("commands", "command"))
                   ) -> PluginFile | None:
    """A file a plugin's `plugin.json` declares by a custom path (`"agents": ["./custom/x.md"]`, `"hooks":
    "./config/hooks.json"`), looked up in the manifests of the directories above it: `keys` maps the
    manifest's fields to the kind of file they name."""
    directory = os.path.dirname(path)
    for _ in range(PLUGIN_DEPTH):
        parent = os.path.dirname(directory)
        if os.path.isfile(os.path.join(directory, MANIFEST)):
            plugin = _plugin_at(directory)
            if plugin is None:
                return None
            for key, kind in keys:
                for target in declared_paths(plugin, key):
                    if target == path or (kind in ("agent", "command") and os.path.isdir(target)
                                          and path.startswith(target + os.sep)):
                        return PluginFile(path, kind, plugin)
            return None
        if parent == directory:
            break
        directory = parent
    return None


def _plugin_of_component(parts: list[str], component: str) -> Plugin | None:
    """The plugin whose `component` directory holds the path of `parts` (its absolute path split at
    the separator) up to three levels down (as `_md_files`)."""
    for depth in range(2, 5):
        i = len(parts) - depth
        if i > 0 and parts[i] == component:
            plugin = _plugin_at(os.sep.join(parts[:i]) or os.sep)
            if plugin is not None:
                return plugin
    return None


def managed_settings_file(path: str) -> PluginFile | None:
    """Claude Code's managed settings (`<dir>/managed-settings.json`, `<dir>/managed-settings.d/*.json`,
    `<dir>` one of `MANAGED_DIRS`) as a settings file, when it is one."""
    parent = os.path.dirname(path)
    if os.path.basename(path) != MANAGED_SETTINGS:
        parent = os.path.dirname(parent)
    if os.path.basename(parent) in MANAGED_DIRS and os.path.isfile(path):
        return PluginFile(path, "settings", None)
    return None
