"""Where in a document to put things: spans of the frontmatter's parts and of YAML nodes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skill_ls.core.model import Span

if TYPE_CHECKING:  # the parser uses node_span; documents come later in the import order
    from skill_ls.core.index import Document


def header_span(doc: Document) -> Span:
    """Where to put a diagnostic about the frontmatter as a whole: its opening line."""
    text = doc.src.line_text(0)
    return Span(0, 0, 0, len(text))


def name_span(doc: Document) -> Span:
    """The value of `name`, else the header."""
    fm = doc.fm
    if fm is not None and "name" in fm.fields:
        return fm.fields["name"].value_span
    return header_span(doc)


def key_span(doc: Document, key: str) -> Span:
    """A top-level frontmatter key, else the header."""
    fm = doc.fm
    if fm is not None and key in fm.fields:
        return fm.fields[key].key_span
    return header_span(doc)


def value_span(doc: Document, key: str) -> Span:
    """A top-level frontmatter value, else the header."""
    fm = doc.fm
    if fm is not None and key in fm.fields:
        return fm.fields[key].value_span
    return header_span(doc)


def closing_insert_span(doc: Document) -> Span | None:
    """An empty span at the start of the frontmatter's closing line (to insert a key before it)."""
    fm = doc.fm
    if fm is None or fm.close_line is None:
        return None
    return Span(fm.close_line, 0, fm.close_line, 0)


def node_span(node: Any, line_offset: int) -> Span:
    """The span of a composed YAML node whose marks count lines from `line_offset`."""
    s, e = node.start_mark, node.end_mark
    return Span(s.line + line_offset, s.column, e.line + line_offset, e.column)
