"""Plain values shared by the analysis core: positions, spans, diagnostics, fixes.

Positions are 0-based lines and 0-based *code point* columns of the text after a BOM. Output layers
convert to UTF-16 (LSP, JSON) or 1-based code points (text, GitHub) using the document's lines.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any

from skill_ls.core.records import dataclass, field


class Severity(IntEnum):
    # Same numbering as LSP DiagnosticSeverity so the server converts by value.
    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> "Severity":
        key = text.strip().lower()
        aliases = {"info": "information", "warn": "warning", "note": "information"}
        key = aliases.get(key, key)
        for sev in cls:
            if sev.label == key:
                return sev
        raise ValueError(f"unknown severity {text!r} (use error, warning, information or hint)")


_LABELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "information",
           Severity.HINT: "hint"}


@dataclass(frozen=True, slots=True)
class Span:
    """A range in a document: zero-based lines, columns in code points (end exclusive)."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int

    def __reduce__(self) -> tuple[type[Span], tuple[int, int, int, int]]:
        # (pickled by its fields: `check`'s workers send their findings; the default state dict of a
        # slotted class costs twice as much to write and to read)
        return Span, (self.start_line, self.start_col, self.end_line, self.end_col)

    def contains(self, line: int, col: int) -> bool:
        if line < self.start_line or line > self.end_line:
            return False
        if line == self.start_line and col < self.start_col:
            return False
        if line == self.end_line and col > self.end_col:
            return False
        return True


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace `span` of the document at `path` with `new_text`."""

    path: str
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A repair for one finding. `edits` are text edits on documents (code point spans of the text
    after the BOM, new text with `\n` line breaks: the writer uses the file's own line endings).

    Some repairs are not text edits and are applied only by `skill-ls check --fix`: `remove_bom`
    (save without the byte-order mark), `to_lf` (convert CRLF line endings to LF) and `rename_dir`
    (rename a skill directory: (old path, new path)).

    `safe` follows ruff's model: a fix is safe when it cannot change what the author meant;
    `check --fix` applies only safe fixes, `--unsafe-fixes` applies both. Undeclared means unsafe."""

    title: str
    edits: tuple[TextEdit, ...]
    safe: bool = False
    remove_bom: bool = False
    to_lf: bool = False
    rename_dir: tuple[str, str] | None = None

    @property
    def text_only(self) -> bool:
        """True when an editor can apply this fix as plain text edits."""
        return bool(self.edits) and not (self.remove_bom or self.to_lf or self.rename_dir)


@dataclass(frozen=True, slots=True)
class Related:
    """Another place a finding points at (a shadowing copy, the first of two duplicate keys)."""

    path: str
    span: Span
    message: str


@dataclass(slots=True)
class Diagnostic:
    """One finding: where, which rule, what, how severe, for which runtime, and its fix if any."""

    path: str
    span: Span
    code: str
    message: str
    severity: Severity
    runtime: str | None = None
    related: tuple[Related, ...] = ()
    fix: Fix | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple[type[Diagnostic], tuple[Any, ...]]:
        # (pickled by its fields, in order: see Span.__reduce__)
        return Diagnostic, tuple(getattr(self, name) for name in self.__slots__)

    def identity(self) -> tuple[object, ...]:
        """What makes two findings 'the same' apart from the runtime that raised them."""
        s = self.span  # flat: hashing the dataclasses and the enum runs Python code per finding
        return (self.path, s.start_line, s.start_col, s.end_line, s.end_col, self.code, self.message,
                int(self.severity),
                tuple((r.path, r.span.start_line, r.span.start_col, r.span.end_line, r.span.end_col, r.message)
                      for r in self.related) if self.related else ())
