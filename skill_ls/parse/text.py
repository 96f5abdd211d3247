"""Source text with line tables: the one place that knows about BOMs, line endings and UTF-16.

Decoding never fails: invalid UTF-8 is replaced and the fact is recorded for a diagnostic.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

BOM = "\ufeff"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(slots=True)
class SourceText:
    """The text of one file after the BOM, with its line starts (LSP line breaks only)."""

    text: str
    had_bom: bool = False
    invalid_utf8_at: int | None = None  # byte offset of the first undecodable byte
    has_crlf: bool = False
    _starts: list[int] = field(default_factory=list)

    @classmethod
    def from_bytes(cls, data: bytes) -> "SourceText":
        invalid_at = None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            invalid_at = exc.start
            text = data.decode("utf-8", errors="replace")
        src = cls.from_str(text)
        src.invalid_utf8_at = invalid_at
        return src

    @classmethod
    def from_str(cls, text: str) -> "SourceText":
        had_bom = text.startswith(BOM)
        if had_bom:
            text = text[1:]
        # Lone surrogates (possible in editor buffers) cannot be encoded; keep positions stable.
        src = cls(text=text, had_bom=had_bom, has_crlf="\r" in text)
        starts = [0]
        if "\r" in text:
            starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        else:
            find = text.find
            i = find("\n")
            while i != -1:
                starts.append(i + 1)
                i = find("\n", i + 1)
        src._starts = starts
        return src

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        if line >= len(self._starts):
            return len(self.text)
        return self._starts[max(line, 0)]

    def line_text(self, line: int) -> str:
        """The line's text without its line break ('' past the end)."""
        if line < 0 or line >= len(self._starts):
            return ""
        start = self._starts[line]
        end = self._starts[line + 1] if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset_to_pos(self, offset: int) -> tuple[int, int]:
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self._starts, offset) - 1
        return line, offset - self._starts[line]

    def pos_to_offset(self, line: int, col: int) -> int:
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        return min(self._starts[line] + max(col, 0), self._starts[line] + len(self.line_text(line)))

    def utf16_col(self, line: int, col: int) -> int:
        """Convert a code point column to UTF-16 code units (what LSP counts)."""
        prefix = self.line_text(line)[:col]
        if prefix.isascii():
            return len(prefix)
        return sum(2 if ord(ch) > 0xFFFF else 1 for ch in prefix)

    def col_from_utf16(self, line: int, units: int) -> int:
        """Convert a UTF-16 column (from the client) to code points, clamped to the line."""
        text = self.line_text(line)
        if text.isascii():
            return min(max(units, 0), len(text))
        count = 0
        for i, ch in enumerate(text):
            if count >= units:
                return i
            count += 2 if ord(ch) > 0xFFFF else 1
        return len(text)

    def end_pos(self) -> tuple[int, int]:
        last = len(self._starts) - 1
        return last, len(self.line_text(last))
