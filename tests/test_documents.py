"""Issue 15: the server's model of an open document (`skill_ls.server.documents`) against an
independent model of the editor's text: a list of UTF-16 code units (what VS Code holds), edited by
LSP positions (lines break at `\\n`, `\\r\\n`, `\\r` only; characters past a line's end mean its end).
After every edit the server's text must equal the editor's, character for character."""
from __future__ import annotations

import os

from hypothesis import given, settings, strategies as st
from lsprotocol import types

from skill_ls.server.documents import Document, join_surrogates, lsp_lines



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
