"""Plain values shared by the analysis core: positions, spans, diagnostics, fixes.

Positions are 0-based lines and 0-based *code point* columns of the text after a BOM. Output layers
convert to UTF-16 (LSP, JSON) or 1-based code points (text, GitHub) using the document's lines.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Severity(IntEnum):
    # Same numbering as LSP DiagnosticSeverity so the server converts by value.
    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        key = text.strip().lower()
        aliases = {"info": "information", "warn": "warning", "note": "information"}
        key = aliases.get(key, key)
        for sev in cls:
            if sev.label == key:
                return sev
        raise ValueError(f"unknown severity {text!r} (use error, warning, information or hint)")


@dataclass(frozen=True, slots=True)
class Span:
    start_line: int
    start_col: int
    end_line: int
    end_col: int

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
    path: str
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[TextEdit, ...]


@dataclass(frozen=True, slots=True)
class Related:
    path: str
    span: Span
    message: str


@dataclass(slots=True)
class Diagnostic:
    path: str
    span: Span
    code: str
    message: str
    severity: Severity
    runtime: str | None = None
    related: tuple[Related, ...] = ()
    fix: Fix | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def identity(self) -> tuple[object, ...]:
        """What makes two findings 'the same' apart from the runtime that raised them."""
        return (self.path, self.span, self.code, self.message, self.severity, self.related)
