"""Code actions: the quick fixes the rules attach to their findings (`Diagnostic.fix`)."""
from __future__ import annotations

from lsprotocol import types


def _overlaps(span, line_a: int, line_b: int) -> bool:
    return not (span.end_line < line_a or span.start_line > line_b)


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_action(ls, params: types.CodeActionParams):
        path = ls.path(params.text_document.uri)
        if path is None or not await ls.wait_ready(path):
            return None
        start, end = params.range.start.line, params.range.end.line
        wanted = {str(d.code) for d in (params.context.diagnostics if params.context else []) if d.code}
        actions = []
        for d in ls.state_for(path).diagnostics([path]).get(path, []):
            if d.fix is None or not d.fix.text_only or not _overlaps(d.span, start, end):
                # BOM removal, line endings and directory renames: only `skill-ls check --fix` applies those
                continue
            if wanted and d.code not in wanted:
                continue
            actions.append(types.CodeAction(
                title=d.fix.title, kind=types.CodeActionKind.QuickFix,
                diagnostics=[ls.converter.diagnostic(d, ls.src_of)],
                edit=types.WorkspaceEdit(changes=ls.converter.text_edits(d.fix, ls.src_of)),
                # Only a safe fix (one that keeps what the author meant) is the one to apply without a look.
                is_preferred=d.fix.safe and len(d.fix.edits) == 1))
        return actions
