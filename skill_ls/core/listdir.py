"""One directory listing, exactly as every walk sees it: the Walker's listings are these, and so are
the ones listed ahead by another process (`analysis/listahead.py`), so a listing taken from there is
the one this process would have read."""
from __future__ import annotations

import os
from collections.abc import Callable, Collection
from typing import Protocol

Entry = tuple[str, str, bool]  # (name, full path, is a directory)
Listing = tuple[list[Entry], "str | None", list[str], list[str]]  # (entries, error, symlinks, special files)
Below = list[tuple[str, frozenset[str]]]  # (directory, the names of its child directories), in path order

# One walk lists at most this many directories: a workspace opened at `/` or `$HOME` must not index
# (and cache the listing of) the whole machine. What lies beyond is reported, never silently dropped.
MAX_WALK_DIRS = 50_000


def list_directory(path: str) -> Listing:
    """(entries, error, symlinks, special files) of one directory: entries are its directories and
    regular files (and FIFOs, sockets and devices, which walks report and never open), by name;
    `symlinks` the entries that are symbolic links, `special` the FIFOs, sockets and devices; `error`
    why it could not be read (then no entries)."""
    entries: list[Entry] = []
    links: list[str] = []
    special: list[str] = []
    append = entries.append
    try:
        with os.scandir(path) as it:
            for e in it:
                try:
                    if e.is_symlink():
                        links.append(e.path)
                    if e.is_dir():
                        append((e.name, e.path, True))
                    elif e.is_file():
                        append((e.name, e.path, False))
                    elif os.path.exists(e.path):  # FIFO, socket, device: walk() reports it
                        special.append(e.path)
                        append((e.name, e.path, False))
                except OSError:
                    continue
    except OSError as exc:
        return [], exc.strerror or str(exc), links, special
    entries.sort()
    return entries, None, links, special



def directories_below(base: str, listdir: Callable[[str], tuple[list[Entry], str | None]],
                      is_link: Callable[[str], bool], never_enter: Collection[str], max_dirs: int) -> Below:
    """Every directory below `base` (not `base` itself), in path order, with the names of its child
    directories: hidden directories and `never_enter` are neither listed nor entered, symlinked
    directories (`is_link`, asked of entries `listdir` gave) are not followed, and at most `max_dirs`
    directories are listed. The one algorithm of discovery's search for nested folders, run by the
    Walker or, ahead, by the lister that listed the tree (`analysis/listahead.py`)."""
    out: Below = []
    stack = [base]
    listed = 0
    while stack and listed < max_dirs:
        directory = stack.pop()
        listed += 1
        entries, error = listdir(directory)
        if error:
            continue
        dirs = [(name, full) for name, full, is_dir in entries if is_dir and not is_link(full)]
        if directory != base:
            out.append((directory, frozenset(name for name, _ in dirs)))
        stack.extend(reversed([full for name, full in dirs if not name.startswith(".") and name not in never_enter]))
    out.sort()
    return out


class Ahead(Protocol):
    """What another process of the same run found ahead (`analysis/listahead.py`), each answer handed
    out once; None when it has none (yet)."""

    def listing(self, path: str) -> Listing | None:
        """What `list_directory` gave there for `path`."""

    def below(self, base: str, max_dirs: int) -> Below | None:
        """What `directories_below` gave there for `base`, when it listed at most `max_dirs`."""
