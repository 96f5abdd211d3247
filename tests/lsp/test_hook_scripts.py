"""The scripts Claude Code hooks run, changing on disk (issue 25): HK003 says a hook's script does not
exist where its path is certain (`${CLAUDE_PLUGIN_ROOT}/...` in a plugin's `hooks/hooks.json` or
`plugin.json`, `$CLAUDE_PROJECT_DIR/...` in `.claude/settings.json` and in the `hooks` of a project's
skills and subagents). When such a script is created, deleted or renamed on disk — the hook file open
or never opened — every client's diagnostics change to equal `skill-ls check` without the user typing.
The same for the files Claude Code reads beside skills (plugin.json and the paths it declares,
hooks.json, marketplace.json, `.mcp.json`, commands, plugin agents, settings) changed on disk.

Profiles: push with the client watching through plain globs (VS Code 1.65), mixed (Neovim 0.11: the
server pushes and watches the workspace itself), pull with refresh (the server watches), and pull with
refresh with the client watching through relative patterns (modern VS Code)."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.conftest import write
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, VSCODE_PULL, _watchers, client_reports, delete_reported, settle
from tests.lsp.test_truth import _matches_cli

PROFILES = (*DIAGNOSTIC_PROFILES, VSCODE_PULL)
CREATED, DELETED = types.FileChangeType.Created, types.FileChangeType.Deleted


def _codes(items) -> list[str]:
    return sorted(str(d.code) for d in items)


def _tree(tree):
    """A marketplace plugin whose hooks.json and plugin.json run scripts under `${CLAUDE_PLUGIN_ROOT}`,
    a project whose settings, skill and subagent run a script under `$CLAUDE_PROJECT_DIR`; no script
    exists yet."""
    ws = tree.ws
    write(ws / ".skill-ls.toml", 'runtimes = ["claude-code"]\n', dedent=False)
    root = ws / "plugins" / "p"
    tree.manifest = write(root / ".claude-plugin" / "plugin.json",
                          '{"name": "p", "hooks": {"Stop": [{"hooks": [{"type": "command", '
                          '"command": "${CLAUDE_PLUGIN_ROOT}/bin/stop.sh"}]}]}}\n', dedent=False)
    tree.hooks = write(root / "hooks" / "hooks.json",
                       '{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", '
                       '"command": "bash ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh"}]}]}}\n', dedent=False)
    tree.plugin_script = root / "scripts" / "fmt.sh"
    tree.stop_script = root / "bin" / "stop.sh"
    tree.settings = write(ws / ".claude" / "settings.json",
                          '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
                          '"command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/guard.sh"}]}]}}\n', dedent=False)
    hook = ("hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n"
            "          command: $CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh\n")
    tree.skill = write(ws / ".claude" / "skills" / "deploy" / "SKILL.md",
                       f"---\nname: deploy\ndescription: Deploys the app. Use when deploying.\n{hook}---\n"
                       "# Deploy\n\nDeploy it.\n", dedent=False)
    tree.agent = write(ws / ".claude" / "agents" / "db.md",
                       f"---\nname: db\ndescription: Runs read-only queries.\n{hook}---\nYou query.\n", dedent=False)
    tree.project_script = ws / ".claude" / "hooks" / "guard.sh"
    return tree


async def _asked(s, mark: int) -> None:
    if s.pull:
        await settle(lambda: s.refreshes > mark)


def _create(s, path: Path) -> int:
    mark = s.refreshes
    write(path, "#!/bin/sh\nexit 0\n", dedent=False)
    client_reports(s, path, CREATED)
    return mark


async def _watched(s, tree, paths=None) -> None:
    """A client that watches for the server has been asked to watch every script (the server learns
    them when it computes the diagnostics of the files naming them, and registers watchers then)."""
    from skill_ls.core.runtimes.agent_families import matches_glob

    if not any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in s.registrations):
        return
    paths = paths or (tree.plugin_script, tree.stop_script, tree.project_script)
    await settle(lambda: all(any(matches_glob(str(p), glob) for glob, _ in _watchers(s)) for p in paths))


def _hk003(got: dict[str, list[str]]) -> set[str]:
    return {p for p, codes in got.items() if "HK003" in codes}


async def test_hook_scripts_created_and_deleted_reach_unopened_hook_files(start, tree, profile):
    """Nothing open: creating each script takes HK003 off the files that name it, deleting it (or its
    directory as a whole) brings it back, and a rename moves it, as `skill-ls check` says each time."""
    _tree(tree)
    s = await start(profile)
    missing = await _matches_cli(s, tree, tree.ws)
    every = {str(p) for p in (tree.hooks, tree.manifest, tree.settings, tree.skill, tree.agent)}
    assert _hk003(missing) == every, missing
    await _watched(s, tree)
    await _truth(s, tree, _create(s, tree.plugin_script))
    await _truth(s, tree, _create(s, tree.stop_script))
    got = await _truth(s, tree, _create(s, tree.project_script))
    assert not _hk003(got), got
    got = await _truth(s, tree, delete_reported(s, tree.project_script.parent))  # `rm -r .claude/hooks`
    assert _hk003(got) == {str(tree.settings), str(tree.skill), str(tree.agent)}, got
    mark = s.refreshes
    tree.plugin_script.rename(tree.plugin_script.with_name("format.sh"))
    client_reports(s, tree.plugin_script, DELETED)
    client_reports(s, tree.plugin_script.with_name("format.sh"), CREATED)
    got = await _truth(s, tree, mark)
    assert str(tree.hooks) in _hk003(got), got


async def test_hook_scripts_reach_the_open_hook_files(start, tree, profile):
    """The hook files open and never edited: a script created or deleted on disk changes their
    diagnostics without typing."""
    _tree(tree)
    s = await start(profile)
    for path in (tree.hooks, tree.settings, tree.skill):
        s.open(path)
        await s.diagnostics(path, lambda ds: "HK003" in _codes(ds))
    await _matches_cli(s, tree, tree.ws)
    await _watched(s, tree)
    await _asked(s, _create(s, tree.plugin_script))
    await s.diagnostics(tree.hooks, lambda ds: "HK003" not in _codes(ds))
    await _asked(s, _create(s, tree.project_script))
    for path in (tree.settings, tree.skill):
        await s.diagnostics(path, lambda ds: "HK003" not in _codes(ds))
    await _asked(s, delete_reported(s, tree.plugin_script))
    await s.diagnostics(tree.hooks, lambda ds: "HK003" in _codes(ds))
    await _matches_cli(s, tree, tree.ws)


async def _truth(s, tree, mark: int) -> dict[str, list[str]]:
    await _asked(s, mark)
    return await _matches_cli(s, tree, tree.ws)


async def test_plugin_and_project_files_changed_on_disk_reach_every_client(start, tree, profile):
    """Each kind of file Claude Code reads beside skills, never opened, rewritten, created and deleted on
    disk: the editor follows `skill-ls check` without typing (plugin.json, a hooks file it names by
    path, hooks.json, marketplace.json, a plugin's .mcp.json, a command, a plugin agent, the project's
    settings and .mcp.json)."""
    _tree(tree)
    root = tree.ws / "plugins" / "p"
    bad = {
        tree.manifest: '{"name": "p", "author": "bob", "hooks": "./config/h.json"}\n',
        root / "config" / "h.json": '{"hooks": {"Stop": [{"hooks": [{"type": "nope"}]}]}}\n',
        tree.hooks: '{"hooks": [{"matcher": "Edit"}]}\n',
        tree.ws / ".claude-plugin" / "marketplace.json": '{"name": "m", "plugins": [{"name": "claude-x"}]}\n',
        root / ".mcp.json": '{"s": {"command": "node", "args": "--port 1"}}\n',
        root / "commands" / "review.md": "---\ndescription: \"open\n---\nGo.\n",
        root / "agents" / "auditor.md": "---\nname: auditor\ndescription: Audits.\npermissionMode: plan\n---\nAudit.\n",
        tree.settings: '{"hooks": [{"matcher": "Edit"}]}\n',
        tree.ws / ".mcp.json": '{"mcpServers": {"s": {"type": "http"}}}\n',
    }
    s = await start(profile)
    await _matches_cli(s, tree, tree.ws)
    for path, text in bad.items():
        await _watched(s, tree, [path])  # (a file plugin.json names by path: once its new text is checked)
        mark = s.refreshes
        existed = path.exists()
        write(path, text, dedent=False)
        client_reports(s, path, types.FileChangeType.Changed if existed else CREATED)
        got = await _truth(s, tree, mark)
        assert str(path) in got, (path, got)
    for path in bad:
        if path in (tree.manifest, tree.settings):
            continue
        await _watched(s, tree, [path])
        got = await _truth(s, tree, delete_reported(s, path))
        assert str(path) not in got, (path, got)


async def test_a_script_of_the_users_settings_outside_the_workspace(start, tree, profile):
    """~/.claude/settings.json (the server's private HOME) open beside a project: its hook's script under
    `~/.claude/hooks` (outside every folder, so the server watches it itself, for every client) created
    and deleted on disk moves HK003 without typing."""
    user = write(tree.home / ".claude" / "settings.json",
                 '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "~/.claude/hooks/stop.sh"}]}]}}\n',
                 dedent=False)
    script = tree.home / ".claude" / "hooks" / "stop.sh"
    s = await start(profile)
    s.open(user)
    await s.diagnostics(user, lambda ds: "HK003" in _codes(ds))
    await _asked(s, _create(s, script))
    await s.diagnostics(user, lambda ds: "HK003" not in _codes(ds))
    await _asked(s, delete_reported(s, script))
    await s.diagnostics(user, lambda ds: "HK003" in _codes(ds))
