"""The runtimes skill-ls models, as data: one module per runtime, each building one `Runtime` descriptor.

Nothing outside this package branches on a runtime's id (tests/test_architecture.py checks it); code
asks the descriptor. Root templates are expanded by `skill_ls.core.discovery`; catalog formats are
rendered by `skill_ls.analysis.catalog.FORMATS[runtime.catalog_format]`.
"""
from __future__ import annotations

import functools

from skill_ls.core.runtimes.agentcy import AGENTCY
from skill_ls.core.runtimes.agentskills import AGENTSKILLS
from skill_ls.core.runtimes.agh import AGH, MCP_METADATA_KEY
from skill_ls.core.runtimes.amp import AMP
from skill_ls.core.runtimes.claude_code import CLAUDE_CODE
from skill_ls.core.runtimes.codex import CODEX
from skill_ls.core.runtimes.copilot import COPILOT
from skill_ls.core.runtimes.cursor import CURSOR
from skill_ls.core.runtimes.gemini import GEMINI
from skill_ls.core.runtimes.opencode import OPENCODE
from skill_ls.core.runtimes.spec import STANDARD_FIELDS, AgentScoping, FieldSpec, Marketplace, NameRule, RootSpec, \
    Runtime, Setting
from skill_ls.core.runtimes.workspace_agents import WORKSPACE_AGENTS

__all__ = ["RUNTIMES", "STANDARD_FIELDS", "AgentScoping", "FieldSpec", "Marketplace", "NameRule", "RootSpec", "Runtime",
           "Setting", "DEFAULT_ORDER", "BASE_RUNTIME", "DEFAULT_AGENT_FAMILY", "PLUGIN_RUNTIME", "PLUGIN_AGENT_FAMILY", "MCP_METADATA_KEY", "default_runtime", "all_known_fields",
           "runtime_for_family", "scoping_for_family"]

RUNTIMES: dict[str, Runtime] = {r.id: r for r in (AGH, AGENTSKILLS, AMP, CLAUDE_CODE, CODEX, AGENTCY, WORKSPACE_AGENTS,
                                                   COPILOT, CURSOR, GEMINI, OPENCODE)}

# The Agent Skills standard: what a SKILL.md outside every root is checked against, the runtime of a
# `[[roots]]` entry that names none, and the default when no runtime is active.
BASE_RUNTIME = AGENTSKILLS.id

# The default runtime for catalog/where/list when several are active.
DEFAULT_ORDER: tuple[str, ...] = tuple(r.id for r in (AGH, CLAUDE_CODE, CODEX, AMP, AGENTSKILLS, WORKSPACE_AGENTS, AGENTCY,
                                                      COPILOT, CURSOR, GEMINI, OPENCODE))

# The runtime that reads a plugin's skills (`<plugin>/skills/<s>/SKILL.md`) and agents as `plugin:name`.
PLUGIN_RUNTIME: str = CLAUDE_CODE.id
PLUGIN_AGENT_FAMILY: str = CLAUDE_CODE.agent_scoping.family if CLAUDE_CODE.agent_scoping else CLAUDE_CODE.id

# The family a standalone AGENT.md (outside every agent directory) is read as.
DEFAULT_AGENT_FAMILY: str = AGH.agent_scoping.family if AGH.agent_scoping else AGH.id


def default_runtime(active: list[str] | tuple[str, ...]) -> str:
    for rid in DEFAULT_ORDER:
        if rid in active:
            return rid
    return BASE_RUNTIME


_BY_FAMILY: dict[str, Runtime] = {r.agent_scoping.family: r for r in RUNTIMES.values() if r.agent_scoping is not None}


def runtime_for_family(family: str) -> str:
    """The id of the runtime whose effective set an agent of `family` scopes."""
    return _BY_FAMILY[family].id


def runtime_of_family(family: str) -> Runtime | None:
    """The runtime that reads agents of `family` (None for an unknown family)."""
    return _BY_FAMILY.get(family)


def scoping_for_family(family: str) -> AgentScoping | None:
    """How an agent of `family` scopes its runtime's set (None for an unknown family)."""
    runtime = _BY_FAMILY.get(family)
    return runtime.agent_scoping if runtime is not None else None


@functools.lru_cache(maxsize=1)
def all_known_fields() -> dict[str, list[str]]:
    """Field name -> runtimes that accept it (for hover and did-you-mean)."""
    out: dict[str, list[str]] = {}
    for rt in RUNTIMES.values():
        for key in rt.fields:
            out.setdefault(key, []).append(rt.id)
    return out


# Placeholders of root templates that stand for the project (or a directory inside it).
PROJECT_PLACEHOLDERS = ("{workspace}", "{ancestors}", "{repo_chain}", "{config:agh_additional_roots}")


@functools.lru_cache(maxsize=1)
def skill_tree_dir_names() -> frozenset[str]:
    """Directory names that make a folder part of a project's skill tree rather than a project of its
    own: the first directory of every project-relative skill root and agent directory (`.agh`,
    `.claude`, `.agents`, …) and the last (`skills`, `agents`), read from the descriptors."""
    from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES

    templates = [spec.template for rt in RUNTIMES.values() for spec in rt.roots if not spec.json_keys]  # (not a settings file)
    templates += [d.template for family in AGENT_FAMILIES.values() for d in family.dirs]
    names: set[str] = set()
    for template in templates:
        head, _, rest = template.partition("}/")
        parts = [p for p in rest.split("/") if p and "{" not in p and p != "**"]  # (`**`: any folders)
        if parts and head + "}" in PROJECT_PLACEHOLDERS:
            names.add(parts[0])
        if parts and parts[-1] in ("skills", "agents"):
            names.add(parts[-1])
    return frozenset(names)
