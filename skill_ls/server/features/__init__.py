"""LSP feature modules; each owns one concern and exposes `register(server)`."""
from __future__ import annotations

import importlib

MODULES = ("configuration", "diagnostics", "hover", "definition", "references", "completion", "code_actions",
           "symbols", "links", "code_lens", "commands", "watching")


def register_all(server) -> None:
    for name in MODULES:
        importlib.import_module(f"skill_ls.server.features.{name}").register(server)
