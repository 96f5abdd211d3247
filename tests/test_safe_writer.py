"""Issue 24, classes 12 and 13: every output path writes through the one safe writer.

Directory names that are not UTF-8 crashed all three `portability` formats and `preview` (through
`${SKILL_DIR}`) under a UTF-8 stdout and wrote a raw 0xFF byte (invalid JSON) under the C locale; a
skill body's ESC/OSC sequences (clipboard write, clear screen, window title) reached the terminal raw
from `preview`, and its notes about `` !`cmd` `` lines went raw to stderr.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_BODY = ("Intro \x1b]52;c;ZXZpbA==\x07 clip \x1b[2J\x1b[H clear \x1b]0;owned\x07 title \u202eevil\n"
                "!`echo \x1b[31mred`\n")


def _run(args: list[str], cwd: Path, locale: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), LC_ALL=locale, LANG=locale, PYTHONIOENCODING="")
    env.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-m", "skill_ls", *args], cwd=cwd, env=env, capture_output=True,
                          timeout=60)


def _tree(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    d = Path(os.fsdecode(bytes(ws / ".claude" / "skills") + b"/bad\xff"))
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text("---\nname: bad\ndescription: A bad one. Use when ${SKILL_DIR} is odd.\n"
                                "---\nRun ${CLAUDE_SKILL_DIR}/x.sh now.\n" + HOSTILE_BODY, encoding="utf-8")
    good = ws / ".claude" / "skills" / "good"
    good.mkdir()
    (good / "SKILL.md").write_text("---\nname: good\ndescription: Good. Use when fine.\n---\n" + HOSTILE_BODY,
                                   encoding="utf-8")
    return ws


def _clean(data: bytes) -> None:
    text = data.decode("utf-8")  # valid UTF-8, whatever the locale
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, text[:500]


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_portability_in_every_format_with_a_directory_that_is_not_utf8(tmp_path, locale):
    ws = _tree(tmp_path)
    for fmt in ("text", "json", "markdown"):
        proc = _run(["portability", "--format", fmt, "."], ws, locale)
        assert proc.returncode in (0, 1) and b"Traceback" not in proc.stderr, (fmt, proc.stderr[-800:])
        _clean(proc.stdout)
        if fmt == "json":
            rows = json.loads(proc.stdout)
            assert any("\udcff" in json.dumps(rows, ensure_ascii=False) or "\\udcff" in proc.stdout.decode()
                       for _ in [0])
        else:
            assert b"\\xff" in proc.stdout, proc.stdout[:400]


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_preview_never_passes_terminal_escapes_through(tmp_path, locale):
    ws = _tree(tmp_path)
    for name in ("good", "bad"):
        for fmt in ("text", "json"):
            proc = _run(["preview", name, "--runtime", "amp", "--format", fmt], ws, locale)
            assert proc.returncode == 0 and b"Traceback" not in proc.stderr, (name, fmt, proc.stderr[-800:])
            _clean(proc.stdout)
            _clean(proc.stderr)
            if fmt == "json":  # JSON keeps the exact text, as escapes
                assert "\x1b]52;c;" in json.loads(proc.stdout)["text"]
            else:
                assert b"\\x1b]52;c;" in proc.stdout
