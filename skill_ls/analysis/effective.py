"""The effective set: the skills one runtime loads for one workspace and, optionally, one agent
and the MCP servers that come with them.

- AGH: base stack (bundled … workspace) plus the winning AGENT.md's `skills/` overlay, minus that
  agent's `skills.disabled` tombstones; operator-disabled skills (`agh.disabled`) stay in the set
  marked `disabled` (`list` shows them, catalogs omit them). An agent with a blocking AGENT.md
  problem or a blocked agent-local skill fails closed: `EffectiveSetError` with the reason.
- Amp: first location wins, discovery order (root order, then directory name); the five built-ins
  come last, in the order the source lists them, with their documented purpose as description.
- Claude Code: enterprise > personal > project; a subagent with a `skills:` list sees those skills
  (*reading*), one without sees the whole set.
- Codex: deduplicated by path, so two copies of a name are both in the set (noted as ambiguous).
- workspace-agents: the agent's `skills:` list, in its order; without an agent, every skill.
- Blocked and undiscovered copies are never in the set.
Each of these is a property of the runtime's descriptor (`agent_scoping`, `operator_disabled`,
`catalog_order`, `conflict`, `mcp_merge`); nothing here names a runtime.
Pure with respect to the index: reads `SkillDecl`/`AgentDecl` values and the files they name.
"""
from __future__ import annotations

import os
from typing import Any, Callable, cast

from skill_ls.core.agents import AgentDefinition, SkillRef, definition_key, parse_agent
from skill_ls.core.index import AgentDecl, Index, SkillDecl, description_as_read, frontmatter_as_read
from skill_ls.core.model import Diagnostic, Severity
from skill_ls.core.parse.yaml12 import js_truthy
from skill_ls.core.records import dataclass, field
from skill_ls.core.resolve import NameResolution, effective_names, resolve_name
from skill_ls.core.runtimes import RUNTIMES, Runtime, runtime_for_family, scoping_for_family
from skill_ls.core.runtimes.spec import flag_word


class EffectiveSetError(Exception):
    """The set cannot be resolved: unknown runtime, missing agent, or an agent that fails closed.

    `str()` is always one line: names quoted in the reason come from frontmatter and may hold line
    breaks (`name: |` block scalars), which would split the CLI's one-line stderr message (issue 7)."""

    def __str__(self) -> str:
        return " ".join(super().__str__().splitlines())


@dataclass
class EffectiveSkill:
    """A skill of an effective set: its name and the copy that wins."""

    name: str
    decl: SkillDecl
    disabled: bool = False  # operator-disabled (AGH `agh.disabled`): listed, never in a catalog

    @property
    def tier(self) -> str:
        return self.decl.tier

    @property
    def path(self) -> str:
        return self.decl.path

    def field(self, key: str, default: Any = None) -> Any:
        """A field of the winning copy as its runtime reads it (`frontmatter_as_read`: Claude Code
        reads a file without frontmatter and repairs unquoted values; its description falls back to
        the body's first line, `description_as_read`)."""
        doc = self.decl.doc
        runtime = RUNTIMES.get(self.decl.runtime)
        fm = frontmatter_as_read(doc, runtime) if doc is not None and runtime is not None else None
        if fm is None or doc is None or runtime is None:
            return self._builtin_field(key, default)
        if key == "description" and runtime.description_from_body:
            return description_as_read(doc, runtime, fm)
        return fm.value(key, default)

    def field_in(self, dialect: str, key: str, default: Any = None) -> Any:
        """`field` as a reader of the YAML `dialect` sees it ("1.2": Amp)."""
        doc = self.decl.doc
        runtime = RUNTIMES.get(self.decl.runtime)
        fm = frontmatter_as_read(doc, runtime) if doc is not None and runtime is not None else None
        if fm is None or doc is None or runtime is None:
            return self._builtin_field(key, default)
        if key == "description" and runtime.description_from_body:
            return description_as_read(doc, runtime, fm)
        return fm.value_in(dialect, key, default)

    def _builtin_field(self, key: str, default: Any) -> Any:
        """A compiled-in skill has a name and a description, nothing else."""
        if self.decl.builtin_description is not None:
            if key == "description":
                return self.decl.builtin_description
            if key == "name":
                return self.decl.name
        return default


@dataclass
class MissingRef:
    """A skill an agent names that is not in its effective set (AG005), with the reason."""

    ref: SkillRef
    reason: str  # why the name is not in the effective set


@dataclass
class EffectiveSet:
    """The skills one runtime (and agent) loads, in catalog order, with what it leaves out and why."""

    runtime: str
    agent: str | None
    agent_decl: AgentDecl | None
    definition: AgentDefinition | None
    skills: list[EffectiveSkill]  # catalog order; operator-disabled ones included, marked
    tombstoned: list[EffectiveSkill] = field(default_factory=list)
    missing: list[MissingRef] = field(default_factory=list)  # agent references outside the set (AG005)
    notes: list[str] = field(default_factory=list)  # e.g. Codex loading two copies of one name

    @property
    def enabled(self) -> list[EffectiveSkill]:
        return [s for s in self.skills if not s.disabled]

    def names(self) -> set[str]:
        return {s.name for s in self.skills}


def find_agent(index: Index, runtime: str, agent: str) -> AgentDecl:
    scoping = RUNTIMES[runtime].agent_scoping
    if scoping is None:
        raise EffectiveSetError(f"runtime '{runtime}' has no agent definitions; drop --agent")
    decl = index.agent(agent, scoping.family)
    if decl is None:
        raise EffectiveSetError(f"no {RUNTIMES[runtime].title} agent named '{agent}' in {index.workspace}")
    return decl


def resolve_effective_set(index: Index, runtime: str, agent: str | None = None, *,
                          fail_closed: bool = True) -> EffectiveSet:
    """The effective set for (runtime, workspace, agent). Raises `EffectiveSetError` (one-line reason)."""
    if runtime not in RUNTIMES:
        raise EffectiveSetError(f"unknown runtime '{runtime}' (known: {', '.join(RUNTIMES)})")
    own = RUNTIMES[runtime].own_settings
    if agent and RUNTIMES[runtime].agent_scoping is None and own is not None and own.agents is not None:
        from skill_ls.core.own_settings import settings_agents

        known = settings_agents(RUNTIMES[runtime], index)
        if agent not in known:
            raise EffectiveSetError(f"no {RUNTIMES[runtime].title} agent named '{agent}' (known: {', '.join(known)})")
        return effective_set_for(index, runtime, None, fail_closed=fail_closed, settings_agent=agent)
    agent_decl = find_agent(index, runtime, agent) if agent else None
    return effective_set_for(index, runtime, agent_decl, fail_closed=fail_closed)


def effective_set_for(index: Index, runtime: str, agent_decl: AgentDecl | None, *,
                      fail_closed: bool = True, settings_agent: str | None = None) -> EffectiveSet:
    """The set for one agent definition (`agent_decl`) or, for a runtime whose agents live in its own
    settings (OpenCode: `opencode.json` `agent`, `<agent>.md`), one such agent (`settings_agent`):
    its permission rules come after the config files' and it may have no skills at all."""
    definition = parse_agent(agent_decl, index) if agent_decl is not None else None
    if fail_closed and definition is not None:
        reason = fail_closed_reason(index, definition)
        if reason:
            raise EffectiveSetError(reason)
    rt = RUNTIMES[runtime]
    scoping = rt.agent_scoping
    eff = EffectiveSet(runtime, agent_decl.name if agent_decl else settings_agent, agent_decl, definition, [])
    switched_off = skills_off(index, rt)
    if switched_off:
        eff.notes.append(f"{rt.title} skills are disabled ({switched_off})")
        return eff
    from skill_ls.core.own_settings import agent_without_skills, disabled_names

    agent_off = agent_without_skills(rt, index, settings_agent) if settings_agent else None
    if agent_off:
        eff.notes.append(f"agent '{settings_agent}' has no skills ({agent_off})")
        return eff
    resolutions = effective_names(index, runtime, _resolution_agent(agent_decl))
    available: list[EffectiveSkill] = []
    for res in resolutions:
        copies = [d for d in res.loaded if not d.builtin or d.builtin_description is not None]
        available.extend(EffectiveSkill(res.shown_name(d), d) for d in copies)
        if len(copies) > 1 and rt.conflict == "load_both":
            paths = ", ".join(index.display_path(d.path) for d in copies)
            eff.notes.append(f"'{res.name}' is declared {len(copies)} times and {rt.title} "
                             f"loads every copy: {paths}")

    disabled = set(disabled_names(rt, index, settings_agent))
    tombs = {t.name for t in definition.tombstones} if definition and scoping and scoping.tombstones else set()
    pool: list[EffectiveSkill] = []
    for s in available:
        if s.name in tombs:
            eff.tombstoned.append(s)
            continue
        s.disabled = s.name in disabled
        pool.append(s)
    listing = scoping.skills_list if scoping is not None and definition is not None else "none"
    if listing == "ordered" and definition is not None:  # the agent's list, in its order, is the set
        by_name: dict[str, list[EffectiveSkill]] = {}
        for s in pool:
            by_name.setdefault(s.name, []).append(s)
        seen: set[str] = set()
        for ref in definition.skills:
            if ref.name in seen:
                continue
            seen.add(ref.name)
            eff.skills.extend(by_name.get(ref.name, ()))
    elif listing == "filter" and definition is not None and "skills" in _declared(definition):
        wanted = {ref.name for ref in definition.skills}
        eff.skills = sorted((s for s in pool if s.name in wanted), key=catalog_order_key(rt))
    else:
        eff.skills = sorted(pool, key=catalog_order_key(rt))
    if definition is not None:
        eff.missing = missing_references(index, runtime, definition)
    return eff


def skills_off(index: Index, runtime: Runtime) -> str | None:
    """Why `runtime`'s whole skill system is switched off in its own configuration, or None."""
    from skill_ls.core.own_settings import skills_switched_off

    return skills_switched_off(runtime, index)


def hidden(runtime: Runtime, s: EffectiveSkill) -> bool:
    """Whether a field keeps the skill out of the runtime's catalog (`Runtime.catalog_hides`), the
    field read as the runtime reads it (its YAML dialect and its truthiness)."""
    for key, value in runtime.catalog_hides:
        raw = s.field_in(runtime.yaml_dialect, key)
        flag = js_truthy(raw) if runtime.truthiness == "javascript" else flag_word(raw) \
            if runtime.truthiness == "words" else raw if isinstance(raw, bool) else None
        if flag is value:
            return True
    return False


def missing_references(index: Index, runtime: str, definition: AgentDefinition) -> list[MissingRef]:
    """The skills an agent names (its `skills:` list; AGH: its tombstones) that are not in its set.
    Resolves only the names referenced, so it stays cheap while an agent file is being edited."""
    agent_name = _resolution_agent(definition.decl)
    scoping = RUNTIMES[runtime].agent_scoping
    refs = definition.tombstones if scoping is not None and scoping.tombstones else definition.skills
    out = []
    rt = RUNTIMES[runtime]
    for ref in refs:
        res = resolve_name(index, runtime, ref.name, agent_name)
        if not any(not d.builtin or d.builtin_description is not None for d in res.loaded):
            out.append(MissingRef(ref, _absent_reason(res, runtime, ref.name)))
        elif scoping is not None and scoping.skills_list == "ordered" and res.winner is not None \
                and hidden(rt, EffectiveSkill(ref.name, res.winner)):
            # An agent whose list is its set cannot use a skill its runtime withholds from agents
            # (workspace agents: "user-invocable | Whether the skill is available for use").
            keys = ", ".join(f"{k}: {str(v).lower()}" for k, v in rt.catalog_hides)
            out.append(MissingRef(ref, f"'{ref.name}' is not available for use ({keys})"))
    return out


def _resolution_agent(agent: AgentDecl | None) -> str | None:
    """The agent name names resolve under: only for a family whose agents carry their own skills
    (agent-local overlays); other agents see the base stack."""
    if agent is None:
        return None
    scoping = scoping_for_family(agent.family)
    return agent.name if scoping is not None and scoping.per_agent_resolution else None


def catalog_order_key(runtime: Runtime) -> Callable[[EffectiveSkill], tuple[Any, ...]]:
    """The sort key of the runtime's catalog order: by name (then path), or Amp's discovery order."""
    return _discovery_key if runtime.catalog_order == "discovery" else _name_key


def _name_key(s: EffectiveSkill) -> tuple[Any, ...]:
    return (s.name, s.path)


# What makes a strict family's runtime reject a definition: the findings about the definition itself,
# in the order the runtime validates (AG005 is about the effective set, which is computed here).
DEFINITION_RULES = ("AG001", "AG002", "AG004", "AG003")


def blocking_finding(index: Index, agent: AgentDecl) -> Diagnostic | None:
    """The first AG001-AG004 finding that makes a fail-closed family (AGH) reject the definition, or None.
    Findings marked `draft` (a draft field lowered by `agh.draft_fields`, `skills.disabled`) never
    block. Cached per parsed document."""
    scoping = scoping_for_family(agent.family)
    if scoping is None or not scoping.fail_closed:
        return None
    key = ("blocking", definition_key(agent, index))
    cached = agent.doc.cache.get("blocking_finding")
    if cached is not None and cached[0] == key:
        return cast("Diagnostic | None", cached[1])
    from skill_ls.analysis.rules import INTERNAL_ERROR, RULES, Reporter, all_rules, run_rules
    from skill_ls.analysis.rules.context import AgentContext

    all_rules()
    out: list[Diagnostic] = []
    rep = Reporter(agent.path, agent.family, out)
    ctx = AgentContext(agent, index, index.config, rep)
    run_rules([RULES[code] for code in DEFINITION_RULES], ctx, rep)
    # skill-ls's own failure (SL001) says nothing about the definition: AGH would not refuse it for that.
    found = next((d for d in out if d.severity == Severity.ERROR and not d.data.get("draft")
                  and d.code != INTERNAL_ERROR), None)
    agent.doc.cache["blocking_finding"] = (key, found)
    return found


def fail_closed_reason(index: Index, definition: AgentDefinition) -> str | None:
    """Why AGH refuses this agent's catalog, as one line, or None."""
    agent = definition.decl
    scoping = scoping_for_family(agent.family)
    if scoping is None or not scoping.fail_closed:
        return None
    problem = blocking_finding(index, agent)
    if problem is not None:
        where = f"{index.display_path(problem.path)}:{problem.span.start_line + 1}"
        return f"agent '{agent.name}' fails closed: {where}: {problem.code} {_one_line(problem.message)}"
    for decl in index.decls.get(runtime_for_family(agent.family), ()):
        if decl.agent == agent.name and decl.blocked is not None and decl.undiscovered is None:
            return (f"agent '{agent.name}' fails closed: agent-local skill '{decl.name}' is blocked "
                    f"({_one_line(decl.blocked)}) at {index.display_path(decl.path)}")
    return None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _declared(definition: AgentDefinition) -> set[str]:
    doc = definition.decl.doc
    return set(doc.fm.fields) if doc.fm is not None and doc.fm.ok else set()


def _absent_reason(res: NameResolution | None, runtime: str, name: str) -> str:
    title = RUNTIMES[runtime].title
    entries = [d for d in res.entries if not d.builtin] if res is not None else []
    if not entries:
        return f"no {title} root declares a skill named '{name}'"
    blocked = [d for d in entries if d.blocked is not None and d.undiscovered is None]
    if blocked:
        return f"every copy of '{name}' is blocked ({blocked[0].blocked})"
    return f"'{name}' is not discovered by {title} ({entries[0].undiscovered})"


def _discovery_key(s: EffectiveSkill) -> tuple[Any, ...]:
    """Amp's discovery order: roots in order, then each root's directories by name."""
    d = s.decl
    rank, subrank, _ = d.precedence()
    if d.builtin:  # `getBuiltinSkills()`: in the order the source's table lists them
        names = [b.name for b in RUNTIMES[d.runtime].builtin_skills]
        return (rank, subrank, (f"{names.index(d.name) if d.name in names else len(names):04d}",))
    root = d.root.path if d.root else ""
    rel = os.path.relpath(os.path.dirname(d.path), root) if root else d.path
    return (rank, subrank, tuple(rel.split(os.sep)))


# -- MCP servers --------------------------------------------------------------------------------------
def effective_mcp_servers(index: Index, eff: EffectiveSet) -> list[dict[str, Any]]:
    """The MCP servers a session starts with: AGH merges config → provider → agent →
    skills, a later layer replacing a same-name server; marketplace skills' servers are blocked
    without consent (MC002). Amp starts each skill's bundled `mcp.json` servers. Other runtimes: []."""
    from skill_ls.core.mcp import AGH_CONFIG_FILE, agh_config, allowed_marketplace_mcp, default_provider, \
        servers_in, skill_servers

    merged: dict[str, dict[str, Any]] = {}
    blocked: list[dict[str, Any]] = []

    def add(name: str, server: dict[str, Any], source: str, path: str | None, skill: str | None = None,
            block: str | None = None) -> None:
        args, env = server.get("args"), server.get("env")
        entry = {
            "name": name, "source": source, "path": path, "skill": skill,
            "command": _plain(server.get("command")),
            "args": [_plain(a) for a in args] if isinstance(args, list) else [],
            "env": {str(k): _plain(v) for k, v in env.items()} if isinstance(env, dict) else {},
            "blocked": block is not None, "reason": block,
        }
        if block is not None:
            blocked.append(entry)
            return
        previous = merged.pop(name, None)
        if previous is not None:
            entry["replaces"] = previous["source"]
        merged[name] = entry

    merge = RUNTIMES[eff.runtime].mcp_merge
    if merge == "agh_layers":
        home = index.env.agh_home
        config = agh_config(index)
        config_path = os.path.join(home, AGH_CONFIG_FILE) if home else None
        for name, server in servers_in(config.get("mcp_servers")).items():
            add(name, server, "config", config_path)
        definition = eff.definition
        provider = definition.provider if definition else default_provider(config)
        providers = config.get("providers")
        pconf = providers.get(provider) if isinstance(providers, dict) and provider else None
        if isinstance(pconf, dict):
            for name, server in servers_in(pconf.get("mcp_servers")).items():
                add(name, server, "provider", config_path)
        if definition is not None:
            for name, server in definition.mcp_servers.items():
                path = definition.mcp_sources.get(name)
                add(name, server, "agent_sidecar" if path and path.endswith("mcp.json") else "agent", path)
        allowed = allowed_marketplace_mcp(config)
        # AGH's MCP resolution walks the resolved list: operator-disabled skills still contribute.
        for s in sorted(eff.skills, key=lambda s: s.name):
            if s.decl.doc is None:
                continue
            servers = skill_servers(s.decl.doc)
            block = None
            if s.decl.tier == "marketplace" and s.decl.meta is not None and servers:
                if not (s.decl.meta.consent_keys() & allowed):
                    slug = s.decl.meta.data.get("slug", s.name)
                    block = (f"marketplace skill '{slug}' has no consent key in "
                             "skills.allowed_marketplace_mcp (MC002)")
            for name, server in servers.items():
                add(name, server, "skill", s.path, s.name, block)
    elif merge == "skill_sidecars":
        from skill_ls.core.mcp_servers import read_server_file

        # Amp reads both shapes: `{"mcpServers": {...}}` (the source's example) and a flat map of
        # servers (ampcode.com, "lazy-load MCP with skills"); MC001's note for a flat file says the same.
        for s in eff.skills:
            if not s.path:
                continue
            server_file = read_server_file(os.path.join(os.path.dirname(s.path), "mcp.json"))
            for name, server in server_file.servers.items():
                if isinstance(server, dict):
                    add(name, server, "skill", server_file.path, s.name)
    return list(merged.values()) + blocked


def _plain(value: object) -> str | int | float | bool | None:
    """JSON-safe scalars (TOML dates, nested tables) for the catalog object."""
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)
