"""Commands (docs/lsp-protocol.md): skillLs.renderCatalog, skillLs.where, skillLs.preview, skillLs.reindex,
skillLs.status, skillLs.listAgents, skillLs.listSkills, skillLs.portability, skillLs.explain. Each takes one object as its single argument (`workspace`: the
folder it is about, a path or file URI, or any path inside the folder; default the first folder) and
returns the same JSON objects as the CLI; a failure is a JSON-RPC error carrying the CLI's one-line reason."""
from __future__ import annotations

import asyncio
import os
from typing import Any

from pygls.exceptions import JsonRpcException

from skill_ls.core.config import RUNTIME_IDS
from skill_ls.core.index import Index
from skill_ls.core.labels import where
from skill_ls.analysis.queries.scope import choose_runtime
from skill_ls.server.convert import path_of
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
    """The runtime asked for, chosen as the CLI chooses it (`queries.scope.choose_runtime`)."""
    runtime = _str_opt(arg, "runtime")
    if runtime is not None and runtime != "auto" and runtime not in RUNTIME_IDS:
        raise CommandError(f"unknown runtime '{runtime}' (known: auto, {', '.join(RUNTIME_IDS)})")
    agent = _str_opt(arg, "agent")
    if agent and index.agent(agent) is None:
        raise _no_agent(index, agent)
    return choose_runtime(index, runtime, agent)


def _target(arg: dict[str, Any]) -> str | None:
    """The folder argument: `workspace` (a folder, or any file or directory inside one), as a path
    or a `file://` URI; `uri` (the active document's URI) is accepted as a fallback."""
    value = _str_opt(arg, "workspace") or _str_opt(arg, "uri")
    if value is None:
        return None
    if "://" in value:
        path = path_of(value)
        if path is None:
            raise CommandError(f"not a file URI: {value}")
        value = path
    return os.path.abspath(os.path.expanduser(value))


async def _state_for(ls, arg: dict[str, Any]) -> WorkspaceState:
    """The workspace folder a command is about: the one named (or containing the path named),
    else the first folder; a directory outside every folder is indexed on the fly."""
    target = _target(arg)
    if target is not None and target not in ls.states and not ls.in_some_folder(target):
        if not os.path.isdir(target):
            raise CommandError(f"workspace is not a directory and not in a workspace folder: {target}")
        other = WorkspaceState(target, ls.live_state.environ)
        other.client_settings = ls.live_state.client_settings
        other.load_config()
        if other.config_error is not None:
            raise CommandError(str(other.config_error))
        other.install(await asyncio.to_thread(other.build_index))
        return other
    if not await ls.wait_ready(target):
        raise CommandError("the index is not ready")
    state: WorkspaceState | None = ls.state_for(target)
    if state is None or state.index is None:
        raise CommandError("the index is not ready")
    return state


async def _index_for(ls, arg: dict[str, Any]) -> Index:
    index = (await _state_for(ls, arg)).index
    assert index is not None
    return index


def _index_for_state(state: WorkspaceState) -> Index:
    assert state.index is not None
    return state.index


def _no_agent(index: Index, agent: str) -> CommandError:
    return CommandError(f"no agent named '{agent}' in {index.workspace}")


def register(server) -> None:
    @server.command("skillLs.renderCatalog")
    async def render_catalog(ls, *args):
        arg = _arg(args)
        index = await _index_for(ls, arg)
        agent = _str_opt(arg, "agent")
        runtime = _runtime(index, arg)
        from skill_ls.analysis.catalog import CatalogError, catalog_object  # written alongside; imported lazily

        try:
            return catalog_object(index, runtime, agent)
        except CatalogError as exc:
            raise CommandError(str(exc)) from None

    @server.command("skillLs.where")
    async def where_command(ls, *args):
        """{name, runtime?, agent?, workspace?, path?}: `path` (a file, path or URI) answers under that
        file's runtime and agent when `runtime` is not given."""
        arg = _arg(args)
        name = _str_opt(arg, "name")
        if name is None:
            raise CommandError("skillLs.where needs {\"name\": ...}")
        file = _str_opt(arg, "path")
        if file is not None and "://" in file:
            file = path_of(file)
        if file is not None and _str_opt(arg, "workspace") is None:
            arg = {**arg, "workspace": file}
        index = await _index_for(ls, arg)
        runtime = _runtime(index, arg)
        agent = _str_opt(arg, "agent")
        if file is not None and _str_opt(arg, "runtime") in (None, "auto"):
            # Asked about a file (Show Skill Shadows on the active editor): its own runtime and agent,
            # as its code lens and hover answer, not the folder's default runtime.
            from skill_ls.analysis.queries.scope import name_scope

            state = await _state_for(ls, arg)
            scope = name_scope(state, os.path.abspath(file))
            runtime = scope.runtimes[0] if scope.runtimes else runtime
            agent = agent or scope.agent
        return where(index, runtime, name, agent)

    @server.command("skillLs.preview")
    async def preview_command(ls, *args):
        """{name, runtime?, agent?, arguments?, file?} -> what the runtime's skill tool returns
        (`skill-ls preview --format json`)."""
        arg = _arg(args)
        name = _str_opt(arg, "name")
        if name is None:
            raise CommandError("skillLs.preview needs {\"name\": ...}")
        index = await _index_for(ls, arg)
        from skill_ls.analysis.preview import PreviewError, preview_skill

        try:
            return preview_skill(index, _runtime(index, arg), name, _str_opt(arg, "agent"),
                                 _str_opt(arg, "arguments") or "", _str_opt(arg, "file")).as_json()
        except PreviewError as exc:
            raise CommandError(str(exc)) from None

    @server.command("skillLs.reindex")
    async def reindex(ls, *args):
        if not ls.states:
            raise CommandError("the server is not initialised")
        await ls.request_reindex()
        summary = ls.index_summary()
        return {"skills": summary["skills"], "agents": summary["agents"]}

    @server.command("skillLs.status")
    async def status(ls, *args):
        arg = _arg(args)
        state = await _state_for(ls, arg)
        summary = ls.index_summary()
        activity = {"scheduled": ls.scheduled(), "changes_seen": ls.changes_seen}
        if _target(arg) is None:  # every folder: counts over all, the first folder's path
            return {**{k: summary[k] for k in ("skills", "agents", "runtimes", "catalog", "folders")},
                    "workspace": state.workspace, **activity}
        folder = next((f for f in summary["folders"] if f["workspace"] == state.workspace), None)
        catalog = folder["catalog"] if folder is not None else state.catalog_fingerprint()
        return {**state.summary(), "catalog": catalog, "workspace": state.workspace, **activity}

    @server.command("skillLs.listAgents")
    async def list_agents(ls, *args):
        arg = _arg(args)
        state = await _state_for(ls, arg)
        index = _index_for_state(state)
        runtime = _str_opt(arg, "runtime")
        if runtime is not None and runtime != "auto" and runtime not in RUNTIME_IDS:
            raise CommandError(f"unknown runtime '{runtime}' (known: auto, {', '.join(RUNTIME_IDS)})")
        agents = [{"name": a.name, "runtime": runtime_for_family(a.family), "path": a.path}
                  for a in index.agents if a.winner and (runtime in (None, "auto") or
                                                         runtime_for_family(a.family) == runtime)]
        return {"runtimes": index.active, "default_runtime": state.default_runtime(), "agents": agents}

    @server.command("skillLs.listSkills")
    async def list_skills(ls, *args):
        """{runtime?, agent?, workspace?} -> the effective set (`skill-ls list --format json`):
        {runtime, agent, skills: [{name, tier, runtime, path, disabled, description}]}."""
        arg = _arg(args)
        index = await _index_for(ls, arg)
        runtime = _runtime(index, arg)
        agent = _str_opt(arg, "agent")
        if agent and index.agent(agent) is None:
            raise _no_agent(index, agent)
        from skill_ls.analysis.effective import EffectiveSetError, resolve_effective_set

        try:
            eff = resolve_effective_set(index, runtime, agent)
        except EffectiveSetError as exc:
            raise CommandError(str(exc)) from None
        skills = []
        for s in eff.skills:
            description = s.field("description")
            skills.append({"name": s.name, "tier": s.tier, "runtime": runtime,
                           "path": None if s.decl.builtin else s.path, "builtin": s.decl.builtin,
                           "disabled": s.disabled, "description": description if isinstance(description, str) else None})
        return {"runtime": runtime, "agent": agent, "skills": skills}

    @server.command("skillLs.portability")
    async def portability(ls, *args):
        """{path?, workspace?} -> `skill-ls portability --format json` of one skill file or directory
        (default: the folder), plus `text` (the command's text table)."""
        arg = _arg(args)
        state = await _state_for(ls, arg)
        index = _index_for_state(state)
        path = _str_opt(arg, "path")
        if path is not None and "://" in path:
            path = path_of(path)
        target = os.path.abspath(path) if path else state.workspace
        if not os.path.exists(target) and ls.document(target) is None:
            raise CommandError(f"path does not exist: {target}")
        from skill_ls.analysis.portability import as_json, as_text, matrix

        rows = await asyncio.to_thread(matrix, index, [target])
        return {**as_json(rows, index.display_path), "text": as_text(rows, index.display_path)}

    @server.command("skillLs.explain")
    async def explain(ls, *args):
        """{code?} -> one rule's documentation ({code, name, severity, fix, summary, url, markdown}),
        or, without a code, {rules: [{code, name, severity, summary}]}."""
        arg = _arg(args)
        from skill_ls.analysis.rule_docs import doc_url, rule_markdown
        from skill_ls.analysis.rules import all_rules

        rules = all_rules()
        code = _str_opt(arg, "code")
        if code is None:
            return {"rules": [{"code": r.code, "name": r.name, "severity": r.severity.label, "summary": r.summary}
                              for r in rules.values()]}
        r = rules.get(code.upper())
        if r is None:
            raise CommandError(f"unknown rule code '{code}' (see 'skill-ls rules')")
        return {"code": r.code, "name": r.name, "severity": r.severity.label, "fix": r.fix, "summary": r.summary,
                "url": doc_url(r.code), "markdown": rule_markdown(r, level=1)}
