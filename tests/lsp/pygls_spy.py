"""`python -m tests.lsp.pygls_spy OUT`: the language server with every pygls method it overrides (or
whose class it swaps in at run time) counted; the counts are written to OUT as JSON at exit.
Used by tests/lsp/test_pygls_contract.py."""
from __future__ import annotations

import atexit
import functools
import inspect
import json
import sys
from typing import Any

from skill_ls.server.documents import Document, SkillWorkspace
from skill_ls.server.protocol import SkillProtocol

# (class, method): the overrides pygls itself must call; a rename in pygls would leave ours dead.
OVERRIDES: tuple[tuple[type, str], ...] = (
    (SkillProtocol, "lsp_initialize"),  # our document model adopted into the workspace pygls creates
    (SkillProtocol, "lsp_text_document__did_change"),  # changes to unknown documents ignored
    (SkillProtocol, "_execute_handler"),  # notification futures released
    (SkillProtocol, "_send_handler_result"),  # our JSON-RPC errors answered, not raised
    (SkillWorkspace, "_create_text_document"),  # our Document in place of pygls's TextDocument
    (SkillWorkspace, "update_text_document"),
    (Document, "apply_change"),
)
counts: dict[str, int] = {}


def _spy(cls: type, name: str) -> None:
    key = f"{cls.__name__}.{name}"
    counts[key] = 0
    original = cls.__dict__.get(name)
    if original is None:  # no longer overridden under that name: counted as never called
        return

    if inspect.isgeneratorfunction(original):  # pygls drives generator handlers step by step
        @functools.wraps(original)
        def steps(*args: Any, **kwargs: Any) -> Any:
            counts[key] += 1
            return (yield from original(*args, **kwargs))

        setattr(cls, name, steps)
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        counts[key] += 1
        return original(*args, **kwargs)

    setattr(cls, name, wrapper)


def main() -> int:
    out = sys.argv[1]
    for cls, name in OVERRIDES:
        _spy(cls, name)
    atexit.register(lambda: open(out, "w", encoding="utf-8").write(json.dumps(counts)))
    from skill_ls.server import run_server

    return run_server()


if __name__ == "__main__":
    sys.exit(main())
