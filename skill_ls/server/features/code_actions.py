"""Code actions (`analysis.queries.actions`): the quick fixes the rules attach to their findings."""
from __future__ import annotations

from lsprotocol import types

from skill_ls.analysis.queries.actions import preferred, quick_fixes


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_action(ls, params: types.CodeActionParams):
        path = ls.path(params.text_document.uri)
        if path is None or not await ls.wait_ready(path):
            return None
        wanted = {str(d.code) for d in (params.context.diagnostics if params.context else []) if d.code}
        found = quick_fixes(ls.state_for(path), path, params.range.start.line, params.range.end.line, wanted)
        return [types.CodeAction(
            title=d.fix.title, kind=types.CodeActionKind.QuickFix,
            diagnostics=[ls.converter.diagnostic(d, ls.src_of)],
            edit=types.WorkspaceEdit(changes=ls.converter.text_edits(d.fix, ls.src_of)),
            is_preferred=preferred(d)) for d in found if d.fix is not None]
