"""The rule registry. A rule is a function plus its docstring, registered by code.

Scopes decide what a rule is given:
- ``file``: a `FileContext` for one skill file, independent of runtimes (parsing, body, references);
- ``runtime``: a `RuntimeContext` for one copy of a skill as one runtime sees it (fields, limits);
- ``resolution``: a `ResolutionContext` for one resolved name of one runtime (shadowing);
- ``agent``: an `AgentContext` for one agent definition;
- ``sidecar``: a `SidecarContext` for one JSON/YAML/TOML file beside a skill or in a plugin.
The docstring is the user documentation: `skill-ls explain CODE` and the README table come from it.

A rule also declares **where it applies**, and the registry runs it only there (`rules_for`):
- ``runtimes=``: a predicate over the `Runtime` descriptor (`ANY_RUNTIME`, or a named function of the
  descriptor's data such as `substitutes_arguments`). Required for the ``runtime`` and ``resolution``
  scopes, so a rule written for one runtime cannot silently fire for every runtime that reads a file;
  for the ``agent`` scope it is asked of the runtime that reads the agent's family.
- ``file_kinds=``: the kinds of file it reads (`FILE_KINDS`); by default every kind its scope is given.
`rule_runtimes(rule)` lists the runtime ids a rule applies to (the rules table, `explain`).

Running a rule goes through `run_rules`, the error boundary: a rule that raises on a file becomes a
`SL001` finding on that file ("skill-ls could not check this file"), and the other rules still run.

A rule that can repair what it reports declares it: `fix="safe"` (every fix it offers keeps what the
author meant), `fix="unsafe"` (its fixes may change meaning; applied only with `--unsafe-fixes`) or
`fix="mixed"` (both, per case); its docstring then has a `## Fix safety` section saying which is
which. Each `Fix` value carries its own `safe` flag (ruff's model).
"""
from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit
from skill_ls.core.records import dataclass

if TYPE_CHECKING:
    from skill_ls.core.runtimes import Runtime

RuntimePredicate = Callable[["Runtime"], bool]


def ANY_RUNTIME(runtime: "Runtime") -> bool:  # noqa: N802 - reads as a constant in `@rule(...)`
    """Every runtime: the rule's subject is the same whichever runtime reads the file."""
    return True


# The kinds of file a rule can read, and the kinds each scope is given by default.
SCOPE_KINDS: dict[str, tuple[str, ...]] = {
    "file": ("skill", "command"),
    "runtime": ("skill", "command"),  # a command's frontmatter has a skill's fields
    "resolution": ("skill",),
    "agent": ("agent",),
    "sidecar": ("mcp", "meta", "openai", "capabilities", "manifest", "command", "plugin_mcp", "project_mcp", "hooks",
                "settings", "marketplace"),
    "config": ("config",),
    "internal": (),
}
# The kinds a rule that names none reads, where they are fewer than the scope is given: a command file
# gets only the file rules that declare "command" (the parsing of its frontmatter, SK002/SK003).
SCOPE_DEFAULT_KINDS: dict[str, tuple[str, ...]] = {"file": ("skill",)}
FILE_KINDS: tuple[str, ...] = tuple(sorted({k for kinds in SCOPE_KINDS.values() for k in kinds}))
# Scopes whose rules must say which runtimes they apply to.
RUNTIME_SCOPES = ("runtime", "resolution")


def cleandoc(doc: str) -> str:
    """`inspect.cleandoc` (the same algorithm; `inspect`, with `ast`, `dis` and `tokenize`, is ~5 % of a
    check's start-up, and nothing else a check runs imports it): tabs expanded, the first line's
    leading whitespace and the other lines' common indentation removed, blank lines at either end
    dropped."""
    lines = doc.expandtabs().split("\n")
    margin = sys.maxsize
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            margin = min(margin, len(line) - content)
    lines[0] = lines[0].lstrip()
    if margin < sys.maxsize:
        lines[1:] = [line[margin:] for line in lines[1:]]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


@functools.cache
def _cleaned_doc(func: Callable[..., Any]) -> str:
    return cleandoc(func.__doc__ or "")


@dataclass(frozen=True, eq=False, shared_init=True)
class Rule:
    """One rule (`@rule`): its code, name, default severity, scope, where it applies, the check and its
    documentation."""

    code: str
    name: str
    severity: Severity
    scope: str
    func: Callable[..., Any]
    fix: str | None = None  # safe | unsafe | mixed | None (no fix)
    runtimes: RuntimePredicate | None = None  # None: the scope is not about runtimes
    file_kinds: tuple[str, ...] = ()

    @property
    def doc(self) -> str:
        """Its documentation: the function's docstring, cleaned as `inspect.cleandoc` cleans it, when
        first asked (`explain`, `rules`, SARIF; a check in another format reads none, and cleaning
        ~75 docstrings cost each process of the per-file phase ~1 ms)."""
        return _cleaned_doc(self.func)

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else self.name

    @property
    def family(self) -> str:
        return self.func.__module__.rsplit(".", 1)[-1]

    def applies(self, kind: str | None, runtime: "Runtime | None") -> bool:
        """Whether this rule runs on a file of `kind` as `runtime` reads it."""
        if kind is not None and kind not in self.file_kinds:
            return False
        return runtime is None or self.runtimes is None or self.runtimes(runtime)


RULES: dict[str, Rule] = {}


# Further implementations of an already documented code in another scope (e.g. SK013's Amp part).
_PARTS: list[Rule] = []


_F = TypeVar("_F", bound=Callable[..., Any])
FIX_KINDS = ("safe", "unsafe", "mixed")


def rule(code: str, severity: Severity, scope: str, *, runtimes: RuntimePredicate | None = None,
         file_kinds: tuple[str, ...] | None = None, part: bool = False,
         fix: str | None = None) -> Callable[[_F], _F]:
    """Register a rule. `runtimes` (required for the runtime and resolution scopes) and `file_kinds`
    (default: every kind the scope is given) say where it applies; the registry runs it only there."""
    # Programming errors, caught at import (every module of this package is imported by the tests).
    if fix is not None and fix not in FIX_KINDS:  # pragma: no cover
        raise ValueError(f"rule {code}: fix must be one of {FIX_KINDS}")
    if scope not in SCOPE_KINDS:  # pragma: no cover
        raise ValueError(f"rule {code}: unknown scope {scope!r}")
    if scope in RUNTIME_SCOPES and runtimes is None:  # pragma: no cover
        raise ValueError(f"rule {code}: a {scope} rule must say which runtimes it applies to "
                         "(runtimes=ANY_RUNTIME or a predicate over the Runtime descriptor)")
    kinds = SCOPE_DEFAULT_KINDS.get(scope, SCOPE_KINDS[scope]) if file_kinds is None else tuple(file_kinds)
    if set(kinds) - set(SCOPE_KINDS[scope]):  # pragma: no cover
        raise ValueError(f"rule {code}: file kinds {sorted(set(kinds) - set(SCOPE_KINDS[scope]))} "
                         f"are not given to the {scope} scope")

    def register(func: _F) -> _F:
        entry = Rule(code, func.__name__.replace("_", "-"), severity, scope, func, fix, runtimes, kinds)
        if part:
            _PARTS.append(entry)
            return func
        if code in RULES:  # pragma: no cover - a programming error caught at import
            raise ValueError(f"rule {code} registered twice")
        RULES[code] = entry
        return func

    return register


@dataclass(eq=False)
class Reporter:
    """Collects diagnostics for one rule invocation (compared with nothing: identity)."""

    path: str
    runtime: str | None
    out: list[Diagnostic]
    code: str = ""
    severity: Severity = Severity.ERROR

    def report(self, span: Span, message: str, *, related: Iterable[Related] = (), fix: Fix | None = None,
               severity: Severity | None = None, path: str | None = None, data: dict[str, Any] | None = None) -> None:
        self.out.append(Diagnostic(path or self.path, span, self.code, message, severity or self.severity,
                                   self.runtime, tuple(related), fix, data or {}))


def replace_fix(title: str, path: str, span: Span, text: str, *, safe: bool) -> Fix:
    return Fix(title, (TextEdit(path, span, text),), safe=safe)


def rules_for_scope(scope: str) -> list[Rule]:
    """Every rule (and part) of a scope, wherever it applies."""
    _load_all()
    return [r for r in list(RULES.values()) + _PARTS if r.scope == scope]


_FOR: dict[tuple[str, str | None, str | None], list[Rule]] = {}


def rules_for(scope: str, kind: str | None = None, runtime: "Runtime | None" = None) -> list[Rule]:
    """The rules of `scope` that apply to a file of `kind` as `runtime` reads it (cached)."""
    key = (scope, kind, runtime.id if runtime is not None else None)
    found = _FOR.get(key)
    if found is None:
        found = _FOR[key] = [r for r in rules_for_scope(scope) if r.applies(kind, runtime)]
    return found


INTERNAL_ERROR = "SL001"


def run_rules(rules: Iterable[Rule], ctx: Any, rep: Reporter) -> None:
    """Run `rules` on one context: the error boundary. A rule that raises becomes an SL001 finding on
    the file it was checking; the rules after it still run."""
    for r in rules:
        rep.code, rep.severity = r.code, r.severity
        try:
            r.func(ctx)
        except Exception as exc:  # noqa: BLE001 - the boundary: one rule's failure never stops the rest
            rep.code, rep.severity = INTERNAL_ERROR, Severity.ERROR
            rep.report(Span(0, 0, 0, 0), internal_error_message(r.code, exc))


def internal_error_message(what: str, exc: BaseException) -> str:
    """SL001's message: what failed and why, in one bounded line."""
    try:
        detail = str(exc)
    except Exception:  # noqa: BLE001 - str() of a hostile value can itself fail
        detail = ""
    detail = " ".join(detail.split())
    if len(detail) > 160:
        detail = detail[:157] + "..."
    cause = type(exc).__name__ + (f": {detail}" if detail else "")
    return f"skill-ls could not check this file: {what} failed ({cause}); please report it"


def rule_runtimes(r: Rule) -> tuple[str, ...] | None:
    """The ids of the runtimes `r` applies to (None: the rule is not about runtimes)."""
    if r.runtimes is None:
        return None
    from skill_ls.core.runtimes import RUNTIMES

    return tuple(rid for rid, rt in RUNTIMES.items() if r.runtimes(rt))


def family_codes() -> dict[str, list[str]]:
    """Each rule family (module) and its codes, in code order: where code ranges are written, they come
    from here (ARCHITECTURE.md's family list is checked against it)."""
    out: dict[str, list[str]] = {}
    for code, r in all_rules().items():
        out.setdefault(r.family, []).append(code)
    return out


_loaded = False


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    # Importing the modules registers their rules: every module of this package is a rule family
    # (but `context`, what rules are given), imported in name order. A new family is just a new file.
    import importlib
    import os

    for file in sorted(os.listdir(os.path.dirname(__file__))):
        name, ext = os.path.splitext(file)
        if ext == ".py" and not name.startswith("_") and name != "context":
            importlib.import_module(f"{__name__}.{name}")


def all_rules() -> dict[str, Rule]:
    _load_all()
    return dict(sorted(RULES.items()))
