"""Shared by tests/test_runtime_*.py: an index for a tree, and `where` as plain (label, path) pairs."""
from __future__ import annotations

from pathlib import Path

from skill_ls.analysis.check import CheckOptions, build_index, prepare_config
from skill_ls.core.index import Index
from skill_ls.core.labels import where


def index_for(ws: Path, runtimes: list[str] | None = None) -> Index:
    config = prepare_config(str(ws), CheckOptions(workspace=str(ws), runtimes=runtimes or []))
    return build_index(str(ws), config)


def labels(index: Index, runtime: str, name: str) -> list[tuple[str, str]]:
    """(label, path relative to the workspace or home) of every copy, winner first."""
    obj = where(index, runtime, name)
    out = []
    for e in obj["entries"]:
        path = e["path"]
        for base, shown in ((index.workspace, "<ws>"), (index.env.home or "/nonexistent", "~")):
            if path.startswith(base + "/"):
                path = shown + path[len(base):]
        out.append((e["label"], path))
    return out
