"""CI integrations (issue 12): the SARIF output against the official SARIF 2.1.0 schema, the pre-commit
hooks through the real `pre-commit`, and the composite GitHub Action."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import skill, write

from skill_ls.cli import main

pytestmark = pytest.mark.long  # tests/conftest.py: started first when modules run side by side

ROOT = Path(__file__).resolve().parents[1]
# The SARIF 2.1.0 schema (OASIS final, "2.1.0-rtm.5"), vendored so that the test needs no network:
# from the npm package @microsoft/jest-sarif 1.0.0-beta.0 (MIT), lib/schemas/sarif-2.1.0-rtm.5.json.
SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"


# -- SARIF ---------------------------------------------------------------------------------------

def _sarif(capsys, *args: str) -> dict:
    code = main(["check", *args, "--format", "sarif"])
    out = capsys.readouterr().out
    assert code in (0, 1)
    return json.loads(out)


def test_sarif_output_is_valid_sarif_2_1_0(workspace, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    # Findings of every kind: related locations, several runtimes, non-ASCII columns, fixes.
    skill(workspace / ".claude" / "skills", "a", name="Bad Name", description="Café: ünïcode <b> & more")
    skill(workspace / ".agents" / "skills", "a", description="Shadowed copy.", extra="colour: red\n")
    write(workspace / "b" / "SKILL.md", "---\nname: b\ndescription: Use when: asked\n---\n[x](../../etc)\n")
    write(workspace / "c" / "SKILL.md", "no frontmatter\n")
    doc = _sarif(capsys, str(workspace))
    assert doc["runs"][0]["results"], "the fixture must produce findings"
    jsonschema.validate(doc, schema, cls=jsonschema.Draft4Validator)
    empty = tmp = workspace / "empty"
    tmp.mkdir()
    jsonschema.validate(_sarif(capsys, str(empty)), schema, cls=jsonschema.Draft4Validator)


def test_the_schema_rejects_broken_sarif():
    """Guard against a vacuous pass: the vendored schema does reject what is not SARIF."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"version": "2.1.0", "runs": [{"tool": {}}]}, schema, cls=jsonschema.Draft4Validator)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [
            {"message": {"text": "m"}, "level": "fatal"}]}]}, schema, cls=jsonschema.Draft4Validator)


# -- pre-commit ----------------------------------------------------------------------------------

def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


def test_pre_commit_hooks_file_declares_check_and_fix():
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"skill-ls", "skill-ls-fix"}
    assert hooks["skill-ls"]["entry"].startswith("skill-ls check")
    assert "--fix" in hooks["skill-ls-fix"]["entry"]
    for h in hooks.values():
        assert h["language"] == "python" and h["require_serial"] is True
        import re

        pattern = re.compile(h["files"])
        assert pattern.search("skills/a/SKILL.md") and pattern.search(".claude/agents/reviewer.md")
        assert not pattern.search("README.md") and not pattern.search("docs/SKILL.md.bak")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_try_repo_passes_a_clean_repo_and_fails_a_broken_skill(tmp_path):
    pytest.importorskip("pre_commit")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    skill(repo / "skills", "good")
    _git(repo, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"), "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)  # the hook runs the skill-ls that pre-commit installs from this repository

    def try_repo(*hook: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), *hook, "--all-files"],
                              cwd=repo, env=env, capture_output=True, text=True, timeout=900)

    clean = try_repo("skill-ls")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
    write(repo / "skills" / "broken" / "SKILL.md", "---\nname: broken\ndescription: Use when: asked\n---\nBody\n")
    _git(repo, "add", "-A")
    broken = try_repo("skill-ls")
    assert broken.returncode == 1 and "Failed" in broken.stdout
    assert "SK003" in broken.stdout and "skills/broken/SKILL.md:3:" in broken.stdout
    fixed = try_repo("skill-ls-fix")
    assert fixed.returncode == 1 and "files were modified by this hook" in fixed.stdout
    assert (repo / "skills" / "broken" / "SKILL.md").read_text(encoding="utf-8").splitlines()[2] == \
        'description: "Use when: asked"'
    _git(repo, "add", "-A")
    assert try_repo("skill-ls").returncode == 0


# -- GitHub Action -------------------------------------------------------------------------------

def _action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_action_is_a_composite_action_that_installs_checks_and_uploads():
    action = _action()
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    names = [s.get("name", "") for s in steps]
    assert any("Install" in n for n in names) and any(n == "Check" for n in names)
    upload = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    assert upload and "inputs.upload-sarif == 'true'" in upload[0]["if"]
    assert set(action["inputs"]) >= {"paths", "format", "args", "upload-sarif", "sarif-file", "version"}
    for step in steps:
        if "run" in step:
            assert step["shell"] == "bash"  # composite steps must name their shell
            # Inputs reach scripts through the environment only (no expression injection).
            assert "${{" not in step["run"], step["name"]


def test_action_check_step_runs_the_real_cli(workspace, tmp_path):
    """Run the Check step's script with bash, as the runner would, against a broken skill."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    script = next(s for s in _action()["runs"]["steps"] if s.get("id") == "check")["run"]
    write(workspace / "b" / "SKILL.md", "---\nname: b\ndescription: Use when: asked\n---\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "skill-ls"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m skill_ls \"$@\"\n", encoding="utf-8")
    shim.chmod(0o755)
    output = tmp_path / "github_output"
    for fmt in ("github", "sarif"):
        output.write_text("", encoding="utf-8")
        env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "GITHUB_OUTPUT": str(output),
               "SKILL_LS_PATHS": ".", "SKILL_LS_FORMAT": fmt, "SKILL_LS_ARGS": "--strict",
               "SKILL_LS_SARIF": str(tmp_path / "out.sarif"), "PYTHONPATH": str(ROOT)}
        proc = subprocess.run(["bash", "-e", "-c", script], cwd=workspace, env=env, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr  # the status goes to the output; a later step fails the job
        assert "exit-code=1" in output.read_text(encoding="utf-8")
        if fmt == "github":
            assert "::error file=b/SKILL.md,line=3," in proc.stdout and "title=SK003" in proc.stdout
        else:
            sarif = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
            assert sarif["runs"][0]["results"][0]["ruleId"] == "SK003"


def test_readme_documents_the_action_with_a_complete_workflow():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### GitHub Actions", 1)[1].split("\n## ", 1)[0]
    block = section.split("```yaml\n", 1)[1].split("\n```", 1)[0]
    workflow = yaml.safe_load(block)
    job = next(iter(workflow["jobs"].values()))
    assert workflow[True if True in workflow else "on"]  # "on:" parses as the boolean True in YAML 1.1
    assert job["permissions"]["security-events"] == "write"
    uses = [s.get("uses", "") for s in job["steps"]]
    assert any(u.startswith("actions/checkout@") for u in uses)
    action_step = next(s for s in job["steps"] if s.get("uses", "").startswith("skill-ls/skill-ls@"))
    assert set(action_step["with"]) <= set(_action()["inputs"])


def _run_check_step(workspace, tmp_path, **inputs) -> tuple[subprocess.CompletedProcess, str]:
    script = next(s for s in _action()["runs"]["steps"] if s.get("id") == "check")["run"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "skill-ls"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m skill_ls \"$@\"\n", encoding="utf-8")
    shim.chmod(0o755)
    output = tmp_path / "github_output"
    output.write_text("", encoding="utf-8")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "GITHUB_OUTPUT": str(output),
           "SKILL_LS_PATHS": ".", "SKILL_LS_FORMAT": "github", "SKILL_LS_ARGS": "",
           "SKILL_LS_SARIF": str(tmp_path / "out.sarif"), "PYTHONPATH": str(ROOT)}
    env.update(inputs)
    proc = subprocess.run(["bash", "-e", "-c", script], cwd=workspace, env=env, capture_output=True, text=True,
                          timeout=300)
    return proc, output.read_text(encoding="utf-8")


def _outputs(text: str) -> list[str]:
    return [line.split("=", 1)[0] for line in text.splitlines()]


def test_action_passes_hostile_inputs_as_data(workspace, tmp_path):
    """Issue 24, class 14: a path named `--ignore=SK` hid every finding (exit-code=0); newline-separated
    paths lost all but the first; `format` was echoed into a `::error` command; `sarif-file` went raw into
    $GITHUB_OUTPUT (an `exit-code<<EOF` line could be injected)."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: Use when: asked\n---\n")
    write(workspace / "b c" / "SKILL.md", "---\nname: b c\ndescription: Use when: asked\n---\n")
    # A path that looks like an option is a path (it does not exist: usage error, not a clean run).
    proc, out = _run_check_step(workspace, tmp_path, SKILL_LS_PATHS="--ignore=SK")
    assert out.splitlines() == ["exit-code=2"], (out, proc.stderr)
    proc, out = _run_check_step(workspace, tmp_path, SKILL_LS_PATHS="a\n--ignore=SK\n")
    assert out.splitlines() == ["exit-code=2"]
    # One path per line, every line honoured (a space inside a path included; CRLF and blank lines too).
    proc, out = _run_check_step(workspace, tmp_path, SKILL_LS_PATHS="a\r\n\n  b c  \n")
    assert out.splitlines() == ["exit-code=1"], proc.stderr
    assert "file=a/SKILL.md," in proc.stdout and "file=b c/SKILL.md," in proc.stdout
    # The format is never echoed into a workflow command.
    forged = "x\n::error file=README.md::forged\n::set-output name=exit-code::0"
    proc, out = _run_check_step(workspace, tmp_path, SKILL_LS_FORMAT=forged)
    assert "forged" not in proc.stdout and "set-output" not in proc.stdout
    assert out.splitlines() == ["exit-code=2"]
    # The SARIF path never writes anything but its own line into $GITHUB_OUTPUT.
    proc, out = _run_check_step(workspace, tmp_path, SKILL_LS_FORMAT="sarif",
                                SKILL_LS_SARIF=str(tmp_path / "s.sarif") + "\nexit-code<<EOF\n0\nEOF")
    assert _outputs(out) == ["exit-code"] and out.splitlines() == ["exit-code=2"], out
    proc, out = _run_check_step(workspace, tmp_path, SKILL_LS_FORMAT="sarif", SKILL_LS_SARIF=str(tmp_path / "s p.sarif"),
                                SKILL_LS_ARGS="--select\nSK003")
    assert _outputs(out) == ["sarif-file", "exit-code"] and "exit-code=1" in out, (out, proc.stderr)
    assert json.loads((tmp_path / "s p.sarif").read_text())["runs"][0]["results"]
