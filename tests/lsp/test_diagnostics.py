"""Diagnostics end to end: shadowing with related info, push vs pull, version tags, live updates."""
from __future__ import annotations

import pytest
from lsprotocol import types

from tests.conftest import skill
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, settle, uri
from tests.lsp.test_truth import _matches_cli

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


async def test_codes_link_to_the_rule_documentation(start, tree, profile):
    """Issue 22: a finding's code is a link (codeDescription) to its rule's section of docs/rules.md."""
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    items = await s.diagnostics(tree.user_demo, lambda ds: any(d.code == "SH001" for d in ds))
    for d in items:
        assert d.code_description is not None, d
        assert d.code_description.href.endswith(f"/docs/rules.md#{str(d.code).lower()}"), d.code_description


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
    await s.idle()  # everything the server would send has been sent
    if s.pull:
        assert s.client.diagnostics == {}, "a pull-capable client must not also be pushed diagnostics"
    else:
        items = s.client.diagnostics[uri(tree.user_demo)]
        keys = [(d.code, d.range.start.line, d.message) for d in items]
        assert len(keys) == len(set(keys))


def _close(s, path) -> None:
    s.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri(path))))


async def test_closing_documents_returns_to_what_check_says(start, tree, profile):
    """SPEC §8: a file outside the workspace has diagnostics only while it is open (check does not report
    it); a workspace file closed with unsaved edits goes back to its diagnostics on disk."""
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" in _codes(ds))
    if s.pull:
        # VS Code: when the tab closes, the client forgets what it pulled for the document and takes
        # the workspace reports for it, while the document stays open (didClose comes later, if ever):
        # they must clear it, or its rows stay in the Problems panel (seen in code-server, multi-root:
        # tests/editors/test_vscode.py). A document pull, which wins while the tab is open, still
        # answers its findings.
        report = await s.request(s.client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])))
        assert [list(r.items) for r in report.items if r.uri == uri(tree.user_demo)] == [[]], report.items
        assert "SH001" in _codes(await s.diagnostics(tree.user_demo))
    _close(s, tree.user_demo)
    if s.pull:
        report = await s.request(s.client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])))
        assert [list(r.items) for r in report.items if r.uri == uri(tree.user_demo)] == [[]], report.items
        # a last document pull after didClose answers nothing either
        assert await s.diagnostics(tree.user_demo) == []
    else:
        await settle(lambda: not s.client.diagnostics.get(uri(tree.user_demo)))
    s.open(tree.other)
    s.change(tree.other, "---\nname: other\n---\n# no description\n", version=2)
    await s.diagnostics(tree.other, lambda ds: "SK005" in _codes(ds))
    _close(s, tree.other)
    if s.pull:
        report = await s.request(s.client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])))
        assert uri(tree.other) in {r.uri for r in report.items}
        assert not any("SK005" in _codes(r.items) for r in report.items if r.uri == uri(tree.other))
    else:
        await settle(lambda: "SK005" not in _codes(s.client.diagnostics.get(uri(tree.other), [])))


async def test_pushed_diagnostics_of_an_open_document_carry_its_version(start, tree, profile):
    """SPEC §6.3: pushed diagnostics are version-tagged (a client drops ones older than its buffer)."""
    if profile == "pull-refresh":
        pytest.skip("pull clients are never pushed to")
    tree.standard()
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)  # the index-time pushes (no version: nothing is open) are done
    versions: list[int | None] = []
    fm = s.client.protocol.fm
    original = fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params):
        if params.uri == uri(tree.other):
            versions.append(params.version)
        return original(params)

    fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    s.open(tree.other, version=7)
    s.change(tree.other, "---\nname: other\n---\n# no description\n", version=8)
    await s.diagnostics(tree.other, lambda ds: "SK005" in _codes(ds))
    await settle(lambda: 8 in versions)
    assert all(v in (7, 8) for v in versions), versions


async def test_a_new_file_closed_without_saving_leaves_no_diagnostics(start, tree, profile):
    """Issue 22: `:e new/SKILL.md`, typing, `:bw!` (the file never existed on disk): its diagnostics
    go with the buffer, instead of becoming a "cannot read file" error for ever."""
    tree.standard()
    s = await start(profile)
    new = tree.ws / ".agh" / "skills" / "new" / "SKILL.md"
    s.open(new, text="---\nname: new\n---\nBody.\n")
    await s.diagnostics(new, lambda ds: bool(ds))
    _close(s, new)
    assert not new.exists()
    if s.pull:
        report = await s.request(s.client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])))
        assert not [r for r in report.items if r.uri == uri(new) and r.items]
    else:
        await settle(lambda: uri(new) in s.client.diagnostics and not s.client.diagnostics[uri(new)])
        await s.idle()  # nothing arrives afterwards: the server has nothing scheduled
        assert not s.client.diagnostics[uri(new)]


async def test_index_changed_lists_the_roots_each_folder_reads(start, tree, profile):
    """`skillLs/indexChanged` names, per folder, the directories its index reads (configured and
    user roots included): an editor running one server per project picks the server that reads a
    file outside every project (editors/nvim lua/skill_ls/project.lua)."""
    tree.standard()
    s = await start(profile)
    changed = await s.wait_index_changes(1)
    folders = changed["folders"] if isinstance(changed, dict) else changed.folders
    roots = folders[0]["roots"] if isinstance(folders[0], dict) else folders[0].roots
    assert str(tree.agh_home / "skills") in roots
    assert str(tree.bundled / "skills") in roots
    assert str(tree.ws / ".agh" / "skills") in roots
