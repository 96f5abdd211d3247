"""JSON and TOML data files read as values, never as exceptions (issue 24, classes 3 and 4).

Every JSON and TOML reader of skill-ls goes through `json_value` / `toml_value`: whatever the text
holds — integers past Python's 4,300-digit conversion limit, `0x` integers whose decimal form is
past it, 1,000 levels of nesting, NULs, lone surrogates — the result is a value or a one-line
problem with its position. `tame` makes any value safe to format: an integer whose decimal form
Python refuses to print becomes a float (what a JavaScript reader such as Claude Code's
`JSON.parse` makes of it: `Infinity`), so a later `str()` or f-string cannot raise.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from skill_ls.core.parse import tomllib_module
from skill_ls.core.patterns import lazy_pattern

# Python refuses int <-> str conversions past 4,300 decimal digits (sys.get_int_max_str_digits);
# 14,000 bits is about 4,214 digits: below the limit, far above any real value.
MAX_INT_BITS = 14_000
MAX_INT_DIGITS = 4_000
# Deeper values are refused, as YAML's (frontmatter.MAX_NESTING) and the JSON-with-positions reader's
# (jsonpos.MAX_DEPTH): every consumer may walk a value recursively.
MAX_DEPTH = 200
_POSITION = lazy_pattern(r"\(at line (\d+), column (\d+)\)")


class DataError(ValueError):
    """A data file that cannot be read as a value: a one-line message and its 0-based position."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def json_int(text: str) -> int | float:
    """JSON integers: past MAX_INT_DIGITS digits, the float a JavaScript reader would make of them."""
    if len(text) <= MAX_INT_DIGITS:
        return int(text)
    return float("-inf") if text.startswith("-") else float("inf")


# What Python's `json` reads and JSON does not: every runtime's reader (`JSON.parse`, serde_json) refuses them.
NOT_JSON_CONSTANTS = ("NaN", "Infinity", "-Infinity")


class _NotJson(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _refuse_constant(name: str) -> Any:
    raise _NotJson(name)


def not_json_constant_message(name: str) -> str:
    return f"{name} is not a JSON value (JavaScript's JSON.parse refuses it)"


def json_value(text: str, object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """`json.loads(text)` that raises only `DataError` (one line, with a position); `NaN`,
    `Infinity` and `-Infinity`, which Python reads and JSON does not, are refused."""
    try:
        value = json.loads(text, parse_int=json_int, parse_constant=_refuse_constant,
                           object_pairs_hook=object_pairs_hook)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg}", exc.lineno - 1, exc.colno - 1) from None
    except _NotJson as exc:
        at = _outside_strings(text, exc.name)
        line = text.count("\n", 0, at)
        raise DataError(f"not valid JSON: {not_json_constant_message(exc.name)}", line,
                        at - (text.rfind("\n", 0, at) + 1)) from None
    except RecursionError:
        raise DataError("not readable: nested too deeply") from None
    except (ValueError, TypeError, MemoryError, OverflowError) as exc:
        raise DataError(f"not readable: {_one_line(exc)}") from None
    if too_deep(value):
        raise DataError(f"not readable: nested more than {MAX_DEPTH} levels deep")
    return value


def _outside_strings(text: str, token: str) -> int:
    """Where `token` first stands outside a JSON string of `text` (0 when it does not)."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif text.startswith(token, i):
            return i
    return 0


def jsonc_value(text: str, trailing_commas: bool = True) -> Any:
    """`json_value` of JSON with comments (`//`, `/* */`) and trailing commas, as JSONC readers take
    it (OpenCode: "OpenCode supports both JSON and JSONC (JSON with Comments) formats"). Comments
    and trailing commas become spaces, so positions in problems stay those of the original text.
    `trailing_commas=False`: comments only, as `JSON.parse(stripJsonComments(text))` reads it (Gemini
    CLI's `trustedFolders.json`)."""
    return json_value(strip_jsonc(text, trailing_commas))


def strip_jsonc(text: str, trailing_commas: bool = True) -> str:
    """`text` with its comments and trailing commas (outside strings; with `trailing_commas=False`,
    its comments only) replaced by spaces, line breaks kept (a linear scan: no regular expression can
    backtrack on hostile input)."""
    out = list(text)
    i, n = 0, len(text)
    last_comma = -1  # the position of a comma that a `}` or `]` may make trailing
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            last_comma = -1
            continue
        if c == "/" and i + 1 < n and text[i + 1] in "/*":
            end = text.find("\n", i) if text[i + 1] == "/" else text.find("*/", i + 2)
            end = n if end < 0 else end + (0 if text[i + 1] == "/" else 2)
            for j in range(i, end):
                if out[j] not in "\r\n":
                    out[j] = " "
            i = end
            continue
        if c == "," and trailing_commas:
            last_comma = i
        elif c in "}]":
            if last_comma >= 0:
                out[last_comma] = " "
            last_comma = -1
        elif not c.isspace():
            last_comma = -1
        i += 1
    return "".join(out)


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether containers nest more than `limit` levels (iterative: any depth is fine to ask)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in item)
    return False


def toml_value(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, tamed, that raises only `DataError` (one line, with a position)."""
    tomllib = tomllib_module()
    try:
        tamed = tame(tomllib.loads(text))
        deep = too_deep(tamed)
    except tomllib.TOMLDecodeError as exc:
        m = _POSITION.search(str(exc))
        line, col = (int(m.group(1)) - 1, int(m.group(2)) - 1) if m else (0, 0)
        raise DataError(f"invalid TOML: {_POSITION.sub('', str(exc)).strip()}", line, col) from None
    except RecursionError:
        raise DataError("invalid TOML: nested too deeply") from None
    except (ValueError, TypeError, MemoryError, OverflowError) as exc:
        raise DataError(f"invalid TOML: {_one_line(exc)}") from None
    if deep:
        raise DataError(f"invalid TOML: nested more than {MAX_DEPTH} levels deep")
    return tamed if isinstance(tamed, dict) else {}


def tame(value: Any) -> Any:
    """`value` with every integer too large to print as a float (infinite); containers are rebuilt
    only when they hold one. Iterative, so any depth is fine."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _tame_int(value)
    if not isinstance(value, (dict, list)):
        return value
    if not _has_huge_int(value):
        return value
    return _rebuild(value)


def bounded_int(text: str, base: int = 10) -> int | float:
    """`int(text, base)` for a text already known to be an integer literal; past what Python will
    convert or print, the float a JavaScript reader makes of it (infinite)."""
    digits = text.lstrip("+-")
    if base == 10 and len(digits) > MAX_INT_DIGITS:
        return float("-inf") if text.startswith("-") else float("inf")
    if base != 10 and len(digits) * 4 > MAX_INT_BITS:
        return float("-inf") if text.startswith("-") else float("inf")
    return _tame_int(int(text, base))


def _tame_int(value: int) -> int | float:
    if value.bit_length() <= MAX_INT_BITS:
        return value
    return float("-inf") if value < 0 else float("inf")


def _has_huge_int(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(k for k in item if isinstance(k, int))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > MAX_INT_BITS:
            return True
    return False


def _rebuild(value: Any, depth: int = 0) -> Any:
    if isinstance(value, dict):
        return {(_tame_int(k) if isinstance(k, int) and not isinstance(k, bool) else k): _rebuild(v, depth + 1)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_rebuild(v, depth + 1) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return _tame_int(value)
    return value


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        return "an integer has more than 4,300 digits"
    text = " ".join(str(exc).split())
    return (text[:200] + "…") if len(text) > 200 else text or type(exc).__name__


MAX_PATTERN = 10_000


def regex_problem(pattern: str) -> str | None:
    """Why Python's `re` cannot compile `pattern` (one line), or None. Every limit of the engine is a
    problem, not an exception: `re.error`, a repetition past its maximum (`x{4294967296}`:
    OverflowError), nesting past the recursion limit (~1,200 `(`: RecursionError), and a pattern
    longer than MAX_PATTERN characters is not compiled at all (issue 24, class 2)."""
    if len(pattern) > MAX_PATTERN:
        return f"{len(pattern):,} characters: longer than skill-ls compiles ({MAX_PATTERN:,})"
    try:
        re.compile(pattern)
    except re.error as exc:
        return _one_line(exc)
    except OverflowError:
        return "a repetition count is larger than a regular expression engine accepts"
    except RecursionError:
        return "nested too deeply"
    except (ValueError, TypeError, MemoryError) as exc:
        return _one_line(exc)
    return None
