"""Sidecar and marketplace rules."""
from __future__ import annotations

import os

import yaml

from skill_ls.core.runtimes.agent_families import AGENT_FILE
from skill_ls.core.index import read_bytes, read_marketplace_meta
from skill_ls.core.model import Severity, Span
from skill_ls.core.parse.frontmatter import MAX_NESTING, nesting_too_deep
from skill_ls.analysis.rules import rule
from skill_ls.core.runtimes import Runtime
from skill_ls.core.spans import header_span
from skill_ls.analysis.rules.context import RuntimeContext, SidecarContext


@rule("MC001", Severity.ERROR, "sidecar", file_kinds=("mcp", "meta", "openai", "capabilities"))
def malformed_sidecar(ctx: SidecarContext) -> None:
    """An `mcp.json`, `.agh-meta.json`, `capabilities.toml` or `agents/openai.yaml` is unreadable or malformed.

    ## What it does
    `mcp.json` must be a JSON object with `mcpServers` (or `mcp_servers`) mapping names to server
    objects; Amp's flat map of servers (its documented shape) is information only: AGH ignores it. `.agh-meta.json` (AGH marketplace) must hold string `slug`, `registry`, `version` and
    `installed_at`; an optional `hash` that is not the SHA-256 of SKILL.md's bytes is a warning (AGH
    verifies a hash at load time, but its input is not documented: it may cover the whole directory). Codex's
    `agents/openai.yaml` must be a YAML mapping whose `interface` is a mapping, `dependencies.tools`
    a list and `policy` a mapping. AGH's `capabilities.toml` next to an AGENT.md must be valid TOML
    (its schema is not checked).

    ## Why is this bad?
    A malformed sidecar silently drops the skill's MCP servers; invalid marketplace metadata blocks
    the skill from loading in AGH (and so may a hash mismatch).
    """
    if ctx.kind == "mcp":
        from skill_ls.core.mcp import read_sidecar

        sidecar = read_sidecar(ctx.path)
        if sidecar is not None and not sidecar.ok:
            from skill_ls.core.mcp_servers import read_server_file

            if read_server_file(ctx.path).shape == "flat":
                # Amp's documented shape (https://ampcode.com/news/lazy-load-mcp-with-skills).
                ctx.out.report(sidecar.span, "mcp.json is a flat map of servers (Amp's shape): Amp loads it, but AGH "
                               "reads only 'mcpServers' or 'mcp_servers' and ignores these servers",
                               severity=Severity.INFORMATION)
                return
            beside_agent = ctx.skill_path is None and ctx.disk.is_file(os.path.join(os.path.dirname(ctx.path), AGENT_FILE))
            owner = "agent" if beside_agent else "skill"
            ctx.out.report(sidecar.span, f"mcp.json {sidecar.problem}; the {owner}'s MCP servers are ignored")
        elif sidecar is not None and sidecar.warning:
            ctx.out.report(sidecar.warning_span, f"mcp.json {sidecar.warning}", severity=Severity.WARNING)
    elif ctx.kind == "meta":
        meta = read_marketplace_meta(ctx.path, ctx.skill_path)
        if not meta.ok:
            ctx.out.report(meta.span, f".agh-meta.json: {meta.problem}; AGH blocks this marketplace skill")
        elif meta.warning:
            ctx.out.report(meta.span, f".agh-meta.json: {meta.warning}", severity=Severity.WARNING)
    elif ctx.kind == "capabilities":
        from skill_ls.core.capabilities import capabilities_problem

        problem, span = capabilities_problem(ctx.path)
        if problem:
            ctx.out.report(span, f"capabilities.toml {problem}; AGH cannot load this agent's capability catalog")
    elif ctx.kind == "openai":
        problem, span = _openai_yaml_problem(ctx.path)
        if problem:
            ctx.out.report(span, f"agents/openai.yaml: {problem}")


def _openai_yaml_problem(path: str) -> tuple[str | None, Span]:
    data, error, _ = read_bytes(path)
    if error:
        return error, Span(0, 0, 0, 0)
    text = data.decode("utf-8", errors="replace")
    if nesting_too_deep(text):  # libyaml's composer would overflow the C stack
        return f"nested more than {MAX_NESTING} levels deep", Span(0, 0, 0, 0)
    try:
        value = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, col = (mark.line, mark.column) if mark else (0, 0)
        return f"YAML syntax error: {exc.problem}", Span(line, col, line, col + 1)
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        return f"YAML error: {exc}", Span(0, 0, 0, 0)
    if value is None:
        return None, Span(0, 0, 0, 0)
    if not isinstance(value, dict):
        return "must be a mapping", Span(0, 0, 0, 0)
    if "interface" in value and not isinstance(value["interface"], dict):
        return "'interface' must be a mapping", Span(0, 0, 0, 0)
    deps = value.get("dependencies")
    if deps is not None:
        if not isinstance(deps, dict):
            return "'dependencies' must be a mapping", Span(0, 0, 0, 0)
        tools = deps.get("tools")
        if tools is not None and not (isinstance(tools, list) and all(isinstance(t, dict) for t in tools)):
            return "'dependencies.tools' must be a list of mappings", Span(0, 0, 0, 0)
    if "policy" in value and not isinstance(value["policy"], dict):
        return "'policy' must be a mapping", Span(0, 0, 0, 0)
    return None, Span(0, 0, 0, 0)


def installs_from_marketplace(runtime: Runtime) -> bool:
    """Runtimes with a marketplace tier (skills installed with marketplace metadata)."""
    return runtime.marketplace is not None


@rule("MC002", Severity.WARNING, "runtime", runtimes=installs_from_marketplace, file_kinds=("skill",))
def marketplace_mcp_blocked(ctx: RuntimeContext) -> None:
    """A marketplace skill declares MCP servers that AGH will not start.

    ## What it does
    AGH blocks the MCP servers of a marketplace skill unless `skills.allowed_marketplace_mcp` in
    `$AGH_HOME/config.toml` holds one of its consent keys: the slug, `registry:slug`, or the hash.

    ## Why is this bad?
    The skill's instructions assume tools that never appear in the session.

    ## Example
    ```toml
    [skills]
    allowed_marketplace_mcp = ["@author/postgres-tools"]
    ```
    """
    decl = ctx.decl
    if decl.tier != "marketplace" or decl.meta is None or not decl.meta.ok:
        return
    from skill_ls.core.mcp import agh_config, allowed_marketplace_mcp, skill_servers  # (here: rarely needed)

    servers = skill_servers(ctx.doc)
    if not servers:
        return
    allowed = allowed_marketplace_mcp(agh_config(ctx.index))
    if decl.meta.consent_keys() & allowed:
        return
    fm = ctx.doc.fm
    span = fm.fields["metadata"].key_span if fm and "metadata" in fm.fields else header_span(ctx.doc)
    slug = decl.meta.data.get("slug", "?")
    ctx.out.report(span, f"MCP server(s) {', '.join(sorted(servers))} of marketplace skill '{slug}' are blocked: add "
                   f"'{slug}' to skills.allowed_marketplace_mcp in $AGH_HOME/config.toml to allow them")
