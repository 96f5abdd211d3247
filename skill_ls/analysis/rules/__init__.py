"""The rule registry. A rule is a function plus its docstring, registered by code (SPEC §5).

Scopes decide what a rule is given:
- ``file``: a `FileContext` for one skill file, independent of runtimes (parsing, body, references);
- ``runtime``: a `RuntimeContext` for one copy of a skill as one runtime sees it (fields, limits);
- ``resolution``: a `ResolutionContext` for one resolved name of one runtime (shadowing);
- ``agent``: an `AgentContext` for one agent definition;
- ``sidecar``: a `SidecarContext` for one JSON/YAML sidecar file.
The docstring is the user documentation: `skill-ls explain CODE` and the README table come from it.

A rule that can repair what it reports declares it: `fix="safe"` (every fix it offers keeps what the
author meant), `fix="unsafe"` (its fixes may change meaning; applied only with `--unsafe-fixes`) or
`fix="mixed"` (both, per case); its docstring then has a `## Fix safety` section saying which is
which. Each `Fix` value carries its own `safe` flag (ruff's model).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, TypeVar

from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit


@dataclass(frozen=True)
class Rule:
    """One rule (`@rule`): its code, name, default severity, scope, the check and its documentation."""

    code: str
    name: str
    severity: Severity
    scope: str
    func: Callable[..., Any]
    doc: str
    fix: str | None = None  # safe | unsafe | mixed | None (no fix)

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else self.name

    @property
    def family(self) -> str:
        return self.func.__module__.rsplit(".", 1)[-1]


RULES: dict[str, Rule] = {}


def _cleandoc(doc: str | None) -> str:
    """inspect.cleandoc without importing inspect (it costs the command line ~5 ms at start-up)."""
    if not doc:
        return ""
    lines = doc.expandtabs().splitlines()
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(indents) if indents else 0
    out = [lines[0].strip()] + [line[margin:].rstrip() for line in lines[1:]]
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return "\n".join(out)
# Further implementations of an already documented code in another scope (e.g. SK013's Amp part).
_PARTS: list[Rule] = []


_F = TypeVar("_F", bound=Callable[..., Any])
FIX_KINDS = ("safe", "unsafe", "mixed")


def rule(code: str, severity: Severity, scope: str, *, part: bool = False,
         fix: str | None = None) -> Callable[[_F], _F]:
    if fix is not None and fix not in FIX_KINDS:  # pragma: no cover - a programming error caught at import
        raise ValueError(f"rule {code}: fix must be one of {FIX_KINDS}")

    def register(func: _F) -> _F:
        entry = Rule(code, func.__name__.replace("_", "-"), severity, scope, func, _cleandoc(func.__doc__), fix)
        if part:
            _PARTS.append(entry)
            return func
        if code in RULES:  # pragma: no cover - a programming error caught at import
            raise ValueError(f"rule {code} registered twice")
        RULES[code] = entry
        return func

    return register


@dataclass
class Reporter:
    """Collects diagnostics for one rule invocation."""

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
    _load_all()
    return [r for r in list(RULES.values()) + _PARTS if r.scope == scope]


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
