"""Document symbols and workspace symbols."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import uri


async def test_document_symbols(start, tree, profile):
    tree.standard()
    s = await start(profile)
    syms = await s.request(s.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri(tree.ws_demo)))))
    root = syms[0]
    assert root.name == "demo"
    names = [c.name for c in root.children]
    assert "name" in names and "description" in names and "Demo" in names


async def test_workspace_symbols(start, tree, profile):
    tree.standard()
    s = await start(profile)
    syms = await s.request(s.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")))
    assert {"demo", "other", "reviewer"} <= {x.name for x in syms}
    demo = [x for x in syms if x.name == "demo"]
    assert len(demo) == 3  # one per copy
    only = await s.request(s.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="revi")))
    assert [x.name for x in only] == ["reviewer"]
