"""The editor settings are generated from the configuration schema and the descriptors
(skill_ls.core.settings_schema), and checked both ways against VS Code's package.json: every key the
configuration reads is a setting with its type, enum and default, and every setting is a key the
configuration reads (editor-only settings aside)."""
from __future__ import annotations

import json
from pathlib import Path

from skill_ls.core.config import config_from_mapping
from skill_ls.core.runtimes import RUNTIMES
from skill_ls.core.settings_schema import EDITOR_ONLY, client_settings, property_differences

ROOT = Path(__file__).resolve().parents[1]
PROPERTIES = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))[
    "contributes"]["configuration"]["properties"]


def test_package_json_settings_are_the_schema():
    assert property_differences(PROPERTIES) == [], "run `python -m skill_ls.core.editor_patterns --write`"


def test_the_runtimes_setting_lists_every_runtime():
    assert PROPERTIES["skillLs.runtimes"]["items"]["enum"] == ["auto", *RUNTIMES]


def test_every_generated_setting_is_read_by_the_configuration(tmp_path):
    """Each setting, sent by the client with a value of its schema's type, is accepted (not an
    "unknown key") — the other direction of the check."""
    samples = {"boolean": True, "integer": 5, "string": "x", "array": ["x"], "object": {"SK001": "error"}}
    for key, spec in client_settings().items():
        if key == "skillLs.roots":
            value = [{"path": "x", "runtime": next(iter(RUNTIMES))}]
        elif key == "skillLs.runtimes":
            value = ["auto"]
        elif "enum" in spec:
            value = spec["enum"][0]
        else:
            value = samples[spec["type"]]
        parts = key.removeprefix("skillLs.").split(".")
        settings: dict = {}
        node = settings
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value
        config_from_mapping(settings, base=tmp_path, camel=True)  # raises ConfigError on an unknown key


def test_editor_only_settings_are_not_configuration():
    assert all(any(k.startswith(p) for p in EDITOR_ONLY) for k in PROPERTIES if k not in client_settings())
