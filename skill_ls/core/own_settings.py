"""A runtime's own settings files (`Runtime.own_settings`), read only: whether its skill system is
switched off, and which skill names its user disabled.

AGH: `[skills] enabled` in `$AGH_HOME/config.toml`. Gemini CLI: `skills.enabled` and `skills.disabled`
in `~/.gemini/settings.json` and the workspace's `.gemini/settings.json`. What each file says is read
once per index state (kept in `Index.derived`, dropped whenever the index learns that a file changed).
"""
from __future__ import annotations

import os
from typing import Any, cast

from skill_ls.core.discovery import expand_template
from skill_ls.core.index import Index, read_bytes
from skill_ls.core.parse.data import DataError, json_value, toml_value
from skill_ls.core.runtimes import Runtime


def _parse(data: bytes, fmt: str) -> dict[str, Any]:
    text = data.decode("utf-8", errors="replace")
    try:  # (core/parse/data.py: huge integers, deep nesting and every parser failure are values)
        value: Any = toml_value(text) if fmt == "toml" else json_value(text)
    except DataError:
        return {}
    return value if isinstance(value, dict) else {}


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
    out = []
    for template in spec.files:
        for path in expand_template(template, index.workspace, index.env, index.config):
            data = settings_file(index, path, spec.format)
            if data is not None:
                out.append((path, data))
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


def disabled_names(runtime: Runtime, index: Index | None) -> dict[str, str]:
    """Skill names turned off for this runtime -> where: skill-ls's own setting for the operator
    (`Runtime.operator_disabled`) and the runtime's settings files (`OwnSettings.disabled`)."""
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
        out.update({name: where for name, where in _denied(runtime, index).items() if name not in out})
    return out


def _denied(runtime: Runtime, index: Index) -> dict[str, str]:
    """Names of the runtime's skills whose last matching permission pattern says `denied_value`."""
    import fnmatch

    spec = runtime.own_settings
    assert spec is not None and spec.permissions is not None
    rules: list[tuple[str, object, str]] = []
    for path, data in settings_files(index, runtime):
        value = _at(data, spec.permissions)
        if isinstance(value, dict):
            rules.extend((p, action, path) for p, action in value.items() if isinstance(p, str))
    if not rules:
        return {}
    out: dict[str, str] = {}
    for name in index.by_name.get(runtime.id, {}):
        verdict = None
        for pattern, action, path in rules:
            if fnmatch.fnmatchcase(name, pattern):
                verdict = (action, pattern, path)
        if verdict is not None and verdict[0] == spec.denied_value:
            out[name] = (f"{'.'.join(spec.permissions)} \"{verdict[1]}\": \"{spec.denied_value}\" in "
                         f"{_home_relative(verdict[2], index)}")
    return out


def _home_relative(path: str, index: Index | None) -> str:
    home = index.env.home if index is not None else None
    if home and path.startswith(home.rstrip(os.sep) + os.sep):
        return "~" + path[len(home.rstrip(os.sep)):]
    return path


def settings_paths(index: Index) -> set[str]:
    """Every settings file of a runtime that the index reads (its `OwnSettings` files and the JSON
    files whose keys list roots: Amp's settings, OpenCode's `opencode.json`), existing or not: a
    change to one of them changes what the runtimes load (the server rebuilds the index)."""
    from skill_ls.core.runtimes import RUNTIMES

    out: set[str] = set()
    for runtime in RUNTIMES.values():
        templates = [*(runtime.own_settings.files if runtime.own_settings else ()),
                     *(spec.template for spec in runtime.roots if spec.json_keys)]
        for template in templates:
            out.update(os.path.normpath(p) for p in expand_template(template, index.workspace, index.env, index.config))
    return out


def workspace_settings_globs() -> list[str]:
    """Glob patterns of the settings files that live in a workspace (`.gemini/settings.json`,
    `opencode.json`), for the file watcher."""
    from skill_ls.core.runtimes import RUNTIMES

    out: list[str] = []
    for runtime in RUNTIMES.values():
        templates = [*(runtime.own_settings.files if runtime.own_settings else ()),
                     *(spec.template for spec in runtime.roots if spec.json_keys)]
        for template in templates:
            if template.startswith("{workspace}/") and "**/" + template.removeprefix("{workspace}/") not in out:
                out.append("**/" + template.removeprefix("{workspace}/"))
    return out
