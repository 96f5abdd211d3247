"""Definition over LSP: the query's locations reach the client as LSP locations. Which copies and in
what order is tested in process: tests/test_queries_goto.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri
from tests.lsp.test_hover import _pos


async def _definition(s, path, pos):
    return await s.request(s.client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri(path)), pos)))


@SHARED
async def test_definition_returns_all_copies_winner_first(shared):
    tree = shared.tree
    locs = await _definition(shared, tree.bundled_demo, _pos(tree.bundled_demo, "name: demo", 7))
    assert [loc.uri for loc in locs] == [uri(tree.ws_demo), uri(tree.user_demo), uri(tree.bundled_demo)]
    assert locs[0].range.start.line == 1 and locs[0].range.start.character == len("name: ")
    assert not await _definition(shared, tree.ws_demo, types.Position(line=0, character=0))
