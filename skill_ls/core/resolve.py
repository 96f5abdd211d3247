"""Precedence resolution: which copy of a skill name each runtime loads.

`resolve_name` orders the copies of one name: the winner, the other loadable copies in descending
precedence, then blocked copies, then undiscovered ones. It is pure: it reads `SkillDecl` values.
What each copy *is* (winner, shadowed, …) is said in one place: `skill_ls.core.labels`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from skill_ls.core.index import Index, SkillDecl
from skill_ls.core.runtimes import RUNTIMES


@dataclass
class NameResolution:
    """Every copy of one skill name for one runtime (and agent), in precedence order, with the one that
    wins, the ones it shadows and the ones in conflict."""

    runtime: str
    name: str
    agent: str | None
    entries: list[SkillDecl]  # winner first (when there is one), then loadable, blocked, undiscovered
    winner: SkillDecl | None
    shadowed: list[SkillDecl] = field(default_factory=list)  # loadable copies that lose
    ambiguous: list[list[SkillDecl]] = field(default_factory=list)  # groups of copies in conflict
    loaded: list[SkillDecl] = field(default_factory=list)  # copies the runtime loads (several for codex)


def _visible(decl: SkillDecl, agent: str | None) -> bool:
    return decl.agent is None or decl.agent == agent


def resolve_name(index: Index, runtime_id: str, name: str, agent: str | None = None) -> NameResolution:
    decls = [d for d in index.by_name.get(runtime_id, {}).get(name, []) if _visible(d, agent)]
    return resolve_decls(runtime_id, name, decls, agent)


def resolve_decls(runtime_id: str, name: str, decls: list[SkillDecl], agent: str | None = None) -> NameResolution:
    runtime = RUNTIMES[runtime_id]
    loadable = sorted((d for d in decls if d.loadable), key=SkillDecl.precedence)
    blocked = sorted((d for d in decls if d.blocked is not None and d.undiscovered is None), key=SkillDecl.precedence)
    hidden = sorted((d for d in decls if d.undiscovered is not None), key=SkillDecl.precedence)
    res = NameResolution(runtime_id, name, agent, loadable + blocked + hidden, loadable[0] if loadable else None)
    if not loadable:
        return res
    real = [d for d in loadable if not d.builtin]
    if runtime.conflict in ("load_both", "unique"):
        res.loaded = loadable
        if len(real) > 1:
            res.ambiguous.append(real)
        return res
    res.loaded = [loadable[0]]
    res.shadowed = loadable[1:]
    groups: dict[tuple[int, int], list[SkillDecl]] = {}
    for d in real:
        groups.setdefault(d.precedence()[:2], []).append(d)
    res.ambiguous = [g for g in groups.values() if len(g) > 1]
    return res


def effective_names(index: Index, runtime_id: str, agent: str | None = None) -> list[NameResolution]:
    """Every name the runtime knows, resolved (built-ins included), sorted by name."""
    return [resolve_name(index, runtime_id, n, agent) for n in sorted(index.by_name.get(runtime_id, {}))]
