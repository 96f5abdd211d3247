"""Frontmatter splitting and YAML parsing with positions (SPEC §2.1)."""
from __future__ import annotations

import pytest
import yaml

from skill_ls.core.model import Span
from skill_ls.core.parse.frontmatter import parse_frontmatter, split
from skill_ls.core.parse.text import SourceText


def parse(text: str, **kw):
    return parse_frontmatter(SourceText.from_str(text), **kw)


def test_fields_keep_key_and_value_positions():
    fm = parse("---\nname: héllo\ndescription: Does X\n---\nbody\n")
    assert fm.ok and fm.body_start_line == 4
    assert fm.fields["name"].key_span == Span(1, 0, 1, 4)
    assert fm.fields["name"].value_span == Span(1, 6, 1, 11)  # code points, not bytes
    assert fm.fields["description"].value == "Does X"


def test_bom_is_accepted_and_recorded():
    src = SourceText.from_bytes("\ufeff---\nname: a\n---\n".encode())
    assert src.had_bom and src.text.startswith("---")
    assert parse_frontmatter(src).fields["name"].value == "a"


def test_crlf_and_cr_line_endings_keep_file_lines():
    for nl in ("\r\n", "\r"):
        text = nl.join(["---", "name: a", "description: b", "---", "body"])
        src = SourceText.from_str(text)
        fm = parse_frontmatter(src)
        assert fm.ok, nl
        assert fm.fields["description"].key_span.start_line == 2
        assert src.line_text(1) == "name: a"
        assert src.line_count == 5


def test_dashes_inside_a_value_are_not_a_delimiter():
    fm = parse("---\nname: a---b\ndescription: x --- y\n---\n")
    assert fm.ok and fm.close_line == 3
    assert fm.fields["name"].value == "a---b"


def test_closing_line_may_be_dots_and_have_trailing_spaces():
    assert split(SourceText.from_str("---  \nname: a\n...\t\n")) == ("ok", 0, 2)


def test_missing_and_unterminated():
    assert parse("# title\n").status == "missing"
    fm = parse("---\nname: a\n")
    assert fm.status == "unterminated"
    assert fm.problems[0].kind == "unterminated"


def test_empty_frontmatter_is_an_empty_mapping():
    fm = parse("---\n---\nbody")
    assert fm.ok and fm.fields == {}


def test_tabs_in_indentation_are_a_syntax_error_at_the_tab():
    fm = parse("---\nmetadata:\n\tkey: v\n---\n")
    assert fm.status == "invalid"
    assert fm.problems[0].kind == "syntax"
    assert fm.problems[0].span.start_line == 2


def test_flow_lists_and_maps():
    fm = parse("---\nallowed-tools: [Read, Grep]\nmetadata: {a: b}\n---\n")
    assert fm.fields["allowed-tools"].value == ["Read", "Grep"]
    assert fm.fields["metadata"].value == {"a": "b"}


def test_unquoted_colon_offers_quoting_fix():
    fm = parse("---\nname: a\ndescription: Use when: the user asks\n---\n")
    p = fm.problems[0]
    assert fm.status == "invalid" and p.kind == "syntax"
    assert "quote" in p.message
    assert p.fix_span == Span(2, 13, 2, 36)
    assert p.fix_text == '"Use when: the user asks"'
    fixed = yaml.safe_load('description: ' + p.fix_text)
    assert fixed["description"] == "Use when: the user asks"


def test_quoting_fix_escapes_quotes_and_backslashes():
    fm = parse('---\ndescription: Say "hi": a\\b\n---\n')
    p = fm.problems[0]
    assert yaml.safe_load("d: " + p.fix_text)["d"] == 'Say "hi": a\\b'


def test_duplicate_keys_are_reported_and_first_position_kept():
    fm = parse("---\nname: a\ndescription: one\ndescription: two\n---\n")
    dup = [p for p in fm.problems if p.kind == "duplicate_key"]
    assert len(dup) == 1 and dup[0].span.start_line == 3
    assert fm.fields["description"].value == "one"


def test_not_a_mapping():
    assert parse("---\n- a\n- b\n---\n").status == "not_mapping"
    assert parse("---\njust text\n---\n").status == "not_mapping"


def test_toml_fallback_only_when_allowed():
    text = '---\nname = "rev"\nprovider = "claude"\n---\nPrompt\n'
    assert parse(text).status == "not_mapping"
    fm = parse(text, allow_toml=True)
    assert fm.ok and fm.format == "toml"
    assert fm.fields["provider"].value == "claude"
    assert fm.fields["provider"].key_span.start_line == 2


def test_non_utf8_bytes_are_replaced_and_recorded():
    src = SourceText.from_bytes(b"---\nname: a\xff\n---\n")
    assert src.invalid_utf8_at == 11
    assert parse_frontmatter(src).ok


def test_five_megabyte_file_parses():
    body = ("word " * 20 + "\n") * 50_000
    text = "---\nname: big\ndescription: large\n---\n" + body
    assert len(text) > 5_000_000
    fm = parse(text)
    assert fm.ok and fm.body_start_line == 4


def test_alias_bomb_is_bounded():
    lines = ["---", "a: &a [x, x, x, x, x, x, x, x, x, x]"]
    prev = "a"
    for i in range(12):
        cur = f"l{i}"
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 10) + "]")
        prev = cur
    lines.append("---")
    fm = parse("\n".join(lines) + "\n")
    assert fm.status in ("ok", "invalid")  # shared nodes convert once; no exponential blow-up


def test_deep_nesting_is_rejected_not_crashing():
    fm = parse("---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n")
    assert fm.status == "invalid"
    assert fm.problems[0].kind == "too_complex"


def test_suppression_comments_on_frontmatter_lines():
    fm = parse("---\nname: A  # skill-ls: disable=SK008,SK009\n---\n")
    assert fm.suppressed_lines == {1: frozenset({"SK008", "SK009"})}


def test_utf16_columns():
    src = SourceText.from_str("a😀b: c\n")
    assert src.utf16_col(0, 2) == 3
    assert src.col_from_utf16(0, 3) == 2


def test_released_text_is_read_again_from_its_file(tmp_path):
    f = tmp_path / "SKILL.md"
    f.write_bytes("\ufeff---\nname: a\n---\nbody é\n".encode())
    src = SourceText.from_bytes(f.read_bytes(), str(f))
    assert src.release() and src.line_count == 5
    assert src.line_text(3) == "body é" and src.text.startswith("---")
    assert not SourceText.from_str("x").release()  # an editor buffer has no file to read again


# -- the fast path for simple frontmatter must read exactly what libyaml reads -----------------------
FAST_CASES = [
    "name: a\ndescription: Does X\n",
    "name: a\n\n# a comment\ndescription: 'single' \n",
    'name: "quoted"\ndescription: "x: y # not a comment"\n',
    "a: yes\nb: no\nc: on\nd: 0755\ne: 1:30\nf: 1_000\ng: 2024-01-01\nh: 2024-01-01 10:00:00\ni: ~\nj: null\n",
    "a: 0o17\nb: 0x1F\nc: .inf\nd: -.inf\ne: .nan\nf: 1e3\ng: 1.0\nh: +1\ni: =\nj: True\n",
    "name: a\nname: b\nx: 1\nx: 2\n",
    "description: Use {baseDir}/scripts and [links](x) and http://example.com/a:b\n",
    "description: C# and F#\n",  # '#' inside a plain scalar: libyaml decides
    "description: ends with colon:\n",
    "description: has: colon space\n",
    "description: trailing spaces   \nname: x  \n",
    "name: -dash\nother: ?q\nthird: :colon\n",
    "name: 'it''s'\n",
    'name: "esc \\" quote"\n',
    "name: `tick`\nother: @at\n",
    "name: a\n  continued: line\n",
    "name:\n  - list\n",
    "name: a\ndescription: multi\n  line plain\n",
    "tools: [a, b]\n",
    "k: v\n\tk2: v\n",
    "k: é ünïcödé 😀 text\n",
    "k: a\u2028b\n",
    "k: a\x85b\n",
    "1: one\ntrue: t\nyes: y\n",
    "k: a\r\nj: b\r\n",
    "k: 'open\n",
    'k: "a" b\n',
    "k: !!str 1\n",
    "k: &x a\nj: *x\n",
    "k: |\n  block\n",
    "key with space: x\n",
    "k" * 200 + ": long key\n",
    "",
    "# only a comment\n",
    # entries composed on their own lines: their marks, values, ends and duplicates must be the block's
    "name: a\nrequires:\n  mcp: [rube]\n",
    "name: a\nrequires:\n  mcp:\n    - rube\n\n# c\nx: 1\n",
    "a:\n- x\n- y\nb: c\n",
    "meta:\n  k: v\n  k: w\nother:\n  j: 1\n  j: 2\nmeta: again\n",
    "meta:\n  k: v\n  # c\n\n  j: [a, b]\n",
    "description: >-\n  folded\n  text\nname: x\n",
    "description: |\n  # not a comment\n  text\n",
    "a: [x, y\n  , z]\nb: 1\n",
    "a: {k: v}\nb: [1, 2]\nc: []\n",
    "a: x\n  continued\nb: 'q'\n",
    "a: x # comment\nb: y\n",
    "a:\n  b: &x v\n  c: *x\n",
    "a: *x\n",
    "a:\n  b: c\n d: e\n",
    "a: b\n- c\n",
    "  a: b\n",
    "- a\n",
    "a:\n---\nb: c\n",
    "a: [b\nc: d\n",
    "true:\n  1: x\n",
    "a:\n  b: !!binary aGk=\n  c: 2024-01-01\n  d: 0x1F\n",
    "a:\n" + "  [" * 300 + "\n",
]


def _both(block: str):
    from skill_ls.core.parse import frontmatter as f

    text = "---\n" + block + ("" if block.endswith("\n") or not block else "\n") + "---\nbody\n"
    fast = parse_frontmatter(SourceText.from_str(text))
    saved = f._fast_fields
    f._fast_fields = lambda *a: False  # type: ignore[assignment]
    try:
        slow = parse_frontmatter(SourceText.from_str(text))
    finally:
        f._fast_fields = saved
    return fast, slow


def _shape(fm):
    import math

    def norm(v):
        return "NaN" if isinstance(v, float) and math.isnan(v) else (type(v).__name__, v)

    def node(n):  # a collection's node as rules read it: kinds, tags, styles, values and marks
        import yaml

        if n is None:
            return None
        marks = (n.start_mark.line, n.start_mark.column, n.end_mark.line, n.end_mark.column)
        if isinstance(n, yaml.MappingNode):
            return ("map", n.tag, n.flow_style, marks, [(node(k), node(v)) for k, v in n.value])
        if isinstance(n, yaml.SequenceNode):
            return ("seq", n.tag, n.flow_style, marks, [node(v) for v in n.value])
        return ("scalar", n.tag, n.style, marks, n.value)

    return (fm.status, [(p.kind, p.span, p.message) for p in fm.problems],
            [(k, e.key_span, norm(e.value), e.value_span, node(e.node), e.plain, norm(e.yaml12))
             for k, e in fm.fields.items()])


def test_fast_path_reads_what_libyaml_reads():
    for block in FAST_CASES:
        fast, slow = _both(block)
        assert _shape(fast) == _shape(slow), block


def test_fast_path_is_taken_for_simple_blocks():
    from skill_ls.core.parse import frontmatter as f

    fm = parse_frontmatter(SourceText.from_str("---\nname: a\ndescription: 'b'\n---\n"))
    assert fm.ok
    taken = f.Frontmatter(status="ok")
    assert f._fast_fields(taken, "name: a\ndescription: 'b'\n", 1, True)
    nested = f.Frontmatter(status="ok")  # an entry of several lines: composed on its own
    assert f._fast_fields(nested, "name: a\ntools:\n  - x\n", 1, True) and nested.fields["tools"].value == ["x"]
    assert not f._fast_fields(f.Frontmatter(status="ok"), "name: a\nk: &x [b]\nj: *x\n", 1, True)  # anchors
    assert not f._fast_fields(f.Frontmatter(status="ok"), "name: a\n? complex\n", 1, True)  # not a key line
    assert fm.fields["description"].value == "b"


def test_fast_path_refuses_exactly_what_a_plain_line_cannot_hold():
    """_FAST_REFUSE lists the ranges left out of a plain line's characters; it must equal the negated
    class (what libyaml reads unlike a plain line) on every code point."""
    import re

    from skill_ls.core.parse.frontmatter import _FAST_REFUSE

    allowed = re.compile(r"[\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
    text = "".join(map(chr, range(0x110000)))
    refused = {m.start() for m in _FAST_REFUSE.finditer(text)}
    assert refused == {i for i in range(0x110000) if not allowed.match(text, i)}


def test_fast_path_agrees_with_libyaml_on_the_corpus():
    import pytest
    from conftest import CORPUS as corpus

    from skill_ls.core.parse import frontmatter as f

    if not corpus.is_dir():
        pytest.skip("shared corpus not present")
    from skill_ls.core.parse.frontmatter import split as split_fm

    n = taken = 0
    for path in sorted(corpus.rglob("*.md")):
        src = SourceText.from_bytes(path.read_bytes())
        status, first, last = split_fm(src)
        if status != "ok":
            continue
        block = src.text[src.line_start(1):src.line_start(last)]
        fast, slow = _both(block)
        assert _shape(fast) == _shape(slow), path
        n += 1
        taken += f._fast_fields(f.Frontmatter(status="ok"), block, 1, True)
    assert n > 1500 and taken > n // 3  # both paths are exercised


def test_fast_path_agrees_with_libyaml_on_random_lines():
    import random

    pool = (list("abcXYZ019 _-.:#'\"{}[],&*!|>%@`?\\=~+é😀") * 3 + list("\t\r")
            + ["\u2028", "\x85", "\ufeff", ": ", " #", "yes", "null", "1:30", "2024-01-01", "0x1F", ".inf"])
    rnd = random.Random(20261124)
    for _ in range(3000):
        lines = []
        for _ in range(rnd.randint(1, 4)):
            key = rnd.choice(["name", "description", "k", "a.b", "x-y", "1", "true", "k"])
            val = "".join(rnd.choice(pool) for _ in range(rnd.randint(0, 8)))
            quote = rnd.choice(["", "", "'", '"'])
            lines.append(rnd.choice(["", "", "#c\n", "\n"]) + key + rnd.choice([": ", ":  ", ":"]) + quote + val
                         + rnd.choice(["", "", quote, " "]))
        block = "\n".join(lines) + "\n"
        fast, slow = _both(block)
        assert _shape(fast) == _shape(slow), block


def test_fast_path_agrees_with_libyaml_on_random_nested_entries():
    """Entries of several lines (nested blocks, sequences, flow collections, block scalars, comments),
    composed on their own lines by the fast path, read as the whole block composed by libyaml."""
    import random

    keys = ["name", "k", "a.b", "x-y", "1", "true", "k", "meta"]
    scalars = ["v", "'q'", '"d"', "1", "yes", "~", "a b", "x: y", "[a, b]", "{k: v}", "[]", "&x v", "*x",
               "!!str 1", "|", ">-", "é😀", "#c", "- z", "? q", "[a,", "b]", "", "2024-01-01", "0x1F"]
    rnd = random.Random(20261125)
    for _ in range(4000):
        lines = []
        for _ in range(rnd.randint(1, 5)):
            key = rnd.choice(keys)
            if rnd.random() < 0.4:
                lines.append(f"{key}: {rnd.choice(scalars)}")
                continue
            lines.append(rnd.choice([f"{key}:", f"{key}: ", f"{key}: |", f"{key}: >", f"{key}: ["]))
            indent = rnd.choice([" ", "  ", "  ", "    ", ""])
            for _ in range(rnd.randint(0, 4)):
                item = rnd.choice([f"{rnd.choice(keys)}: {rnd.choice(scalars)}", f"- {rnd.choice(scalars)}",
                                   f"{rnd.choice(keys)}:", rnd.choice(scalars), "# c", "", "]"])
                lines.append(rnd.choice([indent, indent, indent + "  ", ""]) + item)
        block = "\n".join(lines) + "\n"
        fast, slow = _both(block)
        assert _shape(fast) == _shape(slow), block


def test_utf16_columns_count_astral_characters_twice_and_follow_a_reread(tmp_path):
    plain = SourceText.from_str("é café\nabc")
    assert plain.utf16_col(0, 6) == 6 and plain.utf16_cols(0, 2, 6) == (2, 6)
    assert plain.utf16_col(0, 99) == 6  # past the end: the line's length
    emoji = SourceText.from_str("a😀b\nplain")
    assert emoji.utf16_col(0, 2) == 3 and emoji.utf16_cols(0, 1, 3) == (1, 4)
    assert emoji.utf16_cols(1, 0, 5) == (0, 5)
    # A released text read again from a changed file: the columns are counted in the new text.
    path = tmp_path / "SKILL.md"
    path.write_text("é x\n", encoding="utf-8")
    src = SourceText.from_bytes(path.read_bytes(), str(path))
    assert src.utf16_col(0, 3) == 3
    assert src.release()
    path.write_text("😀 x\n", encoding="utf-8")
    assert src.utf16_col(0, 3) == 4


@pytest.mark.parametrize("text", ["", "a", "a\n", "a\nb", "a\nb\n", "\n\n\n", "---\nname: x\n---\nbody\n",
                                  "x\n" * 70, "é\n\U0001f600\nz"])
def test_line_text_of_the_first_lines_without_counting_them_all(text):
    """`line_text` reads the first lines by scanning (no line count first): the same lines, and ''
    past the end, as splitting the text."""
    lines = text.split("\n")
    for n in range(-1, len(lines) + 3):
        expected = lines[n] if 0 <= n < len(lines) else ""
        assert SourceText.from_str(text).line_text(n) == expected, n  # (a fresh text: nothing known yet)
    src = SourceText.from_str(text)
    assert [src.line_text(n) for n in range(len(lines) + 2)] == lines + ["", ""]
