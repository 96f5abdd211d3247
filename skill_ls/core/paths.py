"""Path predicates shared by discovery, the checker, workspace state and the server."""
from __future__ import annotations

import os


def is_under(path: str, base: str) -> bool:
    """`path` is `base` or inside it (string comparison on normalised absolute paths)."""
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


# Directories no walk enters (version control, dependency caches, virtual environments): they never
# hold skills a runtime reads, and a walk into them costs more than the rest of a repository. The one
# list: discovery, plugin search, agent directories and a skill's file tree all read it.
NEVER_ENTER = frozenset({".git", "node_modules", ".hg", ".svn", "__pycache__", ".venv", ".tox"})
