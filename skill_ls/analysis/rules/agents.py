"""Agent definition rules: AGH `AGENT.md`, Claude Code subagents, workspace agents.

The values come from `skill_ls.core.agents.parse_agent` (a parser: it judges nothing); what each
family accepts comes from its descriptor (`skill_ls.core.runtimes.agent_families`). The findings
of AG001-AG004 about a strict family's definition are also what makes AGH fail closed
(`skill_ls.analysis.effective`): a finding reported with `data={"draft": True}` never blocks.
"""
from __future__ import annotations

import os
import re
from typing import Any

from skill_ls.core.agents import MCP_SERVER_KEYS, AgentDefinition, server_problem, tool_id_problem
from skill_ls.core.index import Document
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.suggest import closest
from skill_ls.core.model import Fix, Severity, Span, TextEdit
from skill_ls.core.runtimes import runtime_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES, AgentFamily
from skill_ls.core.runtimes.spec import KIND_TEXT, FieldSpec, type_ok
from skill_ls.core.spans import header_span, key_span, mapping_child, value_span, yaml_span
from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import AgentContext

_DRAFT_SEVERITY = {"error": Severity.ERROR, "warning": Severity.WARNING}


def _parsed(ctx: AgentContext) -> tuple[Document, AgentFamily, AgentDefinition] | None:
    """The definition's values, or None when its frontmatter is unusable (AG001 says why)."""
    doc = ctx.agent.doc
    if doc.read_error or doc.fm is None or not doc.fm.ok:
        return None
    return doc, AGENT_FAMILIES[ctx.agent.family], ctx.definition


def _rename(path: str, span: Span, to: str) -> Fix:
    return Fix(f"Rename to '{to}'", (TextEdit(path, span, to),))


@rule("AG001", Severity.ERROR, "agent", fix="unsafe")
def agent_frontmatter_invalid(ctx: AgentContext) -> None:
    """An agent definition's frontmatter is missing, unterminated or invalid.

    ## What it does
    `AGENT.md` (AGH), Claude Code subagents (`.claude/agents/**/*.md`) and workspace-agents agents
    must start with a `---` frontmatter block. AGH parses the block as YAML and, when that fails or
    is not a mapping, as TOML; the error shown is YAML's. Duplicate keys are reported too.

    ## Why is this bad?
    AGH refuses the definition ("config: missing YAML frontmatter"), so the agent cannot start and
    its catalog cannot be rendered (fail closed).

    ## Example
    ```markdown
    You are a reviewer.
    ```
    Use instead:
    ```markdown
    ---
    name: reviewer
    provider: claude
    ---
    You are a reviewer.
    ```

    ## Fix safety
    Unsafe: for the unquoted-colon YAML error the value is quoted (its text is kept exactly), offered
    as an editor quick fix and applied by `skill-ls check --unsafe-fixes`.

    ## Source
    https://www.agh.network/runtime/core/agents/definitions/ (frontmatter formats); Claude Code subagents documentation.
    """
    doc = ctx.agent.doc
    fm = doc.fm
    if doc.read_error:
        ctx.out.report(header_span(doc), f"{doc.read_error}; the agent definition cannot be loaded")
        return
    if fm is None or not fm.ok:
        problem = fm.problems[0] if fm is not None and fm.problems else None
        message = problem.message if problem else "invalid frontmatter"
        if fm is not None and fm.status == "invalid":
            message += AGENT_FAMILIES[ctx.agent.family].invalid_frontmatter_note
        fix = None
        if problem is not None and problem.fix_title and problem.fix_span is not None and problem.fix_text is not None:
            fix = Fix(problem.fix_title, (TextEdit(doc.path, problem.fix_span, problem.fix_text),))
        ctx.out.report(problem.span if problem else header_span(doc), message, fix=fix)
        return
    for p in fm.problems:
        if p.kind == "duplicate_key":
            ctx.out.report(p.span, p.message)


@rule("AG002", Severity.ERROR, "agent", fix="unsafe")
def agent_unknown_field(ctx: AgentContext) -> None:
    """An agent definition has a field its runtime does not know.

    ## What it does
    AGH's parser is strict: any key other than `name`, `provider`, `command`, `model`, `tools`,
    `deny_tools`, `toolsets`, `permissions`, `mcp_servers` and `hooks` fails validation (also unknown
    keys inside an `mcp_servers` entry). The RFC 001 draft fields (`description`, `skills.inherit`,
    `skills.extra_sources`, `memory.*`) are "rejected as an unknown field": an error by default that
    makes AGH refuse the agent (it fails closed); `agh.draft_fields` (`error` — the default —,
    `warning` or `ignore`) lowers them, and then they do not block. `skills.disabled` is applied as
    tombstones by AGH's resolver (its skills overview), so it is at most a warning and never blocks. In Claude Code subagents
    an unknown key is a warning (Claude Code ignores it). Workspace agents have no published schema,
    so their keys are not checked.

    ## Why is this bad?
    One typo'd key makes AGH reject the whole agent.

    ## Example
    ```yaml
    permission: approve-reads
    ```
    Use instead:
    ```yaml
    permissions: approve-reads
    ```

    ## Fix safety
    Unsafe: the rename fix is offered when one known field is close to the typo; the value is
    untouched, but a setting that was ignored starts to take effect.

    ## Source
    https://www.agh.network/runtime/core/agents/definitions/ (strict fields, RFC 001 drafts); Claude Code subagents
    documentation (supported frontmatter fields).
    """
    parsed = _parsed(ctx)
    if parsed is None:
        return
    doc, family, definition = parsed
    if family.unknown_fields == "ignore":
        return
    assert doc.fm is not None
    severity = Severity.ERROR if family.unknown_fields == "error" else Severity.WARNING
    known = list(family.fields) + list(family.draft_fields)
    level = ctx.index.config.agh_draft_fields if ctx.index is not None else "warning"
    for key, entry in doc.fm.fields.items():
        if key in family.fields:
            continue
        top, _, sub = key.partition(".")
        subkeys = family.draft_fields.get(top)
        if key in family.draft_fields or (sub and subkeys and sub in subkeys):
            _draft_field(ctx, doc, family, key, entry.value, entry.node, level)
            continue
        close = [c] if (c := closest(key, known)) is not None else []
        span = key_span(doc, key)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        ctx.out.report(span, f"unknown field '{key}'{hint}: {family.unknown_field_effect}", severity=severity,
                       fix=_rename(doc.path, span, close[0]) if close else None)
    for server in definition.inline_servers:
        if not isinstance(server.value, dict):
            continue
        for k in server.value:
            if k not in MCP_SERVER_KEYS:
                ctx.out.report(server.key_spans.get(str(k), server.span), f"unknown field '{k}' in an mcp_servers "
                               f"entry (known: {', '.join(MCP_SERVER_KEYS)})")


def _draft_field(ctx: AgentContext, doc: Document, family: AgentFamily, key: str, value: Any, node: Any,
                 level: str) -> None:
    subkeys = family.draft_fields.get(key)
    if level != "ignore":
        tombstone = (key == "skills" and isinstance(value, dict) and set(value) <= {"disabled"} and value) \
            or key == "skills.disabled"
        if tombstone:
            # The skills overview applies "agent-scoped logical tombstones from AGENT.md skills.disabled"
            # while the agent-definitions table rejects them: never blocking, at most a warning.
            ctx.out.report(key_span(doc, key), f"'{key}' is an RFC 001 draft field that AGH's agent-definitions "
                           "page says its strict parser rejects, while its skills overview applies the "
                           "tombstones; skill-ls, like AGH's resolver, applies them", severity=Severity.WARNING,
                           data={"draft": True})
        else:
            # "Rejected as an unknown field" ... "must not be used in a live AGENT.md yet": at the default
            # level (error) AGH refuses the definition, so the agent fails closed.
            severity = _DRAFT_SEVERITY.get(level, Severity.WARNING)
            ctx.out.report(key_span(doc, key), f"'{key}' is an RFC 001 draft field: AGH's strict parser rejects it "
                           "as an unknown field, so AGH refuses this agent; remove it or move the data into "
                           "supported config", severity=severity,
                           data={} if severity == Severity.ERROR else {"draft": True})
    if isinstance(value, dict) and subkeys:
        for sub in value:
            if sub not in subkeys:
                knode, _ = mapping_child(node, str(sub))
                ctx.out.report(yaml_span(doc, knode, key_span(doc, key)),
                               f"unknown field '{key}.{sub}' (draft '{key}' knows {', '.join(subkeys)})")
    elif subkeys and value is not None:
        ctx.out.report(value_span(doc, key), f"unknown field '{key}': AGH's strict parser rejects it (the RFC draft "
                       f"shape is a mapping with {', '.join(subkeys)})")


@rule("AG003", Severity.ERROR, "agent")
def agent_prompt_empty(ctx: AgentContext) -> None:
    """The agent prompt (the Markdown body after the frontmatter) is empty.

    ## What it does
    AGH trims the body and stores it as the agent's startup prompt; an empty one is a validation
    error ("agent prompt is required"). For Claude Code subagents the body is the system prompt and
    an empty one is a warning. Workspace agents may have an empty body.

    ## Why is this bad?
    AGH refuses the definition and the agent cannot start.

    ## Example
    ```markdown
    ---
    name: reviewer
    ---
    ```
    Use instead: write the prompt after the closing `---`.

    ## Fix
    None: only the author can write the prompt.

    ## Source
    https://www.agh.network/runtime/core/agents/definitions/ ("agent prompt is required"); Claude Code subagents documentation.
    """
    parsed = _parsed(ctx)
    if parsed is None:
        return
    _, family, definition = parsed
    if family.prompt_required is None or definition.prompt:
        return
    ctx.out.report(definition.prompt_span, family.prompt_message,
                   severity=Severity.ERROR if family.prompt_required == "error" else Severity.WARNING)


@rule("AG004", Severity.ERROR, "agent", fix="unsafe")
def agent_invalid_value(ctx: AgentContext) -> None:
    """A field of an agent definition has an invalid value.

    ## What it does
    AGH: `name` is required and equals the directory name; `provider`, `model` and `command` are
    strings (`command` with balanced shell-style quoting); `tools` and `deny_tools` are canonical
    ToolIDs (`ns__name`, two or more segments of `[a-z0-9][a-z0-9_-]*` joined by `__`) or prefix
    wildcards ending in `*`; `toolsets` are canonical ToolsetIDs; `permissions` is `deny-all`,
    `approve-reads` or `approve-all`; each `mcp_servers` entry has `name` and `command`, `args` is a
    list of strings and `env` maps names to strings (also for the `mcp.json` sidecar); `hooks` is a
    list of mappings; `skills.disabled` is a list of names (else it is ignored: a warning). No
    `provider` here and no `defaults.provider` in `$AGH_HOME/config.toml` is a warning (AGH fails
    when the session starts). Claude Code subagents: `name` (lowercase letters and hyphens) and
    `description` are required; known fields have their documented types. Workspace agents: `name`
    is a string and `skills` a list of skill names.

    Warnings that never fail an AGH agent closed: `command` with shell syntax (`&&`, `|`, `$VAR`: AGH
    parses it with shell-style quoting but launches it without a shell) and a ToolID that is canonical
    but for uppercase letters (the sources do not define "canonical" beyond lowercase examples).

    ## Why is this bad?
    AGH rejects the definition, so the agent cannot start and its catalog cannot be rendered.

    ## Example
    ```yaml
    tools: ["github.search", "agh__skill_*x"]
    permissions: read-only
    ```
    Use instead:
    ```yaml
    tools: ["mcp__github__search", "agh__skill_*"]
    permissions: approve-reads
    ```

    ## Fix safety
    Unsafe: a value close to one allowed value is changed to it (`permission: approve-read` →
    `approve-reads`), and `name` is renamed to the directory name when that is a valid name; either
    changes what the agent does.

    ## Source
    https://www.agh.network/runtime/core/agents/definitions/ (validation, ToolID grammar, MCP servers); Claude Code
    subagents documentation; https://z-fab.github.io/agentmd/skills.
    """
    parsed = _parsed(ctx)
    if parsed is None:
        return
    doc, family, definition = parsed
    fm = doc.fm
    assert fm is not None
    for raw in definition.tombstone_values:
        if not _names(raw.value):
            ctx.out.report(raw.span, "skills.disabled must be a list of skill names; it is ignored",
                           severity=Severity.WARNING)
    _name(ctx, doc, family)
    for key, spec in family.fields.items():
        if key not in fm.fields or key in family.required_messages or key == "name" and family.name_source == "directory":
            continue
        if family.checked_fields is not None and key not in family.checked_fields:
            continue
        _value(ctx, doc, family, key, spec, fm.fields[key].value)
    if "provider" in family.fields and definition.provider is None:
        span = key_span(doc, "provider") if "provider" in fm.fields else header_span(doc)
        ctx.out.report(span, "agent provider is required: set 'provider' here or defaults.provider in "
                       "$AGH_HOME/config.toml", severity=Severity.WARNING)
    seen: set[str] = set()
    for server in definition.inline_servers:
        _inline_server(ctx, server.value, server.span, seen)
    for name, server in definition.sidecar_servers.items():
        problem = server_problem(server, need_name=False)
        if problem:
            ctx.out.report(Span(0, 0, 0, 0), f"mcp.json server '{name}' {problem}", path=definition.sidecar_path)


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _name(ctx: AgentContext, doc: Document, family: AgentFamily) -> None:
    fm = doc.fm
    assert fm is not None
    name = fm.value("name")
    if family.name_source == "directory":
        directory = os.path.basename(os.path.dirname(doc.path))
        if not isinstance(name, str) or not name.strip():
            what = "missing" if "name" not in fm.fields else "empty or not a string"
            ctx.out.report(key_span(doc, "name"), f"'name' is {what}: {family.title} requires it and it must equal "
                           f"the directory name '{directory}'")
        elif name != directory:
            span = value_span(doc, "name")
            ctx.out.report(span, f"name '{name}' does not match the directory '{directory}': {family.title} loads "
                           f"agents/<name>/{os.path.basename(doc.path)} and requires them to agree",
                           fix=_rename(doc.path, span, directory))
        return
    for key, message in family.required_messages.items():
        value = fm.value(key)
        if not isinstance(value, str) or not value.strip():
            ctx.out.report(key_span(doc, key), message)
        elif key == "name" and family.name_pattern is not None and not family.name_pattern.match(value):
            fixed = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
            span = value_span(doc, "name")
            ctx.out.report(span, f"subagent name '{value}' must use {family.name_pattern_text}",
                           fix=_rename(doc.path, span, fixed) if fixed else None)


def _value(ctx: AgentContext, doc: Document, family: AgentFamily, key: str, spec: FieldSpec, value: Any) -> None:
    span = value_span(doc, key)
    if spec.enum:
        if value in spec.enum:
            return
        if not family.strict:
            ctx.out.report(span, f"'{key}' must be one of {', '.join(spec.enum)}")
            return
        close = [c] if (c := closest(value, spec.enum)) is not None else []
        fix = Fix(f"Change to '{close[0]}'", (TextEdit(doc.path, span, close[0]),)) if close else None
        ctx.out.report(span, f"agent.{key} must be one of {', '.join(spec.enum)}"
                       + (f" (did you mean '{close[0]}'?)" if close else ""), fix=fix)
        return
    wildcard = family.tool_id_fields.get(key)
    if wildcard is not None:
        if not isinstance(value, list):
            ctx.out.report(span, f"'{key}' must be a list of strings")
            return
        for item in ctx.definition.tool_items.get(key, ()):
            reason = tool_id_problem(item.value, wildcard=wildcard)
            if reason is not None and isinstance(item.value, str) \
                    and tool_id_problem(item.value.lower(), wildcard=wildcard) is None:
                # Reading: "canonical" is not defined in the sources and MCP server names are the
                # operator's own map keys; only the documented examples are lowercase. A warning that
                # does not fail the agent closed.
                ctx.out.report(item.span, f"{key} entry {item.value!r} has uppercase letters: the documented "
                               f"canonical ToolIDs are lowercase ('{item.value.lower()}'); {family.title} may not "
                               "match it", severity=Severity.WARNING)
            elif reason is not None:
                ctx.out.report(item.span, f"{key} entry {item.value!r} {reason}")
        return
    if not type_ok(spec, value):
        ctx.out.report(span, f"'{key}' {family.type_messages.get(key) or 'must be ' + KIND_TEXT.get(spec.kind, spec.kind)}")
        return
    if key in family.shell_fields and isinstance(value, str):
        import shlex  # (only here: most runs split no command)

        try:
            words = shlex.split(value)
        except ValueError as exc:
            ctx.out.report(span, f"'{key}' is not valid shell-style quoting ({exc}); {family.title} cannot split it")
            return
        # "Parsed with shell-style quoting, but launched without a shell": operators and expansions
        # reach the program as literal arguments.
        shellisms = [w for w in words if w in _SHELL_OPERATORS or _SHELL_EXPANSION.search(w)]
        if shellisms:
            shown = ", ".join(f"'{w}'" for w in dict.fromkeys(shellisms))
            ctx.out.report(span, f"'{key}' uses shell syntax ({shown}) but {family.title} launches it without a "
                           "shell: these reach the program as literal arguments; put the pipeline in a script, or "
                           "run a shell explicitly (`sh -c '...'`)", severity=Severity.WARNING)


_SHELL_OPERATORS = frozenset(("&&", "||", "|", ";", "&", ">", ">>", "<", "<<", "2>", "2>&1", "|&"))
_SHELL_EXPANSION = lazy_pattern(r"\$(?:\{?[A-Za-z_][A-Za-z0-9_]*\}?|\()|`|^~/")


def _inline_server(ctx: AgentContext, server: Any, span: Span, seen: set[str]) -> None:
    if not isinstance(server, dict):
        ctx.out.report(span, "each mcp_servers entry must be a mapping with 'name' and 'command'")
        return
    problem = server_problem(server, need_name=True)
    if problem:
        label = server.get("name") if isinstance(server.get("name"), str) else "entry"
        ctx.out.report(span, f"mcp_servers {label!s} {problem}")
        return
    name = server["name"]
    if name in seen:
        ctx.out.report(span, f"mcp_servers declares '{name}' twice")
    seen.add(name)


@rule("AG005", Severity.WARNING, "agent")
def agent_names_unavailable_skill(ctx: AgentContext) -> None:
    """An agent names a skill that is not in its effective set.

    ## What it does
    Checks every skill an agent names against the set its runtime resolves for it: entries of a
    workspace-agents `skills:` list or a Claude Code subagent's `skills:` list, and AGH
    `skills.disabled` tombstones. A name is missing when no root declares it, when every copy is
    blocked, or when the runtime never discovers it.

    ## Why is this bad?
    A listed skill that does not exist is silently left out of the agent's catalog; a tombstone for
    a name that is not there has no effect (often a typo of the skill it was meant to hide).

    ## Example
    ```yaml
    skills:
      - review-cod
    ```
    Use instead: `- review-code`.

    ## Fix
    None: the intended skill is the author's call (the message names why the skill is missing).

    ## Source
    https://z-fab.github.io/agentmd/skills; Claude Code subagents documentation (`skills`);
    https://agh.network/runtime/core/skills/ (RFC 001 tombstones).
    """
    agent = ctx.agent
    if not agent.winner or ctx.index is None:
        return
    runtime = runtime_for_family(agent.family)
    if runtime not in ctx.index.active:
        return
    from skill_ls.analysis.effective import missing_references

    for missing in missing_references(ctx.index, runtime, ctx.definition):
        ref = missing.ref
        if ref.kind == "tombstone":
            message = f"skills.disabled names '{ref.name}', which is not in this agent's set: {missing.reason}"
        else:
            message = f"'{ref.name}' is not in this agent's effective set: {missing.reason}"
        ctx.out.report(ref.span, message)
