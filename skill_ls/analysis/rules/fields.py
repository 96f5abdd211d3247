"""Field rules, per runtime: required fields, types, unknown keys, names, limits, catalog cuts."""
from __future__ import annotations

import json
import os

from skill_ls.core.model import Fix, Severity, Span, TextEdit
from skill_ls.core.parse.frontmatter import FieldEntry, Frontmatter
from skill_ls.core.parse.yaml12 import js_truthy
from skill_ls.analysis.catalog import catalog_cost
from skill_ls.analysis.readers import known_by_a_reader, readers_of
from skill_ls.analysis.rules import ANY_RUNTIME, replace_fix, rule
from skill_ls.core.spans import closing_insert_span, header_span, name_span, node_span
from skill_ls.analysis.rules.context import RuntimeContext
from skill_ls.core.index import required_value_missing
from skill_ls.core.shape import shape_refusal
from skill_ls.core.parse.yaml12 import js_truthy
from skill_ls.core.plugins import COMMAND_TIER
from skill_ls.analysis.rules.frontmatter import DESCRIPTION_PLACEHOLDER
from skill_ls.core.runtimes import RUNTIMES, Runtime, all_known_fields
from skill_ls.core.runtimes.spec import KIND_TEXT, FieldSpec, flag_word, type_ok
from skill_ls.core.suggest import closest


def _fm(ctx: RuntimeContext) -> Frontmatter | None:
    """The frontmatter when it parsed and the file was read whole; else None (nothing to check)."""
    fm = ctx.doc.fm
    return fm if fm is not None and fm.status == "ok" and not ctx.doc.read_error else None


def _is_empty(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == [] or value == {}


@rule("SK005", Severity.ERROR, "runtime", runtimes=ANY_RUNTIME, fix="unsafe")
def required_field_missing(ctx: RuntimeContext) -> None:
    """A field the runtime requires is missing or empty.

    ## What it does
    Checks the runtime's required fields: `name` and `description` for the Agent Skills standard,
    AGH and Amp; `description` for Codex; `name` and `description` for Agentcy.

    ## Why is this bad?
    The runtime refuses to load the skill (it is *blocked*) and says so only in its logs.

    ## Fix safety
    Unsafe: the fix adds the missing key before the closing `---`. `name` gets the directory name
    (not offered when that is not a valid name); `description` gets a placeholder that parses and
    says what to write (`"TODO: say what this skill does and when to use it"`): replace it.
    """
    fm = _fm(ctx)
    if fm is None:
        return
    for key in ctx.runtime.required_fields:
        entry = fm.fields.get(key)
        if entry is not None and not required_value_missing(ctx.runtime, entry.value_in(ctx.runtime.yaml_dialect)):
            continue
        if entry is None:
            insert = closing_insert_span(ctx.doc)
            if key == "name":
                default = ctx.doc.dir_name if valid_for_readers(ctx, ctx.doc.dir_name) else None
            elif key == "description":
                default = DESCRIPTION_PLACEHOLDER
            else:
                default = None
            fix = None
            if insert is not None and default is not None:
                fix = replace_fix(f"Add '{key}'" + (" (fill in the placeholder)" if key == "description" else ""),
                                  ctx.doc.path, insert, f"{key}: {default}\n", safe=False)
            ctx.out.report(header_span(ctx.doc), f"required field '{key}' is missing: {ctx.runtime.title} will not "
                           "load this skill", fix=fix)
        elif ctx.runtime.truthiness == "javascript" and not _is_empty(entry.value_in(ctx.runtime.yaml_dialect)):
            value = entry.value_in(ctx.runtime.yaml_dialect)
            ctx.out.report(entry.value_span, f"required field '{key}' is {json.dumps(value)}, which is false in "
                           f"JavaScript: {ctx.runtime.title} will not load this skill (its parser throws when "
                           f"'{key}' is falsy)")
        else:
            ctx.out.report(entry.key_span, f"required field '{key}' is empty: {ctx.runtime.title} will not load "
                           "this skill")


@rule("SK006", Severity.ERROR, "runtime", runtimes=ANY_RUNTIME, fix="safe")
def wrong_type(ctx: RuntimeContext) -> None:
    """A field has the wrong type or a value outside its allowed set.

    ## What it does
    Checks each known field against the runtime's type (`bool`, string, list of strings, mapping of
    strings...) and enumerations (Claude Code `effort`, `context`, `shell`).

    Claude Code reads a flag (`disable-model-invocation`, `user-invocable`, ...) as a boolean or as a
    string or number reading `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0` in any case, so
    `"true"` is accepted there; other values are ignored and reported. Its `argument-hint` may be a
    YAML list (`argument-hint: [project-name]`, shown without the brackets).

    ## Why is this bad?
    `disable-model-invocation: "maybe"` is not a flag; runtimes either reject the skill or
    ignore the setting, and the author never finds out which.

    ## Example
    ```yaml
    metadata:
      version: 2
    ```
    Use instead: `version: "2"` (the standard's `metadata` maps strings to strings). A bad entry of
    a string-to-string map is reported on the entry itself, named in the message.

    ## Fix safety
    Safe: a number, boolean or date inside a string-to-string `metadata` map is quoted, keeping its
    text exactly (`version: 2` → `version: "2"`). Nothing else is fixed.
    """
    fm = _fm(ctx)
    if fm is None:
        return
    host = _host_runtime(ctx)
    for key, entry in fm.fields.items():
        spec = ctx.runtime.fields.get(key)
        value = entry.value_in(ctx.runtime.yaml_dialect)  # Amp reads YAML 1.2: `off` is a string there
        if spec is None or value is None:
            continue  # null values are "missing" (SK005) rather than mistyped
        js_differs = spec.kind == "bool" and ctx.runtime.truthiness == "javascript" and \
            not isinstance(value, bool) and flag_word(value) not in (None, js_truthy(value))
        if host is not None and key in host.fields and not js_differs and \
                _value_ok(host, host.fields[key], entry.value_in(host.yaml_dialect)):
            continue  # a guest reading its host's directory: the host's form of the field is expected there
        if spec.kind == "str_map" and isinstance(value, dict) and entry.node is not None:
            if _bad_map_entries(ctx, fm, key, entry):
                continue
        if spec.required and ctx.runtime.truthiness == "javascript" and not js_truthy(value):
            continue  # falsy: SK005 says the parser throws
        if spec.kind == "bool" and ctx.runtime.truthiness == "words" and not isinstance(value, bool):
            if flag_word(value) is None:
                ctx.out.report(entry.value_span, f"'{key}' must be true or false for {ctx.runtime.title} (it also "
                               f"reads yes/no, on/off, 1/0); {value!r} is ignored")
        elif spec.kind == "bool" and ctx.runtime.truthiness == "javascript" and not isinstance(value, bool) \
                and flag_word(value) is not None:
            if js_truthy(value) != flag_word(value):
                ctx.out.report(entry.value_span, f"'{key}' is read as {str(js_truthy(value)).lower()} by "
                               f"{ctx.runtime.title} (any non-empty text is true there): write "
                               f"{str(flag_word(value)).lower()} without quotes")
        elif not type_ok(spec, value):
            ctx.out.report(entry.value_span, f"'{key}' must be {KIND_TEXT.get(spec.kind, spec.kind)} for "
                           f"{ctx.runtime.title}")
        elif spec.enum and isinstance(value, str) and value not in spec.enum:
            ctx.out.report(entry.value_span, f"'{key}' must be one of {', '.join(spec.enum)} "
                           f"(got '{value}')")


def _bad_map_entries(ctx: RuntimeContext, fm: Frontmatter, key: str, entry: FieldEntry) -> bool:
    """Report each entry of a string-to-string map whose key or value is not a string; True if any."""
    from skill_ls.core.parse.frontmatter import node_value

    offset = (fm.open_line or 0) + 1
    found = False
    for knode, vnode in getattr(entry.node, "value", ()):
        kval = node_value(knode)
        vval = node_value(vnode)
        if isinstance(kval, str) and isinstance(vval, str):
            continue
        found = True
        name = f"{key}.{kval}"
        node = vnode if isinstance(kval, str) else knode
        span = node_span(node, offset)
        fix = None
        if isinstance(kval, str) and vval is not None and not isinstance(vval, (list, dict)) and not vnode.style \
                and span.start_line == span.end_line:
            text = ctx.doc.src.line_text(span.start_line)[span.start_col:span.end_col]
            fix = replace_fix(f"Quote the value of '{name}'", ctx.doc.path, span, json.dumps(text, ensure_ascii=False),
                              safe=True)
        what = "key" if not isinstance(kval, str) else "value"
        ctx.out.report(span, f"'{name}': {key} maps strings to strings for {ctx.runtime.title}, but this {what} is "
                       f"{_python_kind(vval if what == 'value' else kval)}" + ("; quote it" if fix else ""), fix=fix)
    return found


def _python_kind(value: object) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "not a string"


@rule("SK007", Severity.WARNING, "runtime", runtimes=ANY_RUNTIME, fix="unsafe")
def unknown_field(ctx: RuntimeContext) -> None:
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
    Unsafe, both: a typo'd key is renamed to the suggestion (the value is untouched, but a setting
    that was ignored starts to take effect); catalogue keys no runtime knows (`origin`, `source`,
    `category`, `author`, `risk`…) with a one-line value are moved under `metadata:` as quoted
    strings, only when every runtime that reads the file accepts `metadata` as a mapping and it is a
    block mapping of strings (or absent). Comments on a moved line are dropped; lists and mappings
    (`requires: {mcp: [rube]}`) are not moved.

    ## Source
    The field lists of each runtime (https://agentskills.io/specification,
    https://code.claude.com/docs/en/skills, https://developers.openai.com/codex/skills).
    """
    fm = _fm(ctx)
    if fm is None:
        return
    known = ctx.runtime.fields
    elsewhere = all_known_fields()
    readers = readers_of(ctx.readers)
    standalone = not readers
    severity = Severity.INFORMATION if ctx.runtime.unknown_field_severity == "information" else None
    present = tuple(fm.fields)
    # A repeated key (SK004) makes every key edit ambiguous: which copy did the author mean?
    repeats = any(p.kind == "duplicate_key" for p in fm.problems)
    move: Fix | None | bool = None if repeats else False  # computed once, for the first key that needs it
    for key, entry in fm.fields.items():
        if key in known:
            continue
        if (key in elsewhere) if standalone else known_by_a_reader(key, readers):
            continue  # a portability note (PT001), not an unknown key
        match = _suggest(key, tuple(k for k in known if k not in present))
        message = f"unknown field '{key}' for {ctx.runtime.title}: it is ignored"
        fix = None
        if match:
            message += f"; did you mean '{match[0]}'?"
            if not repeats and _value_fits(known[match[0]], entry.value):  # else: SK007 traded for SK006
                fix = replace_fix(f"Rename '{key}' to '{match[0]}'", ctx.doc.path, entry.key_span, match[0],
                                  safe=False)
        elif key in elsewhere:
            message += f" (known to {', '.join(elsewhere[key])})"
        else:
            if move is False:
                move = _move_to_metadata_fix(ctx, fm)
            if isinstance(move, Fix) and f"'{key}'" in move.title:
                fix = move
        ctx.out.report(entry.key_span, message, fix=fix, severity=severity)


def _value_fits(spec: FieldSpec, value: object) -> bool:
    """Whether `value` passes SK006 and SK010 for the field `spec` describes."""
    if value is None or not type_ok(spec, value):
        return False
    if spec.enum and isinstance(value, str) and value not in spec.enum:
        return False
    return not (spec.max_len is not None and isinstance(value, str) and len(value) > spec.max_len)


def _metadata_runtimes_ok(ctx: RuntimeContext) -> bool:
    """Every runtime that reads this file accepts `metadata` as a mapping."""
    runtimes: set[str] = {ctx.runtime.id}
    runtimes.update(d.runtime for d in ctx.readers if not d.builtin)
    if ctx.index is not None:
        runtimes.update(d.runtime for d in ctx.index.decls_for_path(ctx.doc.path))
    for rid in runtimes:
        rt: Runtime | None = RUNTIMES.get(rid)
        spec = rt.fields.get("metadata") if rt is not None else None
        if spec is None or spec.kind not in ("map", "str_map"):
            return False
    return True


def _move_to_metadata_fix(ctx: RuntimeContext, fm: Frontmatter) -> Fix | None:
    """One fix moving every movable unknown key (same for every runtime, so it is applied once)."""
    doc = ctx.doc
    if not _metadata_runtimes_ok(ctx):
        return None
    known = all_known_fields()
    movable = []
    for key, entry in fm.fields.items():
        if key in known or _suggest(key, tuple(known)) or entry.node is not None or entry.value is None:
            continue
        line = entry.key_span.start_line
        if entry.key_span.start_col != 0 or entry.value_span.start_line != line or entry.value_span.end_line != line:
            continue
        if line in fm.suppressed_lines:
            continue
        if not isinstance(entry.value, str):
            text = doc.src.line_text(line)[entry.value_span.start_col:entry.value_span.end_col]
        else:
            text = entry.value
        movable.append((key, line, json.dumps(text, ensure_ascii=False)))
    if not movable:
        return None
    meta = fm.fields.get("metadata")
    offset = (fm.open_line or 0) + 1
    if meta is None:
        insert = closing_insert_span(doc)
        if insert is None:
            return None
        indent, prefix = "  ", "metadata:\n"
    else:
        node = meta.node
        if node is None or not hasattr(node, "flow_style") or node.flow_style or not isinstance(meta.value, dict):
            return None
        if not node.value or not all(isinstance(k, str) and isinstance(v, str) for k, v in meta.value.items()):
            return None
        if any(key in meta.value for key, _, _ in movable):
            return None
        end = node.end_mark
        line = end.line + offset + (1 if end.column else 0)
        insert = Span(line, 0, line, 0)
        indent, prefix = " " * node.value[0][0].start_mark.column, ""
        if not indent:
            return None
    body = prefix + "".join(f"{indent}{key}: {value}\n" for key, _, value in movable)
    # A moved line right where the entries go is replaced by them (two edits at one place would conflict).
    edits = [TextEdit(doc.path, Span(line, 0, line + 1, 0), body if line == insert.start_line else "")
             for _, line, _ in movable]
    if not any(line == insert.start_line for _, line, _ in movable):
        edits.append(TextEdit(doc.path, insert, body))
    names = ", ".join(f"'{key}'" for key, _, _ in movable)
    return Fix(f"Move {names} under 'metadata:'", tuple(edits), safe=False)


def _host_runtime(ctx: RuntimeContext) -> Runtime | None:
    """The runtime whose directory this copy is read from as a guest (Amp in `.claude/skills`), or None."""
    from skill_ls.analysis.readers import root_spec

    spec = root_spec(ctx.runtime, ctx.decl.tier)
    return RUNTIMES.get(spec.guest_of) if spec is not None and spec.guest_of else None


def _value_ok(runtime: Runtime, spec: FieldSpec, value: object) -> bool:
    if spec.kind == "bool" and runtime.truthiness == "words":
        return flag_word(value) is not None
    return type_ok(spec, value)


def _suggest(key: str, known: tuple[str, ...]) -> list[str]:
    close = closest(key, known)
    return [close] if close is not None else []


@rule("SK008", Severity.ERROR, "runtime", runtimes=ANY_RUNTIME)
def name_format(ctx: RuntimeContext) -> None:
    """The skill name breaks the runtime's naming rule.

    ## What it does
    The Agent Skills standard and AGH: 1-64 lowercase letters, digits and hyphens, no leading,
    trailing or double hyphen. Claude Code: lowercase letters, digits and hyphens. workspace agents:
    letters, digits, `-` and `_`.

    ## Why is this bad?
    Clients that validate names refuse the skill; others derive a different command name from it.
    Where the runtime takes the skill's name from its directory (Claude Code: `name` is only the
    label it shows, and `claude plugin validate` accepts any) this is a warning.
    """
    fm = _fm(ctx)
    if fm is None:
        return
    rule_ = ctx.runtime.name_rule
    value = fm.value("name")
    if rule_.pattern is None or not isinstance(value, str) or not value:
        return
    if not rule_.pattern.match(value):
        if rule_.source == "directory":
            # The runtime names the skill after its directory; `name` is a label it shows, never a
            # reason to refuse the skill (`claude plugin validate` accepts `name: x:y`): a warning.
            ctx.out.report(name_span(ctx.doc), f"name '{value}' is not valid for {ctx.runtime.title} (use "
                           f"{rule_.pattern_text}); it still loads the skill as '{ctx.doc.dir_name}', named after "
                           "its directory", severity=Severity.WARNING)
            return
        ctx.out.report(name_span(ctx.doc), f"name '{value}' is not valid for {ctx.runtime.title}: use "
                       f"{rule_.pattern_text}")


@rule("SK009", Severity.WARNING, "runtime", runtimes=ANY_RUNTIME, fix="unsafe")
def name_differs_from_directory(ctx: RuntimeContext) -> None:
    """The `name` differs from the skill's directory name.

    ## What it does
    Compares `name` with the directory that holds SKILL.md. The Agent Skills standard requires them to
    be equal (error there); AGH, Claude Code and workspace agents warn (Claude Code's command is the
    directory name; `name` is only a label).

    A name that breaks the naming rule is reported once, by SK008, not again here. Command files
    (`commands/**/*.md`, `.claude/commands/**/*.md`) are named by their file and folders
    (`commands/frontend/review.md` is `/frontend:review`), so they are never compared with a
    directory and never renamed.

    ## Fix safety
    Unsafe (either side may be the intended one, and other skills or agents may refer to the name):
    when the directory name is a valid name, `name` is renamed to it; otherwise, when `name` is
    valid, `skill-ls check --unsafe-fixes` renames the directory to `name` (never over an existing
    path). A rename to an invalid name is never offered.
    """
    fm = _fm(ctx)
    if fm is None or ctx.decl.tier == COMMAND_TIER:
        return  # a command is named by its file (and folders), never by a directory: nothing to compare
    rule_ = ctx.runtime.name_rule
    value = fm.value("name")
    if rule_.dir_match is None or not isinstance(value, str) or not value.strip():
        return
    if rule_.pattern is not None and not rule_.pattern.match(value):
        return  # SK008 reports this name; one finding per root cause
    directory = ctx.doc.dir_name
    if value.strip() == directory:
        return
    severity = Severity.ERROR if rule_.dir_match == "error" else Severity.WARNING
    span = name_span(ctx.doc)
    fix = None
    if valid_for_readers(ctx, directory):
        fix = replace_fix(f"Rename to '{directory}'", ctx.doc.path, span, directory, safe=False)
    elif valid_for_readers(ctx, value.strip()):
        new_dir = os.path.join(os.path.dirname(ctx.doc.directory), value.strip())
        if ctx.disk.stat(new_dir, follow=False) is None:
            fix = Fix(f"Rename the directory '{directory}' to '{value.strip()}'", (), safe=False,
                      rename_dir=(ctx.doc.directory, new_dir))
    ctx.out.report(span, f"name '{value}' differs from its directory '{directory}'"
                   + (" (the Agent Skills standard requires them to match)" if severity == Severity.ERROR else
                      f" ({ctx.runtime.title} uses the directory name)" if ctx.runtime.name_rule.source == "directory"
                      else "")
                   + ("" if fix is not None or valid_name(ctx.runtime, directory) else
                      f"; '{directory}' is not a valid name either"),
                   fix=fix, severity=severity)


def valid_for_readers(ctx: RuntimeContext, name: str) -> bool:
    """Whether `name` passes the naming rule of every runtime that reads this file (a fix that
    satisfies one runtime must not break another's SK008)."""
    runtimes = {ctx.runtime.id} | {d.runtime for d in ctx.readers if not d.builtin}
    if ctx.index is not None:
        runtimes.update(d.runtime for d in ctx.index.decls_for_path(ctx.doc.path))
    return all(valid_name(RUNTIMES[r], name) for r in runtimes if r in RUNTIMES)


def valid_name(runtime: Runtime, name: str) -> bool:
    """Whether `name` passes the runtime's naming rule (and, for any runtime, is a usable name)."""
    rule_ = runtime.name_rule
    if not name or name != name.strip() or "/" in name:
        return False
    if rule_.max_len is not None and len(name) > rule_.max_len:
        return False
    return rule_.pattern is None or bool(rule_.pattern.match(name))


@rule("SK010", Severity.ERROR, "runtime", runtimes=ANY_RUNTIME)
def length_limit(ctx: RuntimeContext) -> None:
    """A value or the skill is over a runtime's length limit.

    ## What it does
    Checks `name` (64), `description` (1,024), `compatibility` (1-500: an empty string is over
    the limit too) and, for Amp, at most 100 files
    per skill, 512 KB per file and 2 MB per skill.

    ## Why is this bad?
    Runtimes reject or cut what is over the limit.
    """
    fm = _fm(ctx)
    if fm is None:
        return
    for key, entry in fm.fields.items():
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


def _amp_file_limits(ctx: RuntimeContext, limits: dict[str, int]) -> None:
    tree = ctx.disk.tree(ctx.doc.directory)
    files, total = len(tree.files), tree.total
    big = [(rel, size) for rel, size in tree.files if size > limits["file_bytes"]]
    span = header_span(ctx.doc)
    if files > limits["files"]:
        ctx.out.report(span, f"skill has {files} files; Amp loads at most {limits['files']} per skill")
    for rel, size in big[:5]:
        ctx.out.report(span, f"'{rel}' is {size // 1024} KB; Amp's limit is {limits['file_bytes'] // 1024} KB per file")
    if total > limits["skill_bytes"]:
        ctx.out.report(span, f"skill is {total // 1024} KB in all; Amp's limit is {limits['skill_bytes'] // 1024} KB")


def cuts_catalog_descriptions(runtime: Runtime) -> bool:
    """Runtimes whose catalog cuts a description at a fixed length."""
    return runtime.catalog_cut is not None


@rule("SK011", Severity.INFORMATION, "runtime", runtimes=cuts_catalog_descriptions)
def description_cut_in_catalog(ctx: RuntimeContext) -> None:
    """The description is cut in the runtime's catalog; the model never sees the rest.

    ## What it does
    AGH cuts the whitespace-collapsed description at 200 code points; Claude Code cuts description +
    `when_to_use` at 1,536 characters. The diagnostic shows what is lost.

    ## Why is this bad?
    The model chooses skills from the catalog; trigger phrases past the cut never reach it. Put the
    most important words first.
    """
    fm = _fm(ctx)
    if fm is None:
        return
    entry = fm.fields.get("description")
    if entry is None or not isinstance(entry.value, str):
        return
    cost = catalog_cost(ctx.decl, ctx.doc)  # the catalog's own entry: what it shows is what is reported
    cut = ctx.runtime.catalog_cut
    if not cost.truncated:
        return
    text = cost.full
    lost = text[cut:]
    shown = lost if len(lost) <= 80 else lost[:77] + "..."
    ctx.out.report(entry.value_span, f"description is {len(text)} characters; {ctx.runtime.title}'s catalog cuts it "
                   f"at {cut}, losing: \"{shown}\"", data={"cut": cut, "length": len(text)})


def has_strict_file_shape(runtime: Runtime) -> bool:
    """Runtimes whose own SKILL.md parser refuses some files the tolerant split accepts."""
    return runtime.file_shape is not None


@rule("SK013", Severity.WARNING, "runtime", runtimes=has_strict_file_shape, part=True)
def runtime_refuses_file_shape(ctx: RuntimeContext) -> None:
    """(Runtime part of SK013) The runtime's own parser refuses the file's shape (Amp: a BOM, CRLF,
    `...` or trailing spaces on a delimiter, no line break after the closing `---`, an empty body)."""
    shape = ctx.runtime.file_shape
    if shape is None or ctx.doc.read_error or ctx.doc.fm is None or ctx.doc.fm.status == "missing":
        return  # no frontmatter at all: SK001 says so (and which runtimes still load the file)
    refusal = shape_refusal(ctx.doc.src, ctx.doc.fm, shape)
    if refusal is not None:
        ctx.out.report(header_span(ctx.doc), f"{ctx.runtime.title} will not load this skill: {refusal} "
                       f"({ctx.runtime.title}'s parser needs exactly '---', LF, the frontmatter, '---', LF, "
                       "and a non-empty body)", data={"refusal": refusal}, fix=_shape_fix(ctx, refusal))


def _shape_fix(ctx: RuntimeContext, refusal: str) -> Fix | None:
    """Safe repairs of the file's shape that change no text a reader sees (`skill-ls check --fix`)."""
    src, fm, path = ctx.doc.src, ctx.doc.fm, ctx.doc.path
    if "BOM" in refusal:
        return Fix("Remove the byte-order mark", (), safe=True, remove_bom=True)
    if "CRLF" in refusal:
        return Fix("Convert line endings to LF", (), safe=True, to_lf=True)
    if "opening '---'" in refusal:
        return Fix("Remove the trailing characters after '---'",
                   (TextEdit(path, Span(0, 3, 0, len(src.line_text(0))), ""),), safe=True) \
            if src.line_text(0).startswith("---") and not src.line_text(0)[3:].strip() else None
    close = fm.close_line if fm is not None else None
    if close is None:
        return None
    closing = src.line_text(close)
    if "instead of '---'" in refusal or "closing '---' line has trailing" in refusal:
        return Fix("Close the frontmatter with exactly '---'", (TextEdit(path, Span(close, 0, close, len(closing)),
                                                                          "---"),), safe=True)
    if "no line break after" in refusal:
        return Fix("End the closing '---' with a line break",
                   (TextEdit(path, Span(close, len(closing), close, len(closing)), "\n"),), safe=True)
    return None


def prints_catalog_raw(runtime: Runtime) -> bool:
    """Runtimes whose catalog prints names and descriptions without escaping them."""
    return not runtime.escapes_catalog


@rule("SK014", Severity.WARNING, "runtime", runtimes=prints_catalog_raw)
def unescaped_catalog_markup(ctx: RuntimeContext) -> None:
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
    fm = _fm(ctx)
    if fm is None:
        return
    for key in ("name", "description"):
        entry = fm.fields.get(key)
        if entry is not None and isinstance(entry.value, str) and ("<" in entry.value or "&" in entry.value):
            ctx.out.report(entry.value_span, f"'{key}' contains '<' or '&': {ctx.runtime.title} inserts it into its "
                           "catalog unescaped, which corrupts the markup the model reads")


@rule("SK005", Severity.WARNING, "runtime", runtimes=ANY_RUNTIME, part=True)
def recommended_field_missing(ctx: RuntimeContext) -> None:
    """(Recommended-field part of SK005) A field the runtime loads without, but works worse without
    (Agentcy: `search_skills` does not rank a skill with an empty description)."""
    fm = _fm(ctx)
    if fm is None:
        return
    assert fm is not None
    for key, spec in ctx.runtime.fields.items():
        if spec.recommended is None:
            continue
        entry = fm.fields.get(key)
        if entry is None:
            ctx.out.report(header_span(ctx.doc), f"'{key}' is missing: {ctx.runtime.title} loads the skill, but "
                           f"{spec.recommended}")
        elif _is_empty(entry.value):
            ctx.out.report(entry.key_span, f"'{key}' is empty: {ctx.runtime.title} loads the skill, but "
                           f"{spec.recommended}")
