"""Issue 15: the server's model of an open document (`skill_ls.server.documents`) against an
independent model of the editor's text: a list of UTF-16 code units (what VS Code holds), edited by
LSP positions (lines break at `\\n`, `\\r\\n`, `\\r` only; characters past a line's end mean its end).
After every edit the server's text must equal the editor's, character for character."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from lsprotocol import types

from skill_ls.server.documents import Document, join_surrogates, lsp_lines, nvim_prefix_units
from skill_ls.server.protocol import decode_body

_ESCAPED = re.compile(r"[\udc80-\udcff]")



class EditorModel:
    """The editor's buffer as UTF-16 code units; deliberately naive (no line table, no str tricks)."""

    def __init__(self, text: str) -> None:
        self.units = list(_utf16(text))

    def text(self) -> str:
        data = b"".join(u.to_bytes(2, "little") for u in self.units)
        return data.decode("utf-16-le", "surrogatepass")

    def _line_starts(self) -> list[int]:
        starts, i, u = [0], 0, self.units
        while i < len(u):
            if u[i] == 13 and i + 1 < len(u) and u[i + 1] == 10:
                starts.append(i + 2)
                i += 2
                continue
            if u[i] in (10, 13):
                starts.append(i + 1)
            i += 1
        return starts

    def offset(self, line: int, char: int) -> int:
        starts = self._line_starts()
        if line >= len(starts):
            return len(self.units)
        start = starts[line]
        end = starts[line + 1] if line + 1 < len(starts) else len(self.units)
        while end > start and self.units[end - 1] in (10, 13):
            end -= 1
        return start + min(max(char, 0), end - start)

    def edit(self, sl: int, sc: int, el: int, ec: int, new: str) -> None:
        s, e = self.offset(sl, sc), self.offset(el, ec)
        if e < s:
            s, e = e, s
        self.units[s:e] = list(_utf16(new))


def _utf16(text: str):
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        yield int.from_bytes(data[i:i + 2], "little")


def _change(sl, sc, el, ec, text):
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=text)


def _pair(doc_text: str) -> tuple[Document, EditorModel]:
    return Document("file:///t/SKILL.md", source=doc_text, version=1), EditorModel(doc_text)


# -- the reproducers of the issue -----------------------------------------------------------------------
def test_splitlines_characters_are_not_line_breaks():
    text = "---\nname: a\ndescription: x\x0by\x0cz\x1c\x1d\x1e\x85\u2028\u2029w\nbogus: 1\n---\n"
    doc, model = _pair(text)
    assert len(doc.lines) == 6 == len(text.split("\n"))
    change = _change(3, 0, 3, 5, "other")  # `bogus` -> `other` on line 3, the editor's line 3
    doc.apply_change(change)
    model.edit(3, 0, 3, 5, "other")
    assert doc.source == model.text()
    assert "other: 1" in doc.source and "bogus" not in doc.source


def test_surrogate_halves_in_two_changes_are_rejoined():
    doc, model = _pair("name: \n")
    for i, half in enumerate(("\ud83d", "\ude00")):
        doc.apply_change(_change(0, 6 + i, 0, 6 + i, half))
        model.edit(0, 6 + i, 0, 6 + i, half)
    assert doc.source == model.text() == "name: \U0001F600\n"
    assert len(doc.source) == 8  # one character, not two halves


def test_an_edit_between_the_halves_of_an_emoji_splits_it_like_the_editor():
    doc, model = _pair("a\U0001F600b")
    doc.apply_change(_change(0, 2, 0, 2, "X"))
    model.edit(0, 2, 0, 2, "X")
    assert doc.source == model.text() == "a\ud83dX\ude00b"
    doc.apply_change(_change(0, 2, 0, 3, ""))  # delete the X: the halves join again
    model.edit(0, 2, 0, 3, "")
    assert doc.source == model.text() == "a\U0001F600b"


def test_past_end_character_on_a_last_line_without_newline_appends():
    doc, model = _pair("abc")
    doc.apply_change(_change(0, 99, 0, 99, "!"))
    model.edit(0, 99, 0, 99, "!")
    assert doc.source == model.text() == "abc!"


def test_past_end_line_appends_and_reversed_ranges_are_spans():
    doc, model = _pair("a\nb")
    doc.apply_change(_change(7, 0, 9, 0, "Z"))
    model.edit(7, 0, 9, 0, "Z")
    doc.apply_change(_change(1, 1, 0, 0, ""))
    model.edit(1, 1, 0, 0, "")
    assert doc.source == model.text() == "Z"


def test_crlf_and_lone_cr_are_one_line_break_each():
    doc, model = _pair("a\r\nb\rc\nd")
    assert lsp_lines(doc.source) == ["a\r\n", "b\r", "c\n", "d"]
    doc.apply_change(_change(2, 1, 3, 0, "-"))
    model.edit(2, 1, 3, 0, "-")
    assert doc.source == model.text() == "a\r\nb\rc-d"


def test_an_unopened_document_is_never_read_from_disk(tmp_path):
    os.mkfifo(tmp_path / "SKILL.md")
    doc = Document((tmp_path / "SKILL.md").as_uri())
    assert doc.source == ""  # pygls's document would block reading the FIFO


def test_utf8_and_utf32_position_encodings():
    for enc, col in (("utf-8", 6), ("utf-32", 2), ("utf-16", 3)):
        doc = Document("file:///t/x.md", source="é\U0001F600z\n", encoding=enc)
        doc.apply_change(_change(0, col, 0, col + 1, "Z"))
        assert doc.source == "é\U0001F600Z\n", enc


def test_join_surrogates_leaves_lone_halves():
    assert join_surrogates("\ud83d\ude00") == "\U0001F600"
    assert join_surrogates("\ude00\ud83d") == "\ude00\ud83d"


# -- random incremental edits against the independent model -----------------------------------------
# Characters chosen to break every naive line model: all of `str.splitlines`' breaks, CR/LF mixes,
# astral characters (two UTF-16 units), lone surrogate halves, combining marks, NUL.
SPLITLINES = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
ALPHABET = st.sampled_from(list(SPLITLINES) + ["\r\n", "a", "b", " ", ":", "-", "é", "\u0301", "\x00",
                                                "\U0001F600", "\U00010348", "\ud83d", "\ude00", "\ufeff"])
TEXT = st.lists(ALPHABET, max_size=30).map("".join)
EDIT = st.tuples(st.integers(0, 8), st.integers(0, 12), st.integers(0, 8), st.integers(0, 12), TEXT)


@settings(max_examples=max(1, settings.default.max_examples * 10), deadline=None)  # ci: 400 · long: 60,000
@given(TEXT, st.lists(EDIT, min_size=1, max_size=25))
def test_random_incremental_edits_match_the_editor(initial, edits):
    doc, model = _pair(initial)
    for sl, sc, el, ec, new in edits:
        doc.apply_change(_change(sl, sc, el, ec, new))
        model.edit(sl, sc, el, ec, new)
        assert doc.source == join_surrogates(model.text()), (sl, sc, el, ec, new)
        assert len(doc.lines) == len(model._line_starts())


def test_a_multibyte_character_split_across_two_messages_is_rejoined():
    """Neovim can split a paste inside a UTF-8 character: each didChange body is invalid UTF-8 alone.
    The halves arrive as escapes (protocol.decode_body) and the document model joins them."""
    from skill_ls.server.documents import without_escapes
    from skill_ls.server.protocol import decode_body

    first = decode_body('{"text": "caf'.encode() + b"\xc3" + b'"}')
    second = decode_body(b'{"text": "' + b"\xa9" + b' ok"}')
    import json

    doc = Document("file:///x.md", "")
    doc.apply_change(types.TextDocumentContentChangeWholeDocument(text=json.loads(first)["text"]))
    assert without_escapes(doc.source) == "caf\ufffd"  # the analysis sees one replacement, positions intact
    end = types.Position(line=0, character=4)
    doc.apply_change(types.TextDocumentContentChangePartial(range=types.Range(start=end, end=end),
                                                                text=json.loads(second)["text"]))
    assert doc.source == "café ok"


# -- a paste Neovim split inside a character: its exact messages ----------------------------------------
# Neovim slices its byte lines wherever the terminal cut a paste, so a change can end inside a UTF-8
# character (the body is then invalid UTF-8, kept as escapes by `protocol.decode_body`) and the next one
# start right after those bytes. Its columns count the buffer's bytes (UTF-8) or `vim.str_utfindex`
# units (UTF-16/32) — invalid bytes included; tests/editors/test_nvim_sync.py checks both against the
# real Neovim.
DATA = Path(__file__).parent / "data"


def _frames(blob: bytes) -> list[dict]:
    """The JSON-RPC messages of a captured client->server byte stream, read as the server reads them."""
    out, i = [], 0
    while i < len(blob):
        head, _, rest = blob[i:].partition(b"\r\n\r\n")
        length = int(head.split(b":")[1])
        out.append(json.loads(decode_body(rest[:length])))
        i += len(head) + 4 + length
    return out


class ByteBuffer:
    """Neovim's buffer as bytes, edited by UTF-8 positions (byte columns; lines break at `\\n`)."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8", "surrogateescape")

    def offset(self, line: int, col: int) -> int:
        starts = [0] + [i + 1 for i, b in enumerate(self.data) if b == 10]
        if line >= len(starts):
            return len(self.data)
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.data)
        return min(starts[line] + col, end)

    def edit(self, rng: dict, text: str) -> None:
        s = self.offset(rng["start"]["line"], rng["start"]["character"])
        e = self.offset(rng["end"]["line"], rng["end"]["character"])
        self.data = self.data[:s] + text.encode("utf-8", "surrogateescape") + self.data[e:]

    def text(self) -> str:
        return self.data.decode("utf-8", "surrogateescape")


def _replay(messages: list[dict], encoding: str = "utf-8") -> tuple[Document, ByteBuffer, int]:
    opened = messages[0]["params"]["textDocument"]
    doc = Document(opened["uri"], source=opened["text"], version=opened["version"], encoding=encoding)
    buf = ByteBuffer(opened["text"])
    cut = 0
    for m in messages[1:]:
        assert m["method"] == "textDocument/didChange"
        for c in m["params"]["contentChanges"]:
            doc.apply_change(types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(**c["range"]["start"]), types.Position(**c["range"]["end"])),
                text=c["text"]))
            buf.edit(c["range"], c["text"])
            cut += _ESCAPED.search(c["text"]) is not None
            assert doc.source == buf.text(), c["range"]  # after every change, cut characters included
    return doc, buf, cut


def test_the_captured_tmux_paste_replays_to_the_buffer():
    """The exact didOpen and didChange bodies Neovim 0.11 sent when a 40 KB paste went through tmux
    (captured with a tee between Neovim and the server: one didChange of 14 content changes, three of
    whose boundaries cut a character after its first byte: `—`, `°`, `é`). Before the fix an escaped
    byte counted 3 UTF-8 bytes, so the next change landed before the first half: the character became
    two U+FFFD and a stray byte travelled on to the end of the paste."""
    messages = _frames((DATA / "nvim-0.11-tmux-paste.lsp").read_bytes())
    doc, buf, cut = _replay(messages)
    assert cut == 5  # changes holding escaped bytes: 3 ending inside a character, 3 starting (one both)
    assert doc.source == buf.text() == buf.data.decode("utf-8")  # valid again once every half arrived
    headings = [line for line in doc.lines if line.startswith("## ")]
    assert len(headings) == 400 and headings[188].startswith("## Réunion n° 188 — été « café »")
    assert "\ufffd" not in doc.source


def test_the_headless_split_paste_replays_to_the_buffer():
    """`nvim_paste` in 4 chunks cutting `é`, `—` (after two bytes) and `à`, pasted after the first `-`
    of a `---` line: Neovim's exact content changes (one didChange)."""
    body = (b'{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///n/SKILL.md",'
            b'"version":8},"contentChanges":['
            b'{"range":{"start":{"line":2,"character":1},"end":{"line":2,"character":1}},"rangeLength":0,"text":"description: R\xc3"},'
            b'{"range":{"start":{"line":2,"character":16},"end":{"line":2,"character":16}},"rangeLength":0,'
            b'"text":"\xa9sum\xc3\xa9 des notes \xe2\x80"},'
            b'{"range":{"start":{"line":2,"character":35},"end":{"line":2,"character":35}},"rangeLength":0,"text":"\x94 \xc3"},'
            b'{"range":{"start":{"line":2,"character":38},"end":{"line":2,"character":40}},"rangeLength":2,'
            b'"text":"\xa0 lire. Use when summarising caf\xc3\xa9 meetings.\\n--"}]}}')
    opened = {"params": {"textDocument": {"uri": "file:///n/SKILL.md", "version": 7,
                                          "text": "---\nname: notes\n---\n# Notes\n"}}}
    doc, _buf, cut = _replay([opened, json.loads(decode_body(body))])
    assert cut == 4
    assert doc.source == ("---\nname: notes\n-description: Résumé des notes — à lire. Use when summarising café "
                          "meetings.\n--\n# Notes\n")


@pytest.mark.parametrize("encoding, after_cut", [("utf-16", 3), ("utf-32", 3), ("utf-8", 4)])
def test_a_cut_sequence_counts_as_neovim_counts_it(encoding, after_cut):
    """`—` cut after two of its three bytes, with text after the cursor: Neovim puts the next change at
    `vim.str_utfindex("xa\\xe2\\x80", enc)` — 3 in UTF-16/32 (a cut sequence at the end of the counted
    text is one unit), 4 in UTF-8 (bytes). Each escape counted as one unit landed it after `Z`."""
    doc = Document("file:///t/SKILL.md", source="xZ\n", encoding=encoding)
    doc.apply_change(_change(0, 1, 0, 1, "a\udce2\udc80"))
    assert doc.source == "xa\udce2\udc80Z\n"
    doc.apply_change(_change(0, after_cut, 0, after_cut, "\udc94b"))
    assert doc.source == "xa—bZ\n"
    # the same position when the line ends at the cut (Neovim counts the whole line: same number)
    doc = Document("file:///t/SKILL.md", source="x\n", encoding=encoding)
    doc.apply_change(_change(0, 1, 0, 1, "a\udce2\udc80"))
    doc.apply_change(_change(0, after_cut, 0, after_cut, "\udc94"))
    assert doc.source == "xa—\n"


def test_broken_bytes_in_the_middle_of_a_line_count_one_unit_each():
    """`"a\\xe2\\x80b"` is 4 UTF-16 units for Neovim (each invalid byte one unit): `c` at 4 goes after
    `b`. Deleting the two bytes (`x` on them), Neovim sends 1..2 (its end is `str_utfindex` of
    `"a\\xe2\\x80"`, 2): both bytes go."""
    doc = Document("file:///t/SKILL.md", source="a\udce2\udc80b\n", encoding="utf-16")
    doc.apply_change(_change(0, 4, 0, 4, "c"))
    assert doc.source == "a\udce2\udc80bc\n"
    doc.apply_change(_change(0, 1, 0, 2, ""))
    assert doc.source == "abc\n"


def _nvim_utflen(data: bytes, k: int, utf16: bool) -> int:
    """Neovim's `mb_utflen(line, k)` ported literally (utf_ptr2len_len, utf_ptr2char reading the whole
    line, NUL past its end): the reference for `nvim_prefix_units`, quadratic and obviously right."""
    lead = lambda b: 1 if b < 0xC0 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4 if b < 0xF8 else 5 if b < 0xFC else 6 if b < 0xFE else 1
    byte = lambda j: data[j] if j < len(data) else 0
    count = i = 0
    while i < k:
        length = lead(data[i])
        clen = 1
        if length > 1:
            m = min(length, k - i)
            clen = length if all(byte(i + j) & 0xC0 == 0x80 for j in range(1, m)) else 1
        value = data[i]
        if clen > 1 and all(byte(i + j) & 0xC0 == 0x80 for j in range(1, length)):
            value = data[i] & (0x7F >> length)
            for j in range(1, length):
                value = (value << 6) | (byte(i + j) & 0x3F)
        count += 2 if utf16 and value > 0xFFFF else 1
        i += clen
    return count


BYTES = st.lists(st.sampled_from([b"a", b"\xc3\xa9", b"\xe2\x80\x94", b"\xf0\x9f\x98\x80", b"\xc3", b"\xe2\x80", b"\xf0\x9f",
                                  b"\x80", b"\xbf", b"\xff", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80"]),
                 max_size=12).map(b"".join)


@settings(max_examples=max(1, settings.default.max_examples * 4), deadline=None)
@given(BYTES, st.booleans())
def test_nvim_prefix_units_is_mb_utflen_at_every_boundary(data, utf16):
    segment = data.decode("utf-8", "surrogateescape")
    offsets = [0]
    for ch in segment:
        offsets.append(offsets[-1] + (1 if 0xDC80 <= ord(ch) <= 0xDCFF else len(ch.encode("utf-8"))))
    assert nvim_prefix_units(segment, utf16) == [_nvim_utflen(data, k, utf16) for k in offsets]
