"""Reference rules: files a skill points at (RF001-RF003).

References are found outside fenced code blocks: Markdown links and images with a relative target,
`skill_read_file("skill", "path")`, `skill_run_script("skill", "script")`, and bare `scripts/...`
paths in inline code. A target that escapes the skill directory is reported and never read.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import unquote

from skill_ls.core.model import Severity, Span
from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import FileContext

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
# Linear time on hostile lines (issue 7): link text may hold one level of balanced brackets but no
# bare '[' (so a start never rescans past the next one), and the target stops at brackets too.
_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*\]\(\s*<?([^)\s>\[\]]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CALL = re.compile(r"\b(skill_read_file|skill_run_script)\(\s*[\"']([^\"']+)[\"']\s*,\s*[\"']([^\"']+)[\"']")
# A scripts/ path counts as a reference when the inline code runs it (`python scripts/x.py`,
# `./scripts/x.sh`); a bare `scripts/x.py` is usually an example of what to create.
_INLINE_SCRIPT = re.compile(
    r"`(?:[^`]*?\b(python3?|bash|sh|zsh|node|deno|bun|ruby|perl|uv run|npx|tsx)\s+)?"
    r"((?:\./)?scripts/[A-Za-z0-9_.\-/]+\.(?:py|sh|bash|js|ts|mjs|rb|pl))(?![A-Za-z0-9_])[^`]*`")
_SHELL_INJECTION = re.compile(r"(?:(?<=^)|(?<=[\s(\[:>*_]))!`([^`\n]+)`")
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")  # a span opens only at the start of a backtick run
_LITERALS = ("```", "~~~", "](", "skill_", "scripts/", "!`")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
RUNNABLE = (".py", ".sh", ".bash", ".js")


def fence_step(line: str, fence: str | None) -> tuple[bool, str | None]:
    """Track fenced code blocks line by line: (is this line a fence, the open fence after it)."""
    if line.lstrip(" ")[:3] not in ("```", "~~~"):
        return False, fence
    m = _FENCE.match(line)
    if m is None:
        return False, fence
    marker = m.group(1)
    if fence is None:
        return True, marker[0] * 3
    return True, None if marker.startswith(fence) else fence


@dataclass(frozen=True)
class Reference:
    kind: str  # link | read_file | run_script | script_path
    target: str
    span: Span
    skill: str | None = None  # for skill_read_file / skill_run_script


def body_references(doc) -> tuple[list[Reference], list[tuple[str, Span]]]:
    """(file references, shell injections) in the body, outside fenced code blocks (cached per document)."""
    cached = doc.cache.get("body_references")
    if cached is None:
        cached = doc.cache["body_references"] = _scan_body(doc)
    return cached


def _scan_body(doc) -> tuple[list[Reference], list[tuple[str, Span]]]:
    refs: list[Reference] = []
    shells: list[tuple[str, Span]] = []
    start = doc.fm.body_start_line if doc.fm and doc.fm.status == "ok" else 0
    if doc.fm is not None and doc.fm.status in ("missing",):
        start = 0
    src = doc.src
    if start >= src.line_count:
        return refs, shells
    text = src.text
    body_offset = src.line_start(start)
    offsets: list[int] = []
    find = text.find
    for literal in _LITERALS:
        i = find(literal, body_offset)
        while i != -1:
            offsets.append(i)
            i = find(literal, i + 1)
    if not offsets:
        return refs, shells
    offsets.sort()
    # Visit only the lines that can matter: fences (to track code blocks) and lines with a marker.
    candidates: list[tuple[int, str]] = []
    bare_cr = src.has_crlf and "\r" in text.replace("\r\n", "")
    line_no, last, last_line = start, body_offset, -1
    for pos in offsets:
        if bare_cr:
            line_no = src.offset_to_pos(pos)[0]
        else:
            line_no += text.count("\n", last, pos)
            last = pos
        if line_no != last_line:
            last_line = line_no
            if bare_cr:
                line = src.line_text(line_no)
            else:
                begin = text.rfind("\n", 0, pos) + 1
                stop = find("\n", pos)
                line = (text[begin:] if stop == -1 else text[begin:stop]).rstrip("\r")
            candidates.append((line_no, line))
    fence = None
    for line_no, line in candidates:
        is_fence, fence = fence_step(line, fence)
        if is_fence:
            continue
        if fence is not None:
            continue
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
                if sm.group(1) is None and not sm.group(2).startswith("./"):
                    continue
                refs.append(Reference("script_path", sm.group(2), Span(line_no, sm.start(2), line_no, sm.end(2))))
        if "!`" in line:
            for im in _SHELL_INJECTION.finditer(line):
                if im.start() > 0 and line[im.start() - 1] == "`":
                    continue  # ``!`cmd` `` shown as code, not executed
                shells.append((im.group(1), Span(line_no, im.start(), line_no, im.end())))
    return refs, shells


def _local_target(target: str) -> str | None:
    """The path part of a link target, or None for URLs, anchors and templated targets."""
    if target.startswith("#") or _SCHEME.match(target) or target.startswith("//"):
        return None
    if "{" in target or "$" in target or "<" in target:
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    return unquote(path) if path else None


def resolve_reference(skill_dir: str, target: str) -> tuple[str | None, str | None]:
    """(absolute path, escape reason). Never touches the file system beyond the skill directory."""
    key = (skill_dir, target)
    hit = _RESOLVED.get(key)
    if hit is None:
        hit = _RESOLVED[key] = _resolve_reference(skill_dir, target)
        if len(_RESOLVED) > 50_000:
            _RESOLVED.clear()
    return hit


_RESOLVED: dict[tuple[str, str], tuple[str | None, str | None]] = {}


def _resolve_reference(skill_dir: str, target: str) -> tuple[str | None, str | None]:
    if os.path.isabs(target) or target.startswith("~"):
        return None, "absolute path"
    joined = os.path.normpath(os.path.join(skill_dir, target))
    base = os.path.normpath(skill_dir)
    if not (joined == base or joined.startswith(base + os.sep)):
        return None, "'..' leaves the skill directory"
    if not os.path.lexists(joined):
        return joined, None
    try:
        real = os.path.realpath(joined)
        real_base = os.path.realpath(base)
    except (OSError, ValueError):
        return joined, None
    if not (real == real_base or real.startswith(real_base + os.sep)):
        return None, "a symlink leads outside the skill directory"
    return joined, None


def _targets(ctx: FileContext):
    doc = ctx.doc
    if doc.read_error or doc.fm is None:
        return
    refs, _ = body_references(doc)
    skill_dir = doc.directory
    for ref in refs:
        if ref.kind in ("read_file", "run_script"):
            other = _skill_dir_named(ctx, ref.skill) if ref.skill != _own_name(doc) else skill_dir
            if other is None:
                continue  # the skill name itself is checked by the agent/skill resolution rules
            base = other
            target = ref.target
            if ref.kind == "run_script" and not target.startswith("scripts/"):
                target = "scripts/" + target
        elif ref.kind == "link":
            local = _local_target(ref.target)
            if local is None:
                continue
            base, target = skill_dir, local
        else:
            base, target = skill_dir, ref.target[2:] if ref.target.startswith("./") else ref.target
        yield ref, base, target


def _own_name(doc) -> str:
    name = doc.fm.value("name") if doc.fm and doc.fm.status == "ok" else None
    return name if isinstance(name, str) else doc.dir_name


def _skill_dir_named(ctx: FileContext, name: str | None) -> str | None:
    if name is None or ctx.index is None:
        return None
    for table in ctx.index.by_name.values():
        for decl in table.get(name, ()):
            if decl.path:
                return os.path.dirname(decl.path)
    return None


@rule("RF001", Severity.WARNING, "file")
def missing_reference(ctx: FileContext):
    """A file the skill references does not exist.

    ## What it does
    Resolves relative Markdown links, `skill_read_file("skill", "path")` and `skill_run_script`
    targets, and `scripts/...` paths in inline code against the skill directory (outside fenced
    code blocks), and reports the ones that do not exist.

    ## Why is this bad?
    The agent follows the reference when it uses the skill and fails at the worst moment.
    """
    for ref, base, target in _targets(ctx):
        path, escape = resolve_reference(base, target)
        if escape is not None or path is None:
            continue
        if not os.path.lexists(path):
            ctx.out.report(ref.span, f"referenced file '{target}' does not exist in "
                           f"{os.path.basename(base)}/", data={"target": target})


@rule("RF002", Severity.ERROR, "file")
def reference_escapes_skill(ctx: FileContext):
    """A reference leaves the skill directory (`..`, an absolute path, or a symlink out).

    ## What it does
    Checks every local reference stays inside the skill's directory. Escaping targets are never read.

    ## Why is this bad?
    Skills are installed and copied as directories; a path outside it breaks on every other machine
    and may expose unrelated files to the agent. References should be relative and one level deep.
    """
    for ref, base, target in _targets(ctx):
        _, escape = resolve_reference(base, target)
        if escape is not None:
            ctx.out.report(ref.span, f"reference '{target}' escapes the skill directory ({escape}); keep "
                           "resources inside the skill and use a relative path")


@rule("RF003", Severity.WARNING, "file")
def shell_execution(ctx: FileContext):
    """A `` !`command` `` line runs a shell command, or a `skill_run_script` target is not runnable.

    ## What it does
    Flags `` !`command` `` (executed by the runtime when the skill activates, before the model reads
    anything) and `skill_run_script` targets that are not `.py`, `.sh`, `.bash` or `.js` files in
    the skill's `scripts/` directory.

    ## Why is this bad?
    Activation-time shell commands are security relevant: they run with the user's permissions
    whenever the skill loads. skill-ls never runs them.
    """
    doc = ctx.doc
    if doc.read_error or doc.fm is None:
        return
    refs, shells = body_references(doc)
    for command, span in shells:
        ctx.out.report(span, f"'!`{command}`' runs a shell command when the skill activates; make sure it is "
                       "safe and intended")
    for ref in refs:
        if ref.kind != "run_script":
            continue
        target = ref.target if ref.target.startswith("scripts/") else "scripts/" + ref.target
        if not target.endswith(RUNNABLE):
            ctx.out.report(ref.span, f"skill_run_script target '{ref.target}' is not runnable: use a "
                           f"{', '.join(RUNNABLE)} file in scripts/")
