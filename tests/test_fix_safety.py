"""Issue 24, classes 5 and 6: `check --fix` is safe by construction.

A symlinked SKILL.md re-pointed at `~/.profile` between the fixer's read and its write replaced
`~/.profile` (class 5); fixed files came back owned by root without their extended attributes, a
read-only file was rewritten, and a hard-linked file was split without a word (class 6). The race test
flips the link (or swaps the directory, or the file itself) before every system call the writer
makes, one run per step, and checks that nothing outside the given paths ever changes.
"""
from __future__ import annotations

import os
import types
from pathlib import Path

import pytest
from conftest import write

from skill_ls import apply
from skill_ls.apply import write_files
from skill_ls.cli import main

BEFORE = b"---\nname: a\ndescription: Use when: asked\n---\nBody\n"
AFTER = b'---\nname: a\ndescription: "Use when: asked"\n---\nBody\n'
PROFILE = b"export PATH=/usr/bin\n"


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    ws = tmp_path / "ws"
    d = ws / "a"
    d.mkdir(parents=True)
    (d / "real.md").write_bytes(BEFORE)
    os.symlink("real.md", d / "SKILL.md")
    outside = Path(os.environ["HOME"]) / ".profile"
    outside.parent.mkdir(parents=True, exist_ok=True)
    outside.write_bytes(PROFILE)
    return ws, d, outside


def _states(ws: Path):
    from skill_ls.analysis.check import CheckOptions, open_run
    from skill_ls.analysis.fixes import fix_in_memory
    from skill_ls.core.discovery import Environment

    checker, scope, files = open_run(CheckOptions(paths=[str(ws)], workspace=str(ws), runtimes=[]))
    env = Environment.from_environ(None, checker.index.config)
    outcome = fix_in_memory(checker.index.workspace, env, checker.index.config, files, unsafe=False)
    return outcome.files, scope


class _FlippingOs(types.ModuleType):
    """`os` as `skill_ls.apply` sees it, running `flip()` before the `at`-th call of any function."""

    def __init__(self, at: int, flip) -> None:
        super().__init__("os")
        self.calls, self.at, self.flip = 0, at, flip

    def __getattr__(self, name: str):
        real = getattr(os, name)
        if not callable(real) or isinstance(real, type):
            return real

        def wrapped(*args, **kwargs):
            if self.calls == self.at:
                self.flip()
            self.calls += 1
            return real(*args, **kwargs)

        return wrapped


def _flips(d: Path, outside: Path):
    def relink():  # SKILL.md and real.md both become links to ~/.profile
        for name in ("SKILL.md", "real.md"):
            try:
                os.unlink(d / name)
            except FileNotFoundError:
                pass
            os.symlink(outside, d / name)

    def swap_dir():  # the skill directory becomes a link to $HOME
        os.rename(d, d.with_name("a.moved"))
        os.symlink(outside.parent, d)

    def swap_file():  # real.md replaced by another file (same text), then by a link
        os.unlink(d / "real.md")
        os.symlink(outside, d / "real.md")

    return {"relink": relink, "swap_dir": swap_dir, "swap_file": swap_file}


@pytest.mark.parametrize("kind", ["relink", "swap_dir", "swap_file"])
def test_a_symlink_flipped_at_every_step_never_writes_outside(tmp_path, monkeypatch, kind):
    step, completed = 0, False
    while not completed:
        base = tmp_path / f"{kind}{step}"
        ws, d, outside = _tree(base)
        states, scope = _states(ws)
        assert states, "the fixture must have something to fix"
        proxy = _FlippingOs(step, _flips(d, outside)[kind])
        monkeypatch.setattr(apply, "os", proxy)
        try:
            written, skipped = write_files(states, scope)
        finally:
            monkeypatch.setattr(apply, "os", os)
        completed = proxy.calls <= step  # the flip never happened: every step has been raced
        assert outside.read_bytes() == PROFILE, (kind, step)
        assert not outside.is_symlink()
        moved = d.with_name("a.moved")
        inside = (moved if moved.exists() else d) / "real.md"
        if written:  # (a link made after the write is the attacker's, not ours)
            assert inside.is_symlink() or inside.read_bytes() == AFTER, (kind, step)
        else:
            assert skipped and all("\n" not in why for _, why in skipped), (kind, step)
        step += 1
        assert step < 200
    assert step > 10  # the writer makes many calls: each one was raced
    print(f"{kind}: raced before each of {step - 1} system calls")


def test_relinking_before_the_write_is_refused_with_a_note(tmp_path, capsys):
    ws, d, outside = _tree(tmp_path)
    states, scope = _states(ws)
    os.unlink(d / "SKILL.md")
    os.symlink(outside, d / "SKILL.md")
    written, skipped = write_files(states, scope)
    assert not written and "outside the paths given" in skipped[0][1]
    assert outside.read_bytes() == PROFILE


def test_fix_keeps_owner_group_mode_and_xattrs(workspace, capsys):
    f = write(workspace / "a" / "SKILL.md", BEFORE.decode())
    os.chmod(f, 0o640)
    if os.geteuid() == 0:
        os.chown(f, 1234, 5678)
    try:
        os.setxattr(f, "user.origin", b"kept")
        has_xattr = True
    except OSError:
        has_xattr = False
    assert main(["check", str(workspace), "--fix"]) == 0
    st = os.stat(f)
    assert f.read_bytes() == AFTER and (st.st_mode & 0o7777) == 0o640
    if os.geteuid() == 0:
        assert (st.st_uid, st.st_gid) == (1234, 5678)
    if has_xattr:
        assert os.getxattr(f, "user.origin") == b"kept"
    assert not [p for p in f.parent.iterdir() if p.name.startswith(".skill-ls-")]


def test_read_only_and_hard_linked_files_are_left_alone_and_said(workspace, capsys):
    ro = write(workspace / "ro" / "SKILL.md", BEFORE.decode().replace("name: a", "name: ro"))
    os.chmod(ro, 0o444)
    hl = write(workspace / "hl" / "SKILL.md", BEFORE.decode().replace("name: a", "name: hl"))
    other = workspace / "hl-other.md"
    os.link(hl, other)
    main(["check", str(workspace), "--fix"])
    err = capsys.readouterr().err
    assert b"Use when: asked\n" in ro.read_bytes() and b'"Use' not in ro.read_bytes()
    assert hl.read_bytes() == other.read_bytes() and b'"Use' not in hl.read_bytes()
    assert "read-only (mode 0444)" in err and "2 hard links" in err


def test_an_owner_that_cannot_be_kept_is_refused(workspace, monkeypatch):
    f = write(workspace / "a" / "SKILL.md", BEFORE.decode())
    states, scope = _states(workspace)

    def no_chown(*args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(apply.os, "geteuid", lambda: 4242)  # as if the file were someone else's
    monkeypatch.setattr(apply.os, "fchown", no_chown)
    written, skipped = write_files(states, scope)
    assert not written and "owner/group" in skipped[0][1] and f.read_bytes() == BEFORE
    assert not [p for p in f.parent.iterdir() if p.name.startswith(".skill-ls-")]
