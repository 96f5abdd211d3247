"""`skill-ls check` exit codes, options and configuration (SPEC §6.1, §6.2, §8)."""
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


def test_exit_0_when_clean_and_1_on_errors(workspace, capsys):
    skill(workspace, "a")
    assert run(capsys, "check", str(workspace))[0] == 0
    write(workspace / "b" / "SKILL.md", "no frontmatter\n")
    assert run(capsys, "check", str(workspace))[0] == 1


def test_strict_fails_on_warnings_only_then(workspace, capsys):
    skill(workspace, "a", extra="colour: red\n")
    assert run(capsys, "check", str(workspace))[0] == 0
    assert run(capsys, "check", str(workspace), "--strict")[0] == 1


def test_exit_2_usage_errors(workspace, capsys):
    code, out = run(capsys, "check", str(workspace / "nope"))
    assert code == 2 and "does not exist" in out.err and out.err.count("\n") == 1
    code, out = run(capsys, "check", str(workspace), "--runtime", "vim")
    assert code == 2 and "unknown runtime" in out.err
    with pytest.raises(SystemExit) as exc:
        main(["check", "--format", "xml"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err
    code, out = run(capsys, "check", str(workspace), "--select", "not a code!")
    assert code == 2


def test_exit_2_configuration_errors_name_the_file(workspace, capsys):
    write(workspace / ".skill-ls.toml", "runtimes = ['agh']\nfrobnicate = 1\n")
    code, out = run(capsys, "check", str(workspace))
    assert code == 2 and ".skill-ls.toml" in out.err and "frobnicate" in out.err
    write(workspace / ".skill-ls.toml", "runtimes = [\n")
    code, out = run(capsys, "check", str(workspace))
    assert code == 2 and "invalid TOML" in out.err
    code, out = run(capsys, "check", str(workspace), "--config", str(workspace / "missing.toml"))
    assert code == 2 and "not found" in out.err


def test_select_and_ignore_prefixes(workspace, capsys):
    skill(workspace, "a", name="Bad", extra="colour: red\n")
    code, out = run(capsys, "check", str(workspace), "--format", "json", "--select", "SK00")
    # SK008 (bad name) suppresses SK009 on the same name: one finding per root cause.
    assert {d["code"] for d in json.loads(out.out)["diagnostics"]} == {"SK007", "SK008"}
    code, out = run(capsys, "check", str(workspace), "--format", "json", "--ignore", "SK008,SK009")
    assert {d["code"] for d in json.loads(out.out)["diagnostics"]} == {"SK007"}
    assert code == 0


def test_config_rules_and_severity_override(workspace, capsys):
    write(workspace / ".skill-ls.toml", "[rules]\nignore = ['SK009']\n[rules.severity]\nSK007 = 'error'\n")
    skill(workspace, "a", name="b", extra="colour: red\n")
    code, out = run(capsys, "check", str(workspace), "--format", "json")
    doc = json.loads(out.out)
    assert {d["code"]: d["severity"] for d in doc["diagnostics"]} == {"SK007": "error"}
    assert code == 1


def test_pyproject_tool_table(workspace, capsys):
    write(workspace / "pyproject.toml", "[tool.skill-ls]\nexclude = ['vendor/**']\n")
    write(workspace / "vendor" / "x" / "SKILL.md", "broken\n")
    skill(workspace, "a")
    assert run(capsys, "check", str(workspace))[0] == 0


def test_extra_roots_from_config(workspace, tmp_path, capsys):
    shared = tmp_path / "shared-skills"
    write(workspace / ".skill-ls.toml", f"runtimes = ['agh']\n[[roots]]\npath = '{shared}'\nruntime = 'agh'\ntier = 'additional'\n")
    skill(shared, "x")
    mine = skill(workspace / ".agh" / "skills", "x")
    code, out = run(capsys, "check", str(workspace), "--format", "json")
    doc = json.loads(out.out)
    assert [d["code"] for d in doc["diagnostics"]] == ["SH002"]
    assert doc["diagnostics"][0]["path"] == str(mine)  # the workspace copy wins over the extra root


def test_rules_and_explain(capsys):
    code, out = run(capsys, "rules")
    assert code == 0 and "SH001" in out.out and "RF002" in out.out
    code, out = run(capsys, "explain", "sk007")
    assert code == 0 and "## What it does" in out.out
    code, out = run(capsys, "explain", "XX999")
    assert code == 2 and "unknown rule" in out.err


def test_where_and_list(workspace, private_home, capsys):
    skill(private_home / ".agh" / "skills", "x")
    skill(workspace / ".agh" / "skills", "x")
    code, out = run(capsys, "where", "x", "--workspace", str(workspace), "--format", "json")
    obj = json.loads(out.out)
    assert obj["name"] == "x" and obj["runtime"] == "agh"
    assert [(e["tier"], e["resolved_to_winner"]) for e in obj["entries"]] == [("workspace", True), ("user", False)]
    code, out = run(capsys, "list", "--workspace", str(workspace))
    assert out.out.startswith("agh\tbundled\tagh\t(built-in agh)\nx\tworkspace\tagh\t")


def test_console_script_runs_as_a_process(workspace):
    skill(workspace, "a")
    proc = subprocess.run([sys.executable, "-m", "skill_ls", "check", str(workspace), "--format", "json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["files_checked"] == 1
    assert "pygls" not in subprocess.run(
        [sys.executable, "-c", "import sys, skill_ls.analysis.check, skill_ls.cli, skill_ls.output; print(sorted(sys.modules))"],
        capture_output=True, text=True, timeout=60).stdout


def test_help_texts_name_no_internal_document(capsys):
    """Users have no SPEC: every --help says what the option does itself (issue 12)."""
    from skill_ls.cli import build_parser

    parser = build_parser()
    texts = [parser.format_help()]
    for action in parser._actions:
        for sub in getattr(action, "choices", None) or {}:
            if isinstance(action.choices, dict):
                texts.append(action.choices[sub].format_help())
    assert len(texts) > 5
    for text in texts:
        assert "SPEC" not in text and "§" not in text, text
    check_help = next(t for t in texts if "--workspace" in t and "--fix" in t)
    assert "--unsafe-fixes" in check_help and "--diff" in check_help


@pytest.mark.parametrize("args", [["check"], ["check", "{ws}"], ["list", "--workspace", "{ws}"]])
def test_a_deleted_current_directory_is_a_one_line_error(workspace, tmp_path, args):
    """A shell left in a directory that was deleted has no current directory: every path is shown
    relative to it, so any command says so in one line (exit 2), never a traceback."""
    skill(workspace, "a")
    gone = tmp_path / "gone"
    gone.mkdir()
    in_deleted_directory = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); from skill_ls.cli import "
                            "console_main; sys.argv = ['skill-ls', *sys.argv[2:]]; console_main()")
    proc = subprocess.run([sys.executable, "-c", in_deleted_directory, str(gone),
                           *(a.replace("{ws}", str(workspace)) for a in args)],
                          capture_output=True, text=True, timeout=60, cwd=str(tmp_path),
                          env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "skill-ls: the current directory cannot be read (No such file or directory): change to an existing directory"]
