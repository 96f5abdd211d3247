"""End-to-end fixtures: the real server over stdio (`python -m skill_ls serve`), driven by a
pytest-lsp client with the capabilities of VS Code or Neovim, on a small skill tree under tmp_path
with a private HOME/AGH_HOME passed to the server process.

Every wait has a timeout (`settle`), so a broken server fails a test instead of hanging it.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities
from pygls.uris import from_fs_path

from tests.conftest import skill, write

PROFILES = ("visual-studio-code", "neovim")
# The diagnostics channels a client can get (`choose_pull`): VS Code 1.65 cannot pull (push only);
# Neovim 0.11 pulls but cannot be refreshed (mixed: the server pushes); "pull-refresh" is a client
# that pulls and supports workspace/diagnostic/refresh (modern VS Code), so the server never pushes.
DIAGNOSTIC_PROFILES = ("visual-studio-code", "neovim", "pull-refresh")
# Modern VS Code: pulls with refresh, and watches the workspace for the server with relative patterns
# (`relativePatternSupport`), where "visual-studio-code" (1.65) takes plain globs only.
VSCODE_PULL = "vscode-pull"
TIMEOUT = 20.0
INDEX_CHANGED = "skillLs/indexChanged"


def uri(path: Path | str) -> str:
    return from_fs_path(str(path))


class Tree:
    """The standard tree: `demo` in three AGH tiers (workspace wins over user over bundled), an agent
    with a tombstone, and a workspace skill `other` that calls into `demo`."""

    typo: Path

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.home = tmp_path / "home"
        self.agh_home = self.home / ".agh"
        self.ws = tmp_path / "ws"
        self.bundled = tmp_path / "bundled"
        self.ws.mkdir(exist_ok=True)
        self.home.mkdir(exist_ok=True)

    def standard(self) -> "Tree":
        self.ws_demo = skill(self.ws / ".agh" / "skills", "demo", description="Workspace demo. Use when testing.",
                             body="# Demo\n\nSee [the guide](references/guide.md).\n")
        write(self.ws / ".agh" / "skills" / "demo" / "references" / "guide.md", "# Guide\n")
        self.user_demo = skill(self.agh_home / "skills", "demo", description="User demo.")
        self.bundled_demo = skill(self.bundled / "skills", "demo", description="Bundled demo.")
        self.other = skill(self.ws / ".agh" / "skills", "other", description="Other skill.",
                           body='# Other\n\nCall skill_read_file("demo", "references/guide.md") first.\n')
        self.agent = write(self.ws / ".agh" / "agents" / "reviewer" / "AGENT.md",
                           "---\nname: reviewer\nprovider: openai\nskills:\n  disabled: [other]\n---\n"
                           "You review code.\n", dedent=False)
        write(self.ws / ".skill-ls.toml", f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{self.bundled}"]\n',
              dedent=False)
        return self

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("AMP_TOOLBOX",)}
        env.update(HOME=str(self.home), AGH_HOME=str(self.agh_home), CODEX_HOME=str(self.home / ".codex"),
                   XDG_CONFIG_HOME=str(self.home / ".config"), PYTHONPATH=str(Path(__file__).resolve().parents[2]))
        return env


async def settle(predicate, timeout: float = TIMEOUT, interval: float = 0.02):
    """Poll `predicate()` until it returns a truthy value; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        await asyncio.sleep(interval)


class Session:
    def __init__(self, client, profile: str, tree: Tree):
        self.client = client
        self.profile = profile
        self.tree = tree
        self.index_changes: list = []
        self.publishes: list[types.PublishDiagnosticsParams] = []
        self.registrations: list[types.Registration] = []
        self.capabilities: types.ServerCapabilities | None = None
        self.opened: set[str] = set()  # URIs opened (didOpen) through `open`

    @property
    def pull(self) -> bool:
        """The server chose pull for this client: it advertised diagnosticProvider."""
        return self.capabilities is not None and self.capabilities.diagnostic_provider is not None

    @property
    def refreshes(self) -> int:
        """workspace/diagnostic/refresh requests received."""
        return self.client.diagnostic_refresh_count

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        text = path.read_text(encoding="utf-8") if text is None else text
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=version, text=text)))
        self.opened.add(uri(path))
        return uri(path)

    def change(self, path: Path, text: str, version: int) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def wait_index_changes(self, count: int, timeout: float = TIMEOUT):
        await settle(lambda: len(self.index_changes) >= count, timeout)
        return self.index_changes[count - 1]

    async def diagnostics(self, path: Path, predicate=lambda ds: True, timeout: float = TIMEOUT) -> list[types.Diagnostic]:
        """The file's diagnostics by the profile's own channel: pushed ones, or a pull request."""
        u = uri(path)
        if not self.pull:
            def pushed():
                if u not in self.client.diagnostics:
                    return None
                items = list(self.client.diagnostics[u])
                return (items,) if predicate(items) else None
            return (await settle(pushed, timeout))[0]
        deadline = time.monotonic() + timeout
        while True:
            report = await asyncio.wait_for(self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(u))), timeout)
            items = list(report.items)
            if predicate(items):
                return items
            if time.monotonic() > deadline:
                raise AssertionError(f"diagnostics for {path} never matched: {[d.code for d in items]}")
            await asyncio.sleep(0.05)

    async def idle(self, after: int | None = None, timeout: float = TIMEOUT) -> dict:
        """Wait until the server has received more than `after` changes on disk (when given: its own
        watchers see a change a moment after the test made it; `after` is `changes_seen()` before the
        change) and has nothing scheduled (`skillLs.status`): from then on, nothing arrives that the
        change could have caused."""
        deadline = time.monotonic() + timeout
        while True:
            status = await self.command("skillLs.status", {}, timeout)
            busy = [w for w in status["scheduled"] if w != "text release"]  # (nothing a client sees)
            if (after is None or status["changes_seen"] > after) and not busy:
                return status
            if time.monotonic() > deadline:
                raise AssertionError(f"the server never became idle: {status}")
            await asyncio.sleep(0.02)

    async def changes_seen(self) -> int:
        return (await self.command("skillLs.status", {}))["changes_seen"]

    async def request(self, coro, timeout: float = TIMEOUT):
        return await asyncio.wait_for(coro, timeout)

    async def command(self, name: str, arg: dict | None = None, timeout: float = TIMEOUT):
        return await asyncio.wait_for(self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=[arg or {}])), timeout)


def profile_capabilities(profile: str) -> types.ClientCapabilities:
    if profile == VSCODE_PULL:
        caps = client_capabilities("visual-studio-code")
        caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=True,
                                                                           related_document_support=False)
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        caps.workspace.did_change_watched_files.relative_pattern_support = True
        return caps
    if profile != "pull-refresh":
        return client_capabilities(profile)
    caps = client_capabilities("neovim")
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


def _watchers(s: "Session") -> list[tuple[str, int]]:
    """The (absolute glob, kind) pairs of every watched-files registration still in force; a relative
    pattern is joined to its base (`**/` globs match any leading directories)."""
    from pygls.uris import to_fs_path

    out = []
    for reg in s.registrations:
        if reg.method != types.WORKSPACE_DID_CHANGE_WATCHED_FILES:
            continue
        opts = reg.register_options
        watchers = opts["watchers"] if isinstance(opts, dict) else opts.watchers
        for w in watchers:
            glob = w["globPattern"] if isinstance(w, dict) else w.glob_pattern
            kind = (w.get("kind") if isinstance(w, dict) else w.kind) or 7
            if isinstance(glob, dict):
                base, pattern = glob["baseUri"], glob["pattern"]
                base = base["uri"] if isinstance(base, dict) else base
                glob = to_fs_path(base).rstrip("/") + "/" + pattern
            elif not isinstance(glob, str):
                base = glob.base_uri if isinstance(glob.base_uri, str) else glob.base_uri.uri
                glob = to_fs_path(base).rstrip("/") + "/" + glob.pattern
            out.append((glob, int(kind)))
    return out


def client_reports(s: "Session", path: Path | str, kind: types.FileChangeType) -> bool:
    """What a client that watches the workspace for the server (VS Code) does on a disk change: it
    reports the change only when one of the watchers the server registered matches the path and the
    kind of change (a watcher without `kind` takes all three). A directory moved or deleted as a whole
    is reported as that directory alone, never the files in it (VS Code drops the children's events).
    A client that does not watch for the server reports nothing (the server's own watcher does)."""
    from skill_ls.core.runtimes.agent_families import matches_glob

    bit = {types.FileChangeType.Created: types.WatchKind.Create, types.FileChangeType.Changed: types.WatchKind.Change,
           types.FileChangeType.Deleted: types.WatchKind.Delete}[kind]
    for glob, watch in _watchers(s):
        if watch & bit and matches_glob(str(path), glob):
            s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
                [types.FileEvent(uri(path), kind)]))
            return True
    return False


def delete_reported(s: "Session", path: Path) -> int:
    """Delete a file or a directory as a whole, as the client reports it (`client_reports`); returns
    the client's refresh count before it (what a pull client must exceed once asked to pull again)."""
    mark: int = s.refreshes
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()
    client_reports(s, path, types.FileChangeType.Deleted)
    return mark


@pytest.fixture
def tree(tmp_path) -> Tree:
    return Tree(tmp_path)


SERVE = [sys.executable, "-m", "skill_ls", "serve"]
ZYGOTE_SOCKET = "SKILL_LS_TEST_ZYGOTE"  # environment: the socket of the running tests.lsp.zygote


def server_command() -> list[str]:
    """How a test starts its server: forked from the pre-imported `tests.lsp.zygote` (the same
    server code on the same stdio pipes, without ~0.7 s of interpreter start and imports each time),
    or `skill-ls serve` itself when the zygote is off (SKILL_LS_TEST_FORK=0) or unavailable."""
    from tests.lsp.zygote import LAUNCHER

    sock = os.environ.get(ZYGOTE_SOCKET)
    return [sys.executable, "-I", "-S", "-c", LAUNCHER, sock] if sock else SERVE


@pytest.fixture(scope="session", autouse=True)
def zygote(tmp_path_factory):
    import signal
    import subprocess

    if os.environ.get("SKILL_LS_TEST_FORK", "1") == "0" or not hasattr(os, "fork"):
        yield None
        return
    sock = str(tmp_path_factory.mktemp("zygote") / "s")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-m", "tests.lsp.zygote", sock], env=env, start_new_session=True,
                            stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not os.path.exists(sock) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if os.path.exists(sock):
        os.environ[ZYGOTE_SOCKET] = sock
    yield proc
    os.environ.pop(ZYGOTE_SOCKET, None)
    try:
        os.killpg(proc.pid, signal.SIGTERM)  # the zygote's own session: it and the servers it forked
    except OSError:
        pass
    proc.wait(10)


async def open_session(tree: Tree, profile: str, init_options: dict | None = None, settings: dict | None = None,
                       wait_index: bool = True, folders: list[Path] | None = None, serve: bool = False) -> Session:
    """A real server over stdio on `tree`, initialized with the capabilities of `profile` (`serve`:
    started as the `skill-ls serve` command itself, not forked from the zygote)."""
    config = ClientServerConfig(server_command=SERVE if serve else server_command(), server_env=tree.env())
    client = await config.start()
    session = Session(client, profile, tree)
    if settings is not None:
        client.set_configuration({"skillLs": settings}, section="skillLs")
        client._configuration[""] = {"skillLs": settings}

    @client.feature(INDEX_CHANGED)
    def _index_changed(params):
        session.index_changes.append(params)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(params: types.RegistrationParams):
        session.registrations.extend(params.registrations)
        return None

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def _unregister(params: types.UnregistrationParams):
        gone = {u.id for u in params.unregisterations}
        session.registrations[:] = [r for r in session.registrations if r.id not in gone]
        return None

    caps = profile_capabilities(profile)
    roots = folders or [tree.ws]
    result = await asyncio.wait_for(client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=uri(roots[0]), initialization_options=init_options,
        workspace_folders=[types.WorkspaceFolder(uri=uri(r), name=Path(r).name) for r in roots])), TIMEOUT)
    session.capabilities = result.capabilities
    if wait_index:
        await session.wait_index_changes(1)
        if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in session.registrations):
            # a client that watches for the server: the directory watchers follow the first index
            await settle(lambda: any(r.id.startswith("skill-ls-watched-directories")
                                     for r in session.registrations))
    return session


async def close_session(s: Session) -> None:
    try:
        await asyncio.wait_for(s.client.shutdown_session(), 10)
    except Exception:
        pass
    try:
        await asyncio.wait_for(s.client.stop(), 10)
    except Exception:
        pass


@pytest_asyncio.fixture
async def start(tree):
    """`await start(profile, init_options=None, settings=None)` → a Session whose index is built."""
    sessions: list[Session] = []

    async def _start(profile: str, init_options: dict | None = None, settings: dict | None = None,
                     wait_index: bool = True, folders: list[Path] | None = None, serve: bool = False) -> Session:
        session = await open_session(tree, profile, init_options, settings, wait_index, folders, serve)
        sessions.append(session)
        return session

    yield _start
    for s in sessions:
        await close_session(s)


SHARED = pytest.mark.asyncio(loop_scope="session")  # the mark of a test that uses `shared`


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def shared_servers(tmp_path_factory):
    """One server per client profile on the standard tree, started on first use and shared by the
    tests that only read: the feature wiring tests (content is tested in process through
    `skill_ls.analysis.queries`). Nothing changes on disk; buffers a test opens are closed after it."""
    sessions: dict[str, Session] = {}

    async def get(profile: str) -> Session:
        if profile not in sessions:
            tree = Tree(tmp_path_factory.mktemp(f"shared-{profile}")).standard()
            tree.typo = skill(tree.ws / ".agh" / "skills", "typo", extra="licence: MIT\n")  # SK007, fixable
            sessions[profile] = await open_session(tree, profile)
        return sessions[profile]

    yield get
    for s in sessions.values():
        await close_session(s)


@pytest_asyncio.fixture(loop_scope="session")
async def shared(shared_servers, profile) -> Session:
    """The shared server of `profile` (see `shared_servers`); the test runs on the session loop
    (mark it `@SHARED`). Buffers it opened are closed when it ends (the workspace reset)."""
    s = await shared_servers(profile)
    before = set(s.opened)
    yield s
    for u in s.opened - before:
        s.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(u)))
    s.opened &= before


def pytest_generate_tests(metafunc):
    if "profile" in metafunc.fixturenames:  # a module may name its own profiles (`PROFILES = ...`)
        metafunc.parametrize("profile", getattr(metafunc.module, "PROFILES", PROFILES))
