"""The live analysis state of one workspace: configuration layers, the index, editor buffers, and
incremental updates. The language server schedules calls into this; nothing here knows LSP.

Configuration layers (lowest first): defaults, the project file (`.skill-ls.toml` or
`[tool.skill-ls]`), client settings. A bad layer is recorded (`config_error`, `settings_error`) and
skipped; the state carries on with what is valid.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_ls.analysis.check import WANTED, Checker, file_failure
from skill_ls.analysis.listing import MOVED, past_the_budget, refresh_listings
from skill_ls.core.config import (CONFIG_FILE, Config, ConfigError, find_config_file, load_config_file_lenient,
                                  merge_client_settings)
from skill_ls.core.discovery import SKILL_FILE, Environment, Walker
from skill_ls.core.index import (META_FILE, MCP_FILE, SKILL_FILE_LOWER, DocumentStore, Index,
                                 blocked_reason, skill_name_for)
from skill_ls.core.mcp import AGH_CONFIG_FILE
from skill_ls.core.model import Diagnostic
from skill_ls.core.runtimes import RUNTIMES, default_runtime, runtime_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FILE, AGENT_FAMILIES, family_of_path, \
    in_definition_directory
from skill_ls.core.paths import is_under
from skill_ls.core.plugins import named_like_plugin_file
from skill_ls.core.spans import name_span

log = logging.getLogger(__name__)

CONFIG_NAMES = frozenset({CONFIG_FILE, "pyproject.toml"})
# Files whose change on disk can change analysis results.
RELEVANT_NAMES = WANTED | CONFIG_NAMES | {AGH_CONFIG_FILE}


class WorkspaceState:
    def __init__(self, workspace: str, environ: Mapping[str, str] | None = None):
        self.workspace = os.path.abspath(workspace)
        self.environ = dict(os.environ if environ is None else environ)
        self.client_settings: dict[str, Any] | None = None
        self.config = Config()
        self.config_error: ConfigError | None = None  # the file as a whole (unreadable, not TOML)
        self.config_key_errors: list[ConfigError] = []  # keys left out; the rest of the file applies
        self.settings_error: str | None = None
        self.config_path: str | None = None
        self.overlays: dict[str, tuple[str, int | None]] = {}
        self.index: Index | None = None
        self.checker: Checker | None = None
        self._walker_stale = False
        # What BG002 said per runtime when last asked (see `affected_paths`): path -> what it said.
        self._past_budget: dict[str, dict[str, tuple[object, ...]]] = {}
        # Skills that read another skill's files (`skill_read_file("name", ...)`), seen when their
        # diagnostics were last computed: name -> their paths. Which copy of `name` wins decides
        # their RF001/RF002, so a change to `name` makes them affected too.
        self._callers: dict[str, set[str]] = {}
        self._calls: dict[str, frozenset[str]] = {}  # path -> the names it reads from
        # The directories of the SKILL.md files this workspace checks outside every runtime root (a
        # repository of skills): their references are watched like a root's (`skill_dirs`).
        self._loose: set[str] | None = None
        self._skill_dirs: dict[str, list[str]] | None = None
        # Paths whose existence the findings of a Claude Code file depend on, seen when its diagnostics
        # were last computed: the scripts its hooks run where their path is certain (HK003), the paths a
        # plugin.json declares (PL002), a marketplace's local sources (PL004): file -> its paths, and
        # path -> those files. A path created or deleted makes those files affected (`depending_on`);
        # the server watches the paths (`dependency_paths`); `dependencies_changed` says the set moved.
        self._deps: dict[str, frozenset[str]] = {}
        self._dep_users: dict[str, set[str]] = {}
        self.dependencies_changed = False

    @property
    def _index(self) -> Index:
        """The installed index: the incremental paths below run only once `install` has been called."""
        if self.index is None:
            raise RuntimeError("no index installed")
        return self.index

    # -- configuration -----------------------------------------------------------------------
    def load_config(self) -> Config:
        """Recompute the configuration from its layers; errors are recorded, never raised."""
        self.config_error = None
        self.config_key_errors = []
        self.settings_error = None
        found = find_config_file(Path(self.workspace))
        self.config_path = str(found) if found else None
        try:
            # A key that is unknown or has a bad value is left out and reported; the rest applies.
            base, self.config_key_errors = load_config_file_lenient(found) if found else (Config(), [])
        except ConfigError as exc:
            self.config_error = exc
            self.config_path = exc.path or self.config_path
            base = Config()
        try:
            config = merge_client_settings(base, self.client_settings, Path(self.workspace))
        except ConfigError as exc:
            self.settings_error = str(exc)
            config = base
        except Exception as exc:  # a settings object of an unexpected shape
            self.settings_error = f"client settings: {exc}"
            config = base
        self.config = config
        return config

    def config_diagnostics(self) -> list[Diagnostic]:
        if not self.config_path:
            return []
        from skill_ls.analysis.rules.configuration import invalid_configuration

        if self.config_error is not None:
            return invalid_configuration(self.config_error, self.config_path)
        return [d for exc in self.config_key_errors for d in invalid_configuration(exc, self.config_path)]

    # -- building ----------------------------------------------------------------------------
    def build_index(self) -> Index:
        """A fresh index (safe to run in a worker thread: it touches no shared state)."""
        config = self.config
        env = Environment.from_environ(self.environ, config)
        store = DocumentStore()
        for path, (text, version) in list(self.overlays.items()):
            store.set_overlay(path, text, version)
        return Index(self.workspace, env, config, store).build()

    def install(self, index: Index) -> None:
        """Make `index` current, re-applying buffers that changed while it was being built."""
        self.index = index
        self.checker = Checker(index)
        self._past_budget = {rid: past_the_budget(index, rid) for rid in index.decls}
        self._callers, self._calls = {}, {}
        self._loose, self._skill_dirs = None, None
        self._deps, self._dep_users, self.dependencies_changed = {}, {}, True
        for path, overlay in list(self.overlays.items()):
            if index.store.overlays.get(path) != overlay or not os.path.isfile(path):
                # (a buffer of no file on disk, which the build's walk could not find, is declared as
                # an edit declares it: an edited buffer whose folder went keeps its copy after a rescan)
                index.store.set_overlay(path, *overlay)
                self._update(path)
        for path in list(index.store.overlays):
            if path not in self.overlays:
                index.store.drop_overlay(path)
                self._update(path)

    # -- buffers and disk --------------------------------------------------------------------
    def set_overlay(self, path: str, text: str, version: int | None) -> set[tuple[str, str]]:
        self.overlays[path] = (text, version)
        if self.index is None:
            return set()
        self.index.store.set_overlay(path, text, version)
        return self._update(path)

    def drop_overlay(self, path: str) -> set[tuple[str, str]]:
        self.overlays.pop(path, None)
        if self.index is None:
            return set()
        self.index.store.drop_overlay(path)
        return self._update(path)

    def file_changed(self, path: str) -> set[tuple[str, str]] | None:
        """A file changed on disk. Returns the touched names, or None when a full rebuild is needed
        (configuration, agent discovery). Open buffers take precedence over the disk."""
        if self.index is None:
            return set()
        self._walker_stale = True
        # A reference target may have appeared, vanished, changed (RF004 reads its links) or become a
        # symlink; a plugin manifest may have come or gone (the checker's scan of plugin files with it).
        self.index.forget_disk()
        self.checker = Checker(self.index)
        base = os.path.basename(path)
        if path not in self.overlays:
            self.index.store.invalidate(path)
        if base in (SKILL_FILE, SKILL_FILE_LOWER):
            self._skill_dirs = None
            if self._loose is not None:
                self._loose.discard(path)
                if os.path.isfile(path) and is_under(path, self.workspace) and base == SKILL_FILE:
                    self._loose.add(path)  # (a copy under a root is a declaration: skill_dirs reads both)
        if base in CONFIG_NAMES and os.path.dirname(path) == self.workspace:
            return None
        from skill_ls.core.own_settings import is_settings_path

        if is_settings_path(self.index, path):
            # A runtime's own settings (Gemini CLI's settings.json, OpenCode's opencode.json, Amp's
            # settings): what they switch off or add as roots is read once per index state.
            return None
        if base == AGH_CONFIG_FILE:
            # $AGH_HOME/config.toml (provider defaults, marketplace consent, the skills switch) is
            # read from disk even when open, once per index state: a new index reads it again.
            return None
        if path in self.overlays:
            return set()
        if self._is_agent_path(path) and self.index.agent_at(path) is None:
            return None  # a new agent file: discovery must run again
        if os.path.isdir(path) or (not os.path.exists(path) and base not in RELEVANT_NAMES):
            return self._directory_changed(path)
        if base == SKILL_FILE and self._in_new_nested_root(path):
            return None  # a skill folder nested in a subfolder appeared (Cursor's `**/.cursor/skills`)
        return self._update(path)

    def _in_new_nested_root(self, path: str) -> bool:
        """Whether `path` lies in a folder a root template's `**` segment would match
        (`{workspace}/**/.cursor/skills`) and that is not a root of the index yet: the roots are
        expanded again by a rebuild."""
        index = self._index
        if not is_under(path, self.workspace):
            return False
        for runtime in RUNTIMES.values():
            for spec in runtime.roots:
                if "/**/" not in spec.template or not spec.template.startswith("{workspace}/"):
                    continue
                tail = os.sep + spec.template.split("/**/", 1)[1].replace("/", os.sep) + os.sep
                if tail in path[len(self.workspace):] and not any(
                        is_under(path, r.path) for r in index.roots.get(runtime.id, ())):
                    return True
        return False

    def skill_dirs(self) -> dict[str, list[str]]:
        """The directory of every skill this workspace indexes (every root, also outside the
        workspace) or checks (a SKILL.md in the workspace outside every root) -> its skill files:
        what their bodies reference lives there."""
        if self._skill_dirs is None:
            index = self._index
            if self._loose is None:
                self._loose = {p for p in self.workspace_files() if os.path.basename(p) == SKILL_FILE}
            paths = {d.path for decls in index.decls.values() for d in decls if d.path} | self._loose
            dirs: dict[str, list[str]] = {}
            for p in sorted(paths):
                dirs.setdefault(os.path.dirname(p), []).append(p)
            self._skill_dirs = dirs
        return self._skill_dirs

    def skills_holding(self, path: str) -> set[str]:
        """The skill files whose directory holds `path` (a reference, a script, an asset, a
        directory of them), and the skills that read files of those skills by name
        (`skill_read_file`): their RF findings may change when `path` changes on disk."""
        dirs = self.skill_dirs()
        found: set[str] = set()
        parent = os.path.dirname(path)
        while parent and parent != os.path.dirname(parent):
            found.update(dirs.get(parent, ()))
            parent = os.path.dirname(parent)
        found.discard(path)
        if not found or self.index is None:
            return found
        names = {d.name for p in found for d in self.index.decls_for_path(p)}
        for name in names:
            found.update(self._callers.get(name, ()))
        found.discard(path)
        return found

    def _directory_changed(self, path: str) -> set[tuple[str, str]] | None:
        """Like `file_changed` for a directory: None when a full rebuild is needed."""
        index = self._index
        touched: set[tuple[str, str]] = set()
        known = {d.path for decls in index.decls.values() for d in decls if d.path and is_under(d.path, path)}
        if any(is_under(a.path, path) for a in index.agents):
            return None
        if (os.path.isdir(path) and self._creates_root(path)) or self._moves_a_root(path):
            return None  # a root appeared (or a link file's folder came or went): activation and watches change
        if os.path.isdir(path):
            walker = Walker()
            found = walker.walk(path, frozenset({SKILL_FILE}), max_depth=8).files.get(SKILL_FILE, [])
            known |= {f.path for f in found}
        if self._loose is not None:  # skills outside every root, moved in or out with the directory
            gone = {p for p in self._loose if is_under(p, path) and not os.path.isfile(p)}
            came = {p for p in known if is_under(p, self.workspace) and os.path.isfile(p)} - self._loose
            if gone or came:
                self._loose = (self._loose - gone) | came
                self._skill_dirs = None
        if known:
            self._skill_dirs = None
        for p in sorted(known):
            touched |= self._update(p)
        return touched

    def _creates_root(self, path: str) -> bool:
        from skill_ls.core.discovery import runtime_roots

        index = self._index
        for runtime in RUNTIMES.values():
            for r in index.roots.get(runtime.id) or runtime_roots(runtime, self.workspace, index.env, self.config):
                if is_under(r.path, path):
                    return True
            # Folders a `**` segment matches (Cursor's nested `.cursor/skills`) are found again.
            if any("/**/" in spec.template for spec in runtime.roots) and is_under(path, self.workspace) and any(
                    r.scope is not None and is_under(r.path, path) and r not in index.roots.get(runtime.id, ())
                    for r in runtime_roots(runtime, self.workspace, index.env, self.config)):
                return True
        return False

    def _moves_a_root(self, path: str) -> bool:
        """Whether the directory `path` (created, changed or deleted) holds a link file that moves a
        root (`RootSpec.link`: a linked Gemini CLI extension's folder), one the index follows or one
        that expanding the roots again finds."""
        from skill_ls.core.discovery import runtime_roots

        index = self._index
        for runtime in RUNTIMES.values():
            if not any(spec.link for spec in runtime.roots):
                continue
            known = index.roots.get(runtime.id, [])
            if any(r.via and is_under(r.via, path) for r in known):
                return True
            if os.path.isdir(path) and any(r.via and is_under(r.via, path) and r not in known
                                           for r in runtime_roots(runtime, self.workspace, index.env, self.config)):
                return True
        return False

    def read_dirs(self) -> set[str]:
        """Every directory the index reads skills or agents from: each runtime's roots (also those that do
        not exist yet) and each agent family's directories."""
        from skill_ls.core.discovery import agent_dirs, runtime_roots

        index = self._index
        dirs: set[str] = set()
        for runtime in RUNTIMES.values():
            roots = index.roots.get(runtime.id) or runtime_roots(runtime, self.workspace, index.env, self.config)
            dirs.update(os.path.normpath(r.path) for r in roots)
        for family in AGENT_FAMILIES.values():
            dirs.update(os.path.normpath(path) for path, _ in agent_dirs(family, self.workspace, index.env, self.config))
        return dirs

    def _is_agent_path(self, path: str) -> bool:
        return family_of_path(path) is not None

    def _update(self, path: str) -> set[tuple[str, str]]:
        index = self._index
        agent = index.agent_at(path)
        if agent is not None:
            index.store.invalidate(path)
            doc = index.store.get(path, agent=True)
            declared = doc.fm.value("name") if doc.fm and doc.fm.ok else None
            family = AGENT_FAMILIES[agent.family]
            if family.name_source == "directory" or declared == agent.name or not isinstance(declared, str) \
                    or not declared:
                # Same identity: swap the parsed document without rediscovering every agent.
                agent.doc = doc
                index.derived.clear()
                return {(runtime_for_family(agent.family), f"@agent:{agent.name}")}
        if os.path.basename(path) == SKILL_FILE:
            refreshed = self._refresh_in_place(path)
            if refreshed is not None:
                return refreshed
        try:
            return index.update_file(path)
        finally:
            self.checker = Checker(index)

    def _refresh_in_place(self, path: str) -> set[tuple[str, str]] | None:
        """The common keystroke: a known SKILL.md whose name and loadability did not change. Swap the
        parsed document into its declarations without re-indexing names (keeps edits O(1)). Returns
        (runtime, MOVED) for each listing the edit moved (a listing with a budget then moves for
        other files too: `refresh_listings` costs the entry again) and the (runtime, name) pairs
        whose name moved in the text, or None when the file has to be re-indexed."""
        index = self._index
        decls = index.decls_for_path(path)
        if not decls or path not in index.store.overlays and not os.path.isfile(path):
            return None
        index.store.invalidate(path)
        doc = index.store.get(path)
        updates = []
        for d in decls:
            runtime = RUNTIMES[d.runtime]
            blocked = blocked_reason(doc, runtime)
            if blocked is None and d.meta is not None and not d.meta.ok:
                blocked = d.blocked
            if skill_name_for(doc, runtime) != d.name or (blocked is None) != (d.blocked is None):
                return None
            updates.append((d, blocked))
        # Other copies' findings point at this copy's name (SH001-SH003 related locations): where it
        # moved, they change too.
        moved_name = {(d.runtime, d.name) for d, _ in updates if d.doc is None or name_span(d.doc) != name_span(doc)}
        for d, blocked in updates:
            d.doc = doc
            d.blocked = blocked
        index.derived.clear()  # whole-index facts may read the swapped text (each is cheap to derive again)
        return refresh_listings(index, decls) | moved_name

    def rebuild_walker(self) -> None:
        if self.index is not None and self._walker_stale:
            self.index.walker = Walker(self.index.walker.excluder)
            self._walker_stale = False

    # -- queries -----------------------------------------------------------------------------
    def broad_workspace(self) -> str | None:
        """Why the workspace is too broad to list whole (None when it is a project): the file system
        root, the home directory, or a tree whose walk stopped at MAX_WALK_DIRS. Such a workspace
        is checked through its skill roots only (`workspace_files`)."""
        ws = self.workspace.rstrip(os.sep) or os.sep
        home = os.path.abspath(os.path.expanduser("~")) if os.environ.get("HOME") else None
        if ws == os.sep:
            return "the file system root"
        if home and ws == home.rstrip(os.sep):
            return "your home directory"
        if self.index is not None and ws in self.index.walker.truncated:
            return "too large to list whole"
        return None

    def workspace_files(self) -> list[str]:
        """Every checkable file in the workspace (plus the configuration file when it is broken).
        A workspace too broad to list (see `broad_workspace`) gives the files of the skill roots and
        agents under it only, so a server opened on `/` or `$HOME` never checks the whole machine."""
        if self.checker is None:
            return []
        self.rebuild_walker()
        if self.broad_workspace() is not None and self.index is not None:
            paths = {d.path for decls in self.index.decls.values() for d in decls if d.path}
            paths |= {a.path for a in self.index.agents}
            return sorted(p for p in paths if is_under(p, self.workspace))
        return self.checker.files_in_scope([self.workspace])

    def diagnostics(self, paths: list[str]) -> dict[str, list[Diagnostic]]:
        out: dict[str, list[Diagnostic]] = {p: [] for p in paths}
        if self.checker is None:
            return out
        checkable = [p for p in paths if os.path.basename(p) not in CONFIG_NAMES]
        try:
            found = self.checker.check_files(checkable)
        except Exception:  # noqa: BLE001 - the server's per-file boundary: one file at a time, then SL001
            found = []
            for path in checkable:
                try:
                    found.extend(self.checker.check_files([path]))
                except Exception as exc:  # noqa: BLE001
                    found.append(file_failure(path, "checking the file", exc))
        for d in found:
            if d.path in out:
                out[d.path].append(d)
        try:
            for d in self.config_diagnostics():
                if d.path in out:
                    out[d.path].append(d)
            self._note_calls(checkable)
            self._note_dependencies(checkable)
        except Exception:  # noqa: BLE001 - the findings above stand; nothing else depends on these
            log.exception("configuration findings or call notes failed")
        return out

    def _note_calls(self, paths: list[str]) -> None:
        """Remember which skills the files just checked read files from (the rules scanned their
        bodies already: the scan is cached on the document)."""
        index = self._index
        for path in paths:
            scanned = index.store.peek(path).cache.get("body_references") if index.decls_for_path(path) else None
            names = frozenset(r.skill for r in scanned[0] if r.skill) if scanned else frozenset()
            _relate(self._calls, self._callers, path, names)

    def _dependencies_of(self, path: str) -> frozenset[str]:
        from skill_ls.analysis.rules.hooks import script_dependencies

        index = self._index
        found = script_dependencies(index, path)
        if os.path.basename(os.path.dirname(path)) == ".claude-plugin":
            from skill_ls.analysis.rules import Reporter
            from skill_ls.analysis.rules.context import SidecarContext
            from skill_ls.analysis.rules.plugins import path_dependencies
            from skill_ls.core.plugins import plugin_file_for

            pf = plugin_file_for(path)
            if pf is not None and pf.kind in ("manifest", "marketplace"):
                found |= path_dependencies(SidecarContext(path, pf.kind, None, index, index.config,
                                                          Reporter(path, None, [])))
        return frozenset(found)

    def _note_dependencies(self, paths: list[str]) -> None:
        """Remember the paths whose existence the findings of each file just checked depend on."""
        for path in paths:
            if _relate(self._deps, self._dep_users, path, self._dependencies_of(path)):
                self.dependencies_changed = True

    def depending_on(self, path: str) -> set[str]:
        """The files whose findings depend on whether `path` exists (a hook's script, a path a plugin.json
        declares, a marketplace's source), or on a path inside it (a directory created, deleted or
        renamed as a whole); for a plugin's `plugin.json` or a `marketplace.json`, also every plugin file
        under its directory (their kinds and names come from it)."""
        found = set(self._dep_users.get(path, ()))
        prefix = path.rstrip(os.sep) + os.sep
        for dep, users in self._dep_users.items():
            if dep.startswith(prefix):
                found |= users
        if os.path.basename(os.path.dirname(path)) == ".claude-plugin" and self.checker is not None:
            root = os.path.dirname(os.path.dirname(path))
            if os.path.isdir(root):
                self.rebuild_walker()  # (the checker keeps what it finds: never from stale listings)
                found.update(self.checker.plugin_files([root]))
            found.update(p for p in self._deps if is_under(p, root))
        return found

    def dependency_paths(self) -> frozenset[str]:
        """Every path whose existence a checked file's findings depend on (the server watches them)."""
        return frozenset(self._dep_users)

    def affected_paths(self, touched: set[tuple[str, str]]) -> set[str]:
        """Files whose diagnostics may change after `touched` names changed: every copy of the
        names, every skill that reads files of one of them (the winning copy is the one read: RF001),
        every agent (agents name skills: AG005), and, in a runtime whose listing has a budget, the
        files whose place past the budget changed (BG002: a description anywhere moves the cut).
        A listing that moved and nothing else (`MOVED`: a description typed) changes no name."""
        if self.index is None or not touched:
            return set()
        out: set[str] = set()
        names = {n for _, n in touched} - {MOVED}
        for rid, table in self.index.by_name.items():
            for name in names:
                out.update(d.path for d in table.get(name, ()) if d.path)
        for name in names:
            out.update(self._callers.get(name, ()))
        if names:
            out.update(a.path for a in self.index.agents)
        for rid in {r for r, _ in touched if r in self.index.decls}:
            before, now = self._past_budget.get(rid, {}), past_the_budget(self.index, rid)
            out.update(p for p in before.keys() | now.keys() if before.get(p) != now.get(p))
            self._past_budget[rid] = now
        return out

    def summary(self) -> dict[str, Any]:
        index = self.index
        if index is None:
            return {"skills": 0, "agents": 0, "runtimes": []}
        paths = {d.path for decls in index.decls.values() for d in decls if d.path}
        return {"skills": len(paths), "agents": len(index.agents), "runtimes": index.active}

    def indexed_roots(self) -> list[str]:
        """The directories this workspace's index reads skills and agents from (the workspace's own
        roots, additional and configured roots, user roots), existing or not: an editor that runs one
        server per project asks which project's server reads a file outside every project."""
        index = self.index
        if index is None:
            return []
        from skill_ls.core.discovery import agent_dirs
        from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES

        roots = {r.path for rs in index.roots.values() for r in rs}
        for family in AGENT_FAMILIES.values():
            roots.update(d for d, _ in agent_dirs(family, index.workspace, index.env, index.config))
        return sorted(roots)

    def catalog_fingerprint(self) -> str:
        """A short hash of everything the catalogs of this workspace are rendered from — every
        declaration (runtime, name, path, tier, agent, loadability, frontmatter values; the file's
        size where the runtime's catalog carries whole files), every agent definition, and the
        configuration — so it changes whenever a catalog an agent receives can change (a
        description edit too, not only the number of skills). Rendering every catalog instead would
        cost about a second at 3,000 skills on each change; hashing the inputs costs milliseconds.
        Sidecars (mcp.json, marketplace metadata, $AGH_HOME/config.toml) are not read here: the
        server salts the hash when one of them changes on disk."""
        from skill_ls.analysis.catalog import FORMATS

        index = self.index
        if index is None:
            return ""
        whole_files = {rid for rid, rt in RUNTIMES.items()
                       if getattr(FORMATS.get(rt.catalog_format), "id", rt.catalog_format) == "full_content"}

        def values(doc: Any) -> int:
            """Hash of the frontmatter values, computed once per parse (the document's cache)."""
            if doc is None or getattr(doc, "fm", None) is None:
                return 0
            cached = doc.cache.get("catalog_values")
            if cached is None:
                cached = hash(repr(sorted((k, repr(f.value)) for k, f in doc.fm.fields.items())))
                doc.cache["catalog_values"] = cached
            return int(cached)

        items: list[object] = [tuple(sorted(index.active)), repr(index.config)]
        for rid in sorted(index.decls):
            for d in index.decls[rid]:
                size = d.doc.size if rid in whole_files and d.doc is not None else 0
                items.append((rid, d.name, d.path, d.tier, d.agent, d.blocked, d.undiscovered, d.builtin,
                              values(d.doc), size))
        for a in index.agents:
            items.append((a.path, a.name, a.family, a.winner, values(a.doc)))
        # Python's hash: stable within the server process, which is all an editor compares.
        return format(hash(tuple(items)) & 0xFFFFFFFFFFFFFFFF, "016x")

    def default_runtime(self) -> str:
        return default_runtime(self.index.active if self.index else [])

    def runtimes_for(self, path: str) -> list[str]:
        """The runtimes that read this file, in RUNTIMES order (default runtime first)."""
        if self.index is None:
            return []
        rids = {d.runtime for d in self.index.decls_for_path(path)}
        for a in self.index.agents:
            if a.path == path:
                rids.add(runtime_for_family(a.family))
        first = self.default_runtime()
        return sorted(rids, key=lambda r: (r != first, list(RUNTIMES).index(r)))

    def reads(self, path: str) -> bool:
        """Whether this workspace's index declares the file (a skill of one of its roots, or an agent)."""
        index = self.index
        return index is not None and (bool(index.decls_for_path(path)) or index.agent_at(path) is not None)

    def is_skill_file(self, path: str) -> bool:
        return os.path.basename(path) in (SKILL_FILE, SKILL_FILE_LOWER) and (
            self.index is None or self.index.agent_at(path) is None)

    def is_agent_file(self, path: str) -> bool:
        if self.index is not None and self.index.agent_at(path) is not None:
            return True
        return os.path.basename(path) == AGENT_FILE and in_definition_directory(path)

    def relevant(self, path: str) -> bool:
        base = os.path.basename(path)
        if base in RELEVANT_NAMES or self._is_agent_path(path) or path in self._dep_users \
                or named_like_plugin_file(path):
            return True  # (a plugin or project file of Claude Code; a path a checked file depends on)
        if self.index is None:
            return False
        from skill_ls.core.own_settings import is_settings_path

        return is_settings_path(self.index, path)  # a runtime's own settings file (or an OpenCode agent's)


__all__ = ["WorkspaceState", "META_FILE", "MCP_FILE"]


def _relate(forward: dict[str, frozenset[str]], backward: dict[str, set[str]], key: str,
            values: frozenset[str]) -> bool:
    """Set `forward[key]` to `values` (none: no entry) and keep `backward` its inverse (value -> the
    keys naming it; no empty sets). Returns whether anything changed."""
    old = forward.get(key, frozenset())
    if values == old:
        return False
    for value in old - values:
        keys = backward.get(value)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del backward[value]
    for value in values - old:
        backward.setdefault(value, set()).add(key)
    if values:
        forward[key] = values
    else:
        forward.pop(key, None)
    return True
