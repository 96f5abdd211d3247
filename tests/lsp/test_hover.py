"""Hover over LSP: the query's Markdown and span reach the client, in its position encoding. What the
hover says is tested in process: tests/test_queries_hover.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri


def _pos(path, needle: str, offset: int = 1) -> types.Position:
    for i, line in enumerate(path.read_text().splitlines()):
        if needle in line:
            return types.Position(i, line.index(needle) + offset)
    raise AssertionError(needle)


async def _hover(s, path, pos):
    return await s.request(s.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(path)), pos)))


@SHARED
async def test_hover_on_a_name_and_a_key_and_elsewhere(shared):
    tree = shared.tree
    h = await _hover(shared, tree.user_demo, _pos(tree.user_demo, "name: demo", 7))
    assert h.contents.kind == types.MarkupKind.Markdown and "winner: `workspace`" in h.contents.value
    assert h.range == types.Range(types.Position(1, 6), types.Position(1, 10))
    h = await _hover(shared, tree.agent, _pos(tree.agent, "provider:", 2))
    assert "provider" in h.contents.value.lower() and h.range.start == types.Position(2, 0)
    assert await _hover(shared, tree.ws_demo, types.Position(line=5, character=0)) is None
