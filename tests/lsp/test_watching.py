"""The live index: dynamic registration of watched files where offered, watchdog otherwise, and
roots outside the workspace always watched with watchdog; work-done progress while indexing."""
from __future__ import annotations

import shutil

from lsprotocol import types

from tests.conftest import skill
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, uri

# A pull client is asked to re-pull after a change on disk; the others are pushed to.
PROFILES = DIAGNOSTIC_PROFILES


def _codes(items):
    return sorted(str(d.code) for d in items)


async def test_watched_files_registration_by_profile(start, tree, profile):
    tree.standard()
    s = await start(profile)
    methods = [r.method for r in s.registrations]
    if profile == "visual-studio-code":
        assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods
        reg = next(r for r in s.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
        globs = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in
                 (reg.register_options["watchers"] if isinstance(reg.register_options, dict)
                  else reg.register_options.watchers)]
        assert "**/SKILL.md" in globs
    else:
        assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES not in methods


async def test_new_workspace_skill_updates_open_file(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.other)
    await s.diagnostics(tree.other, lambda ds: "SH001" not in _codes(ds))
    # a higher tier for `other` does not exist in AGH, so copy it into a second workspace root layout:
    # the agent-local overlay is the highest tier; the workspace copy becomes SH001 for that agent only,
    # so use the user tier instead and check the winner's SH002 appears.
    skill(tree.agh_home / "skills", "other", description="User copy.")  # outside the workspace: watchdog, whatever the client offers
    await s.diagnostics(tree.other, lambda ds: "SH002" in _codes(ds))
    # a new skill inside the workspace: reported by the client (VS Code) or watchdog (Neovim)
    dup = skill(tree.ws / ".agh" / "skills" / "nested", "demo", description="Same tier, same name.")
    if profile == "visual-studio-code":
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(dup), type=types.FileChangeType.Created)]))
    s.open(tree.ws_demo)
    await s.diagnostics(tree.ws_demo, lambda ds: "SH003" in _codes(ds))


async def test_deleting_a_skill_directory_updates_shadowing(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" in _codes(ds))
    shutil.rmtree(tree.ws / ".agh" / "skills" / "demo")
    if profile == "visual-studio-code":
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(tree.ws_demo), type=types.FileChangeType.Deleted)]))
    items = await s.diagnostics(tree.user_demo, lambda ds: "SH001" not in _codes(ds) and "SH002" in _codes(ds))
    assert "SH002" in _codes(items)  # the user copy now wins over the bundled one


async def test_indexing_reports_work_done_progress(start, tree, profile):
    tree.standard()
    s = await start(profile)
    kinds = [v.kind for values in s.client.progress_reports.values() for v in values]
    assert kinds[0] == "begin" and kinds[-1] == "end"


def test_the_directory_watcher_keeps_only_directories_that_can_hold_skills(tmp_path):
    """VS Code reports every path created or deleted in the workspace to the directory watcher
    (`**/*`); the server keeps a directory inside or above a root or agent directory, and drops the
    rest before any analysis (a build writing thousands of files costs one stat each)."""
    from skill_ls.server.features.watching import relevant_directory

    ws = tmp_path / "ws"
    root = str(ws / "shared" / ".agh" / "skills")
    (ws / "shared" / ".agh" / "skills" / "code-review").mkdir(parents=True)
    (ws / "build" / "out").mkdir(parents=True)
    (ws / "notes.txt").write_text("x")
    dirs = [root]
    # moved away or deleted: gone, its place decides
    assert relevant_directory(str(ws / "shared"), False, dirs)  # above the root
    assert relevant_directory(root + "/code-review", False, dirs)  # a skill folder
    assert not relevant_directory(str(ws / "build"), False, dirs)
    # created: only a directory
    assert relevant_directory(root + "/code-review", True, dirs)
    assert not relevant_directory(str(ws / "build" / "out"), True, dirs)
    assert not relevant_directory(str(ws / "notes.txt"), True, [str(ws)])


async def test_a_gemini_extension_linked_later_is_followed(start, tree, profile):
    """`gemini extensions link <path>` while the editor is open: the new extension folder under
    `~/.gemini/extensions` (outside the workspace: watchdog) holds only the link file, and the server
    rebuilds and reads the linked source; an edit there is live; unlinking drops it again."""
    import json
    import os

    from tests.conftest import write

    extensions = tree.home / ".gemini" / "extensions"
    write(extensions / "extension-enablement.json", "{}")  # (an earlier install: the folder exists)
    mine = skill(tree.ws / ".gemini" / "skills", "lint", description="Workspace lint.")
    dev = tree.tmp / "dev" / "tools"
    write(dev / "gemini-extension.json", '{"name": "tools", "version": "1.0.0"}')
    linked = skill(dev / "skills", "lint", description="Extension lint.")
    s = await start(profile)
    s.open(mine)
    await s.diagnostics(mine, lambda ds: "SH002" not in _codes(ds))
    staged = tree.tmp / "staged"
    write(staged / ".gemini-extension-install.json", json.dumps({"source": str(dev), "type": "link"}))
    os.rename(staged, extensions / "tools")
    await s.diagnostics(mine, lambda ds: "SH002" in _codes(ds))  # the workspace copy shadows the linked one
    write(linked, "---\nname: lint-all\ndescription: Extension lint.\n---\nBody.\n")  # an edit in the source
    await s.diagnostics(mine, lambda ds: "SH002" not in _codes(ds))
    write(linked, "---\nname: lint\ndescription: Extension lint.\n---\nBody.\n")
    await s.diagnostics(mine, lambda ds: "SH002" in _codes(ds))
    # The source's manifest (outside the home directory and the workspace: watched in its folder).
    write(dev / "gemini-extension.json", '{"name": "tools"}')  # no "version": Gemini CLI skips it
    await s.diagnostics(mine, lambda ds: "SH002" not in _codes(ds))
    write(dev / "gemini-extension.json", '{"name": "tools", "version": "1.0.1"}')
    await s.diagnostics(mine, lambda ds: "SH002" in _codes(ds))
    shutil.rmtree(extensions / "tools")  # `gemini extensions uninstall tools`
    await s.diagnostics(mine, lambda ds: "SH002" not in _codes(ds))


async def test_an_installed_extension_s_manifest_is_watched(start, tree, profile):
    """`gemini-extension.json` decides whether Gemini CLI loads an extension (`loadExtensionConfig`:
    it exists, is JSON, has a `name` and a `version`): editing it under `~/.gemini/extensions`
    (outside the workspace: watchdog) changes what the editor shows as `skill-ls check` would."""
    from tests.conftest import write

    manifest = write(tree.home / ".gemini" / "extensions" / "tools" / "gemini-extension.json",
                     '{"name": "tools", "version": "1.0.0"}')
    skill(tree.home / ".gemini" / "extensions" / "tools" / "skills", "lint", description="Extension lint.")
    mine = skill(tree.ws / ".gemini" / "skills", "lint", description="Workspace lint.")
    s = await start(profile)
    s.open(mine)
    await s.diagnostics(mine, lambda ds: "SH002" in _codes(ds))  # the workspace copy shadows the extension's
    write(manifest, '{"name": "tools"}')  # no "version": Gemini CLI skips the extension
    await s.diagnostics(mine, lambda ds: "SH002" not in _codes(ds))
    write(manifest, '{"name": "tools", "version": "1.0.1"}')
    await s.diagnostics(mine, lambda ds: "SH002" in _codes(ds))
    manifest.unlink()  # not an extension any more
    await s.diagnostics(mine, lambda ds: "SH002" not in _codes(ds))


async def test_a_linked_source_s_manifest_in_the_workspace_is_watched(start, tree, profile):
    """A linked extension whose source is in the workspace (`gemini extensions link ./ext`): its
    `gemini-extension.json` is watched like a settings file (the client's `**/gemini-extension.json`,
    or watchdog); a manifest Gemini CLI refuses makes the source's skills «not discovered» (SH004),
    a valid one loads them again, as `skill-ls check` says."""
    import json

    from tests.conftest import write
    from tests.lsp.conftest import client_reports

    skill(tree.ws / ".gemini" / "skills", "x")
    source = tree.ws / "ext"
    manifest = write(source / "gemini-extension.json", '{"name": "tools", "version": "1.0.0"}')
    lint = skill(source / "skills", "lint")
    write(tree.home / ".gemini" / "extensions" / "tools" / ".gemini-extension-install.json",
          json.dumps({"source": str(source), "type": "link"}))
    s = await start(profile)
    s.open(lint)
    await s.diagnostics(lint, lambda ds: "SH004" not in _codes(ds))
    write(manifest, '{"name": "tools", "version": ""}')
    client_reports(s, manifest, types.FileChangeType.Changed)
    await s.diagnostics(lint, lambda ds: "SH004" in _codes(ds))
    write(manifest, '{"name": "tools", "version": "2.0.0"}')
    client_reports(s, manifest, types.FileChangeType.Changed)
    await s.diagnostics(lint, lambda ds: "SH004" not in _codes(ds))


async def test_gemini_s_folder_trust_is_watched(start, tree, profile):
    """Gemini CLI's Trusted Folders: turning `security.folderTrust.enabled` on in `~/.gemini/settings.json`
    and recording a decision in `~/.gemini/trustedFolders.json` (outside the workspace: watchdog)
    change whether the workspace's skills load, and the editor follows as `skill-ls check` would."""
    import json

    from tests.conftest import write

    settings = write(tree.home / ".gemini" / "settings.json", "{}")
    mine = skill(tree.ws / ".gemini" / "skills", "lint")
    s = await start(profile)
    s.open(mine)
    await s.diagnostics(mine, lambda ds: "SH004" not in _codes(ds))
    write(settings, json.dumps({"security": {"folderTrust": {"enabled": True}}}))
    await s.diagnostics(mine, lambda ds: "SH004" in _codes(ds))  # not decided: not loaded until trusted
    rules = write(tree.home / ".gemini" / "trustedFolders.json", json.dumps({str(tree.ws): "TRUST_FOLDER"}))
    await s.diagnostics(mine, lambda ds: "SH004" not in _codes(ds))
    write(rules, json.dumps({str(tree.ws): "DO_NOT_TRUST"}))
    await s.diagnostics(mine, lambda ds: "SH004" in _codes(ds))
