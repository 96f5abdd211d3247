"""Code actions: the fixes the rules carry."""
from __future__ import annotations

from lsprotocol import types

from tests.conftest import skill, write
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


async def test_safe_fix_is_preferred_and_cli_only_repairs_are_not_offered(start, tree, profile):
    """A safe fix (quoting) is the preferred action, an unsafe one is not; a BOM removal is applied
    only by `skill-ls check --fix`, so the editor gets no empty action for it (issue 12)."""
    tree.standard()
    root = tree.ws / ".agh" / "skills"
    path = skill(root, "colon", description="Use when: asked")
    bom = skill(root, "bom")
    bom.write_bytes("\ufeff".encode() + bom.read_bytes())
    s = await start(profile)
    s.open(path)
    items = await s.diagnostics(path, lambda ds: any(d.code == "SK003" for d in ds))
    sk3 = next(d for d in items if d.code == "SK003")
    actions = await s.request(s.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(path)), sk3.range, types.CodeActionContext(diagnostics=[sk3]))))
    assert [a.title for a in actions] == ["Quote the value of 'description'"] and actions[0].is_preferred
    s.open(bom)
    items = await s.diagnostics(bom, lambda ds: any(d.code == "SK013" for d in ds))
    sk13 = next(d for d in items if d.code == "SK013")
    actions = await s.request(s.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(bom)), sk13.range, types.CodeActionContext(diagnostics=[sk13]))))
    assert not actions


async def _actions_for(s, path, code):
    items = await s.diagnostics(path, lambda ds: any(d.code == code for d in ds))
    found = next(d for d in items if d.code == code)
    return found, await s.request(s.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(path)), found.range, types.CodeActionContext(diagnostics=[found]))))


async def test_move_under_metadata_is_a_quick_fix(start, tree, profile):
    """Issue 22: `skill-ls check --fix --unsafe-fixes` moves catalogue keys no runtime knows under
    `metadata:`; the editor offers the same fix on the SK007 of such a key."""
    tree.standard()
    path = skill(tree.ws / ".agh" / "skills", "catalogued", extra="category: tools\n")
    s = await start(profile)
    s.open(path)
    _, actions = await _actions_for(s, path, "SK007")
    titles = [a.title for a in actions]
    assert "Move 'category' under 'metadata:'" in titles, titles


async def test_did_you_mean_findings_have_quick_fixes(start, tree, profile):
    """Issue 22: the "did you mean" findings had no quick fix. A subagent's model (SA001) and tool
    (SA003), a skill's tool (CC003, its pattern kept) and a typo'd key of .skill-ls.toml (CF001) each
    offer the replacement the message suggests."""
    tree.standard()
    cfg = write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\nexlude = ["x/**"]\n', dedent=False)
    sk = write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md",
               "---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\nallowed-tools: Read, bash(git *)\n---\n# PDF\n",
               dedent=False)
    agent = write(tree.ws / ".claude" / "agents" / "helper.md",
                  "---\nname: helper\ndescription: Helps.\nmodel: Sonnet\ntools: Read, grep\n---\nBody\n", dedent=False)
    s = await start(profile)
    expected = [(agent, "SA001", "Replace 'Sonnet' with 'sonnet'", "sonnet"),
                (agent, "SA003", "Replace 'grep' with 'Grep'", "Grep"),
                (sk, "CC003", "Replace 'bash(git *)' with 'Bash(git *)'", "Bash(git *)"),
                (cfg, "CF001", "Rename 'exlude' to 'exclude'", "exclude")]
    for path, code, title, new_text in expected:
        if path.suffix == ".md":
            s.open(path)
        found, actions = await _actions_for(s, path, code)
        assert [a.title for a in actions] == [title], (code, [a.title for a in actions])
        [edit] = actions[0].edit.changes[uri(path)]
        assert edit.new_text == new_text
        assert edit.range == found.range or code == "CF001", (code, edit.range, found.range)
        line = path.read_text().splitlines()[edit.range.start.line]
        written = line[edit.range.start.character:edit.range.end.character]
        assert written in ("Sonnet", "grep", "bash(git *)", "exlude"), written
