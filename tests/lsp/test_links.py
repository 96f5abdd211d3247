"""Document links for file references."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import uri


async def test_document_links_resolve_existing_files(start, tree, profile):
    tree.standard()
    s = await start(profile)
    links = await s.request(s.client.text_document_document_link_async(
        types.DocumentLinkParams(types.TextDocumentIdentifier(uri(tree.ws_demo)))))
    assert [l.target for l in links] == [uri(tree.ws_demo.parent / "references" / "guide.md")]
