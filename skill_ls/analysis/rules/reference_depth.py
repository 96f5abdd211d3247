"""RF004: references nested more than one level deep (a reference file that links further files)."""
from __future__ import annotations

import os
import stat

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import FileContext
from skill_ls.core.body import Reference, local_links
from skill_ls.core.model import Severity
from skill_ls.core.paths import is_under

MAX_SIZE = 512 * 1024  # a reference file larger than this is not scanned


@rule("RF004", Severity.INFORMATION, "file")
def nested_reference(ctx: FileContext) -> None:
    """A file SKILL.md links to links further files of the skill (references more than one level deep).

    ## What it does
    For each Markdown file inside the skill that SKILL.md links to, looks for links (outside fenced
    code) to other files of the skill, and reports the SKILL.md link with the files reached only
    through it. Links to other skills (`SKILL.md` files of nested skills) are not references.

    ## Why is this bad?
    Models read a reference file when SKILL.md points at it, but often only preview files that are
    referenced from other references (`head -100`), so instructions two levels down are read partly
    or not at all. Keep every reference one level deep from SKILL.md.

    ## Example
    SKILL.md links `reference/guide.md`, which links `reference/details.md`.
    Use instead: link `reference/details.md` from SKILL.md too (or merge it into the guide).

    ## Source
    https://platform.claude.com/docs/en/agents-and-tools/agent-skills/best-practices ("Avoid deeply nested references").
    """
    doc, index = ctx.doc, ctx.index
    if index is None or doc.read_error or doc.fm is None or not doc.fm.ok:
        return
    skill_dir = doc.directory
    direct: dict[str, Reference] = {}
    for ref, local in local_links(doc, scanned=True):
        # Through the index's resolver: a target that escapes the skill (.., a symlink out) is never opened.
        path, escape = index.references.resolve(skill_dir, local)
        if path is not None and escape is None and path != doc.path:
            direct.setdefault(path, ref)
    for path, ref in direct.items():
        if not path.endswith(".md") or os.path.basename(path) == "SKILL.md":
            continue
        st = ctx.disk.stat(path)
        if st is None or not stat.S_ISREG(st.st_mode) or st.st_size > MAX_SIZE:
            continue  # not a file, or too large to scan
        nested = []
        for _, local in local_links(index.store.get(path)):
            rel_inner = os.path.relpath(os.path.join(os.path.dirname(path), local), skill_dir)
            target, escape = index.references.resolve(skill_dir, rel_inner)
            if target is None or escape is not None:
                continue
            if (is_under(target, skill_dir) and target not in direct and os.path.basename(target) != "SKILL.md" and target != doc.path and target != path
                    and ctx.disk.is_file(target)):
                rel = os.path.relpath(target, skill_dir)
                if rel not in nested:
                    nested.append(rel)
        if nested:
            shown = ", ".join(nested[:3]) + (f" and {len(nested) - 3} more" if len(nested) > 3 else "")
            ctx.out.report(ref.span, f"'{os.path.relpath(path, skill_dir)}' links further files that SKILL.md does not "
                           f"link ({shown}); keep references one level deep from SKILL.md")
