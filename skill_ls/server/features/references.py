"""References: every agent and skill that names the skill under the cursor (and, when asked, its
declarations)."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.navigation import SkillRef, references_to
from skill_ls.server.convert import uri_of
from skill_ls.server.features.definition import declarations
from skill_ls.server.lookup import Cursor, feature_about, name_at


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_REFERENCES, name_at)
    def references(ls, params: types.ReferenceParams, cur: Cursor, ref: SkillRef):
        out: list[types.Location] = []
        if params.context is not None and params.context.include_declaration:
            out.extend(declarations(ls, ref.name, cur.path))
        index = ls.state_for(cur.path).index
        store = index.store
        for path, span in references_to(index, ref.name):
            out.append(types.Location(uri_of(path), ls.converter.range(store.peek(path).src, span)))
        return out
