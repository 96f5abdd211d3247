"""Differential test against Claude Code's own validator, `claude plugin validate` (npm
`@anthropic-ai/claude-code`, a native binary that runs offline; `.ci/run` installs it).

For every plugin of the suite's fixtures below, and every plugin and marketplace of the shared
corpora (../shared/corpus-plugins, ../shared/corpus) when they are present, the files the validator
reads (plugin.json, marketplace.json, hooks.json, the frontmatter of skills, commands and agents) get
an error from skill-ls exactly when they get one from the validator. Each remaining difference is
listed, with its reason, in docs/claude-code-validator.md and in `KNOWN` below (keyed by the path
relative to the corpus); a new difference fails the test.

Run `python tests/test_claude_validator.py [DIR...]` to print the differences of any plugin tree.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CORPUS, write  # noqa: E402

CLAUDE = shutil.which("claude")
CORPUS_PLUGINS = CORPUS.parent / "corpus-plugins"
pytestmark = [pytest.mark.long,  # tests/conftest.py: started first when modules run side by side
              pytest.mark.skipif(CLAUDE is None, reason="`claude` (npm @anthropic-ai/claude-code) is not installed: "
                                 "the differential test needs Claude Code's validator")]

# skill-ls codes that stand for "Claude Code refuses or mis-loads this file", by the validator's section.
# plugin.json's inline `hooks` and `mcpServers` objects are checked there (HK001, MS001, MS008).
CODES = {"plugin manifest": ("PL001", "PL002", "HK001", "MS001", "MS008"), "marketplace manifest": ("PL004",),
         "hooks": ("HK001",), "mcp": ("MS001", "MS008"), "skill": ("SK002", "SK003"), "command": ("SK002", "SK003"),
         "agent": ("AG001",)}
# Errors of skill-ls the validator does not check, each in docs/claude-code-validator.md with its reason: a
# plugin's MCP server started by a relative path (it starts in the user's directory and fails to start).
LENIENT = ("relative to the user's directory",)
_SECTION = re.compile(r"^Validating (plugin manifest|marketplace manifest|hooks|mcp|skill|command|agent): (.+)$")
_COUNT = re.compile(r"^[✘⚠] Found \d+ (error|warning)s?:")

# Known differences (path relative to its corpus → reason); docs/claude-code-validator.md explains each.
KNOWN: dict[str, str] = {}
SECTIONS: dict[str, str] = {}  # file -> the validator's section that read it ("hooks", "mcp", ...)


def validate(path: Path, home: Path) -> dict[str, list[str]]:
    """The validator's errors by file for one plugin or marketplace (`claude plugin validate`); the
    section each file was read as is kept in `SECTIONS`."""
    proc = subprocess.run([CLAUDE or "claude", "plugin", "validate", str(path)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "HOME": str(home), "NO_COLOR": "1"})
    out: dict[str, list[str]] = {}
    current: str | None = None
    errors = False
    for raw in proc.stdout.splitlines():
        line = raw.rstrip()
        m = _SECTION.match(line)
        if m:
            current, errors = os.path.realpath(m.group(2)), False
            out.setdefault(current, [])
            SECTIONS[current] = m.group(1)
            continue
        if line.startswith("Plugin directory checks for"):
            current = None  # the directory's submission checks (README, licence, icon): not load errors
            continue
        c = _COUNT.match(line.strip())
        if c:
            errors = c.group(1) == "error"
            continue
        if current and errors and line.strip().startswith("❯"):
            out[current].append(line.strip()[1:].strip())
    return out


def skill_ls_errors(path: Path, home: Path) -> dict[str, list[str]]:
    from skill_ls.analysis.check import CheckOptions, run_check

    env_home = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        workspace = path if path.is_dir() else path.parent.parent  # a marketplace.json: its repository
        res = run_check(CheckOptions(paths=[str(path)], workspace=str(workspace), no_user_roots=True))
    finally:
        if env_home is not None:
            os.environ["HOME"] = env_home
    out: dict[str, list[str]] = {}
    for d in res.diagnostics:
        if d.severity == 1:
            out.setdefault(os.path.realpath(d.path), []).append(f"{d.code} {d.message}")
    return out


def differences(path: Path, home: Path, theirs: dict[str, list[str]] | None = None) -> list[tuple[str, str, str]]:
    """(file, who errs, what) for each file the validator read where only one side reports an error
    (`theirs`: the validator's answer for `path`, when it was asked already)."""
    theirs = validate(path, home) if theirs is None else theirs
    ours = skill_ls_errors(path, home)
    out: list[tuple[str, str, str]] = []
    for file, errors in sorted(theirs.items()):
        if os.path.isdir(file):
            # `plugins/<name>/` with agents or commands but no skills and no manifest: the validator asks
            # for a manifest; Claude Code loads it through its marketplace entry (`strict: false`).
            continue
        kind = SECTIONS.get(file) or _kind_of(file)
        mine = [e for e in ours.get(file, []) if e.split(" ", 1)[0] in CODES.get(kind, ())
                and not any(word in e for word in LENIENT)]
        if errors and not mine:
            out.append((file, "validator", "; ".join(errors)))
        elif mine and not errors:
            out.append((file, "skill-ls", "; ".join(mine)))
    return out


def _kind_of(file: str) -> str:
    base = os.path.basename(file)
    if base == "plugin.json":
        return "plugin manifest"
    if base == "marketplace.json":
        return "marketplace manifest"
    if base.endswith(".json"):
        return "hooks"
    if base == "SKILL.md":
        return "skill"
    return "command" if f"{os.sep}commands{os.sep}" in file else "agent"


def corpus_plugins(root: Path) -> list[Path]:
    """Every plugin (a directory holding .claude-plugin/plugin.json, or `plugins/<name>/` holding skills,
    agents or commands) and marketplace file under root."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")]
        if os.path.basename(os.path.dirname(dirpath)) == "plugins" and ".claude-plugin" not in dirnames and any(
                d in dirnames for d in ("skills", "agents", "commands")):
            out.append(Path(dirpath))  # a marketplace-layout plugin: the validator checks its components
        if os.path.basename(dirpath) == ".claude-plugin":
            if "plugin.json" in filenames:
                out.append(Path(dirpath).parent)
            if "marketplace.json" in filenames:
                out.append(Path(dirpath) / "marketplace.json")
    return sorted(out)


# -- the suite's plugin fixtures: each a small plugin, and whether the validator (and skill-ls) refuses it
FIXTURES: dict[str, tuple[dict[str, str], bool]] = {
    "clean": ({".claude-plugin/plugin.json": '{"name": "clean", "version": "1.0.0", "description": "d", '
               '"author": {"name": "A"}, "skills": "."}',
               "skills/s/SKILL.md": "---\nname: s\ndescription: S.\nargument-hint: [x]\nversion: 1\n---\nS.\n",
               "commands/sub/r.md": "---\ndescription: R.\nargument-hint: [file]\n---\nR $1.\n",
               "agents/a.md": "---\nname: a\ndescription: A.\nskills: s, t\n---\nA.\n",
               "hooks/hooks.json": '{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", '
               '"command": "fmt"}]}]}}'}, False),
    "author-string": ({".claude-plugin/plugin.json": '{"name": "a", "author": "bob"}'}, True),
    "repository-object": ({".claude-plugin/plugin.json": '{"name": "a", "repository": {"url": "x"}}'}, True),
    "homepage-not-url": ({".claude-plugin/plugin.json": '{"name": "a", "homepage": "example"}'}, True),
    "empty-author-name": ({".claude-plugin/plugin.json": '{"name": "a", "author": {"name": ""}}'}, True),
    "name-with-space": ({".claude-plugin/plugin.json": '{"name": "a b"}'}, True),
    "reserved-name": ({".claude-plugin/plugin.json": '{"name": "claude-helper"}'}, True),
    "not-json": ({".claude-plugin/plugin.json": '{"name": "a",}'}, True),
    "path-without-dot": ({".claude-plugin/plugin.json": '{"name": "a", "skills": "skills"}', "skills/x": ""}, True),
    "agents-directory": ({".claude-plugin/plugin.json": '{"name": "a", "agents": "./agents/"}',
                          "agents/x.md": "---\nname: x\ndescription: X.\n---\nX.\n"}, True),
    "missing-path": ({".claude-plugin/plugin.json": '{"name": "a", "agents": ["./custom/x.md"]}'}, True),
    "traversal": ({".claude-plugin/plugin.json": '{"name": "a", "commands": "../x"}'}, True),
    # Events 2.1.332 runs beyond the hooks page: provided, not unknown; a broken PreSkillShellCommand entry
    # is refused like a PreToolUse one.
    "hooks-events-beyond-the-page": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json":
                                      '{"hooks": {' + ", ".join(f'"{e}": [{{"hooks": [{{"type": "command", '
                                      '"command": "true"}]}]' for e in ("PreModelSwitch", "PostModelSwitch",
                                      "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand")) + "}}"}, False),
    "hooks-broken-skill-shell-guard": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json":
                                        '{"hooks": {"PreSkillShellCommand": [{"hooks": [{"type": "command"}]}]}}'},
                                       True),
    # Handler fields of the wrong kind: refused under a guard event, ignored (a warning) elsewhere.
    "hook-fields-guard": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json": json.dumps({"hooks": {
        "PreToolUse": [{"hooks": [
            {"type": "command", "command": "x", "args": "a b"}, {"type": "command", "command": "x", "shell": "zsh"},
            {"type": "command", "command": "x", "async": "yes"}, {"type": "http", "url": "not a url"},
            {"type": "http", "url": "https://x.y", "headers": {"a": 1}}, {"type": "prompt", "prompt": "p", "model": 5},
            {"type": "command", "command": "x", "onFailure": "stop"}]}]}})}, True),
    "hook-fields-elsewhere": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json": json.dumps({"hooks": {
        "Stop": [{"hooks": [
            {"type": "http", "url": "http://localhost:${PORT}/x"}, {"type": "http", "url": "mailto:a@b.c"},
            {"type": "http", "url": "localhost:8080/x"}, {"type": "command", "command": "x", "args": ["a", 1]},
            {"type": "command", "command": "x", "rewakeMessage": ""}, {"type": "command", "command": "x", "cloud": "?"},
            {"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "weird", "input": "x"},
            {"type": "command", "command": "x", "bogusField": 1}]}]}})}, False),
    # An empty command is a string: the schema loads the hook (which does nothing), even under PreToolUse.
    "hook-empty-command-guard": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json":
                                  '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": ""}]}]}}'}, False),
    "hooks-array": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json": '{"hooks": [{"x": 1}]}'},
                    True),
    # A broken hook entry is ignored at runtime (a warning) ...
    "hook-without-type": ({".claude-plugin/plugin.json": '{"name": "a"}',
                           "hooks/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}'}, False),
    "hook-without-command": ({".claude-plugin/plugin.json": '{"name": "a"}',
                              "hooks/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}'}, False),
    # ... but under PreToolUse it may be what guards a permission (an error).
    "guard-hook-without-type": ({".claude-plugin/plugin.json": '{"name": "a"}',
                                 "hooks/hooks.json": '{"hooks": {"PreToolUse": [{"hooks": [{"command": "x"}]}]}}'},
                                True),
    "hooks-json-without-hooks": ({".claude-plugin/plugin.json": '{"name": "a"}',
                                  "hooks/hooks.json": '{"description": "x"}'}, True),
    # Claude Code quotes an unquoted value holding ': ' or '[' itself and loads the file ...
    "command-colon-in-value": ({".claude-plugin/plugin.json": '{"name": "a"}',
                                "commands/r.md": "---\ndescription: Review code: find bugs\n---\nR.\n"}, False),
    "skill-brackets-in-value": ({".claude-plugin/plugin.json": '{"name": "a"}',
                                 "skills/s/SKILL.md": "---\nname: s\ndescription: [a] [b]\n---\nS.\n"}, False),
    # ... but not a quote left open.
    "command-yaml-error": ({".claude-plugin/plugin.json": '{"name": "a"}',
                            "commands/r.md": "---\ndescription: \"open\n---\nR.\n"}, True),
    "skill-yaml-error": ({".claude-plugin/plugin.json": '{"name": "a"}',
                          "skills/s/SKILL.md": "---\nname: s\ndescription: \"open\n---\nS.\n"}, True),
    # plugin.json's inline `hooks` object is the map of events itself: checked as hooks.json is ...
    "inline-hooks-clean": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"PostToolUse": [{"matcher": '
                            '"Edit", "hooks": [{"type": "command", "command": "fmt"}]}]}}'}, False),
    "inline-hooks-broken-entry": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"Stop": [{"hooks": '
                                   '[{"command": "x"}]}]}}'}, False),
    "inline-hooks-guard-entry": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"PreToolUse": [{"hooks": '
                                  '[{"command": "x"}]}]}}'}, True),
    "inline-hooks-guard-not-a-list": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"PreToolUse": '
                                       '{"hooks": []}}}'}, True),
    "inline-hooks-wrapped": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"hooks": {"Stop": [{"hooks": '
                              '[{"type": "command", "command": "x"}]}]}}}'}, False),
    "inline-hooks-wrapped-guard": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"hooks": {"PreToolUse": '
                                    '[{"hooks": [{"type": "command", "command": "x"}]}]}}}'}, True),
    "inline-hooks-one-matcher": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": {"matcher": "Edit", "hooks": '
                                  '[{"type": "command", "command": "x"}]}}'}, True),
    "inline-hooks-in-a-list": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": ["./h.json", {"PreToolUse": '
                                '[{"hooks": [{"command": "x"}]}]}]}', "h.json": '{"hooks": {}}'}, True),
    "inline-hooks-number": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": 5}'}, True),
    "hooks-file-one-matcher": ({".claude-plugin/plugin.json": '{"name": "a"}', "hooks/hooks.json":
                                '{"hooks": {"hooks": [{"hooks": [{"type": "command", "command": "x"}]}]}}'}, True),
    "hooks-file-by-path": ({".claude-plugin/plugin.json": '{"name": "a", "hooks": "./config/h.json"}',
                            "config/h.json": '{"hooks": {"PreToolUse": [{"hooks": [{"command": "x"}]}]}}'}, True),
    # ... and its inline `mcpServers` object is the map of servers, checked as .mcp.json is.
    "inline-mcp-clean": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"command": "node", '
                          '"args": ["${CLAUDE_PLUGIN_ROOT}/s.js"], "env": {"K": "${K}"}}}}'}, False),
    "inline-mcp-args-string": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"command": "node", '
                                '"args": "--port 1"}}}'}, True),
    "inline-mcp-http-without-url": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"type": '
                                     '"http"}}}'}, True),
    "inline-mcp-url-without-type": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"url": '
                                     '"https://x.example/mcp"}}}'}, True),
    "inline-mcp-empty-server": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {}}}'}, True),
    "inline-mcp-env-number": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"command": "x", '
                               '"env": {"A": 1}}}}'}, True),
    "inline-mcp-wrapped": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"mcpServers": {"s": '
                            '{"command": "node"}}}}'}, True),
    "inline-mcp-in-a-list": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": ["./m.json", {"s": '
                              '{"command": "x"}}]}', "m.json": '{"mcpServers": {"z": {"command": "y"}}}'}, False),
    "inline-mcp-url-not-absolute": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"type": '
                                     '"http", "url": "notaurl"}}}'}, True),
    "inline-mcp-url-placeholder": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"type": '
                                    '"http", "url": "${API_URL}"}, "t": {"type": "http", "url": "localhost:3000/m"}}}'},
                                   False),
    # (the validator does not check a relative command; skill-ls's error is in LENIENT)
    "inline-mcp-relative-command": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": {"s": {"command": '
                                     '"./bin/server"}}}'}, False),
    # the plugin's .mcp.json and an MCP config plugin.json names are read by the validator too
    "mcp-file-flat-broken": ({".claude-plugin/plugin.json": '{"name": "a"}', ".mcp.json":
                              '{"s": {"command": "node", "args": "--port 1"}, "t": {"url": "https://x.example"}}'},
                             True),
    "mcp-file-by-path": ({".claude-plugin/plugin.json": '{"name": "a", "mcpServers": "./config/m.json"}',
                          "config/m.json": '{"mcpServers": {"s": {"type": "sse"}}}'}, True),
}


@pytest.mark.parametrize("case", sorted(FIXTURES))
def test_fixture_agrees_with_the_validator(case, tmp_path):
    files, refused = FIXTURES[case]
    root = tmp_path / case
    for rel, text in files.items():
        write(root / rel, text, dedent=False)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    theirs = validate(root, home)
    assert any(theirs.values()) == refused, theirs  # the fixture says what the validator does
    assert differences(root, home) == []


@pytest.mark.parametrize("corpus", [CORPUS_PLUGINS, CORPUS], ids=["corpus-plugins", "corpus"])
def test_corpus_agrees_with_the_validator(corpus, tmp_path):
    if not corpus.is_dir():
        pytest.skip(f"{corpus.name} not present")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    unexpected = []
    targets = list(corpus_plugins(corpus))
    # The validator is a separate program: ask it about every plugin at once (it waits on its own
    # start-up, not on this process), then compare one by one.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda t: validate(t, home), targets))
    for target, theirs in zip(targets, answers):
        for file, who, what in differences(target, home, theirs):
            rel = os.path.relpath(file, os.path.realpath(corpus))
            if rel not in KNOWN:
                unexpected.append(f"{rel}: only {who} errs: {what[:300]}")
    assert unexpected == []


if __name__ == "__main__":  # pragma: no cover - a developer's tool
    home = Path("/tmp/skill-ls-validator-home")
    home.mkdir(exist_ok=True)
    for arg in sys.argv[1:]:
        for target in corpus_plugins(Path(arg)) if Path(arg).is_dir() else [Path(arg)]:
            for file, who, what in differences(target, home):
                print(json.dumps({"file": file, "only": who, "what": what[:400]}))
