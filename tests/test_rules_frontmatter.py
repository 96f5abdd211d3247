"""SK001-SK004, SK012, SK013: the frontmatter block, encoding and shape."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def test_sk001_missing_frontmatter_with_fix(workspace):
    f = write(workspace / "a" / "SKILL.md", "# A\n\nNo frontmatter.\n")
    res = check_tree(workspace)
    [d] = diags_for(res, f, "SK001")
    assert d.severity == Severity.ERROR and d.span.start_line == 0
    assert d.fix is not None and d.fix.edits[0].new_text.startswith("---\nname: a\n")


def test_sk001_absent_on_valid_file(workspace):
    f = skill(workspace, "a")
    assert diags_for(check_tree(workspace), f) == []


def test_sk002_unterminated(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: b\n# body\n")
    [d] = diags_for(check_tree(workspace), f, "SK002")
    assert d.span.start_line == 0


def test_sk003_colon_error_points_at_the_column_pyyaml_reports_and_offers_quoting(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK003")
    # The ': ' PyYAML stops at, not the whole value (it can be hundreds of characters in).
    assert (d.span.start_line, d.span.start_col, d.span.end_col) == (2, 21, 22)
    assert d.fix.edits[0].new_text == '"Use when: asked"' and d.fix.safe


def test_sk003_non_utf8(workspace):
    f = workspace / "a" / "SKILL.md"
    f.parent.mkdir()
    f.write_bytes(b"---\nname: a\ndescription: caf\xe9\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK003")
    assert "UTF-8" in d.message and d.span.start_line == 2


def test_sk004_duplicate_key_and_not_mapping(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: b\nname: a\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK004")
    assert d.span.start_line == 3 and "duplicate key 'name'" in d.message
    g = write(workspace / "b" / "SKILL.md", "---\n- a\n---\n")
    assert diags_for(check_tree(workspace), g, "SK004")


def test_sk012_long_body(workspace):
    f = skill(workspace, "a", body="line\n" * 501)
    [d] = diags_for(check_tree(workspace), f, "SK012")
    assert "501 lines" in d.message
    g = skill(workspace, "b", body="word " * 30_000)
    h = skill(workspace, "c", body="line\n" * 400)
    res = check_tree(workspace)
    assert diags_for(res, g, "SK012")
    assert not diags_for(res, h, "SK012")


def test_sk013_bom_and_lowercase_name(workspace):
    f = workspace / "a" / "SKILL.md"
    f.parent.mkdir()
    f.write_bytes("\ufeff---\nname: a\ndescription: b\n---\n".encode())
    [d] = diags_for(check_tree(workspace), f, "SK013")
    assert d.severity == Severity.INFORMATION and "byte-order mark" in d.message
    g = write(workspace / "b" / "skill.md", "---\nname: b\ndescription: b\n---\n")
    [d] = diags_for(check_tree(workspace), g, "SK013")
    assert "SKILL.md" in d.message and d.severity == Severity.WARNING


def test_sk013_crlf_warning_only_under_amp(workspace):
    root = workspace / ".agents" / "skills"
    f = root / "a" / "SKILL.md"
    f.parent.mkdir(parents=True)
    f.write_bytes(b"---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n")
    res = check_tree(workspace)
    amp = [d for d in diags_for(res, f, "SK013") if d.runtime and "amp" in d.runtime]
    assert amp and amp[0].severity == Severity.WARNING and "Amp" in amp[0].message
    plain = write(workspace / "plain" / "SKILL.md", "---\r\nname: plain\r\ndescription: b\r\n---\r\n", dedent=False)
    assert not diags_for(check_tree(workspace, paths=[plain.parent]), plain, "SK013")


def test_file_and_line_suppression(workspace):
    f = write(workspace / "a" / "SKILL.md",
              "---\nname: A_b  # skill-ls: disable=SK008\ndescription: d\n---\n<!-- skill-ls: disable=SK009 -->\n")
    got = {d.code for d in diags_for(check_tree(workspace), f)}
    assert "SK008" not in got and "SK009" not in got


def test_sk003_range_is_the_column_pyyaml_reports_even_far_into_the_value(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: " + "x" * 500 + ": y\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK003")
    assert (d.span.start_line, d.span.start_col, d.span.end_col) == (2, 513, 514)


def test_sk012_marks_the_first_non_empty_line_past_the_budget(workspace):
    """Issue 12: not a zero-width mark on an empty line."""
    f = skill(workspace, "a", body="text\n" * 499 + "\n\n\n   where it runs out\nmore\n")
    [d] = diags_for(check_tree(workspace), f, "SK012")
    start = 4  # the body's first line
    assert d.span.start_line == start + 502 and (d.span.start_col, d.span.end_col) == (3, 20)
    g = skill(workspace, "b", body="\n" * 3 + "word " * 30_000 + "\n")
    [d] = diags_for(check_tree(workspace), g, "SK012")
    assert d.span.end_col > d.span.start_col


# -- issue 24: the glued-key split on CJK, Japanese and Korean text -----------------------------------------
import pytest  # noqa: E402

CJK_TEXTS = {
    "chinese": "当用户需要生成报告时使用这个技能，它会整理数据并输出结果。",
    "chinese-long": "当用户需要生成报告时使用这个技能，它会整理数据并输出结果。" * 40,
    "japanese": "ユーザーがレポートを必要とするときに使います。データを整理して結果を出力します。",
    "japanese-long": "ユーザーがレポートを必要とするときに使います。" * 60,
    "korean": "사용자가 보고서를 요청할 때 사용합니다. 데이터를 정리하고 결과를 출력합니다.",
    "korean-no-space": "사용자가 보고서를 요청할 때 사용합니다.",
    "fullwidth-punct": "報告が必要なとき！",
    "no-punct": "当用户需要生成报告时使用",
}


@pytest.mark.parametrize("key,value", [("license", "Apache-2.0"), ("compatibility", "Requires Python 3"),
                                       ("allowed-tools", "Read Grep")])
@pytest.mark.parametrize("lang", sorted(CJK_TEXTS))
def test_sk003_splits_a_key_glued_onto_cjk_text(workspace, capsys, lang, key, value):
    from skill_ls.cli import main

    text = CJK_TEXTS[lang]
    f = write(workspace / ".claude" / "skills" / "a" / "SKILL.md",
              f"---\nname: a\ndescription: {text}{key}: {value}\n---\nBody\n", dedent=False)
    (d,) = diags_for(check_tree(workspace), f, "SK003")
    assert d.fix is not None and not d.fix.safe and "line break seems lost" in d.message
    main(["check", str(workspace), "--fix", "--unsafe-fixes", "--select", "SK003"])
    fixed = f.read_text(encoding="utf-8")
    assert f"description: {text}\n{key}: {value}\n" in fixed, fixed
    assert not diags_for(check_tree(workspace), f, "SK003")
    before = fixed
    main(["check", str(workspace), "--fix", "--unsafe-fixes", "--select", "SK003"])
    assert f.read_text(encoding="utf-8") == before  # idempotent


@pytest.mark.parametrize("lang", sorted(CJK_TEXTS))
def test_sk003_quotes_cjk_text_when_no_known_key_is_glued(workspace, lang):
    """A word no runtime knows as a key (`origin`) after the sentence is prose with a colon, in any
    script, as after ASCII text: the value is quoted (safe), its text kept exactly."""
    from skill_ls.cli import main

    text = CJK_TEXTS[lang]
    f = write(workspace / "s" / "a" / "SKILL.md", f"---\nname: a\ndescription: {text}origin: community\n---\nBody\n",
              dedent=False)
    (d,) = diags_for(check_tree(workspace), f, "SK003")
    assert d.fix is not None and d.fix.safe
    main(["check", str(workspace), "--fix", "--select", "SK003"])
    assert f'description: "{text}origin: community"\n' in f.read_text(encoding="utf-8")
