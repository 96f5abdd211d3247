"""How a YAML 1.2 reader (the JavaScript `yaml` package's default core schema, which Amp uses) reads a
plain scalar — where it differs from PyYAML's YAML 1.1 reading.

YAML 1.1 resolves `yes`/`no`/`on`/`off`/`y`/`n` to booleans, `0755` to octal, `1:30` to sexagesimal,
`1_000` to an integer and `2024-01-01` to a date; the 1.2 core schema keeps all of those strings (or, for
`0755`, the decimal 755) and adds `0o755` and `0x1F`. Only plain (unquoted) scalars are affected.
"""
from __future__ import annotations

import re
from typing import Any

from skill_ls.core.parse.data import bounded_int

_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE = frozenset(("true", "True", "TRUE"))
_FALSE = frozenset(("false", "False", "FALSE"))
_DEC = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)")


# Every non-string reading starts with one of these characters (null, booleans, numbers, .inf/.nan).
_NON_STRING_START = frozenset("~nNtTfF0123456789+-.")


def core_schema_value(text: str) -> Any:
    """The value of the plain scalar `text` under the YAML 1.2 core schema."""
    if text and text[0] not in _NON_STRING_START:
        return text  # the common case (a description, a name): a string, no pattern can match
    if text in _NULL:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if _DEC.fullmatch(text):
        return bounded_int(text, 10)
    if _OCT.fullmatch(text):
        return bounded_int(text[2:], 8)
    if _HEX.fullmatch(text):
        return bounded_int(text[2:], 16)
    if _FLOAT.fullmatch(text):
        return float(text)
    if _INF.fullmatch(text):
        return float("-inf") if text.startswith("-") else float("inf")
    if _NAN.fullmatch(text):
        return float("nan")
    return text


def same_reading(a: Any, b: Any) -> bool:
    """Whether two scalar readings are the same value of the same kind (True is not 1, 1 is not 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and a != a and b != b:  # NaN
        return True
    return bool(a == b)


def js_truthy(value: Any) -> bool:
    """JavaScript's truthiness of a value read from YAML (Amp tests flags with `!value`)."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == value and value != 0  # NaN and 0 are falsy
    if isinstance(value, str):
        return value != ""
    return True


def js_string(value: Any) -> str:
    """`${value}` in a JavaScript template literal, for a value read from YAML 1.2 (Amp's catalog prints
    `${s.name}` and `${s.description}`): `true`, `15` (for `0o17`), `1` (for `1.0`), `null`, a list's
    items joined by commas, `[object Object]` for a mapping."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        text = repr(value)
        if "e" in text:  # JavaScript writes 1e-7 as 1e-7 and 1.5e+22 with the sign
            mantissa, exp = text.split("e")
            text = f"{mantissa}e{'+' if not exp.startswith('-') else ''}{exp.lstrip('+')}"
        return text
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)
