"""Property-based fuzzing of every rule, the output formatters and the catalog renderers (issue 7).

Each example writes arbitrary SKILL.md / AGENT.md / mcp.json / .agh-meta.json / agents/openai.yaml
contents into a tree that puts the same skill under a root of *every* runtime (AGH workspace,
marketplace and agent-local tiers, Agent Skills, Amp, Claude Code, Codex, Agentcy, workspace agents)
plus agents of all three families, then runs `skill_ls.analysis.check.Checker` over it, formats the result in
text/JSON/SARIF/GitHub, resolves `where` for every name, and renders `catalog_object` for every runtime
with and without the agent. Nothing may raise (except `CatalogError`, the catalog's documented refusal)
and every example must finish within a time bound.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skill_ls import output
from skill_ls.analysis.check import Checker
from skill_ls.core.config import Config, ExtraRoot
from skill_ls.core.discovery import Environment
from skill_ls.core.index import Index
from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit
from skill_ls.core.labels import where
from skill_ls.core.resolve import effective_names
from skill_ls.analysis.rules import all_rules
from skill_ls.core.runtimes import RUNTIMES, all_known_fields

# CPU seconds of this process (time.process_time): a hang detector that other processes' load does not trip.
TIME_BOUND = 20.0

try:  # the catalog renderers (issue 3)
    from skill_ls.analysis.catalog import CatalogError, catalog_object
except ImportError:  # pragma: no cover - before issue 3 landed
    catalog_object = None

try:  # navigation helpers used by hover/definition/links in the server
    from skill_ls.analysis import navigation
except ImportError:  # pragma: no cover
    navigation = None


def scaled(factor: float):
    return settings(max_examples=max(1, int(settings.default.max_examples * factor)))


# -- the tree -------------------------------------------------------------------------------------
SKILL_SITES = [".agh/skills/s1", ".agents/skills/s1", ".claude/skills/s1", ".codex/skills/s1",
               "workspace/agents/skills/s1", "agentcy/s1", "amp/s1", ".agh/agents/a1/skills/s1"]


def build_tree(base: Path, skill: bytes, agent: bytes, mcp: bytes, meta: bytes, openai: bytes,
               second: bytes | None = None):
    if base.exists():
        shutil.rmtree(base)
    ws, home = base / "ws", base / "home"
    files: dict[Path, bytes] = {}
    for site in SKILL_SITES:
        files[ws / site / "SKILL.md"] = skill
        files[ws / site / "mcp.json"] = mcp
    files[ws / ".agh/skills/s1/references/guide.md"] = b"# guide\n"
    files[ws / ".agh/skills/s1/scripts/run.py"] = b"print(1)\n"
    files[ws / ".codex/skills/s1/agents/openai.yaml"] = openai
    if second is not None:  # a second copy with other content: shadowing and ambiguity paths
        files[ws / ".agh/skills/s2/SKILL.md"] = second
        files[ws / ".agents/skills/s2/SKILL.md"] = second
        files[home / ".claude/skills/s2/SKILL.md"] = second
    market = home / ".agh/skills/s1"
    files[market / "SKILL.md"] = skill
    files[market / ".agh-meta.json"] = meta
    files[market / "mcp.json"] = mcp
    files[home / ".agh/config.toml"] = (b'[skills]\nallowed_marketplace_mcp = ["reg:s1"]\n'
                                       b'[defaults]\nprovider = "p"\n')
    files[ws / ".agh/agents/a1/AGENT.md"] = agent
    files[ws / ".agh/agents/a1/mcp.json"] = mcp
    files[home / ".agh/agents/a1/AGENT.md"] = agent
    files[ws / ".claude/agents/a1.md"] = agent
    files[ws / "workspace/agents/a1.md"] = agent
    files[ws / "workspace/agents/a2/AGENT.md"] = agent
    for p, data in files.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    config = Config(runtimes=tuple(RUNTIMES), roots=(ExtraRoot(ws / "agentcy", "agentcy", None),),
                    amp_skills_path=(ws / "amp",), agentcy_max_prompt_chars=4000, agh_disabled=("s2",))
    env = Environment(str(home), str(home / ".agh"), str(home / ".codex"), None)
    return ws, home, config, env


def run_everything(base: Path, skill: bytes, agent: bytes = b"", mcp: bytes = b"{}", meta: bytes = b"{}",
                   openai: bytes = b"", second: bytes | None = None) -> list[Diagnostic]:
    start = time.process_time()
    ws, home, config, env = build_tree(base, skill, agent, mcp, meta, openai, second)
    index = Index(str(ws), env, config).build()
    checker = Checker(index)
    files = checker.files_in_scope([str(ws), str(home)])
    assert files, "the tree must be in scope"
    diags = checker.check_files(files)
    known = set(all_rules())
    for d in diags:
        assert isinstance(d, Diagnostic) and d.code in known, d
        assert isinstance(d.message, str) and d.message
        assert d.span.start_line >= 0 and d.span.start_col >= 0 and d.span.end_line >= 0 and d.span.end_col >= 0
    text = output.format_text(diags, len(files))
    assert text.endswith("\n")
    parsed = json.loads(output.format_json(diags, len(files), index.store))
    assert len(parsed["diagnostics"]) == len(diags)
    sarif = json.loads(output.format_sarif(diags, index.store))
    assert sarif["version"] == "2.1.0"
    for line in output.format_github(diags).split("\n")[:-1]:  # GitHub splits workflow commands on \n only
        assert line.startswith("::") and "\r" not in line
    for rid in index.active:
        for res in effective_names(index, rid):
            json.dumps(where(index, rid, res.name))
        for agent_name in (None, "a1", "a2"):
            json.dumps(where(index, rid, "s1", agent_name))
            if catalog_object is not None:
                try:
                    obj = catalog_object(index, rid, agent_name)
                except CatalogError as exc:
                    assert str(exc) and len(str(exc).splitlines()) == 1, str(exc)  # a one-line reason
                else:
                    assert obj["chars"] == len(obj["text"])
                    json.dumps(obj)
    if navigation is not None:
        for path in files:
            if not path.endswith(".md"):
                continue
            doc = index.store.get(path, agent=any(a.path == path for a in index.agents))
            refs = navigation.skill_refs(doc, is_skill=path.endswith("SKILL.md"))
            navigation.file_links(doc)
            for line in (-1, 0, 1, 2, doc.src.line_count, 10**6):
                for col in (-1, 0, 3, 10**6):
                    navigation.ref_at(refs, line, col)
                    navigation.key_at(doc, line, col)
                    navigation.in_frontmatter(doc, line)
                    navigation.enclosing_key(doc, line)
    assert time.process_time() - start < TIME_BOUND
    return diags


@pytest.fixture(scope="module")
def fuzz_base(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzzrules") / "t"


# -- strategies -----------------------------------------------------------------------------------
AGENT_KEYS = ["name", "provider", "command", "model", "tools", "deny_tools", "toolsets", "permissions",
              "mcp_servers", "hooks", "description", "skills", "memory", "skills.disabled", "mcpServers",
              "disallowedTools", "permissionMode", "maxTurns", "isolation", "color", "initialPrompt",
              "interface", "dependencies", "policy"]
KEYS = sorted(set(all_known_fields()) | set(AGENT_KEYS)) + ["nmae", "descripton", "x-unknown", "Name", "", "1", "?"]
SCALARS = ["s1", "s2", "a1", "x", '""', "''", "~", "null", "true", "no", "0", "-1", "1e400", ".nan", "0x10",
           "2001-01-01", "9" * 60, "Use when: things happen", '"a <b> & \\"c\\""', "<script>&amp;", "a" * 70,
           "b" * 1100, "c " * 900, "'é\u0301 \u202e rtl'", "\"\\ud800\"", "agh__skill_view", "agh__skill_*",
           "mcp__github__*", "bad tool", "*", "deny-all", "approve-all", "fork", "high", "bash", "user",
           "!!binary aGk=", "!custom x", "|\n  block\n  text", ">-\n  folded", "&x anchored", "*x"]
LISTS = ["[]", "[s1, s2]", "[agh__skill_view, 'mcp__x__*', Bad, 3, null]", "[{name: m, command: c}]",
         "[{name: 1}, {command: [x]}, 5]", "[[nested]]", "- s1\n  - s2", "\n  - s1\n  - 42"]
MAPS = ["{}", "{agh: {mcp_servers: [{name: m, command: c, args: [1], env: {A: 1}}]}}",
        "{agh: {mcp_servers: {m: {command: c}}}}", "{disabled: [s1, s2, 7]}", "{disabled: s1}",
        "{inherit: true, extra_sources: [x]}", "{a: {b: {c: [1, 2]}}}", "{k: 1, k: 2}", "\n  disabled:\n    - s1",
        "{tools: [{name: t}], x: y}", "{1: 2, null: 3, [a]: 4}"]
VALUE = st.sampled_from(SCALARS + LISTS + MAPS) | st.text(max_size=30).map(json.dumps)

BODY_BITS = ["# Title", "See [guide](references/guide.md).", "[up](../s2/SKILL.md)", "[abs](/etc/passwd)",
             "[home](~/secret)", "[enc](%2e%2e/x)", "[link](https://x.y)", "[anchor](#x)", "![img](img.png)",
             'skill_read_file("s1", "references/guide.md")', 'skill_read_file("s2", "../../../etc/passwd")',
             'skill_run_script("s1", "run.py")', 'skill_run_script("s1", "evil.exe")', "`scripts/run.py`",
             "`scripts/missing.sh --flag`", "!`rm -rf /`", "``!`echo`` ``", "```", "~~~", "$ARGUMENTS[0]",
             "${SKILL_DIR}", "<!-- skill-ls: disable=RF001,SK007 -->", "<!-- skill-ls: disable=ALL -->", "\x00",
             "\ud800", "\u202e", "line\r", "line\r\n", "x" * 200]
body = st.lists(st.sampled_from(BODY_BITS) | st.text(max_size=20), max_size=15).map("\n".join)


@st.composite
def frontmatter_doc(draw) -> str:
    keys = draw(st.lists(st.sampled_from(KEYS), max_size=10))
    lines = []
    for k in keys:
        value = draw(VALUE)
        suffix = draw(st.sampled_from(["", "", "  # skill-ls: disable=SK007", "  # skill-ls: disable=ALL"]))
        lines.append(f"{k}: {value}{suffix}" if "\n" not in value else f"{k}: {value}")
    if draw(st.booleans()):
        lines.insert(0, "name: s1")
        lines.insert(1, "description: " + draw(st.sampled_from(["Does s1 things.", "a <b> & c", "x" * 300, '""'])))
    bom = draw(st.sampled_from(["", "", "\ufeff"]))
    nl = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    opening = draw(st.sampled_from(["---", "---", "---", "", "----"]))
    closing = draw(st.sampled_from(["---", "---", "...", ""]))
    text = bom + nl.join([opening, *lines, closing]) + nl + draw(body)
    return text


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


contents = frontmatter_doc().map(encode) | st.binary(max_size=300)
json_blobs = st.sampled_from([
    b"{}", b"", b"[]", b"null", b"{", b'{"mcpServers": {"m": {"command": "c"}}}', b'{"mcp_servers": {"m": 1}}',
    b'{"mcpServers": []}', b'{"mcpServers": {"m": {"command": ["x"], "env": {"A": 1}}}}',
    b'{"slug": "s1", "registry": "reg", "version": "1", "installed_at": "now"}',
    b'{"slug": "s1", "registry": "reg", "version": "1", "installed_at": "now", "hash": "sha256:' + b"0" * 64 + b'"}',
    b'{"slug": "s1", "registry": "reg", "version": "1", "installed_at": "now", "hash": "md5:x"}',
    b'{"slug": 1, "registry": null}', b'\xef\xbb\xbf{"mcpServers": {}}', b"\x00\xff", b"[" * 100_000,
    b'{"a": ' * 5000 + b"1" + b"}" * 5000]) | st.binary(max_size=100)
yaml_blobs = st.sampled_from([b"", b"interface: {display_name: x}\npolicy: {}\n", b"interface: 3", b"- a",
                              b"dependencies: {tools: [1]}", b"dependencies: {tools: [{type: mcp}]}", b"? " * 50_000,
                              b"a: &a [*a]", b"{", b"\x00"]) | st.binary(max_size=100)


# -- properties -----------------------------------------------------------------------------------
@scaled(1)
@given(skill=contents, agent=contents, second=st.none() | contents)
@example(skill=b"---\nname: s1\ndescription: ok\n---\n# body\n", agent=b"---\nname: a1\n---\nYou help.\n", second=None)
@example(skill=b'---\nagent: s1\nagent: s1\neffort: "\\u001e"\n---\n', agent=b"", second=None)  # \x1e in a message
def test_rules_on_arbitrary_files(fuzz_base, skill, agent, second):
    run_everything(fuzz_base, skill, agent, second=second)


@scaled(1)
@given(skill=frontmatter_doc().map(encode), mcp=json_blobs, meta=json_blobs, openai=yaml_blobs)
@example(skill=b'---\nagent: s1\nagent: s1\nname: |\n  block\n  text\n---\n', mcp=b'{}', meta=b'{}',
         openai=b'')  # regression: a block-scalar name broke CatalogError's one-line reason
def test_sidecar_rules(fuzz_base, skill, mcp, meta, openai):
    run_everything(fuzz_base, skill, b"---\nname: a1\nprovider: p\n---\nYou help.\n", mcp, meta, openai)


@scaled(1)
@given(agent=frontmatter_doc().map(encode), body_text=body)
def test_agent_rules(fuzz_base, agent, body_text):
    skill = b"---\nname: s1\ndescription: d\n---\n" + encode(body_text)
    run_everything(fuzz_base, skill, agent + b"\n" + encode(body_text), b'{"mcpServers": {"m": {"command": "c"}}}')


_ATTACK_VALUES = {
    "billion-laughs": "\n".join(["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] +
                                [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]),
    "recursive": "metadata: &m {agh: {mcp_servers: [*m]}}\ntools: &t [*t]\nskills: &s {disabled: *s}",
    "deep": "metadata: " + "[" * 10_000 + "]" * 10_000,
    "deep-block": "".join(" " * i + f"k{i}:\n" for i in range(1_500)),
    "10MB": "description: " + "d" * 10_000_000,
    "many-servers": "metadata: {agh: {mcp_servers: [" + ", ".join(f"{{name: m{i}, command: c}}" for i in range(5000)) + "]}}",
}


@pytest.mark.parametrize("attack", sorted(_ATTACK_VALUES))
def test_rules_on_attack_frontmatter(fuzz_base, attack):
    doc = f"---\nname: s1\n{_ATTACK_VALUES[attack]}\n---\nYou help. [x](../../x)\n".encode()
    diags = run_everything(fuzz_base, doc, doc, b'{"mcpServers": {"m": {"command": "c"}}}',
                           b'{"slug": "s1", "registry": "reg", "version": "1", "installed_at": "now"}', doc)
    if attack in ("billion-laughs", "recursive", "deep", "deep-block"):
        assert {"SK003", "AG001"} <= {d.code for d in diags}


@scaled(2)
@given(st.lists(st.builds(
    Diagnostic,
    path=st.sampled_from(["/nope/SKILL.md", "rel/AGENT.md", "/x/mcp.json", "/x/openai.yaml", "", "a b\nc:%,.md",
                          "/\u202e/\u0301.md", "C:\\w\\SKILL.md"]),
    span=st.builds(Span, st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6)),
    code=st.sampled_from(sorted(all_rules()) + ["XX999"]),
    message=st.text(max_size=40),
    severity=st.sampled_from(list(Severity)),
    runtime=st.none() | st.sampled_from(list(RUNTIMES) + ["amp,codex"]),
    related=st.lists(st.builds(Related, st.text(max_size=10), st.builds(Span, st.integers(0, 99), st.integers(0, 99),
                                                                         st.integers(0, 99), st.integers(0, 99)),
                               st.text(max_size=10)), max_size=2).map(tuple),
    fix=st.none() | st.builds(Fix, st.text(max_size=10), st.lists(st.builds(
        TextEdit, st.text(max_size=10), st.builds(Span, st.integers(0, 9), st.integers(0, 9), st.integers(0, 9),
                                                  st.integers(0, 9)), st.text(max_size=10)), max_size=2).map(tuple)),
), max_size=8))
def test_output_formatters(diags):
    from skill_ls.core.index import DocumentStore

    store = DocumentStore()
    store.set_overlay("/nope/SKILL.md", "---\nname: \U0001f600x\n---\n\ud800", 1)
    out = [output.format_text(diags, 3), output.format_json(diags, 3, store), output.format_sarif(diags, store),
           output.format_github(diags)]
    assert len(json.loads(out[1])["diagnostics"]) == len(diags)
    json.loads(out[2])
    assert len(out[3].split("\n")) == len(diags) + 1  # one workflow command per line (GitHub splits on \\n only)


# -- hostile bodies: regular expressions must stay (near-)linear -----------------------------------------
# Regressions: these lines took 10-60 s before (quadratic backtracking in the link, inline-code,
# file-suppression and agh__skill_view patterns); each must now be checked within the time bound.
BODY_ATTACKS = {
    "suppression-spaces": "<!-- skill-ls: disable=" + " " * 50_000,
    "suppression-many": "<!-- skill-ls: disable=" * 5_000,
    "link-open-brackets": "[" * 50_000 + "](",
    "link-nested-starts": "[a](" * 20_000,
    "link-escapes": "[" + "\\]" * 20_000 + "(",
    "backtick-run": "`" * 50_000,
    "backtick-mixed": "`x``x```x````x" * 3_000,
    "skill-view-no-name": "agh__skill_view " * 10_000,
    "skill-view-names": "agh__skill_view {'name': 'x'} " * 5_000,
    "calls-unclosed": 'skill_read_file("' * 10_000,
    "inline-script-unclosed": "`scripts/" + "a " * 20_000,
    "shell-unclosed": " !`" * 20_000,
    "fences": "```\n~~~~\n" * 10_000,
    "headings": "# " + " #" * 20_000 + " x",
    "long-line": "x" * 2_000_000,
    "many-links": "[a](b) " * 3_000,
}


@pytest.mark.parametrize("attack", sorted(BODY_ATTACKS))
def test_rules_on_hostile_bodies(fuzz_base, attack):
    doc = f"---\nname: s1\ndescription: d\n---\n{BODY_ATTACKS[attack]}\n".encode()
    start = time.process_time()
    run_everything(fuzz_base, doc, b"---\nname: a1\nprovider: p\n---\n" + doc[doc.index(b"\n---\n") + 5:])
    assert time.process_time() - start < 15, attack


# -- incremental updates (the language server's path) -----------------------------------------------
INCR_FILES = [".agh/skills/s1/SKILL.md", ".agh/skills/s2/SKILL.md", ".agh/skills/s1/deep/x/y/z/SKILL.md",
              ".agents/skills/s1/SKILL.md", ".claude/skills/s2/SKILL.md", ".agh/agents/a1/AGENT.md",
              ".agh/agents/a1/skills/s1/SKILL.md", ".agh/skills/s1/mcp.json", "workspace/agents/a1.md",
              "outside/SKILL.md", ".agh/skills/SKILL.md"]
INCR_HOME = ["home/.agh/skills/s1/SKILL.md", "home/.agh/skills/s1/.agh-meta.json"]
operation = st.tuples(st.sampled_from(["write", "delete", "overlay", "drop", "mkdir", "symlink"]),
                      st.sampled_from(INCR_FILES + INCR_HOME), contents)


@scaled(1)
@given(st.lists(operation, min_size=1, max_size=12))
def test_incremental_updates(fuzz_base, ops):
    """Index.update_file after arbitrary create/modify/delete/overlay sequences never raises, and
    checking every file afterwards works."""
    if fuzz_base.exists():
        shutil.rmtree(fuzz_base)
    ws, home = fuzz_base / "ws", fuzz_base / "ws" / "home"
    for rel in (".agh/skills/s1/SKILL.md", ".agh/agents/a1/AGENT.md", "home/.agh/skills/s1/SKILL.md"):
        p = ws / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"---\nname: s1\ndescription: d\n---\nbody\n" if "SKILL" in rel else b"---\nname: a1\n---\nHi\n")
    config = Config(runtimes=("agh", "agentskills", "claude-code", "codex", "workspace-agents"))
    env = Environment(str(home), str(home / ".agh"), str(home / ".codex"), None)
    index = Index(str(ws), env, config).build()
    for op, rel, data in ops:
        p = ws / rel
        if op == "write":
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            p.parent.mkdir(parents=True, exist_ok=True)
            if p.is_symlink():
                p.unlink()
            p.write_bytes(data)
        elif op == "delete":
            if p.is_symlink() or p.is_file():
                p.unlink()
            elif p.is_dir():
                shutil.rmtree(p)
        elif op == "overlay":
            index.store.set_overlay(str(p), data.decode("utf-8", "surrogateescape"), 3)
        elif op == "drop":
            index.store.drop_overlay(str(p))
        elif op == "mkdir":
            if p.is_symlink() or p.is_file():
                p.unlink()
            p.mkdir(parents=True, exist_ok=True)
        elif op == "symlink":
            p.parent.mkdir(parents=True, exist_ok=True)
            if p.is_symlink() or p.is_file():
                p.unlink()
            elif p.is_dir():
                shutil.rmtree(p)
            os.symlink(p.parent, p)  # a file name that is a link to its own directory
        touched = index.update_file(str(p))
        assert isinstance(touched, set)
    checker = Checker(index)
    files = checker.files_in_scope([str(ws)])
    checker.check_files(files)
    for rid in index.active:
        for res in effective_names(index, rid):
            where(index, rid, res.name)
        if catalog_object is not None:
            try:
                json.dumps(catalog_object(index, rid, None))
            except CatalogError:
                pass
