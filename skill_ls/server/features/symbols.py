"""Document symbols and workspace symbols (`analysis.queries.symbols`)."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.symbols import document_symbols, workspace_symbols
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import Document
from skill_ls.server.lookup import feature_about, markdown_document


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, markdown_document)
    def document_symbol(ls, params: types.DocumentSymbolParams, state: WorkspaceState, path: str, doc: Document):
        return [ls.converter.document_symbol(doc.src, s) for s in document_symbols(state, path, doc)]

    @server.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(ls, params: types.WorkspaceSymbolParams):
        if not await ls.wait_ready():
            return None
        return [ls.converter.workspace_symbol(s) for s in workspace_symbols(ls.states.values(), params.query or "")]
