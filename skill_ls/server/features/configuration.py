"""Startup and configuration: `initialize` (initializationOptions), `initialized` (workspace/
configuration, dynamic registrations, the first index), `workspace/didChangeConfiguration`.

Settings are the `skillLs` section in camelCase (docs/lsp-protocol.md); initializationOptions may
hold them directly or under `skillLs`. Bad settings become a message, never a crash.
"""
from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from lsprotocol import types

from skill_ls.server.convert import Converter, path_of
from skill_ls.analysis.workspace import WorkspaceState

log = logging.getLogger("skill_ls.server.configuration")
SECTION = "skillLs"


def _settings_from(value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None  # an empty Lua table arrives as [] from Neovim: no settings
    if SECTION in value:
        inner = value[SECTION]
        return inner if isinstance(inner, dict) and inner else None
    return value or None


def _workspace_root(params: types.InitializeParams) -> str:
    candidates = []
    if params.workspace_folders:
        candidates.append(params.workspace_folders[0].uri)
    if params.root_uri:
        candidates.append(params.root_uri)
    for uri in candidates:
        path = path_of(uri)
        if path:
            return os.path.abspath(path)
    if params.root_path:
        return os.path.abspath(params.root_path)
    return os.getcwd()


async def fetch_settings(ls) -> dict[str, Any] | None:
    caps = ls.client_capabilities.workspace
    if caps is None or not caps.configuration:
        return ls.init_options or None
    try:
        result = await asyncio.wait_for(ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section=SECTION, scope_uri=None)])), 5)
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

        registrations.append(types.Registration(
            id="skill-ls-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCH_GLOBS])))
        ls.client_watches_workspace = True
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
        ls.state = WorkspaceState(_workspace_root(params))
        ls.state.client_settings = ls.init_options or None
        caps = params.capabilities.text_document
        ls.pull = caps is not None and caps.diagnostic is not None
        ls.converter = Converter(ls.workspace.position_encoding or "utf-16")
        log.info("workspace %s; diagnostics by %s", ls.state.workspace, "pull" if ls.pull else "push")

    @server.feature(types.INITIALIZED)
    async def initialized(ls, params: types.InitializedParams):
        ls.loop = asyncio.get_running_loop()
        ls.state.client_settings = await fetch_settings(ls)
        await register_dynamic(ls)
        from skill_ls.server.features.watching import RootWatchers

        ls.watchers = RootWatchers(ls)
        ls.request_reindex()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls, params: types.DidChangeConfigurationParams):
        if ls.state is None:
            return
        settings = _settings_from(params.settings) if isinstance(params.settings, dict) else None
        if settings is None:
            settings = await fetch_settings(ls)
        else:
            settings = {**(ls.init_options or {}), **settings}
        ls.state.client_settings = settings
        ls.request_reindex()

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
