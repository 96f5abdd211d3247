"""Source text with line tables: the one place that knows about BOMs, line endings and UTF-16.

Decoding never fails: invalid UTF-8 is replaced and the fact is recorded for a diagnostic.
"""
from __future__ import annotations

import functools
import os
import re
import stat
from array import array
from bisect import bisect_right
from itertools import accumulate

from skill_ls.core.patterns import lazy_pattern

BOM = "\ufeff"
_LINE_BREAK = lazy_pattern(r"\r\n|\r|\n")
_WS = re.compile(r"\s+")
_ASTRAL = lazy_pattern("[\U00010000-\U0010ffff]")  # two UTF-16 code units each
_SCAN_LINES = 64  # lines reachable by scanning without a line table


MAX_READ_BYTES = 16 * 1024 * 1024


def read_bytes(path: str) -> tuple[bytes, str | None, bool]:
    """Read a file safely: (data, error, truncated). Never raises, never blocks on a FIFO or a
    device (even one that replaced a regular file behind a symlink), reads at most MAX_READ_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as exc:
        return b"", f"cannot read file: {getattr(exc, 'strerror', None) or exc}", False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return b"", "not a regular file", False
        chunks, total = [], 0
        want = min(st.st_size + 1, 1 << 20)  # a byte more than the size: the first read sees the end too
        while total < MAX_READ_BYTES:
            chunk = os.read(fd, min(want, MAX_READ_BYTES - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if len(chunk) < want and total == st.st_size:
                break  # all of it, and the read came short: its end (no second read to see it)
            want = 1 << 20
        truncated = total >= MAX_READ_BYTES and st.st_size > total
        return b"".join(chunks), None, truncated
    except OSError as exc:
        return b"", f"cannot read file: {exc.strerror or exc}", False
    finally:
        os.close(fd)


def _reread(path: str | None) -> str:
    """The text of a released SourceText, read again with the same guards as the first read (a FIFO
    or device that replaced the file reads as ''; never raises, never blocks)."""
    if path is None:
        return ""
    data, error, _ = read_bytes(path)
    if error is not None:
        return ""
    text = data.decode("utf-8", errors="replace")
    return text[1:] if text.startswith(BOM) else text


class SourceText:
    """The text of one file after the BOM, with its line starts (LSP line breaks only).

    The line table is built only when something asks for a line past the first few: checking a file
    usually needs just the frontmatter lines, and a table per file would dominate memory.
    A long-lived index may `release()` the text of files read from disk; it is read again from the
    file on next use (the language server does this for files that are not open in the editor)."""

    __slots__ = ("_text", "had_bom", "invalid_utf8_at", "has_crlf", "_starts", "_head", "_count", "_path", "_size",
                 "_astral")

    def __init__(self, text: str, had_bom: bool = False, invalid_utf8_at: int | None = None,
                 has_crlf: bool = False, path: str | None = None):
        self._text: str | None = text
        self.had_bom = had_bom
        self.invalid_utf8_at = invalid_utf8_at
        self.has_crlf = has_crlf
        self._starts: array[int] | None = None
        self._head: list[int] | None = None  # the starts of the first lines, found by scanning (no CR)
        self._count = -1
        self._path = path  # where the text can be read again after release()
        self._size = -1  # length of the released text (a re-read of another length drops the tables)
        self._astral: bool | None = None  # whether the text has characters beyond U+FFFF (not known yet)

    def __repr__(self) -> str:
        return f"SourceText({len(self.text)} chars, bom={self.had_bom}, crlf={self.has_crlf})"

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text = self._text = _reread(self._path)
            self._astral = None
            if len(text) != self._size:  # changed on disk since: the kept line table would lie
                self._starts, self._head, self._count = None, None, -1
                self.has_crlf = "\r" in text
        return text

    def release(self) -> bool:
        """Drop the text (kept: line count and table) when it can be read again from its file."""
        if self._path is None or self._text is None:
            return False
        self.line_count  # noqa: B018 - keep the count: it is cheap and often asked for
        self._size = len(self._text)
        self._text = None
        return True

    @classmethod
    def from_bytes(cls, data: bytes, path: str | None = None) -> "SourceText":
        return cls._decode(data, path)

    @classmethod
    def _decode(cls, data: bytes, path: str | None) -> "SourceText":
        invalid_at = None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            invalid_at = exc.start
            text = data.decode("utf-8", errors="replace")
        src = cls.from_str(text)
        src.invalid_utf8_at = invalid_at
        src._path = path
        return src

    @classmethod
    def from_str(cls, text: str) -> "SourceText":
        had_bom = text.startswith(BOM)
        if had_bom:
            text = text[1:]
        return cls(text, had_bom=had_bom, has_crlf="\r" in text)

    @property
    def starts(self) -> array[int]:
        """Offset of each line's first character (computed once, on first use)."""
        if self._starts is None:
            if self.has_crlf:
                starts = array("q", [0])
                starts.extend(m.end() for m in _LINE_BREAK.finditer(self.text))
            else:
                lengths = map((1).__add__, map(len, self.text.split("\n")[:-1]))
                starts = array("q", accumulate(lengths, initial=0))
            self._starts = starts
        return self._starts

    @property
    def line_count(self) -> int:
        if self._count < 0:
            if self._starts is None and not self.has_crlf:
                self._count = self.text.count("\n") + 1
            else:
                self._count = len(self.starts)
        return self._count

    def line_start(self, line: int) -> int:
        if line <= 0:
            return 0
        if self._starts is None and not self.has_crlf and line < _SCAN_LINES:
            # The first lines (the frontmatter) without building the table.
            head = self._head
            if head is None:
                head = self._head = [0]
            if line < len(head):
                return head[line]
            find, pos = self.text.find, head[-1]
            while len(head) <= line:
                pos = find("\n", pos)
                if pos == -1:
                    return len(self.text)
                pos += 1
                head.append(pos)
            return pos
        starts = self.starts
        if line >= len(starts):
            return len(self.text)
        return starts[line]

    def line_text(self, line: int) -> str:
        """The line's text without its line break ('' past the end)."""
        if line < 0:
            return ""
        if line < _SCAN_LINES and self._count < 0 and self._starts is None and not self.has_crlf:
            # One of the first lines, without counting every line break of the text first.
            start = self.line_start(line)
            if line and len(self._head or ()) <= line:
                return ""  # fewer line breaks than `line`: past the end
        elif line >= self.line_count:
            return ""
        else:
            start = self.line_start(line)
        text = self.text
        if self.has_crlf:
            starts = self.starts
            end = starts[line + 1] if line + 1 < len(starts) else len(text)
            return text[start:end].rstrip("\r\n")
        end = text.find("\n", start)
        return text[start:] if end == -1 else text[start:end]

    def offset_to_pos(self, offset: int) -> tuple[int, int]:
        offset = min(max(offset, 0), len(self.text))
        starts = self.starts
        line = bisect_right(starts, offset) - 1
        return line, offset - starts[line]

    def pos_to_offset(self, line: int, col: int) -> int:
        if line < 0:
            return 0
        starts = self.starts
        if line >= len(starts):
            return len(self.text)
        return min(starts[line] + max(col, 0), starts[line] + len(self.line_text(line)))

    def utf16_col(self, line: int, col: int) -> int:
        """Convert a code point column to UTF-16 code units (what LSP counts)."""
        prefix = self.line_text(line)[:col]
        if self._astral is False or prefix.isascii():
            return len(prefix)
        if self._astral is None:
            text = self.text
            self._astral = not text.isascii() and _ASTRAL.search(text) is not None
            if not self._astral:
                return len(prefix)
        return sum(2 if ord(ch) > 0xFFFF else 1 for ch in prefix)

    def utf16_cols(self, line: int, start: int, end: int) -> tuple[int, int]:
        """`utf16_col` of two columns of one line."""
        text = self.line_text(line)
        if self._astral is False or text.isascii():
            return len(text[:start]), len(text[:end])
        return self.utf16_col(line, start), self.utf16_col(line, end)

    def col_from_utf16(self, line: int, units: int) -> int:
        """Convert a UTF-16 column (from the client) to code points, clamped to the line."""
        return self.col_from_units(line, units, utf8=False)

    def col_from_units(self, line: int, units: int, *, utf8: bool) -> int:
        """Convert a column in UTF-8 (`utf8`) or UTF-16 code units to code points, clamped to the line."""
        text = self.line_text(line)
        if text.isascii():
            return min(max(units, 0), len(text))
        count = 0
        for i, ch in enumerate(text):
            if count >= units:
                return i
            count += len(ch.encode("utf-8", "surrogatepass")) if utf8 else 2 if ord(ch) > 0xFFFF else 1
        return len(text)

    def end_pos(self) -> tuple[int, int]:
        last = self.line_count - 1
        return last, len(self.line_text(last))


@functools.lru_cache(maxsize=64)
def collapse(text: str) -> str:
    """Whitespace runs collapsed to one space, trimmed (how catalogs show a description); the same
    description is asked for by every runtime's catalog and rules, so the answer is kept."""
    return _WS.sub(" ", text).strip()
