"""Parsing rules: the frontmatter block itself, the file's encoding and shape."""
from __future__ import annotations

import os

import re

from skill_ls.core.index import Document, ignored_frontmatter
from skill_ls.core.model import Fix, Severity, Span, TextEdit
from skill_ls.core.parse.frontmatter import Problem, quote_repair
from skill_ls.core.parse.text import MAX_READ_BYTES
from skill_ls.analysis.rules import replace_fix, rule
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.spans import header_span
from skill_ls.analysis.rules.context import FileContext
from skill_ls.core.runtimes import PLUGIN_RUNTIME, RUNTIMES, Runtime, all_known_fields
from skill_ls.analysis.readers import Reader, readers_of
from skill_ls.core.runtimes.spec import STANDARD_NAME

# What a fix writes where the author must still write something: it parses, and says what to write.
DESCRIPTION_PLACEHOLDER = '"TODO: say what this skill does and when to use it"'
_TRAILING_KEY = lazy_pattern(r"(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]*)$")

LINE_BUDGET = 500
TOKEN_BUDGET = 5000
CHARS_PER_TOKEN = 4  # the usual rough estimate for English prose


def _problems(ctx: FileContext, *kinds: str) -> list[Problem]:
    fm = ctx.doc.fm
    return [p for p in (fm.problems if fm else ()) if p.kind in kinds]


@rule("SK001", Severity.ERROR, "file", fix="unsafe")
def missing_frontmatter(ctx: FileContext) -> None:
    """The file does not start with a `---` frontmatter block.

    ## What it does
    Checks that SKILL.md starts with a line that is exactly `---`, opening the YAML frontmatter.

    ## Why is this bad?
    Every runtime reads the skill's `name` and `description` from the frontmatter. Without it the
    skill is not loaded at all (it is *blocked*), and nothing tells the author. Claude Code is the
    exception: it loads the file, named after its directory, with no other settings (and warns), so
    where only Claude Code reads the file (`.claude/skills`, plugins) this is a warning, and `where`,
    hover and the catalog list that copy as loaded there. Its documentation says the description is
    the first paragraph; Claude Code 2.1.332 takes the first non-blank line (a heading's `#` marks
    dropped, cut at 100 characters), and skill-ls follows the behaviour
    (https://code.claude.com/docs/en/skills, frontmatter reference).

    ## Example
    ```markdown
    # My skill
    Do things.
    ```
    Use instead:
    ```markdown
    ---
    name: my-skill
    description: Does things. Use when things need doing.
    ---
    # My skill
    ```

    ## Fix safety
    Unsafe: the fix inserts a frontmatter block named after the directory, with a placeholder
    description that says what to write (`TODO: …`); replace it before you publish the skill. It is
    not offered when the directory name is not a valid skill name.
    """
    if ctx.doc.read_error or ctx.doc.fm is None or ctx.doc.fm.status != "missing":
        return
    name = ctx.doc.dir_name
    fix = None
    if STANDARD_NAME.match(name) and len(name) <= 64:
        fix = replace_fix("Add a frontmatter block (fill in the description)", ctx.doc.path, Span(0, 0, 0, 0),
                          f"---\nname: {name}\ndescription: {DESCRIPTION_PLACEHOLDER}\n---\n", safe=False)
    message = "missing frontmatter: start the file with a '---' line, the YAML fields, and a closing '---'"
    readers = readers_of(ctx.readers)
    hosts = [RUNTIMES[r.runtime] for r in readers if r.host is None]
    if hosts and all(rt.frontmatter_optional for rt in hosts):
        # Claude Code loads it (its first line as the description) and warns; guests may not.
        refusing = [RUNTIMES[r.runtime].title for r in readers if not RUNTIMES[r.runtime].frontmatter_optional]
        titles = ", ".join(rt.title for rt in hosts)
        message += (f"; {titles} loads it with its first line as the description and no other settings"
                    + (f", but {', '.join(refusing)} does not load it" if refusing else ""))
        ctx.out.report(header_span(ctx.doc), message, fix=fix, severity=Severity.WARNING)
        return
    ctx.out.report(header_span(ctx.doc), message, fix=fix)


@rule("SK002", Severity.ERROR, "file", file_kinds=("skill", "command"))
def unterminated_frontmatter(ctx: FileContext) -> None:
    """The frontmatter block is opened with `---` but never closed.

    ## What it does
    Looks for the closing line (`---` or `...`) after the opening `---`.

    ## Why is this bad?
    Without the closing line the whole file is YAML to a parser, which fails or swallows the body;
    runtimes refuse to load the skill.

    ## Example
    ```markdown
    ---
    name: my-skill
    description: Does things.
    # My skill
    ```
    Use instead: add a `---` line after the last field.
    """
    for p in _problems(ctx, "unterminated"):
        ctx.out.report(p.span, "unterminated frontmatter: add a closing '---' line after the last field")


@rule("SK003", Severity.ERROR, "file", fix="mixed", file_kinds=("skill", "command"))
def yaml_syntax_error(ctx: FileContext) -> None:
    """The frontmatter is not valid YAML (or the file is not valid UTF-8).

    ## What it does
    Parses the frontmatter with PyYAML (C loader when available) and reports the error at the
    position the parser gives (the column of the offending `: `, however far into the value). The
    two common causes are recognised: a line break lost between two fields, which glues the next
    key onto a value (`description: …时使用。license: Apache-2.0`), and an unquoted `: ` inside a
    value (`description: Use when: the user asks`).

    ## Why is this bad?
    A runtime that cannot parse the frontmatter does not load the skill; Claude Code loads it with the
    whole frontmatter ignored (none of its settings; the message says so). Claude Code retries a block
    that does not parse after quoting each top-level value that needs it (a value holding `: ` or
    one of `{}[]*&#!|>%@`), so where only Claude Code reads the file (plugins, commands) and that
    repair parses, this is a warning: the file loads there (with the repaired values; `where`, hover
    and the catalog list that copy as loaded), but no other tool reads it.

    ## Example
    ```yaml
    description: Use when: the user asks for a report
    ```
    Use instead:
    ```yaml
    description: "Use when: the user asks for a report"
    ```

    ## Fix safety
    When the text before the value's last `: ` ends with a key some runtime knows (`license`,
    `compatibility`, `allowed-tools`…) that the block does not already have, the fix splits the line
    back into two fields. It is unsafe: `license: MIT` can also be prose. Otherwise the fix quotes the
    value, which keeps its text exactly (backslashes and double quotes are escaped): safe.
    """
    doc = ctx.doc
    if doc.src.invalid_utf8_at is not None:
        line, col = doc.src.offset_to_pos(_char_offset_of_byte(doc, doc.src.invalid_utf8_at))
        ctx.out.report(Span(line, col, line, col + 1),
                       f"file is not valid UTF-8 (first bad byte at offset {doc.src.invalid_utf8_at}); "
                       "save it as UTF-8")
    repaired_by = _repairing_readers(ctx) if _problems(ctx, "syntax") else None
    ignored_by = _ignoring_readers(ctx) if repaired_by is None and _problems(ctx, "syntax") else None
    for p in _problems(ctx, "syntax", "too_complex"):
        if repaired_by is not None and p.kind == "syntax":
            titles, refusing = repaired_by
            p = Problem(p.kind, p.span, p.message + f"; {titles} quotes such values itself and loads the file"
                        + (f", but {refusing} does not" if refusing else ""),
                        p.fix_title, p.fix_span, p.fix_text)
        elif ignored_by is not None and p.kind == "syntax":
            p = Problem(p.kind, p.span, p.message + ignored_by, p.fix_title, p.fix_span, p.fix_text)
        fix = None
        if p.fix_text is not None and p.fix_span is not None and not _repeats_a_top_level_key(doc):
            fix = _split_fix(doc, p.fix_span) or replace_fix(p.fix_title or "Quote the value", doc.path, p.fix_span,
                                                             p.fix_text, safe=True)
        message = p.message
        if fix is not None and not fix.safe:
            message = message.replace("; quote the value", "; a line break seems lost before the next key")
        ctx.out.report(p.span, message, fix=fix,
                       severity=Severity.WARNING if repaired_by is not None and p.kind == "syntax" else None)


def _hosts(ctx: FileContext) -> tuple[list[Reader], list[Runtime]]:
    """The file's readers, and the runtimes among them that read it as their own (a command file,
    which has no readers, is Claude Code's alone)."""
    readers = readers_of(ctx.readers)
    hosts = [RUNTIMES[r.runtime] for r in readers if r.host is None] or (
        [RUNTIMES[PLUGIN_RUNTIME]] if ctx.kind == "command" else [])
    return readers, hosts


def _ignoring_readers(ctx: FileContext) -> str | None:
    """When every runtime that reads the file as its own loads it with a frontmatter it cannot read
    ignored (`ignores_unreadable_frontmatter`, Claude Code): the words that say so; else None."""
    if ignored_frontmatter(ctx.doc) is None:
        return None
    readers, hosts = _hosts(ctx)
    if not hosts or not all(rt.ignores_unreadable_frontmatter for rt in hosts):
        return None
    refusing = [RUNTIMES[r.runtime].title for r in readers if not RUNTIMES[r.runtime].ignores_unreadable_frontmatter]
    return (f"; {', '.join(rt.title for rt in hosts)} ignores the whole frontmatter and loads the file with none of "
            "its settings (named after its directory, its first line as the description)"
            + (f", and {', '.join(refusing)} does not load it" if refusing else ""))


def _repairing_readers(ctx: FileContext) -> tuple[str, str] | None:
    """When every runtime that reads the file as its own repairs unquoted values (Claude Code) and the
    repaired block parses: (their titles, the guests that do not repair it); else None. A command
    file (no readers) is read by Claude Code alone."""
    fm = ctx.doc.fm
    if fm is None or fm.open_line is None or fm.close_line is None:
        return None
    readers, hosts = _hosts(ctx)
    if not hosts or not all(rt.repairs_unquoted_values for rt in hosts):
        return None
    src = ctx.doc.src
    block = "\n".join(src.line_text(n) for n in range(fm.open_line + 1, fm.close_line))
    if quote_repair(block) is None:
        return None
    refusing = [RUNTIMES[r.runtime].title for r in readers if not RUNTIMES[r.runtime].repairs_unquoted_values]
    return ", ".join(rt.title for rt in hosts), ", ".join(refusing)


_TOP_LEVEL_KEY = lazy_pattern(r"([A-Za-z0-9_.\-]+)[ \t]*:(?:[ \t]|$)")


def _repeats_a_top_level_key(doc: Document) -> bool:
    """Whether the (unparsable) block repeats a top-level key: a repair would only reveal SK004, so
    none is offered (the parser cannot say which copy the author meant)."""
    fm = doc.fm
    if fm is None or fm.open_line is None or fm.close_line is None:
        return False
    seen: set[str] = set()
    for line in range(fm.open_line + 1, fm.close_line):
        m = _TOP_LEVEL_KEY.match(doc.src.line_text(line))
        if m is None:
            continue
        if m.group(1) in seen:
            return True
        seen.add(m.group(1))
    return False


def _split_fix(doc: Document, value_span: Span) -> Fix | None:
    """Split `key: text.other-key: value` back into two lines when `other-key` is a known key."""
    line = value_span.start_line
    text = doc.src.line_text(line)
    value = text[value_span.start_col:value_span.end_col]
    cut = value.rfind(": ")
    if cut <= 0:
        return None
    m = _TRAILING_KEY.search(value[:cut])
    if m is None or m.group(1) not in all_known_fields():
        return None
    key = m.group(1)
    head = value[:m.start(1)].rstrip()
    if not head or head.endswith(":"):
        return None
    indent = text[:len(text) - len(text.lstrip())]
    fm = doc.fm
    pattern = re.compile(rf"{re.escape(indent)}{re.escape(key)}\s*:")
    if fm is not None and fm.open_line is not None and fm.close_line is not None:
        for other in range(fm.open_line + 1, fm.close_line):
            if pattern.match(doc.src.line_text(other)):
                return None  # the block has that key already: splitting would duplicate it
    start = value_span.start_col + len(head)
    rest = value[m.start(1):].rstrip()
    return Fix(f"Split '{key}' onto its own line (a line break seems lost)",
               (TextEdit(doc.path, Span(line, start, line, len(text)), "\n" + indent + rest),), safe=False)


def _char_offset_of_byte(doc: Document, byte_offset: int) -> int:
    # Replacement characters make decoded offsets differ from bytes only after the first bad byte.
    prefix = doc.src.text.encode("utf-8", errors="surrogatepass")[:byte_offset]
    return len(prefix.decode("utf-8", errors="replace"))


@rule("SK004", Severity.ERROR, "file")
def frontmatter_shape(ctx: FileContext) -> None:
    """The frontmatter is not a mapping, or it repeats a key.

    ## What it does
    Checks that the YAML document is a mapping of keys to values and that no key appears twice
    in any mapping.

    ## Why is this bad?
    PyYAML silently keeps the last duplicate; other runtimes keep the first or refuse the file, so
    different tools disagree on what the skill says. skill-ls treats the skill as blocked. A
    frontmatter that is not a mapping is ignored by Claude Code, which loads the file with none of
    its settings (the message says so).

    ## Example
    ```yaml
    name: report
    description: Old text
    description: New text
    ```
    Use instead: keep one `description`.
    """
    ignored_by = _ignoring_readers(ctx) if _problems(ctx, "not_mapping") else None
    for p in _problems(ctx, "not_mapping", "duplicate_key"):
        ctx.out.report(p.span, p.message + (ignored_by if ignored_by is not None and p.kind == "not_mapping" else ""))


@rule("SK012", Severity.WARNING, "file")
def body_too_long(ctx: FileContext) -> None:
    """The body is over 500 lines or about 5,000 tokens (or the file is too large to check at all).

    ## What it does
    Counts the lines after the frontmatter and estimates tokens as characters / 4. A file larger
    than 16 MiB is read and checked only up to that size; the finding then says so, with how much
    was not checked, and the counts are lower bounds ("at least").

    ## Why is this bad?
    The Agent Skills standard recommends keeping SKILL.md under 500 lines and ~5,000 tokens; the whole
    body is loaded into the context when the skill activates. Move detail into `references/` files
    that are read on demand — except under Agentcy, which reads every `.md` file as a skill and
    injects the whole file against its prompt budget: there the advice is to trim.
    """
    doc = ctx.doc
    if doc.truncated:
        read = MAX_READ_BYTES  # a file is truncated exactly there
        st = ctx.disk.stat(doc.path)
        total = st.st_size if st is not None else 0
        rest = f"the remaining {total - read:,} bytes" if total > read else "the rest"
        ctx.out.report(header_span(doc), f"file is {total:,} bytes: only the first {read:,} bytes "
                       f"were read and checked, {rest} were not checked", data={"truncated": True})
    if doc.fm is None or doc.fm.status != "ok":
        return
    start, end = doc.body_lines()
    src = doc.src
    # Hot path: end is the line count, so without CR line breaks the last line is empty exactly when the
    # text is empty or ends with '\n' -- no line table needed (line_text() would build one per file).
    last_empty = (src.text == "" or src.text.endswith("\n")) if not src.has_crlf else src.line_text(end - 1) == ""
    if end > start and last_empty:
        end -= 1  # the empty "line" after a final newline is not a line of the body
    lines = end - start
    chars = len(doc.src.text) - doc.src.line_start(start)
    tokens = chars // CHARS_PER_TOKEN
    if lines > LINE_BUDGET or tokens > TOKEN_BUDGET:
        what = f"{lines} lines" if lines > LINE_BUDGET else f"about {tokens} tokens"
        if doc.truncated:
            what = "at least " + what.replace("about ", "")
        span = _budget_span(doc, start, end, lines > LINE_BUDGET)
        advice = "move detail into references/ files"
        every_md = _every_md_readers(ctx)
        if every_md:  # Agentcy: every .md of the root is a skill, so a references/ file is one more skill
            advice = (f"trim it ({every_md} reads every .md file as a skill of its own, so detail moved into "
                      "references/ would become another skill)")
        ctx.out.report(span, f"body is {what} (recommended: under {LINE_BUDGET} lines and ~{TOKEN_BUDGET} tokens); "
                       f"{advice} (marked: where the budget runs out)")


def _every_md_readers(ctx: FileContext) -> str:
    """The titles of the runtimes reading this file that read every `.md` file as a skill, or ""."""
    from skill_ls.analysis.readers import readers_of, titles
    from skill_ls.core.runtimes import RUNTIMES

    return titles(r.runtime for r in readers_of(ctx.readers) if RUNTIMES[r.runtime].skill_files == "every_md")


def _budget_span(doc: Document, start: int, end: int, by_lines: bool) -> Span:
    """The first non-empty line past the budget (lines, else characters), whole; else the header."""
    src = doc.src
    if by_lines:
        over = start + LINE_BUDGET
    else:
        limit = src.line_start(start) + TOKEN_BUDGET * CHARS_PER_TOKEN
        over = min(src.offset_to_pos(min(limit, len(src.text)))[0], end - 1)
    for line in list(range(over, end)) + list(range(over - 1, start - 1, -1)):
        text = src.line_text(line)
        if text.strip():
            first = len(text) - len(text.lstrip())
            return Span(line, first, line, len(text.rstrip()))
    return header_span(doc)


@rule("SK013", Severity.INFORMATION, "file", fix="safe")
def portability_note(ctx: FileContext) -> None:
    """Portability notes: a UTF-8 BOM, a `skill.md` spelling, CRLF under Amp.

    ## What it does
    Reports a leading byte-order mark, a file named `skill.md` (runtimes look for exactly
    `SKILL.md`, so it is never discovered), and, under Amp roots, CRLF line endings (Amp's
    frontmatter parser needs LF: warning, the skill will not load in Amp).

    ## Why is this bad?
    Each works in some tools and silently fails in others.

    ## Fix safety
    Safe: `skill-ls check --fix` removes the byte-order mark and converts CRLF to LF (under Amp
    roots); neither changes the text. Renaming `skill.md` is left to the author.
    """
    doc = ctx.doc
    if doc.src.had_bom:
        ctx.out.report(Span(0, 0, 0, 0), "file starts with a UTF-8 byte-order mark; several runtimes do not "
                       "recognise '---' after it: save without BOM",
                       fix=Fix("Remove the byte-order mark", (), safe=True, remove_bom=True))
    if os.path.basename(doc.path) == "skill.md":
        ctx.out.report(Span(0, 0, 0, len(doc.src.line_text(0))),
                       "file is named 'skill.md': runtimes look for exactly 'SKILL.md', so agh, amp, claude-code, "
                       "codex and agentskills clients never discover it; rename it to SKILL.md",
                       severity=Severity.WARNING)
