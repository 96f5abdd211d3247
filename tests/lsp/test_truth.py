"""Diagnostic truth for every client (issue 10, SPEC §6.3/§8): after any change anywhere, what the
editor holds equals what `skill-ls check` says, for files that are open and files that are not.

Profiles (`DIAGNOSTIC_PROFILES`): push only (VS Code 1.65: cannot pull), mixed (Neovim 0.11:
pulls, but advertises no `workspace.diagnostics.refreshSupport` and never sends
`workspace/diagnostic`, so the server pushes to it), pull with refresh (the server never pushes
and asks the client to re-pull after every change).
"""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from tests.conftest import check_tree, skill, write
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, TIMEOUT, client_reports, settle, uri

pytestmark = pytest.mark.long  # tests/conftest.py: started first when modules run side by side


PROFILES = DIAGNOSTIC_PROFILES


def _cli_codes(tree, workspace: Path) -> dict[str, list[str]]:
    """`skill-ls check --format json` over the workspace: path -> sorted codes."""
    proc = subprocess.run([sys.executable, "-m", "skill_ls", "check", "--format", "json", str(workspace)],
                          cwd=workspace, env=tree.env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    out: dict[str, list[str]] = {}
    for d in json.loads(proc.stdout)["diagnostics"]:
        path = str((workspace / d["path"]).resolve()) if not Path(d["path"]).is_absolute() else d["path"]
        out.setdefault(path, []).append(d["code"])
    return {p: sorted(c) for p, c in out.items()}


def _check_codes(workspace: Path) -> dict[str, list[str]]:
    """What `skill-ls check` says over the workspace, by the same checker in process (the private HOME
    of tests/conftest.py is the tree's): path -> sorted codes. `_cli_codes` runs the command itself."""
    out: dict[str, list[str]] = {}
    for d in check_tree(workspace).diagnostics:
        out.setdefault(str(Path(d.path).resolve()), []).append(d.code)
    return {p: sorted(c) for p, c in out.items()}


async def _pulled(s) -> dict[str, list]:
    """A pull client's view after one more `workspace/diagnostic`: like VS Code's diagnostic
    collection, a report replaces what the client held for that document, and a document the report
    does not mention keeps what it had (only an empty report clears it)."""
    held = s.__dict__.setdefault("pulled", {})
    report = await s.request(s.client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])))
    for r in report.items:
        held[r.uri] = list(r.items)
    return dict(held)


async def _editor_codes(s) -> dict[str, list[str]]:
    """Everything the editor holds: pushed diagnostics, or what workspace pulls left (a pull client)."""
    items = await _pulled(s) if s.pull else dict(s.client.diagnostics)
    out = {}
    for u, diags in items.items():
        if diags:
            out[types_path(u)] = sorted(str(d.code) for d in diags)
    return out


def types_path(u: str) -> str:
    from pygls.uris import to_fs_path

    return str(Path(to_fs_path(u)).resolve())


async def _matches_cli(s, tree, workspace: Path, timeout: float = TIMEOUT, cli: bool = False) -> dict[str, list[str]]:
    """Wait until the editor's diagnostics equal `skill-ls check`'s for every file under `workspace`
    (`cli`: the command run as a process, else its checker in process)."""
    expected = _cli_codes(tree, workspace) if cli else _check_codes(workspace)
    last: dict = {}

    async def check():
        nonlocal last
        got = {p: c for p, c in (await _editor_codes(s)).items() if p.startswith(str(workspace.resolve()))}
        last = got
        return got == expected

    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"editor {last} != check {expected}")
        await asyncio.sleep(0.1)
    return expected


def _in_scope_tree(tree):
    """The standard tree with the bundled root inside the workspace, so that every copy of `demo`
    except the user's is in scope (and never opened by the tests)."""
    tree.standard()
    tree.bundled = tree.ws / "vendor"
    tree.bundled_demo = skill(tree.bundled / "skills", "demo", description="Bundled demo.")
    write(tree.ws / ".skill-ls.toml", f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{tree.bundled}"]\n',
          dedent=False)
    return tree


async def test_the_server_chooses_the_channel_the_client_can_keep_true(start, tree, profile):
    tree.standard()
    s = await start(profile)
    # Only a client that pulls and can be refreshed gets pull; Neovim 0.11 would otherwise hold
    # stale diagnostics (it never re-pulls on a change elsewhere) and none for unopened files.
    assert s.pull == (profile == "pull-refresh")


async def test_unopened_files_match_check_at_index_time(start, tree, profile):
    _in_scope_tree(tree)
    s = await start(profile)
    expected = await _matches_cli(s, tree, tree.ws, cli=True)
    assert "SH001" in expected[str(tree.bundled_demo)]  # a never-opened copy shows its shadowing


async def test_disk_change_in_user_root_reaches_open_and_unopened_files(start, tree, profile):
    _in_scope_tree(tree)
    s = await start(profile)
    s.open(tree.other)
    await _matches_cli(s, tree, tree.ws)
    refreshes = s.refreshes
    skill(tree.agh_home / "skills", "other", description="A user copy.")  # a new copy in $AGH_HOME
    expected = await _matches_cli(s, tree, tree.ws)
    assert "SH002" in expected[str(tree.other)]
    if s.pull:
        assert s.refreshes > refreshes
    (tree.agh_home / "skills" / "other" / "SKILL.md").unlink()  # and deleted again
    expected = await _matches_cli(s, tree, tree.ws)
    assert "SH002" not in expected.get(str(tree.other), [])


async def test_edit_in_another_buffer_updates_unopened_files(start, tree, profile):
    _in_scope_tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    s.open(tree.other)
    text = tree.other.read_text()
    # the open skill now claims the name `demo`: the never-opened workspace copy becomes ambiguous
    s.change(tree.other, text.replace("name: other", "name: demo"), version=2)
    await settle_async(lambda: _editor_codes(s), lambda c: "SH003" in c.get(str(tree.ws_demo), []))
    s.change(tree.other, text, version=3)
    await settle_async(lambda: _editor_codes(s), lambda c: "SH003" not in c.get(str(tree.ws_demo), []))


async def test_configuration_file_change_updates_unopened_files(start, tree, profile):
    _in_scope_tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    before = len(s.index_changes)
    write(tree.ws / ".skill-ls.toml", f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{tree.bundled}"]\n\n'
          '[rules]\nignore = ["SH"]\n', dedent=False)
    if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        # the client watches the workspace for the server (VS Code): it reports the change
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(tree.ws / ".skill-ls.toml"), types.FileChangeType.Changed)]))
    await s.wait_index_changes(before + 1)
    expected = await _matches_cli(s, tree, tree.ws)
    assert not any(c.startswith("SH") for codes in expected.values() for c in codes)


async def test_agh_config_change_reaches_every_file_and_query(start, tree, profile):
    """$AGH_HOME/config.toml is read once per index state (not on every hover, `where` or effective
    set): a change to it on disk must still reach the unopened agent it concerns, `where` and hover."""
    _in_scope_tree(tree)
    lead = write(tree.ws / ".agh" / "agents" / "lead" / "AGENT.md", "---\nname: lead\n---\nYou lead.\n", dedent=False)
    s = await start(profile)
    expected = await _matches_cli(s, tree, tree.ws)
    assert "AG004" in expected[str(lead)]  # no provider here and no defaults.provider
    where = await s.command("skillLs.where", {"name": "demo"})
    assert "skills_disabled" not in where
    s.open(tree.other)
    lines = tree.other.read_text().splitlines()
    line = next(i for i, text in enumerate(lines) if 'skill_read_file("demo"' in text)
    position = types.Position(line=line, character=lines[line].index('"demo"') + 2)  # on the name `demo`
    hover = await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(tree.other)), position)))
    assert "skills are disabled" not in hover.contents.value
    write(tree.agh_home / "config.toml", '[defaults]\nprovider = "openai"\n\n[skills]\nenabled = false\n',
          dedent=False)
    expected = await _matches_cli(s, tree, tree.ws)
    assert "AG004" not in expected.get(str(lead), [])
    where = await s.command("skillLs.where", {"name": "demo"})
    assert "skills.enabled = false" in where["skills_disabled"]
    hover = await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(tree.other)), position)))
    assert "skills are disabled" in hover.contents.value


def _client_reports(s, path: Path, kind: types.FileChangeType) -> None:
    client_reports(s, path, kind)


async def _rename(s, tree, folder: Path, to: Path) -> dict[str, list[str]]:
    """Rename a folder into or out of the workspace on disk, as one event for the folder (a client that
    watches reports it alone), and wait until the editor equals `skill-ls check` again."""
    to.parent.mkdir(parents=True, exist_ok=True)
    folder.rename(to)
    _client_reports(s, folder, types.FileChangeType.Deleted)
    _client_reports(s, to, types.FileChangeType.Created)
    return await _matches_cli(s, tree, tree.ws)


async def test_a_skill_folder_moved_out_of_the_workspace_and_back(start, tree, profile):
    """The winning copy's folder renamed out of the workspace (one event, for the folder: no file name
    matches `**/SKILL.md`), then back: its rows leave and return, the copies it shadowed follow, and
    files never opened equal `skill-ls check` each time, whoever watches the workspace."""
    _in_scope_tree(tree)
    s = await start(profile)
    before = await _matches_cli(s, tree, tree.ws)
    assert str(tree.ws_demo) in before and "SH001" in before[str(tree.bundled_demo)]
    folder, away = tree.ws_demo.parent, tree.tmp / "moved-away" / "demo"
    assert str(tree.ws_demo) not in await _rename(s, tree, folder, away)
    assert await _rename(s, tree, away, folder) == before


async def test_a_folder_moved_away_with_its_file_open_follows_the_disk_unless_edited(start, tree, profile):
    """A copy opened and left unedited (VS Code keeps a document an extension opened for minutes after
    its tab closed), then its folder moved out of the workspace: the buffer holds what the disk held,
    so the copy is gone as in `skill-ls check` (its own findings too, not "cannot read file"). An
    edited buffer is kept: it is what the user will save."""
    _in_scope_tree(tree)
    s = await start(profile)
    s.open(tree.ws_demo)
    await s.diagnostics(tree.ws_demo, lambda ds: "SH002" in _codes(ds))
    before = await _matches_cli(s, tree, tree.ws)
    folder, away = tree.ws_demo.parent, tree.tmp / "moved-away" / "demo"
    assert str(tree.ws_demo) not in await _rename(s, tree, folder, away)
    assert await s.diagnostics(tree.ws_demo, lambda ds: not ds) == []
    assert await _rename(s, tree, away, folder) == before
    # edited, then moved away: the buffer stays the truth for its own findings and for the shadowing
    seen = await s.changes_seen()
    s.change(tree.ws_demo, tree.ws_demo.read_text() + "\nMore.\n", version=2)
    folder.rename(away)
    _client_reports(s, folder, types.FileChangeType.Deleted)
    await s.idle(after=seen)  # the server saw the move and has processed it
    assert "SH002" in _codes(await s.diagnostics(tree.ws_demo, lambda ds: "SH002" in _codes(ds)))


async def test_an_open_the_server_reads_after_its_folder_moved_away_follows_the_disk(start, tree, profile):
    """The editor read the file and sent didOpen, and the folder moved out of the workspace before the
    server read the message (a loaded machine: the test above failed so in CI, its wait for SH002 being
    met by the publish at index time). What the editor loaded is what the disk held: the buffer has no
    edits, and the copy goes with its folder as in `skill-ls check`."""
    _in_scope_tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    folder, away = tree.ws_demo.parent, tree.tmp / "moved-away" / "demo"
    text = tree.ws_demo.read_text(encoding="utf-8")
    away.parent.mkdir(parents=True, exist_ok=True)
    seen = await s.changes_seen()
    folder.rename(away)
    s.open(tree.ws_demo, text)  # (read before the move)
    _client_reports(s, folder, types.FileChangeType.Deleted)
    _client_reports(s, away, types.FileChangeType.Created)
    await s.idle(after=seen)
    expected = await _matches_cli(s, tree, tree.ws)
    assert str(tree.ws_demo) not in expected and "RF001" in expected[str(tree.other)]


def _codes(items) -> list[str]:
    return sorted(str(d.code) for d in items)


async def test_every_sidecar_check_reads_is_watched(start, tree, profile):
    """A sidecar broken on disk (AGH's capabilities.toml next to an agent) reaches the editor as
    `skill-ls check` reports it, whoever watches the workspace (the client through the globs the
    server registered, or the server itself)."""
    _in_scope_tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    caps = write(tree.agent.parent / "capabilities.toml", "tools = [unclosed\n", dedent=False)
    _client_reports(s, caps, types.FileChangeType.Created)
    expected = await _matches_cli(s, tree, tree.ws)
    assert "MC001" in expected[str(caps)]


async def test_client_settings_change_updates_unopened_files(start, tree, profile):
    _in_scope_tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"skillLs": {"rules": {"ignore": ["SH"]}}}))
    await settle_async(lambda: _editor_codes(s),
                       lambda c: not any(x.startswith("SH") for codes in c.values() for x in codes))


async def test_reindex_command_keeps_every_file_true(start, tree, profile):
    _in_scope_tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    refreshes = s.refreshes
    await s.command("skillLs.reindex", {})
    await _matches_cli(s, tree, tree.ws)
    if s.pull:
        await settle(lambda: s.refreshes > refreshes)


async def test_catalog_fingerprint_changes_when_a_description_changes(start, tree, profile):
    """The catalog preview must refresh on any change to a catalog, not only on the skill count."""
    tree.standard()
    s = await start(profile)
    first = s.index_changes[-1]
    assert first.catalog and first.skills == 4
    s.open(tree.other)
    text = tree.other.read_text()
    s.change(tree.other, text.replace("Other skill.", "Another description."), version=2)
    changed = await settle(lambda: next((c for c in s.index_changes if c.catalog != first.catalog), None))
    assert changed.skills == first.skills
    catalog = await s.command("skillLs.renderCatalog", {})
    assert "Another description." in catalog["text"]


async def settle_async(produce, predicate, timeout: float = TIMEOUT):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await produce()
        if predicate(value):
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"never matched: {value}")
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("count", [60])
async def test_push_is_batched_and_not_repeated(start, tree, profile, count):
    """Every unopened file gets its diagnostics; a re-index that changes nothing sends nothing again
    for files that are not open (push must not flood the client)."""
    if profile == "pull-refresh":
        pytest.skip("pull clients are never pushed to")
    tree.standard()
    for i in range(count):
        skill(tree.ws / ".agh" / "skills", f"s{i:03d}", description="x" * 2000)  # BG/SK010-class findings
    s = await start(profile)
    sent: list[str] = []
    fm = s.client.protocol.fm
    original = fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params):
        sent.append(params.uri)
        return original(params)

    fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    expected = await _matches_cli(s, tree, tree.ws)
    assert len(expected) >= count
    sent.clear()
    before = len(s.index_changes)
    await s.command("skillLs.reindex", {})
    await s.wait_index_changes(before + 1)
    await s.idle()  # the re-index's publishing is done: whatever it would send has been sent
    await _matches_cli(s, tree, tree.ws)
    assert sent == [], f"{len(sent)} identical diagnostics pushed again"


def _cli_messages(tree, workspace: Path, code: str) -> dict[str, list[str]]:
    """What `skill-ls check` says (its checker in process): path -> sorted messages of one rule."""
    out: dict[str, list[str]] = {}
    for d in check_tree(workspace).diagnostics:
        if d.code == code:  # the editor names the runtime after the message, as the converter does
            message = d.message + (f" [{d.runtime}]" if d.runtime else "")
            out.setdefault(str(Path(d.path).resolve()), []).append(message)
    return {p: sorted(m) for p, m in out.items()}


async def _editor_messages(s, code: str) -> dict[str, list[str]]:
    items = await _pulled(s) if s.pull else dict(s.client.diagnostics)
    out: dict[str, list[str]] = {}
    for u, diags in items.items():
        msgs = sorted(d.message for d in diags if str(d.code) == code)
        if msgs:
            out[types_path(u)] = msgs
    return out


async def test_listing_budget_findings_follow_changes_to_other_files(start, tree, profile):
    """BG002 is about the whole listing: shortening one skill's description in the editor, or a new
    skill on disk, moves the cut for skills that are not open. Every file's BG002 (where the cut
    falls, the entry numbers) stays equal to `skill-ls check`, without flooding: the files whose
    finding did not change are not pushed again."""
    root = tree.ws / ".agents" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 900 + ". Use when testing.") for i in range(12)]
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["codex"]\n', dedent=False)
    s = await start(profile)

    async def matches() -> dict[str, list[str]]:
        expected = _cli_messages(tree, tree.ws, "BG002")
        return await settle_async(lambda: _editor_messages(s, "BG002"), lambda got: got == expected)

    before = await matches()
    assert str(files[-1].resolve()) in before
    # Two descriptions shortened: the ~1,800 characters freed are more than one entry (~900 + its
    # path), so the cut moves however long the temporary directory's path is.
    edited = files[:2]
    sent: list[str] = []
    fm = s.client.protocol.fm
    original = fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lambda params: sent.append(types_path(params.uri)) or original(params)
    for f in edited:
        s.open(f)
        s.change(f, f.read_text().replace("d" * 900, "Short"), version=2)
        f.write_text(f.read_text().replace("d" * 900, "Short"))  # check reads the disk
    after = await matches()
    assert after != before  # the cut moved: fewer skills fall out (the grouped findings say how many)
    await s.idle()
    if not s.pull:  # only the open files and the files whose finding changed were pushed
        opened = {str(f.resolve()) for f in edited}
        changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
        assert set(sent) <= opened | changed and changed <= set(sent) | opened, sent
    first = skill(root, "a-first", description="e" * 900 + ". Use when testing.")  # a new first entry
    if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(first), types.FileChangeType.Created)]))
    again = await matches()
    assert again != after


async def test_a_reference_into_another_skill_follows_its_winner(start, tree, profile):
    """`skill_read_file("demo", "references/guide.md")` in `other` reads the copy of `demo` that wins:
    when the workspace copy (the one with the guide) is deleted, the user copy wins and `other`, never
    opened, gets RF001 — as `skill-ls check` says — and loses it when the copy is back."""
    tree.standard()
    s = await start(profile)
    expected = await _matches_cli(s, tree, tree.ws)
    assert "RF001" not in expected.get(str(tree.other), [])
    text = tree.ws_demo.read_text()
    tree.ws_demo.unlink()
    if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(tree.ws_demo), types.FileChangeType.Deleted)]))
    expected = await _matches_cli(s, tree, tree.ws)
    assert "RF001" in expected[str(tree.other)]
    tree.ws_demo.write_text(text)
    if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(tree.ws_demo), types.FileChangeType.Created)]))
    expected = await _matches_cli(s, tree, tree.ws)
    assert "RF001" not in expected.get(str(tree.other), [])


async def test_a_skill_directory_moved_away_leaves_no_diagnostics_behind(start, tree, profile):
    """Renaming or moving a skill's directory out of its root (one directory event under watchdog,
    no event for the SKILL.md inside): the old file's diagnostics go, the copies it shadowed update."""
    import shutil

    _in_scope_tree(tree)
    s = await start(profile)
    expected = await _matches_cli(s, tree, tree.ws)
    assert "SH002" in expected[str(tree.ws_demo)]
    shutil.move(str(tree.ws_demo.parent), tree.tmp / "moved-demo")
    if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(tree.ws_demo), types.FileChangeType.Deleted)]))
    expected = await _matches_cli(s, tree, tree.ws)
    assert str(tree.ws_demo) not in expected
