"""What the cursor is on, and which runtime/agent a file's names resolve under. Shared by the
hover, definition, references and code lens features; it only reads the core's values."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from skill_ls.core.index import Document
from skill_ls.analysis.navigation import SkillRef, ref_at, skill_refs
from skill_ls.core.resolve import NameResolution, resolve_name
from skill_ls.core.runtimes import RUNTIMES, runtime_for_family, scoping_for_family


@dataclass
class Cursor:
    uri: str
    path: str
    doc: Document
    line: int
    col: int  # code points


def cursor(ls, uri: str, position: types.Position) -> Cursor | None:
    path = ls.path(uri)
    if path is None or ls.state_for(path) is None or ls.state_for(path).index is None:
        return None
    doc = ls.document(path)
    if doc is None:
        return None
    line, col = ls.converter.from_position(doc.src, position)
    return Cursor(uri, path, doc, line, col)


def agent_of(ls, path: str):
    return ls.state_for(path).index.agent_at(path)


def refs_of(ls, path: str, doc: Document) -> list[SkillRef]:
    state = ls.state_for(path)
    if state.is_skill_file(path):
        decls = state.index.decls_for_path(path)
        declared = decls[0].name if decls else None
        return skill_refs(doc, is_skill=True, declared_name=declared)
    return skill_refs(doc, is_skill=False)


def ref_under(ls, cur: Cursor) -> SkillRef | None:
    return ref_at(refs_of(ls, cur.path, cur.doc), cur.line, cur.col)


def context_of(ls, path: str) -> tuple[list[str], str | None]:
    """(runtimes to resolve under, primary first; agent name or None) for names written in `path`."""
    state = ls.state_for(path)
    agent = agent_of(ls, path)
    if agent is not None:
        rid = runtime_for_family(agent.family)
        others = [r for r in state.index.active if r != rid]
        scoping = scoping_for_family(agent.family)
        per_agent = scoping is not None and scoping.per_agent_resolution
        return ([rid] if rid in state.index.active else []) + others, agent.name if per_agent else None
    decls = state.index.decls_for_path(path)
    local_agent = next((d.agent for d in decls if d.agent), None)
    rids = state.runtimes_for(path)
    rest = [r for r in state.index.active if r not in rids]
    if not rids:
        rest.sort(key=lambda r: r != state.default_runtime())
    return rids + rest, local_agent


def resolutions(ls, name: str, path: str) -> list[NameResolution]:
    """The name resolved under every active runtime that declares it, the file's own runtime first."""
    rids, agent = context_of(ls, path)
    out = []
    for rid in rids:
        res = resolve_name(ls.state_for(path).index, rid, name, agent)
        if res.entries and any(not d.builtin for d in res.entries) or (res.entries and rid == rids[0]):
            out.append(res)
    return out


def runtime_title(rid: str) -> str:
    rt = RUNTIMES.get(rid)
    return rt.title if rt else rid


async def cursor_at(ls, params) -> "tuple[Cursor] | None":
    """The cursor of a position request, once the index is ready (None when the document is unknown)."""
    if not await ls.wait_ready(ls.path(params.text_document.uri)):
        return None
    cur = cursor(ls, params.text_document.uri, params.position)
    return None if cur is None else (cur,)


async def at_position(ls, params) -> "tuple[Cursor, SkillRef | None] | None":
    """What a position request is about, once the index is ready: the cursor and the skill
    reference under it (None when the document is unknown or the index is not ready)."""
    found = await cursor_at(ls, params)
    if found is None:
        return None
    return found[0], ref_under(ls, found[0])


async def name_at(ls, params) -> tuple[Cursor, SkillRef] | None:
    """The cursor and the skill name under it, or None when there is no name there."""
    found = await at_position(ls, params)
    if found is None or found[1] is None:
        return None
    return found[0], found[1]


async def markdown_document(ls, params) -> "tuple[str, Document] | None":
    """(path, document) of a skill or agent Markdown file once the index is ready, else None."""
    path = ls.path(params.text_document.uri)
    if not await ls.wait_ready(path):
        return None
    doc = ls.document(path) if path else None
    if doc is None or not path.endswith(".md"):
        return None
    return path, doc


Lookup = Callable[[Any, Any], Awaitable["tuple[Any, ...] | None"]]


def feature_about(server, method: str, about: Lookup, options: Any = None) -> Callable[[Callable[..., Any]], Any]:
    """Register `handler(ls, params, *found)` for the request `method`, where `found` is what
    `about(ls, params)` (`cursor_at`, `at_position`, `name_at`, `markdown_document`) says the
    request is about; where it finds nothing the answer is None and the handler is not called."""
    def register(handler: Callable[..., Any]) -> Callable[..., Any]:
        @server.feature(method, options)
        async def feature(ls, params):
            found = await about(ls, params)
            return None if found is None else handler(ls, params, *found)
        return handler
    return register
