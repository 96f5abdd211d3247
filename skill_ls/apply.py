"""Writing fixed files: the only module of skill-ls that writes anything (`skill-ls check --fix`).

- A file is written only when it lies (after resolving symlinks) under one of the paths given on
  the command line; anything else is reported and left alone.
- A file whose bytes changed since they were read is left alone and reported.
- Writes are atomic: a temporary file in the same directory, flushed, with the original's
  permission bits, then renamed over the original.
- Directory renames (SK009's unsafe fix) happen after the files, only inside the given paths, and
  never over an existing path.
"""
from __future__ import annotations

import difflib
import os
import stat
import tempfile

from skill_ls.analysis.fixes import FileState
from skill_ls.core.index import read_bytes


def _inside(path: str, scope: list[str]) -> bool:
    real = os.path.realpath(path)
    for base in scope:
        b = os.path.realpath(base)
        if real == b or real.startswith(b.rstrip(os.sep) + os.sep):
            return True
    return False


def write_atomic(path: str, data: bytes) -> None:
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, tmp = tempfile.mkstemp(prefix=".skill-ls-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_files(states: dict[str, FileState], scope: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Write every changed file; returns (written paths, [(path, why it was left alone)])."""
    written: list[str] = []
    skipped: list[tuple[str, str]] = []
    for path in sorted(states):
        st = states[path]
        if not _inside(path, scope):
            skipped.append((path, "it lies outside the paths given (a symlink?); not written"))
            continue
        now, error, _ = read_bytes(path)
        if error is not None or now != st.original:
            skipped.append((path, "it changed since it was read; left alone, run the fix again"))
            continue
        try:
            write_atomic(path, st.data())
        except OSError as exc:
            skipped.append((path, f"cannot write it: {exc.strerror or exc}"))
            continue
        written.append(path)
    return written, skipped


def rename_dirs(renames: list[tuple[str, str, str]], scope: list[str]) -> tuple[list[tuple[str, str, str]],
                                                                                  list[tuple[str, str]]]:
    done, skipped = [], []
    for code, old, new in renames:
        if not _inside(old, scope) or os.path.dirname(old) != os.path.dirname(new):
            skipped.append((old, "the directory lies outside the paths given; not renamed"))
            continue
        if os.path.lexists(new):
            skipped.append((old, f"'{os.path.basename(new)}' already exists; not renamed"))
            continue
        if any(old == s.rstrip(os.sep) for s in map(os.path.abspath, scope)):
            skipped.append((old, "it is a path given on the command line; not renamed"))
            continue
        try:
            os.rename(old, new)
        except OSError as exc:
            skipped.append((old, f"cannot rename it: {exc.strerror or exc}"))
            continue
        done.append((code, old, new))
    return done, skipped


def unified_diff(state: FileState, shown: str) -> str:
    """A unified diff of one file (line endings shown as they are written)."""
    before = state.original.decode("utf-8")
    after = state.full_text()
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 fromfile=f"a/{shown}", tofile=f"b/{shown}")
    out = []
    for line in lines:
        if not line.endswith(("\n", "\r")):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    text = "".join(out)
    if not text and before != after:  # only the BOM changed, or only line endings differ invisibly
        text = f"--- a/{shown}\n+++ b/{shown}\n"
    notes = []
    if before.startswith("\ufeff") and not after.startswith("\ufeff"):
        notes.append("# byte-order mark removed")
    if "\r\n" in before and "\r\n" not in after:
        notes.append("# line endings converted from CRLF to LF")
    return text + "".join(n + "\n" for n in notes)
