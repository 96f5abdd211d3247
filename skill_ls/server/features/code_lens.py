"""Code lens over a skill's frontmatter: "winner · workspace — shadows 2" per runtime that reads it."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.core.model import Span
from skill_ls.core.labels import label_decl
from skill_ls.core.resolve import resolve_name
from skill_ls.server.lookup import runtime_title


def lens_titles(ls, path: str) -> list[tuple[str, dict[str, str]]]:
    """One title per declaration of the file, with the `skillLs.where` argument that lists its copies:
    the folder it belongs to included, so that in a multi-root session running the lens answers for
    the lens's own folder, not the first one."""
    state = ls.state_for(path)
    index = state.index
    out = []
    decls = index.decls_for_path(path)
    multi = len({d.runtime for d in decls}) > 1
    for decl in decls:
        res = resolve_name(index, decl.runtime, decl.name, decl.agent)
        prefix = f"{runtime_title(decl.runtime)}: " if multi else ""
        title = prefix + label_decl(res, decl).summary
        arg = {"name": decl.name, "runtime": decl.runtime, "workspace": state.workspace}
        if decl.agent:
            arg["agent"] = decl.agent
        out.append((title, arg))
    return out


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(ls, params: types.CodeLensParams):
        path = ls.path(params.text_document.uri)
        if not await ls.wait_ready(path):
            return None
        doc = ls.document(path) if path else None
        if doc is None or not ls.state_for(path).is_skill_file(path):
            return None
        line = doc.fm.open_line if doc.fm is not None and doc.fm.open_line is not None else 0
        rng = ls.converter.range(doc.src, Span(line, 0, line, 0))
        return [types.CodeLens(range=rng, command=types.Command(title=title, command="skillLs.where", arguments=[arg]))
                for title, arg in lens_titles(ls, path)]
