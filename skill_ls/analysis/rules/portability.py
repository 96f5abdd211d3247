"""Portability findings: what one runtime reads and another ignores or rejects.

These are information for the runtimes they affect, never errors everywhere: a key Claude Code
reads and Amp ignores is fine in `.claude/skills`, and an upload limit of claude.ai matters only to
authors who upload the skill there.
"""
from __future__ import annotations

import re

from skill_ls.analysis.readers import ignoring_readers, knowing_runtimes, readers_of, titles
from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import FileContext
from skill_ls.core.model import Severity
from skill_ls.core.parse.frontmatter import FieldEntry, Frontmatter
from skill_ls.core.runtimes import BASE_RUNTIME, RUNTIMES

# claude.ai upload and the Skills API (https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview,
# "Skill structure": name cannot contain XML tags or the reserved words "anthropic", "claude";
# description cannot contain XML tags).
RESERVED_WORDS = ("anthropic", "claude")
XML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?/?>")
UPLOAD = "claude.ai upload"


def _fm(ctx: FileContext) -> Frontmatter | None:
    fm = ctx.doc.fm
    return fm if fm is not None and fm.status == "ok" and not ctx.doc.read_error else None


def _str_field(ctx: FileContext, key: str) -> FieldEntry | None:
    """The field `key` when the frontmatter parsed and its value is a string."""
    fm = _fm(ctx)
    entry = fm.fields.get(key) if fm is not None else None
    return entry if entry is not None and isinstance(entry.value, str) else None


@rule("PT001", Severity.INFORMATION, "file")
def field_ignored_by_some_runtimes(ctx: FileContext) -> None:
    """A key that one runtime reading the file knows and another ignores.

    ## What it does
    For each frontmatter key known to at least one runtime that reads this file, names the reading
    runtimes that ignore it. A guest root is left out for the keys of its host (Amp ignoring
    Claude Code's `model` in `.claude/skills` is expected, so a valid Claude Code skill there is
    clean). A SKILL.md under no runtime root can be installed anywhere, so the note names the
    runtimes that know the key. Keys no reader knows are SK007.

    ## Why is this bad?
    It is not: the note tells the author which runtimes will not honour the setting (Codex ignores
    `argument-hint`; AGH ignores `model`), so the skill does not behave the same everywhere.

    ## Example
    ```yaml
    isolatedContext: true   # in .agents/skills: Amp reads it; Codex and the standard ignore it
    ```

    ## Fix
    Nothing to fix when the difference is intended; otherwise express the setting in a form every
    reading runtime honours, or move the skill to the roots of the runtime it is written for.

    ## Source
    The field lists of each runtime descriptor.
    """
    fm = _fm(ctx)
    if fm is None:
        return
    readers = readers_of(ctx.readers)
    for key, entry in fm.fields.items():
        if not readers:
            knowers = knowing_runtimes(key)
            if knowers and BASE_RUNTIME not in knowers:
                ctx.out.report(entry.key_span, f"'{key}' is read only by {titles(knowers)}; other runtimes ignore it")
            continue
        if not any(key in RUNTIMES[r.runtime].fields or (r.host and key in RUNTIMES[r.host].fields)
                   for r in readers):
            continue  # unknown everywhere: SK007
        ignoring = ignoring_readers(key, readers)
        if ignoring:
            ctx.out.report(entry.key_span, f"'{key}' is ignored by {titles(ignoring)}, which also read this skill")


@rule("PT002", Severity.INFORMATION, "file")
def upload_rejects_name(ctx: FileContext) -> None:
    """claude.ai and the Skills API reject a name with a reserved word or an XML tag.

    ## What it does
    The upload validation of claude.ai and the Claude API refuses a `name` that contains `claude`
    or `anthropic`, or an XML tag. Local runtimes (Claude Code, Codex, Amp, AGH) load such a skill.

    ## Why is this bad?
    The skill cannot be uploaded to claude.ai or the Skills API under that name.

    ## Example
    ```yaml
    name: claude-helper
    ```
    Use instead: `name: code-helper`.

    ## Source
    https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview ("Skill structure").
    """
    entry = _str_field(ctx, "name")
    if entry is None:
        return
    lowered = entry.value.lower()
    for word in RESERVED_WORDS:
        if word in lowered:
            ctx.out.report(entry.value_span, f"{UPLOAD} ✗ '{word}' in name: claude.ai and the Skills API reserve "
                           f"'claude' and 'anthropic' (local runtimes load it)")
            return
    if XML_TAG.search(entry.value):
        ctx.out.report(entry.value_span, f"{UPLOAD} ✗ XML tag in name: claude.ai and the Skills API reject it")


@rule("PT003", Severity.INFORMATION, "file")
def upload_rejects_description(ctx: FileContext) -> None:
    """claude.ai and the Skills API reject a description with an XML tag.

    ## What it does
    Reports the first XML tag (`<example>`, `</b>`, `<T>`) in `description`.

    ## Why is this bad?
    The upload is refused; locally, runtimes that paste descriptions into XML catalogs unescaped
    (Amp, SK014) also corrupt their markup.

    ## Example
    ```yaml
    description: Sends <TMessage> between view models.
    ```
    Use instead: `description: Sends typed messages between view models.`

    ## Source
    https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview ("Skill structure").
    """
    entry = _str_field(ctx, "description")
    if entry is None:
        return
    m = XML_TAG.search(entry.value)
    if m:
        ctx.out.report(entry.value_span, f"{UPLOAD} ✗ XML tag '{m.group(0)[:40]}' in description: claude.ai and the "
                       "Skills API reject it")
