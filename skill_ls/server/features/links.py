"""Document links (`analysis.queries.links.document_links`): relative file references in a skill's body
that resolve to existing files, the paths a Claude Code plugin.json or marketplace.json names, and the
scripts hooks run where their path is certain."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.links import document_links
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import Document
from skill_ls.server.convert import uri_of
from skill_ls.server.lookup import document_at, feature_about


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_DOCUMENT_LINK, document_at)
    def document_link(ls, params: types.DocumentLinkParams, state: WorkspaceState, path: str, doc: Document):
        caps = ls.client_capabilities.text_document
        tooltips = bool(caps and caps.document_link and caps.document_link.tooltip_support)
        return [types.DocumentLink(ls.converter.range(doc.src, link.span), target=uri_of(link.target),
                                   tooltip=link.target if tooltips else None)
                for link in document_links(state, path, doc)]
