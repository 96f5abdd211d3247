"""One directory listing, exactly as every walk sees it: the Walker's listings are these, and so are
the ones listed ahead by another process (`analysis/listahead.py`), so a listing taken from there is
the one this process would have read."""
from __future__ import annotations

import os
from typing import Protocol

Entry = tuple[str, str, bool]  # (name, full path, is a directory)
Listing = tuple[list[Entry], "str | None", list[str], list[str]]  # (entries, error, symlinks, special files)


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



class Ahead(Protocol):
    """Listings another process of the same run listed ahead (`analysis/listahead.py`): each is what
    `list_directory` gave there, handed out once; None when it has none (yet)."""

    def listing(self, path: str) -> Listing | None: ...
