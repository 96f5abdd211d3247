"""The editor settings (`skillLs.*`), generated from the configuration schema and the descriptors.

`.skill-ls.toml`, `[tool.skill-ls]` and the language client's settings share one schema
(`skill_ls.core.config`): top-level keys, `[rules]`, `[[roots]]` and each runtime's own keys (its
descriptor's `settings`). This module renders it as the VS Code `contributes.configuration`
properties (type, items, enum, default); `python -m skill_ls.core.editor_patterns --write` writes
them into `editors/vscode/package.json` (keeping each property's description and order), and
tests/test_settings_schema.py checks the two agree both ways. Editor-only settings (`skillLs.server.*`,
`skillLs.trace.*`) are the extension's own and are not generated."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from skill_ls.core import config as cfg
from skill_ls.core.model import Severity
from skill_ls.core.records import MISSING, fields
from skill_ls.core.runtimes import RUNTIMES

EDITOR_ONLY = ("skillLs.server.", "skillLs.trace.")

_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
_KINDS: dict[str, dict[str, Any]] = {
    "bool": {"type": "boolean"},
    "int": {"type": "integer", "minimum": 1},
    "fraction": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "str": {"type": "string"},
    "path": {"type": "string"},
    "draft": {"type": "string", "enum": list(cfg.DRAFT_SEVERITIES)},
    "paths": _STRINGS,
    "strs": _STRINGS,
    "codes": _STRINGS,
    "roots": _STRINGS,
}


def _camel(key: str) -> str:
    head, *rest = key.replace("-", "_").split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _default(attr: str, kind: str) -> Any:
    if kind == "roots":
        return []
    field = {f.name: f for f in fields(cfg.Config)}[attr]
    value = field.default_factory() if field.default_factory is not MISSING else field.default
    if kind in ("path", "str"):
        return "" if value is None else str(value)
    if isinstance(value, tuple):
        return [str(v) for v in value]
    return value


def file_only() -> set[str]:
    """`section.key` of the configuration keys that are not editor settings (`Setting.editor=False`)."""
    return {f"{rt.id}.{key}" for rt in RUNTIMES.values() for key, s in rt.settings.items() if not s.editor}


def setting_key(section: str, key: str) -> str:
    """`skillLs.<section>.<key>` in camelCase (`claude-code`/`enterprise_roots` → `claudeCode.enterpriseRoots`)."""
    return ".".join(["skillLs"] + [_camel(p) for p in (section, key) if p])


def client_settings() -> dict[str, dict[str, Any]]:
    """Every analysis setting the language client may send, with its JSON schema (no descriptions)."""
    out: dict[str, dict[str, Any]] = {
        "skillLs.runtimes": {"type": "array", "items": {"type": "string", "enum": ["auto", *RUNTIMES]},
                             "default": ["auto"]},
        "skillLs.roots": {"type": "array", "default": []},
    }
    for (section, key), (attr, kind) in cfg.schema_entries():
        setting = RUNTIMES[section].settings.get(key) if section in RUNTIMES else None
        if kind == "runtimes" or setting is not None and not setting.editor:
            continue
        prop = {**_KINDS[kind], "default": _default(attr, kind)}
        out[setting_key(section, key)] = prop
    out["skillLs.rules.severity"] = {"type": "object", "default": {},
                                     "additionalProperties": {"type": "string", "enum": [s.label for s in Severity]}}
    return out


GENERATED_KEYS = ("type", "items", "enum", "default", "minimum", "additionalProperties")


def property_differences(properties: dict[str, dict[str, Any]]) -> list[str]:
    """How package.json's `contributes.configuration.properties` differ from `client_settings()`."""
    wanted = client_settings()
    have = {k: v for k, v in properties.items() if not k.startswith(EDITOR_ONLY)}
    out = [f"{k}: not in package.json" for k in wanted if k not in have]
    out += [f"{k}: in package.json but not a skill-ls setting" for k in have if k not in wanted]
    for key, spec in wanted.items():
        prop = have.get(key)
        if prop is None:
            continue
        for part in GENERATED_KEYS:
            if key == "skillLs.roots" and part == "items":
                continue  # the roots table's item schema is written by hand (path, runtime, tier)
            if prop.get(part) != spec.get(part):
                out.append(f"{key}: {part} is {prop.get(part)!r}, the schema says {spec.get(part)!r}")
    return out


def updated_properties(properties: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """package.json's properties with the generated parts rewritten, settings the schema no longer has
    removed and new ones added after the last analysis setting; descriptions, order and everything else
    of each property kept."""
    wanted = client_settings()

    def generated(key: str, prop: dict[str, Any]) -> dict[str, Any]:
        prop = dict(prop)
        for part in GENERATED_KEYS:
            if key == "skillLs.roots" and part == "items":
                continue
            if part in wanted[key]:
                prop[part] = wanted[key][part]
            else:
                prop.pop(part, None)
        return prop

    analysis = {k: generated(k, v) for k, v in properties.items() if k in wanted}
    order = max((int(v.get("order", 0)) for v in analysis.values()), default=0)
    for key in wanted:
        if key not in analysis:
            order += 1
            analysis[key] = generated(key, {"markdownDescription": _description(key), "order": order})
    editor = {k: v for k, v in properties.items() if k.startswith(EDITOR_ONLY)}
    return {**analysis, **editor}


def _description(key: str) -> str:
    """A new setting's description: its descriptor's `Setting.doc`, else where the key lives in the file."""
    for (section, name), _ in cfg.schema_entries():
        if setting_key(section, name) == key:
            setting = RUNTIMES[section].settings.get(name) if section in RUNTIMES else None
            if setting is not None and setting.doc:
                return setting.doc
            return f"`{name}` in `[{section}]` of `.skill-ls.toml` (see the README's Configuration)."
    return ""


def package_json_path(root: Path) -> Path:
    return root / "editors" / "vscode" / "package.json"
