"""Shadowed agent definitions (the copy of an agent name that its runtime never uses), and sidecars of a
definition that skill-ls does not read."""
from __future__ import annotations

import os

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import AgentContext
from skill_ls.analysis.rules.subagents import is_subagent_family
from skill_ls.core.model import Related, Severity
from skill_ls.core.runtimes import Runtime
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES
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

    Source: https://www.agh.network/runtime/core/agents/definitions/ ("If two definitions use the same name, AGH keeps the
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


def has_unread_agent_sidecars(runtime: Runtime) -> bool:
    """Runtimes whose agent definitions may have a sidecar directory skill-ls does not read (AGH)."""
    scoping = runtime.agent_scoping
    family = AGENT_FAMILIES.get(scoping.family) if scoping is not None else None
    return family is not None and bool(family.unread_sidecar_dirs)


@rule("AG007", Severity.INFORMATION, "agent", runtimes=has_unread_agent_sidecars)
def agent_sidecar_directory_not_checked(ctx: AgentContext) -> None:
    """A sidecar directory next to an agent definition that the runtime reads and skill-ls does not.

    ## What it does
    AGH: "capabilities.toml (or a capabilities/ directory) declares the unified capability catalog".
    `capabilities.toml` is parsed as TOML (MC001); a `capabilities/` directory is not read, and this
    note says so instead of passing over it silently.

    ## Why is this bad?
    Nothing is wrong with the file: the note tells you that what AGH reads from that directory is not
    checked (its format is documented on AGH's Agent Capabilities page, which skill-ls does not model).

    Source: https://www.agh.network/runtime/core/agents/definitions/ ("capabilities.toml (or a
    capabilities/ directory) declares the unified capability catalog").
    """
    family = AGENT_FAMILIES.get(ctx.agent.family)
    if family is None or not ctx.agent.path:
        return
    for name, effect in family.unread_sidecar_dirs.items():
        if ctx.index.disk.is_dir(os.path.join(os.path.dirname(ctx.agent.path), name)):
            ctx.out.report(header_span(ctx.agent.doc), f"{name}/ next to this definition is not checked by skill-ls: "
                           f"{effect}, in a format skill-ls does not model (a {name}.toml file is parsed as TOML)")
