"""Commands (docs/lsp-protocol.md): skillLs.renderCatalog, skillLs.where, skillLs.preview, skillLs.reindex,
skillLs.status, skillLs.listAgents. Each takes one object as its single argument and returns the
same JSON objects as the CLI; a failure is a JSON-RPC error carrying the CLI's one-line reason."""
from __future__ import annotations

import asyncio
import os
from typing import Any

from pygls.exceptions import JsonRpcException

from skill_ls.core.config import RUNTIME_IDS
from skill_ls.core.index import Index
from skill_ls.core.labels import where
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.runtimes import runtime_for_family

COMMAND_ERROR = -32602  # invalid params: the request named something that does not exist


class CommandError(JsonRpcException):
    CODE = COMMAND_ERROR


def _arg(args: tuple[Any, ...]) -> dict[str, Any]:
    if not args or args[0] is None:
        return {}
    if not isinstance(args[0], dict):
        raise CommandError("the command takes one object as its argument, e.g. {\"agent\": \"reviewer\"}")
    return args[0]


def _str_opt(arg: dict[str, Any], key: str) -> str | None:
    value = arg.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise CommandError(f"'{key}' must be a string")
    return value


def _runtime(index: Index, arg: dict[str, Any]) -> str:
    from skill_ls.core.runtimes import default_runtime

    runtime = _str_opt(arg, "runtime")
    if runtime is None or runtime == "auto":
        return default_runtime(index.active)
    if runtime not in RUNTIME_IDS:
        raise CommandError(f"unknown runtime '{runtime}' (known: auto, {', '.join(RUNTIME_IDS)})")
    return runtime


async def _index_for(ls, arg: dict[str, Any]):
    workspace = _str_opt(arg, "workspace")
    if workspace is None or os.path.abspath(workspace) == ls.state.workspace:
        return ls.state.index
    if not os.path.isdir(workspace):
        raise CommandError(f"workspace is not a directory: {workspace}")
    other = WorkspaceState(workspace, ls.state.environ)
    other.client_settings = ls.state.client_settings
    other.load_config()
    if other.config_error is not None:
        raise CommandError(str(other.config_error))
    return await asyncio.to_thread(other.build_index)


def register(server) -> None:
    @server.command("skillLs.renderCatalog")
    async def render_catalog(ls, *args):
        arg = _arg(args)
        if not await ls.wait_ready():
            raise CommandError("the index is not ready")
        index = await _index_for(ls, arg)
        agent = _str_opt(arg, "agent")
        runtime = _runtime(index, arg)
        if agent and _str_opt(arg, "runtime") in (None, "auto") and index.agent(agent) is not None:
            runtime = runtime_for_family(index.agent(agent).family)  # like the CLI: the agent's runtime
        from skill_ls.analysis.catalog import CatalogError, catalog_object  # written alongside; imported lazily

        try:
            return catalog_object(index, runtime, agent)
        except CatalogError as exc:
            raise CommandError(str(exc)) from None

    @server.command("skillLs.where")
    async def where_command(ls, *args):
        arg = _arg(args)
        name = _str_opt(arg, "name")
        if name is None:
            raise CommandError("skillLs.where needs {\"name\": ...}")
        if not await ls.wait_ready():
            raise CommandError("the index is not ready")
        index = ls.state.index
        runtime = _runtime(index, arg)
        agent = _str_opt(arg, "agent")
        if agent and index.agent(agent) is None:
            raise CommandError(f"no agent named '{agent}' in {index.workspace}")
        return where(index, runtime, name, agent)

    @server.command("skillLs.preview")
    async def preview_command(ls, *args):
        """{name, runtime?, agent?, arguments?, file?} -> what the runtime's skill tool returns
        (`skill-ls preview --format json`)."""
        arg = _arg(args)
        name = _str_opt(arg, "name")
        if name is None:
            raise CommandError("skillLs.preview needs {\"name\": ...}")
        if not await ls.wait_ready():
            raise CommandError("the index is not ready")
        index = await _index_for(ls, arg)
        from skill_ls.analysis.preview import PreviewError, preview_skill

        try:
            return preview_skill(index, _runtime(index, arg), name, _str_opt(arg, "agent"),
                                 _str_opt(arg, "arguments") or "", _str_opt(arg, "file")).as_json()
        except PreviewError as exc:
            raise CommandError(str(exc)) from None

    @server.command("skillLs.reindex")
    async def reindex(ls, *args):
        if ls.state is None:
            raise CommandError("the server is not initialised")
        await ls.request_reindex()
        summary = ls.state.summary()
        return {"skills": summary["skills"], "agents": summary["agents"]}

    @server.command("skillLs.status")
    async def status(ls, *args):
        if not await ls.wait_ready():
            raise CommandError("the index is not ready")
        summary = ls.state.summary()
        return {**summary, "workspace": ls.state.workspace}

    @server.command("skillLs.listAgents")
    async def list_agents(ls, *args):
        arg = _arg(args)
        if not await ls.wait_ready():
            raise CommandError("the index is not ready")
        index = ls.state.index
        runtime = _str_opt(arg, "runtime")
        if runtime is not None and runtime != "auto" and runtime not in RUNTIME_IDS:
            raise CommandError(f"unknown runtime '{runtime}' (known: auto, {', '.join(RUNTIME_IDS)})")
        agents = [{"name": a.name, "runtime": runtime_for_family(a.family), "path": a.path}
                  for a in index.agents if a.winner and (runtime in (None, "auto") or
                                                         runtime_for_family(a.family) == runtime)]
        return {"runtimes": index.active, "default_runtime": ls.state.default_runtime(), "agents": agents}
