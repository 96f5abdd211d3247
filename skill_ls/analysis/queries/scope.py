"""Which runtimes (and agent) the names written in a file resolve under, and what the cursor is on.

The runtime choice for a position: an agent's names resolve first under its family's runtime (and,
where that runtime resolves per agent, for that agent); a skill's under the runtimes that read it
(the default runtime first), then every other active runtime; a file no runtime reads under the
default runtime first.
"""
from __future__ import annotations


from skill_ls.analysis.navigation import SkillRef, ref_at, skill_refs
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import AgentDecl, Document, Index
from skill_ls.core.records import dataclass
from skill_ls.core.resolve import NameResolution, resolve_name
from skill_ls.core.runtimes import RUNTIMES, runtime_for_family, scoping_for_family


@dataclass(frozen=True)
class NameScope:
    """Where the names written in one file resolve: `runtimes` (the primary one first) and the agent
    whose per-agent resolution applies (None: the runtime's shared set)."""
    runtimes: list[str]
    agent: str | None


def index_of(state: WorkspaceState) -> Index:
    assert state.index is not None, "queries run on a built index"
    return state.index


def document(state: WorkspaceState, path: str) -> Document | None:
    """The parsed document (editor buffer over disk), or None without an index."""
    return None if state.index is None else state.index.store.peek(path)


def agent_of(state: WorkspaceState, path: str) -> AgentDecl | None:
    return index_of(state).agent_at(path)


def is_agent(state: WorkspaceState, path: str) -> bool:
    """An agent definition: one the index knows, or a file named like one."""
    return agent_of(state, path) is not None or state.is_agent_file(path)


def name_scope(state: WorkspaceState, path: str) -> NameScope:
    """The runtimes to resolve the names of `path` under (primary first) and the agent, if any."""
    index = index_of(state)
    agent = agent_of(state, path)
    if agent is not None:
        rid = runtime_for_family(agent.family)
        others = [r for r in index.active if r != rid]
        scoping = scoping_for_family(agent.family)
        per_agent = scoping is not None and scoping.per_agent_resolution
        return NameScope(([rid] if rid in index.active else []) + others, agent.name if per_agent else None)
    decls = index.decls_for_path(path)
    local_agent = next((d.agent for d in decls if d.agent), None)
    rids = state.runtimes_for(path)
    rest = [r for r in index.active if r not in rids]
    if not rids:
        rest.sort(key=lambda r: r != state.default_runtime())
    return NameScope(rids + rest, local_agent)


def resolutions(state: WorkspaceState, name: str, path: str) -> list[NameResolution]:
    """`name` resolved under every active runtime that declares it, the file's own runtime first."""
    scope = name_scope(state, path)
    out = []
    for rid in scope.runtimes:
        res = resolve_name(index_of(state), rid, name, scope.agent)
        if res.entries and any(not d.builtin for d in res.entries) or (res.entries and rid == scope.runtimes[0]):
            out.append(res)
    return out


def refs_of(state: WorkspaceState, path: str, doc: Document) -> list[SkillRef]:
    """Every place `doc` names a skill (a SKILL.md's own name under the name it is declared as)."""
    if state.is_skill_file(path):
        decls = index_of(state).decls_for_path(path)
        declared = decls[0].name if decls else None
        return skill_refs(doc, is_skill=True, declared_name=declared)
    return skill_refs(doc, is_skill=False)


def ref_under(state: WorkspaceState, path: str, line: int, col: int) -> SkillRef | None:
    """The skill name written at (line, col) of `path`, if any."""
    doc = document(state, path)
    return None if doc is None else ref_at(refs_of(state, path, doc), line, col)


def runtime_title(rid: str) -> str:
    rt = RUNTIMES.get(rid)
    return rt.title if rt else rid


def choose_runtime(index: Index, requested: str | None, agent: str | None) -> str:
    """The runtime a question about a name or an agent answers for (`where`, `list`, `catalog`,
    `preview`, and the server's commands alike): the one requested; else, for a named agent, the
    runtime of its family (unless the default runtime has an agent of that name itself), or the first
    runtime whose own settings know it (OpenCode's agents); else the default runtime of the active
    ones. `auto` is not a request."""
    from skill_ls.core.runtimes import default_runtime

    if requested is not None and requested != "auto":
        return requested
    runtime = default_runtime(index.active)
    named = index.agent(agent) if agent else None
    scoping = RUNTIMES[runtime].agent_scoping if runtime in RUNTIMES else None
    if named is not None and (scoping is None or index.agent(named.name, scoping.family) is None):
        runtime = runtime_for_family(named.family)
    elif named is None and agent:  # an agent a runtime knows from its own settings (OpenCode's)
        from skill_ls.core.own_settings import settings_agents

        for rid in [runtime, *index.active]:
            if rid in RUNTIMES and agent in settings_agents(RUNTIMES[rid], index):
                return rid
    return runtime
