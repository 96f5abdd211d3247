"""Definition: every declaration, winner first, then shadowed copies in precedence order."""
from __future__ import annotations

from lsprotocol import types

from tests.conftest import skill
from tests.lsp.conftest import uri
from tests.lsp.test_hover import _pos


async def _definition(s, path, pos):
    return await s.request(s.client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri(path)), pos)))


async def test_definition_returns_all_copies_winner_first(start, tree, profile):
    tree.standard()
    s = await start(profile)
    locs = await _definition(s, tree.bundled_demo, _pos(tree.bundled_demo, "name: demo", 7))
    assert [loc.uri for loc in locs] == [uri(tree.ws_demo), uri(tree.user_demo), uri(tree.bundled_demo)]
    assert locs[0].range.start.line == 1 and locs[0].range.start.character == len("name: ")


async def test_definition_from_a_reference(start, tree, profile):
    tree.standard()
    s = await start(profile)
    locs = await _definition(s, tree.other, _pos(tree.other, '"demo"', 2))
    assert len(locs) >= 3 and locs[0].uri == uri(tree.ws_demo)


async def test_definition_off_a_name_is_empty(start, tree, profile):
    tree.standard()
    s = await start(profile)
    assert not await _definition(s, tree.ws_demo, types.Position(line=0, character=0))


async def test_definition_includes_agent_local_copies(start, tree, profile):
    """Issue 10 / SPEC §6.3 (all declarations): from the user copy, the agent-local override of
    agent 'reviewer' is listed too, after the copies of the base stack."""
    tree.standard()
    local = skill(tree.ws / ".agh" / "agents" / "reviewer" / "skills", "demo", description="Reviewer's demo.")
    s = await start(profile)
    locs = await _definition(s, tree.user_demo, _pos(tree.user_demo, "name: demo", 7))
    assert [loc.uri for loc in locs] == [uri(tree.ws_demo), uri(tree.user_demo), uri(tree.bundled_demo), uri(local)]
    # from inside the agent, its own copy wins and comes first
    locs = await _definition(s, local, _pos(local, "name: demo", 7))
    assert [loc.uri for loc in locs][0] == uri(local) and len(locs) == 4


async def test_definition_lists_blocked_copies_after_the_loadable_ones(start, tree, profile):
    """SPEC §8: the winner, then the other loadable copies in descending precedence, then blocked ones —
    a blocked user copy (a duplicate key) comes after the bundled copy although its tier is higher."""
    tree.standard()
    tree.user_demo.write_text("---\nname: demo\ndescription: User demo.\ndescription: Twice.\n---\n# Demo\n")
    s = await start(profile)
    locs = await _definition(s, tree.bundled_demo, _pos(tree.bundled_demo, "name: demo", 7))
    assert [loc.uri for loc in locs] == [uri(tree.ws_demo), uri(tree.bundled_demo), uri(tree.user_demo)]
