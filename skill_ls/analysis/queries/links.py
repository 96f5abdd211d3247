"""Document links and the paths under a position (rust-analyzer's `ide` style: plain values).

`document_links`: a skill's relative file references that resolve (`navigation.file_links`), the paths a
Claude Code `plugin.json` or `marketplace.json` names (`navigation.plugin_links`), and the scripts the
hooks of a hooks file, settings file, `plugin.json` or a skill's, command's or subagent's frontmatter
run where their path is certain and the script exists (`rules.hooks.hook_script_links`, HK003's
resolution). `link_under`: the one of them under a position (go-to-definition)."""
from __future__ import annotations

from skill_ls.analysis.navigation import FileLink, file_links, plugin_links
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import Document


def document_links(state: WorkspaceState, path: str, doc: Document) -> list[FileLink]:
    from skill_ls.analysis.rules.hooks import hook_script_links

    out = file_links(doc, state.index) if path.endswith(".md") else plugin_links(doc)
    if state.index is not None:
        out = out + [FileLink(span, target) for span, target in hook_script_links(state.index, path)]
    return sorted(out, key=lambda link: (link.span.start_line, link.span.start_col))


def link_under(state: WorkspaceState, path: str, doc: Document, line: int, col: int) -> FileLink | None:
    """The path under the position (line and code point column, 0-based) that go-to-definition follows:
    a path a `plugin.json` or `marketplace.json` names, or a hook's script (a Markdown body's links are
    followed as document links only)."""
    from skill_ls.analysis.navigation import link_at
    from skill_ls.analysis.rules.hooks import hook_script_links

    if not path.endswith(".md"):
        found = link_at(doc, line, col)
        if found is not None:
            return found
    for span, target in hook_script_links(state.index, path) if state.index is not None else []:
        if (span.start_line, span.start_col) <= (line, col) <= (span.end_line, span.end_col):
            return FileLink(span, target)
    return None
