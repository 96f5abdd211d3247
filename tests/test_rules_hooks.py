"""Claude Code hooks in JSON (HK001) and MCP configs (MS008): a plugin's hooks/hooks.json, a project's
.claude/settings.json hooks, the project's and a plugin's .mcp.json."""
from __future__ import annotations

import json

from conftest import check_tree, diags_for, write

from skill_ls.core.model import Severity


def plugin(workspace):
    write(workspace / "p" / ".claude-plugin" / "plugin.json", '{"name": "p"}\n')
    return workspace / "p"


def test_hk001_array_instead_of_map(workspace):
    h = write(plugin(workspace) / "hooks" / "hooks.json", '{"hooks": [{"matcher": "Edit"}]}\n')
    [d] = diags_for(check_tree(workspace), h, "HK001")
    assert (d.span.start_line, d.span.start_col) == (0, 10) and "not a list" in d.message


def test_hk001_handlers(workspace):
    s = write(workspace / ".claude" / "settings.json", json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "x"}, {"type": "command"},
                                                     {"type": "command", "command": "x", "timeout": -1},
                                                     {"type": "nope"}]},
                       {"matcher": "(", "hooks": [{"type": "command", "command": "x"}]},
                       {"hooks": []}],
        "preToolUse": []}}, indent=1))
    ds = diags_for(check_tree(workspace), s, "HK001")
    messages = [d.message for d in ds]
    assert len(ds) == 6
    assert any("has no 'type'" in m for m in messages) and any("needs 'command'" in m for m in messages)
    assert any("timeout" in m for m in messages) and any("'nope'" in m for m in messages)
    assert any("not a valid regex" in m for m in messages)
    [event] = [d for d in ds if "unknown hook event" in d.message]
    assert event.severity == Severity.WARNING and "did you mean 'PreToolUse'" in event.message
    # a PreToolUse hook that cannot load may be the one guarding a permission: an error (as the validator)
    assert sorted(d.severity for d in ds if "regex" not in d.message and d is not event) == [Severity.ERROR] * 4


def test_hk001_broken_entries_of_other_events_are_warnings(workspace):
    h = write(plugin(workspace) / "hooks" / "hooks.json",
              '{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}], "SessionStart": {"x": 1}}}')
    ds = diags_for(check_tree(workspace), h, "HK001")
    assert len(ds) == 2 and all(d.severity == Severity.WARNING and "ignores" in d.message for d in ds)


def test_hk001_clean_and_not_json(workspace):
    ok = write(plugin(workspace) / "hooks" / "hooks.json", json.dumps({"description": "d", "hooks": {
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "fmt", "timeout": 30}]}]}}))
    local = write(workspace / ".claude" / "settings.local.json", '{"hooks": {"Stop": [}\n')
    res = check_tree(workspace)
    assert not diags_for(res, ok)
    [d] = diags_for(res, local, "HK001")
    assert "not valid JSON" in d.message and d.span.start_line == 0


def test_ms007_plugin_mcp_both_shapes(workspace):
    root = plugin(workspace)
    flat = write(root / ".mcp.json", json.dumps({"srv": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/s.js"]},
                                                 "rel": {"command": "./bin/server", "args": "--port 1"}}, indent=1))
    ds = diags_for(check_tree(workspace), flat)
    assert not [d for d in ds if d.code == "MC001"]  # a plugin's flat .mcp.json is Claude Code's shape
    got = sorted(d.message.split(":")[0] for d in diags_for(check_tree(workspace), flat, "MS008"))
    assert len(got) == 2 and all("'rel'" in g for g in got)


def test_ms007_project_mcp(workspace):
    (workspace / ".claude").mkdir()
    flat = write(workspace / ".mcp.json", '{"srv": {"command": "npx", "args": ["-y", "x@1.0.0"]}}\n')
    [d] = diags_for(check_tree(workspace), flat, "MS008")
    assert "needs 'mcpServers'" in d.message
    write(workspace / ".mcp.json", '{"mcpServers": {"srv": {"type": "http", "url": "${API_URL:-http://example.com}"}}}\n')
    ds = diags_for(check_tree(workspace), workspace / ".mcp.json")
    assert [d.code for d in ds] == ["MS002"]  # the default of ${VAR:-default} is read


def test_ms003_literal_secret_under_a_secret_named_key(workspace):
    root = plugin(workspace)
    m = write(root / ".mcp.json", json.dumps({"s": {"command": "npx", "args": ["x@1.0.0"], "env": {
        "API_KEY": "abc123def456", "TOKEN": "${TOKEN}", "PASSWORD": "changeme", "DEBUG": "1"}}}))
    [d] = diags_for(check_tree(workspace), m, "MS003")
    assert "env.API_KEY" in d.message and d.severity == Severity.WARNING


def test_inline_hooks_in_plugin_json_are_checked_as_hooks_json(workspace):
    """plugin.json's `hooks` object is the map of events itself: the same rules, positions in plugin.json."""
    m = write(workspace / "p" / ".claude-plugin" / "plugin.json", json.dumps({"name": "p", "hooks": {
        "PreToolUse": [{"hooks": [{"command": "x"}]}], "Stop": [{"hooks": [{"type": "command"}]}],
        "Stopp": []}}, indent=1))
    ds = sorted(diags_for(check_tree(workspace), m, "HK001"), key=lambda d: d.span.start_line)
    assert [(d.span.start_line, d.severity) for d in ds] == [(6, Severity.ERROR), (15, Severity.WARNING),
                                                              (21, Severity.WARNING)]
    assert "has no 'type'" in ds[0].message and "needs 'command'" in ds[1].message and "'Stop'" in ds[2].message
    # a list of paths and inline objects; a wrapper Claude Code does not read; one matcher group
    for value, code_count in (([{"PreToolUse": [{"hooks": [{"command": "x"}]}]}], 1),
                              ({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}, 1),
                              ({"matcher": "Edit", "hooks": [{"type": "command", "command": "x"}]}, 1), (5, 1)):
        write(m, json.dumps({"name": "p", "hooks": value}))
        ds = diags_for(check_tree(workspace), m, "HK001")
        assert len(ds) == code_count and ds[0].severity == Severity.ERROR, value


def test_a_hooks_file_named_by_plugin_json_is_checked_on_its_own(workspace):
    root = plugin(workspace)
    write(root / ".claude-plugin" / "plugin.json", '{"name": "p", "hooks": "./config/h.json"}')
    h = write(root / "config" / "h.json", '{"hooks": {"PreToolUse": [{"hooks": [{"command": "x"}]}]}}')
    assert diags_for(check_tree(workspace), h, "HK001")
    from skill_ls.core.plugins import plugin_file_for  # the editor: the file opened alone is a hooks file

    assert plugin_file_for(str(h)).kind == "hooks"


def test_inline_mcp_servers_in_plugin_json_are_checked_as_mcp_json(workspace):
    m = write(workspace / "p" / ".claude-plugin" / "plugin.json", json.dumps({"name": "p", "mcpServers": {
        "args": {"command": "node", "args": "--port 1"}, "http": {"type": "http"}, "remote": {"url": "https://x.io/m"},
        "empty": {}, "rel": {"command": "./bin/server"}, "env": {"command": "x", "env": {"A": 1}},
        "npx": {"command": "npx", "args": ["-y", "pkg"]}}}, indent=1))
    ds = sorted(diags_for(check_tree(workspace), m), key=lambda d: d.span.start_line)
    got = [(d.code, d.span.start_line, d.severity) for d in ds]
    assert got == [("MS008", 5, Severity.ERROR), ("MS001", 8, Severity.ERROR), ("MS001", 11, Severity.ERROR),
                   ("MS001", 13, Severity.ERROR), ("MS008", 15, Severity.ERROR), ("MS008", 19, Severity.ERROR),
                   ("MS004", 25, Severity.WARNING)]
    write(m, json.dumps({"name": "p", "mcpServers": {"mcpServers": {"s": {"command": "node"}}}}))
    [d] = diags_for(check_tree(workspace), m, "MS001")
    assert "map of servers itself" in d.message
    write(m, json.dumps({"name": "p", "mcpServers": ["./m.json", {"s": {"command": "node", "args": ["a"]}}]}))
    write(workspace / "p" / "m.json", json.dumps({"mcpServers": {"t": {"command": "node", "args": "x"}}}))
    res = check_tree(workspace)
    assert not diags_for(res, m) and diags_for(res, workspace / "p" / "m.json", "MS008")


def test_hk002_handler_types_an_event_does_not_run(workspace):
    h = write(plugin(workspace) / "hooks" / "hooks.json", json.dumps({"hooks": {
        "SessionStart": [{"hooks": [{"type": "prompt", "prompt": "x"}, {"type": "http", "url": "https://x.example"},
                                    {"type": "command", "command": "echo hi"}]}],
        "Notification": [{"hooks": [{"type": "agent", "prompt": "x"}, {"type": "http", "url": "https://x.example"}]}],
        "PermissionRequest": [{"hooks": [{"type": "agent", "prompt": "x"}, {"type": "prompt", "prompt": "x"}]}],
        # Claude Code 2.1.332 runs prompt hooks on these with the conversation (the page says it does not)
        "PermissionDenied": [{"hooks": [{"type": "prompt", "prompt": "x"}]}],
        "TeammateIdle": [{"hooks": [{"type": "agent", "prompt": "x"}]}],
        "Stop": [{"hooks": [{"type": "agent", "prompt": "x"}]}]}}, indent=1))
    ds = diags_for(check_tree(workspace), h, "HK002")
    got = sorted((d.span.start_line, d.message.split(" never")[0]) for d in ds)
    assert got == [(6, "a 'prompt' hook on SessionStart"), (10, "a 'http' hook on SessionStart"),
                   (24, "an 'agent' hook on Notification"), (38, "an 'agent' hook on PermissionRequest")]
    assert all(d.severity == Severity.WARNING for d in ds)
    # inline in plugin.json and in settings too
    write(workspace / "p" / ".claude-plugin" / "plugin.json", json.dumps(
        {"name": "p", "hooks": {"SessionEnd": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}}))
    s = write(workspace / ".claude" / "settings.json", json.dumps(
        {"hooks": {"PreCompact": [{"hooks": [{"type": "agent", "prompt": "x"}]}]}}))
    res = check_tree(workspace)
    assert diags_for(res, workspace / "p" / ".claude-plugin" / "plugin.json", "HK002") and diags_for(res, s, "HK002")


def test_hk003_hook_script_missing_where_its_path_is_certain(workspace):
    root = plugin(workspace)
    write(root / "scripts" / "ok.sh", "#!/bin/sh\n")
    h = write(root / "hooks" / "hooks.json", json.dumps({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"},
        {"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/scripts/ok.sh\" --fast"},
        {"type": "command", "command": "node $CLAUDE_PLUGIN_ROOT/dist/index.js"},
        {"type": "command", "command": "uv run ${CLAUDE_PLUGIN_ROOT}/hooks/x.py"},
        # never guessed: shell operators, relative paths, programs on PATH, inline code, other variables
        {"type": "command", "command": "[ -f ${CLAUDE_PLUGIN_ROOT}/x.sh ] && ${CLAUDE_PLUGIN_ROOT}/x.sh"},
        {"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/bin/x 2>/dev/null || true"},
        {"type": "command", "command": "./scripts/missing.sh"},
        {"type": "command", "command": "missing-tool --flag"},
        {"type": "command", "command": "bash -c \"${CLAUDE_PLUGIN_ROOT}/x.sh\""},
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/x.sh"},
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/../outside.sh"}]}]}}, indent=1))
    ds = diags_for(check_tree(workspace), h, "HK003")
    assert [(d.span.start_line, d.span.start_col) for d in ds] == [(7, 17), (15, 17), (19, 17)]
    assert "scripts/check.sh" in ds[0].message and ds[0].severity == Severity.WARNING
    # a project's settings: $CLAUDE_PROJECT_DIR is the directory holding .claude/
    s = write(workspace / ".claude" / "settings.json", json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/stop.sh"},
        {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/there.sh"}]}]}}))
    write(workspace / ".claude" / "hooks" / "there.sh", "#!/bin/sh\n")
    [d] = diags_for(check_tree(workspace), s, "HK003")
    assert ".claude/hooks/stop.sh" in d.message and "in the project" in d.message


def test_user_settings_hooks_are_checked_with_a_private_home(workspace, private_home):
    """~/.claude/settings.json holds hooks like a project's: checked given alone, in `check ~/.claude` and
    `check ~`, and in the server for a file outside the workspace; `~` and `$HOME` are known there."""
    user = write(private_home / ".claude" / "settings.json", json.dumps({"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "~/.claude/hooks/stop.sh"},
                            {"type": "command", "command": "bash $HOME/.claude/hooks/there.sh"},
                            {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/x.sh"}]}],
        "SessionStart": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}}, indent=1))
    write(private_home / ".claude" / "hooks" / "there.sh", "#!/bin/sh\n")
    for target in (user, private_home / ".claude", private_home):
        res = check_tree(target, workspace=workspace)
        assert sorted(d.code for d in diags_for(res, user)) == ["HK001", "HK002", "HK003"], target
    [d] = diags_for(check_tree(user, workspace=workspace), user, "HK003")
    assert "~/.claude/hooks/stop.sh" in d.message and "home directory" in d.message
    from conftest import workspace_state

    state = workspace_state(workspace)
    assert sorted(d.code for d in state.diagnostics([str(user)])[str(user)]) == ["HK001", "HK002", "HK003"]


def test_managed_settings_hooks_are_checked(tmp_path):
    managed = tmp_path / "etc" / "claude-code"
    main = write(managed / "managed-settings.json", '{"hooks": [{"matcher": "Bash"}]}')
    drop_in = write(managed / "managed-settings.d" / "10-guard.json",
                    '{"hooks": {"PreToolUse": [{"hooks": [{"command": "x"}]}]}}')
    other = write(tmp_path / "etc" / "other" / "managed-settings.json", '{"hooks": []}')
    res = check_tree(tmp_path / "etc")
    assert diags_for(res, main, "HK001") and diags_for(res, drop_in, "HK001") and not diags_for(res, other)
    assert diags_for(check_tree(drop_in, workspace=tmp_path), drop_in, "HK001")


def test_events_claude_code_runs_beyond_the_hooks_page(workspace):
    """Claude Code 2.1.332 registers and runs PreModelSwitch, PostModelSwitch, DirectoryAdded,
    MessageDisplay and PreSkillShellCommand (`claude plugin validate` lists them among what the file
    provides): not unknown events. A broken PreSkillShellCommand entry is an error, as the validator says
    (it guards the skill's shell lines like a PreToolUse hook)."""
    events = ("PreModelSwitch", "PostModelSwitch", "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand")
    h = write(plugin(workspace) / "hooks" / "hooks.json", json.dumps({"hooks": {
        e: [{"hooks": [{"type": "command", "command": "true"}]}] for e in events}}))
    assert not diags_for(check_tree(workspace), h)
    h.write_text('{"hooks": {"PreSkillShellCommand": [{"hooks": [{"type": "command"}]}], '
                 '"PreModelSwitch": [{"hooks": [{"type": "command"}]}]}}')
    assert sorted(d.severity for d in diags_for(check_tree(workspace), h, "HK001")) == [Severity.ERROR,
                                                                                      Severity.WARNING]


HOOKS_FM = """hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: $CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh
        - type: command
          command: "${CLAUDE_PROJECT_DIR}/.claude/hooks/there.sh --fast"
        - type: command
          command: ${CLAUDE_SKILL_DIR}/scripts/x.sh
        - {type: command, command: ./scripts/relative.sh}
  SessionEnd:
    - hooks:
        - {type: prompt, prompt: Summarise}
  Stop:
    - hooks:
        - type: agent
          prompt: Check the tests ran
"""


def test_frontmatter_hooks_of_skills_and_subagents(workspace):
    """HK002 and HK003 judge the hooks of a project skill's and subagent's frontmatter as they judge a
    hooks file's, at the value's place in the YAML: `$CLAUDE_PROJECT_DIR` is the directory holding
    `.claude/`; `${CLAUDE_SKILL_DIR}` and relative paths are never guessed. Claude Code registers every
    event there; a subagent's `Stop` runs as `SubagentStop` (prompt and agent hooks run on both)."""
    write(workspace / ".claude" / "hooks" / "there.sh", "#!/bin/sh\n")
    skill_md = write(workspace / ".claude" / "skills" / "deploy" / "SKILL.md",
                     "---\nname: deploy\ndescription: Deploys the app. Use when deploying.\n" + HOOKS_FM + "---\nGo.\n",
                     dedent=False)
    agent = write(workspace / ".claude" / "agents" / "db.md",
                  "---\nname: db\ndescription: Runs read-only queries.\n" + HOOKS_FM + "---\nYou query.\n", dedent=False)
    res = check_tree(workspace)
    for path in (skill_md, agent):
        [missing] = diags_for(res, path, "HK003")
        assert (missing.span.start_line, missing.span.start_col) == (8, 19), path
        assert "'$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh'" in missing.message and "in the project" in missing.message
        [not_run] = diags_for(res, path, "HK002")
        assert (not_run.span.start_line, not_run.span.start_col) == (16, 17) and "on SessionEnd" in not_run.message
        assert not diags_for(res, path, "CC004") and not diags_for(res, path, "SA005")
    write(workspace / ".claude" / "hooks" / "guard.sh", "#!/bin/sh\n")
    assert not diags_for(check_tree(workspace), skill_md, "HK003")


def test_frontmatter_hooks_in_plugins_and_elsewhere(workspace):
    """A plugin's skill resolves `${CLAUDE_PLUGIN_ROOT}` to the plugin; a plugin's subagent's hooks are
    ignored by Claude Code (PL005 says so), so they are not judged; a skill under no `.claude/` (a
    repository of skills) resolves nothing."""
    root = plugin(workspace)
    fm = ("hooks:\n  PostToolUse:\n    - hooks:\n        - type: command\n"
          "          command: bash ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh\n"
          "        - type: command\n          command: $CLAUDE_PROJECT_DIR/x.sh\n")
    skill_md = write(root / "skills" / "fmt" / "SKILL.md",
                     "---\nname: fmt\ndescription: Formats. Use when formatting.\n" + fm + "---\nGo.\n", dedent=False)
    agent = write(root / "agents" / "fmt.md", "---\nname: fmt\ndescription: Formats.\n" + fm + "---\nGo.\n",
                  dedent=False)
    loose = write(workspace / "skills" / "fmt" / "SKILL.md",
                  "---\nname: fmt\ndescription: Formats. Use when formatting.\n" + fm + "---\nGo.\n", dedent=False)
    res = check_tree(workspace)
    [d] = diags_for(res, skill_md, "HK003")
    assert "in the plugin (scripts/fmt.sh)" in d.message
    assert not diags_for(res, agent, "HK003") and diags_for(res, agent, "PL005")
    assert not diags_for(res, loose, "HK003")


def test_script_dependencies_follow_the_files_naming_them(workspace):
    """The server re-checks a file whose HK003 asks about a script when that script (or a directory
    holding it) changes on disk: `WorkspaceState.depending_on` after the file's diagnostics."""
    from conftest import workspace_state

    h = write(plugin(workspace) / "hooks" / "hooks.json", json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/stop.sh"}]}]}}))
    skill_md = write(workspace / ".claude" / "skills" / "deploy" / "SKILL.md",
                     "---\nname: deploy\ndescription: Deploys the app. Use when deploying.\n" + HOOKS_FM + "---\nGo.\n",
                     dedent=False)
    state = workspace_state(workspace)
    state.diagnostics([str(h), str(skill_md)])
    script = str(workspace / "p" / "scripts" / "stop.sh")
    assert state.depending_on(script) == {str(h)} and state.depending_on(str(workspace / "p" / "scripts")) == {str(h)}
    assert state.depending_on(str(workspace / ".claude" / "hooks")) == {str(skill_md)}
    assert state.relevant(script) and not state.relevant(str(workspace / "p" / "scripts" / "other.sh"))
    h.write_text('{"hooks": {}}')
    state.file_changed(str(h))
    state.diagnostics([str(h)])
    assert not state.depending_on(script) and not state.relevant(script)


def test_hk001_handler_fields_of_the_wrong_kind(workspace):
    """Claude Code's schema refuses a handler whose optional field has the wrong kind (`args` a string,
    `shell: zsh`, `async: "yes"`, a `url` that `new URL` refuses, `headers` values that are not strings):
    the entry is not loaded — an error under a guard event, a warning elsewhere (as `claude plugin
    validate`), at the field's value. Unknown fields and values it reads loosely are accepted."""
    h = write(plugin(workspace) / "hooks" / "hooks.json", json.dumps({"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command", "command": "x", "args": "a b"},
                                  {"type": "command", "command": "x", "shell": "zsh"},
                                  {"type": "http", "url": "https://x.y", "headers": {"a": 1}}]}],
        "Stop": [{"hooks": [{"type": "http", "url": "http://localhost:${PORT}/x"},
                            {"type": "http", "url": "${BASE}/x"},
                            {"type": "command", "command": "x", "once": "true"},
                            # accepted: another scheme, a name as scheme, an unknown field, loose values
                            {"type": "http", "url": "mailto:a@b.c"}, {"type": "http", "url": "localhost:8080/x"},
                            {"type": "command", "command": "x", "bogus": 1, "cloud": "?"},
                            {"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "weird"},
                            {"type": "http", "url": "https://${HOST}/x", "allowedEnvVars": ["HOST"]}]}]}}, indent=1))
    ds = diags_for(check_tree(workspace), h, "HK001")
    got = sorted((d.severity, d.message.split(";")[0]) for d in ds)
    assert got == [
        (Severity.ERROR, "'args' of a 'command' hook must be a list of strings"),
        (Severity.ERROR, "'headers' of a 'http' hook must be an object of strings"),
        (Severity.ERROR, "'shell' of a 'command' hook must be 'bash' or 'powershell'"),
        (Severity.WARNING, "'once' of a 'command' hook must be true or false"),
        (Severity.WARNING, "'url' of a 'http' hook is not a valid URL (it has no scheme (https://...))"),
        (Severity.WARNING, "'url' of a 'http' hook is not a valid URL (its port '${PORT}' is not a number)"),
    ], got
    shell = next(d for d in ds if "'shell'" in d.message)
    assert h.read_text().splitlines()[shell.span.start_line][shell.span.start_col:shell.span.end_col] == '"zsh"'


def test_frontmatter_handler_fields_of_the_wrong_kind(workspace):
    """The same schema in a skill's frontmatter hooks (CC004)."""
    skill_md = write(workspace / ".claude" / "skills" / "s" / "SKILL.md",
                     "---\nname: s\ndescription: Does s. Use when s.\nhooks:\n  Stop:\n    - hooks:\n"
                     "        - {type: command, command: x, async: maybe}\n---\nGo.\n", dedent=False)
    [d] = diags_for(check_tree(workspace), skill_md, "CC004")
    assert "'async' of a 'command' hook must be true or false" in d.message


def test_hk001_an_empty_command_loads_and_does_nothing(workspace):
    """`"command": ""` is a string: Claude Code's schema loads the hook, even under PreToolUse (`claude
    plugin validate` accepts it), and it does nothing: a warning at the value, never an error."""
    h = write(plugin(workspace) / "hooks" / "hooks.json",
              '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": " "}, {"type": "command"}]}]}}')
    ds = sorted(diags_for(check_tree(workspace), h, "HK001"), key=lambda d: d.span.start_col)
    assert [(d.severity, d.span.start_col) for d in ds] == [(Severity.WARNING, 68), (Severity.ERROR, 74)]
    assert "is empty" in ds[0].message and "needs 'command'" in ds[1].message


def test_frontmatter_hooks_of_a_nested_project_are_not_resolved(workspace):
    """`$CLAUDE_PROJECT_DIR` is the directory the session runs in: a package's `.claude/skills` inside a
    repository (a `.git` above it) may be read by a session started at the repository's root, so its
    hook scripts are not resolved; the same package with its own `.git` is a project."""
    (workspace / ".git").mkdir()
    pkg = workspace / "packages" / "web"
    skill_md = write(pkg / ".claude" / "skills" / "deploy" / "SKILL.md",
                     "---\nname: deploy\ndescription: Deploys the app. Use when deploying.\n" + HOOKS_FM + "---\nGo.\n",
                     dedent=False)
    res = check_tree(pkg)  # (opened at the package: its .claude/skills is a root)
    assert diags_for(res, skill_md, "HK002") and not diags_for(res, skill_md, "HK003")
    (pkg / ".git").mkdir()
    ds = diags_for(check_tree(pkg), skill_md, "HK003")
    assert len(ds) == 2 and "in the project (.claude/hooks/guard.sh)" in ds[0].message


def test_hk003_plugin_placeholders_outside_a_plugin(workspace):
    """Claude Code refuses to run a command hook naming `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_PLUGIN_DATA}`
    where it has no value ("... but the hook is not associated with a plugin"): in settings and in a
    project subagent's hooks; a skill's hooks outside a plugin get `${CLAUDE_PLUGIN_ROOT}` (its own
    root) but not `${CLAUDE_PLUGIN_DATA}`; a plugin's hooks get both; `$CLAUDE_PLUGIN_ROOT` unbraced is
    a shell variable Claude Code does not look at."""
    s = write(workspace / ".claude" / "settings.json", json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/x.sh"},
        {"type": "command", "command": "node", "args": ["${CLAUDE_PLUGIN_DATA}/y.js"]},
        {"type": "command", "command": "echo $CLAUDE_PLUGIN_ROOT"}]}]}}, indent=1))
    agent = write(workspace / ".claude" / "agents" / "db.md", "---\nname: db\ndescription: Queries.\nhooks:\n"
                  "  Stop:\n    - hooks:\n        - {type: command, command: \"${CLAUDE_PLUGIN_ROOT}/x.sh\"}\n---\nGo.\n",
                  dedent=False)
    fm = ("hooks:\n  Stop:\n    - hooks:\n        - {type: command, command: \"${CLAUDE_PLUGIN_ROOT}/x.sh\"}\n"
          "        - {type: command, command: \"cat ${CLAUDE_PLUGIN_DATA}/state\"}\n")
    skill_md = write(workspace / ".claude" / "skills" / "s" / "SKILL.md",
                     "---\nname: s\ndescription: Does s. Use when s.\n" + fm + "---\nGo.\n", dedent=False)
    root = plugin(workspace)
    write(root / "x.sh", "#!/bin/sh\n")
    in_plugin = write(root / "skills" / "s" / "SKILL.md",
                      "---\nname: s\ndescription: Does s. Use when s.\n" + fm + "---\nGo.\n", dedent=False)
    hooks = write(root / "hooks" / "hooks.json", json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "cat ${CLAUDE_PLUGIN_DATA}/state"}]}]}}))
    res = check_tree(workspace)
    assert [d.message.split(",")[0] for d in diags_for(res, s, "HK003")] == [
        "the Stop hook names ${CLAUDE_PLUGIN_ROOT}", "the Stop hook names ${CLAUDE_PLUGIN_DATA}"]
    [d] = diags_for(res, agent, "HK003")
    assert "${CLAUDE_PLUGIN_ROOT}" in d.message and (d.span.start_line, d.span.start_col) == (6, 35)
    [d] = diags_for(res, skill_md, "HK003")
    assert "${CLAUDE_PLUGIN_DATA}" in d.message and "a skill's hooks get ${CLAUDE_PLUGIN_ROOT} only" in d.message
    assert not diags_for(res, in_plugin, "HK003") and not diags_for(res, hooks, "HK003")


def test_hooks_of_unknown_events_are_not_judged_further(workspace):
    """Claude Code ignores an unknown event's hooks (HK001, CC004 say so): HK002 and HK003 do not judge
    handlers that never run."""
    h = write(plugin(workspace) / "hooks" / "hooks.json", json.dumps({"hooks": {"Bogus": [{"hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/missing.sh"}, {"type": "prompt", "prompt": "x"}]}]}}))
    skill_md = write(workspace / ".claude" / "skills" / "s" / "SKILL.md",
                     "---\nname: s\ndescription: Does s. Use when s.\nhooks:\n  Bogus:\n    - hooks:\n"
                     "        - {type: command, command: \"${CLAUDE_PLUGIN_DATA}/x\"}\n---\nGo.\n", dedent=False)
    res = check_tree(workspace)
    assert [d.code for d in diags_for(res, h)] == ["HK001"]
    assert [d.code for d in diags_for(res, skill_md) if d.code.startswith(("HK", "CC"))] == ["CC004"]
