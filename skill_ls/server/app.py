"""The language server object, assembled from its layers (each a class over the one below, each
owning its state): `folders.py` (workspace folders, documents, readiness) < `publishing.py`
(diagnostics pushed or re-pulled, per-document debounce) < `indexing.py` (index builds in a worker
thread, the catalog fingerprint, the watchers following the index) < `changes.py` (buffers and disk
changes, batched). Feature modules register the LSP handlers (`skill_ls.server.features.*`).
"""
from __future__ import annotations

import logging

from lsprotocol import types

from skill_ls import __version__
from skill_ls.server.changes import ChangesServer
from skill_ls.server.protocol import SkillProtocol, converter

log = logging.getLogger("skill_ls.server")


class SkillLanguageServer(ChangesServer):
    """One server per project, its workspace folders each a `WorkspaceState` (see `folders.py`)."""

    def __init__(self) -> None:
        super().__init__("skill-ls", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=SkillProtocol, converter_factory=converter)

    def report_server_error(self, error: Exception, source) -> None:
        # Malformed input is logged, not shown: a message box per bad packet helps nobody.
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)


def create_server() -> SkillLanguageServer:
    from skill_ls.server.features import register_all

    server = SkillLanguageServer()
    register_all(server)
    return server
