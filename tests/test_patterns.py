"""`core/patterns.lazy_pattern` is the compiled pattern, compiled on first use."""
from __future__ import annotations

import re

from skill_ls.core.patterns import lazy_pattern


def test_lazy_pattern_answers_as_the_compiled_one() -> None:
    text = "a: 1\nB: 22\nc:3"
    for source, flags in [(r"^([a-z]+):\s*(\d+)$", re.M), (r"(\d)", 0), (r"[\u2028\ud800-\udfff]", 0)]:
        lazy, compiled = lazy_pattern(source, flags), re.compile(source, flags)
        assert "search" not in vars(lazy)  # (nothing compiled yet)
        assert lazy.pattern == compiled.pattern and lazy.flags == compiled.flags
        found, expected = lazy.search(text), compiled.search(text)
        assert (found and found.span()) == (expected and expected.span())
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        assert lazy.sub("x", text) == compiled.sub("x", text) and lazy.findall(text) == compiled.findall(text)
        assert lazy.split(text) == compiled.split(text) and lazy.groups == compiled.groups
        assert (lazy.match(text) is None) == (compiled.match(text) is None)
        assert vars(lazy)["search"].__self__ is re.compile(source, flags)  # the pattern's own method from now on
