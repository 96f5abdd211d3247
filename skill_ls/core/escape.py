"""Escaping for every place text leaves the program: terminals, line-oriented formats, JSON.

File names that are not UTF-8 arrive as lone surrogates (Python's surrogateescape); names and
descriptions can hold any character. Nothing here knows about a format's syntax: callers decide
which slot they fill, these functions make the characters safe for it."""
from __future__ import annotations

import functools
import json
import re
from typing import Callable, cast

from skill_ls.core.patterns import lazy_pattern

# What a terminal or a log must never receive raw: C0 controls (ESC starts terminal sequences; a
# newline inside a field forges a new diagnostic line), DEL, C1 controls (8-bit CSI and friends),
# Unicode line/paragraph separators, bidirectional overrides and isolates ("Trojan Source"), and
# lone surrogates (a file name that is not UTF-8 arrives as U+DC80-U+DCFF: not encodable at all).
_CONTROLS = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"


@functools.cache
def _unsafe(keep_newlines: bool) -> re.Pattern[str]:
    # (compiled on first use: a class with the surrogate range takes ~0.3 ms to compile, and most
    # runs never print a name)
    return re.compile(rf"[{_CONTROLS}]" if keep_newlines else rf"[\n{_CONTROLS}]")


_JSON_ESCAPE = lazy_pattern(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape_char(m: re.Match[str]) -> str:
    c = m.group()
    if "\udc80" <= c <= "\udcff":  # a byte of a file name that is not UTF-8 (surrogateescape)
        return f"\\x{ord(c) - 0xDC00:02x}"
    if c == "\n":
        return "\\n"
    if c == "\r":
        return "\\r"
    if c == "\t":
        return "\\t"
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def safe_text(text: str, *, keep_newlines: bool = False) -> str:
    r"""Text for a terminal or a line-oriented format: every control character, bidi override and
    undecodable byte becomes a visible escape (`\x1b`, `\n`, `\u202e`, `\xff`). Printable text,
    including non-ASCII, is unchanged; tabs are kept."""
    pattern = _unsafe(keep_newlines)
    return pattern.sub(_escape_char, text) if pattern.search(text) else text


def json_text(obj: object, indent: int | None = 2) -> str:
    r"""JSON that is valid UTF-8 whatever the strings hold: lone surrogates (file names that are not
    UTF-8, half of an emoji from an editor) are written as `\udcff` escapes, never as raw bytes, and
    so are DEL, C1 controls, U+2028/U+2029 and bidi controls (json.dumps escapes C0 itself): the
    JSON is lossless and safe to print. These characters occur only inside JSON strings.

    The text is exactly `json.dumps(obj, indent=indent, ensure_ascii=False)`'s; with an indent,
    json's encoder runs in pure Python (its C encoder has no indentation), so the usual shapes are
    laid out here around the C string encoder, several times faster on a big report."""
    text = json.dumps(obj, indent=indent, ensure_ascii=False) if indent is None else json_layout(obj, 0, indent)
    return json_escape(text)


def json_escape(text: str) -> str:
    """The last step of `json_text`, for JSON text assembled from `json_layout` pieces."""
    return _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_escape_needed(text: str) -> bool:
    """Whether `json_escape` may change `text`: not for ASCII text without DEL (the only ASCII
    character it escapes; `isascii` is a flag of the string, not a scan)."""
    return not text.isascii() or "\x7f" in text


def json_escape_some(text: str) -> str:
    """`json_escape(text)`, skipping the pass where it has nothing to do."""
    return json_escape(text) if json_escape_needed(text) else text


def json_layout(obj: object, depth: int = 0, indent: int = 2) -> str:
    """`json.dumps(obj, indent=indent, ensure_ascii=False)` as written `depth` levels deep inside a
    bigger document (its lines after the first indented by `depth` steps), before `json_escape`."""
    try:
        parts: list[str] = []
        _layout(obj, parts, "\n", " " * indent, depth)
        return "".join(parts)
    except _Unusual:
        text = json.dumps(obj, indent=indent, ensure_ascii=False)
        return text.replace("\n", "\n" + " " * (indent * depth)) if depth else text


class _Unusual(Exception):
    """A value `_layout` does not lay out itself (json.dumps does it instead)."""


# A JSON string literal, exactly as `json_layout` writes a str (before `json_escape`): json's own
# encoder, called directly (the JSON report calls it ~4 times per finding).
json_string: Callable[[str], str] = (getattr(json.encoder, "c_encode_basestring", None)
                                     or json.encoder.py_encode_basestring)
_encode_string = json_string


def _layout(obj: object, out: list[str], newline: str, step: str, depth: int) -> None:
    """`json.dumps(..., indent=len(step), ensure_ascii=False)` for str/int/float/bool/None, lists
    and tuples, and dicts with string keys; anything else raises `_Unusual`."""
    cls = type(obj)
    if cls is str:
        out.append(_encode_string(cast(str, obj)))
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif cls is int:
        out.append(int.__repr__(cast(int, obj)))
    elif cls is dict:
        items = cast("dict[object, object]", obj).items()
        if not items:
            out.append("{}")
            return
        inner = newline + step * (depth + 1)
        if len(items) == 2:  # an LSP position, the most frequent object of a report
            line, character = cast("dict[object, object]", obj).get("line"), cast("dict[object, object]", obj).get("character")
            if type(line) is int and type(character) is int and next(iter(items))[0] == "line":
                out.append(f'{{{inner}"line": {line},{inner}"character": {character}{newline}{step * depth}}}')
                return
        out.append("{")
        first = True
        for k, v in items:
            if type(k) is not str:
                raise _Unusual
            out.append(inner if first else "," + inner)
            first = False
            out.append(_encode_string(k))
            out.append(": ")
            _layout(v, out, newline, step, depth + 1)
        out.append(newline + step * depth + "}")
    elif cls is list or cls is tuple:
        if not obj:
            out.append("[]")
            return
        inner = newline + step * (depth + 1)
        out.append("[")
        first = True
        for v in cast("list[object]", obj):
            out.append(inner if first else "," + inner)
            first = False
            _layout(v, out, newline, step, depth + 1)
        out.append(newline + step * depth + "]")
    else:  # floats (NaN, infinities), subclasses, other types: json.dumps knows the rules
        raise _Unusual
