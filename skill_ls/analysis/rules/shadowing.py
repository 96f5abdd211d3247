"""Shadowing rules: what precedence does to each copy of a name."""
from __future__ import annotations

import os

from skill_ls.core.index import Index, SkillDecl
from skill_ls.core.paths import is_under
from skill_ls.core.resolve import NameResolution
from skill_ls.core.model import Related, Severity, Span
from skill_ls.analysis.rules import ANY_RUNTIME, rule
from skill_ls.core.spans import name_span
from skill_ls.analysis.rules.context import ResolutionContext


def _span(decl: SkillDecl) -> Span:
    return name_span(decl.doc) if decl.doc is not None else Span(0, 0, 0, 0)


def describe(decl: SkillDecl) -> str:
    if decl.builtin:
        kind = "built-in" if decl.tier == "builtin" else decl.tier_label
        return f"{decl.runtime_def.title}'s {kind} {decl.name}"
    where = f"the {decl.tier_label} copy"
    if decl.agent:
        where = f"the agent-local copy of agent '{decl.agent}'"
    return where


def _other(other: SkillDecl, decl: SkillDecl, index: Index | None) -> str:
    """`describe(other)` as read from `decl`'s message: when both are in one tier (a runtime that
    ranks the directories of a tier, e.g. Gemini CLI's `.agents/skills` before `.gemini/skills`),
    the tier alone would read "the project copy shadows the project copy", so the directory is named."""
    text = describe(other)
    if not other.builtin and not other.agent and other.path and other.tier == decl.tier:
        text += f" in {_directory(other, index)}"
    return text


def _directory(decl: SkillDecl, index: Index | None) -> str:
    """The copy's skill directory as a reader recognises it: relative to the workspace when inside
    it, `~/...` under the home directory, else absolute."""
    return _place(os.path.dirname(decl.path or ""), index)


def _place(directory: str, index: Index | None) -> str:
    """A path as a reader recognises it (`_directory`)."""
    if index is None:
        return directory
    if index.workspace and is_under(directory, index.workspace) and directory != index.workspace:
        return os.path.relpath(directory, index.workspace)
    home = index.env.home
    if home and is_under(directory, home) and directory != home:
        return "~" + os.sep + os.path.relpath(directory, home)
    return directory


def _related(decl: SkillDecl, message: str, index: Index | None = None) -> list[Related]:
    """Related information names the tier and the directory: editors such as VS Code's Problems
    panel show only the file's base name (`SKILL.md`), which is the same for every copy."""
    if decl.builtin or not decl.path:
        return []
    return [Related(decl.path, _span(decl), f"{message} in {_directory(decl, index)}")]


def _agent_mode(ctx: ResolutionContext) -> bool:
    return ctx.resolution.agent is not None


def _tied(res: NameResolution, a: SkillDecl, b: SkillDecl) -> bool:
    """Whether `a` and `b` are in one ambiguous group (one tier the runtime does not rank)."""
    return any(a in group and b in group for group in res.ambiguous)


@rule("SH001", Severity.WARNING, "resolution", runtimes=ANY_RUNTIME)
def shadowed_copy(ctx: ResolutionContext) -> None:
    """This copy is shadowed: a higher-precedence copy of the same name wins.

    ## What it does
    Resolves the name as the runtime does (AGH: agent_local > workspace > additional > user >
    marketplace > bundled; Claude Code: enterprise > personal > project; Amp: first of nine
    locations; Gemini CLI: the last skill added of a name, so of two extensions the later folder in
    name order) and reports every loadable copy that loses, with the winner in related information
    and, where the runtime warns about the clash (Gemini CLI's "Skill conflict detected: … is
    overriding the same skill from …"), its warning.
    A copy overridden only for one agent (AGH agent-local overlay) is reported as information. A copy
    in the winner's tier that the runtime does not rank against it (GitHub Copilot's and Cursor's
    project directories) is SH003's, not reported here.

    ## Why is this bad?
    Edits to a shadowed copy have no effect: the runtime loads the winner.
    """
    res, decl = ctx.resolution, ctx.decl
    winner = res.winner
    if winner is None or decl is winner or decl not in res.shadowed:
        return
    if _agent_mode(ctx):
        base = [d for d in res.shadowed if d.agent is None]
        # Only the copy the overlay actually replaces (the base winner) is told about the agent.
        if winner.agent is None or decl.agent is not None or not base or decl is not base[0]:
            return
        ctx.out.report(_span(decl), f"for agent '{winner.agent}', its agent-local copy overrides this {decl.tier_label} copy "
                       f"of '{res.name}'", related=_related(winner, f"agent-local copy for '{winner.agent}'", ctx.index),
                       severity=Severity.INFORMATION)
        return
    if winner.builtin:
        return  # only possible when this copy is lower than a built-in, which cannot happen
    if _tied(res, decl, winner):
        return  # one tier, neither ranked: SH003 says so (one finding per root cause)
    warning = decl.runtime_def.conflict_warning
    said = f"; {decl.runtime_def.title} warns: " + warning.format(
        name=res.name, winner=_place(winner.path, ctx.index), loser=_place(decl.path, ctx.index)) \
        if warning and winner.path and decl.path else ""
    ctx.out.report(_span(decl), f"'{res.name}' is shadowed by {_other(winner, decl, ctx.index)} "
                   f"({decl.runtime_def.title}): this copy is not loaded{said}",
                   related=_related(winner, f"winner: {winner.tier_label} copy", ctx.index),
                   data={"winner": winner.path, "winner_tier": winner.tier})


@rule("SH002", Severity.INFORMATION, "resolution", runtimes=ANY_RUNTIME)
def shadows_others(ctx: ResolutionContext) -> None:
    """This copy wins and shadows other copies of the same name.

    ## What it does
    Reports on the winning copy, with each shadowed copy in related information, so the author
    knows edits elsewhere have no effect. An agent-local copy says which copy it overrides for
    its agent; a skill named like an Amp built-in says it overrides the built-in.
    """
    res, decl = ctx.resolution, ctx.decl
    if decl is not res.winner or not res.shadowed:
        return
    losers = res.shadowed
    if _agent_mode(ctx):
        if decl.agent is None:
            return
        losers = [d for d in losers if d.agent is None]
        if not losers:
            return
        top = losers[0]
        ctx.out.report(_span(decl), f"overrides {describe(top)} of '{res.name}' for agent '{decl.agent}'",
                       related=_related(top, f"overridden {top.tier_label} copy", ctx.index))
        return
    losers = [d for d in losers if not _tied(res, d, decl)]  # tied copies: SH003, not "shadowed"
    if not losers:
        return
    names = ", ".join(_other(d, decl, ctx.index) for d in losers)
    ctx.out.report(_span(decl), f"this {decl.tier_label} copy of '{res.name}' wins and shadows {len(losers)} other "
                   f"cop{'y' if len(losers) == 1 else 'ies'} ({names})",
                   related=[r for d in losers for r in _related(d, f"shadowed: {d.tier_label} copy", ctx.index)],
                   data={"shadowed": len(losers)})


@rule("SH003", Severity.ERROR, "resolution", runtimes=ANY_RUNTIME)
def ambiguous_name(ctx: ResolutionContext) -> None:
    """The same name appears twice in one tier, or twice in a runtime that loads both.

    ## What it does
    AGH and the other precedence runtimes cannot rank two copies in one tier (skill-ls reads the
    lexically first path as the winner); Codex deduplicates by path, so both copies are loaded
    and the model sees the name twice. Reported on every copy involved.
    """
    res, decl = ctx.resolution, ctx.decl
    if _agent_mode(ctx) and decl.agent is None:
        return
    for group in res.ambiguous:
        if decl not in group:
            continue
        others = [d for d in group if d is not decl]
        if decl.runtime_def.conflict == "unique":
            key = decl.runtime_def.identity_key
            fm = decl.doc.fm if decl.doc is not None else None
            own = fm.value(key) if fm is not None and fm.ok else None
            # A copy without a slug is filed under its name (reading): say so rather than call it a slug.
            what = (f"{key} '{res.name}'" if isinstance(own, str) and own.strip() else
                    f"'{res.name}' (this skill has no {key}, so skill-ls files it under its name)")
            message = (f"{what} is used by {len(group)} skills, and {decl.runtime_def.title} requires the {key} "
                       f"to be unique: the second one is refused")
        elif decl.runtime_def.conflict == "load_both":
            message = f"'{res.name}' is declared {len(group)} times and {decl.runtime_def.title} loads every copy"
        else:
            scoped = [d.root.scope_label for d in group if d.root is not None and d.root.scope is not None]
            where = f" for the files under {max(scoped, key=len)}/" if scoped else ""  # nested folders (Cursor)
            message = (f"'{res.name}' is declared {len(group)} times in the {decl.tier_label} tier of "
                       f"{decl.runtime_def.title}{where}; which one loads is ambiguous")
        ctx.out.report(_span(decl), message + "; rename or remove the duplicates",
                       related=[r for d in others for r in _related(d, f"also declared: {d.tier_label} copy", ctx.index)])


@rule("SH004", Severity.WARNING, "resolution", runtimes=ANY_RUNTIME)
def not_discovered(ctx: ResolutionContext) -> None:
    """The runtime never discovers this copy: deeper than its scan depth or past its scan cap.

    ## What it does
    AGH scans `SKILL.md` up to depth 4 below each scanned directory and at most 300 candidates per
    scanned directory (in lexical path order); Codex scans to depth 6. Copies beyond are reported.
    So are the copies in a directory the runtime's own files keep it from reading, with the file and
    what it says: a Gemini CLI extension that is disabled for the folder or whose manifest Gemini CLI
    refuses, and the workspace's skills where Gemini CLI's folder trust is on and
    `~/.gemini/trustedFolders.json` does not trust the folder (or has not decided).
    """
    decl = ctx.decl
    if decl.undiscovered is None or _agent_mode(ctx) and decl.agent is None:
        return
    ctx.out.report(_span(decl), f"not discovered by {decl.runtime_def.title}: {decl.undiscovered}")
