"""Claude Code plugin and project files live in the server as in `check`: plugin.json, hooks.json,
settings hooks, .mcp.json, commands; diagnostics on open, after an edit in the editor, and after a
change on disk (watched)."""
from __future__ import annotations

from lsprotocol import types

from tests.conftest import write
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, uri

PROFILES = DIAGNOSTIC_PROFILES


def _codes(items):
    return sorted(str(d.code) for d in items)


async def test_plugin_files_have_the_checks_diagnostics(start, tree, profile):
    root = tree.ws / "plugins" / "p"
    manifest = write(root / ".claude-plugin" / "plugin.json", '{"name": "p", "author": "bob"}\n', dedent=False)
    hooks = write(root / "hooks" / "hooks.json", '{"hooks": [{"matcher": "Edit"}]}\n', dedent=False)
    command = write(root / "commands" / "review.md", "---\ndescription: \"open\n---\nGo.\n", dedent=False)
    settings = write(tree.ws / ".claude" / "settings.json",
                     '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}}\n', dedent=False)
    s = await start(profile)
    for path, code in ((manifest, "PL001"), (hooks, "HK001"), (command, "SK003"), (settings, "HK001")):
        s.open(path)
        got = await s.diagnostics(path, lambda ds, code=code: code in _codes(ds))
        assert code in _codes(got), path
    # An edit in the editor fixes the manifest: its PL001 goes.
    s.change(manifest, '{"name": "p", "author": {"name": "Bob"}}\n', version=2)
    await s.diagnostics(manifest, lambda ds: "PL001" not in _codes(ds))
    # A fix on disk (watched) clears the hooks file.
    hooks.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}\n')
    if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(hooks), types.FileChangeType.Changed)]))
    s.close(hooks) if hasattr(s, "close") else None
    s.open(hooks, hooks.read_text(), version=3)
    await s.diagnostics(hooks, lambda ds: "HK001" not in _codes(ds))
