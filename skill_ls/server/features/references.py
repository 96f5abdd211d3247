"""References (`analysis.queries.goto.references`): every agent and skill that names the skill
under the cursor (and, when asked, its declarations)."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.navigation import SkillRef
from skill_ls.analysis.queries.goto import references as references_of
from skill_ls.server.lookup import Cursor, feature_about, name_at


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_REFERENCES, name_at)
    def references(ls, params: types.ReferenceParams, cur: Cursor, ref: SkillRef):
        include = params.context is not None and bool(params.context.include_declaration)
        return [ls.converter.location(loc) for loc in references_of(cur.state, ref.name, cur.path, include)]
