"""Agent definitions: AGH `AGENT.md`, Claude Code subagents and workspace-agents agents (SPEC §3.1,
§3.4, §3.7, §8).

`analyse_agent(agent, index)` turns one discovered agent file into an `AgentDefinition`: the plain
values resolution needs (provider, `deny_tools`, skill references and tombstones with their
positions, MCP servers) and the `problems` a runtime would reject or warn about. Rules AG001-AG004
report the problems; `skill_ls.analysis.effective` reads the definition. Never raises on bad input.

Readings (documented in docs/catalog.md):
- Only AGH fails closed: an AGH definition with a *blocking* problem (AG001, AG003, AG004 errors
  and non-draft AG002) cannot be resolved. RFC draft fields never block, whatever their reported
  severity (`agh.draft_fields`), and `skills.disabled` is honoured.
- Claude Code ignores unknown subagent keys, so AG002 is a warning there; workspace-agents
  agents have no published schema beyond `name` and `skills`, so only those are checked.
"""
from __future__ import annotations

import difflib
import os
import re
import shlex
import weakref
from dataclasses import dataclass, field
from typing import Any

import yaml

from skill_ls.core.index import AgentDecl, Document, Index
from skill_ls.core.model import Fix, Severity, Span, TextEdit
from skill_ls.core.runtimes import runtime_for_family, scoping_for_family

PERMISSIONS = ("deny-all", "approve-reads", "approve-all")
_SEGMENT = r"[a-z0-9][a-z0-9_-]*"
TOOL_ID = re.compile(rf"^{_SEGMENT}(?:__{_SEGMENT})+$")

# AGH's strict parser: field -> kind.
AGH_FIELDS: dict[str, str] = {
    "name": "str",
    "provider": "str",
    "command": "command",
    "model": "str",
    "tools": "tool_ids",
    "deny_tools": "tool_ids",
    "toolsets": "toolset_ids",
    "permissions": "permissions",
    "mcp_servers": "mcp_servers",
    "hooks": "list_of_maps",
}
# RFC 001 draft fields: top-level key -> its sub-keys (None: a plain field).
DRAFT_FIELDS: dict[str, tuple[str, ...] | None] = {
    "description": None,
    "skills": ("inherit", "disabled", "extra_sources"),
    "memory": ("inherit", "scope", "auto_consolidate"),
}
MCP_SERVER_KEYS = ("name", "command", "args", "env")

CLAUDE_AGENT_FIELDS: dict[str, str] = {
    "name": "str", "description": "str", "tools": "str_or_list", "disallowedTools": "str_or_list",
    "model": "str", "permissionMode": "str", "maxTurns": "int", "skills": "str_list", "mcpServers": "any",
    "hooks": "any", "memory": "memory", "background": "bool", "effort": "effort", "isolation": "str",
    "color": "str", "initialPrompt": "str",
}
CLAUDE_AGENT_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_ENUMS = {"memory": ("user", "project", "local"), "effort": ("low", "medium", "high", "xhigh", "max")}

_DRAFT_SEVERITY = {"error": Severity.ERROR, "warning": Severity.WARNING}


@dataclass(frozen=True)
class SkillRef:
    """An agent naming a skill: an entry of a `skills:` list, or a `skills.disabled` tombstone."""

    name: str
    span: Span
    kind: str  # "skills" | "tombstone"


@dataclass
class AgentProblem:
    code: str  # AG001-AG004
    span: Span
    message: str
    severity: Severity
    blocking: bool  # AGH rejects the definition: the agent fails closed
    fix: Fix | None = None
    path: str | None = None  # when the problem is in a sidecar, not the agent file


@dataclass
class AgentDefinition:
    decl: AgentDecl
    name: str | None = None
    provider: str | None = None
    provider_source: str = "none"  # agent | defaults | none
    tools: list[str] = field(default_factory=list)
    deny_tools: list[str] = field(default_factory=list)
    toolsets: list[str] = field(default_factory=list)
    permissions: str | None = None
    skills: list[SkillRef] = field(default_factory=list)
    tombstones: list[SkillRef] = field(default_factory=list)
    mcp_servers: dict[str, dict] = field(default_factory=dict)  # inline, then the sidecar's replacements
    mcp_sources: dict[str, str] = field(default_factory=dict)  # server name -> file that declares it
    prompt: str = ""
    problems: list[AgentProblem] = field(default_factory=list)

    @property
    def family(self) -> str:
        return self.decl.family

    @property
    def blocking_problem(self) -> AgentProblem | None:
        if self.decl.family != "agh":
            return None
        return next((p for p in self.problems if p.blocking), None)

    def may_call(self, tool: str) -> bool:
        """Whether `deny_tools` leaves `tool` callable (exact ID or prefix wildcard)."""
        return not any(tool_pattern_matches(p, tool) for p in self.deny_tools)


def tool_pattern_matches(pattern: str, tool: str) -> bool:
    if pattern.endswith("*"):
        return tool.startswith(pattern[:-1])
    return pattern == tool


def tool_id_problem(value: Any, *, wildcard: bool) -> str | None:
    """Why `value` is not a canonical ToolID (or prefix wildcard), or None (SPEC §8 grammar)."""
    if not isinstance(value, str):
        return "must be a string"
    if "*" in value:
        if not wildcard:
            return "must be a canonical ToolsetID like 'agh__tasks' (no wildcards)"
        if value.index("*") != len(value) - 1:
            return "'*' may appear only as the last character"
        # A wildcard is valid when some ToolID could follow its prefix.
        if not TOOL_ID.match(value[:-1] + "a") and not TOOL_ID.match(value[:-1] + "__a"):
            return "a wildcard must be a prefix of canonical ToolIDs, like 'agh__skill_*' or 'mcp__github__*'"
        return None
    if not TOOL_ID.match(value):
        kind = "ToolID" if wildcard else "ToolsetID"
        return (f"must be a canonical {kind}: two or more segments of lowercase letters, digits, '_' or '-' "
                "joined by '__' (like 'agh__skill_view')")
    return None


# -- analysis -------------------------------------------------------------------------------------
_cache: "weakref.WeakKeyDictionary[Document, tuple[tuple, AgentDefinition]]" = weakref.WeakKeyDictionary()


def analyse_agent(agent: AgentDecl, index: Index | None) -> AgentDefinition:
    """Parse and validate one agent definition (cached per parsed document and settings)."""
    key = _cache_key(agent, index)
    cached = _cache.get(agent.doc)
    if cached is not None and cached[0] == key:
        return cached[1]
    definition = AgentDefinition(agent)
    _Analyser(agent, index, definition).run()
    try:
        _cache[agent.doc] = (key, definition)
    except TypeError:  # pragma: no cover - documents are weak-referenceable dataclasses
        pass
    return definition


def _cache_key(agent: AgentDecl, index: Index | None) -> tuple:
    config = index.config if index else None
    home = index.env.agh_home if index else None
    sidecar = os.path.join(os.path.dirname(agent.path), "mcp.json")
    try:
        st = os.stat(sidecar)
        side = (st.st_mtime_ns, st.st_size)
    except OSError:
        side = None
    cfg = os.path.join(home, "config.toml") if home else None
    try:
        cst = os.stat(cfg) if cfg else None
        cside = (cst.st_mtime_ns, cst.st_size) if cst else None
    except OSError:
        cside = None
    return (agent.path, agent.family, agent.name, id(config), getattr(config, "agh_draft_fields", None), side,
            home, cside)


class _Analyser:
    def __init__(self, agent: AgentDecl, index: Index | None, out: AgentDefinition):
        self.agent = agent
        self.doc = agent.doc
        self.index = index
        self.out = out
        fm = self.doc.fm
        self.offset = (fm.open_line or 0) + 1 if fm is not None else 0

    # -- helpers --
    def problem(self, code: str, span: Span, message: str, severity: Severity = Severity.ERROR, *,
                blocking: bool | None = None, fix: Fix | None = None, path: str | None = None) -> None:
        if blocking is None:
            blocking = severity == Severity.ERROR
        self.out.problems.append(AgentProblem(code, span, message, severity, blocking, fix, path))

    def header(self) -> Span:
        return Span(0, 0, 0, len(self.doc.src.line_text(0)))

    def key_span(self, key: str) -> Span:
        fm = self.doc.fm
        return fm.fields[key].key_span if fm is not None and key in fm.fields else self.header()

    def value_span(self, key: str) -> Span:
        fm = self.doc.fm
        return fm.fields[key].value_span if fm is not None and key in fm.fields else self.header()

    def node_span(self, node: Any, fallback: Span) -> Span:
        if node is None or not hasattr(node, "start_mark"):
            return fallback
        s, e = node.start_mark, node.end_mark
        return Span(s.line + self.offset, s.column, e.line + self.offset, e.column)

    def map_child(self, node: Any, key: str) -> tuple[Any, Any]:
        """(key node, value node) of `key` in a YAML mapping node, or (None, None)."""
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == key:
                    return k, v
        return None, None

    def items(self, node: Any) -> list[Any]:
        return list(node.value) if isinstance(node, yaml.SequenceNode) else []

    # -- entry point --
    def run(self) -> None:
        doc, fm = self.doc, self.doc.fm
        if doc.read_error:
            self.problem("AG001", self.header(), f"{doc.read_error}; the agent definition cannot be loaded")
            return
        if fm is None or not fm.ok:
            problem = fm.problems[0] if fm is not None and fm.problems else None
            message = problem.message if problem else "invalid frontmatter"
            if fm is not None and fm.status == "invalid" and self.agent.family == "agh":
                message += " (AGH tried YAML, then TOML)"
            self.problem("AG001", problem.span if problem else self.header(), message,
                         fix=Fix(problem.fix_title, (TextEdit(doc.path, problem.fix_span, problem.fix_text),))
                         if problem is not None and problem.fix_title else None)
            return
        for p in fm.problems:
            if p.kind == "duplicate_key":
                self.problem("AG001", p.span, p.message)
        self.out.prompt = doc.src.text[doc.src.line_start(fm.body_start_line):].strip()
        if self.agent.family == "agh":
            self.run_agh()
        elif self.agent.family == "claude-code":
            self.run_claude()
        else:
            self.run_workspace_agent()

    # -- AGH --------------------------------------------------------------------------------------
    def run_agh(self) -> None:
        fm = self.doc.fm
        draft_level = self.index.config.agh_draft_fields if self.index else "warning"
        for key, entry in fm.fields.items():
            if key in AGH_FIELDS:
                continue
            top, _, sub = key.partition(".")
            if key in DRAFT_FIELDS or (sub and top in DRAFT_FIELDS and DRAFT_FIELDS[top] and sub in DRAFT_FIELDS[top]):
                self.draft_field(key, entry, draft_level)
                continue
            self.unknown_field(key, list(AGH_FIELDS) + [k for k in DRAFT_FIELDS])
        self.agh_name()
        for key in ("provider", "model"):
            value = fm.value(key)
            if key in fm.fields and not isinstance(value, str):
                self.problem("AG004", self.value_span(key), f"'{key}' must be a string")
        self.agh_provider()
        command = fm.value("command")
        if "command" in fm.fields:
            if not isinstance(command, str):
                self.problem("AG004", self.value_span("command"), "'command' must be a string")
            else:
                try:
                    shlex.split(command)
                except ValueError as exc:
                    self.problem("AG004", self.value_span("command"),
                                 f"'command' is not valid shell-style quoting ({exc}); AGH cannot split it")
        for key, wildcard in (("tools", True), ("deny_tools", True), ("toolsets", False)):
            setattr(self.out, key, self.tool_list(key, wildcard))
        permissions = fm.value("permissions")
        if "permissions" in fm.fields:
            if permissions not in PERMISSIONS:
                close = difflib.get_close_matches(str(permissions), PERMISSIONS, n=1)
                span = self.value_span("permissions")
                fix = Fix(f"Change to '{close[0]}'", (TextEdit(self.doc.path, span, close[0]),)) if close else None
                self.problem("AG004", span, f"agent.permissions must be one of {', '.join(PERMISSIONS)}"
                             + (f" (did you mean '{close[0]}'?)" if close else ""), fix=fix)
            else:
                self.out.permissions = permissions
        self.agh_mcp_servers()
        hooks = fm.value("hooks")
        if "hooks" in fm.fields and not (isinstance(hooks, list) and all(isinstance(h, dict) for h in hooks)):
            self.problem("AG004", self.value_span("hooks"), "'hooks' must be a list of hook declarations (mappings)")
        if not self.out.prompt:
            self.problem("AG003", self.prompt_span(), "agent prompt is required: the Markdown body after the "
                         "frontmatter is empty; write the agent's startup prompt there")

    def prompt_span(self) -> Span:
        fm = self.doc.fm
        line = fm.close_line if fm and fm.close_line is not None else 0
        return Span(line, 0, line, len(self.doc.src.line_text(line)))

    def unknown_field(self, key: str, known: list[str], severity: Severity = Severity.ERROR) -> None:
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
        span = self.key_span(key)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        fix = Fix(f"Rename to '{close[0]}'", (TextEdit(self.doc.path, span, close[0]),)) if close else None
        if self.agent.family == "agh":
            message = f"unknown field '{key}'{hint}: AGH's strict parser rejects the whole definition"
        else:
            message = f"unknown field '{key}'{hint}: Claude Code ignores it"
        self.problem("AG002", span, message, severity, fix=fix)

    def draft_field(self, key: str, entry: Any, level: str) -> None:
        tomb = self.collect_tombstones(key, entry)
        if level != "ignore":
            severity = _DRAFT_SEVERITY.get(level, Severity.WARNING)
            note = ("skill-ls, like AGH's resolver, still applies its skills.disabled tombstones" if tomb
                    else "remove it or move the data into supported config")
            self.problem("AG002", self.key_span(key),
                         f"'{key}' is an RFC 001 draft field that AGH's strict parser rejects today; {note}",
                         severity, blocking=False)
        if isinstance(entry.value, dict) and key in DRAFT_FIELDS and DRAFT_FIELDS[key]:
            for sub in entry.value:
                if sub not in DRAFT_FIELDS[key]:
                    knode, _ = self.map_child(entry.node, str(sub))
                    self.problem("AG002", self.node_span(knode, self.key_span(key)),
                                 f"unknown field '{key}.{sub}' (draft '{key}' knows {', '.join(DRAFT_FIELDS[key])})")
        elif key in DRAFT_FIELDS and DRAFT_FIELDS[key] and entry.value is not None:
            self.problem("AG002", self.value_span(key),
                         f"unknown field '{key}': AGH's strict parser rejects it (the RFC draft shape is a mapping "
                         f"with {', '.join(DRAFT_FIELDS[key])})")

    def collect_tombstones(self, key: str, entry: Any) -> bool:
        """Record `skills.disabled` names (nested map or a literal dotted key). True if any form was found."""
        if key == "skills" and isinstance(entry.value, dict) and "disabled" in entry.value:
            _, vnode = self.map_child(entry.node, "disabled")
            value, fallback = entry.value["disabled"], self.value_span(key)
        elif key == "skills.disabled":
            vnode, value, fallback = entry.node, entry.value, self.value_span(key)
        else:
            return False
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            self.problem("AG004", self.node_span(vnode, fallback),
                         "skills.disabled must be a list of skill names; it is ignored", Severity.WARNING,
                         blocking=False)
            return True
        nodes = self.items(vnode)
        for i, name in enumerate(value):
            span = self.node_span(nodes[i] if i < len(nodes) else None, fallback)
            self.out.tombstones.append(SkillRef(name, span, "tombstone"))
        return True

    def agh_name(self) -> None:
        fm = self.doc.fm
        name = fm.value("name")
        directory = os.path.basename(os.path.dirname(self.agent.path))
        if not isinstance(name, str) or not name.strip():
            what = "missing" if "name" not in fm.fields else "empty or not a string"
            self.problem("AG004", self.key_span("name") if "name" in fm.fields else self.header(),
                         f"'name' is {what}: AGH requires it and it must equal the directory name '{directory}'")
            return
        self.out.name = name
        if name != directory:
            span = self.value_span("name")
            self.problem("AG004", span, f"name '{name}' does not match the directory '{directory}': AGH loads "
                         f"agents/<name>/AGENT.md and requires them to agree",
                         fix=Fix(f"Rename to '{directory}'", (TextEdit(self.doc.path, span, directory),)))

    def agh_provider(self) -> None:
        provider = self.doc.fm.value("provider")
        if isinstance(provider, str) and provider.strip():
            self.out.provider, self.out.provider_source = provider, "agent"
            return
        from skill_ls.core.mcp import read_agh_config

        config = read_agh_config(self.index.env.agh_home if self.index else None)
        defaults = config.get("defaults")
        fallback = defaults.get("provider") if isinstance(defaults, dict) else None
        if isinstance(fallback, str) and fallback.strip():
            self.out.provider, self.out.provider_source = fallback, "defaults"
            return
        span = self.key_span("provider") if "provider" in self.doc.fm.fields else self.header()
        self.problem("AG004", span, "agent provider is required: set 'provider' here or defaults.provider in "
                     "$AGH_HOME/config.toml", Severity.WARNING, blocking=False)

    def tool_list(self, key: str, wildcard: bool) -> list[str]:
        fm = self.doc.fm
        if key not in fm.fields:
            return []
        entry = fm.fields[key]
        value = entry.value
        if not isinstance(value, list):
            self.problem("AG004", entry.value_span, f"'{key}' must be a list of strings")
            return []
        nodes = self.items(entry.node)
        good = []
        for i, item in enumerate(value):
            reason = tool_id_problem(item, wildcard=wildcard)
            if reason is None:
                good.append(item)
                continue
            span = self.node_span(nodes[i] if i < len(nodes) else None, entry.value_span)
            self.problem("AG004", span, f"{key} entry {item!r} {reason}")
        return good

    def agh_mcp_servers(self) -> None:
        fm = self.doc.fm
        entry = fm.fields.get("mcp_servers")
        if entry is not None:
            if not isinstance(entry.value, list):
                self.problem("AG004", entry.value_span, "'mcp_servers' must be a list of server objects "
                             "(each with 'name' and 'command')")
            else:
                nodes = self.items(entry.node)
                for i, server in enumerate(entry.value):
                    node = nodes[i] if i < len(nodes) else None
                    self.inline_server(server, node, entry.value_span)
        from skill_ls.core.mcp import read_sidecar

        sidecar = read_sidecar(os.path.join(os.path.dirname(self.agent.path), "mcp.json"))
        if sidecar is not None and sidecar.ok:
            for name, server in sidecar.servers.items():
                problem = _server_problem(server, need_name=False)
                if problem:
                    self.problem("AG004", Span(0, 0, 0, 0), f"mcp.json server '{name}' {problem}", path=sidecar.path)
                    continue
                # The sidecar replaces a same-name inline server as a whole object.
                self.out.mcp_servers[name] = {k: v for k, v in server.items()}
                self.out.mcp_sources[name] = sidecar.path

    def inline_server(self, server: Any, node: Any, fallback: Span) -> None:
        span = self.node_span(node, fallback)
        if not isinstance(server, dict):
            self.problem("AG004", span, "each mcp_servers entry must be a mapping with 'name' and 'command'")
            return
        for key in server:
            if key not in MCP_SERVER_KEYS:
                knode, _ = self.map_child(node, str(key))
                self.problem("AG002", self.node_span(knode, span),
                             f"unknown field '{key}' in an mcp_servers entry (known: {', '.join(MCP_SERVER_KEYS)})")
        problem = _server_problem(server, need_name=True)
        if problem:
            label = server.get("name") if isinstance(server.get("name"), str) else "entry"
            self.problem("AG004", span, f"mcp_servers {label!s} {problem}")
            return
        name = server["name"]
        if name in self.out.mcp_servers:
            self.problem("AG004", span, f"mcp_servers declares '{name}' twice")
            return
        self.out.mcp_servers[name] = {k: v for k, v in server.items() if k != "name"}
        self.out.mcp_sources[name] = self.agent.path

    # -- Claude Code ------------------------------------------------------------------------------
    def run_claude(self) -> None:
        fm = self.doc.fm
        for key in fm.fields:
            if key not in CLAUDE_AGENT_FIELDS:
                self.unknown_field(key, list(CLAUDE_AGENT_FIELDS), Severity.WARNING)
        name = fm.value("name")
        if not isinstance(name, str) or not name.strip():
            self.problem("AG004", self.key_span("name") if "name" in fm.fields else self.header(),
                         "subagent 'name' is required (lowercase letters and hyphens)")
        elif not CLAUDE_AGENT_NAME.match(name):
            fixed = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
            span = self.value_span("name")
            self.problem("AG004", span, f"subagent name '{name}' must use lowercase letters, digits and hyphens",
                         fix=Fix(f"Rename to '{fixed}'", (TextEdit(self.doc.path, span, fixed),)) if fixed else None)
        else:
            self.out.name = name
        description = fm.value("description")
        if not isinstance(description, str) or not description.strip():
            self.problem("AG004", self.key_span("description") if "description" in fm.fields else self.header(),
                         "subagent 'description' is required: Claude Code delegates by it")
        for key, kind in CLAUDE_AGENT_FIELDS.items():
            if key in ("name", "description") or key not in fm.fields:
                continue
            reason = _kind_problem(kind, fm.value(key))
            if reason:
                self.problem("AG004", self.value_span(key), f"'{key}' {reason}")
        self.skill_list("skills")
        if not self.out.prompt:
            self.problem("AG003", self.prompt_span(), "the subagent's system prompt (the body) is empty",
                         Severity.WARNING)

    def skill_list(self, key: str) -> None:
        fm = self.doc.fm
        entry = fm.fields.get(key)
        if entry is None:
            return
        if not (isinstance(entry.value, list) and all(isinstance(v, str) for v in entry.value)):
            if self.agent.family != "claude-code":  # Claude's type check already reported it
                self.problem("AG004", entry.value_span, f"'{key}' must be a list of skill names")
            return
        nodes = self.items(entry.node)
        for i, name in enumerate(entry.value):
            span = self.node_span(nodes[i] if i < len(nodes) else None, entry.value_span)
            self.out.skills.append(SkillRef(name, span, "skills"))

    # -- workspace-agents -------------------------------------------------------------------------
    def run_workspace_agent(self) -> None:
        fm = self.doc.fm
        name = fm.value("name")
        if "name" in fm.fields and not isinstance(name, str):
            self.problem("AG004", self.value_span("name"), "'name' must be a string")
        elif isinstance(name, str):
            self.out.name = name
        self.skill_list("skills")


def _server_problem(server: dict, *, need_name: bool) -> str | None:
    if need_name and (not isinstance(server.get("name"), str) or not server["name"].strip()):
        return "needs a 'name'"
    command = server.get("command")
    if not isinstance(command, str) or not command.strip():
        return "needs a 'command' (AGH starts MCP servers as subprocesses)"
    args = server.get("args")
    if args is not None and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        return "'args' must be a list of strings"
    env = server.get("env")
    if env is not None and not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
        return "'env' must map names to string values (quote numbers and booleans; values are literal)"
    return None


def _kind_problem(kind: str, value: Any) -> str | None:
    if kind == "any":
        return None
    if kind == "str":
        return None if isinstance(value, str) else "must be a string"
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind == "int":
        return None if isinstance(value, int) and not isinstance(value, bool) else "must be an integer"
    if kind == "str_list":
        return None if isinstance(value, list) and all(isinstance(v, str) for v in value) else "must be a list of strings"
    if kind == "str_or_list":
        ok = isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
        return None if ok else "must be a string or a list of strings"
    if kind in _ENUMS:
        return None if value in _ENUMS[kind] else f"must be one of {', '.join(_ENUMS[kind])}"
    return None


# -- queries used by resolution ---------------------------------------------------------------------
def fail_closed_reason(index: Index, definition: AgentDefinition) -> str | None:
    """Why AGH refuses this agent's catalog (SPEC §8), as one line, or None."""
    agent = definition.decl
    scoping = scoping_for_family(agent.family)
    if scoping is None or not scoping.fail_closed:
        return None
    problem = definition.blocking_problem
    if problem is not None:
        path = problem.path or agent.path
        where = f"{index.display_path(path)}:{problem.span.start_line + 1}"
        return f"agent '{agent.name}' fails closed: {where}: {problem.code} {_one_line(problem.message)}"
    for decl in index.decls.get(runtime_for_family(agent.family), ()):
        if decl.agent == agent.name and decl.blocked is not None and decl.undiscovered is None:
            return (f"agent '{agent.name}' fails closed: agent-local skill '{decl.name}' is blocked "
                    f"({_one_line(decl.blocked)}) at {index.display_path(decl.path)}")
    return None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
