"""Reading files that are not skill documents (JSON sidecars, manifests): never raises, never follows a
symlink out of the directory it must stay in. Below the index, so every reader can use it."""
from __future__ import annotations

import os
from typing import Any

from skill_ls.core.model import Span
from skill_ls.core.parse.data import DataError, json_value
from skill_ls.core.parse.text import read_bytes


def read_inside(path: str, base: str) -> tuple[bytes, str | None, bool]:
    """`read_bytes`, refusing a file that a symlink leads out of `base` (a sidecar of a skill is read
    only while it stays inside the skill directory, like the references the body makes)."""
    try:
        real, real_base = os.path.realpath(path), os.path.realpath(base)
    except (OSError, ValueError):
        return b"", "cannot resolve the path", False
    if not (real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)):
        return b"", "is a symlink that leads outside the skill directory (not read)", False
    return read_bytes(path)


def read_json(path: str, encoding: str = "utf-8-sig", *, inside: str | None = None) -> tuple[Any, str | None, Span]:
    """Read and parse a JSON file: (value, problem, where the problem is). Never raises; the value is
    None when there is a problem (unreadable, undecodable, not JSON, or, with `inside`, a symlink
    that leads out of that directory)."""
    data, error, _ = read_bytes(path) if inside is None else read_inside(path, inside)
    if error:
        return None, error, Span(0, 0, 0, 0)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        return None, f"not valid JSON: {exc.reason} at byte {exc.start}", Span(0, 0, 0, 1)
    try:
        return json_value(text), None, Span(0, 0, 0, 0)
    except DataError as exc:
        return None, exc.message, Span(exc.line, exc.column, exc.line, exc.column + 1)
