"""Code lens over the frontmatter."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import uri


async def _lens(s, path):
    return await s.request(s.client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(uri(path)))))


async def test_code_lens_winner_and_shadowed(start, tree, profile):
    tree.standard()
    s = await start(profile)
    lenses = await _lens(s, tree.ws_demo)
    assert [l.command.title for l in lenses] == ["winner · workspace — shadows 2"]
    assert lenses[0].range.start.line == 0
    lenses = await _lens(s, tree.user_demo)
    assert lenses[0].command.title == "shadowed · user — by workspace"
