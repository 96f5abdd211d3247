"""Configuration layers: initializationOptions, workspace/configuration, .skill-ls.toml (reloaded on
change), and a bad configuration reported as a diagnostic on the file, never a crash."""
from __future__ import annotations


from lsprotocol import types

from tests.conftest import skill, write
from tests.lsp.conftest import settle, uri


def _codes(items):
    return sorted(str(d.code) for d in items)


async def test_initialization_options(start, tree, profile):
    tree.standard()
    (tree.ws / ".skill-ls.toml").unlink()
    s = await start(profile, init_options={"runtimes": ["agh"], "agh": {"bundledRoots": [str(tree.bundled)]}})
    status = await s.command("skillLs.status", {})
    assert status["skills"] == 4 and status["runtimes"] == ["agh"]


async def test_workspace_configuration_section(start, tree, profile):
    tree.standard()
    s = await start(profile, settings={"rules": {"ignore": ["SH001"]}})
    s.open(tree.user_demo)
    items = await s.diagnostics(tree.user_demo, lambda ds: True)
    assert "SH001" not in _codes(items)


async def test_did_change_configuration_reloads(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" in _codes(ds))
    before = len(s.index_changes)
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"skillLs": {"rules": {"ignore": ["SH"]}}}))
    await s.wait_index_changes(before + 1)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" not in _codes(ds))


async def test_bad_config_is_a_diagnostic_and_the_server_carries_on(start, tree, profile):
    tree.standard()
    cfg = write(tree.ws / ".skill-ls.toml", 'runtimes = ["agh"]\nbogus_key = 1\n', dedent=False)
    s = await start(profile)
    items = await s.diagnostics(cfg, lambda ds: bool(ds))
    assert "bogus_key" in items[0].message and items[0].severity == types.DiagnosticSeverity.Error
    # defaults apply: AGH is still found through its roots, and requests work
    status = await s.command("skillLs.status", {})
    assert "agh" in status["runtimes"]
    # fixing the file on disk reloads the configuration and clears the diagnostic
    before = len(s.index_changes)
    write(cfg, f'runtimes = ["agh"]\n[agh]\nbundled_roots = ["{tree.bundled}"]\n', dedent=False)
    if not s.pull:  # VS Code watches workspace files itself: tell the server like it would
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(cfg), type=types.FileChangeType.Changed)]))
    await s.wait_index_changes(before + 1)
    await s.diagnostics(cfg, lambda ds: not ds)
    assert (await s.command("skillLs.status", {}))["skills"] == 4


async def test_a_typo_in_the_config_file_suggests_the_key_and_keeps_the_rest(start, tree, profile):
    """Issue 22: a typo'd key in `.skill-ls.toml` got no did-you-mean, and the whole file fell back to
    the defaults (every runtime active again). The key is reported with the closest known key and
    left out; the rest of the file applies (here: AGH only, and the valid bundled root)."""
    tree.standard()
    cfg = write(tree.ws / ".skill-ls.toml",
                f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{tree.bundled}"]\ndisabeld = ["other"]\n', dedent=False)
    skill(tree.ws / ".claude" / "skills", "claude-only", description="Claude only. Use when testing.")
    s = await start(profile)
    items = await s.diagnostics(cfg, lambda ds: bool(ds))
    [d] = items
    assert d.code == "CF001" and d.range.start.line == 4, d
    assert "unknown key 'disabeld' in [agh]; did you mean 'disabled'?" in d.message, d.message
    assert "the rest of the file applies" in d.message, d.message
    status = await s.command("skillLs.status", {})
    assert status["runtimes"] == ["agh"], status  # not the defaults: claude-code stays off
    assert status["skills"] == 4, status  # the bundled root of the same table still applies
    assert not any("disabeld" in m.message for m in s.client.messages)  # a diagnostic, not a prompt


async def test_bad_client_settings_are_a_message(start, tree, profile):
    tree.standard()
    s = await start(profile, init_options={"runtimes": 42})
    await settle(lambda: any("client settings" in m.message for m in s.client.messages))
    assert (await s.command("skillLs.status", {}))["skills"] == 4


def _vscode_defaults() -> dict:
    """What VS Code's language client sends for the `skillLs` section: every declared setting with
    its default, dotted keys nested (`agh.home` is "")."""
    import json
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "editors" / "vscode" / "package.json"
    props = json.loads(package.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    out: dict = {}
    for key, prop in props.items():
        parts = key.split(".")[1:]
        node = out
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = prop["default"]
    return out


async def test_vscode_defaults_are_accepted_without_a_warning(start, tree):
    """Issue 10: a real VS Code sends every default in workspace/didChangeConfiguration and the server
    answered "ignoring client settings: 'agh.home' must be a path string", ignoring every setting."""
    tree.standard()
    defaults = _vscode_defaults()
    s = await start("visual-studio-code", init_options=defaults)
    s.open(tree.user_demo)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" in _codes(ds))
    before = len(s.index_changes)
    settings = {**defaults, "rules": {**defaults["rules"], "ignore": ["SH"]}}
    s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"skillLs": settings}))
    await s.wait_index_changes(before + 1)
    await s.diagnostics(tree.user_demo, lambda ds: "SH001" not in _codes(ds))  # the user's setting took effect
    assert not [m.message for m in s.client.messages], "the server complained about the extension's settings"
