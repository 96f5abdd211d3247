"""`skill-ls check --fix / --unsafe-fixes / --diff` (issue 12): what is fixed, how files are written,
and that a fix never makes a file worse and is idempotent."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import check_tree, diags_for, skill, write

from skill_ls.analysis.check import CheckOptions, Checker, build_index, prepare_config
from skill_ls.analysis.fixes import FileState, apply_edits, fix_in_memory
from skill_ls.apply import write_files
from skill_ls.cli import main
from skill_ls.core.discovery import Environment
from skill_ls.core.model import Severity, Span, TextEdit

PLACEHOLDER = '"TODO: say what this skill does and when to use it"'


def run(capsys, *args):
    code = main(list(args))
    return code, capsys.readouterr()


def read(path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


# -- the engine ------------------------------------------------------------------------------------

def test_apply_edits_non_overlapping_in_any_order_and_line_endings():
    text = "a: 1\r\nb: 2\r\n"
    out = apply_edits(text, [TextEdit("f", Span(1, 3, 1, 4), "3"), TextEdit("f", Span(0, 0, 0, 0), "x: 0\n")], "\r\n")
    assert out == "x: 0\r\na: 1\r\nb: 3\r\n"
    with pytest.raises(ValueError):
        apply_edits(text, [TextEdit("f", Span(0, 0, 0, 2), "q"), TextEdit("f", Span(0, 1, 0, 3), "r")])
    with pytest.raises(ValueError):  # two insertions at one place: their order would be a guess
        apply_edits(text, [TextEdit("f", Span(0, 0, 0, 0), "q"), TextEdit("f", Span(0, 0, 0, 0), "r")])


# -- safe fixes ----------------------------------------------------------------------------------

def test_fix_quotes_an_unquoted_colon_and_reports_per_code(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\nBody\n")
    code, out = run(capsys, "check", str(workspace), "--fix")
    assert read(f) == b'---\nname: a\ndescription: "Use when: asked"\n---\nBody\n'
    assert code == 0 and "Fixed 1 finding(s) (SK003 ×1) in 1 file(s)." in out.out
    assert not diags_for(check_tree(workspace), f)


def test_fix_keeps_bom_and_crlf_unless_the_fix_is_about_them(workspace, capsys):
    f = workspace / "a" / "SKILL.md"
    f.parent.mkdir()
    f.write_bytes("\ufeff---\r\nname: a\r\ndescription: Use when: asked\r\n---\r\nBody\r\n".encode())
    run(capsys, "check", str(workspace), "--fix", "--select", "SK003")
    assert read(f) == "\ufeff---\r\nname: a\r\ndescription: \"Use when: asked\"\r\n---\r\nBody\r\n".encode()
    # SK013 (the BOM) is a safe fix of its own.
    code, out = run(capsys, "check", str(workspace), "--fix")
    assert read(f) == b'---\r\nname: a\r\ndescription: "Use when: asked"\r\n---\r\nBody\r\n'
    assert "SK013 ×1" in out.out


def test_fix_converts_crlf_to_lf_under_amp_only(workspace, capsys):
    amp = workspace / ".agents" / "skills" / "a" / "SKILL.md"
    amp.parent.mkdir(parents=True)
    amp.write_bytes(b"---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n")
    other = workspace / "plain" / "b" / "SKILL.md"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"---\r\nname: b\r\ndescription: b\r\n---\r\nbody\r\n")
    run(capsys, "check", str(workspace), "--fix", "--runtime", "amp")
    assert read(amp) == b"---\nname: a\ndescription: b\n---\nbody\n"
    assert read(other) == b"---\r\nname: b\r\ndescription: b\r\n---\r\nbody\r\n"  # no runtime needs it there


# -- unsafe fixes --------------------------------------------------------------------------------

GLUED = "---\nname: a\ndescription: 当用户需要时使用。license: Apache-2.0\n---\nBody\n"


def test_sk003_glued_key_is_split_not_quoted(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", GLUED)
    [d] = diags_for(check_tree(workspace), f, "SK003")
    assert (d.span.start_line, d.span.start_col) == (2, 29)  # the column PyYAML reports
    assert not d.fix.safe and "Split 'license'" in d.fix.title
    code, out = run(capsys, "check", str(workspace), "--fix")
    assert read(f) == GLUED.encode() and "1 more finding(s) have unsafe fixes (SK003 ×1)" in out.out
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    assert read(f).decode() == "---\nname: a\ndescription: 当用户需要时使用。\nlicense: Apache-2.0\n---\nBody\n"
    assert not diags_for(check_tree(workspace), f)


def test_sk003_split_then_quote_reaches_a_fixpoint(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked.license: MIT\n---\n")
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    assert read(f).decode() == '---\nname: a\ndescription: "Use when: asked."\nlicense: MIT\n---\n'


def test_sk003_no_split_when_the_key_exists_or_is_unknown(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: x.license: MIT\nlicense: MIT\n---\n")
    g = write(workspace / "b" / "SKILL.md", "---\nname: b\ndescription: Note: read this\n---\n")
    res = check_tree(workspace)
    [d] = diags_for(res, f, "SK003")
    assert d.fix.safe and d.fix.edits[0].new_text == '"x.license: MIT"'
    [d] = diags_for(res, g, "SK003")
    assert d.fix.safe and d.fix.edits[0].new_text == '"Note: read this"'


def test_sk007_catalogue_keys_move_under_metadata(workspace, capsys):
    f = skill(workspace, "a", extra="origin: github\nversion: 1.10\nrisk: low  # reviewed\ntags: [a, b]\n")
    ds = diags_for(check_tree(workspace), f, "SK007")
    moved = [d for d in ds if d.fix is not None]
    assert {d.message.split("'")[1] for d in moved} == {"origin", "risk"} or moved
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    text = read(f).decode()
    assert "metadata:\n" in text and '  origin: "github"\n' in text and '  risk: "low"\n' in text
    assert "tags: [a, b]" in text  # a list is not a string: not moved
    res = check_tree(workspace)
    assert not [d for d in diags_for(res, f) if d.severity == Severity.ERROR]


def test_sk007_moves_into_an_existing_string_metadata_block(workspace, capsys):
    f = skill(workspace, "a", extra="metadata:\n  owner: me\ncategory: crm\n")
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    assert 'metadata:\n  owner: me\n  category: "crm"\n---' in read(f).decode()
    g = skill(workspace, "b", extra="metadata: {owner: me}\ncategory: crm\n")
    [d] = diags_for(check_tree(workspace), g, "SK007")
    assert d.fix is None  # a flow mapping is left to the author


def test_sk007_no_move_when_a_reading_runtime_has_no_metadata(workspace):
    f = skill(workspace / ".agents" / "skills", "a", extra="category: crm\n")
    res = check_tree(workspace, runtimes=["amp"])
    assert all(d.fix is None for d in diags_for(res, f, "SK007"))


def test_sk005_placeholder_parses_and_says_what_to_write(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\n---\nBody\n")
    run(capsys, "check", str(workspace), "--fix")
    assert read(f) == b"---\nname: a\n---\nBody\n"  # unsafe: not applied by --fix
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    assert read(f).decode() == f"---\nname: a\ndescription: {PLACEHOLDER}\n---\nBody\n"
    assert not diags_for(check_tree(workspace), f, "SK005")


def test_sk001_skeleton_only_for_a_valid_directory_name(workspace):
    f = write(workspace / "good" / "SKILL.md", "# Good\n")
    g = write(workspace / "Bad_Dir" / "SKILL.md", "# Bad\n")
    res = check_tree(workspace)
    [d] = diags_for(res, f, "SK001")
    assert d.fix.edits[0].new_text == f"---\nname: good\ndescription: {PLACEHOLDER}\n---\n"
    [d] = diags_for(res, g, "SK001")
    assert d.fix is None


def test_sk009_never_offers_an_invalid_name(workspace, capsys):
    bad_dir = skill(workspace, "torch_geometric", name="torch-geometric")
    both_bad = skill(workspace, "_template", name="Template")
    res = check_tree(workspace)
    [d] = diags_for(res, bad_dir, "SK009")
    assert d.fix.rename_dir == (str(workspace / "torch_geometric"), str(workspace / "torch-geometric"))
    assert not d.fix.safe and not d.fix.edits
    assert not diags_for(res, both_bad, "SK009") and diags_for(res, both_bad, "SK008")  # one root cause
    code, out = run(capsys, "check", str(workspace), "--unsafe-fixes", "--select", "SK009")
    assert (workspace / "torch-geometric" / "SKILL.md").is_file() and not (workspace / "torch_geometric").exists()
    assert "SK009 ×1" in out.out


def test_sk006_metadata_entry_is_named_and_quoted(workspace, capsys):
    f = skill(workspace, "a", extra="metadata:\n  owner: me\n  version: 2\n  tags: [a]\n")
    ds = diags_for(check_tree(workspace), f, "SK006")
    by_entry = {d.message.split("'")[1]: d for d in ds}
    assert set(by_entry) == {"metadata.version", "metadata.tags"}
    v = by_entry["metadata.version"]
    assert (v.span.start_line, v.span.start_col, v.span.end_col) == (5, 11, 12) and v.fix.safe
    assert by_entry["metadata.tags"].fix is None
    run(capsys, "check", str(workspace), "--fix")
    assert '  version: "2"\n' in read(f).decode()


# -- --diff, scope, races --------------------------------------------------------------------------

def test_diff_prints_and_writes_nothing(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\n")
    before = read(f)
    code, out = run(capsys, "check", str(workspace), "--diff")
    assert code == 1 and read(f) == before
    assert '-description: Use when: asked\n+description: "Use when: asked"\n' in out.out
    assert out.out.startswith("--- a/") and "Would fix 1 finding(s) (SK003 ×1)" in out.err
    run(capsys, "check", str(workspace), "--fix")
    code, out = run(capsys, "check", str(workspace), "--diff")
    assert code == 0 and out.out == ""


def test_fix_is_idempotent(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", "\ufeff---\nname: a\ndescription: Use when: asked\ncategory: x\n---\n")
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    once = read(f)
    code, out = run(capsys, "check", str(workspace), "--unsafe-fixes", "--diff")
    assert code == 0 and read(f) == once and out.out == ""


def test_nothing_outside_the_given_paths_is_written(workspace, tmp_path, capsys):
    inside = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\n")
    sibling = write(workspace / "b" / "SKILL.md", "---\nname: b\ndescription: Use when: asked\n---\n")
    outside = write(tmp_path / "elsewhere" / "SKILL.md", "---\nname: c\ndescription: Use when: asked\n---\n")
    link = workspace / "c" / "SKILL.md"
    link.parent.mkdir()
    link.symlink_to(outside)
    run(capsys, "check", "--workspace", str(workspace), str(workspace / "a"), "--fix")
    assert b'"Use when: asked"' in read(inside)
    assert b'"Use when: asked"' not in read(sibling)
    code, out = run(capsys, "check", "--workspace", str(workspace), str(workspace / "c"), "--fix")
    assert b'"Use when: asked"' not in read(outside) and "outside the paths given" in out.err


def test_a_file_changed_between_read_and_write_is_left_alone(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\n")
    opts = CheckOptions(paths=[str(workspace)])
    config = prepare_config(str(workspace), opts)
    files = Checker(build_index(str(workspace), config)).files_in_scope([str(workspace)])
    outcome = fix_in_memory(str(workspace), Environment.from_environ(None, config), config, files, unsafe=False)
    assert str(f) in outcome.files
    f.write_text("---\nname: a\ndescription: edited meanwhile: yes\n---\n", encoding="utf-8")
    written, skipped = write_files(outcome.files, [str(workspace)])
    assert written == [] and skipped[0][0] == str(f) and "changed since it was read" in skipped[0][1]
    assert "edited meanwhile" in f.read_text(encoding="utf-8")


def test_invalid_utf8_files_are_never_rewritten(workspace, capsys):
    f = workspace / "a" / "SKILL.md"
    f.parent.mkdir()
    f.write_bytes(b"---\nname: a\ndescription: caf\xe9: x\n---\n")
    assert FileState.load(str(f)) is None
    run(capsys, "check", str(workspace), "--unsafe-fixes")
    assert read(f) == b"---\nname: a\ndescription: caf\xe9: x\n---\n"


def test_a_fix_that_would_make_a_file_worse_is_put_back(workspace, capsys, monkeypatch):
    """The engine's guard: a fix whose result has a new error code is undone and reported."""
    from skill_ls.analysis.rules import frontmatter

    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\n")
    monkeypatch.setattr(frontmatter, "_split_fix", lambda doc, span: frontmatter.Fix(
        "break it", (TextEdit(doc.path, span, '"ok"\nname: twice'),), safe=True))
    code, out = run(capsys, "check", str(workspace), "--fix")
    assert read(f) == b"---\nname: a\ndescription: Use when: asked\n---\n"
    assert "SK003 fix not applied" in out.err


def test_json_output_after_fix_has_the_remaining_findings(workspace, capsys):
    write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\ncolour: red\n---\n")
    code, out = run(capsys, "check", str(workspace), "--fix", "--format", "json")
    assert [d["code"] for d in json.loads(out.out)["diagnostics"]] == ["SK007"]
    assert "Fixed 1 finding(s)" in out.err


# -- property: every fix on the corpus --------------------------------------------------------------

def _errors(diags) -> Counter:
    return Counter(d.code for d in diags if d.severity == Severity.ERROR)


def test_sk003_offers_no_fix_when_the_block_repeats_a_key(workspace):
    """Found by the fix fuzzer: quoting would only reveal the duplicate (SK004) the parse error hid."""
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\nname: Use when: asked\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK003")
    assert d.fix is None


def test_sk007_rename_not_offered_when_the_value_would_not_fit(workspace):
    """Found by the fix fuzzer: renaming `licence: [a, b]` to `license` trades SK007 for SK006."""
    f = skill(workspace, "a", extra="licence: [a, b]\nlicense_: MIT\n")
    ds = {d.message.split("'")[1]: d for d in diags_for(check_tree(workspace), f, "SK007")}
    assert "did you mean 'license'" in ds["licence"].message and ds["licence"].fix is None


def test_sk007_offers_no_fix_when_the_block_repeats_a_key(workspace):
    """Found by the fix fuzzer: moving the first `origin` leaves the second one as the unknown key."""
    f = skill(workspace, "a", extra="origin: x\norigin: y\nlicence: MIT\n")
    ds = diags_for(check_tree(workspace), f, "SK007")
    assert ds and all(d.fix is None for d in ds)
