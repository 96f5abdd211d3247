"""Positions of values inside frontmatter fields: list items, tokens of a space/comma-separated
string, children of a mapping. Shared by the value checks (Claude Code skills, subagents, MCP).

Frontmatter keeps YAML nodes only for collections; a scalar's tokens are placed by offset inside its
value span when the scalar sits on one line (plain or quoted), else on the whole value.
"""
from __future__ import annotations

from typing import Iterator

from skill_ls.core.index import Document
from skill_ls.core.model import Span
from skill_ls.core.parse.frontmatter import FieldEntry
# The YAML node queries live in the core; the value checks import them from here under these names.
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.spans import mapping_child as map_child
from skill_ls.core.spans import sequence_items as seq_items
from skill_ls.core.spans import yaml_span as node_span

__all__ = ["list_or_tokens", "map_child", "node_span", "scalar_base", "seq_items", "split_tokens"]

_TOKEN = lazy_pattern(r"[^\s,()]+(?:\((?:[^()]|\([^()]*\))*\))?|\((?:[^()]|\([^()]*\))*\)")


def scalar_base(doc: Document, value: str, span: Span) -> int | None:
    """Column where `value`'s first character sits, when the scalar is on one line; else None."""
    if span.start_line != span.end_line:
        return None
    raw = doc.src.line_text(span.start_line)[span.start_col:span.end_col]
    if raw == value:
        return span.start_col
    if len(raw) >= 2 and raw[0] in "\"'" and raw[-1] == raw[0] and raw[1:-1] == value:
        return span.start_col + 1
    return None


def split_tokens(text: str) -> list[tuple[str, int]]:
    """Tool-list tokens: split on spaces and commas outside parentheses (`Bash(git diff *)` is one)."""
    return [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]


def list_or_tokens(doc: Document, entry: FieldEntry) -> Iterator[tuple[str, Span]]:
    """Each item of a string-or-list field with its span: list items, or tokens of a string."""
    value = entry.value
    if isinstance(value, str):
        base = scalar_base(doc, value, entry.value_span)
        for tok, at in split_tokens(value):
            if base is None:
                yield tok, entry.value_span
            else:
                line = entry.value_span.start_line
                yield tok, Span(line, base + at, line, base + at + len(tok))
    elif isinstance(value, list):
        nodes = seq_items(entry.node)
        for i, item in enumerate(value):
            if not isinstance(item, str):
                continue
            span = node_span(doc, nodes[i] if i < len(nodes) else None, entry.value_span)
            if "," in item or " " in item.strip() and "(" not in item:
                base = scalar_base(doc, item, span)
                for tok, at in split_tokens(item):
                    yield tok, (span if base is None else Span(span.start_line, base + at, span.start_line,
                                                              base + at + len(tok)))
            else:
                yield item.strip(), span
