"""Definition (`analysis.queries.goto.definitions`): every declaration of the name under the
cursor, winner first, across active runtimes; on a path in a Claude Code plugin.json or
marketplace.json, or on a hook command whose script is certain (`analysis.queries.links.link_under`),
the file or directory it names."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.goto import definitions
from skill_ls.analysis.queries.links import link_under
from skill_ls.analysis.queries.scope import ref_under
from skill_ls.server.convert import uri_of
from skill_ls.server.lookup import Cursor, cursor_at, feature_about


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_DEFINITION, cursor_at)
    def definition(ls, params: types.DefinitionParams, cur: Cursor):
        # A path in plugin.json / marketplace.json, or a hook's script: the file it names.
        link = link_under(cur.state, cur.path, cur.doc, cur.line, cur.col)
        if link is not None:
            return [types.Location(uri_of(link.target), types.Range(types.Position(0, 0), types.Position(0, 0)))]
        if not cur.path.endswith(".md"):
            return None
        ref = ref_under(cur.state, cur.path, cur.line, cur.col)
        if ref is None:
            return None
        return [ls.converter.location(loc) for loc in definitions(cur.state, ref.name, cur.path)] or None
