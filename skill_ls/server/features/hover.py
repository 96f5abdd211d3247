"""Hover (`analysis.queries.hover`): a skill name's copies per runtime, or a frontmatter key's
documentation, as Markdown."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.hover import hover as hover_at
from skill_ls.server.lookup import Cursor, cursor_at, feature_about


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_HOVER, cursor_at)
    def hover(ls, params: types.HoverParams, cur: Cursor):
        found = hover_at(cur.state, cur.path, cur.line, cur.col)
        return None if found is None else ls.converter.hover(cur.doc.src, found)
