"""Property-based fuzzing of the parsing layer (issue 7): the source-text layer, the frontmatter
splitter, the YAML layer (compose + safe conversion), the TOML fallback, the JSON sidecar readers and
the configuration loader.

Every input -- arbitrary text and bytes, BOMs, CR/LF mixes, NULs, lone surrogates, deeply nested
YAML, anchors/aliases, alias bombs, 10 MB scalars -- must produce a value plus problems, never an
exception, and within a time bound. Example counts scale with the Hypothesis profile ("ci" by
default, "long" with `--hypothesis-profile=long`, see tests/conftest.py).

Regressions kept here (crashes found by this suite, fixed at their cause):
- libyaml's composer segfaulted on ~100,000 nesting levels of block collections (`? ? ? …`,
  `- - - …`) that the old bracket-count guard did not see -> `nesting_too_deep` now reads the
  parser's event stream (iterative) before composing.
- block mappings nested ~1,000+ levels by indentation raised RecursionError in `node_value`.
- billion-laughs aliases produced small shared structures whose repr/str/json were exponential (the
  AGENT.md checker hung formatting one list entry) -> the node budget charges expanded sizes.
- recursive aliases (`a: &x [*x]`) produced cyclic values (json.dumps raises, walkers never end)
  -> reported as a frontmatter problem.
- agents/openai.yaml was loaded with yaml.load without the nesting guard (same segfault).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skill_ls.core.config import ConfigError, Config, config_from_mapping, load_config_file, merge_client_settings
from skill_ls.core.index import read_marketplace_meta
from skill_ls.core.mcp import allowed_marketplace_mcp, read_agh_config, read_sidecar
from skill_ls.core.parse.frontmatter import MAX_NESTING, Frontmatter, parse_frontmatter, split
from skill_ls.core.parse.text import SourceText

STATUSES = {"ok", "missing", "unterminated", "invalid", "not_mapping"}
TIME_BOUND = 10.0  # CPU seconds (time.process_time) for one parse, even of the 10 MB inputs


def scaled(factor: float):
    """Example count relative to the loaded profile (ci: 40, long: 6000)."""
    return settings(max_examples=max(1, int(settings.default.max_examples * factor)))


# -- strategies -----------------------------------------------------------------------------------
NASTY_CHARS = ["\ufeff", "\x00", "\r", "\n", "\r\n", "\t", "\x0b", "\x0c", "\x85", "\u2028", "\u2029",
               "\ud800", "\udfff", "\u202e", "\u200f", "\u0301", "e\u0301", "\U0001f600", "\ufffd", "é", "ß"]
YAML_TOKENS = ["---", "...", "name", "description", "metadata", "agh", "mcp_servers", "skills", "disabled",
               ": ", ":", "- ", "-", "? ", "&a ", "&b ", "*a", "*b", "<<: ", "!!str ", "!!int ", "!!binary ",
               "!!python/object:os.system ", "!!set ", "!!omap ", "!custom ", "[", "]", "{", "}", ", ", '"',
               "'", "|", "|-", ">", ">+", "#", "# skill-ls: disable=SK007", "%YAML 1.1", "%TAG ! tag:x,2000:",
               "=", "[table]", "[[arr]]", 'key = "v"', "1e400", "0x1F", "0o9", ".nan", "~", "null", "yes",
               "2001-02-30", "2001-12-14t21:59:43.10-05:00", "9" * 400, "\\", "\\u", "\\x00", "  ", "    ",
               "\n", "\r\n", "\r", "a---b", "x" * 300] + NASTY_CHARS

yaml_text = st.lists(st.sampled_from(YAML_TOKENS) | st.text(max_size=8), max_size=60).map("".join)
line_ending = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def documents(draw) -> str:
    """A frontmatter-shaped document: optional BOM, opening line, YAML-ish block, closing, body."""
    bom = draw(st.sampled_from(["", "", "\ufeff"]))
    nl = draw(line_ending)
    opening = draw(st.sampled_from(["---", "---  ", "--- \t", "---x", "", "..."]))
    block = draw(yaml_text)
    closing = draw(st.sampled_from(["---", "...", "--- ", "", "----"]))
    body = draw(st.text(max_size=80) | yaml_text)
    mixed = draw(st.booleans())
    text = f"{bom}{opening}{nl}{block}{nl}{closing}{nl}{body}"
    if mixed:  # mix every line ending in one file
        text = text.replace("\n", draw(line_ending), draw(st.integers(0, 5)))
    return text


# -- invariants -----------------------------------------------------------------------------------
def _span_ok(src: SourceText, span) -> None:
    assert 0 <= span.start_line <= max(src.line_count, 1), span
    assert 0 <= span.end_line <= max(src.line_count, 1) + 1, span
    assert span.start_col >= 0 and span.end_col >= 0, span


def check_frontmatter(src: SourceText, fm: Frontmatter) -> None:
    assert isinstance(fm, Frontmatter)
    assert fm.status in STATUSES
    assert fm.ok == (fm.status == "ok")
    if fm.status != "ok":
        assert fm.problems, "a failed parse must say why"
    for p in fm.problems:
        assert isinstance(p.message, str) and p.message
        _span_ok(src, p.span)
        if p.fix_span is not None:
            _span_ok(src, p.fix_span)
    for key, entry in fm.fields.items():
        assert isinstance(key, str)
        _span_ok(src, entry.key_span)
        _span_ok(src, entry.value_span)
    if fm.status == "ok":
        json.dumps({k: e.value for k, e in fm.fields.items()}, default=str)  # no cycles, finite
        repr(fm.fields)
    fm.block_span()


def parse_all_ways(src: SourceText) -> None:
    start = time.process_time()
    for toml in (False, True):
        for dup in (True, False):
            check_frontmatter(src, parse_frontmatter(src, allow_toml=toml, check_duplicates=dup))
    assert time.process_time() - start < TIME_BOUND


def check_source(src: SourceText) -> None:
    n = src.line_count
    assert n >= 1
    assert "\ufeff" not in src.text[:1]
    total = 0
    for line in range(n):
        text = src.line_text(line)
        assert "\n" not in text and ("\r" not in text)
        total += len(text)
        for col in {0, len(text) // 2, len(text)}:
            units = src.utf16_col(line, col)
            assert src.col_from_utf16(line, units) == col
            off = src.pos_to_offset(line, col)
            assert src.offset_to_pos(off) == (line, col)
    assert total <= len(src.text)
    assert src.line_text(-1) == "" and src.line_text(n) == ""
    src.offset_to_pos(-5), src.offset_to_pos(len(src.text) + 5), src.pos_to_offset(n + 3, 9), src.end_pos()
    src.col_from_utf16(0, -3), src.col_from_utf16(n + 1, 10**9), src.utf16_col(n + 1, 4)


# -- properties -----------------------------------------------------------------------------------
@scaled(3)
@given(st.binary(max_size=2000))
@example(b"\xef\xbb\xbf---\r\nname: x\r\n---\r\n")
@example(b"---\nname: \xff\xfe\x00\n---\n")
@example(b"\xed\xa0\x80")  # a UTF-8-encoded lone surrogate is invalid UTF-8
def test_bytes_never_crash(data):
    src = SourceText.from_bytes(data)
    assert isinstance(src.text, str)
    if src.invalid_utf8_at is not None:
        assert 0 <= src.invalid_utf8_at < len(data)
    check_source(src)
    parse_all_ways(src)


@scaled(3)
@given(st.text(alphabet=st.characters(codec=None, categories=None), max_size=2000))
@example("\ud800---\n")
@example("---\nname: \udfff\n---\n")
@example("---\r\n\r---\n\n")
def test_text_never_crashes(text):
    src = SourceText.from_str(text)
    check_source(src)
    parse_all_ways(src)


@scaled(6)
@given(documents())
def test_frontmatter_documents(text):
    src = SourceText.from_str(text)
    check_source(src)
    status, open_line, close_line = split(src)
    assert status in ("ok", "missing", "unterminated")
    if status == "ok":
        assert open_line == 0 and close_line is not None and 0 < close_line < src.line_count
    parse_all_ways(src)


@scaled(3)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                                       max_size=4),
                    max_leaves=30))
def test_structured_yaml_values(value):
    """Well-formed YAML of arbitrary shape (dumped by PyYAML) parses and keeps its keys."""
    import yaml

    doc = yaml.safe_dump({"name": "x", "value": value}, allow_unicode=True)
    src = SourceText.from_str(f"---\n{doc}---\nbody\n")
    fm = parse_frontmatter(src)
    check_frontmatter(src, fm)
    assert fm.ok and set(fm.fields) == {"name", "value"}


@scaled(2)
@given(st.lists(st.sampled_from(["a = 1", 'b = "x"', "[t]", "[[t]]", "c = [1, [2, [3]]]", "d = {x = 1}",
                                 "e = 1979-05-27T07:32:00Z", 'f = """', "g = '''", "= 1", "h.i = 2", "name = 'n'",
                                 "[" * 50, "x = " + "[" * 2000 + "]" * 2000, "y = " + "{a = " * 500 + "1" + "}" * 500,
                                 "\x00", "\ud800", "inf", "nan"]) | st.text(max_size=10), max_size=20)
       .map("\n".join))
def test_toml_fallback(block):
    src = SourceText.from_str(f"---\n{block}\n---\nYou are an agent.\n")
    fm = parse_frontmatter(src, allow_toml=True)
    check_frontmatter(src, fm)


@scaled(2)
@given(st.binary(max_size=500) | st.text(max_size=500).map(lambda t: t.encode("utf-8", "surrogatepass"))
       | st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                      lambda c: st.lists(c, max_size=3) | st.dictionaries(
                          st.sampled_from(["mcpServers", "mcp_servers", "slug", "registry", "version", "installed_at",
                                           "hash", "command", "x"]), c, max_size=4),
                      max_leaves=20).map(lambda v: json.dumps(v).encode()))
def test_json_sidecars(tmp_path_factory, data):
    d = tmp_path_factory.mktemp("side")
    mcp, meta, skill_md = d / "mcp.json", d / ".agh-meta.json", d / "SKILL.md"
    for p in (mcp, meta, skill_md):
        p.write_bytes(data)
    side = read_sidecar(str(mcp))
    assert side is not None and (side.ok or side.problem)
    m = read_marketplace_meta(str(meta), str(skill_md))
    assert m.ok or m.problem
    m.consent_keys()
    cfg = d / "config.toml"
    cfg.write_bytes(data)
    allowed_marketplace_mcp(read_agh_config(str(d)))


@scaled(2)
@given(st.binary(max_size=400) | st.lists(st.sampled_from([
    'runtimes = ["agh"]', 'runtimes = "x"', "runtimes = [1]", "exclude = [1, 2]", "[rules]", 'select = ["SK"]',
    "ignore = 3", "[rules.severity]", 'SK007 = "bogus"', "SK001 = 1", "[agh]", 'home = "~/x"', "bundled_roots = [[]]",
    'draft_fields = "nope"', "[[roots]]", 'path = "/tmp"', 'runtime = "agh"', 'tier = "workspace"', "tier = 5",
    "[amp]", "skills_path = 1", "[agentcy]", "max_prompt_chars = -1", 'max_prompt_chars = "x"', "unknown = 1",
    "[tool.skill-ls]", "\x00", "= ="]), max_size=12).map(lambda ls: "\n".join(ls).encode()))
def test_config_files_raise_only_config_error(tmp_path_factory, data):
    d = tmp_path_factory.mktemp("cfg")
    for name in (".skill-ls.toml", "pyproject.toml"):
        p = d / name
        p.write_bytes(data if name == ".skill-ls.toml" else b"[tool.skill-ls]\n" + data)
        try:
            cfg = load_config_file(p)
        except ConfigError as exc:
            assert str(exc)
        else:
            assert isinstance(cfg, Config)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=10),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=10), c, max_size=3),
                     max_leaves=15)


@scaled(2)
@given(st.dictionaries(st.sampled_from(["runtimes", "roots", "exclude", "rules", "agh", "amp", "agentcy", "select",
                                        "ignore", "severity", "noUserRoots", "bundledRoots", "additionalRoots",
                                        "draftFields", "maxPromptChars", "skillsPath", "home", "disabled", "x"]),
                       _json, max_size=6))
def test_client_settings_raise_only_config_error(tmp_path, settings_dict):
    """The server feeds client-controlled settings (initializationOptions, workspace/configuration)."""
    for camel in (True, False):
        try:
            config_from_mapping(settings_dict, base=tmp_path, source="client", camel=camel)
        except ConfigError:
            pass
    try:
        merge_client_settings(Config(), settings_dict, tmp_path)
    except ConfigError:
        pass


# -- targeted attacks (deterministic) ----------------------------------------------------------------
def _bomb(levels: int = 9, width: int = 9) -> str:
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines)


ATTACKS = {
    "billion-laughs": f"---\nname: x\n{_bomb()}\n---\n",
    "alias-bomb-in-key": "---\n" + _bomb(7) + "\n? *l6\n: v\n---\n",
    "recursive-seq": "---\nname: &a [*a]\n---\n",
    "recursive-map": "---\nmetadata: &m {agh: *m}\n---\n",
    "recursive-nested": "---\nmetadata: &m\n  agh:\n    mcp_servers: [*m]\n---\n",
    "merge-keys": "---\nbase: &b {x: 1}\nname: {<<: *b}\n---\n",
    "unsafe-tags": "---\nname: !!python/object/apply:os.system [echo hi]\nx: !!python/name:os.system\n---\n",
    "deep-flow": "---\nname: " + "[" * 50_000 + "]" * 50_000 + "\n---\n",
    "deep-flow-map": "---\nname: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n---\n",
    "deep-indent": "---\n" + "".join(" " * i + f"k{i}:\n" for i in range(2_000)) + "---\n",
    "deep-block-seq": "---\nname:\n" + "".join(" " * i + "-\n" for i in range(2_000)) + "---\n",
    "deep-explicit-keys": "---\n" + "? " * 100_000 + "x\n---\n",
    "deep-dash": "---\n" + "- " * 100_000 + "x\n---\n",
    "deep-mixed": "---\n" + "? - " * 50_000 + "x\n---\n",
    "10MB-scalar": "---\nname: x\ndescription: " + "y" * 10_000_000 + "\n---\n",
    "10MB-quoted": '---\ndescription: "' + "\\u00e9" * 1_700_000 + '"\n---\n',
    "10MB-dashes": "---\ndescription: " + "a-b: " * 2_000_000 + "\n---\n",
    "10MB-body": "---\nname: x\ndescription: d\n---\n" + ("line\r\n" * 1_700_000),
    "many-keys": "---\n" + "".join(f"k{i}: {i}\n" for i in range(100_000)) + "---\n",
    "many-dup-keys": "---\n" + "k: 1\n" * 50_000 + "---\n",
    "nul": "---\nname: a\x00b\n---\n\x00",
    "lone-surrogates": "---\nname: \ud800\ndescription: \udfff\n---\n\ud83d",
    "bom-crlf-cr-mix": "\ufeff---\r\nname: x\rdescription: y\n---\r\nbody\r",
    "only-delims": "---\n---\n---\n...\n",
    "unicode-line-seps": "---\nname: a\u2028b\u2029c\x85d\n---\n",
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack(name):
    src = SourceText.from_str(ATTACKS[name])
    check_source(src) if len(ATTACKS[name]) < 200_000 else None
    start = time.process_time()
    for toml in (False, True):
        fm = parse_frontmatter(src, allow_toml=toml)
        check_frontmatter(src, fm)
    assert time.process_time() - start < TIME_BOUND * 2, name
    if name.startswith(("billion", "alias-bomb", "recursive", "deep-")):
        assert fm.status == "invalid" and any(p.kind in ("too_complex", "syntax") for p in fm.problems), fm.problems
    if name == "unsafe-tags":
        assert fm.value("name") == ["echo hi"] or isinstance(fm.value("name"), (str, list))


def test_nesting_limit_is_exact_enough():
    """Ordinary nesting below the limit still parses."""
    ok = "---\nname: x\nm: " + "[" * (MAX_NESTING - 5) + "]" * (MAX_NESTING - 5) + "\n---\n"
    assert parse_frontmatter(SourceText.from_str(ok)).ok
    many_dashes = "---\nname: x-y-z\ndescription: " + "a - b: c ? " * 500 + "\nlist:\n" + "- a\n" * 500 + "---\n"
    fm = parse_frontmatter(SourceText.from_str(many_dashes))
    assert fm.status in ("ok", "invalid") and not any(p.kind == "too_complex" for p in fm.problems)


SEGFAULT_PROBE = r"""
import sys
from skill_ls.core.parse.text import SourceText
from skill_ls.core.parse.frontmatter import parse_frontmatter
from skill_ls.analysis.rules.marketplace import _openai_yaml_problem
for body in ["? " * 200000 + "x", "- " * 200000 + "x", "? - " * 100000 + "x", "[" * 300000]:
    fm = parse_frontmatter(SourceText.from_str("---\n" + body + "\n---\n"), allow_toml=True)
    assert fm.status == "invalid", fm.status
    open(sys.argv[1], "w").write(body)
    problem, _ = _openai_yaml_problem(sys.argv[1])
    assert problem, "openai.yaml nesting must be reported"
print("survived")
"""


def test_deep_nesting_does_not_segfault(tmp_path):
    """Regression: libyaml's composer recursed per nesting level in C and killed the process (SIGSEGV)."""
    proc = subprocess.run([sys.executable, "-c", SEGFAULT_PROBE, str(tmp_path / "openai.yaml")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "survived" in proc.stdout, (proc.returncode, proc.stderr[-2000:])


def test_big_file_read_is_bounded(tmp_path):
    """A file over the read cap is truncated, not loaded whole."""
    from skill_ls.core.index import MAX_READ_BYTES, read_bytes

    p = tmp_path / "SKILL.md"
    with open(p, "wb") as fh:
        fh.write(b"---\nname: x\n---\n")
        fh.truncate(MAX_READ_BYTES + 4096)
    data, error, truncated = read_bytes(str(p))
    assert error is None and truncated and len(data) == MAX_READ_BYTES


# -- the command line: arbitrary arguments --------------------------------------------------------------
ARG_TOKENS = ["check", "where", "list", "catalog", "rules", "explain", "--format", "json", "sarif", "github", "text",
              "markdown", "--runtime", "agh", "amp", "auto", "nope", "--select", "--ignore", "SK", "SK007,RF", ",,",
              "--strict", "--no-user-roots", "--agent", "reviewer", "--workspace", "--config", ".", "/nonexistent",
              "--jobs", "0", "-1", "99", "SK001", "zz", "", "-", "--", "\x00", "\ud800", "é", "--version", "-h"]


@scaled(0.5)
@given(st.lists(st.sampled_from(ARG_TOKENS), max_size=7))
def test_cli_arguments(tmp_path_factory, argv):
    """Any argument vector gives an exit status (0, 1 or 2), never a traceback."""
    import contextlib
    import io

    from skill_ls.cli import main

    if "serve" in argv:
        return
    ws = tmp_path_factory.mktemp("cli")
    (ws / ".agh" / "skills" / "demo").mkdir(parents=True)
    (ws / ".agh" / "skills" / "demo" / "SKILL.md").write_text("---\nname: demo\ndescription: d\n---\n")
    argv = [str(ws) if a == "." else a for a in argv]
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ws)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: --help/--version (0) and usage errors (2)
                code = exc.code
    finally:
        os.chdir(cwd)
    assert code in (0, 1, 2), (argv, code, err.getvalue()[-500:])
    assert "Traceback" not in err.getvalue()
