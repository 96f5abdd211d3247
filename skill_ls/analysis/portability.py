"""The portability matrix: for every skill, one verdict per runtime (and claude.ai upload).

Verdicts: `loads`, `warnings` (loads with warnings), `fails` (does not load) and `not_read` (the file
is under other runtimes' roots, not this one's), each with a one-line reason. A runtime that reads the
file is judged on its real declaration (tier, blocking, discovery); a skill under no runtime root is
judged as if installed in each runtime. The same rules as `check` decide: a runtime's findings are
the diagnostics for that runtime plus the file-level ones, so the matrix and the editor agree.
"""
from __future__ import annotations

import os
from typing import Any

from skill_ls.analysis.check import Checker
from skill_ls.core.index import Index, SkillDecl, blocked_reason
from skill_ls.core.model import Diagnostic, Severity
from skill_ls.core.records import dataclass, field
from skill_ls.core.runtimes import BASE_RUNTIME, PLUGIN_RUNTIME, RUNTIMES

UPLOAD = "claude-ai"
UPLOAD_TITLE = "claude.ai upload"
SYMBOL = {"loads": "✓", "warnings": "⚠", "fails": "✗", "not_read": "·"}
TEXT = {"loads": "loads", "warnings": "loads with warnings", "fails": "does not load", "not_read": "not read"}
# Upload-only findings (claude.ai and the Skills API), and notes that never change a verdict.
UPLOAD_CODES = ("PT002", "PT003")
NOTE_CODES = ("PT001",)


@dataclass
class Verdict:
    column: str
    title: str
    status: str  # loads | warnings | fails | not_read
    reason: str = ""

    def line(self) -> str:
        return f"{self.title} {SYMBOL[self.status]} {self.reason or TEXT[self.status]}"


@dataclass
class Row:
    path: str
    name: str
    standalone: bool
    verdicts: list[Verdict] = field(default_factory=list)


def columns() -> list[tuple[str, str]]:
    return [(rid, rt.title) for rid, rt in RUNTIMES.items()] + [(UPLOAD, UPLOAD_TITLE)]


def _short(d: Diagnostic) -> str:
    message = " ".join(d.message.split())
    return f"{d.code} {message if len(message) <= 90 else message[:87] + '...'}"


def _for_runtime(diags: list[Diagnostic], rid: str) -> list[Diagnostic]:
    out = []
    for d in diags:
        if d.code in NOTE_CODES or d.code in UPLOAD_CODES or d.severity > Severity.WARNING:
            continue
        if d.runtime is None or rid in d.runtime.split(","):
            out.append(d)
    return sorted(out, key=lambda d: (d.severity, d.span.start_line, d.code))


def _judge(rid: str, title: str, decl: SkillDecl | None, blocked: str | None, diags: list[Diagnostic],
           index: Index | None = None) -> Verdict:
    if decl is not None and decl.undiscovered:
        return Verdict(rid, title, "fails", f"not discovered: {decl.undiscovered}")
    if blocked:
        return Verdict(rid, title, "fails", blocked)
    if decl is not None and decl.root is not None and index is not None:
        from skill_ls.core.resolve import resolve_name

        res = resolve_name(index, rid, decl.name, decl.agent)
        if decl not in res.loaded and res.winner is not None and res.winner is not decl:
            where = index.display_path(res.winner.path) if res.winner.path else "a built-in skill"
            return Verdict(rid, title, "fails", f"shadowed by the {res.winner.tier_label} copy {where}")
    found = _for_runtime(diags, rid)
    if found:
        return Verdict(rid, title, "warnings", _short(found[0]))
    return Verdict(rid, title, "loads")


def skill_row(checker: Checker, path: str) -> Row:
    """One skill's verdicts (runs the rules for this file; nothing is written or executed)."""
    index = checker.index
    doc = index.store.get(path)
    real: dict[str, SkillDecl] = {}
    for d in index.decls_for_path(path):  # (the index's table: not a scan of every declaration)
        real.setdefault(d.runtime, d)
    from skill_ls.core.plugins import plugin_of

    plugin = plugin_of(path, "skills") if not real else None
    if plugin is not None:
        real[PLUGIN_RUNTIME] = SkillDecl(path, PLUGIN_RUNTIME, None, "plugin", f"{plugin.name}:{doc.dir_name}", doc=doc)
    standalone = not real
    name = doc.fm.value("name") if doc.fm is not None and doc.fm.ok else None
    row = Row(path, name if isinstance(name, str) and name else doc.dir_name, standalone)
    if real:
        diags = checker.check_skill_file(path, list(real.values()))
        for rid, title in columns()[:-1]:
            decl = real.get(rid)
            if decl is None and rid not in index.roots and _under_a_root(index, rid, path):
                # Under a root of a runtime that is not active here (none of its own directories
                # exists): judged as that runtime would read it, without precedence.
                alone = SkillDecl(path, rid, None, "standalone", doc.dir_name, doc=doc)
                row.verdicts.append(_judge(rid, title, None, blocked_reason(doc, RUNTIMES[rid]),
                                           checker.check_skill_file(path, [alone])))
            elif decl is None:
                row.verdicts.append(Verdict(rid, title, "not_read", f"not under any {title} root"))
            else:
                row.verdicts.append(_judge(rid, title, decl, decl.blocked or (
                    blocked_reason(doc, RUNTIMES[rid]) if decl.root is None else None), diags, index))
    else:
        for rid, title in columns()[:-1]:
            decl = SkillDecl(path, rid, None, "standalone", doc.dir_name, doc=doc)
            diags = checker.check_skill_file(path, [decl])
            row.verdicts.append(_judge(rid, title, None, blocked_reason(doc, RUNTIMES[rid]), diags))
    row.verdicts.append(_upload_verdict(checker, path, doc))
    return row


def _under_a_root(index: Index, rid: str, path: str) -> bool:
    """Whether `path` lies under one of `rid`'s roots for this workspace (active or not)."""
    from skill_ls.core.discovery import runtime_roots
    from skill_ls.core.paths import is_under

    key = ("runtime_roots", rid)  # (once per state of the index: hover asks for every runtime)
    roots = index.derived.get(key)
    if roots is None:
        roots = index.derived[key] = runtime_roots(RUNTIMES[rid], index.workspace, index.env, index.config,
                                                   index.walker)
    return any(is_under(path, r.path) for r in roots)


def _upload_verdict(checker: Checker, path: str, doc: Any) -> Verdict:
    """claude.ai upload and the Skills API: the standard's name and description rules plus PT002/PT003."""
    decl = SkillDecl(path, BASE_RUNTIME, None, "standalone", doc.dir_name, doc=doc)
    diags = checker.check_skill_file(path, [decl])
    for d in diags:
        if d.code in UPLOAD_CODES:
            return Verdict(UPLOAD, UPLOAD_TITLE, "fails", d.message.split("✗", 1)[-1].split(":")[0].strip())
    blocked = blocked_reason(doc, RUNTIMES[BASE_RUNTIME])
    if blocked:
        return Verdict(UPLOAD, UPLOAD_TITLE, "fails", blocked)
    for d in diags:
        if d.code in ("SK008", "SK010") and (d.runtime or BASE_RUNTIME) == BASE_RUNTIME:
            return Verdict(UPLOAD, UPLOAD_TITLE, "fails", _short(d))
    return Verdict(UPLOAD, UPLOAD_TITLE, "loads")


def matrix(index: Index, paths: list[str]) -> list[Row]:
    checker = Checker(index)
    files = [f for f in checker.files_in_scope(paths) if os.path.basename(f) == "SKILL.md"]
    return [skill_row(checker, f) for f in files]


def hover_lines(index: Index, path: str) -> list[str]:
    """The verdicts of one skill as Markdown list lines (hover)."""
    row = skill_row(Checker(index), path)
    head = "**Portability**" + (" (not under any root: as if installed in each)" if row.standalone else "")
    return [head, ""] + [f"- {v.line()}" for v in row.verdicts]


# -- presenters -------------------------------------------------------------------------------------
def as_json(rows: list[Row], display: Any) -> dict[str, Any]:
    return {
        "columns": [{"id": c, "title": t} for c, t in columns()],
        "skills": [{"path": display(r.path), "name": r.name, "standalone": r.standalone,
                    "verdicts": {v.column: {"status": v.status, "reason": v.reason} for v in r.verdicts}}
                   for r in rows],
    }


def as_text(rows: list[Row], display: Any) -> str:
    cols = columns()
    paths = [display(r.path) for r in rows]
    width = max([len(p) for p in paths] + [5])
    heads = [t for _, t in cols]
    out = ["SKILL".ljust(width) + "  " + "  ".join(heads)]
    for row, shown in zip(rows, paths):
        cells = [SYMBOL[v.status].center(len(h)) for v, h in zip(row.verdicts, heads)]
        out.append(shown.ljust(width) + "  " + "  ".join(cells).rstrip())
        for v in row.verdicts:
            if v.status in ("warnings", "fails"):
                out.append(" " * 4 + v.line())
    out.append("")
    out.append("✓ loads  ⚠ loads with warnings  ✗ does not load  · not read (not under that runtime's roots)")
    return "\n".join(out) + "\n"


def as_markdown(rows: list[Row], display: Any) -> str:
    cols = columns()
    out = ["| skill | " + " | ".join(t for _, t in cols) + " |", "|---|" + "---|" * len(cols)]
    for row in rows:
        cells = []
        for v in row.verdicts:
            cells.append(SYMBOL[v.status] + (f" {v.reason}" if v.status in ("warnings", "fails") else "")
                         .replace("|", "\\|"))
        out.append(f"| `{display(row.path)}` | " + " | ".join(cells) + " |")
    out.append("")
    out.append("✓ loads · ⚠ loads with warnings · ✗ does not load · · not read (not under that runtime's roots)")
    return "\n".join(out) + "\n"
