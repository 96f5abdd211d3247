"""Where in a document to put things: spans of the frontmatter's parts and of YAML nodes, and the
small YAML node queries (mapping child, sequence items) that locate a value inside a field."""
from __future__ import annotations

from typing import Any, Mapping, Protocol

import yaml

from skill_ls.core.model import Span
from skill_ls.core.parse.text import SourceText


class _Field(Protocol):
    key_span: Span
    value_span: Span


class _Parsed(Protocol):
    @property
    def fields(self) -> Mapping[str, _Field]: ...

    @property
    def open_line(self) -> int | None: ...

    @property
    def close_line(self) -> int | None: ...


class Document(Protocol):
    """What these functions need of a document (`skill_ls.core.index.Document` is one): its text and
    its parsed frontmatter. The parser uses `node_span`; documents come later in the import order."""

    @property
    def src(self) -> SourceText: ...

    @property
    def fm(self) -> _Parsed | None: ...


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


def node_span(node: Any, line_offset: int = 0) -> Span:
    """The span of a composed YAML node whose marks count lines from `line_offset` (0: a YAML file
    of its own)."""
    s, e = node.start_mark, node.end_mark
    return Span(s.line + line_offset, s.column, e.line + line_offset, e.column)


def frontmatter_offset(doc: Document) -> int:
    """The file line of the frontmatter's first YAML line (node marks count from there)."""
    fm = doc.fm
    return (fm.open_line or 0) + 1 if fm is not None else 0


def yaml_span(doc: Document, node: Any, fallback: Span) -> Span:
    """Where a YAML node of `doc`'s frontmatter is written, or `fallback` (no node: TOML, a scalar)."""
    if node is None or not hasattr(node, "start_mark"):
        return fallback
    return node_span(node, frontmatter_offset(doc))


def mapping_child(node: Any, key: str) -> tuple[Any, Any]:
    """(key node, value node) of `key` in a YAML mapping node, or (None, None)."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k, v
    return None, None


def sequence_items(node: Any) -> list[Any]:
    """The item nodes of a YAML sequence node (empty for anything else)."""
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []
