"""Startup and configuration: `initialize` (initializationOptions, workspace folders, push or pull),
`initialized` (workspace/configuration per folder, dynamic registrations, the first index),
`workspace/didChangeConfiguration`, `workspace/didChangeWorkspaceFolders`.

Each workspace folder is mapped to its project root (`project_of`) and indexed as a workspace of
its own, with the settings the client gives for that folder's scope.

Settings are the `skillLs` section in camelCase (docs/lsp-protocol.md); initializationOptions may
hold them directly or under `skillLs`. Bad settings become a message, never a crash.
"""
from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from lsprotocol import types

from skill_ls.core.config import project_root
from skill_ls.server.convert import Converter, path_of, uri_of

log = logging.getLogger("skill_ls.server.configuration")
SECTION = "skillLs"


def _settings_from(value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None  # an empty Lua table arrives as [] from Neovim: no settings
    if SECTION in value:
        inner = value[SECTION]
        return inner if isinstance(inner, dict) and inner else None
    return value or None


def _folder_roots(params: types.InitializeParams) -> list[str]:
    """The workspace folders of `initialize` (rootUri, rootPath, or the working directory when the
    client sends none), in the client's order."""
    uris = [f.uri for f in params.workspace_folders or []]
    if not uris and params.root_uri:
        uris.append(params.root_uri)
    roots = [os.path.abspath(p) for p in (path_of(u) for u in uris) if p]
    if not roots and not uris and params.root_path:
        roots.append(os.path.abspath(params.root_path))
    return roots or [os.getcwd()]


def project_of(folder: str, environ: dict[str, str] | None = None) -> str:
    """The project root a workspace folder belongs to (see `skill_ls.core.config.project_root`)."""
    env = os.environ if environ is None else environ
    home = env.get("HOME")
    return str(project_root(Path(folder), Path(home) if home else None))


def choose_pull(caps: types.ClientCapabilities) -> bool:
    """Diagnostics by pull only for a client that pulls *and* can be asked to pull again
    (`workspace.diagnostics.refreshSupport`): after a change elsewhere (disk, another buffer,
    configuration) the server must make it re-pull. Every other client, including one that pulls
    but cannot be refreshed (Neovim 0.11), gets pushed diagnostics for every file in scope."""
    text = caps.text_document
    workspace = caps.workspace
    return bool(text is not None and text.diagnostic is not None and workspace is not None
                and workspace.diagnostics is not None and workspace.diagnostics.refresh_support)


async def fetch_settings(ls, scope: str | None = None) -> dict[str, Any] | None:
    """The `skillLs` settings for one folder (`scope`: its path), over initializationOptions."""
    caps = ls.client_capabilities.workspace
    if caps is None or not caps.configuration:
        return ls.init_options or None
    try:
        result = await asyncio.wait_for(ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section=SECTION, scope_uri=uri_of(scope) if scope else None)])), 5)
    except Exception:
        log.warning("workspace/configuration failed; using initializationOptions", exc_info=True)
        return ls.init_options or None
    value = result[0] if result else None
    settings = dict(ls.init_options or {})
    if isinstance(value, dict):
        settings.update(_settings_from(value) or {})
    return settings or None


async def register_dynamic(ls) -> None:
    """Dynamic registrations the client offers: configuration changes and watched files."""
    caps = ls.client_capabilities.workspace
    registrations = []
    if caps is not None and caps.did_change_configuration and caps.did_change_configuration.dynamic_registration:
        registrations.append(types.Registration(id="skill-ls-configuration",
                                                method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                                                register_options=types.DidChangeConfigurationRegistrationOptions(
                                                    section=SECTION)))
    if caps is not None and caps.did_change_watched_files and caps.did_change_watched_files.dynamic_registration:
        from skill_ls.server.features.watching import WATCH_GLOBS

        # The skill files and sidecars anywhere; the directory watchers follow once the index is built
        # (`watching.follow_index`).
        registrations.append(types.Registration(
            id="skill-ls-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCH_GLOBS])))
        ls.client_watches_workspace = True
        ls.client_relative_patterns = bool(caps.did_change_watched_files.relative_pattern_support)
    if not registrations:
        return
    try:
        await asyncio.wait_for(ls.client_register_capability_async(types.RegistrationParams(registrations)), 10)
    except Exception:
        log.warning("client/registerCapability failed", exc_info=True)


def register(server) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls, params: types.InitializeParams):
        ls.loop = asyncio.get_running_loop() if _loop_running() else None
        ls.init_options = _settings_from(params.initialization_options) or {}
        for folder in _folder_roots(params):
            ls.folder_projects[folder] = project_of(folder)
            ls.add_folder(ls.folder_projects[folder], ls.init_options or None)
        ls.pull = choose_pull(params.capabilities)
        ls.converter = Converter(ls.workspace.position_encoding or "utf-16")
        log.info("workspace %s; diagnostics by %s", ", ".join(ls.states), "pull" if ls.pull else "push")

    @server.feature(types.INITIALIZED)
    async def initialized(ls, params: types.InitializedParams):
        ls.loop = asyncio.get_running_loop()
        for key, st in ls.states.items():
            st.client_settings = await fetch_settings(ls, key)
        await register_dynamic(ls)
        from skill_ls.server.features.watching import RootWatchers

        ls.watchers = RootWatchers(ls)
        ls.request_reindex()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls, params: types.DidChangeConfigurationParams):
        if not ls.states:
            return
        pushed = _settings_from(params.settings) if isinstance(params.settings, dict) else None
        for key, st in ls.states.items():
            if pushed is not None and len(ls.states) == 1:
                st.client_settings = {**(ls.init_options or {}), **pushed}
            else:  # several folders: each asks for its own scope
                st.client_settings = await fetch_settings(ls, key)
                if pushed is not None and st.client_settings is None:
                    st.client_settings = {**(ls.init_options or {}), **pushed}
        ls.request_reindex()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_workspace_folders(ls, params: types.DidChangeWorkspaceFoldersParams):
        """Folders come and go: an added folder is indexed with its own configuration; a removed
        one's files lose their diagnostics (push) or are re-pulled (pull). Several folders may belong
        to one project (a skill directory added as a folder of its own): the project goes with the
        last of them."""
        remaining = [f for f in ls.states]
        removed: set[str] = set()
        for folder in params.event.removed or []:
            path = path_of(folder.uri)
            if path:
                path = os.path.abspath(path)
                removed.add(ls.folder_projects.pop(path, None) or project_of(path))
        added: list[str] = []
        for folder in params.event.added or []:
            path = path_of(folder.uri)
            if path:
                path = os.path.abspath(path)
                ls.folder_projects[path] = project_of(path)
                added.append(ls.folder_projects[path])
        still = set(ls.folder_projects.values())
        for key in removed - set(added) - still:
            if ls.remove_folder(key) is not None:
                log.info("workspace folder removed: %s", key)
        removed -= still
        for key in added:
            st = ls.add_folder(key)
            if st is not None:
                log.info("workspace folder added: %s", key)
                st.client_settings = await fetch_settings(ls, key)
        if removed - set(added) and not ls.pull:
            gone = [p for p in list(ls.pushed) if not ls.in_some_folder(p) and p not in ls.open_docs]
            for p in gone:
                ls.clear(p)
        ls.request_reindex({k for k in ls.states if k not in remaining} or set())
        if removed:
            ls.notify_index_changed(force=True)
            ls.refresh_pull_clients()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls, params):
        if ls.watchers is not None:
            ls.watchers.stop()


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False
