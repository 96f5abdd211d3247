"""Document symbols (frontmatter keys and Markdown headings under the skill or agent) and workspace
symbols (every skill and agent the indexes know)."""
from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Literal

from skill_ls.analysis.queries.goto import Location
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.body import fence_step
from skill_ls.core.index import Document
from skill_ls.core.model import Span
from skill_ls.core.records import dataclass, field
from skill_ls.core.spans import name_span

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
SymbolKind = Literal["skill", "agent", "field", "heading"]
WORKSPACE_SYMBOL_LIMIT = 5000


@dataclass
class Symbol:
    name: str
    kind: SymbolKind
    span: Span
    selection: Span
    detail: str | None = None
    children: list["Symbol"] = field(default_factory=list)


@dataclass(frozen=True)
class WorkspaceSymbol:
    name: str
    kind: SymbolKind  # skill or agent
    container: str  # "runtime · tier" or "family agent · tier"
    location: Location


def _headings(doc: Document) -> list[tuple[int, str, int]]:
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


def document_symbols(state: WorkspaceState, path: str, doc: Document) -> list[Symbol]:
    """One root (the skill or agent, over the whole file) holding the frontmatter keys, then the
    headings nested by level."""
    src = doc.src
    end_line, end_col = src.end_pos()
    children: list[Symbol] = []
    fm = doc.fm
    if fm is not None and fm.ok:
        for entry in fm.fields.values():
            full = Span(entry.key_span.start_line, entry.key_span.start_col, entry.value_span.end_line,
                        entry.value_span.end_col)
            if (full.end_line, full.end_col) < (entry.key_span.end_line, entry.key_span.end_col):
                full = entry.key_span
            detail = entry.value if isinstance(entry.value, (str, int, float, bool)) else None
            children.append(Symbol(entry.key, "field", full, entry.key_span,
                                   str(detail)[:80] if detail is not None else None))
    stack: list[tuple[int, list[Symbol]]] = []  # (heading level, its children)
    for level, title, ln in _headings(doc):
        span = Span(ln, 0, ln, len(src.line_text(ln)))
        sym = Symbol(title, "heading", span, span)
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1] if stack else children).append(sym)
        stack.append((level, sym.children))
    name = None
    if fm is not None and fm.ok and isinstance(fm.value("name"), str):
        name = fm.value("name")
    agent = state.is_agent_file(path)
    label = name or (doc.dir_name if os.path.basename(path) in ("SKILL.md", "AGENT.md") else os.path.basename(path))
    return [Symbol(label or os.path.basename(path), "agent" if agent else "skill", Span(0, 0, end_line, end_col),
                   name_span(doc), "agent" if agent else "skill", children)]


def workspace_symbols(states: Iterable[WorkspaceState], query: str) -> list[WorkspaceSymbol]:
    """Skills and agents whose name contains `query` (case-insensitive), each file once, across
    every folder (at most WORKSPACE_SYMBOL_LIMIT)."""
    query = query.lower()
    out: list[WorkspaceSymbol] = []
    seen: set[tuple[str, str]] = set()
    seen_agents: set[str] = set()
    for state in states:
        index = state.index
        if index is None:
            continue
        for rid, decls in index.decls.items():
            for d in decls:
                if not d.path or (d.path, d.name) in seen or (query and query not in d.name.lower()):
                    continue
                seen.add((d.path, d.name))
                doc = d.doc or index.store.peek(d.path)
                out.append(WorkspaceSymbol(d.name, "skill", f"{rid} · {d.tier_label}",
                                           Location(d.path, name_span(doc), doc.src)))
        for a in index.agents:
            if (query and query not in a.name.lower()) or a.path in seen_agents:
                continue
            seen_agents.add(a.path)
            out.append(WorkspaceSymbol(a.name, "agent", f"{a.family} agent · {a.tier}",
                                       Location(a.path, name_span(a.doc), a.doc.src)))
    return out[:WORKSPACE_SYMBOL_LIMIT]
