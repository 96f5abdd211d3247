"""Definition (`analysis.queries.goto.definitions`): every declaration of the name under the
cursor, winner first, across active runtimes."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.navigation import SkillRef
from skill_ls.analysis.queries.goto import definitions
from skill_ls.server.lookup import Cursor, feature_about, name_at


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_DEFINITION, name_at)
    def definition(ls, params: types.DefinitionParams, cur: Cursor, ref: SkillRef):
        return [ls.converter.location(loc) for loc in definitions(cur.state, ref.name, cur.path)] or None
