"""MCP server definition rules, wherever skills and agents declare servers: a skill's
`mcp.json` (both AGH's `mcpServers` wrapper and Amp's flat map), `metadata.agh.mcp_servers` in
SKILL.md, AGH `AGENT.md` `mcp_servers`, and Claude Code subagent `mcpServers`.

The findings come from `skill_ls.core.mcp_servers.server_findings`; each code is reported in every
scope that holds definitions (sidecar, skill file, agent file).
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import AgentContext, FileContext, SidecarContext
from skill_ls.analysis.values import map_child, node_span, seq_items
from skill_ls.core.index import Document
from skill_ls.core.model import Severity, Span
from skill_ls.analysis.readers import readers_of
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.runtimes import MCP_METADATA_KEY, RUNTIMES, Runtime, runtime_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FILE, family_of_path

if TYPE_CHECKING:
    from skill_ls.core.jsonpos import JsonDoc
    from skill_ls.core.mcp_servers import ServerFinding
# (core.mcp_servers is imported where servers are found: most checks meet none, and it is ~2 ms)

Found = tuple[str, Span, str, bool]  # code, span, message, weaker


CLAUDE_MCP_KINDS = ("plugin_mcp", "project_mcp")
_DEFAULTED = lazy_pattern(r"\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}")


def expand_defaults(value: Any) -> Any:
    """Claude Code's `${VAR:-default}` in an `.mcp.json` value, read as its default (the value a
    checker can know); `${VAR}` is kept."""
    if isinstance(value, str):
        return _DEFAULTED.sub(lambda m: m.group(1), value)
    if isinstance(value, list):
        return [expand_defaults(v) for v in value]
    if isinstance(value, dict):
        return {k: expand_defaults(v) for k, v in value.items()}
    return value


def _literal(runtimes: list[Runtime]) -> tuple[str, str] | None:
    """(title, advice) when every runtime reading these definitions sends their values literally."""
    if runtimes and all(r.mcp_literal_values for r in runtimes):
        return runtimes[0].title, runtimes[0].mcp_literal_values or ""
    return None


def _sidecar_readers(ctx: SidecarContext) -> list[Runtime]:
    """The runtimes that read this `mcp.json`: the agent family's beside an agent file, else the
    runtimes that read the skill beside it."""
    if ctx.skill_path is None:
        agent_file = os.path.join(os.path.dirname(ctx.path), AGENT_FILE)
        if ctx.disk.is_file(agent_file):
            family = family_of_path(agent_file)
            return [RUNTIMES[runtime_for_family(family.id)]] if family is not None else []
        return []
    if ctx.index is None:
        return []
    return [RUNTIMES[r.runtime] for r in readers_of(ctx.index.decls_for_path(ctx.skill_path))]


def _sidecar_findings(ctx: SidecarContext) -> list[Found]:
    if ctx.kind in CLAUDE_MCP_KINDS + ("manifest",):
        return claude_findings(ctx)
    if ctx.kind != "mcp":
        return []
    from skill_ls.core.mcp_servers import locate_in_json, read_server_file, server_findings

    f = read_server_file(ctx.path)
    if not f.ok:
        return []  # MC001 reports unreadable or malformed files
    literal = _literal(_sidecar_readers(ctx))
    out: list[Found] = []
    for name in f.duplicates:
        out.append(("MS006", locate_in_json(f.text, name, ()), f"MCP server '{name}' is declared twice; the last "
                    "definition silently replaces the first", False))
    for name, server in f.servers.items():
        for finding in server_findings(name, server, literal=literal):
            out.append((finding.code, locate_in_json(f.text, name, finding.locate), finding.message, finding.warning))
    return out


def _yaml_findings(doc: Document, servers: Any, node: Any, fallback: Span, *, shape_checked: bool,
                   literal: tuple[str, str] | None = None) -> list[Found]:
    """Servers as a YAML map (name -> server) or list ({name, ...} objects or {name: server} pairs)."""
    from skill_ls.core.mcp_servers import server_findings

    out: list[Found] = []
    items: list[tuple[str, Any, Any]] = []  # name, server, node
    if isinstance(servers, dict):
        for name, server in servers.items():
            knode, vnode = map_child(node, str(name))
            items.append((str(name), server, vnode if vnode is not None else knode))
    elif isinstance(servers, list):
        nodes = seq_items(node)
        for i, item in enumerate(servers):
            inode = nodes[i] if i < len(nodes) else None
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                items.append((item["name"], {k: v for k, v in item.items() if k != "name"}, inode))
            elif isinstance(item, dict) and len(item) == 1 and isinstance(next(iter(item.values())), dict):
                (name, server), = item.items()
                _, vnode = map_child(inode, str(name))
                items.append((str(name), server, vnode))
    seen: set[str] = set()
    for name, server, snode in items:
        span = node_span(doc, snode, fallback)
        if name in seen:
            out.append(("MS006", span, f"MCP server '{name}' is declared twice; only one definition is used", False))
        seen.add(name)
        for finding in server_findings(name, server, shape_checked=shape_checked, literal=literal):
            out.append((finding.code, _yaml_locate(doc, snode, finding, span), finding.message, finding.warning))
    return out


def _yaml_locate(doc: Document, snode: Any, finding: ServerFinding, span: Span) -> Span:
    node = snode
    for part in finding.locate:
        if part.isdigit():
            items = seq_items(node)
            node = items[int(part)] if int(part) < len(items) else node
            continue
        knode, vnode = map_child(node, part)
        if knode is None:
            break
        node = knode if part == finding.locate[-1] else vnode
    return node_span(doc, node, span)


def _file_findings(ctx: FileContext) -> list[Found]:
    fm = ctx.doc.fm
    if fm is None or fm.status != "ok" or "metadata" not in fm.fields:
        return []
    meta = fm.fields["metadata"]
    agh = meta.value.get(MCP_METADATA_KEY) if isinstance(meta.value, dict) else None
    servers = agh.get("mcp_servers") if isinstance(agh, dict) else None
    if servers is None:
        return []
    _, agh_node = map_child(meta.node, MCP_METADATA_KEY)
    _, snode = map_child(agh_node, "mcp_servers")
    # `metadata.agh.mcp_servers` is read by the runtime whose key it is
    owners = [r for r in RUNTIMES.values() if r.mcp_merge == "agh_layers"]
    return _yaml_findings(ctx.doc, servers, snode, meta.key_span, shape_checked=True, literal=_literal(owners))


def _agent_findings(ctx: AgentContext) -> list[Found]:
    doc = ctx.agent.doc
    fm = doc.fm
    if fm is None or fm.status != "ok":
        return []
    out: list[Found] = []
    literal = _literal([RUNTIMES[runtime_for_family(ctx.agent.family)]])
    for key, shape_checked in (("mcp_servers", False), ("mcpServers", True)):
        entry = fm.fields.get(key)
        if entry is not None:
            out += _yaml_findings(doc, entry.value, entry.node, entry.value_span, shape_checked=shape_checked,
                                  literal=literal)
    return out


_CACHE_KEY = "mcp_server_findings"


def _cached(ctx: Any, compute: Callable[[Any], list[Found]], doc: Document | None) -> list[Found]:
    if doc is None:
        return compute(ctx)
    hit = doc.cache.get(_CACHE_KEY)
    if hit is None:
        hit = doc.cache[_CACHE_KEY] = compute(ctx)
    return list(hit)


def _emit(ctx: Any, code: str, found: list[Found]) -> None:
    for c, span, message, weaker in found:
        if c == code:
            ctx.out.report(span, message, severity=Severity.WARNING if weaker and ctx.out.severity == Severity.ERROR
                           else None)


def _run(ctx: Any, code: str) -> None:
    if isinstance(ctx, SidecarContext):
        _emit(ctx, code, _sidecar_findings(ctx))
    elif isinstance(ctx, AgentContext):
        _emit(ctx, code, _cached(ctx, _agent_findings, ctx.agent.doc))
    elif isinstance(ctx, FileContext):
        _emit(ctx, code, _cached(ctx, _file_findings, ctx.doc))


@rule("MS001", Severity.ERROR, "sidecar", file_kinds=("mcp", "plugin_mcp", "project_mcp", "manifest"))
def mcp_server_cannot_start(ctx: SidecarContext) -> None:
    """An MCP server has no `command` or `url` that matches its transport.

    ## What it does
    A stdio server (no `type`, or `type: stdio`) needs `command`; an `http` or `sse` server needs
    `url`. A `url` without `type` is a warning in a skill's `mcp.json` and an error in Claude Code's
    `.mcp.json` and `plugin.json` (its loader reads such a server as stdio, finds no `command` and
    drops it, as `claude plugin validate` says); so are an empty server and a `url` that is not an
    absolute URL (`notaurl`; a `${VAR}` is not judged) there. Checked in `mcp.json`,
    `.mcp.json`, the inline `mcpServers` of `plugin.json`, `metadata.agh.mcp_servers` and subagent
    `mcpServers` (AGH `AGENT.md` servers are AG004's).

    ## Why is this bad?
    The server never starts, so the tools the skill or agent relies on are missing.

    ## Example
    ```json
    {"mcpServers": {"docs": {"type": "http"}}}
    ```
    Use instead: `{"mcpServers": {"docs": {"type": "http", "url": "https://docs.example.com/mcp"}}}`.

    ## Source
    https://code.claude.com/docs/en/mcp (`.mcp.json` server fields), https://ampcode.com/news/lazy-load-mcp-with-skills,
    AGH skills overview (https://agh.network/runtime/core/skills/, "MCP Relationship").
    """
    _run(ctx, "MS001")


@rule("MS002", Severity.WARNING, "sidecar", file_kinds=("mcp", "plugin_mcp", "project_mcp", "manifest"))
def mcp_server_plain_http(ctx: SidecarContext) -> None:
    """An MCP server `url` uses plain `http://` to a host that is not local.

    ## What it does
    Reports `http://` URLs whose host is not `localhost`, `127.0.0.1` or `::1`.

    ## Why is this bad?
    Tool calls, results and any `Authorization` header travel unencrypted.

    ## Example
    `"url": "http://mcp.example.com/sse"` — use `https://mcp.example.com/sse`.

    ## Source
    https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices, https://code.claude.com/docs/en/mcp.
    """
    _run(ctx, "MS002")


@rule("MS003", Severity.ERROR, "sidecar", file_kinds=("mcp", "plugin_mcp", "project_mcp", "manifest"))
def mcp_server_literal_secret(ctx: SidecarContext) -> None:
    """A secret is written literally in an MCP server's `env`, `headers` or `args`.

    ## What it does
    Recognises GitHub, OpenAI, Anthropic, AWS, Slack and Google token formats anywhere in those
    values, and (as a warning) high-entropy values of keys named `*_KEY`, `*_TOKEN`, `*SECRET`,
    `*PASSWORD`. Placeholders (`${VAR}`, `<token>`, `your-key-here`) are not secrets.

    ## Why is this bad?
    Skills and agents are shared and committed; the secret leaks with them.

    ## Example
    ```json
    "env": {"GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}
    ```
    Use instead: `"env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}`.

    ## Source
    https://code.claude.com/docs/en/mcp ("Environment variable expansion in .mcp.json").
    """
    _run(ctx, "MS003")


def sends_mcp_values_literally(runtime: Runtime) -> bool:
    """Runtimes that send MCP server definitions' values as written, expanding no `${VAR}` (AGH)."""
    return runtime.mcp_literal_values is not None


@rule("MS007", Severity.WARNING, "sidecar", file_kinds=("mcp",), runtimes=sends_mcp_values_literally)
def mcp_server_placeholder_sent_literally(ctx: SidecarContext) -> None:
    """A `${VAR}` placeholder in an MCP server definition of a runtime that sends it literally (AGH).

    ## What it does
    Reports `env` and `args` values holding `${VAR}` or `$VAR` in the MCP servers of AGH agent and
    skill definitions (`mcp_servers` in AGENT.md, `metadata.agh.mcp_servers`, `mcp.json`).

    ## Why is this bad?
    AGH sends env values as literal strings and expands no shell placeholders inside MCP server
    definitions: the server receives the characters `${GITHUB_TOKEN}`, not the token, and fails to
    authenticate.

    ## Example
    ```yaml
    mcp_servers:
      - name: github
        command: npx
        env:
          GITHUB_TOKEN: "${GITHUB_TOKEN}"
    ```
    Use instead: declare the server in `$AGH_HOME/config.toml`'s `mcp_servers` with the real value
    (the operator's configuration, not committed with the agent).

    ## Source
    https://www.agh.network/runtime/core/agents/definitions/ ("env values are sent as literal strings;
    AGH does not expand shell placeholders inside MCP server definitions").
    """
    _run(ctx, "MS007")


@rule("MS004", Severity.WARNING, "sidecar", file_kinds=("mcp", "plugin_mcp", "project_mcp", "manifest"))
def mcp_server_unpinned_package(ctx: SidecarContext) -> None:
    """An MCP server runs an `npx`/`uvx` package without a fixed version.

    ## What it does
    Reports `npx`, `bunx`, `pnpx` and `uvx` commands whose package has no version
    (`pkg`, `pkg@latest`); `pkg@1.2.3`, `pkg==1.2.3` and local scripts are fine, and so is a
    URL or git source fixed by a commit id or a versioned tarball
    (`https://github.com/o/r/archive/<40-hex commit>.tar.gz`, `github:o/r#1a2b3c4`);
    `https://github.com/o/r/archive/main.tar.gz` is not.

    ## Why is this bad?
    Every start may download and run different code (a compromised release runs with your
    permissions).

    ## Example
    `"args": ["-y", "@modelcontextprotocol/server-github"]` — use `"@modelcontextprotocol/server-github@2025.4.8"`.

    ## Source
    https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices (local server compromise).
    """
    _run(ctx, "MS004")


@rule("MS005", Severity.WARNING, "sidecar", file_kinds=("mcp", "plugin_mcp", "project_mcp", "manifest"))
def mcp_server_binds_all_interfaces(ctx: SidecarContext) -> None:
    """An MCP server binds to or connects through `0.0.0.0`.

    ## What it does
    Reports `0.0.0.0` in a server's `args`, `env` values or `url`.

    ## Why is this bad?
    A local MCP server listening on every interface can be reached from the network (and from web
    pages through DNS rebinding).

    ## Example
    `"args": ["--host", "0.0.0.0"]` — use `"127.0.0.1"`.

    ## Source
    https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#security-warning.
    """
    _run(ctx, "MS005")


@rule("MS006", Severity.WARNING, "sidecar", file_kinds=("mcp", "plugin_mcp", "project_mcp", "manifest"))
def mcp_server_empty_or_duplicate(ctx: SidecarContext) -> None:
    """An MCP server is empty, or the same server name is declared twice.

    ## What it does
    Reports a server whose definition is `{}` (or not an object), and a name declared twice in
    one file or one list.

    ## Why is this bad?
    An empty server cannot start; with two definitions only one is used, and which one depends on
    the parser.

    ## Example
    `{"mcpServers": {"db": {}}}` — use instead: remove it or give it a `command`; keep one definition per name.

    ## Source
    https://code.claude.com/docs/en/mcp; AGH skills overview ("Server names are map keys").
    """
    _run(ctx, "MS006")


def _register_parts() -> None:
    for code, severity in (("MS001", Severity.ERROR), ("MS002", Severity.WARNING), ("MS003", Severity.ERROR),
                           ("MS004", Severity.WARNING), ("MS005", Severity.WARNING), ("MS006", Severity.WARNING),
                           ("MS007", Severity.WARNING)):
        for scope in ("file", "agent"):
            def part(ctx: Any, _code: str = code) -> None:
                _run(ctx, _code)

            part.__name__ = f"mcp_servers_{code.lower()}_{scope}"
            part.__doc__ = f"({code} in {scope} definitions)"
            rule(code, severity, scope, part=True,
                 runtimes=sends_mcp_values_literally if code == "MS007" else None)(part)


_register_parts()


@rule("MS008", Severity.ERROR, "sidecar", file_kinds=CLAUDE_MCP_KINDS + ("manifest",))
def claude_mcp_config_invalid(ctx: SidecarContext) -> None:
    """A Claude Code `.mcp.json` (the project's, or a plugin's) or the inline `mcpServers` of `plugin.json` cannot be loaded, or one of its servers cannot start.

    ## What it does
    The project's `.mcp.json` is `{"mcpServers": {name: server}}`; a plugin's `.mcp.json` (or the
    file its `plugin.json` names) may also be the flat map `{name: server}` (both shapes Claude Code
    accepts there); the inline `mcpServers` of `plugin.json` is the map of servers itself, or a list
    of such maps and `./paths`. Each server is an object;
    `args` is a list of strings (a string makes Claude Code drop the server); `env` and `headers` map
    names to strings. A plugin's stdio server whose `command` is a relative path (`./server.js`,
    `scripts/run.sh`) without `${CLAUDE_PLUGIN_ROOT}` starts in the user's directory, not the
    plugin's, and fails. `${VAR:-default}` is read as its default.

    ## Why is this bad?
    The servers are silently missing from the session, with the tools the skills and commands count on.

    ## Example
    `"args": "--port 3000"` — use `"args": ["--port", "3000"]`; `"command": "./bin/server"` — use
    `"command": "${CLAUDE_PLUGIN_ROOT}/bin/server"`.

    ## Source
    https://code.claude.com/docs/en/mcp ("Project scope", "Environment variable expansion in .mcp.json"),
    https://code.claude.com/docs/en/plugins-reference ("MCP servers", `${CLAUDE_PLUGIN_ROOT}`).
    """
    _emit(ctx, "MS008", _sidecar_findings(ctx))


def _relative_script(command: str) -> bool:
    """A command that is a relative path to a file (`./x`, `bin/x`, `x.js`), not a program on PATH."""
    c = expand_defaults(command).strip()
    if not c or "${" in c or "$" in c.split("/")[0] or os.path.isabs(c) or c.startswith("~"):
        return False
    return c.startswith("./") or c.startswith("../") or "/" in c.split()[0]


_SCHEME = lazy_pattern(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CLAUDE_CACHE: dict[tuple[str, str, str], list[Found]] = {}


def claude_findings(ctx: SidecarContext) -> list[Found]:
    """Every MS finding of a Claude Code MCP configuration: the project's `.mcp.json`, a plugin's
    `.mcp.json` (or a file its `plugin.json` names), and the inline `mcpServers` of a `plugin.json`
    (the map of servers itself, or objects in a list beside paths), with positions in the file. One
    reading for all the MS rules of the file."""
    from skill_ls.analysis.rules.plugins import json_doc

    doc = json_doc(ctx)
    key = (ctx.path, ctx.kind, doc.text)
    hit = _CLAUDE_CACHE.get(key)
    if hit is None:
        if len(_CLAUDE_CACHE) > 64:
            _CLAUDE_CACHE.clear()
        hit = _CLAUDE_CACHE[key] = _claude_findings(ctx.kind, doc)
    return list(hit)


def _claude_findings(kind: str, doc: JsonDoc) -> list[Found]:
    out: list[Found] = []
    if not doc.ok or not isinstance(doc.value, dict):
        if kind != "manifest":  # (PL001 reports a plugin.json that is not JSON)
            problem = f".mcp.json {doc.problem}" if not doc.ok else ".mcp.json must be a JSON object"
            out.append(("MS008", doc.problem_span if not doc.ok else doc.at(), f"{problem}; Claude Code loads none "
                        "of its servers", False))
        return out
    data = doc.value
    maps: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    if kind == "manifest":
        value = data.get("mcpServers")
        items = [(("mcpServers",), value)] if isinstance(value, dict) else [
            (("mcpServers", i), v) for i, v in enumerate(value)] if isinstance(value, list) else []
        for base, item in items:
            if isinstance(item, dict):
                maps.append((base, item))
            elif not isinstance(item, str):
                out.append(("MS008", doc.at(*base), "plugin.json 'mcpServers' must be a './path' to an MCP config, an "
                            "inline map of servers or a list of them; Claude Code refuses this manifest", False))
        if value is not None and not isinstance(value, (str, list, dict)):
            out.append(("MS008", doc.at("mcpServers"), "plugin.json 'mcpServers' must be a './path' to an MCP config, "
                        "an inline map of servers or a list of them; Claude Code refuses this manifest", False))
    elif "mcpServers" in data:
        if not isinstance(data["mcpServers"], dict):
            out.append(("MS008", doc.at("mcpServers"), "'mcpServers' must map server names to server objects", False))
        else:
            maps.append((("mcpServers",), data["mcpServers"]))
    elif kind == "project_mcp":
        if data:
            out.append(("MS008", doc.at(), "the project's .mcp.json needs 'mcpServers' (a map of server names to "
                        "servers); Claude Code loads none of these", False))
    else:
        maps.append(((), data))
    for base, servers in maps:
        for path in doc.duplicates:
            if len(path) == len(base) + 1 and path[:-1] == base and isinstance(servers.get(path[-1]), dict):
                out.append(("MS006", doc.key(*path), f"MCP server '{path[-1]}' is declared twice; the last definition "
                            "silently replaces the first", False))
        for name, server in servers.items():
            out += _claude_server(kind, doc, (*base, name), name, server, inline=kind == "manifest")
    return out


def _claude_server(kind: str, doc: JsonDoc, where: tuple[Any, ...], name: str, server: Any, *,
                   inline: bool) -> list[Found]:
    """One server of a Claude Code MCP configuration (`where`: its path in the file)."""
    if not isinstance(server, dict):
        return [("MS008", doc.at(*where), f"MCP server '{name}' must be an object (command/args or type/url): "
                 "Claude Code drops it", False)]
    if not server:
        hint = (" (an inline 'mcpServers' in plugin.json is the map of servers itself: no inner 'mcpServers')"
                if inline and name == "mcpServers" else "")
        return [("MS001", doc.key(*where), f"MCP server '{name}' is empty: give it a 'command' (stdio) or a 'url'; "
                 f"Claude Code drops it{hint}", False)]
    from skill_ls.core.mcp_servers import server_findings

    out: list[Found] = []
    for finding in server_findings(name, expand_defaults(server)):
        message = finding.message
        if inline and name == "mcpServers" and finding.code == "MS001":
            message += " (an inline 'mcpServers' in plugin.json is the map of servers itself: no inner 'mcpServers')"
        located = tuple(int(p) if p.isdigit() else p for p in finding.locate)
        # A server with a url and no type is dropped by Claude Code's loader (its validator says so).
        out.append((finding.code, doc.key(*where, *located), message, finding.warning and finding.code != "MS001"))
    url = expand_defaults(server.get("url"))
    if isinstance(url, str) and url.strip() and "$" not in url and not _SCHEME.match(url.strip()):
        # Claude Code reads the url as an absolute URL (`https://host/path`), or marks the server invalid
        out.append(("MS001", doc.at(*where, "url"), f"MCP server '{name}' has url {url!r}, which is not an absolute "
                    "URL (like 'https://host/path'): Claude Code never connects to it", False))
    args = server.get("args")
    if args is not None and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        out.append(("MS008", doc.at(*where, "args"), f"MCP server '{name}': 'args' must be a list of strings "
                    "(Claude Code drops a server whose args is a string)", False))
    for section in ("env", "headers"):
        values = server.get(section)
        if values is not None and not (isinstance(values, dict) and all(isinstance(v, str) for v in values.values())):
            out.append(("MS008", doc.at(*where, section), f"MCP server '{name}': '{section}' must map names to strings "
                        "(Claude Code drops the server)", False))
    command = server.get("command")
    if kind in ("plugin_mcp", "manifest") and isinstance(command, str) and _relative_script(command):
        out.append(("MS008", doc.at(*where, "command"), f"MCP server '{name}' runs '{command}' relative to the user's "
                    "directory, where it does not exist: write '${CLAUDE_PLUGIN_ROOT}/"
                    f"{command.removeprefix('./')}'", False))
    return out
