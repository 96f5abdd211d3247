"""Claude Code skill value checks: values inside the fields Claude Code reads, and the
body hazards of its argument substitution.

Every value comes from the runtime's `Vocabulary` (skill_ls/core/runtimes/claude_code.py, which cites
the pages it was read from); a runtime with an empty vocabulary is not checked.
"""
from __future__ import annotations

import re
from typing import Any, Callable


from skill_ls.analysis.rules import replace_fix, rule
from skill_ls.analysis.rules.context import RuntimeContext
from skill_ls.analysis.values import list_or_tokens, map_child, node_span, seq_items
from skill_ls.core.body import body_lines, lines_containing
from skill_ls.core.index import Document
from skill_ls.core.model import Fix, Severity, Span
from skill_ls.core.parse.data import regex_problem
from skill_ls.core.parse.frontmatter import Frontmatter
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.runtimes import Runtime
from skill_ls.core.suggest import closest
from skill_ls.core.runtimes.claude_code import HOOK_HANDLER_FIELD_KINDS
from skill_ls.core.runtimes.spec import Vocabulary, flag_word

_MCP_TOOL = lazy_pattern(r"^mcp__[A-Za-z0-9_.-]+?(?:__[A-Za-z0-9_.*-]+)?$")
_SCOPED = lazy_pattern(r"^([A-Za-z][A-Za-z0-9_]*)\((.*)\)$", re.S)
_ARG_NAME = lazy_pattern(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _fm(ctx: RuntimeContext) -> Frontmatter | None:
    fm = ctx.doc.fm
    return fm if fm is not None and fm.status == "ok" and not ctx.doc.read_error else None


def _close(value: str, choices: tuple[str, ...]) -> str | None:
    return closest(value, choices)


def suggestion_fix(doc: Document, span: Span, written: str, replacement: str) -> Fix | None:
    """Replace `written` (what the span holds, perhaps quoted) with `replacement`: the fix of a
    "did you mean" finding. None when the span does not hold exactly that text (a token the parser
    could not place inside its scalar): the fix must never touch anything else. Unsafe: the value
    starts to mean something (a model is used, a tool is granted)."""
    if span.start_line != span.end_line:
        return None
    text = doc.src.line_text(span.start_line)[span.start_col:span.end_col]
    start = span.start_col
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text, start = text[1:-1], start + 1
    if text != written or written == replacement:
        return None
    return replace_fix(f"Replace '{written}' with '{replacement}'", doc.path,
                       Span(span.start_line, start, span.start_line, start + len(written)), replacement, safe=False)


def model_hint(value: Any, vocab: Vocabulary) -> str | None:
    """The alias a model value that is not accepted most likely meant (`model_problem`'s suggestion)."""
    if not isinstance(value, str) or model_problem(value, vocab) is None:
        return None
    return _close(value, vocab.model_aliases)


def tool_hint(token: str, vocab: Vocabulary) -> str | None:
    """What an unknown tool entry most likely meant, scoped pattern kept (`bash(git *)` -> `Bash(git *)`)."""
    if token.startswith("mcp__") or tool_problem(token, vocab) is None:
        return None
    scoped = _SCOPED.match(token)
    name = scoped.group(1) if scoped else token
    if scoped is None and ("(" in token or ")" in token) or name in vocab.builtin_tools:
        return None
    hint = _close(name, vocab.builtin_tools)
    return hint + token[len(name):] if hint else None


def model_problem(value: Any, vocab: Vocabulary) -> str | None:
    """Why `value` is not a model Claude Code accepts, or None."""
    if not isinstance(value, str):
        return None  # the type is SK006's / AG004's
    if value in vocab.model_aliases or any(p.match(value) for p in vocab.model_id_patterns):
        return None
    hint = _close(value, vocab.model_aliases)
    text = f"'{value}' is not a Claude Code model: use an alias ({', '.join(vocab.model_aliases[:6])}, ...), " \
           "a full model id like 'claude-sonnet-4-5', or 'inherit'"
    return text + (f"; did you mean '{hint}'?" if hint else "")


def knows_models(runtime: Runtime) -> bool:
    """Runtimes whose `model` field names models from a known vocabulary."""
    return bool(runtime.vocabulary.model_aliases)


def runs_skills_in_agents(runtime: Runtime) -> bool:
    """Runtimes with an `agent` field naming built-in or custom agents."""
    return bool(runtime.vocabulary.builtin_agents) and "agent" in runtime.fields


def knows_tools(runtime: Runtime) -> bool:
    """Runtimes with a known list of built-in tools."""
    return bool(runtime.vocabulary.builtin_tools)


def reads_skill_hooks(runtime: Runtime) -> bool:
    """Runtimes with a `hooks` field and a known list of hook events."""
    return bool(runtime.vocabulary.hook_events) and "hooks" in runtime.fields


def reads_path_globs(runtime: Runtime) -> bool:
    """Runtimes with a `paths` field (and a known tool list: Claude Code)."""
    return "paths" in runtime.fields and bool(runtime.vocabulary.builtin_tools)


def reads_named_arguments(runtime: Runtime) -> bool:
    """Runtimes with an `arguments` field that substitute arguments into the skill."""
    return "arguments" in runtime.fields and runtime.vocabulary.substitutes_arguments


def substitutes_arguments(runtime: Runtime) -> bool:
    """Runtimes that replace `$ARGUMENTS`/`$N` in a skill's text when it is run with arguments."""
    return runtime.vocabulary.substitutes_arguments


@rule("CC001", Severity.WARNING, "runtime", runtimes=knows_models, fix="unsafe")
def unknown_model(ctx: RuntimeContext) -> None:
    """`model` names no model Claude Code knows.

    ## What it does
    Accepts the model aliases (`default`, `best`, `sonnet`, `opus`, `haiku`, `opusplan`,
    `sonnet[1m]`, `opus[1m]`), `inherit`, full Claude model ids (`claude-sonnet-4-5`,
    `claude-opus-4-1-20250805`, Vertex `...@20250805`) and Bedrock ids or ARNs; anything else is
    reported, with the closest alias.

    ## Why is this bad?
    An unknown model makes the skill fail when it runs (or fall back silently); `GPT-4.1` or
    `Claude Sonnet 4.5` are names from other products or display names, not model ids.

    ## Example
    ```yaml
    model: Sonnet
    ```
    Use instead: `model: sonnet`.

    ## Fix safety
    Unsafe: the value is replaced with the suggested alias (`Sonnet` -> `sonnet`), after which the
    skill runs on that model; offered only when there is a suggestion.

    ## Source
    https://code.claude.com/docs/en/skills (frontmatter `model`), https://code.claude.com/docs/en/model-config.
    """
    vocab = ctx.runtime.vocabulary
    fm = _fm(ctx)
    if fm is None:
        return
    entry = fm.fields.get("model")
    if entry is None:
        return
    problem = model_problem(entry.value, vocab)
    if problem:
        hint = model_hint(entry.value, vocab)
        fix = suggestion_fix(ctx.doc, entry.value_span, entry.value, hint) if hint else None
        ctx.out.report(entry.value_span, problem, fix=fix)


def known_subagents(ctx_index: Any, family: str | None) -> set[str]:
    """Names of the agents of `family` (the runtime's own agent family) in the index."""
    if ctx_index is None or family is None:
        return set()
    return {a.name for a in getattr(ctx_index, "agents", ()) if getattr(a, "family", "") == family}


@rule("CC002", Severity.WARNING, "runtime", runtimes=runs_skills_in_agents)
def agent_without_fork(ctx: RuntimeContext) -> None:
    """`agent` without `context: fork`, or an `agent` that names no subagent.

    ## What it does
    `agent` chooses the subagent that runs a forked skill, so it takes effect only together with
    `context: fork`. With `context: fork`, `agent` must name a built-in subagent (`general-purpose`,
    `Explore`, `Plan`, ...), a subagent in `.claude/agents` or `~/.claude/agents`, or a plugin
    subagent (`plugin:name`).

    ## Why is this bad?
    Without `context: fork` the skill runs inline and `agent` is silently ignored; an agent name that
    does not exist makes the forked skill fail when it is invoked.

    ## Example
    ```yaml
    agent: Explore
    ```
    Use instead:
    ```yaml
    context: fork
    agent: Explore
    ```

    ## Source
    https://code.claude.com/docs/en/skills ("Run skills in a subagent"), https://code.claude.com/docs/en/sub-agents.
    """
    vocab = ctx.runtime.vocabulary
    fm = _fm(ctx)
    if fm is None:
        return
    entry = fm.fields.get("agent")
    if entry is None or not isinstance(entry.value, str):
        return
    if fm.value("context") != "fork":
        ctx.out.report(entry.key_span, "'agent' only takes effect with 'context: fork'; without it the skill runs "
                       "inline and 'agent' is ignored")
        return
    name = entry.value.strip()
    if ":" in name or name in vocab.builtin_agents:
        return
    scoping = ctx.runtime.agent_scoping
    agents = known_subagents(ctx.index, scoping.family if scoping is not None else None)
    if name in agents:
        return
    hint = _close(name, tuple(vocab.builtin_agents) + tuple(sorted(agents)))
    ctx.out.report(entry.value_span, f"'{name}' is neither a built-in subagent ({', '.join(vocab.builtin_agents)}) "
                   "nor a subagent in .claude/agents" + (f"; did you mean '{hint}'?" if hint else ""))


def tool_problem(token: str, vocab: Vocabulary) -> str | None:
    """Why one entry of a Claude Code tool list is not a tool, or None."""
    if token.startswith("mcp__"):
        if _MCP_TOOL.match(token):
            return None
        return f"'{token}' is not an MCP tool name: use 'mcp__<server>' or 'mcp__<server>__<tool>'"
    scoped = _SCOPED.match(token)
    name = scoped.group(1) if scoped else token
    if scoped is None and ("(" in token or ")" in token):
        return f"'{token}' has unbalanced parentheses: write a scoped rule as 'Tool(pattern)'"
    if name not in vocab.builtin_tools:
        hint = _close(name, vocab.builtin_tools)
        return f"unknown tool '{name}' for Claude Code" + (f"; did you mean '{hint}'?" if hint else
                                                          " (MCP tools are written 'mcp__<server>__<tool>')")
    if scoped is not None and not scoped.group(2).strip():
        return f"'{token}' has an empty pattern: write '{name}' for the whole tool or '{name}(pattern)'"
    return None


def check_tool_list(doc: Document, entry: Any, vocab: Vocabulary, report: Callable[[Span, str, Fix | None], None]) -> None:
    for token, span in list_or_tokens(doc, entry):
        if not token:
            continue
        problem = tool_problem(token, vocab)
        if problem:
            hint = tool_hint(token, vocab)
            report(span, problem, suggestion_fix(doc, span, token, hint) if hint else None)


@rule("CC003", Severity.WARNING, "runtime", runtimes=knows_tools, fix="unsafe")
def unknown_tool(ctx: RuntimeContext) -> None:
    """An `allowed-tools` or `disallowed-tools` entry is not a Claude Code tool.

    ## What it does
    Each entry (space- or comma-separated, or a YAML list) must be a built-in tool name (`Read`,
    `Grep`, `Bash`, `WebFetch`, `Agent`, ...), an MCP tool (`mcp__server` or `mcp__server__tool`), or a
    scoped rule `Tool(pattern)` such as `Bash(git diff *)`. Names are case-sensitive; the closest
    tool is suggested.

    ## Why is this bad?
    An unknown name matches nothing: the tool the author meant to pre-approve still asks for
    permission, and a misspelled denial denies nothing.

    ## Example
    ```yaml
    allowed-tools: read, grep, Bash(git diff *)
    ```
    Use instead: `allowed-tools: Read, Grep, Bash(git diff *)`.

    ## Fix safety
    Unsafe: the entry is replaced with the suggested tool, its pattern kept (`bash(git *)` ->
    `Bash(git *)`), which grants (or denies) that tool from then on; offered only when there is a
    suggestion and the entry can be placed exactly in the text.

    ## Source
    https://code.claude.com/docs/en/settings#tools-available-to-claude,
    https://code.claude.com/docs/en/permissions (rule syntax), https://code.claude.com/docs/en/skills.
    """
    vocab = ctx.runtime.vocabulary
    fm = _fm(ctx)
    if fm is None:
        return
    for key in ("allowed-tools", "disallowed-tools"):
        entry = fm.fields.get(key)
        if entry is not None and key in ctx.runtime.fields:
            check_tool_list(ctx.doc, entry, vocab, lambda span, msg, fix: ctx.out.report(span, msg, fix=fix))


def check_hooks(doc: Document, entry: Any, vocab: Vocabulary, report: Callable[[Span, str], None]) -> None:
    """Claude Code's hooks shape: {Event: [{matcher?: str, hooks: [{type, command|url|prompt, timeout?}]}]}."""
    value, node = entry.value, entry.node
    if value is None:
        return
    if not isinstance(value, dict):
        report(entry.value_span, "'hooks' must map hook events (PreToolUse, PostToolUse, Stop, ...) to lists of "
               "matcher groups")
        return
    for event, groups in value.items():
        knode, vnode = map_child(node, str(event))
        kspan = node_span(doc, knode, entry.key_span)
        if event not in vocab.hook_events:
            hint = _close(str(event), vocab.hook_events)
            report(kspan, f"unknown hook event '{event}'" + (f"; did you mean '{hint}'?" if hint else
                                                               f" (events: {', '.join(vocab.hook_events[:8])}, ...)"))
            continue
        if not isinstance(groups, list):
            report(node_span(doc, vnode, kspan), f"hooks.{event} must be a list of matcher groups "
                   "({matcher, hooks: [...]})")
            continue
        for gi, group in enumerate(groups):
            gnode = seq_items(vnode)[gi] if gi < len(seq_items(vnode)) else None
            gspan = node_span(doc, gnode, kspan)
            if not isinstance(group, dict):
                report(gspan, f"each hooks.{event} entry must be a mapping with 'hooks' (and optionally 'matcher')")
                continue
            matcher = group.get("matcher")
            if matcher is not None and not isinstance(matcher, str):
                report(gspan, f"hooks.{event} 'matcher' must be a string (a tool name or regex like 'Edit|Write')")
            elif isinstance(matcher, str) and matcher not in ("", "*"):
                problem = regex_problem(matcher)
                if problem is not None:
                    _, mv = map_child(gnode, "matcher")
                    report(node_span(doc, mv, gspan), f"hooks.{event} matcher '{matcher if len(matcher) <= 80 else matcher[:77] + '...'}' "
                           f"is not a valid regex ({problem})")
            handlers = group.get("hooks")
            _, hnode = map_child(gnode, "hooks")
            if not isinstance(handlers, list) or not handlers:
                report(gspan, f"hooks.{event} group needs a non-empty 'hooks' list of handlers "
                       "({type: command, command: ...})")
                continue
            for hi, handler in enumerate(handlers):
                items = seq_items(hnode)
                hspan = node_span(doc, items[hi] if hi < len(items) else None, gspan)
                _check_handler(event, handler, hspan, vocab, report)


_KIND_WORDS = {"str": "a string", "bool": "true or false", "str_list": "a list of strings",
               "str_map": "an object of strings", "map": "an object", "nonempty": "a non-empty string",
               "url": "a URL"}
_SCHEME = lazy_pattern(r"^([A-Za-z][A-Za-z0-9+.-]*):(.*)$", re.S)


def url_problem(url: str) -> str | None:
    """Why a WHATWG URL parser (Claude Code's `new URL`) refuses `url`, where that is certain: no scheme,
    whitespace, or a web URL without a host or with a port that is not a number (`${PORT}`)."""
    m = _SCHEME.match(url)
    if m is None:
        return "it has no scheme (https://...)"
    if any(c.isspace() for c in url.strip()):
        return "it holds whitespace"
    if m.group(1).lower() in ("http", "https", "ws", "wss", "ftp"):
        authority = re.split(r"[/?#\\]", m.group(2).lstrip("/\\"), maxsplit=1)[0].rsplit("@", 1)[-1]
        host, port = (authority, "") if authority.startswith("[") else authority.rpartition(":")[::2] \
            if ":" in authority else (authority, "")
        if not host:
            return "it has no host"
        if port and not port.isdigit():
            return f"its port '{port}' is not a number"
    return None


def handler_field_problems(kind: str, handler: dict[str, Any], fields: dict[str, dict[str, Any]]
                           ) -> list[tuple[str, str]]:
    """(field, why) for each optional field of a hook handler of `kind` whose value Claude Code's schema
    refuses (`fields`: the runtime's `HOOK_HANDLER_FIELD_KINDS`)."""
    out = []
    for field, want in fields.get(kind, {}).items():
        if field not in handler:
            continue
        value = handler[field]
        if isinstance(want, tuple):
            ok = value in want
            words = " or ".join(f"'{w}'" for w in want)
        elif want == "url":
            problem = url_problem(value) if isinstance(value, str) else "it is not a string"
            if problem is not None:
                out.append((field, f"'{field}' of a '{kind}' hook is not a valid URL ({problem})"))
            continue
        else:
            ok = {"str": isinstance(value, str), "bool": isinstance(value, bool),
                  "nonempty": isinstance(value, str) and value != "",
                  "str_list": isinstance(value, list) and all(isinstance(v, str) for v in value),
                  "str_map": isinstance(value, dict) and all(isinstance(v, str) for v in value.values()),
                  "map": isinstance(value, dict)}[want]
            words = _KIND_WORDS[want]
        if not ok:
            out.append((field, f"'{field}' of a '{kind}' hook must be {words}"))
    return out


def _check_handler(event: str, handler: Any, span: Span, vocab: Vocabulary,
                   report: Callable[[Span, str], None]) -> None:
    if not isinstance(handler, dict):
        report(span, f"each hooks.{event} handler must be a mapping like {{type: command, command: ...}}")
        return
    kind = handler.get("type")
    if kind is None:
        report(span, f"hook handler has no 'type' (one of {', '.join(vocab.hook_types)})")
        return
    if kind not in vocab.hook_types:
        report(span, f"hook handler type {kind!r} is not one of {', '.join(vocab.hook_types)}")
        return
    for needed in vocab.hook_types[kind]:
        if not (isinstance(handler.get(needed), str) and handler[needed].strip()):
            report(span, f"a '{kind}' hook handler needs '{needed}'")
    timeout = handler.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        report(span, "hook 'timeout' must be a positive number of seconds")
    for _, why in handler_field_problems(kind, handler, HOOK_HANDLER_FIELD_KINDS):
        report(span, why)


@rule("CC004", Severity.WARNING, "runtime", runtimes=reads_skill_hooks)
def invalid_hooks(ctx: RuntimeContext) -> None:
    """`hooks` in a skill does not have Claude Code's hook shape.

    ## What it does
    Checks skill-scoped hooks: a mapping from a hook event (`PreToolUse`, `PostToolUse`, `Stop`,
    `SessionStart`, ...; case-sensitive) to a list of matcher groups, each with an optional
    `matcher` (a tool name or regular expression) and a non-empty `hooks` list of handlers. A handler
    has a `type` (`command`, `http`, `prompt`, `agent`, `mcp_tool`) and the field that type needs
    (`command`, `url` or `prompt`); `timeout` is a positive number of seconds; the other handler
    fields have the kind Claude Code's schema reads (as HK001 checks them in hooks files). (HK002 and HK003
    judge the handlers further: a type the event does not run, a script that does not exist.)

    ## Why is this bad?
    A misspelled event or a handler without its command never runs, and nothing says so.

    ## Example
    ```yaml
    hooks:
      preToolUse:
        - matcher: Bash
          hooks: [{type: command}]
    ```
    Use instead: `PreToolUse`, and give the handler `command: ./scripts/check.sh`.

    ## Source
    https://code.claude.com/docs/en/hooks (events, matchers, handler fields), https://code.claude.com/docs/en/skills.
    """
    vocab = ctx.runtime.vocabulary
    fm = _fm(ctx)
    if fm is None:
        return
    entry = fm.fields.get("hooks")
    if entry is not None:
        check_hooks(ctx.doc, entry, vocab, lambda span, msg: ctx.out.report(span, msg))


def glob_problem(pattern: str) -> str | None:
    if not pattern.strip():
        return "an empty glob matches nothing"
    if pattern.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", pattern):
        return f"'{pattern}' is absolute: paths globs are relative to the project"
    if "\\" in pattern:
        return f"'{pattern}' uses backslashes: write '/' in globs"
    depth = 0
    for ch in pattern:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            break
    if depth != 0 or pattern.count("[") != pattern.count("]"):
        return f"'{pattern}' has unbalanced braces or brackets"
    return None


@rule("CC005", Severity.WARNING, "runtime", runtimes=reads_path_globs)
def invalid_paths_glob(ctx: RuntimeContext) -> None:
    """A `paths` glob cannot match: empty, absolute, backslashes, or unbalanced `{}`/`[]`.

    ## What it does
    `paths` (a comma-separated string or a YAML list) limits when Claude loads the skill to files
    matching the globs, relative to the project. Each glob is checked.

    ## Why is this bad?
    A glob that matches nothing means the skill is never loaded automatically.

    ## Example
    ```yaml
    paths: /src/**/*.ts, src\\legacy\\*.js
    ```
    Use instead: `paths: src/**/*.ts, src/legacy/*.js`.

    ## Source
    https://code.claude.com/docs/en/skills (frontmatter `paths`).
    """
    fm = _fm(ctx)
    if fm is None:
        return
    entry = fm.fields.get("paths")
    if entry is None:
        return
    if isinstance(entry.value, str):
        base_items = [(p.strip(), p) for p in _split_outside_braces(entry.value)]
        from skill_ls.analysis.values import scalar_base

        base = scalar_base(ctx.doc, entry.value, entry.value_span)
        at = 0
        for stripped, raw in base_items:
            span = entry.value_span
            if base is not None:
                lead = len(raw) - len(raw.lstrip())
                span = Span(span.start_line, base + at + lead, span.start_line, base + at + lead + len(stripped))
            at += len(raw) + 1
            problem = glob_problem(stripped)
            if problem:
                ctx.out.report(span, problem)
    elif isinstance(entry.value, list):
        nodes = seq_items(entry.node)
        for i, item in enumerate(entry.value):
            if isinstance(item, str):
                problem = glob_problem(item)
                if problem:
                    ctx.out.report(node_span(ctx.doc, nodes[i] if i < len(nodes) else None, entry.value_span), problem)


def _split_outside_braces(text: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur.append(ch)
    parts.append("".join(cur))
    return parts


def argument_names(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


@rule("CC006", Severity.WARNING, "runtime", runtimes=reads_named_arguments)
def invalid_arguments(ctx: RuntimeContext) -> None:
    """`arguments` names that cannot be substituted: not identifiers, digits, repeated.

    ## What it does
    `arguments` (a space-separated string or a YAML list) names the skill's positional arguments,
    so `$name` in the body is replaced by the argument in that position. Each name must be an
    identifier (letters, digits, `_`, not starting with a digit), must not be `ARGUMENTS`, and must
    appear once.

    ## Why is this bad?
    `$1st` or a repeated name is never substituted as the author expects; the body keeps the
    literal text.

    ## Example
    ```yaml
    arguments: [issue, issue]
    ```
    Use instead: `arguments: [issue, branch]`.

    ## Source
    https://code.claude.com/docs/en/skills ("Pass arguments to skills").
    """
    fm = _fm(ctx)
    if fm is None:
        return
    entry = fm.fields.get("arguments")
    if entry is None or entry.value is None:
        return
    if not isinstance(entry.value, (str, list)) or (isinstance(entry.value, list)
                                                     and not all(isinstance(v, str) for v in entry.value)):
        ctx.out.report(entry.value_span, "'arguments' must be a space-separated string or a list of names")
        return
    seen: set[str] = set()
    for name, span in list_or_tokens(ctx.doc, entry):
        if not _ARG_NAME.match(name) or name == "ARGUMENTS":
            ctx.out.report(span, f"argument name '{name}' cannot be substituted: use letters, digits and '_', "
                           "not starting with a digit (and not 'ARGUMENTS')")
        elif name in seen:
            ctx.out.report(span, f"argument '{name}' is named twice; only the first position is substituted")
        seen.add(name)


_POSITIONAL = re.compile(r"(?<![$\\])\$(\d+)(?!\w)")
_MONEY = lazy_pattern(r"\$\d+(?:[.,]\d|[KMBkmb]\b|/[A-Za-z]|-\$?\d|\s*(?:USD|per|of|/mo|/month|a month|million|billion)\b"
                    r"|\s+\()")
_NAMED = lazy_pattern(r"(?<![$\\])\$([A-Za-z_][A-Za-z0-9_]*)(?![\[\w])")
_ASSIGN = lazy_pattern(r"\bfor\s+([A-Za-z_]\w*)\s+in\b|\b(?:local|export|readonly|declare)\s+(?:-\w+\s+)*([A-Za-z_]\w*)"
                     r"|^\s*([A-Za-z_]\w*)=|\bread\s+(?:-\w+\s+)*([A-Za-z_]\w*)")
_INDEXED = lazy_pattern(r"\$ARGUMENTS\[(\d+)\]")
_INLINE_CODE = lazy_pattern(r"(`+)(.+?)\1")


def _uses_arguments(doc: Document) -> bool:
    fm = doc.fm
    return fm is not None and ("argument-hint" in fm.fields or "arguments" in fm.fields)


@rule("CC007", Severity.WARNING, "runtime", runtimes=substitutes_arguments)
def positional_substituted_in_code(ctx: RuntimeContext) -> None:
    """`$1`-style text in code is replaced by Claude Code's argument substitution.

    ## What it does
    Claude Code replaces `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` and named `$arg` everywhere in the skill
    when it is run with arguments, fenced code blocks and inline code included. A shell or awk
    positional written in code (`awk '{print $1}'`, `echo "$2"`, SQL `$1` placeholders) is reported
    when the skill does not take arguments (no `argument-hint` or `arguments`), and always inside
    awk programs (a line naming `awk`, or an awk action: `'{print $1}'`), where it is never meant as a
    skill argument; other braces (a JavaScript object `{ system: "$1" }`) are not awk. A named argument (`arguments:
    [file]`) written `$file` in a code block that assigns the shell variable `file` (`for file in`,
    `file=`, `local file`, `read file`) is reported too. Amounts of money
    (`$2.5M`, `$1,200`, `$20.00`, `$150/hr`, `$50-200`, `$0 of $X`) are left alone: they are
    replaced too, but read as prose.

    ## Why is this bad?
    `awk '{print $1}'` silently becomes `awk '{print }'` (or prints the user's argument), so the
    command the model copies is not the one the author wrote.

    ## Example
    ```sh
    ps aux | awk '{print $2}'
    ```
    Use instead: `awk '{print $(2)}'` in awk, or `${2}` in a shell; neither is substituted.

    ## Source
    https://code.claude.com/docs/en/skills ("Available string substitutions").
    """
    if _fm(ctx) is None:
        return
    takes_args = _uses_arguments(ctx.doc)
    if "$" not in ctx.doc.src.text:
        return
    fm = ctx.doc.fm
    named = set(argument_names(fm.value("arguments"))) if fm is not None and reads_named_arguments(ctx.runtime) \
        else set()
    when = ctx.runtime.vocabulary.substitution_event or f"when {ctx.runtime.title} substitutes arguments"
    assigned: set[str] = set()  # shell variables assigned so far in the current fenced block
    # (named arguments need every fenced line, for the assignments; otherwise only lines with a '$')
    for n, line, fenced in body_lines(ctx.doc) if named else lines_containing(ctx.doc, "$"):
        if not fenced:
            assigned = set()
        elif named:
            assigned.update(next(g for g in m.groups() if g) for m in _ASSIGN.finditer(line))
        if "$" not in line:
            continue
        if named and fenced:
            for m in _NAMED.finditer(line):
                name = m.group(1)
                if name in named and name in assigned:
                    ctx.out.report(Span(n, m.start(), n, m.end()),
                                   f"'${name}' is the shell variable this block assigns, but {ctx.runtime.title} "
                                   f"replaces it with the skill's argument '{name}'; write '${{{name}}}' (not "
                                   "substituted) or rename the variable")
        code_ranges = [(0, len(line))] if fenced else [(m.start(2), m.end(2)) for m in _INLINE_CODE.finditer(line)]
        for m in _POSITIONAL.finditer(line):
            if not any(a <= m.start() < b for a, b in code_ranges) or _MONEY.match(line, m.start()):
                continue
            awkish = _AWK.search(line) is not None or _inside_awk_braces(line, m.start())
            if takes_args and not awkish:
                continue
            digit = m.group(1)
            escape = f"write '$({digit})' in awk" if awkish else "in a shell write '${" + digit + "}'"
            ctx.out.report(Span(n, m.start(), n, m.end()),
                           f"'${digit}' is replaced by the {_ordinal(int(digit))} argument (index {digit}: indices "
                           f"are 0-based) {when} (code blocks included); {escape} to keep it literal")


def _ordinal(index: int) -> str:
    """The argument at a 0-based index, in words: 0 -> "first", 1 -> "second", 10 -> "11th"."""
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    if index < len(words):
        return words[index]
    n = index + 1
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


_AWK = lazy_pattern(r"\b[gmn]?awk\b")
# An awk action as written on a line of its own: `'{print $1}'`, `{ printf "%s", $2 }`, `'$3 > 0 {…}'`.
_AWK_ACTION = lazy_pattern(r"'\s*(?:\$?\w+\s*[<>=!~]+[^{}']*)?\{\s*$|\{\s*(?:print|printf|sum|n|count|total)\b")


def _inside_awk_braces(line: str, at: int) -> bool:
    """Whether position `at` is inside braces that open an awk action (a quoted `'{`, or `{print`),
    not any braces: `args: { system: "$1" }` is a JavaScript object whose `$1` is the argument."""
    opening = line.rfind("{", 0, at)
    if opening < 0 or opening < line.rfind("}", 0, at):
        return False
    return _AWK_ACTION.search(line[:opening + 1]) is not None or _AWK_ACTION.match(line, opening) is not None


@rule("CC008", Severity.INFORMATION, "runtime", runtimes=substitutes_arguments)
def indexed_arguments_without_hint(ctx: RuntimeContext) -> None:
    """The body uses `$ARGUMENTS[N]` but the skill declares no `argument-hint` or `arguments`.

    ## What it does
    Reports the first `$ARGUMENTS[N]` in a skill that tells the user nothing about its arguments.

    ## Why is this bad?
    The slash-command menu shows no hint, so users do not know which positional arguments to
    pass; missing ones are substituted as empty text.

    ## Example
    ```markdown
    Compare $ARGUMENTS[0] with $ARGUMENTS[1].
    ```
    Use instead: add `argument-hint: "[base] [head]"` (quoted: unquoted, `[base] [head]` is not valid
    YAML), or, in Claude Code, `arguments: [base, head]` and `$base`/`$head`. Under workspace agents only
    `argument-hint` is suggested: they have no `arguments`.

    ## Source
    https://code.claude.com/docs/en/skills (`argument-hint`, `arguments`, string substitutions).
    """
    if _fm(ctx) is None or _uses_arguments(ctx.doc):
        return
    if "$ARGUMENTS[" not in ctx.doc.src.text:
        return
    # Only the fields this runtime has (workspace agents have `argument-hint`, not `arguments`).
    fields = " or ".join(f"'{f}'" for f in ("argument-hint", "arguments") if f in ctx.runtime.fields)
    if not fields:
        return
    for n, line, _ in lines_containing(ctx.doc, "$ARGUMENTS["):
        m = _INDEXED.search(line)
        if m:
            ctx.out.report(Span(n, m.start(), n, m.end()), f"'{m.group(0)}' is used but the skill has no {fields}: "
                           f"{ctx.runtime.title} does not tell users or agents which arguments to pass")
            return


def has_invocation_flags(runtime: Any) -> bool:
    """Runtimes whose skills can be kept from the user (`user-invocable`) and from the model
    (`disable-model-invocation`), read as the runtime reads flags."""
    return "user-invocable" in runtime.fields and "disable-model-invocation" in runtime.fields \
        and runtime.truthiness == "words"


@rule("CC009", Severity.WARNING, "runtime", runtimes=has_invocation_flags)
def skill_invoked_by_nobody(ctx: RuntimeContext) -> None:
    """A skill is hidden from the user (`user-invocable: false`) and from the model (`disable-model-invocation: true`).

    ## What it does
    Reads both flags as Claude Code does (booleans, or `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`)
    and reports a skill that neither the user (no slash command) nor the model (not in the listing,
    refused by the Skill tool) can invoke.

    ## Why is this bad?
    The skill is loaded and never runs: it is dead weight, and the author usually meant only one of
    the two flags.

    ## Example
    ```yaml
    user-invocable: false
    disable-model-invocation: true
    ```
    Use instead: keep one of them (a background-knowledge skill is `user-invocable: false`; a
    user-only command is `disable-model-invocation: true`).

    ## Source
    https://code.claude.com/docs/en/skills ("Control who invokes a skill").
    """
    fm = _fm(ctx)
    if fm is None:
        return
    user, model = fm.fields.get("user-invocable"), fm.fields.get("disable-model-invocation")
    if user is None or model is None or flag_word(user.value) is not False or flag_word(model.value) is not True:
        return
    ctx.out.report(user.value_span, "this skill is hidden from the user (user-invocable: false) and from the model "
                   "(disable-model-invocation: true): nobody can invoke it; keep one of the two")
