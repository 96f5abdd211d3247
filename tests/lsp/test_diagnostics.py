"""Diagnostics end to end: shadowing with related info, push vs pull, version tags, live updates."""
from __future__ import annotations

import asyncio

from lsprotocol import types

from tests.conftest import skill
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, settle, uri

# Push only (VS Code 1.65), mixed (Neovim 0.11: the server pushes) and pull with refresh: the pull
# branches below run for the last one.
PROFILES = DIAGNOSTIC_PROFILES


def _codes(items):
    return sorted(str(d.code) for d in items)


async def test_shadowed_copy_gets_sh001_with_winner_related(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    items = await s.diagnostics(tree.user_demo, lambda ds: any(d.code == "SH001" for d in ds))
    sh = next(d for d in items if d.code == "SH001")
    assert sh.severity == types.DiagnosticSeverity.Warning
    assert sh.related_information and sh.related_information[0].location.uri == uri(tree.ws_demo)
    assert "workspace" in sh.related_information[0].message
    # the winner knows it shadows others
    s.open(tree.ws_demo)
    items = await s.diagnostics(tree.ws_demo, lambda ds: any(d.code == "SH002" for d in ds))
    assert {r.location.uri for d in items if d.code == "SH002" for r in d.related_information} >= {uri(tree.user_demo)}


async def test_workspace_files_get_diagnostics_without_opening(start, tree, profile):
    tree.standard()
    s = await start(profile)
    if s.pull:
        report = await s.request(s.client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])))
        by_uri = {r.uri: r.items for r in report.items}
        assert uri(tree.ws_demo) in by_uri and uri(tree.agent) in by_uri
        assert not s.client.diagnostics  # pull clients are never pushed to
    else:
        # the agent has a draft field (skills.disabled): a warning published at index time
        await settle(lambda: uri(tree.agent) in s.client.diagnostics)


async def test_pushed_diagnostics_follow_edits_and_carry_version(start, tree, profile):
    tree.standard()
    s = await start(profile)
    path = tree.ws / ".agh" / "skills" / "other" / "SKILL.md"
    s.open(path, version=1)
    await s.diagnostics(path, lambda ds: "SK005" not in _codes(ds))
    s.change(path, "---\nname: other\n---\n# no description\n", version=2)
    items = await s.diagnostics(path, lambda ds: "SK005" in _codes(ds))
    assert "SK005" in _codes(items)
    if not s.pull:
        assert s.client.diagnostics and uri(path) in s.client.diagnostics
    s.change(path, path.read_text(), version=3)
    await s.diagnostics(path, lambda ds: "SK005" not in _codes(ds))


async def test_creating_same_name_skill_in_user_root_updates_open_file(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.other)
    items = await s.diagnostics(tree.other, lambda ds: True)
    assert "SH002" not in _codes(items)
    before = len(s.index_changes)
    skill(tree.agh_home / "skills", "other", description="A user copy.")
    await s.wait_index_changes(before + 1)
    items = await s.diagnostics(tree.other, lambda ds: "SH002" in _codes(ds))
    assert "SH002" in _codes(items)
    # deleting it again clears the shadowing
    (tree.agh_home / "skills" / "other" / "SKILL.md").unlink()
    items = await s.diagnostics(tree.other, lambda ds: "SH002" not in _codes(ds))


async def test_unsaved_buffer_takes_precedence_over_disk(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" in _codes(ds))
    # rename the workspace winner in its buffer only: the user copy is no longer shadowed
    text = tree.ws_demo.read_text().replace("name: demo", "name: demo-renamed")
    s.open(tree.ws_demo, text=text)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" not in _codes(ds))


async def test_no_duplicate_channels(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" in _codes(ds))
    await asyncio.sleep(0.5)
    if s.pull:
        assert s.client.diagnostics == {}, "a pull-capable client must not also be pushed diagnostics"
    else:
        items = s.client.diagnostics[uri(tree.user_demo)]
        keys = [(d.code, d.range.start.line, d.message) for d in items]
        assert len(keys) == len(set(keys))
