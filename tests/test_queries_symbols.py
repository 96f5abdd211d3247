"""Document and workspace symbols (`analysis.queries.symbols`) and document links
(`analysis.navigation.file_links`), in process. The wiring over LSP is tests/lsp/test_symbols.py and
tests/lsp/test_links.py."""
from __future__ import annotations

import pytest

from skill_ls.analysis.navigation import file_links
from skill_ls.analysis.queries.symbols import document_symbols, workspace_symbols
from tests.conftest import workspace_state
from tests.lsp.conftest import Tree


@pytest.fixture
def tree(tmp_path) -> Tree:
    return Tree(tmp_path).standard()


def test_document_symbols(tree):
    state = workspace_state(tree.ws, tree.env())
    root, = document_symbols(state, str(tree.ws_demo), state.index.store.peek(str(tree.ws_demo)))
    assert (root.name, root.kind, root.detail) == ("demo", "skill", "skill")
    names = [c.name for c in root.children]
    assert "name" in names and "description" in names and "Demo" in names
    agent, = document_symbols(state, str(tree.agent), state.index.store.peek(str(tree.agent)))
    assert (agent.name, agent.kind) == ("reviewer", "agent")


def test_workspace_symbols(tree):
    state = workspace_state(tree.ws, tree.env())
    syms = workspace_symbols([state], "")
    assert {"demo", "other", "reviewer"} <= {x.name for x in syms}
    assert len([x for x in syms if x.name == "demo"]) == 3  # one per copy
    assert [x.name for x in workspace_symbols([state], "revi")] == ["reviewer"]


def test_document_links_resolve_existing_files(tree):
    state = workspace_state(tree.ws, tree.env())
    links = file_links(state.index.store.peek(str(tree.ws_demo)), state.index)
    assert [link.target for link in links] == [str(tree.ws_demo.parent / "references" / "guide.md")]
