"""`core/records.dataclass` behaves as `dataclasses.dataclass` does: the same `__repr__` text, the
same comparisons and hashes (compiled on first use), the same hashability, `field` options and
slots — for each combination of options the package uses. (A frozen class is frozen to the type
checker only: `tests/test_typing.py` runs mypy, which rejects an assignment to its fields.)"""
from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from skill_ls.core import records


def _pair(**options: Any) -> tuple[type, type]:
    """One class body made twice: by the standard library and by `records`."""
    made = []
    for decorate, field in ((dataclasses.dataclass, dataclasses.field), (records.dataclass, records.field)):
        class Value:
            a: int
            b: str = "x"
            c: tuple[int, ...] = field(default_factory=tuple)
            d: int = field(default=0, repr=False, compare=False)

        made.append(decorate(**options)(Value))  # type: ignore[operator]
    return made[0], made[1]


OPTIONS = [{}, {"frozen": True}, {"eq": False}, {"frozen": True, "eq": False}, {"slots": True},
           {"frozen": True, "slots": True}]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_the_same_values_as_the_standard_library(options: dict[str, Any]) -> None:
    std, rec = _pair(**options)
    for args in [(1,), (1, "y", (2,), 5), (2, "x\n'é", ())]:
        s, r = std(*args), rec(*args)
        assert repr(s) == repr(r)
        assert (s == std(*args)) == (r == rec(*args))
        assert (s != std(*args)) == (r != rec(*args))
        assert (s == std(9)) == (r == rec(9))
        assert (r == s) is False  # another class: not equal, as between two standard classes
        assert (std.__hash__ is None) == (rec.__hash__ is None)
        if std.__hash__ is not None and options.get("frozen") and options.get("eq", True):
            assert hash(s) == hash(std(*args)) and hash(r) == hash(rec(*args)) and {r: 1}[rec(*args)] == 1
            assert hash(r) == hash(s)  # (the same fields' tuple)
        assert [(f.name, f.default, f.default_factory is not dataclasses.MISSING, f.init, f.repr, f.compare, f.kw_only)
                for f in dataclasses.fields(s)] == [
            (f.name, f.default if f.default is not records.MISSING else dataclasses.MISSING,
             f.default_factory is not records.MISSING, f.init, f.repr, f.compare, f.kw_only) for f in records.fields(r)]
        assert repr(records.replace(r, a=7)) == repr(dataclasses.replace(s, a=7))
        assert rec.__match_args__ == std.__match_args__  # type: ignore[attr-defined]
        if not options.get("frozen"):  # (a frozen class is frozen to the type checker: mypy, strict)
            r.a = 3
            assert r.a == 3
        if options.get("slots"):
            assert not hasattr(r, "__dict__") and rec.__slots__ == std.__slots__  # type: ignore[attr-defined]


def test_comparison_compiled_once_then_the_standard_code() -> None:
    std, rec = _pair(frozen=True)
    stub_eq, stub_hash = rec.__eq__, rec.__hash__
    assert rec(1) == rec(1) and hash(rec(1)) == hash(rec(1))
    assert rec.__eq__ is not stub_eq and rec.__hash__ is not stub_hash  # replaced by the compiled ones
    assert rec.__eq__.__qualname__ == std.__eq__.__qualname__
    assert rec(1) != rec(2) and rec(1, d=4) == rec(1, d=5)  # compare=False leaves d out, as before


def test_inheritance_keyword_only_and_refusals() -> None:
    made = []
    for decorate, field in ((dataclasses.dataclass, dataclasses.field), (records.dataclass, records.field)):
        class Base:
            a: int
            k: str = field(default="k", kw_only=True)

        class Child(decorate(Base)):  # type: ignore[misc]
            b: int
            c: int = 3

        made.append(decorate(Child))
    std, rec = made
    assert repr(std(1, 2)) == repr(rec(1, 2)) and repr(std(1, 2, 5, k="z")) == repr(rec(1, 2, 5, k="z"))
    with pytest.raises(TypeError):
        @records.dataclass
        class Wrong:
            a: int = 1
            b: int
    with pytest.raises(ValueError):
        @records.dataclass
        class Mutable:
            a: list[int] = []  # noqa: RUF012
    with pytest.raises(TypeError):
        records.fields(object())
    with pytest.raises(TypeError):
        @records.dataclass
        class WithPostInit:
            a: int

            def __post_init__(self) -> None:
                pass


def test_no_dataclasses_nor_inspect_for_a_check() -> None:
    """A check imports neither `dataclasses` nor `inspect` (with `ast`, `dis`, `tokenize`)."""
    import subprocess
    import sys

    code = ("import sys, skill_ls.cli, skill_ls.analysis.check, skill_ls.output, skill_ls.analysis.rules as r; "
            "r.all_rules(); print(sorted({'dataclasses', 'inspect', 'ast', 'dis'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_recursive_repr_and_own_methods_kept() -> None:
    @records.dataclass
    class Node:
        children: list[Any]

        def __eq__(self, other: object) -> bool:
            return True

    n = Node([])
    n.children.append(n)
    assert repr(n) == "test_recursive_repr_and_own_methods_kept.<locals>.Node(children=[...])"
    assert n == Node([1]) and Node.__hash__ is None  # its own __eq__, unhashable as the standard one makes it


def test_pickles_as_before() -> None:
    from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit

    span = Span(1, 2, 3, 4)
    d = Diagnostic("p", span, "SK001", "m", Severity.ERROR, related=(Related("q", span, "r"),),
                   fix=Fix("t", (TextEdit("p", span, "x"),), safe=True))
    back = pickle.loads(pickle.dumps(d))
    assert back.identity() == d.identity() and back.fix == d.fix and repr(back) == repr(d)


def test_shared_init_binds_as_the_generated_one() -> None:
    made = []
    for decorate, field in ((dataclasses.dataclass, dataclasses.field), (records.dataclass, records.field),
                            (records.dataclass(shared_init=True), records.field)):
        class Options:
            """(documented)"""
            a: int
            b: str = "x"
            c: list[int] = field(default_factory=list)
            d: int = field(default=4, init=False)
            e: dict[str, int] = field(default_factory=dict, init=False)
            f: str = field(default="k", kw_only=True)

        made.append(decorate(Options))  # type: ignore[operator]
    std, rec, shared = made
    assert "records.py" in shared.__init__.__code__.co_filename  # (the shared one: not compiled)
    stub = rec.__init__
    rec(1)
    assert rec.__init__ is not stub and "records.py" not in rec.__init__.__code__.co_filename  # compiled on first use
    for args, kwargs in [((1,), {}), ((1, "y"), {}), ((1, "y", [3]), {"f": "z"}), ((), {"a": 2, "c": [5]})]:
        for r in (rec(*args, **kwargs), shared(*args, **kwargs)):
            s = std(*args, **kwargs)
            assert repr(s) == repr(r) and vars(s) == vars(r) and list(vars(s)) == list(vars(r))
    for made_ in (rec, shared):
        assert made_(1).c is not made_(1).c and made_(1).e is not made_(1).e  # a factory's value per value
    for args, kwargs in [((), {}), ((1, "y", [], 9), {}), ((1,), {"z": 1}), ((1,), {"a": 2}), ((1,), {"d": 3})]:
        for made_ in (std, rec, shared):
            with pytest.raises(TypeError):
                made_(*args, **kwargs)
