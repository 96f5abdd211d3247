"""Document and workspace symbols over LSP. The symbols are tested in process:
tests/test_queries_symbols.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri


@SHARED
async def test_document_and_workspace_symbols(shared):
    s, tree = shared, shared.tree
    syms = await s.request(s.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri(tree.ws_demo)))))
    root = syms[0]
    assert root.name == "demo" and root.kind == types.SymbolKind.Module
    kinds = {c.name: c.kind for c in root.children}
    assert kinds["name"] == types.SymbolKind.Property and kinds["Demo"] == types.SymbolKind.String
    only = await s.request(s.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="revi")))
    assert [(x.name, x.kind, x.location.uri) for x in only] == [("reviewer", types.SymbolKind.Class, uri(tree.agent))]
