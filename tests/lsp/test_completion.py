"""Completion: keys and enum values per runtime, skill names in skills lists and tombstones, ToolIDs."""
from __future__ import annotations

from lsprotocol import types

from tests.conftest import write
from tests.lsp.conftest import uri


async def _complete(s, path, line, character):
    result = await s.request(s.client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(path)), types.Position(line=line, character=character))))
    return [i.label for i in (result.items if hasattr(result, "items") else result or [])]


async def test_key_completion_per_runtime(start, tree, profile):
    tree.standard()
    s = await start(profile)
    text = "---\nname: demo\ndescription: x\nver\n---\n"
    s.open(tree.ws_demo, text=text, version=2)
    labels = await _complete(s, tree.ws_demo, 3, 3)
    assert "version" in labels and "allowed-tools" in labels
    assert "name" not in labels  # already present
    assert "isolatedContext" not in labels  # an Amp key, and this file is only read by AGH


async def test_enum_and_skill_name_and_tool_completion(start, tree, profile):
    tree.standard()
    s = await start(profile)
    agent_text = ("---\nname: reviewer\nprovider: openai\npermissions: \ntools:\n  - \nskills:\n  disabled:\n    - \n"
                  "---\nYou review code.\n")
    s.open(tree.agent, text=agent_text, version=2)
    assert {"deny-all", "approve-reads", "approve-all"} <= set(await _complete(s, tree.agent, 3, 13))
    assert "agh__skill_view" in await _complete(s, tree.agent, 5, 4)
    assert {"demo", "other"} <= set(await _complete(s, tree.agent, 8, 6))


async def test_claude_subagent_skills_list(start, tree, profile):
    tree.standard()
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    path = write(tree.ws / ".claude" / "agents" / "helper.md",
                 "---\nname: helper\ndescription: Helps.\nskills:\n  - \n---\nBody\n", dedent=False)
    write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n", dedent=False)
    s = await start(profile)
    assert "pdf" in await _complete(s, path, 4, 4)


async def _items(s, path, line, character):
    result = await s.request(s.client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(path)), types.Position(line=line, character=character))))
    return {i.label: i for i in (result.items if hasattr(result, "items") else result or [])}


async def test_items_replace_the_whole_word_typed_dashes_included(start, tree, profile):
    """Issue 22: after `disable-m` VS Code inserted `disable-metadata: ` next to `disable-` (its word
    ends at `-` and the items had no range). Every item carries a `textEdit` over the word typed."""
    tree.standard()
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    path = write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md",
                 "---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\ndisable-m\nmodel: son\n---\n", dedent=False)
    s = await start(profile)
    items = await _items(s, path, 3, 9)
    item = items["disable-model-invocation"]
    assert item.text_edit.new_text == "disable-model-invocation: " and item.insert_text is None
    assert (item.text_edit.range.start.character, item.text_edit.range.end.character) == (0, 9)
    # in the middle of the word: the whole word is replaced
    item = (await _items(s, path, 3, 4))["disable-model-invocation"]
    assert (item.text_edit.range.start.line, item.text_edit.range.start.character, item.text_edit.range.end.character) == (3, 0, 9)
    # a value: `son` after `model: ` is replaced, not the key
    item = (await _items(s, path, 4, 10))["sonnet"]
    assert (item.text_edit.range.start.character, item.text_edit.range.end.character) == (7, 10)


async def test_model_completion_offers_the_aliases_the_rules_know(start, tree, profile):
    """Issue 22: `model:` offered nothing although CC001/SA001 know the aliases: completion offers
    them for a Claude Code skill and a subagent (and `inherit`, the subagent default)."""
    tree.standard()
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    path = write(tree.ws / ".claude" / "skills" / "pdf" / "SKILL.md",
                 "---\nname: pdf\ndescription: PDFs. Use when reading PDFs.\nmodel: \n---\n", dedent=False)
    agent = write(tree.ws / ".claude" / "agents" / "helper.md",
                  "---\nname: helper\ndescription: Helps.\nmodel: \npermissionMode: \n---\nBody\n", dedent=False)
    s = await start(profile)
    assert {"sonnet", "opus", "haiku", "inherit"} <= set(await _complete(s, path, 3, 7))
    assert {"sonnet", "opus", "inherit"} <= set(await _complete(s, agent, 3, 7))
    assert "plan" in await _complete(s, agent, 4, 16)
