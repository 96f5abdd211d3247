"""Definition: every declaration of the name under the cursor, winner first, then the other copies
in precedence order (order: loadable, blocked, undiscovered), across active runtimes."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.core.spans import name_span
from skill_ls.server.convert import uri_of
from skill_ls.analysis.navigation import SkillRef
from skill_ls.server.lookup import Cursor, feature_about, name_at, resolutions


def declarations(ls, name: str, path: str) -> list[types.Location]:
    """Every declaration: the copies the file's own context resolves, then the
    agent-local copies of every agent (they override the name only for their agent, so no
    resolution from outside that agent lists them)."""
    index = ls.state_for(path).index
    out: list[types.Location] = []
    seen: set[str] = set()

    def add(d) -> None:
        if not d.path or d.path in seen:
            return
        seen.add(d.path)
        doc = d.doc or index.store.peek(d.path)
        out.append(types.Location(uri_of(d.path), ls.converter.range(doc.src, name_span(doc))))

    found = resolutions(ls, name, path)
    for res in found:
        for d in res.entries:
            add(d)
    for res in found:
        local = [d for d in index.by_name.get(res.runtime, {}).get(name, ()) if d.agent]
        for d in sorted(local, key=lambda d: (d.agent, d.precedence())):
            add(d)
    return out


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_DEFINITION, name_at)
    def definition(ls, params: types.DefinitionParams, cur: Cursor, ref: SkillRef):
        return declarations(ls, ref.name, cur.path) or None
