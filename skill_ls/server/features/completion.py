"""Completion (`analysis.queries.completion`): frontmatter keys and values, skill names in agents'
lists, ToolIDs."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.completion import completions
from skill_ls.server.lookup import Cursor, cursor_at, feature_about


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_COMPLETION, cursor_at,
                   types.CompletionOptions(trigger_characters=[":", " ", "-", "[", ","]))
    def completion(ls, params: types.CompletionParams, cur: Cursor):
        items = completions(cur.state, cur.path, cur.line, cur.col)
        return types.CompletionList(is_incomplete=False,
                                    items=[ls.converter.completion_item(i, cur.doc.src, cur.line) for i in items])
