"""Writing fixed files: the only module of skill-ls that writes anything (`skill-ls check --fix`).

- A file is written only when it lies (after resolving symlinks) under one of the paths given on
  the command line; anything else is reported and left alone.
- Safe by construction (`write_pinned`): the directory is pinned with O_NOFOLLOW component by
  component, the file opened with O_NOFOLLOW, read back through that descriptor and compared with
  what the fixes were computed from, and replaced by a `renameat` in the pinned directory; a link
  re-pointed or a directory swapped during the fix cannot move the write. Read-only files and files
  with several hard links are left alone and reported; owner, group, mode and extended attributes
  are kept, or the file is left alone and reported.
- Directory renames (SK009's unsafe fix) happen after the files, only inside the given paths, and
  never over an existing path.
"""
from __future__ import annotations

import difflib
import os
import stat

from skill_ls.analysis.fixes import FileState


def _inside(path: str, scope: list[str]) -> bool:
    real = os.path.realpath(path)
    for base in scope:
        b = os.path.realpath(base)
        if real == b or real.startswith(b.rstrip(os.sep) + os.sep):
            return True
    return False


class Refused(Exception):
    """Why a file was left alone (one line, for the note on stderr)."""


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def open_dir_pinned(real_dir: str) -> int:
    """A descriptor of `real_dir` (a path with no symlink in it: `os.path.realpath`'s output), opened
    one component at a time from `/` with O_NOFOLLOW: if any component has been swapped for a
    symlink since the path was resolved, this fails instead of following it."""
    fd = os.open(os.sep, _DIR_FLAGS)
    try:
        for part in [p for p in real_dir.split(os.sep) if p]:
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise Refused(f"the directory changed while it was being fixed ({exc.strerror or exc}); "
                              "left alone, run the fix again") from None
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_pinned(path: str, expected: bytes, data: bytes, scope: list[str]) -> None:
    """Replace the file `path` resolves to by `data`, safe by construction (issue 24, classes 5-6):

    - the target is resolved once and must lie under `scope`; its directory is then pinned (opened
      component by component with O_NOFOLLOW) and every later step goes through that descriptor, so
      nothing done to the path afterwards (a symlink re-pointed at `~/.profile`, a directory swapped
      for a link) can move the write elsewhere;
    - the file is opened with O_NOFOLLOW (a name turned into a symlink is refused), must be a regular
      file holding exactly the bytes the fixes were computed from, must not be read-only and must
      not have other hard links (rewriting one name would split them: refused and said);
    - the new text goes to a temporary file in the pinned directory that takes the original's owner,
      group, mode and extended attributes (any of them that cannot be kept: refused, nothing
      written), is flushed, and replaces the name with a `renameat` in that directory only after
      checking that the name still is the file that was read.
    Raises `Refused` (why, one line) or OSError; on either, nothing was changed."""
    real = os.path.realpath(path)
    if not _inside(real, scope):
        raise Refused("it lies outside the paths given (a symlink?); not written")
    directory, name = os.path.split(real)
    dfd = open_dir_pinned(directory)
    try:
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=dfd)
        except OSError as exc:
            raise Refused(f"it changed since it was read ({exc.strerror or exc}); left alone, run the fix again") from None
        try:
            _write_through(dfd, fd, name, expected, data)
        finally:
            os.close(fd)
    finally:
        os.close(dfd)


def _write_through(dfd: int, fd: int, name: str, expected: bytes, data: bytes) -> None:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise Refused("it is no longer a regular file; left alone")
    if st.st_nlink > 1:
        raise Refused(f"it has {st.st_nlink} hard links: rewriting this name would leave the others with the old "
                      "text; left alone (fix it through one name after breaking the link, or by hand)")
    mode = stat.S_IMODE(st.st_mode)
    if not mode & stat.S_IWUSR:
        raise Refused(f"it is read-only (mode {mode:04o}); not rewritten")
    if _read_all(fd, len(expected) + 1) != expected:
        raise Refused("it changed since it was read; left alone, run the fix again")
    attrs = _xattrs(fd)
    tmp = f".skill-ls-{os.getpid()}-{os.urandom(4).hex()}.tmp"
    tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0),
                  0o600, dir_fd=dfd)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(tfd, view):]
            if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
                try:
                    os.fchown(tfd, st.st_uid, st.st_gid)
                except OSError:
                    raise Refused(f"its owner/group ({st.st_uid}:{st.st_gid}) could not be kept; not rewritten") from None
            os.fchmod(tfd, mode)
            for key, value in attrs.items():
                try:
                    os.setxattr(tfd, key, value)
                except OSError:
                    raise Refused(f"its extended attribute {key} could not be kept; not rewritten") from None
            os.fsync(tfd)
        finally:
            os.close(tfd)
        now = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise Refused("it was replaced while it was being fixed; left alone, run the fix again")
        os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dfd)
        except OSError:
            pass
        raise


def _read_all(fd: int, limit: int) -> bytes:
    chunks, total = [], 0
    while total < limit:
        chunk = os.read(fd, min(1 << 20, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _xattrs(fd: int) -> dict[str, bytes]:
    if not hasattr(os, "listxattr"):  # pragma: no cover - not Linux
        return {}
    try:
        return {key: os.getxattr(fd, key) for key in os.listxattr(fd)}
    except OSError:
        return {}


def write_files(states: dict[str, FileState], scope: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Write every changed file (`write_pinned`); returns (written paths, [(path, why it was left alone)])."""
    written: list[str] = []
    skipped: list[tuple[str, str]] = []
    for path in sorted(states):
        st = states[path]
        try:
            write_pinned(path, st.original, st.data(), scope)
        except Refused as why:
            skipped.append((path, str(why)))
            continue
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
            _rename_pinned(old, new, scope)
        except Refused as why:
            skipped.append((old, str(why)))
            continue
        except OSError as exc:
            skipped.append((old, f"cannot rename it: {exc.strerror or exc}"))
            continue
        done.append((code, old, new))
    return done, skipped


def _rename_pinned(old: str, new: str, scope: list[str]) -> None:
    """Rename the directory `old` to `new` (same parent) with a `renameat` in the pinned parent: the
    entry renamed is the real directory that was checked, never a link put in its place."""
    parent = os.path.realpath(os.path.dirname(old))
    if not _inside(parent, scope):
        raise Refused("the directory lies outside the paths given; not renamed")
    dfd = open_dir_pinned(parent)
    try:
        name, target = os.path.basename(old), os.path.basename(new)
        if not stat.S_ISDIR(os.stat(name, dir_fd=dfd, follow_symlinks=False).st_mode):
            raise Refused("it is no longer a directory (a symlink?); not renamed")
        try:
            os.stat(target, dir_fd=dfd, follow_symlinks=False)
            raise Refused(f"'{target}' already exists; not renamed")
        except FileNotFoundError:
            pass
        os.rename(name, target, src_dir_fd=dfd, dst_dir_fd=dfd)
    finally:
        os.close(dfd)


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
