"""Hostile file systems (issue 7): `skill-ls check` on trees that fight back.

Each case runs the CLI in-process (`skill_ls.cli.main`) and asserts the exit status: 0/1 for a run
that finished (findings or not), 2 only for usage or configuration errors. Cases that could block
forever (FIFOs, device files) run in a subprocess under a timeout.

Unreadable files and directories: the test suite runs as root, and `chmod 000` does not stop root,
so unreadability is *simulated* by monkeypatching `os.scandir` / `os.open` to raise PermissionError
for the chosen paths (which is exactly what a non-root user would see).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import skill, write
from skill_ls.cli import main

OK = (0, 1)  # the run finished; 2 is reserved for usage/configuration errors


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def check_json(capsys, *args: str) -> tuple[int, dict]:
    code, out, _ = check(capsys, "--format", "json", *args)
    return code, json.loads(out)


def run_cli_subprocess(args: list[str], env: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "skill_ls", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def child_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("AGH_HOME", "CODEX_HOME", "AMP_TOOLBOX")}
    env.update(HOME=str(home), AGH_HOME=str(home / ".agh"), CODEX_HOME=str(home / ".codex"))
    return env


# -- symlinks -------------------------------------------------------------------------------------
def test_symlink_loops_are_not_followed(workspace, capsys):
    root = workspace / ".agh" / "skills"
    skill(root, "real")
    os.symlink(root, root / "loop")  # root/loop -> root
    (root / "real" / "deeper").mkdir()
    os.symlink(root / "real", root / "real" / "deeper" / "back")  # a cycle two levels down
    os.symlink(root / "self", root / "self")  # a link to itself (ELOOP on stat)
    start = time.perf_counter()
    code, out, err = check(capsys, "--format", "json", str(workspace))
    data = json.loads(out)
    assert code in OK and time.perf_counter() - start < 30
    assert "symlink loop" in err
    paths = [d["path"] for d in data["diagnostics"]]
    assert not any("loop" in p or "back" in p for p in paths), paths

    from skill_ls.analysis.check import CheckOptions, run_check

    result = run_check(CheckOptions(paths=[str(workspace)]))
    reasons = {Path(p).name: r for p, r in result.index.skipped}
    assert "symlink loop" in reasons.get("loop", "") and "symlink loop" in reasons.get("back", "")


def test_symlink_out_of_root_is_reported_not_followed(workspace, tmp_path, capsys):
    outside = tmp_path / "outside"
    skill(outside, "evil", description="Outside the root.")
    write(outside / "evil" / "mcp.json", "{not json", dedent=False)
    root = workspace / ".agh" / "skills"
    skill(root, "good")
    os.symlink(outside, root / "escape")
    os.symlink(outside / "evil", root / "escape2")
    code, out, err = check(capsys, "--format", "json", str(workspace))
    assert code in OK
    assert not any("evil" in d["path"] or "escape" in d["path"] for d in json.loads(out)["diagnostics"])
    assert "escape" in err and "outside the root" in err  # reported on stderr, stdout stays machine-readable

    from skill_ls.analysis.check import CheckOptions, run_check

    result = run_check(CheckOptions(paths=[str(workspace)]))
    assert all(d.name != "evil" for decls in result.index.decls.values() for d in decls)
    reasons = {Path(p).name: r for p, r in result.index.skipped}
    assert "outside the root" in reasons["escape"] and "outside the root" in reasons["escape2"]


# -- unreadable (simulated: we run as root) ----------------------------------------------------------
def test_unreadable_directory(workspace, monkeypatch, capsys):
    root = workspace / ".agh" / "skills"
    skill(root, "fine")
    locked = root / "locked"
    skill(root, "locked")
    real_scandir = os.scandir

    def scandir(path="."):
        if not isinstance(path, int) and os.fspath(path).rstrip(os.sep) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, data = check_json(capsys, str(workspace))
    assert code in OK
    assert not any("locked" in d["path"] for d in data["diagnostics"])
    from skill_ls.analysis.check import CheckOptions, run_check

    skipped = dict(run_check(CheckOptions(paths=[str(workspace)])).index.skipped)
    assert "Permission denied" in skipped[str(locked)]


def test_unreadable_root_and_workspace(workspace, monkeypatch, capsys):
    skill(workspace / ".agh" / "skills", "x")
    real_scandir = os.scandir

    def scandir(path="."):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(os, "scandir", scandir)
    code, _, err = check(capsys, str(workspace))
    assert code in OK, err
    monkeypatch.setattr(os, "scandir", real_scandir)


def test_unreadable_files(workspace, monkeypatch, capsys):
    root = workspace / ".agh" / "skills"
    target = skill(root, "secret")
    write(root / "secret" / "mcp.json", '{"mcpServers": {}}', dedent=False)
    agent = write(workspace / ".agh" / "agents" / "a" / "AGENT.md", "---\nname: a\n---\nHi.\n", dedent=False)
    blocked = {str(target), str(root / "secret" / "mcp.json"), str(agent)}
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):
        if os.fspath(path) in blocked:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    code, data = check_json(capsys, str(workspace))
    assert code == 1
    by_path = {}
    for d in data["diagnostics"]:
        by_path.setdefault(Path(d["path"]).name, []).append(d)
    assert any("Permission denied" in d["message"] for d in by_path["SKILL.md"])
    assert any("Permission denied" in d["message"] for d in by_path["AGENT.md"])
    assert any(d["code"] == "MC001" for d in by_path["mcp.json"])


def test_read_errors_mid_file(workspace, monkeypatch, capsys):
    """EIO from read(2) after a successful open is a diagnostic, not a crash."""
    target = skill(workspace / ".agh" / "skills", "flaky")
    real_open, real_read = os.open, os.read
    fds: set[int] = set()

    def fake_open(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        if os.fspath(path) == str(target):
            fds.add(fd)
        return fd

    def fake_read(fd, n):
        if fd in fds:
            raise OSError(5, "Input/output error")
        return real_read(fd, n)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "read", fake_read)
    code, data = check_json(capsys, str(workspace))
    assert code == 1 and any("Input/output error" in d["message"] for d in data["diagnostics"])


# -- FIFOs and devices (subprocess + timeout: a blocking open would hang forever) ------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifos_and_devices_do_not_block(workspace, private_home):
    root = workspace / ".agh" / "skills"
    skill(root, "ok", body="See [pipe](pipe.md) and [dev](dev.md).\n")
    (root / "fifo").mkdir()
    os.mkfifo(root / "fifo" / "SKILL.md")
    os.mkfifo(root / "ok" / "mcp.json")
    os.mkfifo(root / "ok" / "pipe.md")
    os.symlink("/dev/zero", root / "ok" / "dev.md")
    (root / "dev").mkdir()
    os.symlink("/dev/zero", root / "dev" / "SKILL.md")
    (root / "urandom").mkdir()
    os.symlink("/dev/urandom", root / "urandom" / "SKILL.md")
    os.mkfifo(workspace / ".skill-ls.toml")
    agh = private_home / ".agh"
    (agh / "skills" / "market").mkdir(parents=True)
    skill(agh / "skills", "market")
    os.mkfifo(agh / "skills" / "market" / ".agh-meta.json")
    os.mkfifo(agh / "config.toml")
    (workspace / ".agh" / "agents" / "a").mkdir(parents=True)
    os.mkfifo(workspace / ".agh" / "agents" / "a" / "AGENT.md")
    env = child_env(private_home)
    for args in (["check", "--format", "json", str(workspace)],
                 ["check", str(root / "fifo" / "SKILL.md"), str(root / "dev" / "SKILL.md")],
                 ["catalog", "--workspace", str(workspace), "--format", "json"],
                 ["list", "--workspace", str(workspace)], ["where", "ok", "--workspace", str(workspace)]):
        proc = run_cli_subprocess(args, env, timeout=60)
        assert proc.returncode in OK, (args, proc.returncode, proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr
    # A FIFO in place of .agh-meta.json is unreadable metadata: the marketplace skill is blocked.
    proc = run_cli_subprocess(["where", "market", "--format", "json", "--workspace", str(workspace)], env)
    entries = json.loads(proc.stdout)["entries"]
    assert entries and all(e["blocked"] for e in entries if e["tier"] == "marketplace"), entries
    # An explicit --config that is a FIFO is a configuration error (2), still without blocking.
    proc = run_cli_subprocess(["check", "--config", str(workspace / ".skill-ls.toml"), str(workspace)], env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# -- size and names -------------------------------------------------------------------------------
def test_directory_with_10000_entries(workspace, capsys):
    root = workspace / ".agh" / "skills"
    root.mkdir(parents=True)
    for i in range(9_600):
        (root / f"file-{i:05d}.txt").write_bytes(b"")
    for i in range(400):
        d = root / f"s{i:04d}"
        d.mkdir()
        (d / "SKILL.md").write_bytes(f"---\nname: s{i:04d}\ndescription: Skill {i}.\n---\nBody.\n".encode())
    assert len(os.listdir(root)) == 10_000
    start = time.perf_counter()
    code, data = check_json(capsys, str(workspace))
    assert code in OK and time.perf_counter() - start < 60
    sh004 = [d for d in data["diagnostics"] if d["code"] == "SH004"]
    assert len(sh004) == 100  # AGH reads at most 300 candidates per scanned directory


NAMES = ["with space", "new\nline", "tab\tname", "\u202eevil-rtl", "e\u0301-combining", "\u05e9\u05dc\u05d5\u05dd",
         "emoji-\U0001f600", "quote\"and'", "back\\slash", "percent%25", "colon:comma,", "-dash-first",
         "trailing-space ", "\u200bzero-width", "nfc-\u00e9"]


def test_hostile_names(workspace, capsys):
    root = workspace / ".agh" / "skills"
    for name in NAMES:
        skill(root, name, name="x", body=f"See [r](ref {name}.md) and [s](sub%20dir/x.md).\n")
    for fmt in ("text", "json", "sarif", "github"):
        code, out, err = check(capsys, "--format", fmt, str(workspace))
        assert code in OK and "Traceback" not in err
        if fmt in ("json", "sarif"):
            json.loads(out)
    code, data = check_json(capsys, str(workspace))
    paths = {d["path"] for d in data["diagnostics"]}
    for name in NAMES:
        assert any(name in p for p in paths), name  # every skill was checked (SK009: name != directory)
    code, out, _ = check(capsys, "--format", "github", str(workspace))
    assert all(line.startswith("::") for line in out.split("\n") if line)  # newlines in paths are escaped


def test_hostile_workspace_path(tmp_path, capsys):
    ws = tmp_path / "my work\nspace \u202e\u0301"
    skill(ws / ".agh" / "skills", "demo")
    code, out, err = check(capsys, str(ws))
    assert code in OK and "Traceback" not in err


# -- races ----------------------------------------------------------------------------------------
def test_skill_md_deleted_while_being_read(workspace, monkeypatch, capsys):
    root = workspace / ".agh" / "skills"
    target = skill(root, "vanishing")
    skill(root, "stays")
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):
        if os.fspath(path) == str(target) and target.exists():
            target.unlink()  # deleted between the directory listing and the read
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    code, data = check_json(capsys, str(workspace))
    assert code in OK
    msgs = [d["message"] for d in data["diagnostics"] if "vanishing" in d["path"]]
    assert any("No such file" in m or "cannot read" in m for m in msgs), msgs


def test_skill_md_replaced_while_being_read(workspace, monkeypatch, capsys):
    root = workspace / ".agh" / "skills"
    target = skill(root, "swapped")
    replacement = workspace / "replacement.md"
    real_open, real_read = os.open, os.read
    fds: set[int] = set()

    def fake_open(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        if os.fspath(path) == str(target):
            fds.add(fd)
        return fd

    def fake_read(fd, n):
        chunk = real_read(fd, min(n, 7))  # short reads...
        if fd in fds and chunk:
            replacement.write_bytes(b"\x00garbage\xff---\n")
            os.replace(replacement, target)  # ...while the file is atomically replaced underneath
            fds.discard(fd)
        return chunk

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "read", fake_read)
    code, _ = check_json(capsys, str(workspace))
    assert code in OK


def test_skill_md_becomes_a_directory(workspace, monkeypatch, capsys):
    root = workspace / ".agh" / "skills"
    target = skill(root, "morph")
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):
        if os.fspath(path) == str(target) and target.is_file():
            target.unlink()
            target.mkdir()
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    code, _ = check_json(capsys, str(workspace))
    assert code in OK


def test_root_deleted_during_walk(workspace, monkeypatch, capsys):
    root = workspace / ".agh" / "skills"
    for i in range(5):
        skill(root, f"s{i}")
    real_scandir = os.scandir
    import shutil

    def scandir(path="."):
        if not isinstance(path, int) and os.fspath(path) == str(root / "s2"):
            shutil.rmtree(root / "s3", ignore_errors=True)
            shutil.rmtree(root / "s2", ignore_errors=True)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, _ = check_json(capsys, str(workspace))
    assert code in OK


# -- environment ----------------------------------------------------------------------------------
def test_roots_that_do_not_exist(workspace, tmp_path, monkeypatch, capsys):
    skill(workspace / ".agh" / "skills", "demo")
    write(workspace / ".skill-ls.toml", f"""
        runtimes = ["agh", "amp", "claude-code", "codex", "agentskills", "agentcy", "workspace-agents"]
        [[roots]]
        path = "{tmp_path / 'missing-root'}"
        runtime = "agh"
        [agh]
        home = "{tmp_path / 'no-agh-home'}"
        bundled_roots = ["{tmp_path / 'no-bundle'}"]
        additional_roots = ["/nonexistent/additional"]
        [amp]
        skills_path = ["/nonexistent/amp"]
    """)
    monkeypatch.setenv("AGH_HOME", str(tmp_path / "nope"))
    monkeypatch.setenv("CODEX_HOME", "/nonexistent/codex")
    monkeypatch.setenv("AMP_TOOLBOX", "/nonexistent/toolbox")
    monkeypatch.setenv("HOME", str(tmp_path / "no-home"))
    code, _, err = check(capsys, str(workspace))
    assert code in OK, err
    for cmd in (["list"], ["where", "demo"], ["catalog"]):
        assert main([*cmd, "--workspace", str(workspace)]) in OK
    capsys.readouterr()


def test_usage_errors_are_exit_2(workspace, tmp_path, capsys):
    assert check(capsys, str(tmp_path / "does-not-exist"))[0] == 2
    assert check(capsys, "--workspace", str(tmp_path / "does-not-exist"))[0] == 2
    assert check(capsys, "--config", str(tmp_path / "nope.toml"), str(workspace))[0] == 2
    write(workspace / ".skill-ls.toml", "runtimes = [\n", dedent=False)
    code, _, err = check(capsys, str(workspace))
    assert code == 2 and ".skill-ls.toml" in err


def test_home_unset(workspace, monkeypatch, capsys):
    skill(workspace / ".agh" / "skills", "demo")
    skill(workspace / ".claude" / "skills", "demo")
    for var in ("HOME", "AGH_HOME", "CODEX_HOME", "AMP_TOOLBOX", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    code, _, err = check(capsys, str(workspace))
    assert code in OK, err
    for cmd in (["list"], ["where", "demo"], ["catalog"]):
        assert main([*cmd, "--workspace", str(workspace)]) in OK
    capsys.readouterr()


def test_home_unset_subprocess(workspace, private_home):
    skill(workspace / ".agh" / "skills", "demo")
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "AGH_HOME", "CODEX_HOME", "AMP_TOOLBOX")}
    proc = run_cli_subprocess(["check", "--format", "json", str(workspace)], env)
    assert proc.returncode in OK and "Traceback" not in proc.stderr, proc.stderr
    json.loads(proc.stdout)


def test_home_is_a_file(workspace, tmp_path, monkeypatch, capsys):
    skill(workspace / ".agh" / "skills", "demo")
    bad = write(tmp_path / "home-file", "x")
    monkeypatch.setenv("HOME", str(bad))
    monkeypatch.setenv("AGH_HOME", str(bad))
    code, _, err = check(capsys, str(workspace))
    assert code in OK, err


# -- issue 24, class 9: a missing or odd workspace is never a walk of its parent ---------------------
@pytest.mark.parametrize("kind", ["missing", "file"])
def test_a_missing_or_file_workspace_never_lists_its_parent(tmp_path, monkeypatch, kind):
    from skill_ls.analysis.check import Checker, build_index, prepare_config, CheckOptions

    home = Path(os.environ["HOME"])
    (home / "d" / "e").mkdir(parents=True, exist_ok=True)
    target = home / "old-project"
    if kind == "file":
        target.write_text("# notes\n")
    opts = CheckOptions(paths=[str(target)], workspace=str(home), runtimes=[])
    checker = Checker(build_index(str(home), prepare_config(str(home), opts)))
    listed: list[str] = []
    real = checker.index.walker.listdir

    def spy(directory):
        listed.append(directory)
        return real(directory)

    monkeypatch.setattr(checker.index.walker, "listdir", spy)
    assert checker.plugin_files([str(target)]) == {}
    assert not any(d in (str(home), os.sep) or d.startswith(str(home / "d")) for d in listed), listed


# -- issue 24, classes 7-8: no blocking read of a special file anywhere -----------------------------
def test_preview_of_a_fifo_resource_answers_at_once(workspace):
    s = skill(workspace / ".agh" / "skills", "demo")
    (s.parent / "references").mkdir()
    os.mkfifo(s.parent / "references" / "pipe.md")
    os.symlink("/dev/zero", s.parent / "references" / "zero.md")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    for name in ("pipe.md", "zero.md"):
        proc = subprocess.run([sys.executable, "-m", "skill_ls", "preview", "demo", "--runtime", "agh", "--file",
                               f"references/{name}"], cwd=workspace, env=env, capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1
        assert "not a regular file" in proc.stderr or "not inside the skill directory" in proc.stderr


def test_configuration_and_settings_that_are_fifos_never_block(workspace):
    os.mkfifo(workspace / ".skill-ls.toml")
    skill(workspace / ".claude" / "skills", "a")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-m", "skill_ls", "check", "."], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode in (0, 1, 2) and "Traceback" not in proc.stderr  # (answered: not blocked)
