"""A runtime's own settings files (`Runtime.own_settings`), read only: whether its skill system is
switched off, and which skill names its user disabled.

AGH: `[skills] enabled` in `$AGH_HOME/config.toml`. Gemini CLI: `skills.enabled` and `skills.disabled`
in `~/.gemini/settings.json` and the workspace's `.gemini/settings.json`. What each file says is read
once per index state (kept in `Index.derived`, dropped whenever the index learns that a file changed).
"""
from __future__ import annotations

import os
import posixpath
from typing import Any, cast

from skill_ls.core.discovery import expand_template, folder_untrusted, link_template, marker_paths
from skill_ls.core.index import Index, read_bytes
from skill_ls.core.parse.data import DataError, json_value, jsonc_value, toml_value
from skill_ls.core.runtimes import Runtime
from skill_ls.core.runtimes.spec import OwnSettings


def _parse(data: bytes, fmt: str) -> dict[str, Any]:
    text = data.decode("utf-8", errors="replace")
    try:  # (core/parse/data.py: huge integers, deep nesting and every parser failure are values)
        value: Any = toml_value(text) if fmt == "toml" else jsonc_value(text) if fmt == "jsonc" else json_value(text)
    except DataError:
        return {}
    return value if isinstance(value, dict) else {}


def _parse_frontmatter(data: bytes) -> dict[str, Any]:
    """A Markdown file's YAML frontmatter as a plain mapping (an agent definition's settings)."""
    from skill_ls.core.parse.frontmatter import parse_frontmatter
    from skill_ls.core.parse.text import SourceText

    fm = parse_frontmatter(SourceText.from_bytes(data), check_duplicates=False)
    return {key: entry.value for key, entry in fm.fields.items()} if fm.ok else {}


def settings_file(index: Index, path: str, fmt: str) -> dict[str, Any] | None:
    """One settings file's contents (None when it cannot be read; {} when malformed), read once per
    index state: kept in `Index.derived` under its path, so every reader of the file (AGH's
    `config.toml`: its skills switch here, its providers and consent in core/mcp.py) sees the same
    text until the index learns of a change."""
    key = ("settings_file", path)
    if key not in index.derived:
        data, error, _ = read_bytes(path)
        index.derived[key] = None if error is not None else _parse(data, fmt)
    return cast("dict[str, Any] | None", index.derived[key])


def settings_files(index: Index | None, runtime: Runtime) -> list[tuple[str, dict[str, Any]]]:
    """(path, contents) of each of the runtime's settings files that exists, lowest precedence first
    (an unreadable or malformed file counts as empty: the runtime falls back to its defaults)."""
    spec = runtime.own_settings
    if spec is None or index is None:
        return []
    trust = runtime.folder_trust
    skipped: set[str] = set()
    if trust is not None and trust.ignored_settings and _untrusted(runtime, index):
        skipped = {os.path.normpath(p) for t in trust.ignored_settings
                   for p in expand_template(t, index.workspace, index.env, index.config)}
    out = []
    for path in _expand_files(spec.files, index):
        if skipped and os.path.normpath(path) in skipped:  # (a folder it does not trust: Gemini CLI)
            continue
        data = settings_file(index, path, spec.format)
        if data is not None:
            out.append((path, data))
    return out


def _untrusted(runtime: Runtime, index: Index) -> bool:
    """Whether the runtime does not trust the workspace folder (`Runtime.folder_trust`): as the
    index's roots say (decided once per build), else asked once per index state."""
    roots = index.roots.get(runtime.id)
    if roots is not None:
        return any(r.untrusted for r in roots)
    key = ("folder_untrusted", runtime.id)
    if key not in index.derived:
        index.derived[key] = folder_untrusted(runtime, index.workspace, index.env, index.config) is not None
    return bool(index.derived[key])


def _expand_files(templates: tuple[str, ...], index: Index) -> list[str]:
    """The paths of `templates`, in order; consecutive templates that begin with the same
    placeholder are expanded directory by directory (OpenCode's `{repo_chain}/opencode.jsonc` and
    `{repo_chain}/opencode.json`: both files of the worktree's root, then both of the next level)."""
    out: list[str] = []
    i = 0
    while i < len(templates):
        head = templates[i].split("}", 1)[0] + "}" if templates[i].startswith("{") else None
        j = i + 1
        while head is not None and j < len(templates) and templates[j].startswith(head + "/"):
            j += 1
        if head is None or j == i + 1 or "*" in "".join(templates[i:j]):
            out.extend(expand_template(templates[i], index.workspace, index.env, index.config))
            i += 1
            continue
        for base in expand_template(head, index.workspace, index.env, index.config):
            out.extend(os.path.join(base, t[len(head) + 1:]) for t in templates[i:j])
        i = j
    return out


def _at(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    value: Any = data
    for k in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(k)
    return value


def skills_switched_off(runtime: Runtime, index: Index | None) -> str | None:
    """Why the runtime's whole skill system is off (the last of its settings files that sets the
    switch says `false`), or None."""
    spec = runtime.own_settings
    if spec is None or spec.switch is None:
        return None
    off: str | None = None
    for path, data in settings_files(index, runtime):
        value = _at(data, spec.switch)
        if isinstance(value, bool):
            off = None if value else f"{'.'.join(spec.switch)} = false in {path}: {spec.switch_effect}"
    return off


def disabled_names(runtime: Runtime, index: Index | None, agent: str | None = None) -> dict[str, str]:
    """Skill names turned off for this runtime -> where: skill-ls's own setting for the operator
    (`Runtime.operator_disabled`) and the runtime's settings files (`OwnSettings.disabled`, the
    permissions; for `agent`, one of `settings_agents`, with that agent's own rules last)."""
    out: dict[str, str] = {}
    if runtime.operator_disabled is not None and index is not None:
        where = runtime.setting_key(runtime.operator_disabled)
        for name in getattr(index.config, runtime.operator_disabled):
            out.setdefault(name, where)
    spec = runtime.own_settings
    if spec is not None and spec.disabled is not None:
        for path, data in settings_files(index, runtime):
            value = _at(data, spec.disabled)
            if isinstance(value, list):
                for name in value:
                    if isinstance(name, str):
                        out.setdefault(name, f"{'.'.join(spec.disabled)} in {_home_relative(path, index)}")
    if spec is not None and spec.permissions is not None and index is not None:
        out.update({name: where for name, where in _denied(runtime, index, agent).items() if name not in out})
    return out


Rule = tuple[str, object, str, str]  # (name pattern, action, the key path written out, file)


def wildcard_match(pattern: str, name: str) -> bool:
    """A permission pattern matched against a whole name: `*` any run of characters, `?` one
    character, the rest literal. The greedy two-pointer match (O(len(pattern) × len(name)) at worst):
    a pattern written to make a regular expression backtrack cannot stall it."""
    p = n = 0
    star, mark = -1, 0
    while n < len(name):
        if p < len(pattern) and pattern[p] != "*" and (pattern[p] == "?" or pattern[p] == name[n]):
            p, n = p + 1, n + 1
        elif p < len(pattern) and pattern[p] == "*":
            star, mark, p = p, n, p + 1
        elif star >= 0:
            mark += 1
            p, n = star + 1, mark
        else:
            return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


def _rules_in(data: dict[str, Any], spec: OwnSettings, path: str, prefix: str = "") -> list[Rule]:
    """The skill permission rules one mapping holds, in order: with `permission_wildcards`, the
    parent's string value or `"*"` key (for every permission), then the specific key's string (every
    name) or its pattern map."""
    assert spec.permissions is not None
    keys, last = spec.permissions[:-1], spec.permissions[-1]
    parent = _at(data, keys) if keys else data
    where = prefix + ".".join(spec.permissions)
    out: list[Rule] = []
    if spec.permission_wildcards and isinstance(parent, str):
        return [("*", parent, prefix + ".".join(keys), path)]
    if not isinstance(parent, dict):
        return out
    for key, value in parent.items():
        if key == "*" and spec.permission_wildcards and isinstance(value, str):
            out.append(("*", value, prefix + ".".join((*keys, "*")), path))
        elif key == last and isinstance(value, str):
            out.append(("*", value, where, path))
        elif key == last and isinstance(value, dict):
            out.extend((p, action, f'{where} "{p}"', path) for p, action in value.items() if isinstance(p, str))
    return out


def _global_rules(runtime: Runtime, index: Index) -> list[Rule]:
    spec = runtime.own_settings
    assert spec is not None and spec.permissions is not None
    return [r for path, data in settings_files(index, runtime) for r in _rules_in(data, spec, path)]


def agent_settings(runtime: Runtime, index: Index | None) -> dict[str, list[tuple[str, str, dict[str, Any]]]]:
    """Agent name -> its settings, lowest precedence first, each as (file, key prefix, mapping): the
    `agents` map of every settings file, then each `<agent>.md` of the `agent_files` directories."""
    spec = runtime.own_settings
    out: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    if spec is None or index is None:
        return out
    if spec.agents is not None:
        for path, data in settings_files(index, runtime):
            agents = _at(data, spec.agents)
            if isinstance(agents, dict):
                for name, value in agents.items():
                    if isinstance(name, str) and isinstance(value, dict):
                        out.setdefault(name, []).append((path, ".".join((*spec.agents, name)) + ".", value))
    for path in agent_files(runtime, index):
        key = ("agent_file", path)
        if key not in index.derived:
            raw, error, _ = read_bytes(path)
            index.derived[key] = None if error is not None else _parse_frontmatter(raw)
        value = index.derived[key]
        if isinstance(value, dict):
            out.setdefault(os.path.basename(path)[:-3], []).append((path, "", value))
    return out


def agent_files(runtime: Runtime, index: Index) -> list[str]:
    """The `<agent>.md` files of the runtime's agent directories that exist, in template order."""
    spec = runtime.own_settings
    out: list[str] = []
    for template in spec.agent_files if spec is not None else ():
        for base in expand_template(template, index.workspace, index.env, index.config):
            try:
                names = sorted(e.name for e in os.scandir(base) if e.is_file() and e.name.endswith(".md"))
            except OSError:
                continue
            out.extend(os.path.join(base, n) for n in names)
    return out


def _verdict(rules: list[Rule], name: str) -> Rule | None:
    """The last rule whose pattern matches `name` ("the last matching rule wins")."""
    found = None
    for rule in rules:
        if wildcard_match(rule[0], name):
            found = rule
    return found


def _because(rule: Rule, index: Index | None) -> str:
    return f'{rule[2]}: "{rule[1]}" in {_home_relative(rule[3], index)}'


def _denied(runtime: Runtime, index: Index, agent: str | None = None) -> dict[str, str]:
    """Names of the runtime's skills whose last matching permission rule says `denied_value` (the
    config files' rules, then `agent`'s own)."""
    spec = runtime.own_settings
    assert spec is not None and spec.permissions is not None
    rules = _global_rules(runtime, index) + (_agent_rules(runtime, index, agent)[1] if agent else [])
    if not rules:
        return {}
    out: dict[str, str] = {}
    for name in index.by_name.get(runtime.id, {}):
        verdict = _verdict(rules, name)
        if verdict is not None and verdict[1] == spec.denied_value:
            out[name] = _because(verdict, index)
    return out


def _agent_rules(runtime: Runtime, index: Index, agent: str) -> tuple[str | None, list[Rule]]:
    """(why `agent` has no skills at all, or None; its own permission rules, lowest first)."""
    spec = runtime.own_settings
    assert spec is not None and spec.permissions is not None
    switched_off = None
    own: list[Rule] = []
    for path, prefix, data in agent_settings(runtime, index).get(agent, ()):
        switch = _at(data, spec.agent_switch) if spec.agent_switch is not None else None
        if isinstance(switch, bool):
            switched_off = None if switch else \
                f"{prefix}{'.'.join(spec.agent_switch or ())}: false in {_home_relative(path, index)}"
        own.extend(_rules_in(data, spec, path, prefix))
    return switched_off, own


def settings_agents(runtime: Runtime, index: Index | None) -> list[str]:
    """The agents the runtime's own settings know (its built-in agents, the `agents` maps of its
    settings files, its `<agent>.md` files), for `--agent`."""
    spec = runtime.own_settings
    if spec is None or spec.agents is None or index is None:
        return []
    return sorted({*spec.builtin_agents, *agent_settings(runtime, index)})


def agent_without_skills(runtime: Runtime, index: Index | None, agent: str) -> str | None:
    """Why `agent` (one of `settings_agents`) has no skills at all (OpenCode `tools: skill: false`)."""
    spec = runtime.own_settings
    if spec is None or spec.permissions is None or index is None:
        return None
    return _agent_rules(runtime, index, agent)[0]


def remote_sources(runtime: Runtime, index: Index | None) -> list[tuple[str, str]]:
    """(URL, settings file) of every remote skill source the runtime's settings files list
    (`OwnSettings.remote`: OpenCode's `skills.urls`), in file order, each URL once. Never fetched."""
    spec = runtime.own_settings
    if spec is None or spec.remote is None:
        return []
    out: list[tuple[str, str]] = []
    for path, data in settings_files(index, runtime):
        urls = _at(data, spec.remote)
        for url in urls if isinstance(urls, list) else [urls] if isinstance(urls, str) else []:
            if isinstance(url, str) and url.strip() and url not in (u for u, _ in out):
                out.append((url, path))
    return out


def remote_note(runtime: Runtime, index: Index | None, url: str, path: str) -> str:
    """One remote source, said for people: where it is listed, that it is not checked."""
    key = ".".join(runtime.own_settings.remote or ()) if runtime.own_settings is not None else ""
    return (f"{runtime.title} also loads the skills served at {url} ({key} "
            f"in {_home_relative(path, index)}): skill-ls opens no network connection, so they are not checked")


def permission_notes(runtime: Runtime, index: Index | None, name: str, agent: str | None = None) -> list[str]:
    """What the runtime's settings say of `name` beyond hiding it: the remote skill sources it loads
    last (`OwnSettings.remote`: one of them may hold a copy of the name that wins), that the user is
    asked before it loads, and every agent whose own rules (or switch) see it otherwise than the
    settings files; for one `agent` (of `settings_agents`), what its rules say."""
    remote = [remote_note(runtime, index, url, path) + f"; a remote '{name}' would win over the local copies"
              for url, path in remote_sources(runtime, index)]
    return remote + _permission_notes(runtime, index, name, agent)


def _permission_notes(runtime: Runtime, index: Index | None, name: str, agent: str | None = None) -> list[str]:
    spec = runtime.own_settings
    if spec is None or spec.permissions is None or index is None:
        return []
    rules = _global_rules(runtime, index)
    if agent is not None:
        off, own = _agent_rules(runtime, index, agent)
        if off is not None:
            return [f"agent `{agent}` has no skills ({off})"]
        rules = rules + own
    base = _verdict(rules, name)
    out: list[str] = []
    if base is not None and spec.ask_value is not None and base[1] == spec.ask_value:
        out.append(f"{runtime.title} asks before loading it ({_because(base, index)})")
    if agent is not None:
        return out
    for agent in sorted(agent_settings(runtime, index)):
        switched_off, own = _agent_rules(runtime, index, agent)
        if switched_off is not None:
            out.append(f"agent `{agent}` has no skills ({switched_off})")
            continue
        verdict = _verdict(rules + own, name)
        if verdict is None or verdict is base or _effect(verdict, spec) == _effect(base, spec):
            continue
        out.append(f"agent `{agent}`: {_effect(verdict, spec)} ({_because(verdict, index)})")
    return out


def _effect(rule: Rule | None, spec: OwnSettings) -> str:
    if rule is not None and rule[1] == spec.denied_value:
        return "hidden"
    if rule is not None and spec.ask_value is not None and rule[1] == spec.ask_value:
        return "listed, asks before loading"
    return "listed"


def _home_relative(path: str, index: Index | None) -> str:
    home = index.env.home if index is not None else None
    if home and path.startswith(home.rstrip(os.sep) + os.sep):
        return "~" + path[len(home.rstrip(os.sep)):]
    return path


def settings_paths(index: Index) -> set[str]:
    """Every settings file of a runtime that the index reads (its `OwnSettings` files, the JSON
    files whose keys list roots: Amp's settings, OpenCode's `opencode.json`, and the files that turn
    roots off: Gemini CLI's `extension-enablement.json`, its `trustedFolders.json` and the settings
    files that turn folder trust on; the files that move roots: a linked
    extension's `.gemini-extension-install.json`), existing or not, and
    the marker files that decide whether a root is read: each Gemini CLI extension's
    `gemini-extension.json`, a linked one's at its source), and
    its agents' settings files that exist (OpenCode's `.opencode/agents/*.md`): a change to one of
    them changes what the runtimes load (the server rebuilds the index)."""
    from skill_ls.core.runtimes import RUNTIMES

    out: set[str] = set()
    for runtime in RUNTIMES.values():
        templates = [*(runtime.own_settings.files if runtime.own_settings else ()),
                     *(spec.template for spec in runtime.roots if spec.json_keys),
                     *(spec.enablement for spec in runtime.roots if spec.enablement),
                     *((runtime.folder_trust.file, *runtime.folder_trust.switch_files) if runtime.folder_trust else ()),
                     *(link_template(spec) for spec in runtime.roots if spec.link),
                     *(spec.json_merge for spec in runtime.roots if spec.json_merge),
                     *(t for spec in runtime.roots if spec.json_switch for t in spec.json_switch[0])]
        for template in templates:
            out.update(os.path.normpath(p) for p in expand_template(template, index.workspace, index.env, index.config))
        for spec in runtime.roots:
            out.update(marker_paths(spec, index.workspace, index.env, index.config))
        out.update(os.path.normpath(p) for p in agent_files(runtime, index))
    return out


def is_settings_path(index: Index, path: str) -> bool:
    """Whether a change to `path` changes what a runtime's own settings say: one of `settings_paths`,
    or a new `<agent>.md` in one of the runtimes' agent directories (OpenCode's `.opencode/agents`)."""
    path = os.path.normpath(path)
    if path in settings_paths(index):
        return True
    if not path.endswith(".md"):
        return False
    from skill_ls.core.runtimes import RUNTIMES

    folder = os.path.dirname(path)
    return any(os.path.normpath(base) == folder for runtime in RUNTIMES.values() if runtime.own_settings
               for template in runtime.own_settings.agent_files
               for base in expand_template(template, index.workspace, index.env, index.config))


_WORKSPACE_PREFIXES = ("{workspace}/", "{repo_chain}/")


def workspace_settings_globs() -> list[str]:
    """Glob patterns of the settings files that live in a workspace (`.gemini/settings.json`,
    `opencode.json`, `.opencode/agents/*.md`), for the file watcher."""
    from skill_ls.core.runtimes import RUNTIMES

    out: list[str] = []
    for runtime in RUNTIMES.values():
        own = runtime.own_settings
        templates = [*(own.files if own else ()), *(spec.template for spec in runtime.roots if spec.json_keys),
                     *(t + "/*.md" for t in (own.agent_files if own else ()))]
        for template in templates:
            prefix = next((p for p in _WORKSPACE_PREFIXES if template.startswith(p)), None)
            if prefix is not None and "**/" + template.removeprefix(prefix) not in out:
                out.append("**/" + template.removeprefix(prefix))
        # A root's marker file may be anywhere in a workspace (a linked Gemini CLI extension's
        # source: its `gemini-extension.json`).
        for spec in runtime.roots:
            if spec.marker and "**/" + posixpath.basename(spec.marker) not in out:
                out.append("**/" + posixpath.basename(spec.marker))
    return out
