"""Files a skill references, changing on disk (issue 10): a SKILL.md whose body links
`references/guide.md`, runs `${SKILL_DIR}/scripts/run.py` or links an asset gets RF001 when the target
is missing and RF004 when a reference links further files. When such a file is deleted, created,
renamed or edited on disk — the SKILL.md open or never opened — every client's diagnostics change to
equal `skill-ls check --format json` without the user typing.

Profiles: push only with the client watching the workspace through plain globs (VS Code 1.65), mixed
(Neovim 0.11: the server pushes and watches the workspace itself), pull with refresh (the server
watches), and pull with refresh with the client watching through relative patterns (modern VS Code).
"""
from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types

from tests.conftest import skill, write
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, VSCODE_PULL, client_reports, delete_reported, settle
from tests.lsp.test_truth import _matches_cli

PROFILES = (*DIAGNOSTIC_PROFILES, VSCODE_PULL)
CREATED, CHANGED, DELETED = types.FileChangeType.Created, types.FileChangeType.Changed, types.FileChangeType.Deleted


def _codes(items) -> list[str]:
    return sorted(str(d.code) for d in items)


def _tree(tree):
    """The standard tree (workspace `demo` links references/guide.md) plus a skill that runs a script
    through `${SKILL_DIR}` and links an asset, and a skill outside every runtime root (a repository of
    skills: checked under the base rules) that links its notes."""
    tree.standard()
    root = tree.ws / ".agh" / "skills"
    tree.guide = tree.ws_demo.parent / "references" / "guide.md"
    tree.tools = skill(root, "tools", description="Runs tools. Use when testing.",
                       body="# Tools\n\nRun `python ${SKILL_DIR}/scripts/run.py` and fill "
                            "[the template](assets/template.txt).\n")
    tree.script = write(tree.tools.parent / "scripts" / "run.py", "print('hi')\n")
    tree.asset = write(tree.tools.parent / "assets" / "template.txt", "Dear X,\n")
    tree.loose = skill(tree.ws / "skills", "lonely", description="A loose skill. Use when testing.",
                       body="# Lonely\n\nRead [the notes](references/notes.md).\n")
    tree.notes = write(tree.loose.parent / "references" / "notes.md", "# Notes\n")
    return tree


async def _asked(s, mark: int) -> None:
    """A pull client has been asked to re-pull since it had received `mark` refresh requests."""
    if s.pull:
        await settle(lambda: s.refreshes > mark)


async def _truth(s, tree, workspace: Path, mark: int) -> dict[str, list[str]]:
    """After a change made when the client had received `mark` refresh requests: a pull client must
    have been asked to re-pull (the test client pulls on its own; VS Code pulls when asked), then the
    editor equals `skill-ls check`."""
    await _asked(s, mark)
    return await _matches_cli(s, tree, workspace)


def _create(s, path: Path, text: str) -> int:
    mark = s.refreshes
    write(path, text, dedent=False)
    client_reports(s, path, CREATED)
    return mark


def _rename(s, path: Path, to: Path) -> int:
    mark = s.refreshes
    path.rename(to)
    client_reports(s, path, DELETED)
    client_reports(s, to, CREATED)
    return mark


async def test_a_referenced_file_deleted_created_and_renamed_reaches_unopened_skills(start, tree, profile):
    """Nothing open: each change to a referenced file alone (no SKILL.md touched) moves RF001 on the
    skill that references it, as `skill-ls check` says, for a root's skill, a script run through
    `${SKILL_DIR}`, an asset, a skill outside every root, and a skill that reads another skill's file
    by name (`skill_read_file("demo", "references/guide.md")` in `other`)."""
    _tree(tree)
    s = await start(profile)
    before = await _matches_cli(s, tree, tree.ws)
    assert not any("RF001" in codes for codes in before.values()), before
    mark = delete_reported(s, tree.guide)
    got = await _truth(s, tree, tree.ws, mark)
    assert "RF001" in got[str(tree.ws_demo)] and "RF001" in got[str(tree.other)]
    mark = _create(s, tree.guide, "# Guide\n")
    assert await _truth(s, tree, tree.ws, mark) == before
    mark = _rename(s, tree.guide, tree.guide.with_name("old-guide.md"))
    assert "RF001" in (await _truth(s, tree, tree.ws, mark))[str(tree.ws_demo)]
    mark = _rename(s, tree.guide.with_name("old-guide.md"), tree.guide)
    assert await _truth(s, tree, tree.ws, mark) == before
    for path in (tree.script, tree.asset, tree.notes):
        text = path.read_text()
        mark = delete_reported(s, path)
        got = await _truth(s, tree, tree.ws, mark)
        owner = tree.loose if path == tree.notes else tree.tools
        assert "RF001" in got[str(owner)], (path, got)
        mark = _create(s, path, text)
        assert await _truth(s, tree, tree.ws, mark) == before


async def test_a_referenced_file_deleted_reaches_the_open_skill(start, tree, profile):
    """The SKILL.md open and never edited: deleting its reference on disk brings RF001 to the buffer
    without typing; restoring the file takes it away."""
    _tree(tree)
    s = await start(profile)
    s.open(tree.ws_demo)
    s.open(tree.loose)
    await s.diagnostics(tree.ws_demo, lambda ds: "RF001" not in _codes(ds))
    await _asked(s, delete_reported(s, tree.guide))
    await s.diagnostics(tree.ws_demo, lambda ds: "RF001" in _codes(ds))
    await _asked(s, delete_reported(s, tree.notes))
    await s.diagnostics(tree.loose, lambda ds: "RF001" in _codes(ds))
    await _matches_cli(s, tree, tree.ws)
    await _asked(s, _create(s, tree.guide, "# Guide\n"))
    await s.diagnostics(tree.ws_demo, lambda ds: "RF001" not in _codes(ds))


async def test_a_references_directory_deleted_as_a_whole(start, tree, profile):
    """`rm -r references/` (a client reports the directory alone): the skill gets RF001."""
    _tree(tree)
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    mark = delete_reported(s, tree.guide.parent)
    assert "RF001" in (await _truth(s, tree, tree.ws, mark))[str(tree.ws_demo)]


async def test_a_reference_edited_on_disk_to_link_further_files(start, tree, profile):
    """RF004 reads the referenced file's own links: editing it on disk (a change event for a file
    that is not a SKILL.md) moves RF004 on the SKILL.md that links it."""
    _tree(tree)
    write(tree.guide.parent / "deeper.md", "# Deeper\n")
    s = await start(profile)
    assert "RF004" not in (await _matches_cli(s, tree, tree.ws)).get(str(tree.ws_demo), [])
    mark = s.refreshes
    tree.guide.write_text("# Guide\n\nThen read [more](deeper.md).\n")
    client_reports(s, tree.guide, CHANGED)
    assert "RF004" in (await _truth(s, tree, tree.ws, mark))[str(tree.ws_demo)]
    mark = s.refreshes
    tree.guide.write_text("# Guide\n")
    client_reports(s, tree.guide, CHANGED)
    assert "RF004" not in (await _truth(s, tree, tree.ws, mark)).get(str(tree.ws_demo), [])


async def test_a_reference_of_a_user_skill_open_outside_the_workspace(start, tree, profile):
    """A skill in `$AGH_HOME/skills` (outside every folder: diagnostics while open) whose reference is
    deleted on disk: the server watches that root itself, for every client."""
    _tree(tree)
    mine = skill(tree.agh_home / "skills", "mine", description="Mine. Use when testing.",
                 body="# Mine\n\nSee [x](references/x.md).\n")
    ref = write(mine.parent / "references" / "x.md", "# X\n")
    s = await start(profile)
    s.open(mine)
    await s.diagnostics(mine, lambda ds: "RF001" not in _codes(ds))
    mark = s.refreshes
    ref.unlink()
    await _asked(s, mark)
    await s.diagnostics(mine, lambda ds: "RF001" in _codes(ds))
    mark = s.refreshes
    write(ref, "# X\n")
    await _asked(s, mark)
    await s.diagnostics(mine, lambda ds: "RF001" not in _codes(ds))


async def test_two_folders_each_follow_their_references(start, tree, profile):
    """Two workspace folders, each its own project: a reference deleted in the second folder reaches
    its unopened skill, as `skill-ls check` over that folder says, and the first folder is untouched."""
    _tree(tree)
    ws2 = tree.tmp / "project-two"  # (not "ws2": the checks below select files by path prefix)
    write(ws2 / ".skill-ls.toml", 'runtimes = ["agh"]\n', dedent=False)
    second = skill(ws2 / ".agh" / "skills", "second", description="Second. Use when testing.",
                   body="# Second\n\nSee [the doc](docs/how.md).\n")
    how = write(second.parent / "docs" / "how.md", "# How\n")
    s = await start(profile, folders=[tree.ws, ws2])
    first = await _matches_cli(s, tree, tree.ws)
    await _matches_cli(s, tree, ws2)
    mark = delete_reported(s, how)
    assert "RF001" in (await _truth(s, tree, ws2, mark))[str(second)]
    assert await _matches_cli(s, tree, tree.ws) == first
    mark = _create(s, how, "# How\n")
    assert "RF001" not in (await _truth(s, tree, ws2, mark)).get(str(second), [])


async def test_the_client_watches_roots_not_the_whole_workspace(start, tree, profile):
    """Watch traffic: a client that watches for the server is asked for the skill files and sidecars
    anywhere, everything inside a root, agent directory or skill directory of the workspace, and the
    creation or deletion of the directories on the way to a root — never every path of the workspace
    (`npm install`, a build's output: thousands of events, none of them ours)."""
    _tree(tree)
    s = await start(profile)
    if not any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        return  # the server watches (watchdog) and filters in its own thread
    build = tree.ws / "build" / "out"
    build.mkdir(parents=True)
    for kind in (CREATED, CHANGED, DELETED):
        assert not client_reports(s, build, kind)
        assert not client_reports(s, build / "bundle.js", kind)
        assert not client_reports(s, tree.ws / "node_modules" / "x" / "index.js", kind)
    assert client_reports(s, tree.guide, CHANGED)  # inside a root
    assert client_reports(s, tree.notes, CHANGED)  # inside a skill directory outside every root
    assert client_reports(s, tree.ws / ".agh", DELETED)  # on the way to a root
    assert client_reports(s, tree.ws / ".claude", CREATED)  # a root that does not exist yet
    os.makedirs(tree.ws / "skills" / "new-one")
    assert client_reports(s, tree.ws / "skills" / "new-one" / "SKILL.md", CREATED)  # skill files anywhere
