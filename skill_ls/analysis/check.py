"""Running the rules: which files are in scope, which runtimes see each file, and post-processing
(suppressions, select/ignore, severity overrides, merging findings shared by several runtimes).

`Checker` is used by the CLI for a whole run and by the server for one file at a time.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping

from skill_ls.core.config import Config, load_config
from skill_ls.core.capabilities import CAPABILITIES_FILE
from skill_ls.core.discovery import SKILL_FILE, Environment, WalkResult
from skill_ls.core.index import META_FILE, MCP_FILE, SKILL_FILE_LOWER, AgentDecl, DocumentStore, Index, SkillDecl
from skill_ls.core.model import Diagnostic, Severity, Span
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass, field
from skill_ls.core.resolve import NameResolution, resolve_name
from skill_ls.analysis.rules import INTERNAL_ERROR, Reporter, all_rules, internal_error_message, rules_for, run_rules
from skill_ls.analysis.rules.context import AgentContext, FileContext, ResolutionContext, RuntimeContext, SidecarContext
from skill_ls.core.plugins import COMMAND_TIER, PLUGIN_TIER, PluginFile, command_name, plugin_file_for, plugin_of
from skill_ls.core.runtimes import (BASE_RUNTIME, DEFAULT_AGENT_FAMILY, PLUGIN_AGENT_FAMILY, PLUGIN_RUNTIME, RUNTIMES,
                                    runtime_of_family)
from skill_ls.core.paths import is_under
from skill_ls.core.runtimes.agent_families import AGENT_FILE, in_definition_directory
from skill_ls.analysis.executor import map_chunks
from skill_ls.analysis.listahead import ListAhead
from skill_ls.core.listdir import Ahead

# `[A-Za-z0-9_,\s]+?` followed by `\s*-->` was quadratic on a long run of spaces (issue 7): match up
# to the next "<" or ">" instead and keep only well-formed code lists (as before) in _suppressed.
_FILE_SUPPRESS = lazy_pattern(r"<!--\s*skill-ls:\s*disable=([^<>]*?)-->")
_CODE_LIST = lazy_pattern(r"[A-Za-z0-9_,\s]+")
OPENAI_YAML = "openai.yaml"
# The files checked beside skills and agents, by name: the kind the sidecar rules know them as.
SIDECAR_KINDS = {MCP_FILE: "mcp", META_FILE: "meta", OPENAI_YAML: "openai", CAPABILITIES_FILE: "capabilities"}
WANTED = frozenset({SKILL_FILE, SKILL_FILE_LOWER, AGENT_FILE, *SIDECAR_KINDS})
RUNTIME_ORDER = {rid: i for i, rid in enumerate(RUNTIMES)}
# Up to this many files (the editor's one document, a few affected copies), declarations are looked
# up per file in the index's path table instead of scanning every declaration of the index.
FEW_FILES = 32


# What the per-file phase is given for a file: its path, or the plugin file the plugin scan found there.
CheckItem = str | PluginFile
# What it gives back for a share of them: the findings, and the lines of the files they point into.
PerFileResult = tuple[list[Diagnostic], dict[str, dict[int, str]]]


class UsageError(Exception):
    """A problem with how skill-ls was invoked (exit status 2)."""


@dataclass(shared_init=True)
class CheckOptions:
    """What `skill-ls check` was asked to do (paths, workspace, runtimes, rule selection, processes)."""

    paths: list[str] = field(default_factory=list)
    workspace: str | None = None
    runtimes: list[str] = field(default_factory=list)
    config: str | None = None
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    no_user_roots: bool = False
    jobs: int = 1  # processes for the per-file phase: 0 = as many as pay (see analysis/executor.py)


@dataclass(eq=False, shared_init=True)
class CheckResult:
    """What `run_check` found (compared with nothing: identity)."""

    diagnostics: list[Diagnostic]
    files_checked: int
    index: Index


def choose_workspace(paths: list[str], workspace: str | None) -> str:
    """The workspace: --workspace, else the single directory PATH, else the current directory."""
    if workspace:
        return os.path.abspath(workspace)
    if len(paths) == 1 and os.path.isdir(paths[0]):
        return os.path.abspath(paths[0])
    return os.path.abspath(os.getcwd())


def prepare_config(workspace: str, opts: CheckOptions) -> Config:
    from skill_ls.core.config import RUNTIME_IDS, ConfigError

    if opts.config:
        from pathlib import Path

        config = load_config(workspace, Path(opts.config))
    else:
        config = load_config(workspace)
    if opts.runtimes:
        for r in opts.runtimes:
            if r != "auto" and r not in RUNTIME_IDS:
                raise UsageError(f"unknown runtime '{r}' (known: auto, {', '.join(RUNTIME_IDS)})")
        config.runtimes = tuple(opts.runtimes)
    if opts.no_user_roots:
        config.no_user_roots = True
    try:
        from skill_ls.core.config import _convert

        if opts.select:
            config.select = _convert("codes", opts.select, "--select", workspace)
        if opts.ignore:
            config.ignore = tuple(config.ignore) + _convert("codes", opts.ignore, "--ignore", workspace)
    except ConfigError as exc:
        raise UsageError(str(exc).split(": ", 1)[-1]) from None
    return config


def build_index(workspace: str, config: Config, environ: Mapping[str, str] | None = None,
                ahead: Ahead | None = None) -> Index:
    """The index (`ahead`: listings another process of the run listed ahead)."""
    env = Environment.from_environ(environ, config)
    index = Index(workspace, env, config)
    index.walker.ahead = ahead
    return index.build()


def open_checker(opts: CheckOptions, environ: Mapping[str, str] | None = None,
                 ahead: Ahead | None = None) -> tuple[Checker, list[str]]:
    """What `check` (and `check --fix`) start from: the paths validated, the workspace chosen, its
    configuration and index built: (checker, the paths in scope). Raises `UsageError`/`ConfigError`."""
    for p in opts.paths:
        if not os.path.exists(p):
            raise UsageError(f"path does not exist: {p}")
    if opts.workspace and not os.path.isdir(opts.workspace):
        raise UsageError(f"workspace is not a directory: {opts.workspace}")
    workspace = choose_workspace(opts.paths, opts.workspace)
    config = prepare_config(workspace, opts)
    checker = Checker(build_index(workspace, config, environ, ahead))
    return checker, [os.path.abspath(p) for p in opts.paths] or [workspace]


def open_run(opts: CheckOptions, environ: Mapping[str, str] | None = None) -> tuple[Checker, list[str], list[str]]:
    """`open_checker`, and the files in scope: (checker, the paths in scope, the files in scope)."""
    checker, scope = open_checker(opts, environ)
    return checker, scope, checker.files_in_scope(scope)


def run_check(opts: CheckOptions, environ: Mapping[str, str] | None = None,
              ahead: ListAhead | None = None) -> CheckResult:
    """The check of `opts.paths` (`ahead`: the lister `cli` started for them before its imports)."""
    try:
        checker, scope = open_checker(opts, environ, ahead)
    finally:
        if ahead is not None:
            ahead.finish()  # (before the per-file phase forks its workers)
    files: list[str] = []

    def find() -> list[str]:
        files.extend(checker.files_in_scope(scope))
        return files

    # A directory to walk: the executor may fork a worker that prepares while the walk runs.
    diags = checker.check_files(find if any(os.path.isdir(p) for p in scope) else find(), jobs=opts.jobs)
    return CheckResult(diags, len(files), checker.index)


class Checker:
    def __init__(self, index: Index):
        self.index = index
        self.config = index.config
        self._plugin_files: dict[str, PluginFile] = {}
        self._plugin_scopes: set[str] = set()

    # -- scope ---------------------------------------------------------------------------------
    def files_in_scope(self, scope: list[str]) -> list[str]:
        """Every checkable file under the given paths (files given directly count too)."""
        out: set[str] = set()
        for path in scope:
            if os.path.isfile(path):
                out.add(path)
                continue
            out.update(_checkable(self.index.walker.walk(path, WANTED)))
        out.update(self.plugin_files(scope))
        return sorted(out | self._indexed_in(scope))

    def _indexed_in(self, scope: list[str]) -> set[str]:
        """The index's agent definitions and skill files under the given paths."""
        out = {agent.path for agent in self.index.agents if any(is_under(agent.path, p) for p in scope)}
        for decls in self.index.decls.values():
            for d in decls:
                if d.path and any(is_under(d.path, p) for p in scope):
                    out.add(d.path)
        return out

    def plugin_files(self, scope: list[str]) -> dict[str, PluginFile]:
        """Claude Code plugin agents, commands, manifests and `.mcp.json`, and `.claude/commands`, under scope."""
        from skill_ls.core.plugins import plugin_files

        found = self._plugin_files
        for path in scope:
            if path in self._plugin_scopes:
                continue
            self._plugin_scopes.add(path)
            if os.path.isdir(path):
                for f in plugin_files(self.index.walker.listdir, path):
                    found[f.path] = f
            elif os.path.isfile(path):
                # A file given on its own is that file only: never a walk of its directory (a file in
                # `$HOME`, or a missing workspace whose parent is `/`, walked the machine: issue 24).
                pf = plugin_file_for(path)
                if pf is not None:
                    found[pf.path] = pf
        return {p: f for p, f in found.items() if any(is_under(p, s) for s in scope)}

    # -- running -------------------------------------------------------------------------------
    def check_files(self, files: list[str] | Callable[[], list[str]], jobs: int = 1) -> list[Diagnostic]:
        """Diagnostics for `files` (or for the files the function finds: a walk), finished. The
        per-file phase (parsing, file/runtime/agent/sidecar rules, suppressions) runs as
        `executor.map_chunks` decides for `jobs` (1: here; 0: as many processes as pay); resolution
        runs here, on the index (while the other processes, if any, start on the per-file phase)."""
        checked: list[str] = []

        def items() -> list[CheckItem]:
            checked.extend(files() if callable(files) else files)
            return [self._plugin_files.get(p, p) for p in checked]

        resolved: list[Diagnostic] = []

        def resolve() -> None:  # (here, while other processes start on the per-file phase)
            resolved.extend(self.resolved(set(checked)))

        per_file = self.per_file(None if callable(files) else files)
        collected: list[Diagnostic] = []
        store = self.index.store
        for found, lines in map_chunks(per_file, items if callable(files) else items(), jobs, prepare=all_rules,
                                       meanwhile=resolve):
            collected.extend(found)
            store.add_lines(lines)
        collected.extend(resolved)
        return finish_diagnostics(collected, self.config)

    def per_file(self, files: list[str] | None = None) -> Callable[[list[CheckItem]], PerFileResult]:
        """The per-file phase for any share of the run's items (`files`; None: any file of the
        index): its findings, unsuppressed, and the lines of the files they point into
        (`DocumentStore.lines`: a share checked in another process brings them back to this one's
        store, to place its findings; not those parsed before, which every process has). An item is a path, or the plugin
        file the plugin scan found there (so a process forked before the scan checks it as this one
        would)."""
        by_path: dict[str, list[SkillDecl]] = {}
        if files is not None and len(files) <= FEW_FILES:  # the editor: scanning every declaration is O(N)
            for path in set(files):
                found = self.index.decls_for_path(path)
                if found:
                    by_path[path] = found
        else:
            wanted = set(files) if files is not None else None
            for rid, decls in self.index.decls.items():
                for d in decls:
                    if wanted is None or d.path in wanted:
                        by_path.setdefault(d.path, []).append(d)
        agents_by_path = {a.path: a for a in self.index.agents}
        shared = self.index.store.loads  # (the documents parsed so far: every process has their texts)

        def per_file(items: list[CheckItem]) -> PerFileResult:
            raw: list[Diagnostic] = []
            for item in items:
                path, pf = (item, None) if isinstance(item, str) else (item.path, item)
                try:
                    raw.extend(self.check_one(path, by_path, agents_by_path, pf))
                except Exception as exc:  # noqa: BLE001 - the per-file boundary (rules have their own)
                    raw.append(file_failure(path, "reading the file", exc))
            found = self.unsuppressed(raw)
            return found, self.index.store.lines(_lines_pointed_into(found), since=shared)

        return per_file

    def check_one(self, path: str, by_path: dict[str, list[SkillDecl]], agents_by_path: dict[str, AgentDecl],
                  plugin_file: PluginFile | None = None) -> list[Diagnostic]:
        """The per-file findings of one file, by its kind (`plugin_file`: what the plugin scan found there)."""
        base = os.path.basename(path)
        pf = plugin_file or plugin_file_for(path)
        if pf is not None and path not in agents_by_path:
            return self.check_plugin_file(pf)
        if (base in (SKILL_FILE, SKILL_FILE_LOWER) or path in by_path) and path not in agents_by_path:
            # (a skill file of another name: Agentcy reads every .md of its roots)
            return self.check_skill_file(path, by_path.get(path, []))
        if path in agents_by_path or (base == AGENT_FILE and in_definition_directory(path)):
            return self.check_agent_file(path, agents_by_path.get(path))
        if base in SIDECAR_KINDS:
            return self.check_sidecar(path)
        return []

    def resolved(self, wanted: set[str]) -> list[Diagnostic]:
        """The resolution findings of `wanted`, unsuppressed."""
        return self.unsuppressed(self.check_resolution(wanted))

    def unsuppressed(self, diags: list[Diagnostic]) -> list[Diagnostic]:
        cache: dict[str, _Suppressions] = {}
        store = self.index.store
        return [d for d in diags if not _suppressed(d, store, cache)]

    def check_skill_file(self, path: str, decls: list[SkillDecl]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        doc = self.index.store.get(path)
        if doc.failure:
            return [Diagnostic(path, Span(0, 0, 0, 0), INTERNAL_ERROR,
                               f"skill-ls could not check this file: {doc.failure}; please report it", Severity.ERROR)]
        if doc.read_error:
            rep = Reporter(path, None, out, "SK003", Severity.ERROR)
            rep.report(Span(0, 0, 0, 0), f"{doc.read_error}; the skill cannot be checked or loaded")
            return out
        if not decls:
            plugin = plugin_of(path, "skills")
            if plugin is not None:
                # A plugin skill: Claude Code reads it as `plugin:name` (it never collides).
                decls = [SkillDecl(path, PLUGIN_RUNTIME, None, "plugin", f"{plugin.name}:{doc.dir_name}", doc=doc)]
        readers = tuple(decls)
        rep = Reporter(path, None, out)
        fctx = FileContext(doc, self.index, self.config, rep, readers=readers)
        run_rules(rules_for("file", "skill"), fctx, rep)
        if not decls:
            # A skill under no runtime root: the Agent Skills standard's base rules.
            decls = [SkillDecl(path, BASE_RUNTIME, None, "standalone", doc.dir_name, doc=doc)]
        for decl in decls:
            runtime = RUNTIMES[decl.runtime]
            rrep = Reporter(path, runtime.id, out)
            rctx = RuntimeContext(doc, self.index, self.config, rrep, runtime, decl, readers=readers)
            run_rules(rules_for("runtime", "skill", runtime), rctx, rrep)
        return out

    def check_resolution(self, wanted: set[str]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        mine = [d for p in wanted for d in self.index.decls_for_path(p)] if len(wanted) <= FEW_FILES else []
        for rid, table in self.index.by_name.items():
            if len(wanted) <= FEW_FILES:  # one file (the editor): only its own names, not every name
                names = {d.name for d in mine if d.runtime == rid}
                items: Iterable[tuple[str, list[SkillDecl]]] = [(n, table[n]) for n in sorted(names) if n in table]
            else:
                items = table.items()
            for name, decls in items:
                if not any(d.path in wanted for d in decls):
                    continue
                try:
                    res = resolve_name(self.index, rid, name)
                    self._run_resolution(res, [d for d in res.entries if d.path in wanted], out)
                    for agent in sorted({d.agent for d in decls if d.agent}):
                        ares = resolve_name(self.index, rid, name, agent)
                        self._run_resolution(ares, [d for d in ares.entries if d.path in wanted], out)
                except Exception as exc:  # noqa: BLE001 - the boundary: one name's failure, its files only
                    out.extend(file_failure(p, f"resolving '{name}'", exc)
                               for p in sorted({d.path for d in decls if d.path in wanted}))
        return out

    def _run_resolution(self, res: NameResolution, decls: list[SkillDecl], out: list[Diagnostic]) -> None:
        for decl in decls:
            if decl.builtin:
                continue
            rep = Reporter(decl.path, decl.runtime, out)
            ctx = ResolutionContext(res, decl, self.index, self.config, rep)
            run_rules(rules_for("resolution", "skill", decl.runtime_def), ctx, rep)

    def check_agent_file(self, path: str, agent: AgentDecl | None) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        if agent is None:
            doc = self.index.store.get(path, agent=True)
            name = os.path.basename(os.path.dirname(path))
            agent = AgentDecl(path, DEFAULT_AGENT_FAMILY, name, "standalone", doc)
        if agent.doc.failure:
            return [Diagnostic(path, Span(0, 0, 0, 0), INTERNAL_ERROR,
                               f"skill-ls could not check this file: {agent.doc.failure}; please report it",
                               Severity.ERROR, agent.family)]
        rep = Reporter(path, agent.family, out)
        ctx = AgentContext(agent, self.index, self.config, rep)
        run_rules(rules_for("agent", "agent", runtime_of_family(agent.family)), ctx, rep)
        return out

    def check_plugin_file(self, pf: PluginFile) -> list[Diagnostic]:
        if pf.kind == "agent":
            doc = self.index.store.get(pf.path, agent=True)
            stem = os.path.splitext(os.path.basename(pf.path))[0]
            declared = doc.fm.value("name") if doc.fm is not None and doc.fm.ok else None
            name = declared if isinstance(declared, str) and declared.strip() else stem
            plugin = pf.plugin.name if pf.plugin else "plugin"
            # A plugin subagent: Claude Code reads it as `plugin:name` (it never collides).
            return self.check_agent_file(pf.path, AgentDecl(pf.path, PLUGIN_AGENT_FAMILY, f"{plugin}:{name}", PLUGIN_TIER, doc))
        out = self.check_sidecar(pf.path, kind=pf.kind)
        if pf.kind == "command":
            # A command's frontmatter has a skill's fields (description, allowed-tools, model, ...):
            # Claude Code's value checks apply to it as to a skill, and its YAML is parsed the same way.
            doc = self.index.store.get(pf.path)
            frep = Reporter(pf.path, None, out)
            run_rules(rules_for("file", "command"),
                      FileContext(doc, self.index, self.config, frep, readers=(), kind="command"), frep)
            if doc.fm is not None and doc.fm.ok and doc.fm.fields:
                decl = SkillDecl(pf.path, PLUGIN_RUNTIME, None, COMMAND_TIER, command_name(pf.path, pf.plugin), doc=doc)
                rrep = Reporter(pf.path, PLUGIN_RUNTIME, out)
                runtime = RUNTIMES[PLUGIN_RUNTIME]
                rctx = RuntimeContext(doc, self.index, self.config, rrep, runtime, decl, readers=(decl,))
                run_rules(rules_for("runtime", "command", runtime), rctx, rrep)
        return out

    def check_sidecar(self, path: str, kind: str | None = None) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        base = os.path.basename(path)
        kind = kind or SIDECAR_KINDS[base]
        skill_dir = os.path.dirname(path) if kind != "openai" else os.path.dirname(os.path.dirname(path))
        skill_md = os.path.join(skill_dir, SKILL_FILE)
        rep = Reporter(path, None, out)
        ctx = SidecarContext(path, kind, skill_md if os.path.isfile(skill_md) else None, self.index, self.config, rep)
        run_rules(rules_for("sidecar", kind), ctx, rep)
        return out


MAX_PER_FILE_AND_CODE = 100  # a pathological file must not flood the report (or the editor)


def file_failure(path: str, what: str, exc: BaseException) -> Diagnostic:
    """SL001 on `path`: skill-ls failed while `what` (the per-file boundary: a failure outside any
    rule, e.g. a reader, is a finding on that file, never the end of the run)."""
    return Diagnostic(path, Span(0, 0, 0, 0), INTERNAL_ERROR, internal_error_message(what, exc), Severity.ERROR)


def finish_diagnostics(raw: list[Diagnostic], config: Config) -> list[Diagnostic]:
    """Merge findings shared by several runtimes, apply select/ignore and severity overrides, sort.
    (Suppression comments are applied earlier, where the documents are at hand.)"""
    merged: dict[tuple[object, ...], Diagnostic] = {}
    for d in raw:
        key = d.identity()
        prev = merged.get(key)
        if prev is None:
            merged[key] = d
        elif d.runtime and prev.runtime and d.runtime not in prev.runtime.split(","):
            names = sorted(set(prev.runtime.split(",")) | {d.runtime}, key=lambda r: RUNTIME_ORDER.get(r, 99))
            prev.runtime = ",".join(names)
    out = []
    per_code: dict[tuple[str, str], int] = {}
    filtered, overrides = bool(config.select or config.ignore), config.severity
    for d in merged.values():
        if filtered and not _selected(d.code, config):
            continue
        key = (d.path, d.code)
        seen = per_code[key] = per_code.get(key, 0) + 1
        if seen > MAX_PER_FILE_AND_CODE:
            continue
        if overrides and d.code in overrides:
            d.severity = overrides[d.code]
        out.append(d)
    out.sort(key=lambda d: (d.path, d.span.start_line, d.span.start_col, d.code, d.runtime or ""))
    capped = {key: n for key, n in per_code.items() if n > MAX_PER_FILE_AND_CODE}
    if capped:
        last: dict[tuple[str, str], Diagnostic] = {(d.path, d.code): d for d in out if (d.path, d.code) in capped}
        for key, d in last.items():
            d.message += f" (and {capped[key] - MAX_PER_FILE_AND_CODE} more {d.code} findings in this file, not shown)"
    return out


def _lines_pointed_into(diags: list[Diagnostic]) -> dict[str, set[int]]:
    """The lines of Markdown files that `diags` point into (their own, related and fix edits'
    spans, first and last line): the lines the presenters convert positions in."""
    out: dict[str, set[int]] = {}

    def add(path: str, span: Span) -> None:
        if path.endswith(".md"):
            lines = out.get(path)
            if lines is None:
                lines = out[path] = set()
            lines.add(span.start_line)
            lines.add(span.end_line)

    for d in diags:
        add(d.path, d.span)
        for r in d.related:
            add(r.path, r.span)
        if d.fix is not None:
            for e in d.fix.edits:
                add(e.path, e.span)
    return out


def _selected(code: str, config: Config) -> bool:
    if config.select and not any(code.startswith(p) for p in config.select):
        return False
    return not any(code.startswith(p) for p in config.ignore)


_Suppressions = tuple[frozenset[str], dict[int, frozenset[str]]]


def _suppressed(d: Diagnostic, store: DocumentStore, cache: dict[str, _Suppressions]) -> bool:
    found = cache.get(d.path)
    if found is None:
        found = cache[d.path] = _suppressions(d.path, store)
    codes, lines = found
    if d.code in codes or "ALL" in codes:
        return True
    line_codes = lines.get(d.span.start_line)
    return line_codes is not None and (d.code in line_codes or "ALL" in line_codes)


def _suppressions(path: str, store: DocumentStore) -> _Suppressions:
    """(the codes a Markdown file disables as a whole, the codes disabled per frontmatter line)."""
    if not os.path.basename(path).lower().endswith(".md"):
        return frozenset(), {}
    doc = store.peek(path)
    codes: frozenset[str] = frozenset()
    if "skill-ls" in doc.src.text:
        codes = frozenset(c.strip().upper() for m in _FILE_SUPPRESS.finditer(doc.src.text)
                          if m.group(1).strip() and _CODE_LIST.fullmatch(m.group(1))
                          for c in m.group(1).split(",") if c.strip())
    return codes, doc.fm.suppressed_lines if doc.fm is not None else {}


def _checkable(result: WalkResult) -> Iterator[str]:
    """The files a walk for WANTED found that `check` checks (`openai.yaml` only in an `agents/`)."""
    for name, found in result.files.items():
        for f in found:
            if name != OPENAI_YAML or os.path.basename(os.path.dirname(f.path)) == "agents":
                yield f.path
