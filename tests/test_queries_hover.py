"""Hover content (`analysis.queries.hover`), in process: the winning tier and every copy on a skill
name or reference; documentation on keys. The wiring over LSP is tests/lsp/test_hover.py."""
from __future__ import annotations

import pytest

from skill_ls.analysis.queries.hover import hover
from tests.conftest import position, workspace_state
from tests.lsp.conftest import Tree


@pytest.fixture
def tree(tmp_path) -> Tree:
    return Tree(tmp_path).standard()


def _hover(tree: Tree, path, needle: str, offset: int = 1) -> str | None:
    found = hover(workspace_state(tree.ws, tree.env()), str(path), *position(path, needle, offset))
    return None if found is None else found.markdown


def test_hover_on_skill_name_shows_winning_tier(tree):
    text = _hover(tree, tree.user_demo, "name: demo", 7)
    assert "winner: `workspace`" in text
    assert "shadowed: `user`" in text and "shadowed: `bundled`" in text
    assert text.index("winner") < text.index("shadowed: `user`") < text.index("shadowed: `bundled`")
    assert "chars in the catalog" in text
    # The portability verdicts of the skill itself (issue 11), the same as `skill-ls portability`.
    assert "**Portability**" in text and "AGH ✗ shadowed by the workspace copy" in text
    assert "claude.ai upload ✓" in text


def test_hover_spans_the_name(tree):
    state = workspace_state(tree.ws, tree.env())
    found = hover(state, str(tree.user_demo), *position(tree.user_demo, "name: demo", 7))
    assert (found.span.start_line, found.span.start_col, found.span.end_col) == (1, 6, 10)


def test_hover_on_references(tree):
    # skill_read_file("demo", ...) in another skill's body
    assert "winner: `workspace`" in _hover(tree, tree.other, '"demo"', 2)
    # a tombstone in the agent's skills.disabled
    text = _hover(tree, tree.agent, "other]", 1)
    assert "skill `other`" in text and "winner: `workspace`" in text


def test_hover_on_frontmatter_key(tree):
    text = _hover(tree, tree.ws_demo, "description:", 2)
    assert "Accepted by:" in text and "agh" in text
    assert "provider" in _hover(tree, tree.agent, "provider:", 2).lower()


def test_hover_elsewhere_is_empty(tree):
    assert hover(workspace_state(tree.ws, tree.env()), str(tree.ws_demo), 5, 0) is None


def test_hover_names_a_blocked_copy_and_why(tree):
    """SPEC §6.3: hover shows the blocked state of a copy (a duplicate key blocks it: SPEC §8)."""
    tree.user_demo.write_text("---\nname: demo\ndescription: User demo.\ndescription: Twice.\n---\n# Demo\n")
    text = _hover(tree, tree.ws_demo, "name: demo", 7)
    assert "winner: `workspace`" in text and "shadowed: `bundled`" in text
    line = next(x for x in text.splitlines() if "`user`" in x)
    assert line.startswith("- blocked: `user`") and "duplicate" in line.lower(), line
    assert text.index("shadowed: `bundled`") < text.index("blocked: `user`")


def test_hover_on_a_tombstone_says_it_is_not_in_the_agents_catalog(tree):
    """Issue 22: hover on a skill listed in an agent's `skills.disabled` gave its catalog size as if
    it were in that agent's catalog. It says the agent's catalog leaves it out; the copies stay."""
    text = _hover(tree, tree.agent, "disabled: [other", len("disabled: [") + 1)
    assert "**skill `other`**" in text, text
    assert "not in agent `reviewer`'s catalog: its `skills.disabled` removes it" in text, text
    assert "chars in the catalog" not in text, text
    assert "winner: `workspace`" in text, text
