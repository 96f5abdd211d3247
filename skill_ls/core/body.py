"""What a skill's Markdown body points at: fenced code blocks, file references and shell injections.

One fence tracker (`fence_step`) serves every body scan (references, navigation, symbols).
References are found outside fenced code blocks: Markdown links and images with a relative target,
`skill_read_file("skill", "path")`, `skill_run_script("skill", "script")`, and `scripts/...` paths
run in inline code. Plain values with positions; no rule logic (the RF rules read these).
"""
from __future__ import annotations

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
_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*\]\(\s*<?([^)\s>\[\]]+)>?(?:\s+\"[^\"]*\")?\s*\)")
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
# What puts a line in view: a possible fence (```, ~~~), link ("]("), skill_ call, scripts/ path or shell
# injection ("!`"). Each is matched from a character rarer than their first ones ('s' is everywhere in
# prose, and the search skips ahead to a possible first character), looking behind for the rest.
_MARKER = re.compile(r"`(?:``|(?<=!`))|~~~|\((?<=\]\()|_(?<=skill_)|/(?<=scripts/)")
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
    if start >= src.line_count:
        return refs, shells
    text = src.text
    offset = src.line_start(start)
    if src.has_crlf and "\r" in text.replace("\r\n", ""):
        # Bare CR breaks lines too (LSP): scan the body's lines joined by "\n" (columns stay right).
        text, offset = "\n".join(src.line_text(n) for n in range(start, src.line_count)), 0
    # Visit only the lines that can matter: the first line with a marker after the previous one,
    # or, inside a fenced block, the next line that may close it. The hit is the first marker of
    # its line, so whether the line is a fence (as `fence_step` reads it) is known from the hit,
    # without taking the line out of the text.
    search, find, rfind, count = _MARKER.search, text.find, text.rfind, text.count
    line_no, counted = start, offset
    fence: str | None = None
    while True:
        if fence is None:
            m = search(text, offset)
            if m is None:
                break
            hit = m.start()
        else:
            hit = find(fence, offset)
            if hit == -1:
                break
        begin = rfind("\n", 0, hit) + 1
        stop = find("\n", hit)
        marker = _fence_at(text, begin, hit)
        if marker is not None:
            fence = _after_fence(marker, fence)
        elif fence is None:
            line_no += count("\n", counted, begin)
            counted = begin
            _scan_line(line_no, (text[begin:] if stop == -1 else text[begin:stop]).rstrip("\r"), refs, shells)
        if stop == -1:
            break
        offset = stop + 1
    return refs, shells


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


def local_links(doc: Document) -> Iterator[tuple[Reference, str]]:
    """The body's Markdown links to local files: (reference, the target's path part)."""
    if "](" not in doc.src.text:
        return  # no link without one: most reference files (RF004) need no scan at all
    for ref in body_references(doc)[0]:
        if ref.kind == "link":
            local = local_target(ref.target)
            if local is not None:
                yield ref, local
