"""Code lens over LSP: the query's labels as commands running `skillLs.where`. The labels are tested
in process: tests/test_queries_lens.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri


async def _lens(s, path):
    return await s.request(s.client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(uri(path)))))


@SHARED
async def test_code_lens_winner_and_shadowed(shared):
    tree = shared.tree
    lenses = await _lens(shared, tree.ws_demo)
    assert [l.command.title for l in lenses] == ["winner · workspace — shadows 2"]
    assert lenses[0].range.start.line == 0 and lenses[0].command.command == "skillLs.where"
    assert list(lenses[0].command.arguments) == [{"name": "demo", "runtime": "agh", "workspace": str(tree.ws)}]
    where = await shared.command("skillLs.where", lenses[0].command.arguments[0])
    assert [e["label"] for e in where["entries"]] == ["winner", "shadowed", "shadowed"]
    assert await _lens(shared, tree.agent) is None
