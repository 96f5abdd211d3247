"""Core and query values → LSP values. The only place that knows both the analysis's plain values
(`skill_ls.core.model`, `skill_ls.analysis.queries`) and `lsprotocol`.

Core spans count code points; the client counts in the negotiated position encoding (UTF-16 unless
the client offered UTF-8 or UTF-32 first), so every conversion goes through the document's lines.
"""
from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote, unquote_to_bytes, urlsplit

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from skill_ls.analysis.queries.completion import CompletionItem, CompletionKind
from skill_ls.analysis.queries.goto import Location
from skill_ls.analysis.queries.hover import Hover
from skill_ls.analysis.queries.lens import Lens
from skill_ls.analysis.queries.symbols import Symbol, SymbolKind, WorkspaceSymbol
from skill_ls.analysis.rule_docs import doc_url
from skill_ls.core.model import Diagnostic, Span
from skill_ls.core.parse.text import SourceText

SOURCE = "skill-ls"


def uri_of(path: str) -> str:
    """A file URI for a path. A name that is not UTF-8 (surrogateescape) is percent-encoded from its
    real bytes (`%FF`); pygls's `from_fs_path` raises on it, which once aborted a whole publish."""
    try:
        return from_fs_path(path) or f"file://{path}"
    except UnicodeError:
        return "file://" + quote(os.fsencode(path))


def path_of(uri: str) -> str | None:
    """The file system path of a `file:` URI; percent-escapes that are not UTF-8 come back as the
    same bytes (so `uri_of(path_of(u))` round-trips), where pygls would substitute U+FFFD."""
    if not isinstance(uri, str) or not uri.startswith("file:"):
        return None
    try:
        path = to_fs_path(uri)
        if path is not None and "\ufffd" in path and "%" in uri:
            raw = unquote_to_bytes(urlsplit(uri).path)
            path = os.path.normpath(os.fsdecode(raw)) if raw.startswith(b"/") else path
        return path
    except Exception:
        return None


COMPLETION_KINDS: dict[CompletionKind, types.CompletionItemKind] = {
    "field": types.CompletionItemKind.Property, "value": types.CompletionItemKind.EnumMember,
    "skill": types.CompletionItemKind.Module, "tool": types.CompletionItemKind.Value}
SYMBOL_KINDS: dict[SymbolKind, types.SymbolKind] = {
    "skill": types.SymbolKind.Module, "agent": types.SymbolKind.Class, "field": types.SymbolKind.Property,
    "heading": types.SymbolKind.String}


class Converter:
    def __init__(self, encoding: str = "utf-16"):
        self.encoding = str(getattr(encoding, "value", encoding) or "utf-16").lower()

    # -- columns ---------------------------------------------------------------------------------
    def to_client_col(self, src: SourceText, line: int, col: int) -> int:
        if self.encoding == "utf-32":
            return col
        if self.encoding == "utf-8":
            return len(src.line_text(line)[:col].encode("utf-8", "surrogatepass"))
        return src.utf16_col(line, col)

    def from_client_col(self, src: SourceText, line: int, units: int) -> int:
        text = src.line_text(line)
        if self.encoding == "utf-32":
            return min(max(units, 0), len(text))
        return src.col_from_units(line, units, utf8=self.encoding == "utf-8")

    def from_position(self, src: SourceText, pos: types.Position) -> tuple[int, int]:
        """Client position → (line, code point col), clamped into the document."""
        line = min(max(pos.line, 0), max(src.line_count - 1, 0))
        if pos.line >= src.line_count:
            return line, len(src.line_text(line))
        return line, self.from_client_col(src, line, pos.character)

    # -- ranges ------------------------------------------------------------------------------------
    def range(self, src: SourceText | None, span: Span) -> types.Range:
        if src is None:
            return types.Range(types.Position(span.start_line, span.start_col), types.Position(span.end_line, span.end_col))
        return types.Range(
            types.Position(span.start_line, self.to_client_col(src, span.start_line, span.start_col)),
            types.Position(span.end_line, self.to_client_col(src, span.end_line, span.end_col)),
        )

    def diagnostic(self, d: Diagnostic, src_of) -> types.Diagnostic:
        """`src_of(path)` returns the SourceText of a file (for related locations), or None."""
        related = [types.DiagnosticRelatedInformation(types.Location(uri_of(r.path), self.range(src_of(r.path), r.span)),
                                                      r.message) for r in d.related]
        data: dict[str, Any] = {"code": d.code}
        if d.runtime:
            data["runtime"] = d.runtime
        if d.data:
            data.update({k: v for k, v in d.data.items() if isinstance(v, (str, int, float, bool, list, dict, type(None)))})
        if d.fix is not None:
            data["fix"] = d.fix.title
        return types.Diagnostic(
            range=self.range(src_of(d.path), d.span),
            message=d.message + (f" [{d.runtime}]" if d.runtime else ""),
            severity=types.DiagnosticSeverity(int(d.severity)),
            code=d.code,
            # The code is a link to the rule's documentation (docs/rules.md), as ruff's and ESLint's are.
            code_description=types.CodeDescription(href=doc_url(d.code)),
            source=SOURCE,
            related_information=related or None,
            data=data,
        )

    def text_edits(self, fix, src_of) -> dict[str, list[types.TextEdit]]:
        changes: dict[str, list[types.TextEdit]] = {}
        for e in fix.edits:
            changes.setdefault(uri_of(e.path), []).append(types.TextEdit(self.range(src_of(e.path), e.span), e.new_text))
        return changes

    # -- query values ----------------------------------------------------------------------------
    def hover(self, src: SourceText, value: Hover) -> types.Hover:
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, value.markdown), self.range(src, value.span))

    def location(self, loc: Location) -> types.Location:
        return types.Location(uri_of(loc.path), self.range(loc.src, loc.span))

    def completion_item(self, item: CompletionItem, src: SourceText | None = None, line: int = 0) -> types.CompletionItem:
        """With the cursor's document and line, the item replaces its word (`textEdit`), dashes included."""
        if item.replace is None or src is None:
            return types.CompletionItem(item.label, kind=COMPLETION_KINDS[item.kind], detail=item.detail,
                                        documentation=item.documentation, insert_text=item.insert_text)
        start, end = item.replace
        edit = types.TextEdit(types.Range(types.Position(line, self.to_client_col(src, line, start)),
                                          types.Position(line, self.to_client_col(src, line, end))),
                              item.insert_text or item.label)
        return types.CompletionItem(item.label, kind=COMPLETION_KINDS[item.kind], detail=item.detail,
                                    documentation=item.documentation, text_edit=edit, filter_text=item.label)

    def document_symbol(self, src: SourceText, sym: Symbol) -> types.DocumentSymbol:
        children = None if sym.kind == "field" else [self.document_symbol(src, c) for c in sym.children]
        return types.DocumentSymbol(name=sym.name, kind=SYMBOL_KINDS[sym.kind], range=self.range(src, sym.span),
                                    selection_range=self.range(src, sym.selection), detail=sym.detail,
                                    children=children)

    def workspace_symbol(self, sym: WorkspaceSymbol) -> types.WorkspaceSymbol:
        return types.WorkspaceSymbol(name=sym.name, kind=SYMBOL_KINDS[sym.kind], container_name=sym.container,
                                     location=self.location(sym.location))

    def code_lens(self, src: SourceText, lens: Lens) -> types.CodeLens:
        return types.CodeLens(range=self.range(src, Span(lens.line, 0, lens.line, 0)),
                              command=types.Command(title=lens.title, command="skillLs.where", arguments=[lens.where]))
