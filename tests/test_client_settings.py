"""The VS Code extension's settings (`editors/vscode/package.json`) and the server's configuration
schema (`skill_ls/core/config.py`) are tested against each other, so they cannot drift:

- every `skillLs.*` setting is accepted by the server with its default value and with a typical
  value, in the raw shape VS Code sends (`workspace/didChangeConfiguration` carries every declared
  setting, defaults included: `agh.home` is "");
- a typical value of every analysis setting reaches the `Config` attribute it names (not ignored);
- every key of the server's schema is a setting, or is listed below as file-only with a reason.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_ls.core.config import _SCHEMA, Config, ConfigError, merge_client_settings
from skill_ls.core.settings_schema import file_only

PACKAGE = Path(__file__).resolve().parents[1] / "editors" / "vscode" / "package.json"
PROPERTIES: dict[str, dict] = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
SETTINGS = sorted(k.removeprefix("skillLs.") for k in PROPERTIES if k.startswith("skillLs."))

EDITOR_ONLY = {"server.command", "server.pythonPath", "server.importStrategy", "trace.server"}
# Keys of .skill-ls.toml that are not editor settings (machine-wide roots belong in the project file):
# the descriptors say which (`Setting.editor=False`).
FILE_ONLY = file_only()

# A value a user would typically set, per setting (a new setting must add one here).
TYPICAL: dict[str, object] = {
    "runtimes": ["agh", "claude-code"],
    "agh.bundledSkillDescription": "Operate and extend AGH.",
    "roots": [{"path": "vendor/skills", "runtime": "agh", "tier": "additional"}],
    "exclude": ["**/drafts/**"],
    "rules.select": ["SH", "SK001"],
    "rules.ignore": ["BG001"],
    "rules.severity": {"SH001": "error"},
    "noUserRoots": True,
    "agh.home": "~/.agh-work",
    "agh.bundledRoots": ["/opt/agh/skills"],
    "agh.additionalRoots": ["shared"],
    "agh.disabled": ["legacy-skill"],
    "agh.draftFields": "warning",
    "amp.skillsPath": ["~/amp-skills"],
    "agentcy.maxPromptChars": 8000,
    "server.command": ["/opt/venv/bin/skill-language-server"],
    "server.pythonPath": "/usr/bin/python3",
    "server.importStrategy": "fromEnvironment",
    "trace.server": "verbose",
}


def _snake(part: str) -> str:
    import re

    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), part)


def _server_key(setting: str) -> str:
    """`agh.bundledRoots` -> `agh.bundled_roots` (the .skill-ls.toml spelling)."""
    return ".".join(_snake(p) for p in setting.split("."))


def _attribute(setting: str) -> str:
    key = _server_key(setting)
    if key == "roots":
        return "roots"
    if key == "rules.severity":
        return "severity"
    section, _, name = key.rpartition(".")
    return _SCHEMA[(section, name)][0]


def _nested(flat: dict[str, object]) -> dict:
    """What VS Code's `getConfiguration().get('skillLs')` returns: dotted keys as nested objects."""
    out: dict = {}
    for key, value in flat.items():
        node = out
        parts = key.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value
    return out


def _defaults() -> dict[str, object]:
    return {k: PROPERTIES[f"skillLs.{k}"]["default"] for k in SETTINGS}


def test_every_setting_has_a_typical_value():
    assert set(TYPICAL) == set(SETTINGS)


def test_all_defaults_at_once_are_accepted_and_change_nothing(tmp_path):
    merged = merge_client_settings(Config(), _nested(_defaults()), tmp_path)
    assert merged == Config()


@pytest.mark.parametrize("setting", SETTINGS)
def test_setting_is_accepted_with_its_default(setting, tmp_path):
    settings = _nested({**_defaults(), setting: PROPERTIES[f"skillLs.{setting}"]["default"]})
    merge_client_settings(Config(), settings, tmp_path)  # raises ConfigError if rejected


@pytest.mark.parametrize("setting", SETTINGS)
def test_setting_is_accepted_with_a_typical_value_and_takes_effect(setting, tmp_path):
    settings = _nested({**_defaults(), setting: TYPICAL[setting]})
    try:
        merged = merge_client_settings(Config(), settings, tmp_path)
    except ConfigError as exc:  # pragma: no cover - the failure message is the point
        pytest.fail(f"skillLs.{setting} = {TYPICAL[setting]!r} rejected: {exc}")
    if setting in EDITOR_ONLY:
        assert merged == Config()
        return
    attr = _attribute(setting)
    assert getattr(merged, attr) != getattr(Config(), attr), f"skillLs.{setting} was ignored"


def test_every_server_key_is_a_setting_or_file_only():
    settings = {_server_key(s) for s in SETTINGS if s not in EDITOR_ONLY}
    server = {f"{section}.{name}" if section else name for section, name in _SCHEMA} | {"roots", "rules.severity"}
    server.add("agentcy.roots")
    assert server - settings == FILE_ONLY
    assert settings - server == set()


def test_typical_values_match_the_declared_types():
    kinds = {"array": list, "string": str, "boolean": bool, "integer": int, "object": dict}
    for setting, value in TYPICAL.items():
        prop = PROPERTIES[f"skillLs.{setting}"]
        assert isinstance(value, kinds[prop["type"]]), setting
        if "enum" in prop:
            assert value in prop["enum"], setting
        if prop["type"] == "array" and "enum" in prop.get("items", {}):
            assert set(value) <= set(prop["items"]["enum"]), setting  # type: ignore[arg-type]
