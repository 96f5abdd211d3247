"""The cross-runtime view in the editor (issue 26): hover on a skill name shows, runtime by runtime,
the winner, the shadowed copies and the copies a runtime refuses with the rule that refuses them; a
change to Gemini CLI's settings.json reaches the editor like any skill change."""
from __future__ import annotations

import json

from lsprotocol import types

from tests.conftest import skill, write
from tests.lsp.conftest import client_reports, settle, uri


async def _hover(s, path, line: int, character: int) -> str:
    h = await s.request(s.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(path)), types.Position(line, character))))
    return h.contents.value


async def test_hover_shows_every_runtime_and_the_refusing_rule(start, tree, profile):
    claude = skill(tree.ws / ".claude" / "skills", "Review", name="Review")
    skill(tree.ws / ".opencode" / "skills", "Review", name="Review")
    skill(tree.ws / ".gemini" / "skills", "Review", name="Review")
    s = await start(profile)
    s.open(claude)
    text = await _hover(s, claude, 1, 7)
    assert "**Claude Code** (`claude-code`)" in text and "**OpenCode** (`opencode`)" in text
    assert "**Gemini CLI** (`gemini`)" in text
    opencode = text.split("**OpenCode** (`opencode`)", 1)[1].split("\n\n", 1)[0]
    assert "blocked" in opencode and "refuses the name 'Review'" in opencode and "(SK008)" in opencode
    # the portability verdicts of the skill itself speak for the new runtimes too
    assert "OpenCode ✗" in text


async def test_gemini_settings_change_reaches_the_editor(start, tree, profile):
    """`skills.disabled` in the workspace's `.gemini/settings.json`: a change re-indexes, and hover
    then says the skill is disabled and where."""
    path = skill(tree.ws / ".gemini" / "skills", "review")
    s = await start(profile)
    s.open(path)
    assert "disabled" not in await _hover(s, path, 1, 7)
    settings = write(tree.ws / ".gemini" / "settings.json", json.dumps({"skills": {"disabled": ["review"]}}))
    client_reports(s, settings, types.FileChangeType.Created)

    async def disabled() -> bool:
        return "skills.disabled in" in await _hover(s, path, 1, 7)

    async def poll():
        for _ in range(200):
            if await disabled():
                return True
            await __import__("asyncio").sleep(0.05)
        return False

    assert await poll()


async def test_opencode_permissions_and_a_new_agent_file_reach_the_editor(start, tree, profile):
    """OpenCode's `permission.skill` in `opencode.jsonc` (`ask`) and a new `.opencode/agents/<agent>.md`
    with its own rule: each change re-indexes, and hover then carries the notes `where` prints."""
    import asyncio

    path = skill(tree.ws / ".opencode" / "skills", "review")
    s = await start(profile)
    s.open(path)
    assert "asks before loading" not in await _hover(s, path, 1, 7)
    config = write(tree.ws / "opencode.jsonc", '{"permission": {"skill": {"review": "ask"}}} // ask first')
    client_reports(s, config, types.FileChangeType.Created)

    async def shows(needle: str) -> bool:
        for _ in range(200):
            if needle in await _hover(s, path, 1, 7):
                return True
            await asyncio.sleep(0.05)
        return False

    assert await shows('OpenCode asks before loading it (permission.skill "review": "ask"')
    agent = write(tree.ws / ".opencode" / "agents" / "docs.md",
                  '---\npermission:\n  skill:\n    "review": "deny"\n---\nDocs.\n')
    client_reports(s, agent, types.FileChangeType.Created)
    assert await shows('agent `docs`: hidden (permission.skill "review": "deny"')
