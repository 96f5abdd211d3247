"""The `skill-ls` command line. Usage and configuration errors: one line on stderr, exit 2."""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from skill_ls import __version__
from skill_ls.core.escape import json_text, safe_text

if TYPE_CHECKING:
    from skill_ls.analysis.check import CheckOptions
    from skill_ls.core.index import Index
    from skill_ls.core.model import Diagnostic

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _terminal_columns() -> int:
    """`shutil.get_terminal_size().columns`, without importing `shutil` (and the compression modules
    it pulls in: 2.2 ms of every start, measured with `-X importtime` in a virtual environment,
    where nothing else a check runs imports them; for argparse's help width)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns() - 2 if width is None else width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # argparse's default prints usage twice-over; keep it one line + exit 2
        self.exit(EXIT_USAGE, f"skill-ls: error: {message}\n")


def _common(p: argparse.ArgumentParser, *, agent: bool = True) -> None:
    p.add_argument("--workspace", metavar="DIR",
                   help="workspace directory whose runtime roots are indexed (default: the single directory "
                        "PATH given, else the current directory)")
    p.add_argument("--runtime", action="append", default=[], metavar="R",
                   help="runtime to use (repeatable; default: auto-detect)")
    p.add_argument("--config", metavar="FILE", help="configuration file (default: .skill-ls.toml or pyproject.toml)")
    p.add_argument("--no-user-roots", action="store_true", help="ignore roots under $HOME and system roots (CI)")
    if agent:
        p.add_argument("--agent", metavar="NAME",
                       help="resolve for one agent (agent-local skills, tombstones; an OpenCode agent's permissions)")


def _check_args(check: argparse.ArgumentParser) -> None:
    check.add_argument("paths", nargs="*", metavar="PATH")
    check.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    check.add_argument("--strict", action="store_true", help="warnings fail the check too")
    check.add_argument("--select", action="append", default=[], metavar="CODES", help="only these codes/prefixes")
    check.add_argument("--ignore", action="append", default=[], metavar="CODES", help="skip these codes/prefixes")
    check.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                       help="at most N processes (default: as many as the tree's size and the processors "
                            "the rest of the machine leaves free pay for; 1 = no parallelism)")
    check.add_argument("--fix", action="store_true",
                       help="apply the safe fixes (they keep what the author meant), then report what remains")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="also apply fixes that may change meaning (implies --fix unless --diff is given)")
    check.add_argument("--diff", action="store_true",
                       help="print the fixes as a unified diff instead of writing them (exit 1 when there is "
                            "something to fix)")
    _common(check, agent=False)


def _where_args(where: argparse.ArgumentParser) -> None:
    where.add_argument("name")
    where.add_argument("--format", choices=("text", "json"), default="text")
    _common(where)


def _list_args(lst: argparse.ArgumentParser) -> None:
    lst.add_argument("--format", choices=("text", "json"), default="text")
    _common(lst)


def _preview_args(preview: argparse.ArgumentParser) -> None:
    preview.add_argument("name")
    preview.add_argument("--arguments", default="", metavar="TEXT", help="the arguments string passed to the tool")
    preview.add_argument("--file", metavar="PATH", help="AGH: a resource file of the skill (agh__skill_view's 'file')")
    preview.add_argument("--format", choices=("text", "json"), default="text")
    _common(preview)


def _catalog_args(catalog: argparse.ArgumentParser) -> None:
    catalog.add_argument("--format", choices=("text", "json"), default="text")
    catalog.add_argument("--enable", action="append", default=None, metavar="NAME",
                         help="Agentcy: the enabled set (repeatable; default: every skill)")
    _common(catalog)


def _rules_args(rules: argparse.ArgumentParser) -> None:
    rules.add_argument("--format", choices=("text", "json", "markdown"), default="text")


def _explain_args(explain: argparse.ArgumentParser) -> None:
    explain.add_argument("code")


def _portability_args(port: argparse.ArgumentParser) -> None:
    port.add_argument("paths", nargs="*", metavar="PATH")
    port.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    _common(port, agent=False)


def _serve_args(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead of stdio")


# The subcommands: (help, what fills in its arguments), in the order `skill-ls --help` lists them.
_COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "check": ("index, resolve and print diagnostics", _check_args),
    "where": ("every declaration of a skill name, winner first", _where_args),
    "list": ("the effective set: name, tier, runtime, path", _list_args),
    "preview": ("what the runtime's skill tool returns when the model loads a skill", _preview_args),
    "catalog": ("render the effective catalog exactly as the runtime injects it", _catalog_args),
    "rules": ("list the rule catalogue", _rules_args),
    "explain": ("explain one rule", _explain_args),
    "portability": ("for every skill, whether each runtime loads it (and why not)", _portability_args),
    "serve": ("run the language server on stdio", _serve_args),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. With `only` (the command being run), the other subcommands are not
    built (only `skill-ls --help` and a mistyped command list them, and those build every one): each
    argument costs argparse a help formatter and each subcommand a parser, ~3.5 ms of every start
    for what nobody parses."""
    parser = _Parser(prog="skill-ls", description="Language server and checker for Agent Skills and agent definitions.")
    parser.add_argument("--version", action="version", version=f"skill-ls {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (help_text, fill) in _COMMANDS.items():
        if only is None or name == only:
            fill(sub.add_parser(name, help=help_text))
    return parser


# -- the one safe writer: every text the command line prints that holds names, paths, file contents
# or messages goes through these (core/escape.py: control characters, bidi overrides and file-name
# bytes that are not UTF-8 as visible escapes; JSON always valid UTF-8) ---------------------------------
def write_out(text: str) -> None:
    sys.stdout.write(safe_text(text, keep_newlines=True))


def write_json(obj: object) -> None:
    sys.stdout.write(json_text(obj) + "\n")


def write_note(text: str, kind: str = "note") -> None:
    print(f"skill-ls: {kind}: {safe_text(text)}", file=sys.stderr)


def main(argv: list[str] | None = None, *, keep: list[object] | None = None) -> int:
    """Run one command. With `keep` (the `skill-ls` program, which leaves without freeing anything),
    `check` puts what it built there instead of freeing it when it returns."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    args = parser.parse_args(argv)
    args.keep = keep
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    handler = _HANDLERS[args.command]
    try:
        if args.command != "serve":  # (paths are shown relative to it: a directory deleted under the shell has none)
            os.getcwd()
    except OSError as exc:
        print(f"skill-ls: the current directory cannot be read ({exc.strerror or exc}): "
              "change to an existing directory", file=sys.stderr)
        return EXIT_USAGE
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the interpreter's flush at exit
        except OSError:
            pass
        return EXIT_OK
    except _KnownError as exc:
        print(f"skill-ls: {safe_text(str(exc))}", file=sys.stderr)
        return EXIT_USAGE


class _KnownError(Exception):
    pass


_Handler = Callable[[argparse.Namespace], int]


def _guard(func: _Handler) -> _Handler:
    """Turn configuration/usage problems into one-line errors (exit 2)."""

    def wrapper(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except Exception as exc:
            # (imported here, not at start: `check` forks its workers before the heavy imports)
            from skill_ls.analysis.check import UsageError
            from skill_ls.core.config import ConfigError

            if isinstance(exc, (UsageError, ConfigError)):
                raise _KnownError(str(exc)) from None
            raise

    return wrapper


def _check(args: argparse.Namespace) -> int:
    # A one-shot run that builds a large, long-lived object graph (the index) and then leaves: the
    # cyclic collector would rescan that graph over and over (a fifth of the CPU at 10,000 skills) to
    # free almost nothing. Reference counting still frees everything that is not a cycle.
    gc.disable()
    ahead = None
    if not (args.fix or args.unsafe_fixes or args.diff):  # (--fix writes: what was listed may change)
        # Before the checker's imports: another process lists the checked trees meanwhile, when the
        # machine has a processor for it (analysis/listahead.py).
        from skill_ls.analysis.listahead import ListAhead

        ahead = ListAhead.start([os.path.abspath(p) for p in args.paths or [args.workspace or os.curdir]],
                                jobs=max(0, args.jobs))
    from skill_ls.analysis.check import CheckOptions, run_check

    opts = CheckOptions(paths=args.paths, workspace=args.workspace, runtimes=args.runtime, config=args.config,
                        select=args.select, ignore=args.ignore, no_user_roots=args.no_user_roots,
                        jobs=max(0, args.jobs))
    fix_summary: list[str] = []
    if args.fix or args.unsafe_fixes or args.diff:
        from skill_ls.cli_fix import run_fix

        status, fix_summary = run_fix(opts, unsafe=args.unsafe_fixes, diff=args.diff)
        if args.diff:
            return status
    result = run_check(opts, ahead=ahead)
    from skill_ls.core.model import Severity
    from skill_ls.output import format_github, format_json, format_sarif, format_text

    diags = result.diagnostics
    store = result.index.store
    if args.format == "json":
        text = format_json(diags, result.files_checked, store)
    elif args.format == "sarif":
        text = format_sarif(diags, store)
    elif args.format == "github":
        text = format_github(diags)
    else:
        text = format_text(diags, result.files_checked)
    if fix_summary and args.format == "text":
        text += "".join(line + "\n" for line in fix_summary)
    elif fix_summary:
        print("\n".join(fix_summary), file=sys.stderr)
    sys.stdout.write(text)
    sys.stdout.flush()
    # What the walk refused under the checked paths (symlink loops, links out of a root, unreadable
    # directories, FIFOs/devices): a note on stderr, so machine-readable stdout stays unchanged.
    scope = [os.path.abspath(p) for p in args.paths] or [result.index.workspace]
    for path, reason in sorted(set(result.index.skipped)):
        if any(path == s or path.startswith(s.rstrip(os.sep) + os.sep) for s in scope):
            print(f"skill-ls: note: skipped {safe_text(path)}: {safe_text(reason)}", file=sys.stderr)
    for root in result.index.walker.truncated:
        from skill_ls.core.discovery import MAX_WALK_DIRS

        print(f"skill-ls: note: {safe_text(root)} is too large to check whole: stopped after listing "
              f"{MAX_WALK_DIRS:,} directories; what lies beyond was not checked", file=sys.stderr)
    if args.keep is not None:
        args.keep.append(result)  # (freeing the index object by object: ~8 ms at 1,500 skills)
    worst = min((d.severity for d in diags), default=None)
    if worst is None:
        return EXIT_OK
    if worst == Severity.ERROR or (args.strict and worst == Severity.WARNING):
        return EXIT_FINDINGS
    return EXIT_OK


def _portability(args: argparse.Namespace) -> int:
    from skill_ls.analysis.check import CheckOptions, UsageError, build_index, choose_workspace, prepare_config
    from skill_ls.analysis.portability import as_json, as_markdown, as_text, matrix

    for p in args.paths:
        if not os.path.exists(p):
            raise UsageError(f"path does not exist: {p}")
    workspace = choose_workspace(args.paths, args.workspace)
    opts = CheckOptions(paths=args.paths, workspace=workspace, runtimes=args.runtime, config=args.config,
                        no_user_roots=args.no_user_roots)
    index = build_index(workspace, prepare_config(workspace, opts))
    rows = matrix(index, [os.path.abspath(p) for p in args.paths] or [workspace])
    display = index.display_path
    if args.format == "json":
        write_json(as_json(rows, display))
    elif args.format == "markdown":
        write_out(as_markdown(rows, display))
    else:
        write_out(as_text(rows, display))
    return EXIT_OK


def open_index(args: argparse.Namespace) -> tuple[Index, str, str | None]:
    """Index for `where`/`list`/`catalog`: workspace, configuration, runtime choice."""
    from skill_ls.analysis.check import CheckOptions, UsageError, build_index, choose_workspace, prepare_config
    from skill_ls.analysis.queries.scope import choose_runtime

    if args.workspace and not os.path.isdir(args.workspace):
        raise UsageError(f"workspace is not a directory: {args.workspace}")
    workspace = choose_workspace([], args.workspace)
    opts = CheckOptions(workspace=workspace, runtimes=args.runtime, config=args.config,
                        no_user_roots=args.no_user_roots)
    config = prepare_config(workspace, opts)
    index = build_index(workspace, config)
    if len(args.runtime) > 1:
        raise UsageError("give at most one --runtime for this command")
    agent = getattr(args, "agent", None)
    if agent and index.agent(agent) is None and not _settings_agent(index, agent):
        raise UsageError(f"no agent named '{agent}' in {index.workspace}")
    runtime = choose_runtime(index, args.runtime[0] if args.runtime else None, agent)
    return index, runtime, agent


def _settings_agent(index: Index, agent: str) -> bool:
    """Whether an active runtime knows `agent` from its own settings (OpenCode's agents)."""
    from skill_ls.core.own_settings import settings_agents
    from skill_ls.core.runtimes import RUNTIMES

    return any(agent in settings_agents(RUNTIMES[rid], index) for rid in index.active if rid in RUNTIMES)


def _preview(args: argparse.Namespace) -> int:
    from skill_ls.analysis.preview import PreviewError, preview_skill

    index, runtime, agent = open_index(args)
    try:
        result = preview_skill(index, runtime, args.name, agent, args.arguments, args.file)
    except PreviewError as exc:
        raise _KnownError(str(exc)) from None
    if args.format == "json":
        write_json(result.as_json())  # (exact: the text with its control characters as JSON escapes)
    else:
        if not result.exact and result.reading:
            write_note(result.reading)
        for note in result.notes:
            write_note(note)
        write_out(result.text)  # a skill body's ESC/OSC sequences are shown, never obeyed
    sys.stdout.flush()
    return EXIT_OK


def _where(args: argparse.Namespace) -> int:
    from skill_ls.core.labels import where
    from skill_ls.core.runtimes import RUNTIMES

    index, runtime, agent = open_index(args)
    obj = where(index, runtime, args.name, agent)
    # No --runtime and no --agent: every active runtime that declares the name, runtime by runtime
    # (the winner, the shadowed copies and the refused ones with the rule that refuses them).
    explicit = bool(args.runtime) and args.runtime != ["auto"]
    views = [where(index, rid, args.name, None) for rid in index.active] if not explicit and not agent else []
    views = [v for v in views if v["entries"]]
    if len(views) > 1:
        obj["runtimes"] = views
    if args.format == "json":
        print(json_text(obj))
        return EXIT_OK
    if not obj["entries"] and not views:
        print(f"{safe_text(args.name)}: not declared in any {runtime} root", file=sys.stderr)
        return EXIT_FINDINGS
    if len(views) > 1:
        for view in views:
            print(safe_text(f"{RUNTIMES[view['runtime']].title} ({view['runtime']})"))
            _print_where_entries(view, "  ")
            if view.get("disabled"):
                print(safe_text(f"  note: disabled ({view.get('disabled_by')}): omitted from catalogs"))
            for note in view.get("notes", ()):
                print(safe_text(f"  note: {note}"))
            if view.get("skills_disabled"):
                print(safe_text(f"  note: skills are disabled ({view['skills_disabled']})"))
        return EXIT_OK
    _print_where_entries(obj, "")
    if obj.get("tombstoned"):
        write_out(f"note: agent '{agent}' disables '{args.name}' (skills.disabled): not in its set or catalog\n")
    if obj.get("disabled"):
        write_out(f"note: '{args.name}' is disabled ({obj.get('disabled_by')}): omitted from catalogs\n")
    for note in obj.get("notes", ()):
        write_out(f"note: {note}\n")
    if obj.get("skills_disabled"):
        print(f"note: {RUNTIMES[runtime].title} skills are disabled ({obj['skills_disabled']})")
    return EXIT_OK


def _print_where_entries(obj: dict[str, Any], indent: str) -> None:
    width = max([12] + [len(e.get("tier_label", e["tier"])) for e in obj["entries"]])
    for e in obj["entries"]:  # the label is core/labels.py's, as in the JSON, hover and code lens
        extra = f" ({e['not_discovered']})" if e.get("not_discovered") else (f" ({e['reason']})" if e.get("reason") else "")
        if not extra and ("ambiguous:" in e.get("summary", "") or e.get("scope")):  # unranked, or scoped (Cursor)
            extra = " (" + e["summary"].split("— ", 1)[-1] + ")"
        if e.get("linked_from"):
            extra += f" (linked from {e['linked_from']})"
        print(safe_text(f"{indent}{e['label']:<15} {e.get('tier_label', e['tier']):<{width}} {e['path']}{extra}"))


def _list(args: argparse.Namespace) -> int:
    from skill_ls.analysis.effective import EffectiveSetError, resolve_effective_set

    index, runtime, agent = open_index(args)
    try:
        eff = resolve_effective_set(index, runtime, agent)
    except EffectiveSetError as exc:
        raise _KnownError(str(exc)) from None
    rows = [{"name": s.name, "tier": s.tier, "runtime": runtime, "path": s.path or f"(built-in {s.name})",
             "disabled": s.disabled}
            for s in eff.skills]
    if args.format == "json":
        from skill_ls.core.labels import provenance
        from skill_ls.core.resolve import resolve_name

        resolution_agent = agent if eff.agent_decl is not None and any(s.decl.agent for s in eff.skills) else None
        for row in rows:
            row["provenance"] = provenance(resolve_name(index, runtime, str(row["name"]), resolution_agent))
        print(json_text({"runtime": runtime, "agent": agent, "skills": rows}))
        return EXIT_OK
    for r in rows:  # tab-separated for scripts: the tier id, as in the JSON
        flag = "  disabled" if r["disabled"] else ""
        print("\t".join(safe_text(str(v)) for v in (r["name"], r["tier"], r["runtime"], r["path"])) + flag)
    return EXIT_OK


def _catalog(args: argparse.Namespace) -> int:
    from skill_ls.analysis.catalog import CatalogError, catalog_notes, catalog_object

    index, runtime, agent = open_index(args)
    try:
        obj = catalog_object(index, runtime, agent, enabled=args.enable)
    except CatalogError as exc:
        raise _KnownError(str(exc)) from None
    for note in catalog_notes(index, runtime, agent):
        print(f"skill-ls: warning: {safe_text(note)}", file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(json_text(obj) + "\n")
    else:
        sys.stdout.write(safe_text(obj["text"], keep_newlines=True))
    sys.stdout.flush()
    return EXIT_OK


def _rules(args: argparse.Namespace) -> int:
    from skill_ls.analysis.rules import all_rules

    from skill_ls.analysis.rules import rule_runtimes

    rules = all_rules()
    if args.format == "json":
        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.label, "family": r.family,
                           "fix": r.fix, "runtimes": rule_runtimes(r), "file_kinds": list(r.file_kinds),
                           "summary": r.summary} for r in rules.values()], indent=2))
    elif args.format == "markdown":
        print(rules_markdown(), end="")
    else:
        for r in rules.values():
            fix = f" [fix: {fix_label(r.fix)}]" if r.fix else ""
            print(f"{r.code}  {r.severity.label:<11} {r.summary}{fix}")
    return EXIT_OK


def rules_markdown() -> str:
    """The rules table (README.md's, between its `rules:start`/`rules:end` markers), from the registry."""
    from skill_ls.analysis.rules import all_rules

    lines = ["| code | default | name | fix | applies to | what it reports |", "|---|---|---|---|---|---|"]
    for r in all_rules().values():
        lines.append(f"| {r.code} | {r.severity.label} | {r.name} | {fix_label(r.fix)} | {applies_label(r)} | "
                     f"{r.summary} |")
    return "\n".join(lines) + "\n"


def applies_label(r: Any) -> str:
    """Which runtimes a rule applies to, as the rules table and `explain` say it."""
    from skill_ls.analysis.rules import rule_runtimes
    from skill_ls.core.runtimes import RUNTIMES

    ids = rule_runtimes(r)
    if ids is None or len(ids) == len(RUNTIMES):
        return "all"
    return ", ".join(ids) if ids else "none"


def fix_label(fix: str | None) -> str:
    """How the rules table says whether a rule has a fix: safe, unsafe, safe/unsafe (per case), or nothing."""
    return {"safe": "safe", "unsafe": "unsafe", "mixed": "safe/unsafe"}.get(fix or "", "")


def _explain(args: argparse.Namespace) -> int:
    from skill_ls.analysis.rules import all_rules

    rule = all_rules().get(args.code.upper())
    if rule is None:
        raise _KnownError(f"unknown rule code '{args.code}' (see 'skill-ls rules')")
    fix = f"; fix: {fix_label(rule.fix)}" if rule.fix else ""
    applies = applies_label(rule)
    where = "" if applies == "all" else f"; applies to: {applies}"
    print(f"{rule.code} ({rule.name}) — default severity: {rule.severity.label}{fix}{where}\n")
    print(rule.doc)
    return EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    from skill_ls.server import run_server

    return run_server(tcp_port=args.tcp)


def console_main() -> NoReturn:
    """The `skill-ls` command (and `python -m skill_ls`): `main`, then, after a one-shot command,
    leave without the interpreter's teardown and without freeing what the command built. Freeing a
    check's index object by object and the teardown cost ~10 % of a check of the corpus (measured:
    0.57 → 0.52 s of CPU with `--jobs 1`), for nothing a finished run needs: its output is written
    and flushed, and `check --fix` has closed the files it wrote. The server exits as usual."""
    argv = sys.argv[1:]
    keep: list[object] = []
    code = main(argv, keep=keep)
    if argv[:1] == ["serve"]:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the output is gone either way
        pass
    os._exit(code)


def serve_main() -> int:
    return main(["serve", *sys.argv[1:]])


_HANDLERS: dict[str, _Handler] = {
    "check": _guard(_check),
    "portability": _guard(_portability),
    "where": _guard(_where),
    "list": _guard(_list),
    "catalog": _guard(_catalog),
    "preview": _guard(_preview),
    "rules": _rules,
    "explain": _explain,
    "serve": _serve,
}
