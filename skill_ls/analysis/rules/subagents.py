"""Claude Code subagent value checks: project, user and plugin subagents
(`.claude/agents/**/*.md`, `~/.claude/agents`, `<plugin>/agents/*.md`).

Parsing and the required fields are `skill_ls.core.agents`; these rules check the values
Claude Code gives meaning to, from the runtime's `Vocabulary` (skill_ls/core/runtimes/claude_code.py).
"""
from __future__ import annotations

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.claude_code import (_close, check_hooks, model_hint, model_problem, suggestion_fix, tool_hint,
                                                 tool_problem)
from skill_ls.analysis.rules.context import AgentContext
from skill_ls.analysis.values import list_or_tokens
from skill_ls.core.model import Related, Severity, Span
from skill_ls.core.parse.frontmatter import Frontmatter
from skill_ls.core.runtimes import RUNTIMES, Runtime, runtime_for_family
from skill_ls.core.runtimes.spec import Vocabulary


def is_subagent_family(family: str) -> bool:
    """Whether an agent family is checked as Claude Code subagents (its runtime names its tools)."""
    runtime = RUNTIMES.get(family)
    return runtime is not None and bool(runtime.vocabulary.builtin_tools)


def _subagent(ctx: AgentContext) -> tuple[Frontmatter, Vocabulary] | None:
    runtime = RUNTIMES.get(runtime_for_family(ctx.agent.family))
    fm = ctx.agent.doc.fm
    if runtime is None or fm is None or fm.status != "ok" or not runtime.vocabulary.builtin_tools:
        return None
    return fm, runtime.vocabulary


def reads_subagents(runtime: Runtime) -> bool:
    """Runtimes whose agents are subagents with a known tool list (Claude Code)."""
    return bool(runtime.vocabulary.builtin_tools)


@rule("SA001", Severity.WARNING, "agent", runtimes=reads_subagents, fix="unsafe")
def subagent_unknown_model(ctx: AgentContext) -> None:
    """A subagent's `model` is not a Claude Code model.

    ## What it does
    Accepts `inherit` (the default), the aliases (`sonnet`, `opus`, `haiku`, ...), full Claude model
    ids and Bedrock/Vertex ids, like CC001 for skills.

    ## Why is this bad?
    `model: GPT-4.1` or `model: Claude Sonnet 4` is not a model id; the subagent fails to start or
    runs on a model the author did not choose.

    ## Example
    `model: Claude Sonnet 4` — use `model: sonnet`.

    ## Fix safety
    Unsafe: the value is replaced with the suggested alias, after which the subagent runs on that
    model; offered only when there is a suggestion.

    ## Source
    https://code.claude.com/docs/en/sub-agents (supported frontmatter fields), https://code.claude.com/docs/en/model-config.
    """
    got = _subagent(ctx)
    if got is None:
        return
    fm, vocab = got
    entry = fm.fields.get("model")
    if entry is not None:
        problem = model_problem(entry.value, vocab)
        if problem:
            hint = model_hint(entry.value, vocab)
            fix = suggestion_fix(ctx.agent.doc, entry.value_span, entry.value, hint) if hint else None
            ctx.out.report(entry.value_span, problem, fix=fix)


@rule("SA002", Severity.WARNING, "agent", runtimes=reads_subagents)
def subagent_invalid_setting(ctx: AgentContext) -> None:
    """A subagent's `permissionMode`, `color`, `isolation` or `maxTurns` has a value Claude Code does not accept.

    ## What it does
    `permissionMode`: `default`, `acceptEdits`, `auto`, `dontAsk`, `bypassPermissions`, `plan`;
    `color`: one of Claude Code's named colors (`red`, `blue`, `green`, `yellow`, `purple`,
    `orange`, `pink`, `cyan`, ...); `isolation`: `worktree`; `maxTurns`: a positive integer.
    (`memory` and `effort` are AG004's.) `permissionMode: bypassPermissions` is valid but reported:
    the subagent then runs every tool without asking.

    ## Why is this bad?
    An unknown value is ignored: a subagent meant to plan (`permissionMode: plan`) may edit files,
    and `maxTurns: 0` stops it before it starts.

    ## Example
    `permissionMode: acceptedits` — use `acceptEdits`.

    ## Source
    https://code.claude.com/docs/en/sub-agents, https://code.claude.com/docs/en/iam#permission-modes.
    """
    got = _subagent(ctx)
    if got is None:
        return
    fm, vocab = got
    for key, allowed in (("permissionMode", vocab.permission_modes), ("color", vocab.agent_colors),
                         ("isolation", vocab.agent_isolation)):
        entry = fm.fields.get(key)
        if entry is None or not allowed or entry.value in allowed:
            continue
        hint = _close(str(entry.value), allowed) if isinstance(entry.value, str) else None
        ctx.out.report(entry.value_span, f"'{key}' must be one of {', '.join(allowed)} (got {entry.value!r})"
                       + (f"; did you mean '{hint}'?" if hint else ""))
    mode = fm.fields.get("permissionMode")
    if mode is not None and mode.value == "bypassPermissions":
        ctx.out.report(mode.value_span, "'permissionMode: bypassPermissions' lets this subagent run every tool without "
                       "asking (file writes, shell commands); prefer acceptEdits or a tools allowlist")
    turns = fm.fields.get("maxTurns")
    if turns is not None and isinstance(turns.value, int) and not isinstance(turns.value, bool) and turns.value < 1:
        ctx.out.report(turns.value_span, "'maxTurns' must be at least 1; the subagent would stop before its first turn")


@rule("SA003", Severity.WARNING, "agent", runtimes=reads_subagents, fix="unsafe")
def subagent_unknown_tool(ctx: AgentContext) -> None:
    """A subagent's `tools` or `disallowedTools` names no Claude Code tool.

    ## What it does
    Each entry (comma- or space-separated, or a YAML list) must be a built-in tool, an MCP tool
    (`mcp__server__tool`), or a scoped rule such as `Bash(git *)` or `Agent(reviewer)`.

    ## Why is this bad?
    An unknown name grants or denies nothing: the subagent silently lacks the tool it was given.

    ## Example
    `tools: Read, Grep, Glob, bash` — use `Bash`.

    ## Fix safety
    Unsafe: the entry is replaced with the suggested tool, its pattern kept, which grants (or
    denies) that tool from then on; offered only when there is a suggestion and the entry can be
    placed exactly in the text.

    ## Source
    https://code.claude.com/docs/en/sub-agents, https://code.claude.com/docs/en/settings#tools-available-to-claude.
    """
    got = _subagent(ctx)
    if got is None:
        return
    fm, vocab = got
    doc = ctx.agent.doc
    for key in ("tools", "disallowedTools"):
        entry = fm.fields.get(key)
        if entry is None:
            continue
        for token, span in list_or_tokens(doc, entry):
            if token and token != "*":
                problem = tool_problem(token, vocab)
                if problem:
                    hint = tool_hint(token, vocab)
                    ctx.out.report(span, problem, fix=suggestion_fix(doc, span, token, hint) if hint else None)


def _tool_name(token: str) -> str:
    return token.split("(", 1)[0]


@rule("SA004", Severity.WARNING, "agent", runtimes=reads_subagents)
def subagent_tool_denied(ctx: AgentContext) -> None:
    """A tool is both granted (`tools`) and denied (`disallowedTools`), a whole-tool denial voids a scoped grant, or a scoped denial removes a whole tool.

    ## What it does
    Reports `tools` entries that `disallowedTools` removes: the same entry in both lists, or a
    denial of the whole tool (`Bash`) while `tools` grants part of it (`Bash(git *)`). A scoped
    entry in `disallowedTools` (`Bash(git push *)`) is reported too: `disallowedTools` removes whole
    tools, so it takes all of `Bash` away, not only `git push`.

    ## Why is this bad?
    The denial wins, so the grant has no effect; the author usually meant one of the two.

    ## Example
    ```yaml
    tools: Read, Bash(git *)
    disallowedTools: Bash
    ```
    Use instead: drop `Bash(git *)`, or deny `git push` with a permission rule
    (`permissions.deny: ["Bash(git push *)"]` in settings.json).

    ## Source
    https://code.claude.com/docs/en/sub-agents ("disallowedTools ... removed from the inherited or specified list").
    """
    got = _subagent(ctx)
    if got is None:
        return
    fm, _ = got
    doc = ctx.agent.doc
    tools, denied = fm.fields.get("tools"), fm.fields.get("disallowedTools")
    if denied is not None:
        for token, span in list_or_tokens(doc, denied):
            if "(" in token and token.endswith(")"):
                name = _tool_name(token)
                ctx.out.report(span, f"disallowedTools removes whole tools: '{token}' takes all of {name} away from "
                               f"this subagent, not only '{token[len(name) + 1:-1]}'; deny the command with a "
                               "permission rule (settings.json permissions.deny) instead")
    if tools is None or denied is None:
        return
    deny = {token: span for token, span in list_or_tokens(doc, denied)}
    for token, span in list_or_tokens(doc, tools):
        if token in deny:
            ctx.out.report(span, f"'{token}' is in both tools and disallowedTools; the denial wins",
                           related=[Related(doc.path, deny[token], "denied here")])
        elif "(" in token and _tool_name(token) in deny:
            name = _tool_name(token)
            ctx.out.report(span, f"disallowedTools removes '{name}' entirely, so '{token}' has no effect",
                           related=[Related(doc.path, deny[name], "denied here")])


@rule("SA005", Severity.WARNING, "agent", runtimes=reads_subagents)
def subagent_invalid_hooks(ctx: AgentContext) -> None:
    """A subagent's `hooks` does not have Claude Code's hook shape.

    ## What it does
    The same checks as CC004 (events, matcher groups, handler types and their fields) for hooks
    scoped to a subagent (`Stop` runs as `SubagentStop`); HK002 and HK003 judge its handlers further.

    ## Why is this bad?
    A misspelled event or an incomplete handler never runs.

    ## Example
    `hooks: {postToolUse: [...]}` — use `PostToolUse`.

    ## Source
    https://code.claude.com/docs/en/hooks, https://code.claude.com/docs/en/sub-agents.
    """
    got = _subagent(ctx)
    if got is None:
        return
    fm, vocab = got
    entry = fm.fields.get("hooks")
    if entry is not None and vocab.hook_events:
        check_hooks(ctx.agent.doc, entry, vocab, lambda span, msg: ctx.out.report(span, msg))


@rule("SA006", Severity.WARNING, "agent")
def subagent_shadowed(ctx: AgentContext) -> None:
    """A subagent is shadowed by another with the same name in a higher scope (project beats user).

    ## What it does
    Claude Code loads one subagent per name: a project subagent (`.claude/agents`) hides a user
    subagent (`~/.claude/agents`) of the same name. The hidden copy is reported with the winner as
    related information.

    ## Why is this bad?
    Edits to the hidden copy have no effect, and which definition runs depends on the directory
    Claude Code is started in.

    ## Example
    `~/.claude/agents/reviewer.md` and `.claude/agents/reviewer.md` both declare `name: reviewer`:
    in this project the user copy never runs.

    ## Fix
    Rename one of them, or delete the copy that should not exist.

    ## Source
    https://code.claude.com/docs/en/sub-agents ("When subagent names are duplicated, project-level subagents take precedence").
    """
    agent = ctx.agent
    if agent.winner or ctx.index is None or not is_subagent_family(agent.family):
        return  # other agent families: AG006
    winner = ctx.index.agent(agent.name, agent.family)
    if winner is None:
        return
    fm = agent.doc.fm
    span: Span = fm.fields["name"].value_span if fm is not None and "name" in fm.fields else Span(0, 0, 0, 0)
    ctx.out.report(span, f"subagent '{agent.name}' ({agent.tier}) is shadowed by the {winner.tier} subagent "
                   f"{ctx.index.display_path(winner.path)}; this definition is never used",
                   related=[Related(winner.path, Span(0, 0, 0, 0), f"the {winner.tier} subagent that wins")])


