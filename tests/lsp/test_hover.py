"""Hover: the winning tier and every copy on a skill name or reference; documentation on keys."""
from __future__ import annotations

from lsprotocol import types

from tests.lsp.conftest import uri


def _pos(path, needle: str, offset: int = 1) -> types.Position:
    for i, line in enumerate(path.read_text().splitlines()):
        if needle in line:
            return types.Position(i, line.index(needle) + offset)
    raise AssertionError(needle)


async def _hover(s, path, pos):
    return await s.request(s.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(path)), pos)))


async def test_hover_on_skill_name_shows_winning_tier(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    h = await _hover(s, tree.user_demo, _pos(tree.user_demo, "name: demo", 7))
    text = h.contents.value
    assert "winner: `workspace`" in text
    assert "shadowed: `user`" in text and "shadowed: `bundled`" in text
    assert text.index("winner") < text.index("shadowed: `user`") < text.index("shadowed: `bundled`")
    assert "chars in the catalog" in text
    # The portability verdicts of the skill itself (issue 11), the same as `skill-ls portability`.
    assert "**Portability**" in text and "AGH ✗ shadowed by the workspace copy" in text
    assert "claude.ai upload ✓" in text


async def test_hover_on_references(start, tree, profile):
    tree.standard()
    s = await start(profile)
    # skill_read_file("demo", ...) in another skill's body
    h = await _hover(s, tree.other, _pos(tree.other, '"demo"', 2))
    assert "winner: `workspace`" in h.contents.value
    # a tombstone in the agent's skills.disabled
    h = await _hover(s, tree.agent, _pos(tree.agent, "other]", 1))
    assert "skill `other`" in h.contents.value and "winner: `workspace`" in h.contents.value


async def test_hover_on_frontmatter_key(start, tree, profile):
    tree.standard()
    s = await start(profile)
    h = await _hover(s, tree.ws_demo, _pos(tree.ws_demo, "description:", 2))
    assert "Accepted by:" in h.contents.value and "agh" in h.contents.value
    h = await _hover(s, tree.agent, _pos(tree.agent, "provider:", 2))
    assert "provider" in h.contents.value.lower()


async def test_hover_elsewhere_is_empty(start, tree, profile):
    tree.standard()
    s = await start(profile)
    assert await _hover(s, tree.ws_demo, types.Position(line=5, character=0)) is None


async def test_hover_names_a_blocked_copy_and_why(start, tree, profile):
    """SPEC §6.3: hover shows the blocked state of a copy (a duplicate key blocks it: SPEC §8)."""
    tree.standard()
    tree.user_demo.write_text("---\nname: demo\ndescription: User demo.\ndescription: Twice.\n---\n# Demo\n")
    s = await start(profile)
    text = (await _hover(s, tree.ws_demo, _pos(tree.ws_demo, "name: demo", 7))).contents.value
    assert "winner: `workspace`" in text and "shadowed: `bundled`" in text
    line = next(x for x in text.splitlines() if "`user`" in x)
    assert line.startswith("- blocked: `user`") and "duplicate" in line.lower(), line
    assert text.index("shadowed: `bundled`") < text.index("blocked: `user`")
