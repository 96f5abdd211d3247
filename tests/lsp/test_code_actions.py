"""Code actions: the fixes the rules carry."""
from __future__ import annotations

from lsprotocol import types

from tests.conftest import skill
from tests.lsp.conftest import uri


async def test_quick_fix_from_rule_fix_data(start, tree, profile):
    tree.standard()
    path = skill(tree.ws / ".agh" / "skills", "typo", extra="licence: MIT\n")
    s = await start(profile)
    s.open(path)
    items = await s.diagnostics(path, lambda ds: any(d.code == "SK007" for d in ds))
    sk7 = next(d for d in items if d.code == "SK007")
    actions = await s.request(s.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(path)), sk7.range, types.CodeActionContext(diagnostics=[sk7]))))
    assert actions, "SK007 near a known key carries a did-you-mean fix"
    edit = actions[0].edit.changes[uri(path)][0]
    assert edit.new_text == "license"
    assert actions[0].kind == types.CodeActionKind.QuickFix
