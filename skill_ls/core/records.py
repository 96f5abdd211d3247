"""`dataclass` for the package's value types: the standard library's, with the methods a start need
not pay for made once, shared or on first use.

`dataclasses.dataclass` compiles every method it adds from source text, for every class, at every
start (~0.1 ms each: ~160 methods before a check's first file). This one behaves as it does (the
same `__repr__` text, the same comparisons and hashes) but only `__init__` is compiled at class
creation: `__repr__` is one function shared by every class (a debugging aid: nothing printed
depends on it, and it prints what the standard one prints), and `__eq__`/`__hash__` are compiled
for a class the first time one of its values is compared or hashed — the code the standard library
writes, so comparing costs the same after that first time. Most classes are never compared in a
run; the few that are (spans, fixes, configurations, the server's listings) pay once.

A `frozen` class is frozen to the type checker (mypy, strict: an assignment to one of its fields is
an error) and hashed by value, as the standard one is, but not guarded at run time: the guards cost
a `__setattr__` and a `__delattr__` per class at every start, and an `__init__` that stores each
field through `object.__setattr__` (~4 % of a check's instructions: spans, fixes, references).

Use it as `dataclasses.dataclass` (`frozen`, `eq` and `slots` are the options the package uses;
`field` is still `dataclasses.field`, and `dataclasses.fields`/`replace` work as before).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from threading import get_ident
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")

_running: set[tuple[int, int]] = set()


def _repr(self: object) -> str:
    """What the standard library's generated `__repr__` returns (recursion shown as `...`)."""
    key = (id(self), get_ident())
    if key in _running:
        return "..."
    _running.add(key)
    try:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self)  # type: ignore[arg-type]
                 if f.repr]
        return f"{self.__class__.__qualname__}({', '.join(parts)})"
    finally:
        _running.discard(key)


def _compiled(name: str, text: str) -> Callable[..., Any]:
    scope: dict[str, Any] = {}
    exec(text, {"__builtins__": __builtins__}, scope)  # noqa: S102 - our own text, as dataclasses does
    return scope[name]  # type: ignore[no-any-return]


def _fields_tuple(obj: str, names: list[str]) -> str:
    return "(" + "".join(f"{obj}.{n}," for n in names) + ")"


def _install_eq(cls: type, names: list[str]) -> None:
    def __eq__(self: object, other: object) -> Any:  # noqa: N807 - replaced by the compiled one on first use
        text = ("def __eq__(self, other):\n"
                " if other.__class__ is self.__class__:\n"
                f"  return {_fields_tuple('self', names)} == {_fields_tuple('other', names)}\n"
                " return NotImplemented\n")
        real = _compiled("__eq__", text)
        real.__qualname__ = f"{cls.__qualname__}.__eq__"
        cls.__eq__ = real  # type: ignore[method-assign]
        return real(self, other)

    __eq__.__qualname__ = f"{cls.__qualname__}.__eq__"
    cls.__eq__ = __eq__  # type: ignore[assignment]


def _install_hash(cls: type, names: list[str]) -> None:
    def __hash__(self: object) -> int:  # noqa: N807 - replaced by the compiled one on first use
        real = _compiled("__hash__", f"def __hash__(self):\n return hash({_fields_tuple('self', names)})\n")
        real.__qualname__ = f"{cls.__qualname__}.__hash__"
        cls.__hash__ = real  # type: ignore[method-assign]
        return real(self)  # type: ignore[no-any-return]

    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    cls.__hash__ = __hash__  # type: ignore[assignment]


def _install_shared_init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """An `__init__` that binds its arguments as the generated one does (positional in field order,
    keyword-only fields, defaults, factories called for each value, `field(init=False)` factories;
    a `TypeError` for a missing, unexpected or repeated argument), sets the fields in field order,
    and is one function for every such class: nothing compiled."""
    positional = tuple(f.name for f in fields if f.init and not f.kw_only)
    accepted = frozenset(f.name for f in fields if f.init)
    required = frozenset(f.name for f in fields if f.init and f.default is dataclasses.MISSING
                         and f.default_factory is dataclasses.MISSING)
    order = tuple(f.name for f in fields)
    # (a `field(init=False)` with a plain default is not set: it is read from the class, as before)
    defaults = {f.name: f.default for f in fields if f.init and f.default is not dataclasses.MISSING}
    factories = tuple((f.name, f.default_factory) for f in fields if f.default_factory is not dataclasses.MISSING)
    name = cls.__qualname__

    def __init__(self: object, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        if len(args) > len(positional):
            raise TypeError(f"{name}.__init__() takes {len(positional) + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        given = dict(zip(positional, args))
        if kwargs:
            if not accepted.issuperset(kwargs):
                unexpected = next(k for k in kwargs if k not in accepted)
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument {unexpected!r}")
            if not given.keys().isdisjoint(kwargs):
                repeated = next(k for k in kwargs if k in given)
                raise TypeError(f"{name}.__init__() got multiple values for argument {repeated!r}")
            given.update(kwargs)
        if not required.issubset(given):
            missing = ", ".join(repr(n) for n in order if n in required and n not in given)
            raise TypeError(f"{name}.__init__() missing required arguments: {missing}")
        for n, factory in factories:
            if n not in given:
                given[n] = factory()
        for n in order:
            if n in given:
                setattr(self, n, given[n])
            elif n in defaults:
                setattr(self, n, defaults[n])

    __init__.__qualname__ = f"{name}.__init__"
    cls.__init__ = __init__  # type: ignore[misc]


def _process(cls: type[_T], frozen: bool, eq: bool, slots: bool, shared_init: bool) -> type[_T]:
    own = cls.__dict__
    has_repr, has_eq = "__repr__" in own, "__eq__" in own
    class_hash = own.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (class_hash is dataclasses.MISSING or (class_hash is None and has_eq))
    # Frozen to the type checker (mypy, strict, rejects every assignment to a field of a frozen
    # class), not at run time: the standard library's guards (a `__setattr__` and a `__delattr__`
    # per class, and an `__init__` storing through `object.__setattr__`) cost ~0.8 ms of every start
    # and ~0.1 µs of every value made, spans and fixes included, for what the type checker forbids.
    shared = shared_init and "__init__" not in own
    made: type[_T] = dataclasses.dataclass(cls, init=not shared, repr=False, eq=False, slots=slots)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    if shared:
        _install_shared_init(made, fields)
    if not has_repr:
        made.__repr__ = _repr  # type: ignore[method-assign]
    if eq and not has_eq:
        _install_eq(made, [f.name for f in fields if f.compare])
    # The standard library's table (`dataclasses._hash_action`, without `unsafe_hash`): a class that
    # compares by value is hashed by value when frozen and is unhashable otherwise; one that defines
    # its own `__hash__` keeps it.
    if eq and not explicit_hash:
        if frozen:
            _install_hash(made, [f.name for f in fields if (f.compare if f.hash is None else f.hash)])
        else:
            made.__hash__ = None  # type: ignore[assignment]
    return made


@overload
def dataclass(cls: type[_T], /) -> type[_T]: ...


@overload
def dataclass(cls: None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False,
              shared_init: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field,))
def dataclass(cls: type[_T] | None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False,
              shared_init: bool = False) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """`dataclasses.dataclass(cls, frozen=..., eq=..., slots=...)`, its `__repr__` shared and its
    `__eq__`/`__hash__` compiled on first use (the module's docstring). `shared_init` is for types
    whose values are made a bounded number of times whatever the workspace (descriptors, options,
    rules): their `__init__` is one shared function instead of compiled code (~1 µs more a value)."""
    def wrap(c: type[_T]) -> type[_T]:
        return _process(c, frozen, eq, slots, shared_init)

    return wrap if cls is None else wrap(cls)
