"""Parsing: text with positions, frontmatter, YAML dialects."""
from __future__ import annotations

import sys
from types import ModuleType


def tomllib_module() -> ModuleType:
    """`tomllib` (`tomli` before Python 3.11), imported on first use: most runs read no TOML, and the
    import is a noticeable part of a short `check`'s start-up."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib
