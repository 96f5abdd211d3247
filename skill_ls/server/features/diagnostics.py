"""Diagnostics: buffers in, findings out. Pull (`textDocument/diagnostic`, `workspace/diagnostic`,
re-pulled after every change through `workspace/diagnostic/refresh`) for clients that pull and can
be refreshed; push (open/change/save debounced and version-tagged; every file of every folder at
index time and after changes, in batches) for every other client (`choose_pull`).
"""
from __future__ import annotations

import os

from lsprotocol import types

from skill_ls.server.convert import uri_of
from skill_ls.server.documents import without_escapes


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams):
        path = ls.path(params.text_document.uri)
        if path is None or ls.state is None:
            return
        ls.open_docs[path] = params.text_document.uri
        ls.note_opened(path, params.text_document.text)
        ls.buffer_changed(path, params.text_document.text, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: types.DidChangeTextDocumentParams):
        path = ls.path(params.text_document.uri)
        if path is None or ls.state is None:
            return
        try:
            doc = ls.workspace.get_text_document(params.text_document.uri)
            text = without_escapes(doc.source)
        except Exception:
            return
        ls.open_docs.setdefault(path, params.text_document.uri)
        ls.buffer_changed(path, text, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: types.DidSaveTextDocumentParams):
        path = ls.path(params.text_document.uri)
        if path is None or ls.state is None:
            return
        if os.path.basename(path) in (".skill-ls.toml", "pyproject.toml"):
            ls.disk_changed(path)
        if path in ls.open_docs:
            ls.note_saved(path)
        ls.schedule_document(path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams):
        path = ls.path(params.text_document.uri)
        if path is None or ls.state is None:
            return
        ls.open_docs.pop(path, None)
        ls.disk_texts.pop(path, None)
        ls.buffer_closed(path)

    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                    types.DiagnosticOptions(identifier="skill-ls", inter_file_dependencies=True,
                                            workspace_diagnostics=True))
    async def document_diagnostic(ls, params: types.DocumentDiagnosticParams):
        path = ls.path(params.text_document.uri)
        items: list[types.Diagnostic] = []
        # A document that is neither open (nor released: see _release_vanished_buffers) nor on disk has
        # nothing to check: no findings, as in `skill-ls check` (not "cannot read file"). Nor has a
        # closed one outside every folder's checked files (a user copy opened from Show Skill Shadows):
        # a client pulls a document once more after closing it and then leaves it to the workspace
        # reports, which never name it, so findings answered here would stay on screen for ever.
        if path is not None and await ls.wait_ready(path) and (
                path in ls.open_docs or (os.path.exists(path) and path in ls.workspace_files())):
            items = ls.lsp_diagnostics(ls.diagnostics_of([path]).get(path, []))
            ls.document_pulled.add(path)
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=ls.next_result_id())

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls, params: types.WorkspaceDiagnosticParams):
        reports: list[types.WorkspaceDocumentDiagnosticReport] = []
        if await ls.wait_ready():
            results = ls.diagnostics_of(sorted(ls.workspace_files()))
            for path, diags in results.items():
                overlay = ls.state_for(path).overlays.get(path)
                reports.append(types.WorkspaceFullDocumentDiagnosticReport(
                    uri=ls.open_docs.get(path) or uri_of(path), items=ls.lsp_diagnostics(diags),
                    version=overlay[1] if overlay else None, result_id=ls.next_result_id()))
            # A client keeps what it pulled for a document until a report replaces it: a file that
            # left the workspace (its folder removed, the file deleted or excluded) gets one empty
            # report, or its old findings would stay in the Problems panel. Open documents are
            # answered by document pulls, which win over these reports (LSP 3.17) — except a document
            # outside the workspace (a user copy opened from Show Skill Shadows): when its tab closes,
            # VS Code forgets what it pulled for it and leaves it to these reports, while the document
            # stays open (didClose comes when VS Code drops the text, if ever). It gets an empty
            # report each time until it is closed, as `skill-ls check` reports nothing for it.
            gone = ls.pull_reported - results.keys()
            outside = ls.document_pulled - results.keys()
            for path in sorted(gone | outside):
                if path in outside or path not in ls.open_docs:
                    reports.append(types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri_of(path), items=[], version=None, result_id=ls.next_result_id()))
            ls.pull_reported = set(results)
            ls.document_pulled &= ls.open_docs.keys()
            ls.release_texts_soon()
        return types.WorkspaceDiagnosticReport(items=reports)
