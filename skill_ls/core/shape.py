"""Why a runtime's own SKILL.md parser refuses a file that skill-ls's tolerant split (core/parse/frontmatter.py) accepts.

A runtime descriptor may carry a `FileShape` (Amp does: `parseSkillFile`'s regular expression). The
index blocks the copy for that runtime and the SK013 rule explains the refusal in one sentence, so both
ask this module and say the same thing.
"""
from __future__ import annotations

from skill_ls.core.parse.frontmatter import Frontmatter
from skill_ls.core.parse.text import BOM, SourceText
from skill_ls.core.runtimes.spec import FileShape


def shape_refusal(src: SourceText, fm: Frontmatter | None, shape: FileShape) -> str | None:
    """The reason `shape` refuses this text, or None when the runtime's parser accepts it."""
    text = (BOM if src.had_bom else "") + src.text
    match = shape.split(text)
    if match and match[0] and match[1]:
        return None
    if src.had_bom:
        return "the file starts with a UTF-8 BOM"
    if "\r" in text:
        return "the file uses CRLF line endings"
    if src.line_text(0) != "---":
        return "the opening '---' line has trailing characters"
    close = fm.close_line if fm is not None else None
    if close is not None:
        closing = src.line_text(close)
        if closing.startswith("..."):
            return "the frontmatter is closed with '...' instead of '---'"
        if closing != "---":
            return "the closing '---' line has trailing spaces"
        if close == 1:
            return "the frontmatter is empty"
        if close + 1 >= src.line_count:
            return "there is no line break after the closing '---'"
        if match is None or not match[1]:
            return "the body after the frontmatter is empty"
    return "the file does not match the runtime's frontmatter pattern"
