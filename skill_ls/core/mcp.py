"""MCP server declarations: skill frontmatter (`metadata.agh.mcp_servers`), `mcp.json` sidecars,
and AGH's `$AGH_HOME/config.toml` consent list. Reading only; nothing here starts a server."""
from __future__ import annotations

import os
from typing import Any, cast

from skill_ls.core.files import read_json
from skill_ls.core.index import Document, Index, read_bytes
from skill_ls.core.parse.data import DataError, toml_value
from skill_ls.core.model import Span
from skill_ls.core.records import dataclass, field
from skill_ls.core.runtimes import MCP_METADATA_KEY



@dataclass
class Sidecar:
    """A skill's `mcp.json` sidecar: the servers it declares, or why it cannot be read."""

    path: str
    ok: bool
    servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    problem: str | None = None
    span: Span = Span(0, 0, 0, 0)
    # Loadable but lossy: both `mcpServers` and `mcp_servers` (the runtime reads one of them).
    warning: str | None = None
    warning_span: Span = Span(0, 0, 0, 0)


def read_sidecar(path: str) -> Sidecar | None:
    """Parse an `mcp.json` sidecar (`mcpServers` or `mcp_servers`: name -> server). None if absent."""
    if not os.path.lexists(path):
        return None
    value, problem, span = read_json(path, inside=os.path.dirname(path))
    if problem:
        return Sidecar(path, False, problem=problem, span=span)
    if not isinstance(value, dict):
        return Sidecar(path, False, problem="must be a JSON object with 'mcpServers' or 'mcp_servers'")
    servers = value.get("mcpServers", value.get("mcp_servers"))
    if servers is None:
        return Sidecar(path, False, problem="has neither 'mcpServers' nor 'mcp_servers'")
    if not isinstance(servers, dict) or not all(isinstance(v, dict) for v in servers.values()):
        return Sidecar(path, False, problem="'mcpServers' must map server names to objects")
    sidecar = Sidecar(path, True, dict(servers))
    if "mcpServers" in value and "mcp_servers" in value:
        data, _, _ = read_bytes(path)
        text = data.decode("utf-8-sig", errors="replace")
        at = text.find('"mcp_servers"')
        line = text.count("\n", 0, at) if at >= 0 else 0
        col = at - (text.rfind("\n", 0, at) + 1) if at >= 0 else 0
        ignored = sorted(set(value["mcp_servers"]) - set(servers)) if isinstance(value["mcp_servers"], dict) else []
        sidecar.warning = ("has both 'mcpServers' and 'mcp_servers': only 'mcpServers' is read (reading: AGH accepts "
                           "either key, not both)" + (f"; ignored: {', '.join(ignored)}" if ignored else "")
                           + "; merge them under one key")
        sidecar.warning_span = Span(line, col, line, col + len('"mcp_servers"'))
    return sidecar


def frontmatter_servers(doc: Document) -> dict[str, dict[str, Any]]:
    """`metadata.agh.mcp_servers` of a SKILL.md: a list of {name, ...} or a map name -> server."""
    if doc.fm is None or doc.fm.status != "ok":
        return {}
    meta = doc.fm.value("metadata")
    agh = meta.get(MCP_METADATA_KEY) if isinstance(meta, dict) else None
    return servers_in(agh.get("mcp_servers") if isinstance(agh, dict) else None)


def servers_in(value: object) -> dict[str, dict[str, Any]]:
    """MCP servers in a frontmatter or config table: a map name -> server, or a list of servers
    with `name` (anything else: none)."""
    out: dict[str, dict[str, Any]] = {}
    if isinstance(value, dict):
        out = {str(k): v for k, v in value.items() if isinstance(v, dict)}
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                out[item["name"]] = {k: v for k, v in item.items() if k != "name"}
    return out


def skill_servers(doc: Document) -> dict[str, dict[str, Any]]:
    """Frontmatter servers with the sidecar's same-name servers replacing them (AGH rule)."""
    servers = frontmatter_servers(doc)
    sidecar = read_sidecar(os.path.join(doc.directory, "mcp.json"))
    if sidecar is not None and sidecar.ok:
        servers.update(sidecar.servers)
    return servers


AGH_CONFIG_FILE = "config.toml"


def read_agh_config(agh_home: str | None) -> dict[str, Any]:
    """`$AGH_HOME/config.toml` as a dict ({} when absent or unreadable: AGH treats it as defaults)."""
    if not agh_home:
        return {}
    data, error, _ = read_bytes(os.path.join(agh_home, AGH_CONFIG_FILE))
    if error:
        return {}
    try:
        value = toml_value(data.decode("utf-8", errors="replace"))
    except DataError:
        return {}
    return value if isinstance(value, dict) else {}


def agh_config(index: Index | None) -> dict[str, Any]:
    """`$AGH_HOME/config.toml` of the index's environment (read-only), read once per index state:
    it is kept in `index.derived`, which the index drops whenever it learns that a file changed, and
    the server re-indexes when the file itself changes, so hover, `where`, effective sets and the
    rules read the file as `skill-ls check` would."""
    if index is None or not index.env.agh_home:
        return {}
    from skill_ls.core.own_settings import settings_file  # the one cache of the file (the skills switch too)

    return settings_file(index, os.path.join(index.env.agh_home, AGH_CONFIG_FILE), "toml") or {}


def default_provider(agh_config: dict[str, Any]) -> str | None:
    """`defaults.provider`: the provider of an AGH agent that names none (None when unset or blank)."""
    defaults = agh_config.get("defaults")
    value = defaults.get("provider") if isinstance(defaults, dict) else None
    return value if isinstance(value, str) and value.strip() else None


def allowed_marketplace_mcp(agh_config: dict[str, Any]) -> set[str]:
    skills = agh_config.get("skills")
    allowed = skills.get("allowed_marketplace_mcp") if isinstance(skills, dict) else None
    return {a for a in allowed if isinstance(a, str)} if isinstance(allowed, list) else set()
