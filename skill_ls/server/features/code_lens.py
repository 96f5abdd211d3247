"""Code lens (`analysis.queries.lens`): "winner · workspace — shadows 2" per runtime that reads a
skill, running `skillLs.where` for its copies."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.lens import code_lenses
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import Document
from skill_ls.server.lookup import document_at, feature_about


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_CODE_LENS, document_at)
    def code_lens(ls, params: types.CodeLensParams, state: WorkspaceState, path: str, doc: Document):
        lenses = code_lenses(state, path)
        return None if lenses is None else [ls.converter.code_lens(doc.src, lens) for lens in lenses]
