"""Definitions and references of a skill name.

Definitions: every declaration of the name, winner first, then the other copies in precedence
order (loadable, blocked, undiscovered), across active runtimes, then the agent-local copies of
every agent. References: every agent and skill that names it (and, when asked, its declarations).
"""
from __future__ import annotations


from skill_ls.analysis.navigation import references_to
from skill_ls.analysis.queries.scope import index_of, resolutions
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import SkillDecl
from skill_ls.core.model import Span
from skill_ls.core.parse.text import SourceText
from skill_ls.core.records import dataclass
from skill_ls.core.spans import name_span


@dataclass(frozen=True)
class Location:
    """A range in a file, with the file's text (to convert its columns)."""
    path: str
    span: Span
    src: SourceText


def definitions(state: WorkspaceState, name: str, path: str) -> list[Location]:
    """Every declaration: the copies the file's own context resolves, then the agent-local copies of
    every agent (they override the name only for their agent, so no resolution from outside that
    agent lists them)."""
    index = index_of(state)
    out: list[Location] = []
    seen: set[str] = set()

    def add(d: SkillDecl) -> None:
        if not d.path or d.path in seen:
            return
        seen.add(d.path)
        doc = d.doc or index.store.peek(d.path)
        out.append(Location(d.path, name_span(doc), doc.src))

    found = resolutions(state, name, path)
    for res in found:
        for d in res.entries:
            add(d)
    for res in found:
        local = [d for d in index.by_name.get(res.runtime, {}).get(name, ()) if d.agent]
        for d in sorted(local, key=lambda d: (d.agent or "", d.precedence())):
            add(d)
    return out


def references(state: WorkspaceState, name: str, path: str, include_declaration: bool) -> list[Location]:
    """Every place an agent or a skill names `name`, after its declarations when asked for."""
    out = definitions(state, name, path) if include_declaration else []
    index = index_of(state)
    out.extend(Location(p, span, index.store.peek(p).src) for p, span in references_to(index, name))
    return out
