"""Field rules, per runtime: required fields, types, unknown keys, names, limits, catalog cuts
(SK005-SK011, SK014, and SK013's Amp line-ending part)."""
from __future__ import annotations

import difflib
import functools
import os

from skill_ls.core.model import Severity, Span
from skill_ls.analysis.rules import replace_fix, rule
from skill_ls.core.parse.text import collapse
from skill_ls.core.spans import closing_insert_span, header_span, name_span
from skill_ls.analysis.rules.context import RuntimeContext
from skill_ls.core.shape import shape_refusal
from skill_ls.core.runtimes import FieldSpec, all_known_fields



def _fm_ok(ctx: RuntimeContext) -> bool:
    fm = ctx.doc.fm
    return fm is not None and fm.status == "ok" and not ctx.doc.read_error


def _is_empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == [] or value == {}


@rule("SK005", Severity.ERROR, "runtime")
def required_field_missing(ctx: RuntimeContext):
    """A field the runtime requires is missing or empty.

    ## What it does
    Checks the runtime's required fields: `name` and `description` for the Agent Skills standard,
    AGH and Amp; `description` for Codex; `name` and `description` for Agentcy.

    ## Why is this bad?
    The runtime refuses to load the skill (it is *blocked*) and says so only in its logs.

    ## Fix safety
    The fix adds the missing key before the closing `---` (`name` gets the directory name).
    """
    if not _fm_ok(ctx):
        return
    fm = ctx.doc.fm
    for key in ctx.runtime.required_fields:
        entry = fm.fields.get(key)
        if entry is not None and not _is_empty(entry.value):
            continue
        if entry is None:
            insert = closing_insert_span(ctx.doc)
            default = ctx.doc.dir_name if key == "name" else ""
            fix = replace_fix(f"Add '{key}'", ctx.doc.path, insert, f"{key}: {default}\n") if insert else None
            ctx.out.report(header_span(ctx.doc), f"required field '{key}' is missing: {ctx.runtime.title} will not "
                           "load this skill", fix=fix)
        else:
            ctx.out.report(entry.key_span, f"required field '{key}' is empty: {ctx.runtime.title} will not load "
                           "this skill")


_KIND_TEXT = {
    "str": "a string", "bool": "true or false", "int": "an integer", "number": "a number",
    "scalar": "a string or number", "str_list": "a list of strings", "str_or_list": "a string or a list of strings",
    "map": "a mapping", "str_map": "a mapping of strings to strings", "list": "a list",
    "list_of_maps": "a list of mappings",
}


def type_ok(spec: FieldSpec, value) -> bool:
    kind = spec.kind
    if kind == "any":
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "scalar":
        return isinstance(value, (str, int, float)) and not isinstance(value, bool)
    if kind == "str_list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "str_or_list":
        return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    if kind == "map":
        return isinstance(value, dict)
    if kind == "str_map":
        return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
    if kind == "list":
        return isinstance(value, list)
    if kind == "list_of_maps":
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    return True


@rule("SK006", Severity.ERROR, "runtime")
def wrong_type(ctx: RuntimeContext):
    """A field has the wrong type or a value outside its allowed set.

    ## What it does
    Checks each known field against the runtime's type (`bool`, string, list of strings, mapping of
    strings...) and enumerations (Claude Code `effort`, `context`, `shell`).

    ## Why is this bad?
    `disable-model-invocation: "yes"` is a string, not a boolean; runtimes either reject the skill or
    ignore the setting, and the author never finds out which.

    ## Example
    ```yaml
    metadata:
      version: 2
    ```
    Use instead: `version: "2"` (the standard's `metadata` maps strings to strings).
    """
    if not _fm_ok(ctx):
        return
    for key, entry in ctx.doc.fm.fields.items():
        spec = ctx.runtime.fields.get(key)
        if spec is None or entry.value is None:
            continue  # null values are "missing" (SK005) rather than mistyped
        if not type_ok(spec, entry.value):
            ctx.out.report(entry.value_span, f"'{key}' must be {_KIND_TEXT.get(spec.kind, spec.kind)} for "
                           f"{ctx.runtime.title}")
        elif spec.enum and isinstance(entry.value, str) and entry.value not in spec.enum:
            ctx.out.report(entry.value_span, f"'{key}' must be one of {', '.join(spec.enum)} "
                           f"(got '{entry.value}')")


@rule("SK007", Severity.WARNING, "runtime")
def unknown_field(ctx: RuntimeContext):
    """A frontmatter key that no runtime reading the file knows.

    ## What it does
    Compares every top-level key with the fields of every runtime that reads this file (the roots it
    sits in) and reports a key only when none of them knows it, with the closest known key as a
    suggestion (never a key the file already has). A key that one reading runtime knows and another
    ignores is a portability note instead (PT001). Amp reads `.claude/skills` as a guest, so a
    Claude Code key there is never reported for Amp. A SKILL.md under no runtime root can be
    installed anywhere: a key any runtime knows is a portability note there too. Codex ignores
    unknown keys by design, so for Codex this is information only.

    ## Why is this bad?
    A typo'd key (`desciption`, `allowed_tools`) is silently ignored: the setting the author wrote
    has no effect.

    ## Example
    ```yaml
    allowed_tools: Read Grep
    ```
    Use instead: `allowed-tools: Read Grep`.

    ## Fix safety
    The fix renames the key to the suggestion; the value is untouched.

    ## Source
    The field lists of each runtime (SPEC §3; https://agentskills.io/specification,
    https://code.claude.com/docs/en/skills, https://developers.openai.com/codex/skills).
    """
    if not _fm_ok(ctx):
        return
    from skill_ls.analysis.readers import known_by_a_reader, readers_of

    known = ctx.runtime.fields
    elsewhere = all_known_fields()
    readers = readers_of(ctx.readers)
    standalone = not readers
    severity = Severity.INFORMATION if ctx.runtime.unknown_field_severity == "information" else None
    present = tuple(ctx.doc.fm.fields)
    for key, entry in ctx.doc.fm.fields.items():
        if key in known:
            continue
        if (key in elsewhere) if standalone else known_by_a_reader(key, readers):
            continue  # a portability note (PT001), not an unknown key
        match = _suggest(key, tuple(k for k in known if k not in present))
        message = f"unknown field '{key}' for {ctx.runtime.title}: it is ignored"
        fix = None
        if match:
            message += f"; did you mean '{match[0]}'?"
            fix = replace_fix(f"Rename '{key}' to '{match[0]}'", ctx.doc.path, entry.key_span, match[0])
        elif key in elsewhere:
            message += f" (known to {', '.join(elsewhere[key])})"
        ctx.out.report(entry.key_span, message, fix=fix, severity=severity)


@functools.lru_cache(maxsize=4096)
def _suggest(key: str, known: tuple[str, ...]) -> list[str]:
    return difflib.get_close_matches(key, known, n=1, cutoff=0.75)


@rule("SK008", Severity.ERROR, "runtime")
def name_format(ctx: RuntimeContext):
    """The skill name breaks the runtime's naming rule.

    ## What it does
    The Agent Skills standard and AGH: 1-64 lowercase letters, digits and hyphens, no leading,
    trailing or double hyphen. Claude Code: lowercase letters, digits and hyphens. workspace agents:
    letters, digits, `-` and `_`.

    ## Why is this bad?
    Clients that validate names refuse the skill; others derive a different command name from it.
    """
    if not _fm_ok(ctx):
        return
    rule_ = ctx.runtime.name_rule
    value = ctx.doc.fm.value("name")
    if rule_.pattern is None or not isinstance(value, str) or not value:
        return
    if not rule_.pattern.match(value):
        ctx.out.report(name_span(ctx.doc), f"name '{value}' is not valid for {ctx.runtime.title}: use "
                       f"{rule_.pattern_text}")


@rule("SK009", Severity.WARNING, "runtime")
def name_differs_from_directory(ctx: RuntimeContext):
    """The `name` differs from the skill's directory name.

    ## What it does
    Compares `name` with the directory that holds SKILL.md. The Agent Skills standard requires them to
    be equal (error there); AGH, Claude Code and workspace agents warn (Claude Code's command is the
    directory name; `name` is only a label).

    ## Fix safety
    The fix renames `name` to the directory name; the directory is never renamed.
    """
    if not _fm_ok(ctx):
        return
    rule_ = ctx.runtime.name_rule
    value = ctx.doc.fm.value("name")
    if rule_.dir_match is None or not isinstance(value, str) or not value.strip():
        return
    directory = ctx.doc.dir_name
    if value.strip() == directory:
        return
    severity = Severity.ERROR if rule_.dir_match == "error" else Severity.WARNING
    span = name_span(ctx.doc)
    ctx.out.report(span, f"name '{value}' differs from its directory '{directory}'"
                   + (" (the Agent Skills standard requires them to match)" if severity == Severity.ERROR else
                      f" ({ctx.runtime.title} uses the directory name)" if ctx.runtime.name_rule.source == "directory"
                      else ""),
                   fix=replace_fix(f"Rename to '{directory}'", ctx.doc.path, span, directory), severity=severity)


@rule("SK010", Severity.ERROR, "runtime")
def length_limit(ctx: RuntimeContext):
    """A value or the skill is over a runtime's length limit.

    ## What it does
    Checks `name` (64), `description` (1,024), `compatibility` (1-500: an empty string is over
    the limit too) and, for Amp, at most 100 files
    per skill, 512 KB per file and 2 MB per skill.

    ## Why is this bad?
    Runtimes reject or cut what is over the limit.
    """
    if not _fm_ok(ctx):
        return
    for key, entry in ctx.doc.fm.fields.items():
        spec = ctx.runtime.fields.get(key)
        if spec is None or not isinstance(entry.value, str):
            continue
        if spec.max_len is not None and len(entry.value) > spec.max_len:
            ctx.out.report(entry.value_span, f"'{key}' is {len(entry.value)} characters; {ctx.runtime.title} allows "
                           f"at most {spec.max_len}")
        elif spec.min_len and not spec.required and len(entry.value.strip()) < spec.min_len:
            # Required fields that are empty are SK005's; an optional one set to "" breaks the limit.
            ctx.out.report(entry.value_span, f"'{key}' is empty; {ctx.runtime.title} requires "
                           f"{spec.min_len}-{spec.max_len or 'any number of'} characters when it is present")
    limits = ctx.runtime.file_limits
    if limits:
        _amp_file_limits(ctx, limits)


def _amp_file_limits(ctx: RuntimeContext, limits: dict) -> None:
    skill_dir = ctx.doc.directory
    files, total, big = 0, 0, []
    for dirpath, dirnames, filenames in os.walk(skill_dir):
        dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")]
        for name in filenames:
            path = os.path.join(dirpath, name)
            try:
                size = os.lstat(path).st_size
            except OSError:
                continue
            files += 1
            total += size
            if size > limits["file_bytes"]:
                big.append((os.path.relpath(path, skill_dir), size))
        if files > 10_000:
            break
    span = header_span(ctx.doc)
    if files > limits["files"]:
        ctx.out.report(span, f"skill has {files} files; Amp loads at most {limits['files']} per skill")
    for rel, size in big[:5]:
        ctx.out.report(span, f"'{rel}' is {size // 1024} KB; Amp's limit is {limits['file_bytes'] // 1024} KB per file")
    if total > limits["skill_bytes"]:
        ctx.out.report(span, f"skill is {total // 1024} KB in all; Amp's limit is {limits['skill_bytes'] // 1024} KB")


@rule("SK011", Severity.INFORMATION, "runtime")
def description_cut_in_catalog(ctx: RuntimeContext):
    """The description is cut in the runtime's catalog; the model never sees the rest.

    ## What it does
    AGH cuts the whitespace-collapsed description at 200 code points; Claude Code cuts description +
    `when_to_use` at 1,536 characters. The diagnostic shows what is lost.

    ## Why is this bad?
    The model chooses skills from the catalog; trigger phrases past the cut never reach it. Put the
    most important words first.
    """
    if not _fm_ok(ctx) or ctx.runtime.catalog_cut is None:
        return
    entry = ctx.doc.fm.fields.get("description")
    if entry is None or not isinstance(entry.value, str):
        return
    cut = ctx.runtime.catalog_cut
    if ctx.runtime.id == "claude-code":
        extra = ctx.doc.fm.value("when_to_use")
        text = entry.value + ("\n" + extra if isinstance(extra, str) and extra else "")
    else:
        text = collapse(entry.value)
    if len(text) <= cut:
        return
    lost = text[cut:]
    shown = lost if len(lost) <= 80 else lost[:77] + "..."
    ctx.out.report(entry.value_span, f"description is {len(text)} characters; {ctx.runtime.title}'s catalog cuts it "
                   f"at {cut}, losing: \"{shown}\"", data={"cut": cut, "length": len(text)})


@rule("SK013", Severity.WARNING, "runtime", part=True)
def runtime_refuses_file_shape(ctx: RuntimeContext):
    """(Runtime part of SK013) The runtime's own parser refuses the file's shape (Amp: a BOM, CRLF,
    `...` or trailing spaces on a delimiter, no line break after the closing `---`, an empty body)."""
    shape = ctx.runtime.file_shape
    if shape is None or ctx.doc.read_error:
        return
    refusal = shape_refusal(ctx.doc.src, ctx.doc.fm, shape)
    if refusal is not None:
        ctx.out.report(header_span(ctx.doc), f"{ctx.runtime.title} will not load this skill: {refusal} "
                       f"({ctx.runtime.title}'s parser needs exactly '---', LF, the frontmatter, '---', LF, "
                       "and a non-empty body)", data={"refusal": refusal})


@rule("SK014", Severity.WARNING, "runtime")
def unescaped_catalog_markup(ctx: RuntimeContext):
    """Text that corrupts the catalog markup of a runtime that does not escape it (Amp).

    ## What it does
    Amp pastes `name` and `description` into its `<available_skills>` XML without escaping; a `<` or
    `&` there breaks the markup the model reads.

    ## Example
    ```yaml
    description: Use for <form> inputs & validation
    ```
    Use instead: `description: Use for HTML form inputs and validation`.
    """
    if not _fm_ok(ctx) or ctx.runtime.escapes_catalog:
        return
    for key in ("name", "description"):
        entry = ctx.doc.fm.fields.get(key)
        if entry is not None and isinstance(entry.value, str) and ("<" in entry.value or "&" in entry.value):
            ctx.out.report(entry.value_span, f"'{key}' contains '<' or '&': {ctx.runtime.title} inserts it into its "
                           "catalog unescaped, which corrupts the markup the model reads")
