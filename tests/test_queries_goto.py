"""Definitions and references (`analysis.queries.goto`), in process: every declaration, winner first,
then shadowed copies in precedence order; every agent and skill that names a skill. The wiring over
LSP is tests/lsp/test_definition.py and tests/lsp/test_references.py."""
from __future__ import annotations

import pytest

from skill_ls.analysis.queries.goto import definitions, references
from skill_ls.analysis.queries.scope import ref_under
from tests.conftest import position, skill, workspace_state
from tests.lsp.conftest import Tree


@pytest.fixture
def tree(tmp_path) -> Tree:
    return Tree(tmp_path).standard()


def _definitions(tree: Tree, path, needle: str, offset: int):
    state = workspace_state(tree.ws, tree.env())
    ref = ref_under(state, str(path), *position(path, needle, offset))
    return [] if ref is None else definitions(state, ref.name, str(path))


def test_definition_returns_all_copies_winner_first(tree):
    locs = _definitions(tree, tree.bundled_demo, "name: demo", 7)
    assert [loc.path for loc in locs] == [str(tree.ws_demo), str(tree.user_demo), str(tree.bundled_demo)]
    assert (locs[0].span.start_line, locs[0].span.start_col) == (1, len("name: "))


def test_definition_from_a_reference(tree):
    locs = _definitions(tree, tree.other, '"demo"', 2)
    assert len(locs) >= 3 and locs[0].path == str(tree.ws_demo)


def test_definition_off_a_name_is_empty(tree):
    assert ref_under(workspace_state(tree.ws, tree.env()), str(tree.ws_demo), 0, 0) is None


def test_definition_includes_agent_local_copies(tree):
    """Issue 10 / SPEC §6.3 (all declarations): from the user copy, the agent-local override of
    agent 'reviewer' is listed too, after the copies of the base stack."""
    local = skill(tree.ws / ".agh" / "agents" / "reviewer" / "skills", "demo", description="Reviewer's demo.")
    locs = _definitions(tree, tree.user_demo, "name: demo", 7)
    assert [loc.path for loc in locs] == [str(tree.ws_demo), str(tree.user_demo), str(tree.bundled_demo), str(local)]
    # from inside the agent, its own copy wins and comes first
    locs = _definitions(tree, local, "name: demo", 7)
    assert locs[0].path == str(local) and len(locs) == 4


def test_definition_lists_blocked_copies_after_the_loadable_ones(tree):
    """SPEC §8: the winner, then the other loadable copies in descending precedence, then blocked ones —
    a blocked user copy (a duplicate key) comes after the bundled copy although its tier is higher."""
    tree.user_demo.write_text("---\nname: demo\ndescription: User demo.\ndescription: Twice.\n---\n# Demo\n")
    locs = _definitions(tree, tree.bundled_demo, "name: demo", 7)
    assert [loc.path for loc in locs] == [str(tree.ws_demo), str(tree.bundled_demo), str(tree.user_demo)]


def test_references_list_agents_and_skills(tree):
    state = workspace_state(tree.ws, tree.env())
    assert [loc.path for loc in references(state, "demo", str(tree.ws_demo), False)] == [str(tree.other)]
    refs = [loc.path for loc in references(state, "other", str(tree.other), True)]
    assert str(tree.agent) in refs and refs[0] == str(tree.other)
