"""Our own model of the editor's documents, so the server's copy never diverges from the client's.

pygls's `TextDocument` splits lines with `str.splitlines()`, which also breaks at `\\x0b \\x0c
\\x1c-\\x1e \\x85 \\u2028 \\u2029`; LSP lines break only at `\\n`, `\\r\\n` and `\\r`, so every
incremental edit after such a character landed on the wrong line. It also cannot rejoin an emoji
sent as two UTF-16 surrogate halves in two changes, and put a past-the-end character on a last line
without a newline before the last character. This module replaces it (fixed in our layer, not
upstream; see docs/reliability.md):

- lines break at LSP line breaks only;
- positions count the negotiated encoding (UTF-16 code units by default, UTF-8 bytes, or code
  points); a position inside a character that is two UTF-16 units splits it into its surrogate
  halves, exactly as the editor's UTF-16 buffer does, and adjacent halves are joined again after
  every edit, so the text is always what the editor holds;
- a line past the end means the end of the document, a character past the end of a line means the
  end of that line (LSP: "defaults back to the line length");
- bytes that were not valid UTF-8 (a paste the editor split inside a character, sent in two changes:
  `protocol.decode_body` keeps them as escapes U+DC80..U+DCFF) count as the editor that sends them
  counts them: one byte each in UTF-8; in UTF-16 and UTF-32 as Neovim's `vim.str_utfindex` does (each
  invalid byte one unit, except that a sequence cut short by the end of the counted text is one unit:
  `"a\xe2\x80"` is 2 units, `"a\xe2\x80b"` is 4). LSP defines no position inside invalid UTF-8;
  Neovim is the client known to send it (`vim.lsp.sync` slices its byte lines anywhere a paste split
  them). Text without such bytes — everything VS Code sends — never takes this path;
- a document that was never opened has no text here (the index reads files, with its guards; this
  model never touches the disk).
"""
from __future__ import annotations

import logging
import re
from array import array
from bisect import bisect_right
from typing import Any

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

log = logging.getLogger("skill_ls.server.documents")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ESCAPED_BYTES = re.compile(r"[\udc80-\udcff]+")  # bytes that were not valid UTF-8 (surrogateescape)


def lsp_lines(text: str) -> list[str]:
    """The lines of `text` with their line breaks, breaking only at `\\n`, `\\r\\n`, `\\r` (never
    at the other characters `str.splitlines` breaks at). Always at least one (possibly empty) line."""
    lines: list[str] = []
    pos = 0
    for m in _LINE_BREAK.finditer(text):
        lines.append(text[pos:m.end()])
        pos = m.end()
    lines.append(text[pos:])
    return lines


def join_surrogates(text: str) -> str:
    """Join adjacent UTF-16 surrogate halves into the character they encode, and runs of escaped bytes
    (a multi-byte UTF-8 character split across two messages, see `protocol.decode_body`) into the
    characters they make."""
    if not _SURROGATE.search(text):
        return text
    text = _PAIR.sub(lambda m: m.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), text)
    return _ESCAPED_BYTES.sub(lambda m: m.group().encode("utf-8", "surrogateescape")
                              .decode("utf-8", "surrogateescape"), text)


def without_escapes(text: str) -> str:
    """The text as the analysis sees it: a byte still waiting for its other half is U+FFFD (one
    code point and one UTF-16 unit, like the escape: positions do not move)."""
    return _ESCAPED_BYTES.sub(lambda m: "\ufffd" * len(m.group()), text) if _SURROGATE.search(text) else text


def _split_astral(ch: str) -> str:
    """A character outside the BMP as its two surrogate halves (one str of length 2)."""
    c = ord(ch) - 0x10000
    return chr(0xD800 + (c >> 10)) + chr(0xDC00 + (c & 0x3FF))


def _units(ch: str, encoding: str) -> int:
    if encoding == "utf-32":
        return 1
    if encoding == "utf-8":
        if "\udc80" <= ch <= "\udcff":
            return 1  # an escaped byte is the one byte the editor holds
        return len(ch.encode("utf-8", "surrogatepass"))
    return 2 if ord(ch) > 0xFFFF else 1


# Neovim's `utf8len_tab`: the length a lead byte announces (1 for ASCII, continuation bytes, 0xFE, 0xFF).
_LEAD_LEN = bytes([1] * 0xC0 + [2] * 32 + [3] * 16 + [4] * 8 + [5] * 4 + [6] * 2 + [1] * 2)


def _is_cont(b: int) -> bool:
    return b & 0xC0 == 0x80


def _nvim_value(data: bytes, i: int) -> int:
    """Neovim's `utf_ptr2char` at `data[i]`: the sequence's value, or its first byte when the bytes do
    not follow the lead's announced length (no overlong check; past the end reads as NUL)."""
    v0 = data[i]
    length = _LEAD_LEN[v0]
    if v0 < 0x80 or length < 2:
        return v0
    value = v0 & (0x7F >> length)
    for j in range(i + 1, i + length):
        if j >= len(data) or not _is_cont(data[j]):
            return v0
        value = (value << 6) | (data[j] & 0x3F)
    return value


def nvim_prefix_units(segment: str, utf16: bool) -> list[int]:
    """For each code point boundary of one line's text (0..len(segment)), the UTF-16 (or UTF-32) length
    Neovim gives the line's bytes up to there: `vim.str_utfindex(line, enc, byte)`, i.e. `mb_utflen` over
    the prefix. Valid characters count as usual; escaped bytes (invalid UTF-8) as Neovim counts invalid
    bytes: one unit each, but a lead byte followed only by continuation bytes up to the end of the
    prefix is one unit however many bytes the prefix holds of it. Linear in the line."""
    pieces: list[bytes] = []
    boundaries = [0]
    for ch in segment:
        if "\udc80" <= ch <= "\udcff":
            piece = bytes([ord(ch) - 0xDC00])
        else:
            piece = ch.encode("utf-8", "surrogatepass")  # a lone UTF-16 half: Neovim's 3 bytes for it
        pieces.append(piece)
        boundaries.append(boundaries[-1] + len(piece))
    data = b"".join(pieces)
    n = len(data)
    # The scan over the whole line (`mb_utflen(line, #line)`): token starts and the count before each.
    before: dict[int, int] = {}
    count = i = 0
    while i < n:
        before[i] = count
        length = _LEAD_LEN[data[i]]
        clen = 1
        if length > 1 and all(_is_cont(data[j]) for j in range(i + 1, min(i + length, n))):
            clen = length
        value = _nvim_value(data, i) if clen > 1 else data[i]
        count += 2 if utf16 and value > 0xFFFF else 1
        i += clen
    total = count
    out: list[int] = []
    for k in boundaries:
        # A prefix scan agrees with the whole-line scan up to the first token start t < k whose
        # announced length reaches past k with only continuation bytes before k: that token is cut
        # by the prefix's end and counts one (two for a value past the BMP in UTF-16) unit.
        for t in range(max(0, k - 5), k):
            if t in before and t + _LEAD_LEN[data[t]] > k and all(_is_cont(data[j]) for j in range(t + 1, k)):
                out.append(before[t] + (2 if utf16 and _nvim_value(data, t) > 0xFFFF else 1))
                break
        else:  # k is a token boundary of the whole-line scan (or the end)
            out.append(total if k >= n else before.get(k, out[-1] if out else 0))
    return out


class Document(TextDocument):
    """An open document as the editor holds it. Drop-in for pygls's `TextDocument` (same attributes
    and `apply_change`), with the line and position model described in the module docstring."""

    def __init__(self, uri: str, source: str | None = None, version: int | None = None,
                 language_id: str | None = None, encoding: str = "utf-16", **kwargs: Any) -> None:
        super().__init__(uri, source=None, version=version, language_id=language_id, **kwargs)
        self._source = join_surrogates(source) if source is not None else None
        self.encoding = str(getattr(encoding, "value", encoding) or "utf-16").lower()
        self._starts: array[int] | None = None

    # -- text --------------------------------------------------------------------------------------
    @property
    def source(self) -> str:
        """The editor's text; '' for a document that was never opened (no disk reads here)."""
        return self._source or ""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(lsp_lines(self.source))

    def _line_starts(self) -> array[int]:
        if self._starts is None:
            starts: array[int] = array("q", [0])
            starts.extend(m.end() for m in _LINE_BREAK.finditer(self.source))
            self._starts = starts
        return self._starts

    def _set(self, text: str) -> None:
        self._source = text
        self._starts = None

    # -- positions ---------------------------------------------------------------------------------
    def offset_at(self, line: int, character: int, *, split: bool = False) -> int:
        """The code point offset of an LSP position, clamped as LSP says. With `split`, a position
        inside a two-unit UTF-16 character first splits that character into its surrogate halves
        (what the editor's UTF-16 buffer does when it edits between them)."""
        text = self.source
        starts = self._line_starts()
        if line < 0:
            return 0
        if line >= len(starts):
            return len(text)
        start: int = starts[line]
        end: int = starts[line + 1] if line + 1 < len(starts) else len(text)
        while end > start and text[end - 1] in "\r\n":
            end -= 1  # the line's content, without its line break
        if character <= 0:
            return start
        segment = text[start:end]
        if segment.isascii():
            return start + min(character, len(segment))
        if self.encoding != "utf-8" and _ESCAPED_BYTES.search(segment):
            return self._offset_over_escapes(text, start, segment, character, split)
        count = 0
        for i, ch in enumerate(segment):
            if count >= character:
                return start + i
            width = _units(ch, self.encoding)
            if count + width > character:  # the position falls inside this character
                if split and self.encoding == "utf-16" and width == 2:
                    self._set(text[:start + i] + _split_astral(ch) + text[start + i + 1:])
                    return start + i + 1
                return start + i  # UTF-8 mid-character: LSP clients never send it; snap to its start
            count += width
        return end

    def _offset_over_escapes(self, text: str, start: int, segment: str, character: int, split: bool) -> int:
        """`offset_at` in UTF-16/UTF-32 on a line holding escaped bytes: Neovim's counting (see
        `nvim_prefix_units`). A position several boundaries share (inside a cut sequence) is the last
        of them, where the next change of a split paste continues."""
        units = nvim_prefix_units(segment, self.encoding == "utf-16")
        i = max(bisect_right(units, character) - 1, 0)
        if (split and self.encoding == "utf-16" and i < len(segment) and units[i] < character
                and ord(segment[i]) > 0xFFFF):
            self._set(text[:start + i] + _split_astral(segment[i]) + text[start + i + 1:])
            return start + i + 1
        return start + i

    # -- changes -----------------------------------------------------------------------------------
    def apply_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        rng = getattr(change, "range", None)
        text = change.text
        if rng is None:  # a whole-document change
            self._set(join_surrogates(text))
            return
        start, end = rng.start, rng.end
        if (end.line, end.character) < (start.line, start.character):
            start, end = end, start  # a reversed range: the same span
        # The start first: splitting a character there shifts the end, which is computed after it.
        s = self.offset_at(start.line, start.character, split=True)
        e = max(self.offset_at(end.line, end.character, split=True), s)
        old = self.source
        new = old[:s] + text + old[e:]
        if _SURROGATE.search(text) or (s and _SURROGATE.match(old, s - 1)) or _SURROGATE.match(old, e):
            lo = max(s - 3, 0)  # a UTF-8 character is at most 4 bytes: 3 may precede the edit
            hi = s + len(text) + 3
            new = new[:lo] + join_surrogates(new[lo:hi]) + new[hi:]
        self._set(new)

    def offset_at_position(self, client_position: types.Position) -> int:
        return self.offset_at(client_position.line, client_position.character)


class SkillWorkspace(Workspace):
    """pygls's workspace, holding our `Document`s."""

    def _create_text_document(self, doc_uri: str, source: str | None = None, version: int | None = None,
                              language_id: str | None = None) -> TextDocument:
        return Document(doc_uri, source=source, version=version, language_id=language_id,
                        encoding=str(getattr(self.position_encoding, "value", self.position_encoding) or "utf-16"),
                        sync_kind=self._sync_kind, position_codec=self.position_codec)

    def update_text_document(self, text_doc: types.VersionedTextDocumentIdentifier,
                             change: types.TextDocumentContentChangeEvent) -> None:
        doc = self.text_documents.get(_key(text_doc.uri))
        if doc is None:
            log.warning("change to a document that is not open: %.200s", text_doc.uri)
            return
        doc.apply_change(change)
        doc.version = text_doc.version


def _key(uri: str) -> str:
    from urllib.parse import unquote

    return unquote(uri)


def adopt(workspace: Workspace) -> SkillWorkspace:
    """Turn the workspace pygls created in `initialize` into ours (same state, our documents)."""
    workspace.__class__ = SkillWorkspace
    return workspace  # type: ignore[return-value]
