"""Where runtimes look: expanding root templates for a workspace and walking directories safely.

Walking never raises: unreadable directories, symlink loops, symlinks leaving the root, FIFOs and
device files are skipped and recorded in `WalkResult.skipped` with a reason.
"""
from __future__ import annotations

import fnmatch
import json
import os
import posixpath
import re
import stat
from collections.abc import Mapping
from typing import Any

from skill_ls.core.config import Config
from skill_ls.core.parse.data import DataError, json_value, jsonc_value
from skill_ls.core.listdir import MAX_WALK_DIRS as MAX_WALK_DIRS  # (re-exported: the walks' limit)
from skill_ls.core.listdir import Ahead, Below, directories_below, list_directory
from skill_ls.core.parse.text import read_bytes
from skill_ls.core.parse.yaml12 import js_string, js_truthy
from skill_ls.core.paths import NEVER_ENTER as NEVER_ENTER
from skill_ls.core.paths import is_under
from skill_ls.core.records import dataclass, field
from skill_ls.core.runtimes import RUNTIMES, Runtime
from skill_ls.core.runtimes.spec import FolderTrust, RootLink, RootSpec
from skill_ls.core.runtimes.agent_families import AGENT_FILE as AGENT_FILE  # re-exported: where discovery looks
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES, AgentDirSpec, AgentFamily

SKILL_FILE = "SKILL.md"


@dataclass(frozen=True, shared_init=True)
class Environment:
    """The process environment that decides root locations: `$HOME`, and one attribute
    per `HomeDir` of the runtime descriptors (whose variable, default and overriding setting are the
    descriptor's)."""

    home: str | None
    agh_home: str | None
    codex_home: str | None
    amp_toolbox: str | None
    # The variables an `{env:NAME=default}` settings template names (Gemini CLI's
    # `GEMINI_CLI_SYSTEM_SETTINGS_PATH`), as (name, value) pairs of the ones that are set.
    variables: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None, config: Config | None = None) -> "Environment":
        env = os.environ if environ is None else environ
        home = env.get("HOME") or None
        dirs: dict[str, str | None] = {}
        named: set[str] = set()
        for runtime in RUNTIMES.values():
            for h in runtime.home_dirs:
                configured = getattr(config, h.setting) if config is not None and h.setting else None
                dirs[h.placeholder] = str(configured) if configured else env.get(h.env_var) or (
                    os.path.join(home, *h.default.split("/")) if home else None)
            trust = runtime.folder_trust
            for template in (*(runtime.own_settings.files if runtime.own_settings else ()),
                             *((trust.file, *trust.switch_files) if trust else ())):
                if template.startswith("{env:"):
                    named.add(template[5:].split("=", 1)[0])
        variables = tuple(sorted((n, env[n]) for n in named if env.get(n)))
        return cls(home=home, variables=variables, **dirs)


@dataclass(frozen=True)
class RootDir:
    """One skill directory a runtime reads, at its tier, once its template is expanded."""

    path: str
    runtime: str
    tier: str
    subrank: int = 0  # order among the expanded dirs of an ordered RootSpec (0 wins)
    origin: str = "workspace"
    agent: str | None = None  # agent_local roots belong to one agent
    # A root the runtime never scans, kept so its files are explained (a shadowed agent's skills/).
    unused: str | None = None
    activates: bool = True  # its existing makes the runtime active (`RootSpec.activates`)
    # The directory whose files this root's skills serve (`RootSpec.scoped`: Cursor's nested
    # `apps/web/.cursor/skills` serves `apps/web`); None: every file.
    scope: str | None = None
    scope_label: str = ""  # that directory as a reader tells it: relative to the workspace (`apps/web`)
    via: str | None = None  # the link file that moved this root here (`RootSpec.link`), if any
    # Kept unread because the runtime does not trust the workspace folder (`Runtime.folder_trust`;
    # `unused` says why): the runtime's settings files of that folder are not read either.
    untrusted: bool = False

    @property
    def runtime_def(self) -> Runtime:
        return RUNTIMES[self.runtime]


def find_repo_root(workspace: str) -> str:
    cur = workspace
    while True:
        if os.path.exists(os.path.join(cur, ".git")):
            return cur
        parent = os.path.dirname(cur)
        if parent == cur:
            return workspace
        cur = parent


def _expand(template: str, workspace: str, env: Environment, config: Config,
            walker: "Walker | None" = None) -> list[str]:
    if template.startswith("{env:"):  # (its default is a path: split at the closing brace that ends it)
        head, _, rest = template.rpartition("}")
        name, _, default = head[5:].partition("=")
        if default.startswith("{") and not dict(env.variables).get(name):  # a default that is a template
            return _expand(default + ("/" + rest.lstrip("/") if rest.lstrip("/") else ""), workspace, env, config)
        return _expand_env(head.lstrip("{"), rest.lstrip("/"), env)
    head, _, rest = template.partition("}")
    key = head.lstrip("{")
    rest = rest.lstrip("/")
    if not template.startswith("{"):
        return [template]
    bases: list[str]
    if key == "workspace":
        bases = [workspace]
    elif key in ("home", "agh_home", "codex_home", "amp_toolbox"):
        value = getattr(env, key)
        bases = [value] if value else []
    elif key == "ancestors":
        repo = find_repo_root(workspace)
        bases, cur = [], workspace
        while True:
            bases.append(cur)
            if cur == repo:
                break
            parent = os.path.dirname(cur)
            if parent == cur:
                break
            cur = parent
    elif key == "repo_chain":
        bases = list(reversed(_expand("{ancestors}", workspace, env, config)))
    elif key.startswith("config:"):
        bases = [str(p) for p in getattr(config, key.split(":", 1)[1])]

    else:  # pragma: no cover - a template typo in a descriptor (skill_ls/core/runtimes/)
        raise ValueError(f"unknown root placeholder {key}")
    paths = [os.path.normpath(os.path.join(b, rest)) if rest else os.path.normpath(b) for b in bases]
    return [g for p in paths for g in _glob_dirs(p, walker)] if "*" in rest else paths


def _expand_env(key: str, rest: str, env: Environment) -> list[str]:
    name, _, default = key[4:].partition("=")
    value = dict(env.variables).get(name) or default
    return [os.path.normpath(os.path.join(value, rest)) if rest else os.path.normpath(value)] if value else []


def expand_template(template: str, workspace: str, env: Environment, config: Config) -> list[str]:
    """The paths a root (or settings file) template names for this workspace, environment and
    configuration (`RootSpec`'s placeholders and `*` segments)."""
    return _expand(template, workspace, env, config)


def _glob_dirs(path: str, walker: "Walker | None" = None) -> list[str]:
    """`path` with each `*` segment replaced by every directory there, in name order (a missing or
    unreadable directory gives none); a `**` segment by every directory below (`_below`), keeping
    only the paths that are directories."""
    head, sep, tail = path.partition(os.sep + "**")
    if sep and (not tail or tail.startswith(os.sep)):
        first = tail.lstrip(os.sep).split(os.sep, 1)[0]  # (a folder lacking it is not stat'ed)
        return [p for d, children in _below(head, walker) if not first or first in children
                for p in _glob_dirs(d + tail, walker) if os.path.isdir(p)]
    head, sep, tail = path.partition(os.sep + "*")
    if not sep:
        return [path]
    try:
        names = sorted(e.name for e in os.scandir(head) if e.is_dir())
    except OSError:
        return []
    out: list[str] = []
    for name in names:
        out.extend(_glob_dirs(head + os.sep + name + tail, walker))
    return out


def _below(base: str, walker: "Walker | None" = None) -> Below:
    """Every directory below `base` (not `base` itself), in path order, with the names of its child
    directories (`core.listdir.directories_below`: hidden directories and the ones no walk enters are
    neither listed nor entered, symlinked directories are not followed, at most MAX_WALK_DIRS
    directories are listed). With `walker`, its answer for `base` and its cached listings are used
    (and kept: the checked folders' walk reads them again), or the answer found ahead."""
    walker = walker if walker is not None else Walker()
    out = walker.below.get(base)
    if out is None:
        out = walker.ahead.below(base, MAX_WALK_DIRS) if walker.ahead is not None else None
        if out is None:
            out = directories_below(base, walker.listdir, walker.is_link, NEVER_ENTER, MAX_WALK_DIRS)
        walker.below[base] = out
    return out


def _json_object(path: str, jsonc: bool) -> dict[str, Any] | None:
    """A JSON file's top-level object; None when the file is missing, unreadable, too large or not an object."""
    raw, error, _ = read_bytes(path)  # never blocks on a FIFO or a device
    if error is not None or len(raw) > 1024 * 1024:
        return None
    try:
        text = raw.decode("utf-8", errors="replace")
        data = jsonc_value(text) if jsonc else json_value(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _json_value(settings_file: str, key: str, jsonc: bool) -> Any:
    """The value of `key` (a literal key, else a dotted path) in a runtime's own JSON settings file;
    None when the file is missing, unreadable, too large or not an object."""
    data = _json_object(settings_file, jsonc)
    if data is None:
        return None
    value = data.get(key)
    if value is None and "." in key:  # a nested key (OpenCode's `{"skills": {"paths": [...]}}`)
        value = data
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
    return value


def _flag(value: Any) -> bool | None:
    """A boolean as VS Code's `asBoolean` reads one: true/false, or the strings "true"/"false"."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _switched_off(spec: RootSpec, workspace: str, env: Environment, config: Config) -> bool:
    """Whether `spec.json_switch`'s file maps this root's own location to false."""
    if spec.json_switch is None:
        return False
    templates, key = spec.json_switch
    head, _, rest = spec.template.partition("}/")
    location = rest if head == "{workspace" else "~/" + rest if head == "{home" else None
    if location is None:
        return False
    state = None  # the last file that maps the location decides (VS Code merges the maps)
    for template in templates:
        for path in _expand(template, workspace, env, config):
            value = _json_value(path, key, jsonc=True)
            for k, v in value.items() if isinstance(value, dict) else ():
                if isinstance(k, str) and k.strip() == location and _flag(v) is not None:
                    state = _flag(v)
    return state is False


def link_template(spec: RootSpec) -> str:
    """The template of the files that may move `spec`'s roots (`RootSpec.link`):
    `{home}/.gemini/extensions/*/.gemini-extension-install.json`."""
    assert spec.link is not None
    return posixpath.normpath(spec.template + "/" + spec.link.file)


def marker_paths(spec: RootSpec, workspace: str, env: Environment, config: Config) -> list[str]:
    """Every marker file (`RootSpec.marker`) whose existence or content decides whether a root of
    `spec` is read, existing or not: beside each expanded root, or beside the folder a link file
    moves it to (a linked Gemini CLI extension's source). A change to one changes what the runtime
    loads (the server rebuilds the index)."""
    if not spec.marker or (config.no_user_roots and spec.origin in ("user", "system")):
        return []
    paths = _expand(spec.template, workspace, env, config)
    if spec.link is not None:
        paths = [r for r, _ in (_linked(spec.link, p, workspace) for p in paths) if r is not None]
    return [os.path.normpath(os.path.join(p, spec.marker)) for p in paths]


def _reads_marker(spec: RootSpec) -> bool:
    return bool(spec.marker) and bool(spec.enablement or spec.marker_unique or spec.marker_required
                                      or spec.marker_name_pattern)


def _marker_read(spec: RootSpec, root: str, env: Environment) -> tuple[str | None, str | None]:
    """(the `name` the root's marker file holds, what the runtime finds wrong with the file) for an
    existing marker (an extension's `gemini-extension.json`): the requirements are
    `spec.marker_required` and `spec.marker_name_pattern`, read as Gemini CLI's `loadExtensionConfig`
    does (`JSON.parse`, `!config.name`, `validateName`); without them, a non-empty string `name` or none."""
    path = os.path.normpath(os.path.join(root, spec.marker))
    shown = _home_short(path, env)
    strict = bool(spec.marker_required or spec.marker_name_pattern)
    raw, error, _ = read_bytes(path)  # never blocks on a FIFO or a device
    if error is not None:
        return None, f"{shown} cannot be read ({error}): the extension is skipped" if strict else None
    if len(raw) > 1024 * 1024:
        return None, None  # (not read: too large to be a manifest skill-ls judges)
    try:
        data = json_value(raw.decode("utf-8", errors="replace"))
    except DataError as exc:
        detail = exc.message.removeprefix("not valid JSON: ")
        return None, f"{shown} is not valid JSON (line {exc.line + 1}: {detail}): the extension is skipped" \
            if strict else None
    if not strict:
        name = data.get("name") if isinstance(data, dict) else None
        return (name if isinstance(name, str) and name else None), None
    if not isinstance(data, dict):
        return None, f"{shown} is not a JSON object: the extension is skipped"
    for key in spec.marker_required:
        if not js_truthy(data.get(key)):
            return None, f"{shown} has no \"{key}\": the extension is skipped"
    name = js_string(data.get("name"))
    if spec.marker_name_pattern and re.fullmatch(spec.marker_name_pattern, name) is None:
        return None, f"{shown}: the name \"{name}\" does not match {spec.marker_name_pattern}: the extension is skipped"
    return name or None, None


def _linked(link: RootLink, root: str, workspace: str) -> tuple[str | None, str | None]:
    """(the root, the link file) when `link`'s file beside `root` moves it (`RootSpec.link`); (`root`,
    None) when it does not; (None, the file) when the file asks for a move to no folder."""
    file = os.path.normpath(os.path.join(root, link.file))
    data = _json_object(file, jsonc=False)
    if data is None or data.get(link.kind[0]) != link.kind[1]:
        return root, None
    source = data.get(link.source)
    if not isinstance(source, str):
        return None, file
    moved = os.path.join(workspace, source), os.path.relpath(root, os.path.dirname(file))
    return os.path.normpath(os.path.join(*moved)), file


def _home_short(path: str, env: Environment) -> str:
    return "~" + path[len(env.home):] if env.home and is_under(path, env.home) else path


def _enablement_off(spec: RootSpec, name: str | None, workspace: str, env: Environment, config: Config) -> str | None:
    """Why `spec.enablement`'s file turns this root off for the workspace (None: it is read); `name`:
    the root's marker name (`_marker_read`)."""
    if name is None:
        return None
    folder = "/" + workspace.replace(os.sep, "/").strip("/") + "/"
    for path in _expand(spec.enablement, workspace, env, config):
        entry = _json_value(path, name, jsonc=False)
        rules = entry.get("overrides") if isinstance(entry, dict) else None
        last = None
        for rule in rules if isinstance(rules, list) else ():
            if isinstance(rule, str) and _override_matches(rule.removeprefix("!"), folder):
                last = rule
        if last is not None and last.startswith("!"):
            return f"extension '{name}' is disabled for this folder ({_home_short(path, env)}: \"{last}\")"
    return None


def _override_matches(rule: str, folder: str) -> bool:
    """Whether an enablement rule (its `!` removed) matches `folder` (`/a/b/`), as Gemini CLI's
    `Override.matchesPath` does: the rule's `*` matches any rest, an optional `/` before it included."""
    escaped = re.sub(r"[.+?^${}()|\[\]\\]", lambda m: "\\" + m.group(0), rule)
    pattern = re.sub(r"(/?)\*", lambda m: "(" + m.group(1) + ".*)?", escaped)
    try:
        return re.fullmatch(pattern, folder, re.S) is not None
    except re.error:
        return False


def folder_untrusted(runtime: Runtime, workspace: str, env: Environment, config: Config) -> str | None:
    """Why `runtime` does not trust the workspace folder (`Runtime.folder_trust`), naming the file
    and the rule that decide it, and what that costs; None where it trusts the folder or checks no
    trust. The rules file is read only when a settings file turns trust on (Gemini CLI's
    `security.folderTrust.enabled`)."""
    trust = runtime.folder_trust
    if trust is None:
        return None
    on, source = trust.default, None
    for template in trust.switch_files:
        for path in _expand(template, workspace, env, config):
            value: Any = _json_object(path, trust.switch_format == "jsonc")
            for key in trust.switch:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, bool):
                on, source = value, path
    if not on:
        return None
    why = f"{'.'.join(trust.switch)} is true in {_home_short(source, env)}" if source else "trust is checked by default"
    files = _expand(trust.file, workspace, env, config)
    shown = _home_short(files[0], env) if files else trust.file
    rules, problem = _trust_rules(files[0], trust) if files else ({}, None)
    if problem is not None:
        return f"{shown} {problem}: {trust.file_fatal}"
    verdict = _trust_rule(rules, workspace, trust)
    if verdict is None:
        return (f"the folder's trust is not decided (no rule of {shown} covers it; {why}): {trust.undecided}, "
                f"and until then {trust.effect}")
    rule, level = verdict
    if level in trust.untrusted_levels:
        return f"the folder is not trusted ({shown}: \"{rule}\": {level}; {why}): {trust.effect}"
    return None


def _trust_rules(path: str, trust: FolderTrust) -> tuple[dict[str, str], str | None]:
    """(folder path -> level, what is wrong with the file) of a folder trust file, read as Gemini
    CLI's `loadTrustedFolders` reads `trustedFolders.json` (`JSON.parse(stripJsonComments(…))`; no
    file: no rules; anything it cannot take: the problem)."""
    if not os.path.exists(path):
        return {}, None
    raw, error, _ = read_bytes(path)  # never blocks on a FIFO or a device
    if error is not None:
        return {}, f"cannot be read ({error})"
    try:
        data = jsonc_value(raw.decode("utf-8", errors="replace"), trailing_commas=False)
    except DataError as exc:
        return {}, f"is not valid JSON (line {exc.line + 1}: {exc.message.removeprefix('not valid JSON: ')})"
    if not isinstance(data, dict):
        return {}, "is not a JSON object"
    levels = (*trust.trusted_levels, *trust.parent_levels, *trust.untrusted_levels)
    for folder, level in data.items():
        if not isinstance(level, str) or level not in levels:
            shown = json.dumps(level) if isinstance(level, (str, int, float, bool)) or level is None else "a " + \
                type(level).__name__.replace("dict", "object").replace("list", "array")
            return {}, f"gives {shown} for \"{folder}\", which is not one of {', '.join(levels)}"
    return data, None


def _trust_rule(rules: dict[str, str], workspace: str, trust: FolderTrust) -> tuple[str, str] | None:
    """The (folder, level) rule that decides the workspace, as Gemini CLI's `isPathTrusted` picks it:
    of the rules whose folder (a parent level's: the folder's parent) holds the workspace, both as
    real paths, the one whose folder is written longest (in UTF-16 code units; the first of equals)."""
    location = _node_resolve(_real(workspace, workspace), workspace)
    best: tuple[str, str] | None = None
    longest = -1
    for folder, level in rules.items():
        effective = _node_dirname(folder) if level in trust.parent_levels else folder
        root = _node_resolve(_real(effective, workspace), workspace)
        inside = location == root or location.startswith(root if root.endswith("/") else root + "/")
        length = len(folder.encode("utf-16-le")) // 2
        if inside and length > longest:
            best, longest = (folder, level), length
    return best


def _real(path: str, workspace: str) -> str:
    """Node's `fs.existsSync(p) ? fs.realpathSync(p) : p` in a process whose directory is `workspace`."""
    full = os.path.join(workspace, path)
    try:
        return os.path.realpath(full) if os.path.exists(full) else path
    except (OSError, ValueError):
        return path


def _node_resolve(path: str, workspace: str) -> str:
    """Node's `path.resolve(p)` in a process whose directory is `workspace`."""
    return posixpath.normpath(posixpath.join(workspace, path)) if path else workspace


def _node_dirname(path: str) -> str:
    """Node's `path.dirname` (trailing separators do not count)."""
    head = posixpath.dirname(path.rstrip("/") or "/") if path else ""
    return head or "."


def _json_paths(settings_file: str, keys: tuple[str, ...], workspace: str, json_base: str = "workspace",
                jsonc: bool = False, scope: str = "all", lists: bool = True, merge: tuple[str, ...] = ()) -> list[str]:
    """The paths a runtime's own JSON settings file lists under the first of `keys` it has (a string
    is one path, a list several unless `lists` is false, a mapping its keys whose value is true; a
    dotted key is also looked up nested); relative paths are taken from the workspace or, with
    `json_base="file"`, from the file's directory; `~` is expanded. `jsonc`: the file may hold
    comments and trailing commas. `scope` keeps only the `~/…` paths ("home") or only the others
    ("workspace"); `merge`: files whose map under the key is merged over this one's, entry by entry.
    Unreadable: none."""
    base = workspace if json_base == "workspace" else os.path.dirname(settings_file)
    for key in keys:
        value = _json_value(settings_file, key, jsonc)
        for other in merge:
            over = _json_value(other, key, jsonc)
            if isinstance(over, dict):
                value = {**(value if isinstance(value, dict) else {}), **over}
        if value is None:
            continue
        items = [value] if isinstance(value, str) else (value if lists else []) if isinstance(value, list) else \
            [k.strip() for k, on in value.items() if isinstance(k, str) and _flag(on)] if isinstance(value, dict) else []
        if scope != "all":
            items = [v for v in items if isinstance(v, str) and (v == "~" or v.startswith("~/")) == (scope == "home")]
        return [os.path.join(base, os.path.expanduser(v)) for v in items if isinstance(v, str) and v]
    return []


def runtime_roots(runtime: Runtime, workspace: str, env: Environment, config: Config,
                  walker: "Walker | None" = None) -> list[RootDir]:
    """The runtime's roots for this workspace (`walker`: whose cached listings a `**` segment reads)."""
    roots: list[RootDir] = []
    next_rank: dict[str, int] = {}  # ordered specs of one tier continue each other's order
    # (the folder's trust decided once: its rules file is read at most once per call)
    trust = runtime.folder_trust
    distrust = folder_untrusted(runtime, workspace, env, config) if trust is not None else None
    for spec in runtime.roots:
        if config.no_user_roots and spec.origin in ("user", "system"):
            continue
        paths = _expand(spec.template, workspace, env, config, walker)
        if spec.json_keys:
            merge = tuple(_expand(spec.json_merge, workspace, env, config)) if spec.json_merge else ()
            paths = [p for f in paths for p in _json_paths(f, spec.json_keys, workspace, spec.json_base, spec.jsonc,
                                                spec.json_scope, spec.json_lists, merge)]
        if spec.json_switch is not None and _switched_off(spec, workspace, env, config):
            continue
        via: dict[str, str] = {}
        if spec.link is not None:
            moved = [(p, _linked(spec.link, p, workspace)) for p in paths]
            via = {os.path.normpath(r): f for _, (r, f) in moved if r is not None and f is not None}
            paths = [r for _, (r, _f) in moved if r is not None]
        if spec.marker:
            paths = [p for p in paths if os.path.isfile(os.path.normpath(os.path.join(p, spec.marker)))]
        # (each marker read once: its validity, the enablement rules and the one-per-name rule)
        read = {p: _marker_read(spec, p, env) for p in paths} if _reads_marker(spec) else {}
        names = {p: name for p, (name, _) in read.items()}
        unused = {p: _enablement_off(spec, names[p], workspace, env, config) for p in paths} if spec.enablement else {}
        if spec.marker_unique:
            unused.update(_repeated_names(spec, paths, names, env))
        unused.update((p, problem) for p, (_, problem) in read.items() if problem is not None)
        untrusted = distrust is not None and trust is not None and spec.origin in trust.origins
        if untrusted:  # (the runtime does not look there at all)
            unused = dict.fromkeys(paths, distrust)
        start = next_rank.get(spec.tier, 0) if spec.ordered else 0
        last = len(paths) - 1
        # A scoped root serves the directory its `**` segment matched (the path less the segments after it).
        up = spec.template.split("/**/", 1)[1].count("/") + 1 if spec.scoped and "/**/" in spec.template else 0
        for i, path in enumerate(paths):
            path = os.path.normpath(path)
            scope = path.rsplit(os.sep, up)[0] if up else None
            rank = start + (last - i if spec.last_wins else i) if spec.ordered else 0
            roots.append(RootDir(path, runtime.id, spec.tier, rank,
                                 spec.origin, unused=unused.get(path), activates=spec.activates, scope=scope,
                                 scope_label=os.path.relpath(scope, workspace) if scope else "", via=via.get(path),
                                 untrusted=untrusted))
        if spec.ordered:
            next_rank[spec.tier] = start + len(paths)
    for extra in config.roots:
        if extra.runtime == runtime.id:
            tier = extra.tier or runtime.extra_root_tier
            roots.append(RootDir(os.path.normpath(str(extra.path)), runtime.id, tier, 0, "config"))
    return _distinct(runtime, roots)


def _repeated_names(spec: RootSpec, paths: list[str], names: dict[str, str | None],
                    env: Environment) -> dict[str, str]:
    """The roots of `spec.marker_unique` whose marker repeats a name an earlier root's holds -> why
    they are not read (before any enablement rule: the runtime skips them before asking); `names`:
    each root's marker name."""
    first: dict[str, str] = {}
    out: dict[str, str] = {}
    for path in paths:
        name = names[path]
        if name is None:
            continue
        if name in first:
            shown = _home_short(os.path.normpath(os.path.join(first[name], spec.marker)), env)
            out[path] = f"extension '{name}' is already loaded from {shown} (extension folders load in name order)"
        else:
            first[name] = path
    return out


def _distinct(runtime: Runtime, roots: list[RootDir]) -> list[RootDir]:
    """One directory is one root: when two templates meet (a workspace that is $HOME makes
    `<ws>/.agh/skills` and `$AGH_HOME/skills` the same place), the higher tier keeps it; otherwise a
    skill would shadow itself. A root the runtime leaves unread for an untrusted folder never takes
    the place of one it reads (Gemini CLI started in the home directory, not trusted, still loads
    `~/.gemini/skills` as user skills)."""
    best: dict[str, RootDir] = {}
    for root in roots:
        try:
            key = os.path.realpath(root.path)
        except (OSError, ValueError):
            key = root.path
        kept = best.get(key)
        if kept is None or (not root.untrusted, runtime.rank(root.tier), -root.subrank) > \
                (not kept.untrusted, runtime.rank(kept.tier), -kept.subrank):
            best[key] = root
    chosen = set(map(id, best.values()))
    return [r for r in roots if id(r) in chosen]


def active_runtimes(workspace: str, env: Environment, config: Config,
                    walker: "Walker | None" = None) -> dict[str, list[RootDir]]:
    """Runtime id -> its roots, for every runtime that is active (intro)."""
    out: dict[str, list[RootDir]] = {}
    auto = "auto" in config.runtimes
    for rid, runtime in RUNTIMES.items():
        roots = runtime_roots(runtime, workspace, env, config, walker)
        if rid in config.runtimes:
            out[rid] = roots
        elif auto and not runtime.active_by_config_only and any(r.activates and os.path.isdir(r.path) for r in roots):
            out[rid] = roots
        elif auto and runtime.active_by_config_only and roots:
            out[rid] = roots
    # Agent directories alone make their runtime active too (`AgentDirSpec.activates`): their
    # definitions need checking.
    for rid, runtime in RUNTIMES.items():
        family = AGENT_FAMILIES[runtime.agent_scoping.family] if runtime.agent_scoping is not None else None
        if auto and rid not in out and family is not None and any(
                spec.activates and os.path.isdir(d) for d, spec in agent_dirs(family, workspace, env, config)):
            out[rid] = runtime_roots(runtime, workspace, env, config, walker)
    return out


def agent_dirs(family: AgentFamily, workspace: str, env: Environment, config: Config) -> list[tuple[str, AgentDirSpec]]:
    """The directories holding `family`'s definitions, highest precedence first (user directories
    are left out with `no_user_roots`)."""
    out: list[tuple[str, AgentDirSpec]] = []
    for spec in family.dirs:
        if config.no_user_roots and spec.origin == "user":
            continue
        out.extend((path, spec) for path in _expand(spec.template, workspace, env, config))
    return out


@dataclass(slots=True)
class Found:
    """A file found by a walk, with its depth below the root."""

    path: str
    depth: int  # SKILL.md directly in a child directory of the root is depth 1


@dataclass(shared_init=True)
class WalkResult:
    """What one walk of a directory tree found (`Walker.walk`)."""

    files: dict[str, list[Found]] = field(default_factory=dict)  # file name -> found
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    truncated: bool = False  # stopped at the directory limit


class Excluder:
    def __init__(self, patterns: tuple[str, ...], base: str):
        self.patterns = patterns
        self.base = base

    def __call__(self, path: str) -> bool:
        if not self.patterns:
            return False
        rel = os.path.relpath(path, self.base) if path.startswith(self.base) else path
        for pat in self.patterns:
            if fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(path, pat) or fnmatch.fnmatch(rel + "/", pat):
                return True
            if pat.endswith("/**") and (rel == pat[:-3] or rel.startswith(pat[:-2])):
                return True
        return False


class Walker:
    """Walks directory trees once, caching listings so overlapping roots cost nothing extra."""

    def __init__(self, excluder: Excluder | None = None):
        self._listing: dict[str, tuple[list[tuple[str, str, bool]], str | None] | None] = {}
        self._links: set[str] = set()  # entries that are symlinks (only these need realpath)
        self._special: set[str] = set()  # FIFOs, sockets, devices: reported, never opened
        self.excluder = excluder or Excluder((), "")
        self.truncated: list[str] = []  # roots whose walk stopped at MAX_WALK_DIRS
        self.below: dict[str, Below] = {}  # `_below`'s answers, as the listings
        self.ahead: Ahead | None = None  # listings another process of the run listed ahead (`check`)

    def is_link(self, path: str) -> bool:
        """Whether an entry `listdir` returned is a symbolic link."""
        return path in self._links

    def listdir(self, path: str) -> tuple[list[tuple[str, str, bool]], str | None]:
        """(entries, error): entries are (name, full path, is_dir) for dirs and regular files, by name
        (`core.listdir.list_directory`, cached)."""
        cached = self._listing.get(path)
        if cached is not None:
            return cached
        found = self.ahead.listing(path) if self.ahead is not None else None
        entries, error, links, special = found if found is not None else list_directory(path)
        self._links.update(links)
        self._special.update(special)
        result = (entries, error)
        self._listing[path] = result
        return result

    def walk(self, root: str, wanted: frozenset[str], max_depth: int = 64, max_dirs: int | None = None,
             suffix: str | None = None) -> WalkResult:
        """Find files named in `wanted` below `root` (and, with `suffix`, every file whose name ends
        with it, filed under `"*" + suffix`), recording each one's depth.

        Runtime scan limits are applied by the caller (so what lies beyond them can be reported).
        Symlinked directories are followed only while they stay inside the root's real path. At most
        `max_dirs` (default MAX_WALK_DIRS) directories are listed; a walk that stops there says so in
        `skipped` and in `truncated`."""
        limit = MAX_WALK_DIRS if max_dirs is None else max_dirs
        listed = 0
        result = WalkResult()
        try:
            real_root = os.path.realpath(root)
        except (OSError, ValueError):
            return result
        if not os.path.isdir(root):
            return result
        seen: set[str] = {real_root}
        stack: list[tuple[str, int, str]] = [(root, 0, real_root)]
        links = self._links
        excluded = self.excluder if self.excluder.patterns else None  # (no call per entry without patterns)
        root_prefix = real_root.rstrip(os.sep) + os.sep
        while stack:
            if listed >= limit:
                result.skipped.append((root, f"stopped after listing {limit:,} directories: the rest of this tree "
                                             "is not indexed (open a project folder instead)"))
                result.truncated = True
                if root not in self.truncated:
                    self.truncated.append(root)
                break
            listed += 1
            directory, depth, real_dir = stack.pop()
            entries, error = self.listdir(directory)
            if error:
                result.skipped.append((directory, f"cannot read directory: {error}"))
                continue
            subdirs = []
            deeper = depth + 1 <= max_depth
            for name, full, is_dir in entries:
                if is_dir:
                    if deeper and name not in NEVER_ENTER and (excluded is None or not excluded(full)):
                        subdirs.append((name, full))
                elif name in wanted or (suffix is not None and name.endswith(suffix)):
                    if excluded is not None and excluded(full):
                        continue
                    if full in self._special or (full in links and _is_special(full)):
                        result.skipped.append((full, "not a regular file"))
                        continue
                    if name not in wanted and full in links and not _inside(full, real_root):
                        # any Markdown file may be a skill here (Agentcy): one that links out of the
                        # root is someone else's file, never opened
                        result.skipped.append((full, "symlink leads outside the root; not followed"))
                        continue
                    key = name if name in wanted else "*" + str(suffix)
                    result.files.setdefault(key, []).append(Found(full, depth))
            real_prefix = real_dir if real_dir.endswith(os.sep) else real_dir + os.sep
            for name, full in reversed(subdirs):
                if full in links:
                    try:
                        real = os.path.realpath(full)
                    except (OSError, ValueError):
                        continue
                    if not (real == real_root or real.startswith(root_prefix)):
                        result.skipped.append((full, "symlink leads outside the root; not followed"))
                        continue
                else:  # a plain directory's real path follows from its parent's (inside the root)
                    real = real_prefix + name
                if real in seen:
                    result.skipped.append((full, "symlink loop: directory already visited"))
                    continue
                seen.add(real)
                stack.append((full, depth + 1, real))
        for found in result.files.values():
            found.sort(key=lambda f: f.path)
        return result


def _inside(path: str, real_root: str) -> bool:
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _is_special(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))
