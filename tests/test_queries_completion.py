"""Completion items (`analysis.queries.completion`), in process: keys and enum values per runtime,
skill names in skills lists and tombstones, ToolIDs. The wiring over LSP is
tests/lsp/test_completion.py."""
from __future__ import annotations

import pytest

from skill_ls.analysis.queries.completion import completions
from tests.conftest import workspace_state, write
from tests.lsp.conftest import Tree


@pytest.fixture
def tree(tmp_path) -> Tree:
    return Tree(tmp_path).standard()


def _labels(state, path, line: int, col: int) -> list[str]:
    return [item.label for item in completions(state, str(path), line, col)]


def test_key_completion_per_runtime(tree):
    state = workspace_state(tree.ws, tree.env())
    state.set_overlay(str(tree.ws_demo), "---\nname: demo\ndescription: x\nver\n---\n", 2)  # the editor's buffer
    labels = _labels(state, tree.ws_demo, 3, 3)
    assert "version" in labels and "allowed-tools" in labels
    assert "name" not in labels  # already present
    assert "isolatedContext" not in labels  # an Amp key, and this file is only read by AGH
    item = next(i for i in completions(state, str(tree.ws_demo), 3, 3) if i.label == "version")
    assert item.kind == "field" and item.insert_text == "version: " and item.detail == "agh"


def test_enum_and_skill_name_and_tool_completion(tree):
    state = workspace_state(tree.ws, tree.env())
    state.set_overlay(str(tree.agent), "---\nname: reviewer\nprovider: openai\npermissions: \ntools:\n  - \nskills:\n"
                      "  disabled:\n    - \n---\nYou review code.\n", 2)
    assert {"deny-all", "approve-reads", "approve-all"} <= set(_labels(state, tree.agent, 3, 13))
    assert "agh__skill_view" in _labels(state, tree.agent, 5, 4)
    assert {"demo", "other"} <= set(_labels(state, tree.agent, 8, 6))


def test_claude_subagent_skills_list(tree):
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    path = write(tree.ws / ".claude" / "agents" / "helper.md",
                 "---\nname: helper\ndescription: Helps.\nskills:\n  - \n---\nBody\n", dedent=False)
    write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n", dedent=False)
    assert "pdf" in _labels(workspace_state(tree.ws, tree.env()), path, 4, 4)


def test_nothing_outside_the_frontmatter(tree):
    assert completions(workspace_state(tree.ws, tree.env()), str(tree.ws_demo), 5, 0) == []


def test_items_replace_the_whole_word_typed_dashes_included(tree):
    """Issue 22: after `disable-m` VS Code inserted `disable-model-invocation: ` after `disable-` (its
    word ends at `-` and the items had no range). Every item replaces the word around the cursor."""
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    path = write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md",
                 "---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\ndisable-m\nmodel: son\n---\n", dedent=False)
    state = workspace_state(tree.ws, tree.env())
    at = {i.label: i for i in completions(state, str(path), 3, 9)}
    assert at["disable-model-invocation"].replace == (0, 9)
    assert at["disable-model-invocation"].insert_text == "disable-model-invocation: "
    assert {i.label: i for i in completions(state, str(path), 3, 4)}["disable-model-invocation"].replace == (0, 9)
    assert {i.label: i for i in completions(state, str(path), 4, 10)}["sonnet"].replace == (7, 10)


def test_model_completion_offers_the_aliases_the_rules_know(tree):
    """Issue 22: `model:` offered nothing although CC001/SA001 know the aliases: completion offers them
    for a Claude Code skill and a subagent (with `inherit`), and permissionMode its modes."""
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    path = write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md",
                 "---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\nmodel: \n---\n", dedent=False)
    agent = write(tree.ws / ".claude" / "agents" / "helper.md",
                  "---\nname: helper\ndescription: Helps.\nmodel: \npermissionMode: \n---\nBody\n", dedent=False)
    state = workspace_state(tree.ws, tree.env())
    assert {"sonnet", "opus", "haiku", "inherit"} <= set(_labels(state, path, 3, 7))
    assert {"sonnet", "opus", "inherit"} <= set(_labels(state, agent, 3, 7))
    assert "plan" in _labels(state, agent, 4, 16)
