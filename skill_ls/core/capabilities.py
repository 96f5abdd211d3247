"""AGH's agent capability catalog sidecar: `capabilities.toml` next to AGENT.md (parsed
only). Its schema lives on a page the sources do not include, so only the TOML itself is checked."""
from __future__ import annotations

from skill_ls.core.parse.data import DataError, toml_value
from skill_ls.core.index import read_bytes
from skill_ls.core.model import Span
from skill_ls.core.patterns import lazy_pattern


CAPABILITIES_FILE = "capabilities.toml"
_POSITION = lazy_pattern(r"\(at line (\d+), column (\d+)\)")


def capabilities_problem(path: str) -> tuple[str | None, Span]:
    """(problem, where) for a capabilities file; problem is None when it parses."""
    data, error, _ = read_bytes(path)
    if error:
        return f"cannot read: {error}", Span(0, 0, 0, 0)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not valid UTF-8 (byte {exc.start})", Span(0, 0, 0, 0)
    try:
        toml_value(text)
    except DataError as exc:
        line, col = exc.line, exc.column
        lines = text.splitlines()
        end = len(lines[line]) if 0 <= line < len(lines) else col
        return exc.message, Span(line, col, line, max(end, col))
    return None, Span(0, 0, 0, 0)
