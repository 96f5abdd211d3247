"""Document links over LSP. Which references resolve is tested in process: tests/test_queries_symbols.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri


@SHARED
async def test_document_links_resolve_existing_files(shared):
    links = await shared.request(shared.client.text_document_document_link_async(
        types.DocumentLinkParams(types.TextDocumentIdentifier(uri(shared.tree.ws_demo)))))
    assert [l.target for l in links] == [uri(shared.tree.ws_demo.parent / "references" / "guide.md")]
