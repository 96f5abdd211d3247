"""Agent definitions parsed into plain values: AGH `AGENT.md`, Claude Code subagents and
workspace-agents agents.

`parse_agent(agent, index)` turns one discovered agent file into an `AgentDefinition`: what
resolution needs (provider, `deny_tools`, skill references and tombstones with their positions,
MCP servers) and what the AG rules check (each list entry with its span, the inline and sidecar MCP
servers, the prompt). It holds no rule logic and reports nothing: AG001-AG005 in
`skill_ls.analysis.rules.agents` judge these values, and `skill_ls.analysis.effective` decides from
their findings whether AGH fails closed. Where each family's files live and which fields it knows
is data (`skill_ls.core.runtimes.agent_families`). Never raises on bad input.
"""
from __future__ import annotations

import os
import re
import weakref
from typing import Any

from skill_ls.core.index import AgentDecl, Document, Index
from skill_ls.core.model import Span
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass, field
from skill_ls.core.runtimes import scoping_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES, AgentFamily
from skill_ls.core.spans import mapping_child, sequence_items, yaml_span

_SEGMENT = r"[a-z0-9][a-z0-9_-]*"
TOOL_ID = lazy_pattern(rf"^{_SEGMENT}(?:__{_SEGMENT})+$")
MCP_SERVER_KEYS = ("name", "command", "args", "env")


@dataclass(frozen=True)
class SkillRef:
    """An agent naming a skill: an entry of a `skills:` list, or a `skills.disabled` tombstone."""

    name: str
    span: Span
    kind: str  # "skills" | "tombstone"


@dataclass(frozen=True)
class ListItem:
    """One entry of a frontmatter list, with where it is written."""

    value: Any
    span: Span


@dataclass
class InlineServer:
    """One `mcp_servers` entry of an AGH definition."""

    value: Any
    span: Span
    key_spans: dict[str, Span]  # key -> where it is written (for keys of a mapping entry)


@dataclass
class AgentDefinition:
    """What an agent definition says that skill-ls uses (its name, tool lists, permissions, the skills it
    lists and disables), read from its frontmatter without rule logic; the AG rules report on it."""

    decl: AgentDecl
    name: str | None = None  # the declared name, when it is a non-empty string
    provider: str | None = None
    deny_tools: list[str] = field(default_factory=list)  # valid entries only (`may_call`)
    tool_items: dict[str, list[ListItem]] = field(default_factory=dict)  # every entry of each ToolID list (AG rules)
    permissions: str | None = None  # when one of the family's allowed values
    skills: list[SkillRef] = field(default_factory=list)
    tombstones: list[SkillRef] = field(default_factory=list)
    tombstone_values: list[ListItem] = field(default_factory=list)  # each raw `skills.disabled` value
    inline_servers: list[InlineServer] = field(default_factory=list)
    sidecar_path: str | None = None  # the agent's mcp.json, when it parsed
    sidecar_servers: dict[str, Any] = field(default_factory=dict)
    mcp_servers: dict[str, dict[str, Any]] = field(default_factory=dict)  # valid inline, then the sidecar's
    mcp_sources: dict[str, str] = field(default_factory=dict)  # server name -> file that declares it
    prompt: str = ""
    prompt_span: Span = field(default_factory=lambda: Span(0, 0, 0, 0))

    @property
    def family(self) -> AgentFamily:
        return AGENT_FAMILIES[self.decl.family]

    def may_call(self, tool: str) -> bool:
        """Whether `deny_tools` leaves `tool` callable (exact ID or prefix wildcard)."""
        return not any(tool_pattern_matches(p, tool) for p in self.deny_tools)


def tool_pattern_matches(pattern: str, tool: str) -> bool:
    if pattern.endswith("*"):
        return tool.startswith(pattern[:-1])
    return pattern == tool


def tool_id_problem(value: Any, *, wildcard: bool) -> str | None:
    """Why `value` is not a canonical ToolID (or prefix wildcard), or None (grammar)."""
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


def server_problem(server: dict[str, Any], *, need_name: bool) -> str | None:
    """Why an MCP server declaration cannot be started by AGH, or None (its shape)."""
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


# -- YAML node helpers --------------------------------------------------------------------------------
def item_span(doc: Document, nodes: list[Any], i: int, fallback: Span) -> Span:
    return yaml_span(doc, nodes[i] if i < len(nodes) else None, fallback)


# -- parsing ------------------------------------------------------------------------------------------
_cache: "weakref.WeakKeyDictionary[Document, tuple[tuple[Any, ...], AgentDefinition]]" = weakref.WeakKeyDictionary()


def parse_agent(agent: AgentDecl, index: Index | None) -> AgentDefinition:
    """The values of one agent definition (cached per parsed document and settings)."""
    key = definition_key(agent, index)
    cached = _cache.get(agent.doc)
    if cached is not None and cached[0] == key:
        return cached[1]
    definition = AgentDefinition(agent)
    _parse(definition, index)
    _cache[agent.doc] = (key, definition)
    return definition


def definition_key(agent: AgentDecl, index: Index | None) -> tuple[Any, ...]:
    """What a parsed definition (and the findings about it) depend on besides the document."""
    config = index.config if index else None
    home = index.env.agh_home if index else None
    sidecar = os.path.join(os.path.dirname(agent.path), "mcp.json")
    try:
        st = os.stat(sidecar)
        side: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
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


def _parse(out: AgentDefinition, index: Index | None) -> None:
    agent, doc = out.decl, out.decl.doc
    fm = doc.fm
    if doc.read_error or fm is None or not fm.ok:
        return
    family = out.family
    out.prompt = doc.src.text[doc.src.line_start(fm.body_start_line):].strip()
    line = fm.close_line if fm.close_line is not None else 0
    out.prompt_span = Span(line, 0, line, len(doc.src.line_text(line)))
    name = fm.value("name")
    if isinstance(name, str) and name.strip():
        out.name = name
    scoping = scoping_for_family(agent.family)
    if scoping is not None and scoping.tombstones:
        _tombstones(out)
    if "provider" in family.fields:
        _provider(out, index)
    for key, wildcard in family.tool_id_fields.items():
        _tool_list(out, key, wildcard)
    permissions = family.fields.get("permissions")
    value = fm.value("permissions")
    if permissions is not None and isinstance(value, str) and value in permissions.enum:
        out.permissions = value
    if "mcp_servers" in family.fields:
        _mcp_servers(out)
    skills = fm.fields.get("skills")
    if "skills" in family.fields and skills is not None and isinstance(skills.value, list) and all(
            isinstance(v, str) for v in skills.value):
        nodes = sequence_items(skills.node)
        out.skills = [SkillRef(n, item_span(doc, nodes, i, skills.value_span), "skills")
                      for i, n in enumerate(skills.value)]
    elif "skills" in family.fields and skills is not None and isinstance(skills.value, str) and \
            family.fields["skills"].kind == "str_or_list":
        out.skills = comma_refs(doc, skills.value, skills.value_span)


def comma_refs(doc: Document, value: str, span: Span) -> list[SkillRef]:
    """The names of a comma-separated `skills: a, b` (Claude Code subagents), each with its span when
    the value sits on one line as written."""
    base: int | None = None
    if span.start_line == span.end_line:
        raw = doc.src.line_text(span.start_line)[span.start_col:span.end_col]
        if raw == value:
            base = span.start_col
        elif len(raw) >= 2 and raw[0] in "\"'" and raw[-1] == raw[0] and raw[1:-1] == value:
            base = span.start_col + 1
    out: list[SkillRef] = []
    for m in re.finditer(r"[^,\s]+", value):
        where = span if base is None else Span(span.start_line, base + m.start(), span.start_line, base + m.end())
        out.append(SkillRef(m.group(0), where, "skills"))
    return out


def _tombstones(out: AgentDefinition) -> None:
    """`skills.disabled` names, from the nested mapping or a literal dotted key."""
    doc = out.decl.doc
    fm = doc.fm
    assert fm is not None
    for key, entry in fm.fields.items():
        if key == "skills" and isinstance(entry.value, dict) and "disabled" in entry.value:
            _, vnode = mapping_child(entry.node, "disabled")
            value = entry.value["disabled"]
        elif key == "skills.disabled":
            vnode, value = entry.node, entry.value
        else:
            continue
        out.tombstone_values.append(ListItem(value, yaml_span(doc, vnode, entry.value_span)))
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            nodes = sequence_items(vnode)
            out.tombstones.extend(SkillRef(n, item_span(doc, nodes, i, entry.value_span), "tombstone")
                                  for i, n in enumerate(value))


def _provider(out: AgentDefinition, index: Index | None) -> None:
    fm = out.decl.doc.fm
    assert fm is not None
    provider = fm.value("provider")
    if isinstance(provider, str) and provider.strip():
        out.provider = provider
        return
    from skill_ls.core.mcp import agh_config, default_provider

    out.provider = default_provider(agh_config(index))


def _tool_list(out: AgentDefinition, key: str, wildcard: bool) -> None:
    doc = out.decl.doc
    fm = doc.fm
    assert fm is not None
    entry = fm.fields.get(key)
    if entry is None or not isinstance(entry.value, list):
        return
    nodes = sequence_items(entry.node)
    items = [ListItem(v, item_span(doc, nodes, i, entry.value_span)) for i, v in enumerate(entry.value)]
    out.tool_items[key] = items
    if key == "deny_tools":
        out.deny_tools = [i.value for i in items if tool_id_problem(i.value, wildcard=wildcard) is None]


def _mcp_servers(out: AgentDefinition) -> None:
    agent, doc = out.decl, out.decl.doc
    fm = doc.fm
    assert fm is not None
    entry = fm.fields.get("mcp_servers")
    if entry is not None and isinstance(entry.value, list):
        nodes = sequence_items(entry.node)
        for i, server in enumerate(entry.value):
            node = nodes[i] if i < len(nodes) else None
            span = yaml_span(doc, node, entry.value_span)
            keys = {str(k): yaml_span(doc, mapping_child(node, str(k))[0], span)
                    for k in server} if isinstance(server, dict) else {}
            out.inline_servers.append(InlineServer(server, span, keys))
            if not isinstance(server, dict) or server_problem(server, need_name=True):
                continue
            name = server["name"]
            if name in out.mcp_servers:
                continue
            out.mcp_servers[name] = {k: v for k, v in server.items() if k != "name"}
            out.mcp_sources[name] = agent.path
    from skill_ls.core.mcp import read_sidecar

    sidecar = read_sidecar(os.path.join(os.path.dirname(agent.path), "mcp.json"))
    if sidecar is not None and sidecar.ok:
        out.sidecar_path = sidecar.path
        out.sidecar_servers = dict(sidecar.servers)
        for name, server in sidecar.servers.items():
            if server_problem(server, need_name=False):
                continue
            # The sidecar replaces a same-name inline server as a whole object.
            out.mcp_servers[name] = {k: v for k, v in server.items()}
            out.mcp_sources[name] = sidecar.path


__all__ = ["AgentDefinition", "InlineServer", "ListItem", "MCP_SERVER_KEYS", "SkillRef", "TOOL_ID",
           "definition_key", "item_span", "parse_agent", "server_problem", "tool_id_problem",
           "tool_pattern_matches"]
