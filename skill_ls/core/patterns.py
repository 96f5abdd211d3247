"""Regular expressions compiled the first time they are used.

Compiling a pattern costs ~0.05-0.5 ms, and a module-level `re.compile` pays it at every start,
before a check's first file, for patterns most runs never use (TOML error positions, the quoting
repair, hooks' shell operators, model ids...). `lazy_pattern(...)` stands for the compiled pattern
(the type checker sees a `re.Pattern`): the first use compiles it and keeps the pattern's methods
on the object, so every later call is the pattern's own method, with nothing in between. Patterns
that nearly every file uses stay compiled at import (forked processes share them).
"""
from __future__ import annotations

import re
from typing import Any, cast

_KEPT = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern", "flags",
         "groups", "groupindex")


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # (only for a name not set yet: the first use)
        compiled = re.compile(*self._source)
        for attr in _KEPT:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self._source[0]!r})"


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled on first use (the module's docstring)."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
