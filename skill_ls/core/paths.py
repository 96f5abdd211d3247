"""Path predicates shared by discovery, the checker, workspace state and the server."""
from __future__ import annotations

import os


def is_under(path: str, base: str) -> bool:
    """`path` is `base` or inside it (string comparison on normalised absolute paths)."""
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)
