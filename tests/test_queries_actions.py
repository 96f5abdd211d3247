"""Quick fixes (`analysis.queries.actions`), in process: the fixes the rules carry, only those an
editor can apply. The wiring over LSP is tests/lsp/test_code_actions.py."""
from __future__ import annotations

from skill_ls.analysis.queries.actions import preferred, quick_fixes
from tests.conftest import skill, workspace_state, write
from tests.lsp.conftest import Tree


def test_quick_fix_from_rule_fix_data(tmp_path):
    tree = Tree(tmp_path).standard()
    path = skill(tree.ws / ".agh" / "skills", "typo", extra="licence: MIT\n")
    state = workspace_state(tree.ws, tree.env())
    fixes = quick_fixes(state, str(path), 0, 10, {"SK007"})
    assert fixes, "SK007 near a known key carries a did-you-mean fix"
    assert fixes[0].fix.edits[0].new_text == "license"


def test_safe_fix_is_preferred_and_cli_only_repairs_are_not_offered(tmp_path):
    """A safe fix (quoting) is the preferred action, an unsafe one is not; a BOM removal is applied
    only by `skill-ls check --fix`, so the editor gets no empty action for it (issue 12)."""
    tree = Tree(tmp_path).standard()
    root = tree.ws / ".agh" / "skills"
    path = skill(root, "colon", description="Use when: asked")
    bom = skill(root, "bom")
    bom.write_bytes("\ufeff".encode() + bom.read_bytes())
    state = workspace_state(tree.ws, tree.env())
    fixes = quick_fixes(state, str(path), 0, 10, {"SK003"})
    assert [d.fix.title for d in fixes] == ["Quote the value of 'description'"] and preferred(fixes[0])
    assert "SK013" in {d.code for d in state.diagnostics([str(bom)])[str(bom)]}
    assert quick_fixes(state, str(bom), 0, 10, {"SK013"}) == []


def test_move_under_metadata_is_a_quick_fix(tmp_path):
    """Issue 22: `skill-ls check --fix --unsafe-fixes` moves catalogue keys no runtime knows under
    `metadata:`; the editor offers the same fix on the SK007 of such a key."""
    tree = Tree(tmp_path).standard()
    path = skill(tree.ws / ".agh" / "skills", "catalogued", extra="category: tools\n")
    state = workspace_state(tree.ws, tree.env())
    fixes = quick_fixes(state, str(path), 3, 3, {"SK007"})
    assert [d.fix.title for d in fixes] == ["Move 'category' under 'metadata:'"]
    assert not preferred(fixes[0])


def test_did_you_mean_findings_have_quick_fixes(tmp_path):
    """Issue 22: the "did you mean" findings had no quick fix. A subagent's model (SA001) and tool
    (SA003), a skill's tool (CC003, its pattern kept) and a typo'd key of .skill-ls.toml (CF001) each
    offer the replacement the message suggests, at exactly the text it replaces."""
    tree = Tree(tmp_path).standard()
    cfg = write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\nexlude = ["x/**"]\n', dedent=False)
    sk = write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md",
               "---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\nallowed-tools: Read, bash(git *)\n---\n# PDF\n",
               dedent=False)
    agent = write(tree.ws / ".claude" / "agents" / "helper.md",
                  "---\nname: helper\ndescription: Helps.\nmodel: Sonnet\ntools: Read, grep\n---\nBody\n", dedent=False)
    state = workspace_state(tree.ws, tree.env())
    expected = [(agent, "SA001", "Replace 'Sonnet' with 'sonnet'", "Sonnet", "sonnet"),
                (agent, "SA003", "Replace 'grep' with 'Grep'", "grep", "Grep"),
                (sk, "CC003", "Replace 'bash(git *)' with 'Bash(git *)'", "bash(git *)", "Bash(git *)"),
                (cfg, "CF001", "Rename 'exlude' to 'exclude'", "exlude", "exclude")]
    for path, code, title, old, new in expected:
        fixes = quick_fixes(state, str(path), 0, 10, {code})
        assert [d.fix.title for d in fixes] == [title], (code, [d.fix.title for d in fixes])
        [edit] = fixes[0].fix.edits
        assert edit.new_text == new
        line = path.read_text().splitlines()[edit.span.start_line]
        assert line[edit.span.start_col:edit.span.end_col] == old, (code, line)
    # no suggestion, no fix: an entry nothing resembles
    write(agent, "---\nname: helper\ndescription: Helps.\ntools: Zzzzqqq\n---\nBody\n", dedent=False)
    state = workspace_state(tree.ws, tree.env())
    assert quick_fixes(state, str(agent), 0, 10, {"SA003"}) == []
