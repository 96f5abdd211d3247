"""Output formats of `skill-ls check` (SPEC §6.1, §8): text, JSON, SARIF, GitHub."""
from __future__ import annotations

import json

import pytest
from conftest import skill, write

from skill_ls.cli import main


@pytest.fixture
def tree(workspace):
    skill(workspace, "ok")
    write(workspace / "bad" / "SKILL.md", "---\nname: bad\ndescripton: typo 😀\ndescription: 😀 x\ncolour: red\n---\n")
    return workspace


def run(capsys, *args):
    code = main(list(args))
    return code, capsys.readouterr()


def test_text_format_is_path_line_col_code(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    code, out = run(capsys, "check", str(tree))
    assert code == 0
    assert "bad/SKILL.md:3:1: SK007 unknown field 'descripton'" in out.out
    assert out.out.strip().splitlines()[-1] == "2 file(s) checked: 0 error(s), 2 warning(s), 0 information, 0 hint(s)"


def test_json_format_shape_and_utf16_ranges(tree, capsys):
    code, out = run(capsys, "check", str(tree), "--format", "json")
    doc = json.loads(out.out)
    assert set(doc) == {"version", "files_checked", "diagnostics", "summary"}
    assert doc["files_checked"] == 2
    d = [d for d in doc["diagnostics"] if "colour" in d["message"]][0]
    assert d["range"] == {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 6}}
    assert d["severity"] == "warning" and d["code"] == "SK007" and d["runtime"] == "agentskills"
    assert set(d) >= {"path", "range", "severity", "code", "message", "runtime", "related"}
    assert doc["summary"]["warning"] == 2


def test_json_character_counts_utf16_code_units(workspace, capsys):
    write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: 😀😀 ok\nnamee: x\n---\n")
    write(workspace / "b" / "SKILL.md", "---\nname: b\ndescription: d\n---\n[😀](missing.md)\n")
    code, out = run(capsys, "check", str(workspace), "--format", "json")
    doc = json.loads(out.out)
    rf = [d for d in doc["diagnostics"] if d["code"] == "RF001"][0]
    assert rf["range"]["start"]["character"] == 5  # "[😀](" is 5 UTF-16 units
    code, out = run(capsys, "check", str(workspace))
    assert "b/SKILL.md:5:5: RF001" in out.out  # text columns are 1-based code points


def test_json_escapes_del_in_an_ascii_path(workspace, capsys):
    """DEL is ASCII but never reaches a terminal raw: the report skips its escaping pass only for
    ASCII entries without it (a directory named `a\x7fb` was printed raw)."""
    skill(workspace / ".agh" / "skills", "a\x7fb", name="x", extra="bogus: 1\n")
    main(["check", "--format", "json", str(workspace)])
    out = capsys.readouterr().out
    assert "\x7f" not in out and "a\\u007fb" in out
    json.loads(out)


def test_sarif_is_2_1_0_with_rules(tree, capsys):
    code, out = run(capsys, "check", str(tree), "--format", "sarif")
    sarif = json.loads(out.out)
    assert sarif["version"] == "2.1.0"
    run0 = sarif["runs"][0]
    rules = {r["id"]: r for r in run0["tool"]["driver"]["rules"]}
    assert {"SK001", "SH001", "RF002"} <= set(rules)
    assert rules["SK007"]["defaultConfiguration"]["level"] == "warning"
    res = run0["results"][0]
    assert run0["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1 and region["startColumn"] >= 1
    assert not res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("/")


def test_github_annotations(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    code, out = run(capsys, "check", ".", "--format", "github")
    line = [l for l in out.out.splitlines() if "colour" in l][0]
    assert line.startswith("::warning file=bad/SKILL.md,line=5,col=1,")
    assert "title=SK007::" in line


def test_github_escapes_newlines_and_percent():
    from skill_ls.core.model import Diagnostic, Severity, Span
    from skill_ls.output import format_github

    d = Diagnostic("/x/a,b.md", Span(0, 0, 0, 1), "SK003", "100% bad\nline", Severity.ERROR)
    out = format_github([d])
    assert "100%25 bad%0Aline" in out and "a%2Cb.md" in out


def test_text_output_summarises_many_findings_of_one_code_in_one_file(workspace, capsys, monkeypatch):
    """Issue 12: one file with dozens of findings of one code gets 5 lines and a summary line."""
    from conftest import skill

    from skill_ls.cli import main

    skill(workspace, "a", body="".join(f"[x](missing{i}.md)\n" for i in range(12)))
    skill(workspace, "b", body="[x](missing.md)\n")
    monkeypatch.chdir(workspace)
    main(["check", str(workspace)])
    out = capsys.readouterr().out.splitlines()
    in_a = [line for line in out if line.startswith("a/SKILL.md") and " RF001 " in line]
    assert len(in_a) == 6 and in_a[-1] == "a/SKILL.md: RF001 7 more finding(s) in this file, 12 in all " \
                                          "(--format json lists every one)"
    assert sum(1 for line in out if line.startswith("b/SKILL.md")) == 1
    assert out[-1].endswith("13 warning(s), 0 information, 0 hint(s)")  # the count stays the truth
    main(["check", str(workspace), "--format", "json"])
    assert capsys.readouterr().out.count('"RF001"') == 13


def test_json_layout_is_json_dumps_byte_for_byte():
    """json_text lays out indented JSON itself (json's C encoder has no indent): same bytes."""
    import json
    import random

    from skill_ls.core.escape import _JSON_ESCAPE, json_text

    rnd = random.Random(11)
    leaves = [None, True, False, 0, -7, 10**20, 1.5, float("inf"), "", "a\"b\\c\n\t\x00\x7f\u2028\udcff é😀",
              {"line": 1, "character": 2}, {"character": 2, "line": 1}, {"line": True, "character": 2}]

    def value(depth: int) -> object:
        if depth > 3 or rnd.random() < 0.3:
            return rnd.choice(leaves)
        if rnd.random() < 0.5:
            return [value(depth + 1) for _ in range(rnd.randint(0, 3))]
        return {rnd.choice(["k", "line", "character", "é", "a b"]) + str(i): value(depth + 1)
                for i in range(rnd.randint(0, 3))}

    for _ in range(2000):
        obj = value(0)
        expected = _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                                    json.dumps(obj, indent=2, ensure_ascii=False))
        assert json_text(obj) == expected
        assert json_text(obj, indent=None) == _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                                                               json.dumps(obj, ensure_ascii=False))
    assert json_text((1, [2])) == json.dumps((1, [2]), indent=2)


def test_json_report_template_equals_the_generic_layout(tmp_path, monkeypatch):
    """format_json writes each finding from one template: the same bytes as json_text of the report's
    objects (random findings: related entries, fixes, no runtime, non-ASCII and undecodable text,
    paths inside and outside the working directory, files missing, and an empty report)."""
    import random

    from skill_ls.core.escape import json_layout, json_text
    from skill_ls.core.index import DocumentStore
    from skill_ls.core.model import Diagnostic, Fix, Related, Severity, Span, TextEdit
    from skill_ls.output import _format_json_generic, format_json

    monkeypatch.chdir(tmp_path)
    rnd = random.Random(5)
    files = []
    for i, text in enumerate(["---\nname: a\n---\nplain\n", "---\nname: é😀 x\n---\n😀😀 body é\n", "x\udcff\n"]):
        f = tmp_path / f"d{i}" / "SKILL.md"
        f.parent.mkdir()
        f.write_bytes(text.encode("utf-8", "surrogateescape"))
        files.append(str(f))
    files += [str(tmp_path / "gone" / "SKILL.md"), "/elsewhere/agent.md", str(tmp_path / "d0" / ".mcp.json")]
    texts = ["", "plain", "quote \" and \\ and\nnewline", "é😀\u2028\x7f", "\udcff"]

    def span() -> Span:
        a, b = rnd.randint(0, 3), rnd.randint(0, 12)
        return Span(a, b, a + rnd.randint(0, 1), b + rnd.randint(0, 5))

    def diagnostic() -> Diagnostic:
        related = tuple(Related(rnd.choice(files), span(), rnd.choice(texts)) for _ in range(rnd.choice([0, 0, 1, 2])))
        fix = None if rnd.random() < 0.6 else Fix(rnd.choice(texts), tuple(
            TextEdit(rnd.choice(files), span(), rnd.choice(texts)) for _ in range(rnd.randint(0, 2))))
        return Diagnostic(rnd.choice(files), span(), rnd.choice(["SK001", "RF00\u00e9"]), rnd.choice(texts),
                          rnd.choice(list(Severity)), rnd.choice([None, "agh", "agh,amp"]), related, fix)

    store = DocumentStore()
    for n in (0, 1, 2, 40):
        diags = [diagnostic() for _ in range(n)]
        expected = _format_json_generic(diags, n, store)
        assert format_json(diags, n, store) == expected
    value = {"a": [1, {"b": None}], "c": 1.5}  # json_layout nested: json.dumps's lines, indented
    assert json_layout(value, 2) == json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n    ")
    assert json_text({"x": json.loads("[]")}) == '{\n  "x": []\n}'


def test_relative_path_is_relpath_for_paths_under_the_working_directory():
    """relative_path skips os.path.relpath for an already normal path under the working directory:
    the same answer on random paths with `.`, `..`, empty and odd components."""
    import os
    import random

    from skill_ls.output import relative_path

    rnd = random.Random(1)
    parts = ["a", "b", ".", "..", " ", ".agh", "..x", ".x.", "x..", "é", "\udcff", ""]
    for cwd in ["/work/shared", "/", "/tmp/a/", "/a/b"]:
        for _ in range(3000):
            rest = "/".join(rnd.choice(parts) for _ in range(rnd.randint(0, 5))) + ("/" if rnd.random() < 0.2 else "")
            path = cwd.rstrip("/") + "/" + rest
            assert relative_path(path, cwd) == os.path.relpath(path, cwd), (cwd, path)
    assert relative_path("/elsewhere/x", "/work") == "/elsewhere/x"
