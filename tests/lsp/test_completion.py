"""Completion over LSP: items computed on the editor's buffer reach the client with their kinds.
Which items are offered where is tested in process: tests/test_queries_completion.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri


async def _complete(s, path, line, character):
    result = await s.request(s.client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(path)), types.Position(line=line, character=character))))
    return result.items if hasattr(result, "items") else result or []


@SHARED
async def test_keys_and_names_on_the_buffer(shared):
    s, tree = shared, shared.tree
    s.open(tree.ws_demo, text="---\nname: demo\ndescription: x\nver\n---\n", version=2)
    items = await _complete(s, tree.ws_demo, 3, 3)
    version = next(i for i in items if i.label == "version")
    assert version.kind == types.CompletionItemKind.Property
    # the item replaces the word typed (issue 22: `disable-m` + an item without a range doubled the prefix)
    assert version.text_edit.new_text == "version: " and version.insert_text is None
    assert (version.text_edit.range.start.line, version.text_edit.range.start.character,
            version.text_edit.range.end.character) == (3, 0, 3)
    assert "name" not in [i.label for i in items]  # already in the buffer
    s.open(tree.agent, text="---\nname: reviewer\nprovider: openai\nskills:\n  disabled:\n    - \n---\nYou review.\n",
           version=2)
    names = {i.label: i.kind for i in await _complete(s, tree.agent, 5, 6)}
    assert names.get("demo") == types.CompletionItemKind.Module and "other" in names
