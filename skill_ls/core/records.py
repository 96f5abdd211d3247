"""`dataclass`, `field`, `fields`, `replace` for the package's value types: what the standard
library's `dataclasses` does, without what a start need not pay for.

`dataclasses.dataclass` compiles every method it adds from source text, for every class, at every
start (~0.1 ms each: ~160 methods before a check's first file), and importing `dataclasses` imports
`inspect` (with `ast`, `dis` and `tokenize`: ~5 % of a check's start-up) for one call, a signature
in the docstring of a class that has none. This module makes the same classes — the same
`__init__` (positional fields in order, then keyword-only ones; defaults, factories called for each
value, `field(init=False)`), the same `__repr__` text, the same comparisons and hashes and
hashability, `__match_args__`, slots — but compiles nothing when a class is created: `__init__` is
compiled when the class's first value is made, `__eq__`/`__hash__` the first time one of its values
is compared or hashed (each the code the standard library writes, which then replaces the stub: a
value costs the same after that first time), and `__repr__` is one function shared by every class
(it prints what the standard one prints). Many classes make no value in a run (the server's in a
check), most are never compared; those first used in the per-file phase compile in the processes
that use them, not before the fork. `tests/test_records.py` compares both, option by option.

A `frozen` class is frozen to the type checker (mypy, strict: an assignment to one of its fields is
an error) and hashed by value, as the standard one is, but not guarded at run time: the guards cost
a `__setattr__` and a `__delattr__` per class at every start, and an `__init__` that stores each
field through `object.__setattr__` (~4 % of a check's instructions: spans, fixes, references).

`shared_init=True` is for types whose values are made a bounded number of times whatever the
workspace (descriptors, options, rules): their `__init__` is one shared function instead of compiled
code (~1 µs more a value).

Not supported (the package uses none): `ClassVar`/`InitVar` fields, `order`, `unsafe_hash`,
`__post_init__`. These classes are not `dataclasses` dataclasses: use this module's `fields` and
`replace`.
"""
from __future__ import annotations

from _thread import get_ident
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # (no default: as `dataclasses.MISSING`)
_HAS_FACTORY: Any = _Missing()  # (the default of a parameter whose field has a factory)


class Field:
    """One field of a record (as `dataclasses.Field`): its name and what `field()` said of it."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare", "hash", "kw_only")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True, hash: bool | None = None,  # noqa: A002
                 kw_only: bool = False) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.hash = hash
        self.kw_only = kw_only

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r}, "
                f"init={self.init!r}, repr={self.repr!r}, compare={self.compare!r}, hash={self.hash!r}, "
                f"kw_only={self.kw_only!r})")


@overload
def field(*, default: _T, init: bool = True, repr: bool = True, compare: bool = True,  # noqa: A002
          hash: bool | None = None, kw_only: bool = False) -> _T: ...  # noqa: A002


@overload
def field(*, default_factory: Callable[[], _T], init: bool = True, repr: bool = True,  # noqa: A002
          compare: bool = True, hash: bool | None = None, kw_only: bool = False) -> _T: ...  # noqa: A002


@overload
def field(*, init: bool = True, repr: bool = True, compare: bool = True,  # noqa: A002
          hash: bool | None = None, kw_only: bool = False) -> Any: ...  # noqa: A002


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
          repr: bool = True, compare: bool = True, hash: bool | None = None,  # noqa: A002
          kw_only: bool = False) -> Any:
    """A field's options, as `dataclasses.field`."""
    return Field(default, default_factory, init, repr, compare, hash, kw_only)


def fields(class_or_instance: Any) -> tuple[Field, ...]:
    """The fields of a record class or value, in order (base classes' first)."""
    try:
        return class_or_instance.__record_fields__  # type: ignore[no-any-return]
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of `obj` with `changes`, made through its `__init__` (as `dataclasses.replace`)."""
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


_running: set[tuple[int, int]] = set()


def _repr(self: object) -> str:
    """What the standard library's generated `__repr__` returns (recursion shown as `...`)."""
    key = (id(self), get_ident())
    if key in _running:
        return "..."
    _running.add(key)
    try:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr]
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


def _install_shared_init(cls: type, flds: tuple[Field, ...]) -> None:
    """An `__init__` that binds its arguments as the compiled one does (a `TypeError` for a missing,
    unexpected or repeated argument), sets the fields in field order, and is one function for every
    such class: nothing compiled."""
    positional = tuple(f.name for f in flds if f.init and not f.kw_only)
    accepted = frozenset(f.name for f in flds if f.init)
    required = frozenset(f.name for f in flds if f.init and f.default is MISSING and f.default_factory is MISSING)
    order = tuple(f.name for f in flds)
    # (a `field(init=False)` with a plain default is not set: it is read from the class, as before)
    defaults = {f.name: f.default for f in flds if f.init and f.default is not MISSING}
    factories = tuple((f.name, f.default_factory) for f in flds if f.default_factory is not MISSING)
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


def _install_compiled_init(cls: type, flds: tuple[Field, ...]) -> None:
    """The `__init__` `dataclasses` writes (without its annotations), compiled from source."""
    scope: dict[str, Any] = {"_HAS_FACTORY": _HAS_FACTORY}
    params: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in flds:
        if f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
        if f.init:
            if f.default is not MISSING:
                scope[f"_default_{f.name}"] = f.default
                param = f"{f.name}=_default_{f.name}"
            elif f.default_factory is not MISSING:
                param = f"{f.name}=_HAS_FACTORY"
            else:
                param = f.name
            (keywords if f.kw_only else params).append(param)
            if f.default_factory is not MISSING:
                body.append(f" self.{f.name} = _factory_{f.name}() if {f.name} is _HAS_FACTORY else {f.name}")
            else:
                body.append(f" self.{f.name} = {f.name}")
        elif f.default_factory is not MISSING:
            body.append(f" self.{f.name} = _factory_{f.name}()")
    signature = ", ".join(["self", *params, *(["*", *keywords] if keywords else [])])
    text = f"def __init__({signature}):\n" + ("\n".join(body) or " pass") + "\n"
    exec(text, scope)  # noqa: S102 - our own text, as dataclasses does
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]


def _install_init_on_first_use(cls: type, flds: tuple[Field, ...]) -> None:
    """An `__init__` that compiles the real one (`_install_compiled_init`) when the class's first
    value is made, and is replaced by it: a class no value of which is made in a run (most of the
    server's in a check, a resolution's where nothing is resolved) compiles nothing, and one first
    made in the per-file phase compiles in the processes that make it, not before the fork."""
    def __init__(self: object, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        if cls.__dict__["__init__"] is __init__:  # (not compiled by another value meanwhile)
            _install_compiled_init(cls, flds)
        cls.__dict__["__init__"](self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = __init__  # type: ignore[misc]

def _own_fields(cls: type) -> list[Field]:
    """The fields a class body declares (its annotations, in order), the class attributes set as
    `dataclasses` sets them (a field's plain default stays on the class; a `field()` goes)."""
    own = cls.__dict__
    made: list[Field] = []
    for name, annotation in own.get("__annotations__", {}).items():
        if isinstance(annotation, str) and annotation.startswith(("ClassVar", "typing.ClassVar", "InitVar",
                                                                    "dataclasses.InitVar")):
            raise TypeError(f"{cls.__qualname__}.{name}: ClassVar and InitVar fields are not supported")
        value = own.get(name, MISSING)
        if isinstance(value, Field):
            f = value
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(default=value)
        if isinstance(f.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        f.name = name
        made.append(f)
    for name, value in own.items():
        if isinstance(value, Field) and name not in own.get("__annotations__", {}):
            raise TypeError(f"{name!r} is a field but has no type annotation")
    return made


def _with_slots(cls: type, flds: tuple[Field, ...]) -> type:
    """The class made again with `__slots__` for its fields (as `dataclasses` does for `slots=True`)."""
    inherited = {s for base in cls.__mro__[1:-1] for s in base.__dict__.get("__slots__", ())}
    namespace = dict(cls.__dict__)
    namespace["__slots__"] = tuple(f.name for f in flds if f.name not in inherited)
    for f in flds:
        namespace.pop(f.name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _process(cls: type[_T], frozen: bool, eq: bool, slots: bool, shared_init: bool) -> type[_T]:
    own = cls.__dict__
    if hasattr(cls, "__post_init__"):  # (never called by these `__init__`s: refused, not ignored)
        raise TypeError(f"{cls.__qualname__}: __post_init__ is not supported by core/records.py")
    has_init, has_repr, has_eq = "__init__" in own, "__repr__" in own, "__eq__" in own
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and has_eq))
    by_name: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            by_name[f.name] = f
    for f in _own_fields(cls):
        by_name[f.name] = f
    flds = tuple(by_name.values())
    seen_default = None
    for f in flds:
        if f.init and not f.kw_only:
            if f.default is MISSING and f.default_factory is MISSING:
                if seen_default is not None:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument {seen_default!r}")
            elif seen_default is None:
                seen_default = f.name
    made: type[_T] = cls
    if slots:
        made = _with_slots(cls, flds)
    made.__record_fields__ = flds  # type: ignore[attr-defined]
    if "__match_args__" not in own:
        made.__match_args__ = tuple(f.name for f in flds if f.init and not f.kw_only)  # type: ignore[misc,attr-defined]
    # Frozen to the type checker (mypy, strict, rejects every assignment to a field of a frozen
    # class), not at run time (the module's docstring).
    if not has_init:
        (_install_shared_init if shared_init else _install_init_on_first_use)(made, flds)
    if not has_repr:
        made.__repr__ = _repr  # type: ignore[method-assign]
    if eq and not has_eq:
        _install_eq(made, [f.name for f in flds if f.compare])
    # The standard library's table (`dataclasses._hash_action`, without `unsafe_hash`): a class that
    # compares by value is hashed by value when frozen and is unhashable otherwise; one that defines
    # its own `__hash__` keeps it.
    if eq and not explicit_hash:
        if frozen:
            _install_hash(made, [f.name for f in flds if (f.compare if f.hash is None else f.hash)])
        else:
            made.__hash__ = None  # type: ignore[assignment]
    return made


@overload
def dataclass(cls: type[_T], /) -> type[_T]: ...


@overload
def dataclass(cls: None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False,
              shared_init: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(field, Field))
def dataclass(cls: type[_T] | None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False,
              shared_init: bool = False) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """`dataclasses.dataclass(cls, frozen=..., eq=..., slots=...)`: the module's docstring."""
    def wrap(c: type[_T]) -> type[_T]:
        return _process(c, frozen, eq, slots, shared_init)

    return wrap if cls is None else wrap(cls)
