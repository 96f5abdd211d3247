"""References over LSP. Which places name a skill is tested in process: tests/test_queries_goto.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri
from tests.lsp.test_hover import _pos


@SHARED
async def test_references_list_agents_and_skills(shared):
    s, tree = shared, shared.tree
    refs = await s.request(s.client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri(tree.ws_demo)), position=_pos(tree.ws_demo, "name: demo", 7),
        context=types.ReferenceContext(include_declaration=False))))
    assert [r.uri for r in refs] == [uri(tree.other)]
    refs = await s.request(s.client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri(tree.other)), position=_pos(tree.other, "name: other", 7),
        context=types.ReferenceContext(include_declaration=True))))
    assert uri(tree.agent) in [r.uri for r in refs] and refs[0].uri == uri(tree.other)
