"""Resolving a skill's file references against its directory, without leaving it.

`resolve_reference` looks at the file system only inside the skill directory (it follows a
symlink only to learn where it leads). `ReferenceResolver` caches resolutions for one index; the
index clears it whenever it learns that something changed on disk, so a long-lived server sees a
reference file replaced by a symlink out of the skill (RF002) or deleted (RF001).
"""
from __future__ import annotations

import os
import stat
from collections.abc import Callable


_MAX_ENTRIES = 50_000


def resolve_reference(skill_dir: str, target: str,
                      real_dir: Callable[[str], str] = os.path.realpath) -> tuple[str | None, str | None]:
    """(absolute path, escape reason) of `target` relative to `skill_dir`, uncached (`real_dir`: the
    real path of a directory, which a resolver caches)."""
    if os.path.isabs(target) or target.startswith("~"):
        return None, "absolute path"
    joined = os.path.normpath(os.path.join(skill_dir, target))
    base = os.path.normpath(skill_dir)
    if not (joined == base or joined.startswith(base + os.sep)):
        return None, "'..' leaves the skill directory"
    try:
        st = os.lstat(joined)
    except (OSError, ValueError):  # (what os.path.lexists reads as not there)
        return joined, None
    try:
        real_base = real_dir(base)
        if joined == base:
            real = real_base
        elif stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(joined)
        else:  # not a symlink itself: its directory's real path and its name
            real = os.path.join(real_dir(os.path.dirname(joined)), os.path.basename(joined))
    except (OSError, ValueError):
        return joined, None
    if not (real == real_base or real.startswith(real_base + os.sep)):
        return None, "a symlink leads outside the skill directory"
    return joined, None


class ReferenceResolver:
    """`resolve_reference` with a cache that lives as long as its owner's view of the disk."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], tuple[str | None, str | None]] = {}
        self._real_dirs: dict[str, str] = {}

    def resolve(self, skill_dir: str, target: str) -> tuple[str | None, str | None]:
        key = (skill_dir, target)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= _MAX_ENTRIES:
                self._cache.clear()
            hit = self._cache[key] = resolve_reference(skill_dir, target, self._real_dir)
        return hit

    def _real_dir(self, path: str) -> str:
        """os.path.realpath of a directory: its parent's (cached) real path plus its name, unless it is
        itself a symlink."""
        real = self._real_dirs.get(path)
        if real is None:
            if len(self._real_dirs) >= _MAX_ENTRIES:
                self._real_dirs.clear()
            parent, name = os.path.split(path)
            if not name or not os.path.isabs(parent) or os.path.islink(path):
                real = os.path.realpath(path)
            else:
                real = os.path.join(self._real_dir(parent), name)
            self._real_dirs[path] = real
        return real

    def clear(self) -> None:
        """Forget every resolution (a file or directory changed on disk)."""
        self._cache.clear()
        self._real_dirs.clear()
