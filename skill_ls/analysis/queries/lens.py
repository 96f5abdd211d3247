"""Code lens over a skill's frontmatter: "winner · workspace — shadows 2" per runtime that reads it."""
from __future__ import annotations


from skill_ls.analysis.queries.scope import document, index_of, runtime_title
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.labels import label_decl
from skill_ls.core.records import dataclass, field
from skill_ls.core.resolve import resolve_name


@dataclass(frozen=True)
class Lens:
    """One lens: its line (the opening `---`), its title, and the `skillLs.where` argument that lists
    the copies it is about (the folder included, so that in a multi-root session running it answers
    for the lens's own folder, not the first one)."""
    line: int
    title: str
    where: dict[str, str] = field(default_factory=dict)


def code_lenses(state: WorkspaceState, path: str) -> list[Lens] | None:
    """One lens per declaration of a skill file (None for a file that is not a skill)."""
    doc = document(state, path)
    if doc is None or not state.is_skill_file(path):
        return None
    line = doc.fm.open_line if doc.fm is not None and doc.fm.open_line is not None else 0
    index = index_of(state)
    out = []
    decls = index.decls_for_path(path)
    multi = len({d.runtime for d in decls}) > 1
    for decl in decls:
        res = resolve_name(index, decl.runtime, decl.name, decl.agent)
        prefix = f"{runtime_title(decl.runtime)}: " if multi else ""
        arg = {"name": decl.name, "runtime": decl.runtime, "workspace": state.workspace}
        if decl.agent:
            arg["agent"] = decl.agent
        out.append(Lens(line, prefix + label_decl(res, decl).summary, arg))
    return out
