"""What the analysis may know about the disk beside the documents: stats, directory listings and a
skill directory's tree, cached for one index's view of the disk.

Rules never touch the file system themselves: they ask the index's `Disk` (through their context), so
the answers are cached for a whole check, the server drops them with the index's other disk facts when
something changes (`Index.forget_disk`), and a test can see every question a rule asks. Nothing here
opens a file: file contents come through the document store and the sidecar readers."""
from __future__ import annotations

import os
import stat

from skill_ls.core.paths import NEVER_ENTER
from skill_ls.core.records import dataclass

_MAX_ENTRIES = 50_000
MAX_TREE_FILES = 10_000  # a skill directory is walked this far at most


@dataclass(frozen=True)
class Tree:
    """A skill directory's files (beside the walk caps): each as (path relative to it, size)."""

    files: tuple[tuple[str, int], ...]
    truncated: bool  # more than MAX_TREE_FILES files: the walk stopped

    @property
    def total(self) -> int:
        return sum(size for _, size in self.files)


class Disk:
    """Cached `stat`/`lstat`/`listdir`/tree questions; `clear()` when the disk changed."""

    def __init__(self) -> None:
        self._stat: dict[tuple[str, bool], os.stat_result | None] = {}
        self._list: dict[str, tuple[str, ...] | None] = {}
        self._trees: dict[str, Tree] = {}

    def clear(self) -> None:
        self._stat.clear()
        self._list.clear()
        self._trees.clear()

    def stat(self, path: str, *, follow: bool = True) -> os.stat_result | None:
        """`os.stat` (`os.lstat` with follow=False), None when it fails."""
        key = (path, follow)
        if key in self._stat:
            return self._stat[key]
        if len(self._stat) >= _MAX_ENTRIES:
            self._stat.clear()
        try:
            st: os.stat_result | None = os.stat(path) if follow else os.lstat(path)
        except (OSError, ValueError):
            st = None
        self._stat[key] = st
        return st

    def exists(self, path: str) -> bool:
        return self.stat(path) is not None

    def is_file(self, path: str) -> bool:
        st = self.stat(path)
        return st is not None and stat.S_ISREG(st.st_mode)

    def is_dir(self, path: str) -> bool:
        st = self.stat(path)
        return st is not None and stat.S_ISDIR(st.st_mode)

    def listdir(self, path: str) -> tuple[str, ...] | None:
        """The sorted names in a directory, None when it cannot be listed."""
        if path in self._list:
            return self._list[path]
        if len(self._list) >= _MAX_ENTRIES:
            self._list.clear()
        try:
            names: tuple[str, ...] | None = tuple(sorted(os.listdir(path)))
        except (OSError, ValueError):
            names = None
        self._list[path] = names
        return names

    def tree(self, directory: str) -> Tree:
        """Every file under `directory` (symlinks not followed, `NEVER_ENTER` left out) with its size."""
        hit = self._trees.get(directory)
        if hit is not None:
            return hit
        files: list[tuple[str, int]] = []
        truncated = False
        # os.walk's order (top-down, a directory's files before its subdirectories, symlinked
        # directories not entered), with each path and its relative path built by concatenation:
        # os.walk's generators and a relpath per file were most of the cost (Amp's limits walk every skill).
        stack = [(directory if directory.endswith(os.sep) else directory + os.sep, "")]
        while stack:
            prefix, rel = stack.pop()
            try:
                with os.scandir(prefix) as it:
                    entries = list(it)
            except OSError:
                continue  # (as os.walk: a directory that cannot be listed holds nothing)
            subdirs = []
            for entry in entries:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if not is_dir:
                    st = self.stat(prefix + entry.name, follow=False)
                    if st is not None:
                        files.append((rel + entry.name, st.st_size))
                elif entry.name not in NEVER_ENTER and not entry.is_symlink():
                    subdirs.append((prefix + entry.name + os.sep, rel + entry.name + os.sep))
            if len(files) > MAX_TREE_FILES:
                truncated = True
                break
            stack.extend(reversed(subdirs))
        if len(self._trees) >= 1024:
            self._trees.clear()
        tree = self._trees[directory] = Tree(tuple(files), truncated)
        return tree
