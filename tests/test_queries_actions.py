"""Quick fixes (`analysis.queries.actions`), in process: the fixes the rules carry, only those an
editor can apply. The wiring over LSP is tests/lsp/test_code_actions.py."""
from __future__ import annotations

from skill_ls.analysis.queries.actions import preferred, quick_fixes
from tests.conftest import skill, workspace_state
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
