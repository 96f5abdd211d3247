"""Quick fixes: the findings of a file whose rule attached a fix an editor can apply (text edits
only: BOM removal, line endings and directory renames are for `skill-ls check --fix`)."""
from __future__ import annotations

from collections.abc import Collection

from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.model import Diagnostic, Span


def _overlaps(span: Span, line_a: int, line_b: int) -> bool:
    return not (span.end_line < line_a or span.start_line > line_b)


def quick_fixes(state: WorkspaceState, path: str, start_line: int, end_line: int,
                codes: Collection[str] = ()) -> list[Diagnostic]:
    """The findings on lines start_line..end_line with a text-only fix (of `codes`, when given)."""
    out = []
    for d in state.diagnostics([path]).get(path, []):
        if d.fix is None or not d.fix.text_only or not _overlaps(d.span, start_line, end_line):
            continue
        if codes and d.code not in codes:
            continue
        out.append(d)
    return out


def preferred(d: Diagnostic) -> bool:
    """Only a safe fix of one edit (one that keeps what the author meant) is the one to apply without a look."""
    return d.fix is not None and d.fix.safe and len(d.fix.edits) == 1
