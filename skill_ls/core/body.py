"""What a skill's Markdown body points at: fenced code blocks, file references and shell injections.

One fence tracker (`fence_step`) serves every body scan (references, navigation, symbols).
References are found outside fenced code blocks: Markdown links and images with a relative target,
`skill_read_file("skill", "path")`, `skill_run_script("skill", "script")`, and `scripts/...` paths
run in inline code. Plain values with positions; no rule logic (the RF rules read these).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import cast

from skill_ls.core.index import Document
from skill_ls.core.model import Span
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass
from skill_ls.core.runtimes import RUNTIMES

# Linear time on hostile lines (issue 7): link text may hold one level of balanced brackets but no
# bare '[' (so a start never rescans past the next one), and the target stops at brackets too.
# It starts at '[' (an image's '!' changes no target: a literal first character lets the search skip
# ahead) and takes runs of plain characters possessively (one step per run, not per character; the
# text and target can end only where they do, so giving characters back never found another match).
_LINK = re.compile(r"\[(?:[^\[\]\\]++|\\.|\[(?:[^\[\]\\]++|\\.)*+\])*+\]\(\s*<?([^)\s>\[\]]++)>?(?:\s+\"[^\"]*\")?\s*\)")
_CALL = lazy_pattern(r"\b(skill_read_file|skill_run_script)\(\s*[\"']([^\"']+)[\"']\s*,\s*[\"']([^\"']+)[\"']")
# Templated paths that runtimes resolve to the skill's own directory: each runtime's
# `Vocabulary.skill_dir_variables` (Claude Code `${CLAUDE_SKILL_DIR}`, workspace agents `${SKILL_DIR}`)
# and the `{baseDir}` convention of skill bodies, which no runtime documents.
SKILL_DIR_TEMPLATES = tuple(dict.fromkeys(
    [f"{v}/" for rt in RUNTIMES.values() for v in rt.vocabulary.skill_dir_variables] + ["{baseDir}/"]))
_TEMPLATE_PREFIX = "|".join(re.escape(t) for t in SKILL_DIR_TEMPLATES)
# A scripts/ path counts as a reference when the inline code runs it (`python scripts/x.py`,
# `./scripts/x.sh`); a bare `scripts/x.py` is usually an example of what to create.
_INLINE_SCRIPT = re.compile(
    r"`(?:[^`]*?\b(python3?|bash|sh|zsh|node|deno|bun|ruby|perl|uv run|npx|tsx)\s+)?"
    r"((?:\./|" + _TEMPLATE_PREFIX + r")?scripts/[A-Za-z0-9_.\-/]+\.(?:py|sh|bash|js|ts|mjs|rb|pl))(?![A-Za-z0-9_])[^`]*`")
_SHELL_INJECTION = re.compile(r"(?:(?<=^)|(?<=[\s(\[:>*_]))!`([^`\n]+)`")
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")  # a span opens only at the start of a backtick run
# What puts a line in view, besides a fence line (```, ~~~): a link ("]("), skill_ call, scripts/ path or
# shell injection ("!`"). `_scan_line` says what the line holds.
_MARKERS = ("](", "skill_", "scripts/", "!`")  # ("!`" last: see _scan_body)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def fence_step(line: str, fence: str | None) -> tuple[bool, str | None]:
    """Track fenced code blocks line by line: (is this line a fence, the open fence after it)."""
    marker = _fence_at(line, 0, len(line) - len(line.lstrip(" ")))
    if marker is None:
        return False, fence
    return True, _after_fence(marker, fence)


def _fence_at(text: str, begin: int, at: int) -> str | None:
    """The fence (``` or ~~~, whatever its length) of the line starting at `begin` when it opens at
    `at`: at most three spaces before it (CommonMark), else None."""
    marker = text[at:at + 3]
    if (marker == "```" or marker == "~~~") and at - begin <= 3 and text[begin:at] == " " * (at - begin):
        return marker
    return None


def _after_fence(marker: str, fence: str | None) -> str | None:
    """The open fence after a fence line: it opens a block, closes the open one (same character), or
    is code inside a block of the other character."""
    return marker if fence is None else None if marker == fence else fence


@dataclass(frozen=True)
class Reference:
    """One place the body points at a file."""

    kind: str  # link | read_file | run_script | script_path
    target: str
    span: Span
    skill: str | None = None  # for skill_read_file / skill_run_script


def body_references(doc: Document) -> tuple[list[Reference], list[tuple[str, Span]]]:
    """(file references, shell injections) in the body, outside fenced code blocks (cached per document)."""
    cached = doc.cache.get("body_references")
    if cached is None:
        cached = doc.cache["body_references"] = _scan_body(doc)
    return cast("tuple[list[Reference], list[tuple[str, Span]]]", cached)


def _scan_body(doc: Document) -> tuple[list[Reference], list[tuple[str, Span]]]:
    refs: list[Reference] = []
    shells: list[tuple[str, Span]] = []
    start = doc.fm.body_start_line if doc.fm and doc.fm.status == "ok" else 0
    src = doc.src
    if start and start >= src.line_count:  # (from line 0 there is a line: no count of a reference file's lines)
        return refs, shells
    text = src.text
    offset = src.line_start(start)
    if src.has_crlf and "\r" in text.replace("\r\n", ""):
        # Bare CR breaks lines too (LSP): scan the body's lines joined by "\n" (columns stay right).
        text, offset = "\n".join(src.line_text(n) for n in range(start, src.line_count)), 0
    # Visit only the lines that can matter: the next line with a marker, unless a fence line comes
    # first, whose block is then jumped over to its closing fence. Each marker and the fences are
    # found by `str.find` (a C search that skips ahead): one regular expression for all of them
    # tried each character against their first characters, ~4 times the instructions.
    find, rfind, count = text.find, text.rfind, text.count
    # ('!' and '~' are rare: looking for them alone, a memchr, spares most bodies a search for "!`" and "~~~")
    needles = _MARKERS if "!" in text else _MARKERS[:-1]
    marks = {needle: at for needle in needles if (at := find(needle, offset)) != -1}  # the next of each
    if not marks:
        return refs, shells  # (the fences only matter to the markers)
    fences = ("```", "~~~") if "~" in text and find("~~~", offset) != -1 else ("```",)
    fence_at = _next_fence(text, offset, fences)
    line_no, counted = start, offset
    mark = min(marks.values())
    while True:
        if fence_at != -1 and fence_at < mark:
            # A fenced block opens before the next marker: go on after its closing fence.
            stop = find("\n", fence_at)
            close = -1 if stop == -1 else _next_fence(text, stop + 1, (text[fence_at:fence_at + 3],))
            stop = -1 if close == -1 else find("\n", close)
            if stop == -1:
                break  # (the rest of the body is fenced)
            offset = stop + 1
            fence_at = _next_fence(text, offset, fences)
            if mark >= offset:
                continue
        else:
            begin = rfind("\n", 0, mark) + 1
            stop = find("\n", mark)
            line_no += count("\n", counted, begin)
            counted = begin
            _scan_line(line_no, (text[begin:] if stop == -1 else text[begin:stop]).rstrip("\r"), refs, shells)
            if stop == -1:
                break
            offset = stop + 1  # (fence_at, a fence line's, is past this line: only spaces precede it)
        for needle, at in list(marks.items()):  # the markers passed: their next place
            if at < offset:
                at = find(needle, offset)
                if at == -1:
                    del marks[needle]
                else:
                    marks[needle] = at
        if not marks:
            break
        mark = min(marks.values())
    return refs, shells


def _next_fence(text: str, pos: int, fences: tuple[str, ...]) -> int:
    """Where the next fence line at or after `pos` (a line start) has its marker, one of `fences`; -1: none."""
    find = text.find
    while True:
        hit = find(fences[0], pos)
        if len(fences) > 1:
            other = find(fences[1], pos)
            if other != -1 and (hit == -1 or other < hit):
                hit = other
        if hit == -1:
            return -1
        begin = text.rfind("\n", 0, hit) + 1
        if _fence_at(text, begin, hit) is not None:
            return hit
        pos = find("\n", hit) + 1
        if pos == 0:
            return -1


def body_lines(doc: Document) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, inside a fenced block) for each body line that is not a fence line."""
    fm = doc.fm
    start = fm.body_start_line if fm is not None and fm.status == "ok" else 0
    fence: str | None = None
    src = doc.src
    # Without CRLF/CR the lines are exactly the text split on '\n' (one C call instead of a line_text()
    # per line); with them, line_text() strips the breaks.
    lines = (src.text.split("\n")[start:] if not src.has_crlf
             else [src.line_text(n) for n in range(start, src.line_count)])
    for n, line in enumerate(lines, start):
        is_fence, fence_after = fence_step(line, fence)
        inside = fence is not None and not is_fence
        fence = fence_after
        if not is_fence:
            yield n, line, inside


def lines_containing(doc: Document, needle: str) -> Iterator[tuple[int, str, bool]]:
    """The lines of `body_lines` that hold `needle`, found by jumping between the needle and the
    possible fences (`str.find`), not line by line."""
    fm = doc.fm
    start = fm.body_start_line if fm is not None and fm.status == "ok" else 0
    src = doc.src
    if start >= src.line_count:
        return
    if src.has_crlf:  # (CR line breaks: line by line, as the lines are cut)
        yield from (item for item in body_lines(doc) if needle in item[1])
        return
    text = src.text
    find, rfind, count = text.find, text.rfind, text.count
    offset = counted = src.line_start(start)
    line_no = start
    fence: str | None = None
    # The next place of each: the needle and the two fence markers (-1: none left).
    nxt = {needle: find(needle, offset), "```": find("```", offset), "~~~": find("~~~", offset)}
    while True:
        for key, at in nxt.items():
            if 0 <= at < offset:
                nxt[key] = find(key, offset)
        hits = [at for at in nxt.values() if at >= 0]
        if not hits:
            return
        hit = min(hits)  # the first of them on its line
        begin = rfind("\n", 0, hit) + 1
        stop = find("\n", hit)
        marker = _fence_at(text, begin, hit)
        if marker is not None:
            fence = _after_fence(marker, fence)
        else:
            line = text[begin:] if stop == -1 else text[begin:stop]
            if needle in line:
                line_no += count("\n", counted, begin)
                counted = begin
                yield line_no, line, fence is not None
        if stop == -1:
            return
        offset = stop + 1


def _scan_line(line_no: int, line: str, refs: list[Reference], shells: list[tuple[str, Span]]) -> None:
    """The references and shell injections of one body line outside fenced code."""
    if "](" in line:
        # Links shown as code (`[text](path)`) are examples, not references; blank them out
        # (same length, so columns stay right).
        plain = _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line) if "`" in line else line
        for lm in _LINK.finditer(plain):
            target = lm.group(1)
            refs.append(Reference("link", target, Span(line_no, lm.start(1), line_no, lm.end(1))))
    if "skill_" in line:
        for cm in _CALL.finditer(line):
            kind = "read_file" if cm.group(1) == "skill_read_file" else "run_script"
            refs.append(Reference(kind, cm.group(3), Span(line_no, cm.start(3), line_no, cm.end(3)), cm.group(2)))
    if "scripts/" in line and "`" in line:
        for sm in _INLINE_SCRIPT.finditer(line):
            if sm.group(1) is None and sm.group(2).startswith("scripts/"):
                continue
            refs.append(Reference("script_path", sm.group(2), Span(line_no, sm.start(2), line_no, sm.end(2))))
    if "!`" in line:
        for im in _SHELL_INJECTION.finditer(line):
            if im.start() > 0 and line[im.start() - 1] == "`":
                continue  # ``!`cmd` `` shown as code, not executed
            shells.append((im.group(1), Span(line_no, im.start(), line_no, im.end())))


def strip_skill_dir(target: str) -> str:
    for prefix in SKILL_DIR_TEMPLATES:
        if target.startswith(prefix):
            return target[len(prefix):]
    return target


@functools.lru_cache(maxsize=4096)  # (RF001, RF002 and RF004 each ask about every link: a pure function of the text)
def local_target(target: str) -> str | None:
    """The path part of a link target, or None for URLs, anchors and templated targets (a target
    that starts with a skill-directory template is resolved against the skill directory)."""
    if target.startswith("#") or _SCHEME.match(target) or target.startswith("//"):
        return None
    target = strip_skill_dir(target)
    if "{" in target or "$" in target or "<" in target:
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    return _percent_decoded(path) if path else None


def _percent_decoded(path: str) -> str:
    """`urllib.parse.unquote(path)`, importing it only for a path that has a `%` (unquote returns any
    other unchanged): urllib.parse is ~1.5 ms of every start."""
    if "%" not in path:
        return path
    from urllib.parse import unquote

    return unquote(path)


def local_links(doc: Document, *, scanned: bool = False) -> Iterator[tuple[Reference, str]]:
    """The body's Markdown links to local files: (reference, the target's path part). `scanned`: the
    body is scanned anyway (a skill file, whose references every RF rule reads)."""
    if not scanned and "](" not in doc.src.text:
        return  # no link without one: most reference files (RF004) need no scan at all
    for ref in body_references(doc)[0]:
        if ref.kind == "link":
            local = local_target(ref.target)
            if local is not None:
                yield ref, local
