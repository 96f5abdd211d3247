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
