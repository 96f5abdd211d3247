"""Code actions over LSP: the quick fixes the rules carry, as workspace edits. Which fixes are offered
(and preferred) is tested in process: tests/test_queries_actions.py."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import SHARED, uri


@SHARED
async def test_quick_fix_from_rule_fix_data(shared):
    s, path = shared, shared.tree.typo
    s.open(path)
    items = await s.diagnostics(path, lambda ds: any(d.code == "SK007" for d in ds))
    sk7 = next(d for d in items if d.code == "SK007")
    actions = await s.request(s.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(path)), sk7.range, types.CodeActionContext(diagnostics=[sk7]))))
    assert actions, "SK007 near a known key carries a did-you-mean fix"
    edit = actions[0].edit.changes[uri(path)][0]
    assert edit.new_text == "license" and edit.range == sk7.range
    assert actions[0].kind == types.CodeActionKind.QuickFix and actions[0].diagnostics[0].code == "SK007"
