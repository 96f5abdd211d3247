"""`skill-ls portability`: one verdict per runtime for every skill, in text, JSON and Markdown (issue 11)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import skill, write

from skill_ls.cli import main

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo"


def run(capsys, *args):
    code = main(["portability", *args])
    return code, capsys.readouterr().out


def test_demo_matrix_in_every_format(tmp_path, capsys, monkeypatch):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    monkeypatch.chdir(demo)
    code, text = run(capsys, "--no-user-roots")
    assert code == 0
    assert text.splitlines()[0].startswith("SKILL") and "claude.ai upload" in text.splitlines()[0]
    assert "claude.ai upload ✗ XML tag '<long>' in description" in text
    assert "AGH ✗ shadowed by the workspace copy .agh/skills/code-review/SKILL.md" in text
    _, raw = run(capsys, "--no-user-roots", "--format", "json")
    data = json.loads(raw)
    assert [c["id"] for c in data["columns"]][-1] == "claude-ai"
    by_path = {s["path"]: s for s in data["skills"]}
    assert by_path[".agents/skills/summarize/SKILL.md"]["verdicts"]["amp"]["status"] == "warnings"
    assert by_path[".agh/skills/triage/SKILL.md"]["verdicts"]["agh"]["status"] == "fails"
    assert by_path[".agh/skills/code-review/SKILL.md"]["verdicts"]["codex"] == {"status": "not_read",
                                                                                 "reason": "not under any Codex root"}
    _, md = run(capsys, "--no-user-roots", "--format", "markdown")
    assert md.startswith("| skill | AGH |") and "| `.agh/skills/code-review/SKILL.md` | ✓ |" in md


def test_crlf_fails_in_amp_and_reserved_word_fails_upload(workspace, capsys, monkeypatch):
    f = skill(workspace / ".agents" / "skills", "claude-notes")
    f.write_bytes(f.read_bytes().replace(b"\n", b"\r\n"))
    monkeypatch.chdir(workspace)
    _, raw = run(capsys, "--no-user-roots", "--runtime", "amp", "--runtime", "codex", "--format", "json")
    [row] = json.loads(raw)["skills"]
    assert row["verdicts"]["amp"]["status"] == "fails" and "CRLF" in row["verdicts"]["amp"]["reason"]
    assert row["verdicts"]["codex"]["status"] == "loads"
    assert row["verdicts"]["claude-ai"] == {"status": "fails", "reason": "'claude' in name"}


def test_standalone_skill_is_judged_as_if_installed(workspace, capsys, monkeypatch):
    f = skill(workspace / "lib", "a", extra="model: sonnet\n")
    write(workspace / "lib" / "b" / "SKILL.md", "---\nname: b\n---\nNo description.\n")
    monkeypatch.chdir(workspace)
    _, raw = run(capsys, "lib", "--format", "json")
    rows = {s["name"]: s for s in json.loads(raw)["skills"]}
    assert rows["a"]["standalone"] and rows["a"]["verdicts"]["claude-code"]["status"] == "loads"
    assert rows["b"]["verdicts"]["codex"]["status"] == "fails" and "description" in rows["b"]["verdicts"]["codex"]["reason"]
    assert f.exists()


def test_missing_path_is_a_usage_error(capsys):
    assert main(["portability", "/nonexistent/x"]) == 2
    assert "path does not exist" in capsys.readouterr().err


def test_readme_example_is_the_demo_output(tmp_path, capsys, monkeypatch):
    demo = tmp_path / "demo"
    shutil.copytree(DEMO, demo)
    monkeypatch.chdir(demo)
    _, text = run(capsys, "--no-user-roots")
    readme = (DEMO.parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ cd examples/demo && skill-ls portability --no-user-roots\n", 1)[1].split("```", 1)[0]
    assert block == text
