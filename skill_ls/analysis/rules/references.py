"""Reference rules: files a skill points at.

References are found outside fenced code blocks: Markdown links and images with a relative target,
`skill_read_file("skill", "path")`, `skill_run_script("skill", "script")`, and bare `scripts/...`
paths in inline code. A target that escapes the skill directory is reported and never read.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from skill_ls.core.body import Reference, body_references, local_target, strip_skill_dir
from skill_ls.core.discovery import SKILL_FILE
from skill_ls.core.index import Document
from skill_ls.core.disk import Disk
from skill_ls.core.model import Severity
from skill_ls.core.paths import is_under
from skill_ls.core.references import resolve_reference
from skill_ls.core.resolve import resolve_name
from skill_ls.core.runtimes import RUNTIMES, Runtime
from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import FileContext

RUNNABLE = (".py", ".sh", ".bash", ".js")


def _targets(ctx: FileContext) -> Iterator[tuple[Reference, str, str]]:
    doc = ctx.doc
    if doc.read_error or doc.fm is None:
        return
    refs, _ = body_references(doc)
    skill_dir = doc.directory
    for ref in refs:
        if ref.kind in ("read_file", "run_script"):
            other = _skill_dir_named(ctx, ref.skill) if ref.skill != _own_name(doc) else skill_dir
            if other is None:
                continue  # the skill name itself is checked by the agent/skill resolution rules
            base = other
            target = ref.target
            if ref.kind == "run_script" and not target.startswith("scripts/"):
                target = "scripts/" + target
        elif ref.kind == "link":
            local = local_target(ref.target)
            if local is None:
                continue
            base, target = skill_dir, local
        else:
            plain = strip_skill_dir(ref.target)
            base, target = skill_dir, plain[2:] if plain.startswith("./") else plain
        yield ref, base, target


def _resolve(ctx: FileContext, base: str, target: str) -> tuple[str | None, str | None]:
    """Through the index's resolver (cleared when the disk changes), else uncached."""
    if ctx.index is not None:
        return ctx.index.references.resolve(base, target)
    return resolve_reference(base, target)


def _own_name(doc: Document) -> str:
    name = doc.fm.value("name") if doc.fm and doc.fm.status == "ok" else None
    return name if isinstance(name, str) else doc.dir_name


def _skill_dir_named(ctx: FileContext, name: str | None) -> str | None:
    """The directory of the copy of `name` that `skill_read_file` / `skill_run_script` reads: the one
    the runtime reading this file loads (its winner, for this file's agent), else any copy."""
    if name is None or ctx.index is None:
        return None
    for reader in ctx.readers:
        winner = resolve_name(ctx.index, reader.runtime, name, reader.agent).winner
        if winner is not None and winner.path:
            return os.path.dirname(winner.path)
    for table in ctx.index.by_name.values():
        for decl in table.get(name, ()):
            if decl.path:
                return os.path.dirname(decl.path)
    return None


@rule("RF001", Severity.WARNING, "file")
def missing_reference(ctx: FileContext) -> None:
    """A file the skill references does not exist.

    ## What it does
    Resolves relative Markdown links, `skill_read_file("skill", "path")` and `skill_run_script`
    targets, and `scripts/...` paths in inline code against the skill directory (outside fenced
    code blocks), and reports the ones that do not exist. A `skill_read_file` of another skill reads
    the copy of that skill the runtime loads (the winner), so the target is looked for there.

    ## Why is this bad?
    The agent follows the reference when it uses the skill and fails at the worst moment.
    """
    for ref, base, target in _targets(ctx):
        path, escape = _resolve(ctx, base, target)
        if escape is not None or path is None:
            continue
        if ctx.disk.stat(path, follow=False) is None:
            ctx.out.report(ref.span, f"referenced file '{target}' does not exist in "
                           f"{os.path.basename(base)}/", data={"target": target})


@rule("RF002", Severity.ERROR, "file")
def reference_escapes_skill(ctx: FileContext) -> None:
    """A reference leaves the skill directory (`..`, an absolute path, or a symlink out).

    ## What it does
    Checks every local reference stays inside the skill's directory. Escaping targets are never read.
    An error for absolute paths, symlinks out of the skill, and `..` links that leave the repository
    (the nearest directory with `.git`, else the workspace) or point at nothing. A `..` link to an
    existing file of another skill in the same repository (a "related skills" table linking
    `../threat-detection/SKILL.md`), or to another existing file of the repository, is a warning:
    it works where the repository is checked out, but not when the skill is installed on its own —
    except under a runtime whose file tool blocks traversal (workspace agents' `skill_read_file`),
    where it is an error: the agent cannot open it anywhere.

    ## Why is this bad?
    Skills are installed and copied as directories; a path outside it breaks on every other machine
    and may expose unrelated files to the agent. References should be relative and one level deep.
    """
    for ref, base, target in _targets(ctx):
        _, escape = _resolve(ctx, base, target)
        if escape is None:
            continue
        inside = _in_repository(ctx, base, target) if escape.startswith("'..'") else None
        confined = _confining_readers(ctx) if inside is not None else []
        if inside is not None and confined:
            rt = confined[0]
            ctx.out.report(ref.span, f"reference '{target}' leaves the skill directory: {rt.title} read a skill's "
                           f"files with {rt.vocabulary.confined_read_tool}, which blocks traversal attempts, so the "
                           "agent cannot open it even in this repository; copy what it needs into the skill")
            continue
        if inside is not None:
            path, skill_name = inside
            where = f"the skill '{skill_name}'" if skill_name else "another part of this repository"
            ctx.out.report(ref.span, f"reference '{target}' leaves the skill directory for {where}: it works in "
                           "this repository, but not when this skill is installed on its own (copy what it needs "
                           "into the skill" + (", or refer to the skill by name)" if skill_name else ")"),
                           severity=Severity.WARNING)
            continue
        if escape.startswith("'..'") and ctx.disk.stat(os.path.normpath(os.path.join(base, target)),
                                                                follow=False) is None:
            escape += " and points at nothing"
        ctx.out.report(ref.span, f"reference '{target}' escapes the skill directory ({escape}); keep "
                       "resources inside the skill and use a relative path")


def _confining_readers(ctx: FileContext) -> list[Runtime]:
    """The runtimes reading this skill whose file tool refuses paths outside the skill directory."""
    from skill_ls.analysis.readers import readers_of

    return [RUNTIMES[r.runtime] for r in readers_of(ctx.readers)
            if RUNTIMES[r.runtime].vocabulary.confined_read_tool]


def _repository_root(disk: Disk, start: str, workspace: str | None) -> str | None:
    """The nearest directory at or above `start` with a `.git`, else the workspace holding `start`."""
    d = os.path.abspath(start)
    while True:
        if disk.stat(os.path.join(d, ".git"), follow=False) is not None:
            return d
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    if workspace is not None and is_under(os.path.abspath(start), workspace):
        return workspace
    return None


def _in_repository(ctx: FileContext, base: str, target: str) -> tuple[str, str | None] | None:
    """(path, name of the skill holding it or None) when a `..` target is an existing file or directory
    of the same repository (nothing is read: only its existence and where it leads)."""
    repo = _repository_root(ctx.disk, base, ctx.index.workspace if ctx.index is not None else None)
    if repo is None:
        return None
    joined = os.path.normpath(os.path.join(base, target))
    if joined == repo or not is_under(joined, repo) or not ctx.disk.exists(joined):
        return None
    try:
        if not is_under(os.path.realpath(joined), os.path.realpath(repo)):
            return None
    except (OSError, ValueError):
        return None
    d = joined if ctx.disk.is_dir(joined) else os.path.dirname(joined)
    own = os.path.normpath(ctx.doc.directory)
    while d != repo and is_under(d, repo):
        if d != own and ctx.disk.is_file(os.path.join(d, SKILL_FILE)):
            return joined, os.path.basename(d)
        d = os.path.dirname(d)
    return joined, None


@rule("RF003", Severity.WARNING, "file")
def shell_execution(ctx: FileContext) -> None:
    """A `` !`command` `` line runs a shell command, or a `skill_run_script` target is not runnable.

    ## What it does
    Flags `` !`command` `` (executed by the runtime when the skill activates, before the model reads
    anything) and `skill_run_script` targets that are not `.py`, `.sh`, `.bash` or `.js` files in
    the skill's `scripts/` directory.

    Only some runtimes execute these lines (Claude Code and workspace agents do; AGH, Amp, Agentcy,
    Codex and the Agent Skills standard show the text as written). Under roots of runtimes that execute
    them the finding is a warning; where only runtimes that don't read the file, it is information:
    the model sees the literal `` !`command` `` text, and the line would run if the skill were
    installed for a runtime that executes it.

    ## Why is this bad?
    Activation-time shell commands are security relevant: they run with the user's permissions
    whenever the skill loads. skill-ls never runs them.

    Source: https://z-fab.github.io/agentmd/skills ("Shell commands are executed and their output
    injected before the agent sees the content"); Claude Code's skills documentation (dynamic context
    injection); no such feature in https://agh.network/runtime/core/skills/ or
    https://decodeclaude.com/amp-code-spec/enhancements/16-skills/; https://docs.agentcylabs.com/concepts/skills
    ("Skills are not connector tools — they don't execute anything").
    """
    doc = ctx.doc
    if doc.read_error or doc.fm is None:
        return
    refs, shells = body_references(doc)
    if shells:
        from skill_ls.analysis.readers import readers_of, titles
        from skill_ls.core.runtimes import RUNTIMES

        readers = [r.runtime for r in readers_of(ctx.readers)]
        candidates = readers or list(RUNTIMES)  # under no root: any runtime
        running = [r for r in candidates if RUNTIMES[r].vocabulary.executes_shell_lines]
        unknown = [r for r in candidates if RUNTIMES[r].vocabulary.executes_shell_lines is None]
        executors = titles([r for r in RUNTIMES if RUNTIMES[r].vocabulary.executes_shell_lines])
        for command, span in shells:
            if running or unknown:
                who = titles(running) if running else "the runtime"
                ctx.out.report(span, f"'!`{command}`' runs a shell command when {who} activates the skill; make "
                               "sure it is safe and intended")
            else:  # only runtimes that show the line as written read this file: a portability note
                ctx.out.report(span, f"'!`{command}`' is not executed by {titles(readers)}: the model sees the "
                               f"literal text (it would run a shell command under {executors})",
                               severity=Severity.INFORMATION)
    for ref in refs:
        if ref.kind != "run_script":
            continue
        target = ref.target if ref.target.startswith("scripts/") else "scripts/" + ref.target
        if not target.endswith(RUNNABLE):
            ctx.out.report(ref.span, f"skill_run_script target '{ref.target}' is not runnable: use a "
                           f"{', '.join(RUNNABLE)} file in scripts/")
