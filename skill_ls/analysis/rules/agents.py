"""Agent definition rules (AG001-AG005). Parsing and validation live in `skill_ls.core.agents`; these
rules report its problems, and AG005 compares an agent's skill references with its effective set."""
from __future__ import annotations

from skill_ls.core.model import Severity
from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import AgentContext
from skill_ls.core.runtimes import runtime_for_family


def _report(ctx: AgentContext, code: str) -> None:
    from skill_ls.core.agents import analyse_agent  # imported on first agent: `check` of skills never pays for it

    definition = analyse_agent(ctx.agent, ctx.index)
    for p in definition.problems:
        if p.code == code:
            ctx.out.report(p.span, p.message, severity=p.severity, fix=p.fix, path=p.path)


@rule("AG001", Severity.ERROR, "agent", fix="unsafe")
def agent_frontmatter_invalid(ctx: AgentContext):
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
    """
    _report(ctx, "AG001")


@rule("AG002", Severity.ERROR, "agent", fix="unsafe")
def agent_unknown_field(ctx: AgentContext):
    """An agent definition has a field its runtime does not know.

    ## What it does
    AGH's parser is strict: any key other than `name`, `provider`, `command`, `model`, `tools`,
    `deny_tools`, `toolsets`, `permissions`, `mcp_servers` and `hooks` fails validation (also unknown
    keys inside an `mcp_servers` entry). The RFC 001 draft fields (`description`, `skills.inherit`,
    `skills.disabled`, `skills.extra_sources`, `memory.*`) are reported with the severity of
    `agh.draft_fields` (`error`, `warning` — the default — or `ignore`); they never change
    resolution, and `skills.disabled` tombstones are honoured in catalogs. In Claude Code subagents
    an unknown key is a warning (Claude Code ignores it).

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
    """
    _report(ctx, "AG002")


@rule("AG003", Severity.ERROR, "agent")
def agent_prompt_empty(ctx: AgentContext):
    """The agent prompt (the Markdown body after the frontmatter) is empty.

    ## What it does
    AGH trims the body and stores it as the agent's startup prompt; an empty one is a validation
    error ("agent prompt is required"). For Claude Code subagents the body is the system prompt and
    an empty one is a warning.

    ## Why is this bad?
    AGH refuses the definition and the agent cannot start.

    ## Example
    ```markdown
    ---
    name: reviewer
    ---
    ```
    Use instead: write the prompt after the closing `---`.
    """
    _report(ctx, "AG003")


@rule("AG004", Severity.ERROR, "agent", fix="unsafe")
def agent_invalid_value(ctx: AgentContext):
    """A field of an agent definition has an invalid value.

    ## What it does
    AGH: `name` is required and equals the directory name; `provider`, `model` and `command` are
    strings (`command` with balanced shell-style quoting); `tools` and `deny_tools` are canonical
    ToolIDs (`ns__name`, two or more segments of `[a-z0-9][a-z0-9_-]*` joined by `__`) or prefix
    wildcards ending in `*`; `toolsets` are canonical ToolsetIDs; `permissions` is `deny-all`,
    `approve-reads` or `approve-all`; each `mcp_servers` entry has `name` and `command`, `args` is a
    list of strings and `env` maps names to strings (also for the `mcp.json` sidecar); `hooks` is a
    list of mappings. No `provider` here and no `defaults.provider` in `$AGH_HOME/config.toml` is a
    warning (AGH fails when the session starts). Claude Code subagents: `name` (lowercase letters and
    hyphens) and `description` are required; known fields have their documented types.

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
    """
    _report(ctx, "AG004")


@rule("AG005", Severity.WARNING, "agent")
def agent_names_unavailable_skill(ctx: AgentContext):
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
    """
    agent = ctx.agent
    if not agent.winner or ctx.index is None:
        return
    runtime = runtime_for_family(agent.family)
    if runtime not in ctx.index.active:
        return
    from skill_ls.analysis.effective import missing_references

    from skill_ls.core.agents import analyse_agent

    for missing in missing_references(ctx.index, runtime, analyse_agent(agent, ctx.index)):
        ref = missing.ref
        if ref.kind == "tombstone":
            message = f"skills.disabled names '{ref.name}', which is not in this agent's set: {missing.reason}"
        else:
            message = f"'{ref.name}' is not in this agent's effective set: {missing.reason}"
        ctx.out.report(ref.span, message)
