"""Code-lens labels (`analysis.queries.lens`), in process. The wiring over LSP is
tests/lsp/test_code_lens.py."""
from __future__ import annotations

from skill_ls.analysis.queries.lens import code_lenses
from tests.conftest import workspace_state
from tests.lsp.conftest import Tree


def test_code_lens_winner_and_shadowed(tmp_path):
    tree = Tree(tmp_path).standard()
    state = workspace_state(tree.ws, tree.env())
    lenses = code_lenses(state, str(tree.ws_demo))
    assert [lens.title for lens in lenses] == ["winner · workspace — shadows 2"]
    assert lenses[0].line == 0
    assert lenses[0].where == {"name": "demo", "runtime": "agh", "workspace": str(tree.ws)}
    assert code_lenses(state, str(tree.user_demo))[0].title == "shadowed · user — by workspace"
    assert code_lenses(state, str(tree.agent)) is None  # not a skill
