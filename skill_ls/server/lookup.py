"""What a request is about, once the index that answers it is ready: the folder's state, the path
and the position in code points. Shared by the features; the answers come from
`skill_ls.analysis.queries`, this module only routes the request to its folder and converts the
position."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types

from skill_ls.analysis.navigation import SkillRef
from skill_ls.analysis.queries.scope import ref_under
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import Document
from skill_ls.core.records import dataclass


@dataclass
class Cursor:
    uri: str
    path: str
    state: WorkspaceState  # the folder that answers for the file
    doc: Document
    line: int
    col: int  # code points


def cursor(ls, uri: str, position: types.Position) -> Cursor | None:
    path = ls.path(uri)
    state = ls.state_for(path) if path is not None else None
    if state is None or state.index is None:
        return None
    doc = ls.document(path)
    if doc is None:
        return None
    line, col = ls.converter.from_position(doc.src, position)
    return Cursor(uri, path, state, doc, line, col)


async def cursor_at(ls, params) -> "tuple[Cursor] | None":
    """The cursor of a position request, once the index is ready (None when the document is unknown)."""
    if not await ls.wait_ready(ls.path(params.text_document.uri)):
        return None
    cur = cursor(ls, params.text_document.uri, params.position)
    return None if cur is None else (cur,)


async def name_at(ls, params) -> tuple[Cursor, SkillRef] | None:
    """The cursor and the skill name under it, or None when there is no name there."""
    found = await cursor_at(ls, params)
    if found is None:
        return None
    cur = found[0]
    ref = ref_under(cur.state, cur.path, cur.line, cur.col)
    return None if ref is None else (cur, ref)


async def document_at(ls, params) -> "tuple[WorkspaceState, str, Document] | None":
    """(folder state, path, document) of a document request once the index is ready, else None."""
    path = ls.path(params.text_document.uri)
    if not await ls.wait_ready(path):
        return None
    doc = ls.document(path) if path else None
    if doc is None:
        return None
    return ls.state_for(path), path, doc


async def markdown_document(ls, params) -> "tuple[WorkspaceState, str, Document] | None":
    """Like `document_at`, for a skill or agent Markdown file only."""
    found = await document_at(ls, params)
    return found if found is not None and found[1].endswith(".md") else None


Lookup = Callable[[Any, Any], Awaitable["tuple[Any, ...] | None"]]


def feature_about(server, method: str, about: Lookup, options: Any = None) -> Callable[[Callable[..., Any]], Any]:
    """Register `handler(ls, params, *found)` for the request `method`, where `found` is what
    `about(ls, params)` (`cursor_at`, `name_at`, `document_at`, `markdown_document`) says the
    request is about; where it finds nothing the answer is None and the handler is not called."""
    def register(handler: Callable[..., Any]) -> Callable[..., Any]:
        @server.feature(method, options)
        async def feature(ls, params):
            found = await about(ls, params)
            return None if found is None else handler(ls, params, *found)
        return handler
    return register
