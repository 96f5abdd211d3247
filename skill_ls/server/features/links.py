"""Document links: relative file references in a skill's body that resolve to existing files."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.navigation import file_links
from skill_ls.server.convert import uri_of
from skill_ls.server.lookup import markdown_document


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    async def document_link(ls, params: types.DocumentLinkParams):
        found = await markdown_document(ls, params.text_document.uri)
        if found is None:
            return None
        path, doc = found
        caps = ls.client_capabilities.text_document
        tooltips = bool(caps and caps.document_link and caps.document_link.tooltip_support)
        return [types.DocumentLink(ls.converter.range(doc.src, link.span), target=uri_of(link.target),
                                   tooltip=link.target if tooltips else None) for link in file_links(doc, ls.state_for(path).index)]
