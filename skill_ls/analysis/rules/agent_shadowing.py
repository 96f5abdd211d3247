"""Shadowed agent definitions: the copy of an agent name that its runtime never uses."""
from __future__ import annotations

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import AgentContext
from skill_ls.analysis.rules.subagents import is_subagent_family
from skill_ls.core.model import Related, Severity
from skill_ls.core.spans import header_span, name_span


@rule("AG006", Severity.WARNING, "agent")
def agent_definition_shadowed(ctx: AgentContext) -> None:
    """An agent definition that is never used: another definition of the same name wins.

    ## What it does
    AGH resolves agents first-found-wins — the workspace's `.agh/agents/<name>/AGENT.md`, then each
    additional root in order, then `$AGH_HOME/agents` — and "does not merge or inherit from the
    lower-precedence definition". The losing definition gets this warning, with the winner as related
    information. (Claude Code subagents, where the project beats the user, have their own rule: SA006.)

    ## Why is this bad?
    Someone editing the losing file sees their changes ignored — its prompt, tools, MCP servers and
    its agent-local `skills/` directory are never used.

    ## Example
    `.agh/agents/reviewer/AGENT.md` and `~/.agh/agents/reviewer/AGENT.md`: the second is shadowed.

    ## Fix
    None: rename one of the agents, or delete the copy that should not exist.

    Source: sources/agh-agent-definitions.txt ("If two definitions use the same name, AGH keeps the
    first one it found.").
    """
    agent = ctx.agent
    if agent.winner or is_subagent_family(agent.family):
        return  # Claude Code subagents: SA006
    winner = ctx.index.agent(agent.name, agent.family)
    if winner is None:
        return
    where = ctx.index.display_path(winner.path)
    span = name_span(agent.doc) if agent.doc.fm is not None and agent.doc.fm.ok else header_span(agent.doc)
    win_span = name_span(winner.doc) if winner.doc.fm is not None and winner.doc.fm.ok else header_span(winner.doc)
    ctx.out.report(span, f"agent '{agent.name}' ({agent.tier}) is shadowed by the {winner.tier} definition {where}, "
                   "which is found first: this file and its skills/ are never used",
                   related=[Related(winner.path, win_span, f"the definition that wins ({winner.tier})")])
