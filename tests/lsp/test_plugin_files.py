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


async def test_plugin_json_paths_are_links_and_definitions(start, tree, profile):
    root = tree.ws / "plugins" / "p"
    agent = write(root / "custom" / "reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n",
                  dedent=False)
    (root / "cmds").mkdir(parents=True)
    manifest = write(root / ".claude-plugin" / "plugin.json",
                     '{\n  "name": "p",\n  "agents": ["./custom/reviewer.md", "./missing.md"],\n  "commands": "./cmds"\n}\n',
                     dedent=False)
    market = write(tree.ws / ".claude-plugin" / "marketplace.json",
                   '{"name": "m", "owner": {"name": "A"}, "plugins": [{"name": "p", "source": "./plugins/p"}]}\n',
                   dedent=False)
    s = await start(profile)
    s.open(manifest)
    links = await s.request(s.client.text_document_document_link_async(
        types.DocumentLinkParams(types.TextDocumentIdentifier(uri(manifest)))))
    assert [(l.range.start.line, l.range.start.character, l.target) for l in links] == [
        (2, 14, uri(agent)), (3, 15, uri(root / "cmds"))]
    locs = await s.request(s.client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(manifest)), types.Position(line=2, character=20))))
    assert [loc.uri for loc in locs] == [uri(agent)]
    assert not await s.request(s.client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(manifest)), types.Position(line=1, character=4))))
    s.open(market)
    links = await s.request(s.client.text_document_document_link_async(
        types.DocumentLinkParams(types.TextDocumentIdentifier(uri(market)))))
    assert [l.target for l in links] == [uri(manifest)]


async def test_hover_on_a_plugin_path_and_a_command(start, tree, profile):
    root = tree.ws / "plugins" / "p"
    write(root / "custom" / "reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n", dedent=False)
    manifest = write(root / ".claude-plugin" / "plugin.json", '{"name": "p", "agents": ["./custom/reviewer.md"]}\n',
                     dedent=False)
    command = write(root / "commands" / "frontend" / "review.md", "---\ndescription: Review.\n---\nGo.\n", dedent=False)
    s = await start(profile)
    s.open(manifest)
    found = await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(manifest)), types.Position(line=0, character=30))))
    assert "plugins/p/custom/reviewer.md" in found.contents.value and "a plugin agent" in found.contents.value
    s.open(command)
    found = await s.request(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(command)), types.Position(line=0, character=1))))
    assert "`/p:frontend:review`" in found.contents.value


async def test_inline_and_declared_hooks_and_mcp_servers_live(start, tree, profile):
    """plugin.json's inline `hooks`/`mcpServers` get HK001/MS findings in plugin.json; a hooks file and
    an MCP config it names by path are checked as such when opened; an edit re-checks them."""
    root = tree.ws / "plugins" / "p"
    manifest = write(root / ".claude-plugin" / "plugin.json",
                     '{"name": "p", "hooks": {"PreToolUse": [{"hooks": [{"command": "x"}]}]},\n'
                     ' "mcpServers": {"s": {"command": "node", "args": "--port 1"}}}\n', dedent=False)
    hooks = write(root / "config" / "h.json", '{"hooks": {"Stop": [{"hooks": [{"type": "nope"}]}]}}\n', dedent=False)
    mcp = write(root / "config" / "m.json", '{"s": {"type": "http"}}\n', dedent=False)
    s = await start(profile)
    s.open(manifest)
    got = await s.diagnostics(manifest, lambda ds: {"HK001", "MS008"} <= set(_codes(ds)))
    assert {"HK001", "MS008"} <= set(_codes(got))
    declared = '{"name": "p", "hooks": "./config/h.json", "mcpServers": ["./config/m.json"]}\n'
    s.change(manifest, declared, version=2)
    await s.diagnostics(manifest, lambda ds: not {"HK001", "MS008"} & set(_codes(ds)))
    manifest.write_text(declared)  # saved: the files it names are the plugin's hooks and MCP config
    for path, code in ((hooks, "HK001"), (mcp, "MS001")):
        s.open(path)
        got = await s.diagnostics(path, lambda ds, code=code: code in _codes(ds))
        assert code in _codes(got), path


async def test_the_users_settings_hooks_outside_the_workspace(start, tree, profile):
    """~/.claude/settings.json (the server's private HOME) opened beside a project: its hooks are checked
    (HK001, HK002, HK003 with `~` resolved), and an edit in the editor re-checks them."""
    user = write(tree.home / ".claude" / "settings.json",
                 '{"hooks": {"SessionStart": [{"hooks": [{"type": "prompt", "prompt": "x"},\n'
                 ' {"type": "command", "command": "~/.claude/hooks/start.sh"}]}],\n'
                 ' "PreToolUse": [{"hooks": [{"command": "x"}]}]}}\n', dedent=False)
    s = await start(profile)
    s.open(user)
    got = await s.diagnostics(user, lambda ds: {"HK001", "HK002", "HK003"} <= set(_codes(ds)))
    assert {"HK001", "HK002", "HK003"} <= set(_codes(got))
    s.change(user, '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}\n', version=2)
    await s.diagnostics(user, lambda ds: not _codes(ds))


async def test_hook_scripts_are_links_and_definitions(start, tree, profile):
    """A hook command whose script is certain and exists is a document link to it, and go-to-definition
    on it opens the script: in hooks.json and in a skill's frontmatter."""
    root = tree.ws / "plugins" / "p"
    write(root / ".claude-plugin" / "plugin.json", '{"name": "p"}\n', dedent=False)
    script = write(root / "scripts" / "fmt.sh", "#!/bin/sh\n", dedent=False)
    hooks = write(root / "hooks" / "hooks.json", '{"hooks": {"Stop": [{"hooks": [{"type": "command",\n'
                  ' "command": "${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh"}]}]}}\n', dedent=False)
    skill_md = write(root / "skills" / "fmt" / "SKILL.md",
                     "---\nname: fmt\ndescription: Formats. Use when formatting.\nhooks:\n  Stop:\n    - hooks:\n"
                     "        - {type: command, command: \"${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh\"}\n---\nGo.\n",
                     dedent=False)
    s = await start(profile)
    for path, line, col in ((hooks, 1, 14), (skill_md, 6, 40)):
        s.open(path)
        links = await s.request(s.client.text_document_document_link_async(
            types.DocumentLinkParams(types.TextDocumentIdentifier(uri(path)))))
        assert [l.target for l in links] == [uri(script)], path
        locs = await s.request(s.client.text_document_definition_async(types.DefinitionParams(
            types.TextDocumentIdentifier(uri(path)), types.Position(line=line, character=col))))
        assert [loc.uri for loc in locs] == [uri(script)], path
