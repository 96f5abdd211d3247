"""Document symbols (frontmatter keys and Markdown headings) and workspace symbols (every skill
and agent the index knows)."""
from __future__ import annotations

import os
import re

from lsprotocol import types

from skill_ls.core.index import Document
from skill_ls.core.model import Span
from skill_ls.core.body import fence_step
from skill_ls.core.spans import name_span
from skill_ls.server.convert import uri_of
from skill_ls.server.lookup import feature_about, markdown_document

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def _headings(doc) -> list[tuple[int, str, int]]:
    out: list[tuple[int, str, int]] = []
    fence: str | None = None
    start = doc.fm.body_start_line if doc.fm is not None and doc.fm.ok else 0
    for ln in range(start, doc.src.line_count):
        line = doc.src.line_text(ln)
        is_fence, fence = fence_step(line, fence)
        if is_fence:
            continue
        if fence is None:
            h = _HEADING.match(line)
            if h:
                out.append((len(h.group(1)), h.group(2), ln))
    return out


def document_symbols(ls, path: str, doc) -> list[types.DocumentSymbol]:
    conv = ls.converter
    src = doc.src
    end_line, end_col = src.end_pos()
    whole = conv.range(src, Span(0, 0, end_line, end_col))
    children: list[types.DocumentSymbol] = []
    fm = doc.fm
    if fm is not None and fm.ok:
        for entry in fm.fields.values():
            full = Span(entry.key_span.start_line, entry.key_span.start_col, entry.value_span.end_line,
                        entry.value_span.end_col)
            if (full.end_line, full.end_col) < (entry.key_span.end_line, entry.key_span.end_col):
                full = entry.key_span
            detail = entry.value if isinstance(entry.value, (str, int, float, bool)) else None
            children.append(types.DocumentSymbol(
                name=entry.key, kind=types.SymbolKind.Property, range=conv.range(src, full),
                selection_range=conv.range(src, entry.key_span),
                detail=str(detail)[:80] if detail is not None else None))
    stack: list[tuple[int, list[types.DocumentSymbol]]] = []  # (heading level, its children)
    for level, title, ln in _headings(doc):
        span = Span(ln, 0, ln, len(src.line_text(ln)))
        sub: list[types.DocumentSymbol] = []
        sym = types.DocumentSymbol(name=title, kind=types.SymbolKind.String, range=conv.range(src, span),
                                   selection_range=conv.range(src, span), children=sub)
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1] if stack else children).append(sym)
        stack.append((level, sub))
    name = None
    if fm is not None and fm.ok and isinstance(fm.value("name"), str):
        name = fm.value("name")
    is_agent = ls.state_for(path).is_agent_file(path)
    label = name or (doc.dir_name if os.path.basename(path) in ("SKILL.md", "AGENT.md") else os.path.basename(path))
    root = types.DocumentSymbol(
        name=label or os.path.basename(path), kind=types.SymbolKind.Class if is_agent else types.SymbolKind.Module,
        detail="agent" if is_agent else "skill", range=whole,
        selection_range=conv.range(src, name_span(doc)), children=children)
    return [root]


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, markdown_document)
    def document_symbol(ls, params: types.DocumentSymbolParams, path: str, doc: Document):
        return document_symbols(ls, path, doc)

    @server.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(ls, params: types.WorkspaceSymbolParams):
        if not await ls.wait_ready():
            return None
        query = (params.query or "").lower()
        out: list[types.WorkspaceSymbol] = []
        seen: set[tuple[str, str]] = set()
        seen_agents: set[str] = set()
        for state in ls.states.values():  # every workspace folder
            index = state.index
            if index is None:
                continue
            for rid, decls in index.decls.items():
                for d in decls:
                    if not d.path or (d.path, d.name) in seen or (query and query not in d.name.lower()):
                        continue
                    seen.add((d.path, d.name))
                    doc = d.doc or index.store.peek(d.path)
                    out.append(types.WorkspaceSymbol(
                        name=d.name, kind=types.SymbolKind.Module, container_name=f"{rid} · {d.tier_label}",
                        location=types.Location(uri_of(d.path), ls.converter.range(doc.src, name_span(doc)))))
            for a in index.agents:
                if (query and query not in a.name.lower()) or a.path in seen_agents:
                    continue
                seen_agents.add(a.path)
                out.append(types.WorkspaceSymbol(
                    name=a.name, kind=types.SymbolKind.Class, container_name=f"{a.family} agent · {a.tier}",
                    location=types.Location(uri_of(a.path), ls.converter.range(a.doc.src, name_span(a.doc)))))
        return out[:5000]
