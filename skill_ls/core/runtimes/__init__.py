"""The runtimes of SPEC §3 as data: one module per runtime, each building one `Runtime` descriptor.

Nothing outside this package branches on a runtime's id; code asks the descriptor. Root templates are
expanded by `skill_ls.core.discovery`.
"""
from __future__ import annotations

import functools

from skill_ls.core.runtimes.agentcy import AGENTCY
from skill_ls.core.runtimes.agentskills import AGENTSKILLS
from skill_ls.core.runtimes.agh import AGH
from skill_ls.core.runtimes.amp import AMP
from skill_ls.core.runtimes.claude_code import CLAUDE_CODE
from skill_ls.core.runtimes.codex import CODEX
from skill_ls.core.runtimes.spec import STANDARD_FIELDS, FieldSpec, NameRule, RootSpec, Runtime
from skill_ls.core.runtimes.workspace_agents import WORKSPACE_AGENTS

__all__ = ["RUNTIMES", "STANDARD_FIELDS", "FieldSpec", "NameRule", "RootSpec", "Runtime", "DEFAULT_ORDER",
           "default_runtime", "all_known_fields"]

RUNTIMES: dict[str, Runtime] = {r.id: r for r in (AGH, AGENTSKILLS, AMP, CLAUDE_CODE, CODEX, AGENTCY, WORKSPACE_AGENTS)}

# SPEC §8: the default runtime for catalog/where/list when several are active.
DEFAULT_ORDER = ("agh", "claude-code", "codex", "amp", "agentskills", "workspace-agents", "agentcy")


def default_runtime(active: list[str] | tuple[str, ...]) -> str:
    for rid in DEFAULT_ORDER:
        if rid in active:
            return rid
    return "agentskills"


@functools.lru_cache(maxsize=1)
def all_known_fields() -> dict[str, list[str]]:
    """Field name -> runtimes that accept it (for hover and did-you-mean)."""
    out: dict[str, list[str]] = {}
    for rt in RUNTIMES.values():
        for key in rt.fields:
            out.setdefault(key, []).append(rt.id)
    return out
