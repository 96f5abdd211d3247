"""Issue 15: regressions for the attacks on the core (parser, reader, checker, sidecars).

Each test here failed before its fix. The server-side attacks are in `tests/lsp/test_protocol_guards.py`
and `tests/lsp/test_documents.py`; the catalog injection attacks in `tests/test_catalog_injection.py`.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from conftest import check_tree, diags_for, skill, write
from skill_ls.core.mcp import read_sidecar
from skill_ls.core.parse.frontmatter import key_text, parse_frontmatter
from skill_ls.core.parse.text import SourceText


# -- nested complex keys: a 66-byte file took 5.5 GB ----------------------------------------------
def test_nested_complex_keys_are_linear():
    text = "---\n" + "? " * 28 + "x\n---\n"
    assert len(text.encode()) == 66
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    fm = parse_frontmatter(SourceText.from_str(text))
    elapsed = time.process_time() - start
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert elapsed < 2 and grown_mb < 50, (elapsed, grown_mb)
    (key,) = fm.fields
    assert len(key) < 28 * 10  # a few characters per level, no escaping that doubles per level


def test_nested_complex_keys_up_to_the_guard(workspace):
    for depth in (27, 60, 120, 199):
        root = workspace / f"d{depth}"
        write(root / "s" / "SKILL.md", "---\n" + "? " * depth + "x\n---\n", dedent=False)
        start = time.process_time()
        result = check_tree(root)
        assert time.process_time() - start < 10
        assert result.diagnostics is not None


def test_key_text_is_flat_and_unescaped():
    assert key_text({"a'\\": [1, None, {"b": "c"}]}) == "{a'\\: [1, null, {b: c}]}"
    assert key_text([]) == "[]" and key_text({}) == "{}"


# -- YAML line breaks that LSP does not know ------------------------------------------------------
def test_yaml_only_line_breaks_do_not_move_positions_past_the_end():
    for sep in ("\u2028", "\u2029", "\x85"):
        text = f"---\nname: a\ndescription: x{sep}bogus: 1\n---\nbody\n"
        src = SourceText.from_str(text)
        fm = parse_frontmatter(src)
        span = fm.fields["bogus"].key_span
        assert (span.start_line, span.start_col) == (2, len("description: x") + 1), sep
        assert span.end_line < src.line_count


def test_yaml_only_line_breaks_in_a_long_document_stay_in_the_file(workspace):
    desc = "one\u2028  two\u2029  three\x85  four"
    path = write(workspace / "s" / "SKILL.md", f"---\nname: s\ndescription: {desc}\nbogus: 1\n---\nbody\n",
                 dedent=False)
    src = SourceText.from_bytes(path.read_bytes())
    result = check_tree(workspace)
    for d in diags_for(result, path):
        assert d.span.end_line < src.line_count, d
    bogus = [d for d in diags_for(result, path) if "bogus" in d.message]
    assert bogus and all(d.span.start_line == 3 for d in bogus), bogus  # the line `bogus: 1` is on


def test_yaml_syntax_error_after_a_yaml_only_line_break_is_on_its_line():
    src = SourceText.from_str("---\nd: x\u2028\u2028y\nb: : :\n---\n")
    fm = parse_frontmatter(src)
    assert fm.problems and all(p.span.start_line < src.line_count for p in fm.problems)
    assert fm.problems[0].span.start_line == 2  # the line after the description, not two lines further


# -- FIFO behind a symlink: re-reading a released text --------------------------------------------
def test_rereading_a_released_text_never_blocks_on_a_fifo(tmp_path):
    code = f"""
import os
from skill_ls.core.parse.text import SourceText
target = {str(tmp_path / 'real.md')!r}
link = {str(tmp_path / 'SKILL.md')!r}
open(target, 'w').write('---\\nname: a\\n---\\n')
os.symlink(target, link)
src = SourceText.from_bytes(open(link, 'rb').read(), link)
assert src.release()
os.unlink(target)
os.mkfifo(target)
print(repr(src.text))
"""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "''"


def test_reread_of_a_changed_file_drops_the_stale_line_table(tmp_path):
    path = tmp_path / "f.md"
    path.write_text("a\nb\nc\n")
    src = SourceText.from_bytes(path.read_bytes(), str(path))
    assert src.line_count == 4
    src.release()
    path.write_text("a\n")
    assert src.text == "a\n" and src.line_count == 2


# -- silent partial checks -------------------------------------------------------------------------
def test_truncated_file_says_what_was_not_checked(workspace, monkeypatch):
    import skill_ls.core.parse.text as text_mod

    monkeypatch.setattr(text_mod, "MAX_READ_BYTES", 4096)
    import skill_ls.analysis.rules.frontmatter as fm_rules

    monkeypatch.setattr(fm_rules, "MAX_READ_BYTES", 4096)
    path = skill(workspace, "big", body="x\n" * 3000)
    result = check_tree(workspace)
    messages = [d.message for d in diags_for(result, path)]
    assert any("were not checked" in m and f"{path.stat().st_size:,} bytes" in m for m in messages), messages
    assert any("at least" in m for m in messages if "body is" in m), messages


# -- mcp.json symlinked out of the skill ------------------------------------------------------------
def test_mcp_sidecar_symlink_out_of_the_skill_is_not_read(workspace, tmp_path):
    outside = write(tmp_path / "secret" / "mcp.json", '{"mcpServers": {"x": {"command": "evil"}}}', dedent=False)
    skill_dir = skill(workspace, "s").parent
    os.symlink(outside, skill_dir / "mcp.json")
    sidecar = read_sidecar(str(skill_dir / "mcp.json"))
    assert sidecar is not None and not sidecar.ok and "outside the skill" in (sidecar.problem or "")
    assert sidecar.servers == {}
    inside = write(skill_dir / "conf" / "servers.json", '{"mcpServers": {"y": {"command": "ok"}}}', dedent=False)
    os.unlink(skill_dir / "mcp.json")
    os.symlink(inside, skill_dir / "mcp.json")
    sidecar = read_sidecar(str(skill_dir / "mcp.json"))
    assert sidecar is not None and sidecar.ok and "y" in sidecar.servers


# -- file names that are not UTF-8 ------------------------------------------------------------------
def _bad_name_tree(tmp_path: Path) -> Path:
    root = tmp_path / "t"
    bad = os.fsdecode(b"\xff")
    write(root / bad / "SKILL.md", "---\nname: x\ndescription: d\nbogus: 1\n---\nbody\n", dedent=False)
    write(root / "fine" / "SKILL.md", "---\nname: fine\ndescription: d\n---\nbody\n", dedent=False)
    return root


def test_non_utf8_file_names_in_every_output_format(tmp_path):
    import json

    root = _bad_name_tree(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG")}
    env.update(PYTHONPATH=str(Path(__file__).resolve().parents[1]), HOME=str(tmp_path / "home"))
    for locale in ("C", "C.UTF-8"):
        for fmt in ("text", "json", "sarif", "github"):
            out = subprocess.run([sys.executable, "-m", "skill_ls", "check", "--format", fmt, str(root)],
                                 capture_output=True, timeout=60, env={**env, "LC_ALL": locale})
            assert out.returncode == 1, (fmt, out.stderr.decode(errors="replace"))  # findings, not a crash
            assert b"Traceback" not in out.stderr, out.stderr
            text = out.stdout.decode("utf-8")  # valid UTF-8 whatever the locale
            assert "\x1b" not in text
            if fmt in ("json", "sarif"):
                data = json.loads(text)
                if fmt == "sarif":
                    uris = [loc["physicalLocation"]["artifactLocation"]["uri"]
                            for r in data["runs"][0]["results"] for loc in r["locations"]]
                    assert any("%FF" in u for u in uris), uris
            else:
                assert "\\xff" in text


def test_lsp_uri_of_a_non_utf8_path_round_trips():
    from skill_ls.server.convert import path_of, uri_of

    path = "/tmp/t/" + os.fsdecode(b"\xff\xfe") + "/SKILL.md"
    assert uri_of(path) == "file:///tmp/t/%FF%FE/SKILL.md"
    assert path_of(uri_of(path)) == path
    assert path_of(uri_of("/a b/é/SKILL.md")) == "/a b/é/SKILL.md"


def test_text_output_never_writes_control_characters(tmp_path, capsys):
    from skill_ls.cli import main

    root = tmp_path / "ws"
    write(root / "s" / "SKILL.md", "---\nname: s\ndescription: d\n\"bo\\e[2J\\ngus\\u009b\": 1\n---\nbody\n", dedent=False)
    main(["check", str(root)])
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x9b"), out
    assert out.count("\n") == len(out.splitlines())  # no forged line: one line per diagnostic + summary


# -- a tree too large to walk whole -------------------------------------------------------------------
def test_check_of_a_huge_tree_stops_at_the_walk_limit_and_says_so(workspace, monkeypatch, capsys):
    import skill_ls.core.discovery as discovery
    from skill_ls.cli import main

    monkeypatch.setattr(discovery, "MAX_WALK_DIRS", 40)
    for i in range(60):
        (workspace / "deep" / f"d{i:02}").mkdir(parents=True)
    skill(workspace, "s")
    main(["check", str(workspace)])
    err = capsys.readouterr().err
    assert "too large to check whole" in err and "40 directories" in err, err
