"""`skill-ls catalog`, `list` and `where` with agents: exit codes, stderr one-liners, JSON shapes (SPEC §6.1, §8)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import skill, write

from skill_ls.cli import main


def run(capsys, *args):
    code = main(list(args))
    return code, capsys.readouterr()


@pytest.fixture
def tree(workspace, private_home):
    skill(private_home / ".agh" / "skills", "review", description="user copy")
    skill(workspace / ".agh" / "skills", "review", description="workspace copy")
    skill(workspace / ".agh" / "skills", "notes", description="Release notes")
    skill(workspace / ".agh" / "skills", "off", description="Operator disabled")
    write(workspace / ".skill-ls.toml", '[agh]\ndisabled = ["off"]\n')
    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
          "---\nname: rev\nprovider: claude\nskills:\n  disabled: [notes]\n---\nYou review.\n")
    skill(workspace / ".agh" / "agents" / "rev" / "skills", "review", description="agent copy")
    write(workspace / ".agh" / "agents" / "broken" / "AGENT.md", "---\nname: broken\nprovider: claude\n---\n")
    return workspace


def test_catalog_text_is_exactly_the_catalog(tree, capsys):
    code, out = run(capsys, "catalog", "--workspace", str(tree))
    assert code == 0 and out.err == ""
    assert out.out == (
        "<available-skills>\n"
        '  <skill name="agh">Operate and extend AGH, the local-first agent operating system...</skill>\n'
        '  <skill name="notes">Release notes</skill>\n'
        '  <skill name="review">workspace copy</skill>\n'
        "</available-skills>\n\n"
        'Use `agh__skill_view` with `{ "name": "agh" }` to load full instructions for any skill.\n'
        'Use `agh__skill_view` with `{ "name": "agh", "file": "<path>" }` to read a specific skill resource file.\n'
    )


def test_catalog_json_shape_and_text_identity(tree, capsys):
    code, text = run(capsys, "catalog", "--workspace", str(tree), "--agent", "rev")
    code, out = run(capsys, "catalog", "--workspace", str(tree), "--agent", "rev", "--format", "json")
    assert code == 0
    obj = json.loads(out.out)
    assert list(obj) == ["runtime", "agent", "text", "chars", "skills", "mcp_servers", "left_out", "documented"]
    assert obj["text"] == text.out and obj["chars"] == len(text.out)
    assert obj["runtime"] == "agh" and obj["agent"] == "rev"
    bundled, s = obj["skills"]
    assert bundled["name"] == "agh" and bundled["builtin"] and "not documented" in bundled["description_source"]
    assert set(s) == {"name", "tier", "path", "description", "truncated"}
    assert (s["name"], s["tier"], s["description"], s["truncated"]) == ("review", "agent_local", "agent copy", False)


def test_catalog_empty_set_prints_nothing(workspace, capsys):
    (workspace / ".agh" / "skills").mkdir(parents=True)
    write(workspace / ".skill-ls.toml", '[agh]\ndisabled = ["agh"]\n')  # the bundled skill is the only one
    code, out = run(capsys, "catalog", "--workspace", str(workspace))
    assert code == 0 and out.out == "" and out.err == ""


@pytest.mark.parametrize("args, needle", [
    (["--agent", "nobody"], "no agent named 'nobody'"),
    (["--runtime", "vim"], "unknown runtime 'vim'"),
    (["--agent", "broken"], "fails closed"),
    (["--agent", "rev", "--runtime", "codex"], "agent"),
])
def test_catalog_errors_are_one_line_exit_2(tree, capsys, args, needle):
    code, out = run(capsys, "catalog", "--workspace", str(tree), *args)
    assert code == 2 and out.out == ""
    assert needle in out.err and out.err.count("\n") == 1 and out.err.startswith("skill-ls: ")
    assert "Traceback" not in out.err


def test_catalog_subprocess_no_traceback(tree):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "skill_ls", "catalog", "--workspace", str(tree), "--agent", "broken"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "AG003" in proc.stderr and "Traceback" not in proc.stderr


def test_catalog_missing_workspace_is_usage_error(tmp_path, capsys):
    code, out = run(capsys, "catalog", "--workspace", str(tmp_path / "nope"))
    assert code == 2 and out.err.count("\n") == 1


def test_list_marks_disabled_and_honours_agent(tree, capsys):
    code, out = run(capsys, "list", "--workspace", str(tree), "--format", "json")
    assert code == 0
    obj = json.loads(out.out)
    assert obj["runtime"] == "agh" and obj["agent"] is None
    rows = {r["name"]: r for r in obj["skills"]}
    assert set(rows) == {"agh", "notes", "off", "review"} and rows["agh"]["path"] == "(built-in agh)"
    assert rows["off"]["disabled"] and not rows["notes"]["disabled"]
    assert set(rows["review"]) == {"name", "tier", "runtime", "path", "disabled", "provenance"}
    assert rows["review"]["provenance"]["precedence_tier"] == "workspace"
    assert [p.endswith("SKILL.md") for p in rows["review"]["provenance"]["shadowed_by"]] == [True]
    code, out = run(capsys, "list", "--workspace", str(tree), "--agent", "rev")
    lines = out.out.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["agh", "off", "review"]
    assert lines[1].endswith("disabled") and "\tagent_local\t" in lines[2]


def test_list_fail_closed_agent_exit_2(tree, capsys):
    code, out = run(capsys, "list", "--workspace", str(tree), "--agent", "broken")
    assert code == 2 and "fails closed" in out.err


def test_where_json_with_and_without_agent(tree, capsys):
    code, out = run(capsys, "where", "review", "--workspace", str(tree), "--format", "json")
    obj = json.loads(out.out)
    assert [e["tier"] for e in obj["entries"]] == ["workspace", "user"]
    assert [e["resolved_to_winner"] for e in obj["entries"]] == [True, False]
    assert all(set(e) >= {"tier", "path", "resolved_to_winner", "blocked"} for e in obj["entries"])
    code, out = run(capsys, "where", "review", "--workspace", str(tree), "--agent", "rev", "--format", "json")
    obj = json.loads(out.out)
    assert [e["tier"] for e in obj["entries"]] == ["agent_local", "workspace", "user"]
    code, out = run(capsys, "where", "notes", "--workspace", str(tree), "--agent", "rev", "--format", "json")
    assert json.loads(out.out)["tombstoned"] is True
    code, out = run(capsys, "where", "off", "--workspace", str(tree), "--format", "json")
    assert json.loads(out.out)["disabled"] is True


def test_agent_without_runtime_picks_the_agents_runtime(workspace, capsys):
    skill(workspace / ".agh" / "skills", "x")
    skill(workspace / "workspace" / "agents" / "skills", "wa", description="From the list")
    write(workspace / "workspace" / "agents" / "helper.md", "---\nname: helper\nskills: [wa]\n---\nP.\n")
    code, out = run(capsys, "catalog", "--workspace", str(workspace), "--agent", "helper")
    assert code == 0 and out.out.startswith("## Available Skills\n\n- **wa**: From the list\n")
