"""JSON with positions: `parse_json(text)` gives the value (as `json.loads` does) and the span of every
key and value by path (`("hooks", "PreToolUse", 0, "matcher")`), so findings on `plugin.json`,
`marketplace.json`, `hooks.json`, `settings.json` and `.mcp.json` point at the exact key or value.

Never raises: a text that is not JSON gives `ok=False` with the error's position. Positions are 0-based
lines and code point columns (`Span`), like everything the parser layer produces.
"""
from __future__ import annotations

import json
from typing import Any

from skill_ls.core.model import Span
from skill_ls.core.parse.data import NOT_JSON_CONSTANTS, json_int, not_json_constant_message
from skill_ls.core.records import dataclass, field

Path = tuple[Any, ...]
MAX_DEPTH = 200


@dataclass
class JsonDoc:
    """A parsed JSON text: its value, the spans of keys and values by path, or why it is not JSON."""

    text: str
    ok: bool = False
    value: Any = None
    problem: str | None = None
    problem_span: Span = Span(0, 0, 0, 0)
    keys: dict[Path, Span] = field(default_factory=dict)
    values: dict[Path, Span] = field(default_factory=dict)
    duplicates: list[Path] = field(default_factory=list)

    def key(self, *path: Any) -> Span:
        """The span of the key at `path` (its value's span for a list item), else the nearest parent's."""
        p: Path = tuple(path)
        while p:
            if p in self.keys:
                return self.keys[p]
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return Span(0, 0, 0, 1)

    def at(self, *path: Any) -> Span:
        """The span of the value at `path`, else the nearest parent's key or value."""
        p: Path = tuple(path)
        if p in self.values:
            return self.values[p]
        return self.key(*p)


class _Bad(Exception):
    def __init__(self, message: str, at: int):
        super().__init__(message)
        self.at = at


class _Parser:
    def __init__(self, text: str, out: JsonDoc):
        self.s = text
        self.i = 0
        self.out = out
        self.line_starts = [0]
        for n, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(n + 1)

    def pos(self, at: int) -> tuple[int, int]:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= at:
                lo = mid
            else:
                hi = mid - 1
        return lo, at - self.line_starts[lo]

    def span(self, a: int, b: int) -> Span:
        (l1, c1), (l2, c2) = self.pos(a), self.pos(b)
        return Span(l1, c1, l2, c2)

    def ws(self) -> None:
        s, i = self.s, self.i
        while i < len(s) and s[i] in " \t\r\n":
            i += 1
        self.i = i

    def value(self, path: Path, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _Bad("nested too deeply", self.i)
        self.ws()
        start = self.i
        if start >= len(self.s):
            raise _Bad("unexpected end of the file", start)
        ch = self.s[start]
        if ch == "{":
            result: Any = self.obj(path, depth)
        elif ch == "[":
            result = self.arr(path, depth)
        elif ch == '"':
            result = self.string()
        else:
            result = self.scalar()
        self.out.values[path] = self.span(start, self.i)
        return result

    def string(self) -> str:
        decoder = _DECODER
        try:
            value, end = decoder.raw_decode(self.s, self.i)
        except json.JSONDecodeError as exc:
            raise _Bad(exc.msg, exc.pos) from None
        except (ValueError, OverflowError) as exc:
            raise _Bad(" ".join(str(exc).split())[:160], self.i) from None
        self.i = end
        return str(value)

    def scalar(self) -> Any:
        decoder = _DECODER  # (integers past Python's limit: the float a JavaScript reader makes of them)
        for name in NOT_JSON_CONSTANTS:  # (Python's `json` reads them; no JSON reader does)
            if self.s.startswith(name, self.i):
                raise _Bad(not_json_constant_message(name), self.i)
        try:
            value, end = decoder.raw_decode(self.s, self.i)
        except json.JSONDecodeError as exc:
            raise _Bad(exc.msg, exc.pos) from None
        except (ValueError, OverflowError) as exc:
            raise _Bad(" ".join(str(exc).split())[:160], self.i) from None
        self.i = end
        return value

    def obj(self, path: Path, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        self.i += 1
        self.ws()
        if self.i < len(self.s) and self.s[self.i] == "}":
            self.i += 1
            return out
        while True:
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] != '"':
                raise _Bad("expected a property name in double quotes", self.i)
            kstart = self.i
            key = self.string()
            kpath = path + (key,)
            if key in out:
                self.out.duplicates.append(kpath)
            self.out.keys[kpath] = self.span(kstart, self.i)
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] != ":":
                raise _Bad("expected ':'", self.i)
            self.i += 1
            out[key] = self.value(kpath, depth + 1)
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == ",":
                self.i += 1
                continue
            if self.i < len(self.s) and self.s[self.i] == "}":
                self.i += 1
                return out
            raise _Bad("expected ',' or '}'", self.i)

    def arr(self, path: Path, depth: int) -> list[Any]:
        out: list[Any] = []
        self.i += 1
        self.ws()
        if self.i < len(self.s) and self.s[self.i] == "]":
            self.i += 1
            return out
        while True:
            out.append(self.value(path + (len(out),), depth + 1))
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == ",":
                self.i += 1
                continue
            if self.i < len(self.s) and self.s[self.i] == "]":
                self.i += 1
                return out
            raise _Bad("expected ',' or ']'", self.i)


_DECODER = json.JSONDecoder(parse_int=json_int)

def parse_json(text: str) -> JsonDoc:
    """The value of a JSON text with the spans of its keys and values (a leading BOM is skipped)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    out = JsonDoc(text)
    parser = _Parser(text, out)
    try:
        out.value = parser.value((), 0)
        parser.ws()
        if parser.i < len(text):
            raise _Bad("unexpected text after the JSON value", parser.i)
        out.ok = True
    except _Bad as exc:
        out.problem = f"is not valid JSON: {exc}"
        at = min(exc.at, len(text))
        out.problem_span = parser.span(at, min(at + 1, len(text)))
        out.value = None
    except RecursionError:
        out.problem = "is not valid JSON: nested too deeply"
    return out
