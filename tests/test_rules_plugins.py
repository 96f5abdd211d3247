"""Claude Code plugin files (PL001-PL005): plugin.json's schema and paths as `claude plugin validate`
reads them, legacy commands, marketplace.json, plugin agents' ignored fields; and the discovery of the
files Claude Code reads beside skills (custom paths followed, command names)."""
from __future__ import annotations

import json

from conftest import check_tree, diags_for, write

from skill_ls.core.model import Severity


def pos(d):
    return d.span.start_line, d.span.start_col, d.span.end_col


def manifest(workspace, data, name="p"):
    return write(workspace / name / ".claude-plugin" / "plugin.json", json.dumps(data, indent=2) + "\n")


def test_pl001_field_types_as_the_validator(workspace):
    m = manifest(workspace, {"name": "p", "author": "bob", "repository": {"url": "x"}, "homepage": "notaurl",
                             "keywords": "a", "foo": 1, "category": "x"})
    ds = diags_for(check_tree(workspace), m, "PL001")
    errors = {d.message.split("'")[1]: pos(d) for d in ds if d.severity == Severity.ERROR}
    assert errors == {"author": (2, 12, 17), "repository": (3, 16, 3), "homepage": (6, 14, 23),
                      "keywords": (7, 14, 17)}
    warnings = [d.message for d in ds if d.severity == Severity.WARNING]
    assert any("'foo'" in w for w in warnings) and any("'category'" in w and "marketplace.json" in w for w in warnings)
    m2 = manifest(workspace, {"name": "q", "author": {"name": ""}}, "q")
    [d] = diags_for(check_tree(workspace), m2, "PL001")
    assert "empty 'name'" in d.message


def test_pl001_names(workspace):
    for name, severity in (("my tools", Severity.ERROR), ("claude-helper", Severity.ERROR),
                           ("My_Tools", Severity.WARNING)):
        m = manifest(workspace, {"name": name}, "n" + str(abs(hash(name)) % 1000))
        [d] = diags_for(check_tree(workspace), m, "PL001")
        assert d.severity == severity, name
    ok = manifest(workspace, {"name": "fine", "version": "1.0.0", "author": {"name": "A"}, "icon": "x.png",
                              "skills": ".", "homepage": "https://example.com"}, "fine")
    assert not [d for d in check_tree(workspace).diagnostics if d.path == str(ok)]


def test_pl002_paths_as_the_validator(workspace):
    root = workspace / "p"
    write(root / "custom" / "a.md", "---\nname: a\ndescription: A.\n---\nA.\n")
    m = manifest(workspace, {"name": "p", "skills": "./", "agents": ["./custom/a.md", "./custom/"],
                             "commands": "../x", "hooks": "hooks.json", "mcpServers": "https://x/b.mcpb"})
    ds = diags_for(check_tree(workspace), m, "PL002")
    got = sorted((d.message.split("'")[3], d.severity) for d in ds)
    assert got == [("../x", Severity.ERROR), ("./custom/", Severity.ERROR), ("hooks.json", Severity.ERROR)]


def test_custom_agent_paths_are_followed_and_checked(workspace):
    root = workspace / "p"
    a = write(root / "custom" / "x.md", "---\nname: x\ndescription: [broken\n---\nX.\n")
    write(root / "agents" / "skipped.md", "---\nname: skipped\n---\nX.\n")
    manifest(workspace, {"name": "p", "agents": ["./custom/x.md"]})
    res = check_tree(workspace)
    assert diags_for(res, a, "AG001")
    assert not diags_for(res, root / "agents" / "skipped.md")  # a declared agents path replaces agents/


def test_pl005_plugin_agent_ignored_fields(workspace):
    manifest(workspace, {"name": "p"})
    a = write(workspace / "p" / "agents" / "r.md",
              "---\nname: r\ndescription: R.\npermissionMode: plan\nmcpServers: {}\n---\nR.\n")
    p = write(workspace / ".claude" / "agents" / "r.md", "---\nname: r\ndescription: R.\npermissionMode: plan\n---\nR.\n")
    res = check_tree(workspace)
    assert [pos(d) for d in diags_for(res, a, "PL005")] == [(3, 0, 14), (4, 0, 10)]
    assert not diags_for(res, p, "PL005")


def test_commands_yaml_errors_are_reported(workspace):
    manifest(workspace, {"name": "p"})
    c = write(workspace / "p" / "commands" / "review.md", "---\ndescription: Review code: find bugs\n---\nGo.\n")
    [d] = diags_for(check_tree(workspace), c, "SK003")
    # Claude Code quotes such a value itself and loads the command: a warning (with the safe quoting fix)
    assert d.severity == Severity.WARNING and "quotes such values itself" in d.message and d.fix is not None
    e = write(workspace / "p" / "commands" / "open.md", "---\ndescription: \"open\n---\nGo.\n")
    [d] = diags_for(check_tree(workspace), e, "SK003")
    assert d.severity == Severity.ERROR
    # In .claude/skills, Amp reads the file too and does not repair it: still a warning, naming Amp.
    s = write(workspace / ".claude" / "skills" / "r" / "SKILL.md", "---\nname: r\ndescription: A: b\n---\nGo.\n")
    [d] = diags_for(check_tree(workspace), s, "SK003")
    assert d.severity == Severity.WARNING and "but Amp does not" in d.message


def test_pl004_marketplace(workspace):
    write(workspace / "plugins" / "a" / "commands" / "x.md", "X.\n")
    m = write(workspace / ".claude-plugin" / "marketplace.json", json.dumps({
        "name": "my market", "owner": {"name": ""},
        "plugins": [{"name": "a", "source": "./plugins/a"}, {"name": "a", "source": "./plugins/a"},
                    {"name": "b", "source": "plugins/b"}, {"name": "c", "source": "../c"},
                    {"name": "d", "source": {"source": "github"}}, {"name": "e", "source": "./missing"},
                    {"name": "claude-x", "source": {"source": "url", "url": "https://x/y.git"}}]}, indent=2))
    ds = diags_for(check_tree(workspace), m, "PL004")
    errors = sorted(d.message for d in ds if d.severity == Severity.ERROR)
    warnings = sorted(d.message for d in ds if d.severity == Severity.WARNING)
    assert len(errors) == 6 and any("spaces" in e for e in errors) and any("'owner'" in e for e in errors)
    assert any("needs 'repo'" in e for e in errors) and any("reserved" in e for e in errors)
    assert len(warnings) == 2 and any("twice" in w for w in warnings) and any("does not exist" in w for w in warnings)
    ok = write(workspace / "ok" / ".claude-plugin" / "marketplace.json", json.dumps({
        "name": "ok", "owner": {"name": "A"}, "metadata": {"pluginRoot": "./plugins"},
        "plugins": [{"name": "a", "source": "a"}, {"name": "n", "source": {"source": "npm", "package": "x"}}]}))
    write(workspace / "ok" / "plugins" / "a" / "README.md", "A.\n")
    assert not diags_for(check_tree(workspace), ok)


def test_sk008_is_a_warning_where_the_name_is_a_label(workspace):
    manifest(workspace, {"name": "gsd"})
    f = write(workspace / "p" / "skills" / "add-backlog" / "SKILL.md",
              "---\nname: gsd:add-backlog\ndescription: Adds.\n---\nBody.\n")
    [d] = diags_for(check_tree(workspace), f, "SK008")
    assert d.severity == Severity.WARNING and "'add-backlog'" in d.message
