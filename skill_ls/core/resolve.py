"""Precedence resolution: which copy of a skill name each runtime loads.

`resolve_name` orders the copies of one name: the winner, the other loadable copies in descending
precedence, then blocked copies, then undiscovered ones. It is pure: it reads `SkillDecl` values.
What each copy *is* (winner, shadowed, …) is said in one place: `skill_ls.core.labels`.
"""
from __future__ import annotations


from skill_ls.core.index import Index, SkillDecl
from skill_ls.core.paths import is_under
from skill_ls.core.records import dataclass, field
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
    # Loaded copies the runtime names otherwise (`Runtime.scoped_clash` "qualified"): path → name.
    aliases: dict[str, str] = field(default_factory=dict)

    def shown_name(self, decl: SkillDecl) -> str:
        """The name the runtime gives this loaded copy (`apps/web:deploy` for a nested clash)."""
        return self.aliases.get(decl.path, self.name)


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
    if not any(_scope(d) for d in loadable):
        res.loaded = [loadable[0]]
        res.shadowed = loadable[1:]
        res.ambiguous = [g for g in _tiers(real) if len(g) > 1]
        return res
    if runtime.scoped_clash == "qualified":
        return _resolve_qualified(res, loadable, blocked + hidden, real)
    return _resolve_scoped(res, loadable, blocked + hidden, real)


def _resolve_qualified(res: NameResolution, loadable: list[SkillDecl], rest: list[SkillDecl],
                       real: list[SkillDecl]) -> NameResolution:
    """Claude Code's nested `.claude/skills` (`Runtime.scoped_clash` "qualified"): the copies serving
    every file resolve among themselves by precedence; each scoped copy is loaded for its files, and
    when a loaded copy serving those files has its name too it is loaded as `<folder>:<name>`, so
    both stay available: nothing is shadowed or ambiguous by a scoped copy."""
    wide = [d for d in loadable if _scope(d) is None]
    winner = wide[0] if wide else loadable[0]
    res.winner = winner
    res.entries = [winner] + [d for d in loadable if d is not winner] + rest
    res.loaded, res.shadowed = [winner], wide[1:]
    res.ambiguous = [g for g in _tiers([d for d in real if _scope(d) is None]) if len(g) > 1]
    for d in loadable:
        if d is winner or _scope(d) is None:
            continue
        res.loaded.append(d)
        if any(o is not d and o in res.loaded[:-1] and _covers(o, d) for o in loadable):
            root = d.root
            folder = root.scope_label.replace("\\", "/") if root is not None else ""
            res.aliases[d.path] = f"{folder}:{res.name}"
    return res


def _tiers(decls: list[SkillDecl]) -> list[list[SkillDecl]]:
    """The copies grouped by tier and root rank (what precedence cannot order), in first-seen order."""
    groups: dict[tuple[int, int], list[SkillDecl]] = {}
    for decl in decls:
        groups.setdefault(decl.precedence()[:2], []).append(decl)
    return list(groups.values())


def _scope(decl: SkillDecl) -> str | None:
    """The directory whose files `decl` serves (`RootDir.scope`), None for every file."""
    return decl.root.scope if decl.root is not None else None


def _covers(a: SkillDecl, b: SkillDecl) -> bool:
    """Whether every file `b` serves is also served by `a`."""
    outer, inner = _scope(a), _scope(b)
    return outer is None or (inner is not None and is_under(inner, outer))


def _resolve_scoped(res: NameResolution, loadable: list[SkillDecl], rest: list[SkillDecl],
                    real: list[SkillDecl]) -> NameResolution:
    """Precedence where some copies serve only the files below one directory (`RootSpec.scoped`:
    Cursor's nested `.cursor/skills`). The winner is the first copy that serves every file (else the
    first copy); a scoped copy is loaded for its files unless a copy of higher precedence serves them
    too (then it is shadowed); copies of one unranked tier whose files overlap are ambiguous."""
    winner = next((d for d in loadable if _scope(d) is None), loadable[0])
    res.winner = winner
    res.entries = [winner] + [d for d in loadable if d is not winner] + rest
    res.loaded, res.shadowed = [winner], []
    for d in loadable:
        if d is winner:
            continue
        rank = d.precedence()[:2]
        above = _scope(d) is None or any(o is not d and o.precedence()[:2] < rank and _covers(o, d) for o in loadable)
        (res.shadowed if above else res.loaded).append(d)
    for group in _tiers(real):
        tied = [d for d in group if any(e is not d and (_covers(e, d) or _covers(d, e)) for e in group)]
        if len(tied) > 1:
            res.ambiguous.append(tied)
    return res


def effective_names(index: Index, runtime_id: str, agent: str | None = None) -> list[NameResolution]:
    """Every name the runtime knows, resolved (built-ins included), sorted by name."""
    return [resolve_name(index, runtime_id, n, agent) for n in sorted(index.by_name.get(runtime_id, {}))]
