"""Issue 24: one bad file never silences the rest — hostile values and the error boundaries.

Classes 1-4 (URLs `urllib` rejects, regular expressions past the engine's limits, integers past
Python's 4,300-digit limit, deeply nested TOML) are values, not exceptions; and whatever else fails
inside skill-ls while analysing one file (a rule, a reader) becomes SL001 on that file while every
other file is still reported. Each test here failed before its fix (a traceback, exit 1, no report).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import check_tree, skill, write
from skill_ls.analysis import rules as registry
from skill_ls.core.config import ConfigError, load_config
from skill_ls.core.records import replace

ENV = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
BIG = "1" * 4301
HEX = "0x" + "f" * 3600
DEEP_TOML = "x = " + "[" * 1000 + "]" * 1000
NESTED_RE = "(" * 1200 + ")" * 1200
SKILL_HEAD = "---\nname: {n}\ndescription: A skill that does a thing when asked to do it.\n"


def _every_kind(root: Path) -> None:
    """A workspace holding a file of every kind skill-ls reads, each with a finding of its own."""
    skill(root / ".claude" / "skills", "a", extra="allowed-tools: Bash(rm:*\n")
    write(root / ".claude" / "skills" / "a" / "mcp.json", '{"mcpServers": {"s": {"type": "http", "url": "http://example.com"}}}')
    skill(root / ".claude" / "skills", "b", name="B_bad")
    write(root / ".claude" / "agents" / "rev.md", "---\nname: rev\ndescription: Reviews.\ncolor: nope\n---\nPrompt.\n")
    write(root / ".agh" / "agents" / "ag" / "AGENT.md", "---\nname: ag\nbogus: 1\n---\nPrompt.\n")
    write(root / ".agh" / "agents" / "ag" / "capabilities.toml", "x = [\n")
    write(root / "plug" / ".claude-plugin" / "plugin.json", '{"name": "Plug", "version": "one"}')
    write(root / "plug" / "commands" / "c.md", "---\ndescription: 5\n---\nDo it.\n")
    write(root / "plug" / "agents" / "p.md", "---\nname: p\n---\nPrompt.\n")
    write(root / "plug" / ".mcp.json", '{"mcpServers": {"t": {"command": "npx", "args": ["-y", "pkg@latest"]}}}')
    s = skill(root / ".agents" / "skills", "z")
    write(s.parent / "agents" / "openai.yaml", "interface: [1\n")


def _by_file(result) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for d in result.diagnostics:
        out.setdefault(d.path, set()).add(d.code)
    return out


# -- classes 1-4: hostile values --------------------------------------------------------------------
VALUE_CASES = [
    ("url-ipv6", ".claude/skills/a/mcp.json", '{"mcpServers":{"s":{"type":"http","url":"http://[x"}}}', "MS001"),
    ("url-nfkc", ".claude/skills/a/mcp.json", '{"mcpServers":{"s":{"type":"http","url":"https://a\uff03b/"}}}', "MS001"),
    ("url-subagent", ".claude/agents/x.md",
     '---\nname: x\ndescription: An agent.\nmcpServers:\n  s: {type: http, url: "http://[x"}\n---\nP\n', "MS001"),
    ("url-port", ".claude/skills/a/mcp.json", '{"mcpServers":{"s":{"type":"http","url":"http://h:99999999/"}}}', None),
    ("regex-repeat", ".claude/skills/b/SKILL.md", SKILL_HEAD.format(n="b") + 'hooks:\n  PreToolUse:\n    - matcher: "x{4294967296}"\n'
     '      hooks: [{type: command, command: echo}]\n---\nbody\n', "CC004"),
    ("regex-nested", ".claude/skills/b/SKILL.md", SKILL_HEAD.format(n="b") + f'hooks:\n  PreToolUse:\n    - matcher: "{NESTED_RE}"\n'
     '      hooks: [{type: command, command: echo}]\n---\nbody\n', "CC004"),
    ("int-skill", ".claude/skills/b/SKILL.md", SKILL_HEAD.format(n="b") + f"version: {BIG}\n---\nbody\n", None),
    ("int-hex-description", ".claude/skills/b/SKILL.md", f"---\nname: b\ndescription: {HEX}\n---\nbody\n", None),
    ("int-subagent", ".claude/agents/x.md", f"---\nname: x\ndescription: An agent.\nversion: {BIG}\n---\nP\n", None),
    ("int-agh-agent", ".agh/agents/x/AGENT.md", f"---\nname: x\nversion: {BIG}\n---\nP\n", None),
    ("int-hex-agent", ".claude/agents/x.md", f"---\nname: x\ndescription: {HEX}\n---\nP\n", None),
    ("int-mcp", ".claude/skills/a/mcp.json", '{"mcpServers":{"s":{"command":"x","args":[' + BIG + ']}}}', None),
    ("int-meta", ".claude/skills/a/.agh-meta.json", '{"slug":' + BIG + '}', None),
    ("int-plugin", "p/.claude-plugin/plugin.json", '{"name":"p","version":' + BIG + '}', "PL001"),
    ("toml-capabilities", ".agh/agents/x/capabilities.toml", DEEP_TOML, "MC001"),
    # found by the value fuzzer: a value nested 600 levels in a plugin's .mcp.json reached the MS rules'
    # recursive walk (RecursionError in six rules); JSON and TOML values deeper than 200 levels are refused
    ("deep-plugin-mcp", "p/.mcp.json", '{"mcpServers": {"s": {"url": ' + '{"k": ' * 600 + '1' + '}' * 600 + '}}}', None),
    ("deep-skill-mcp", ".claude/skills/a/mcp.json", '{"mcpServers": {"s": {"args": ' + '[' * 600 + ']' * 600 + '}}}', None),
    # Python's json reads NaN and Infinity; JSON.parse (every runtime's reader) refuses the file
    ("nan-plugin", "p/.claude-plugin/plugin.json", '{"name": "p", "version": NaN}', "PL001"),
]


@pytest.mark.parametrize("name,rel,text,code", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_hostile_values_are_findings_not_crashes(workspace, name, rel, text, code):
    skill(workspace / ".claude" / "skills", "a")
    other = skill(workspace / ".claude" / "skills", "other", name="Other_Bad")  # SK008 must survive
    if rel.startswith(".agh/agents/x/") and not (workspace / ".agh/agents/x/AGENT.md").exists() and "AGENT" not in rel:
        write(workspace / ".agh" / "agents" / "x" / "AGENT.md", "---\nname: x\n---\nP\n")
    if rel.startswith("p/") and "plugin.json" not in rel:
        write(workspace / "p" / ".claude-plugin" / "plugin.json", '{"name": "p"}', dedent=False)
    target = write(workspace / rel, text, dedent=False)
    result = check_tree(workspace)
    found = _by_file(result)
    assert "SL001" not in {c for codes in found.values() for c in codes}, found
    assert "SK008" in found.get(str(other), set()) or "SK009" in found.get(str(other), set()), found
    if code is not None:
        assert code in found.get(str(target), set()), found
    for d in result.diagnostics:  # every message is one line and printable
        assert "\n" not in d.message


@pytest.mark.parametrize("text", [f"x = {BIG}", f"[check]\nx = {HEX}", DEEP_TOML, "[a]\n" + "b = {c = " * 500 + "1" + "}" * 500])
@pytest.mark.parametrize("name", [".skill-ls.toml", "pyproject.toml"])
def test_hostile_configuration_is_one_line_configuration_error(workspace, name, text):
    if name == "pyproject.toml":
        text = "[tool.skill-ls]\n" + text.replace("[check]", "[tool.skill-ls.check]").replace("[a]", "[tool.skill-ls.a]")
    write(workspace / name, text, dedent=False)
    with pytest.raises(ConfigError) as info:
        load_config(workspace)
    assert "\n" not in str(info.value)


def test_the_command_line_never_prints_a_traceback_on_hostile_values(workspace):
    for i, (_, rel, text, _) in enumerate(VALUE_CASES):
        write(workspace / f"c{i}" / rel, text, dedent=False)
    write(workspace / "deep" / "pyproject.toml", "[tool.skill-ls]\n" + DEEP_TOML, dedent=False)
    for fmt in ("text", "json", "sarif", "github"):
        proc = subprocess.run([sys.executable, "-m", "skill_ls", "check", "--format", fmt, str(workspace)],
                              capture_output=True, text=True, cwd=workspace, timeout=120, env=ENV)
        assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), (fmt, proc.stderr[-2000:])
    proc = subprocess.run([sys.executable, "-m", "skill_ls", "check", "."], capture_output=True, text=True,
                          cwd=workspace / "deep", timeout=60, env=ENV)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


# -- the error boundaries: a fault in every rule and every reader in turn ---------------------------
def _boom(*args, **kwargs):
    raise RuntimeError("injected fault")


def test_a_fault_in_every_rule_in_turn_leaves_the_rest_reported(workspace, monkeypatch):
    _every_kind(workspace)
    baseline = check_tree(workspace)
    base = _by_file(baseline)
    assert len(base) >= 8, base
    rules = registry.all_rules()
    ran_somewhere = 0
    for code, r in rules.items():
        if code == registry.INTERNAL_ERROR:
            continue
        with monkeypatch.context() as m:
            m.setitem(registry.RULES, code, replace(r, func=_boom))
            m.setattr(registry, "_FOR", {})
            m.setattr(registry, "_PARTS", [replace(p, func=_boom) if p.code == code else p
                                           for p in registry._PARTS])
            result = check_tree(workspace)
        found = _by_file(result)
        sl = [d for d in result.diagnostics if d.code == "SL001"]
        assert all(code in d.message for d in sl), (code, sl)
        ran_somewhere += bool(sl)
        for path, codes in base.items():  # every other finding of every file is still there
            assert codes - {code} <= found.get(path, set()), (code, path, codes, found.get(path))
    assert ran_somewhere >= 30, ran_somewhere


def _readers():
    from skill_ls.core import agents, capabilities, files, index, mcp, mcp_servers, plugins
    from skill_ls.core.parse import data, frontmatter

    return [
        ("parse_frontmatter", frontmatter.parse_frontmatter),
        ("json_value", data.json_value),
        ("toml_value", data.toml_value),
        ("read_json", files.read_json),
        ("read_marketplace_meta", index.read_marketplace_meta),
        ("parse_agent", agents.parse_agent),
        ("capabilities_problem", capabilities.capabilities_problem),
        ("read_sidecar", mcp.read_sidecar),
        ("server_findings", mcp_servers.server_findings),
        ("plugin_file_for", plugins.plugin_file_for),
    ]


@pytest.mark.parametrize("name,func", _readers(), ids=[n for n, _ in _readers()])
def test_a_fault_in_every_reader_in_turn_leaves_the_rest_reported(workspace, monkeypatch, name, func):
    _every_kind(workspace)
    base = _by_file(check_tree(workspace))
    patched = 0
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("skill_ls") and getattr(mod, name, None) is func:
            monkeypatch.setattr(mod, name, _boom)
            patched += 1
    assert patched
    result = check_tree(workspace)  # never raises
    found = _by_file(result)
    # Nothing silently dropped: every file that had findings still has some (its own, or SL001
    # saying that it could not be checked), and at least one file is reported exactly as before.
    for path in base:
        assert found.get(path), (name, path)
    assert any(found.get(p) == codes for p, codes in base.items()), (name, found)


def test_sl001_names_the_reader_and_the_file_still_blocks(workspace, monkeypatch):
    from skill_ls.core import index

    a = skill(workspace / ".claude" / "skills", "a")
    other = write(workspace / ".claude" / "skills" / "a" / "mcp.json", '{"mcpServers": {"s": {"type": "http", "url": "http://example.com"}}}')
    real = index.parse_frontmatter

    def flaky(src, **kw):
        if "name: a" in src.text:
            raise ValueError("hostile")
        return real(src, **kw)

    monkeypatch.setattr(index, "parse_frontmatter", flaky)
    result = check_tree(workspace)
    (sl,) = [d for d in result.diagnostics if d.code == "SL001"]
    assert sl.path == str(a) and "skill-ls could not check this file" in sl.message and "ValueError" in sl.message
    assert "MS002" in _by_file(result)[str(other)]


def test_runtime_settings_files_are_read_through_the_value_readers():
    """Main's own-settings reader (AGH `config.toml`, Gemini `settings.json`) reads hostile values as
    values too: huge integers are Infinity, deep nesting is malformed ({}), never an exception."""
    from skill_ls.core.own_settings import _parse

    assert _parse(b'{"skills": {"enabled": ' + BIG.encode() + b"}}", "json") == {"skills": {"enabled": float("inf")}}
    assert _parse(b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}", "json") == {}
    assert _parse(DEEP_TOML.encode(), "toml") == {}
    assert _parse(f"x = {HEX}".encode(), "toml") == {"x": float("inf")}


def test_nan_and_infinity_are_not_json_in_either_reader():
    """`NaN`, `Infinity` and `-Infinity` (which Python's json reads) are refused with their position by
    both JSON readers, as JavaScript's `JSON.parse` refuses them; in a string, or a number too large
    for a double (JSON.parse: Infinity), they are values."""
    from skill_ls.core.jsonpos import parse_json
    from skill_ls.core.parse.data import DataError, json_value, jsonc_value

    text = '{"a": "NaN \\" Infinity", "b": 1e999,\n "c": [1, -Infinity]}'
    doc = parse_json(text)
    assert not doc.ok and doc.problem == ("is not valid JSON: -Infinity is not a JSON value "
                                          "(JavaScript's JSON.parse refuses it)")
    assert (doc.problem_span.start_line, doc.problem_span.start_col) == (1, 10)
    with pytest.raises(DataError) as caught:
        json_value(text)
    assert (caught.value.message, caught.value.line, caught.value.column) == (
        "not valid JSON: -Infinity is not a JSON value (JavaScript's JSON.parse refuses it)", 1, 10)
    with pytest.raises(DataError) as caught:
        jsonc_value('// a comment\n{"a": NaN}')
    assert (caught.value.line, caught.value.column) == (1, 6)
    assert json_value('{"a": "NaN", "b": 1e999}') == {"a": "NaN", "b": float("inf")}
    assert parse_json('{"a": "Infinity", "b": -1}').value == {"a": "Infinity", "b": -1}
