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
