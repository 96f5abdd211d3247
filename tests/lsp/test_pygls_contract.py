"""pygls is pinned to the minor version these tests ran on (pyproject.toml), because the server
overrides some of its methods (server/protocol.py, server/documents.py: the stdio loop, the document
model, a workspace class swapped in at run time). This test fails when pygls no longer calls one
of those overrides: a real server over stdio, driven through initialize, an open document, an
incremental change, a request that fails with our error, and shutdown, with each override counted."""
from __future__ import annotations

import asyncio
import json
import sys

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace
from pygls.protocol import LanguageServerProtocol
from pytest_lsp import ClientServerConfig, client_capabilities

from tests.lsp.conftest import TIMEOUT, settle, uri
from tests.lsp.pygls_spy import OVERRIDES

BASES = {"SkillProtocol": LanguageServerProtocol, "SkillWorkspace": Workspace, "Document": TextDocument}


def test_every_override_replaces_a_pygls_method():
    for cls, name in OVERRIDES:
        assert hasattr(BASES[cls.__name__], name), f"pygls has no {cls.__name__}'s base method {name}"


def test_the_pinned_pygls_is_the_tested_minor_version():
    import re
    from importlib.metadata import version
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    pin = re.search(r'"pygls>=(\d+)\.(\d+)(?:\.\d+)?,<(\d+)\.(\d+)"', pyproject)
    assert pin, "pygls must be pinned to one minor version: pygls>=X.Y,<X.Y+1"
    low, high = (int(pin[1]), int(pin[2])), (int(pin[3]), int(pin[4]))
    assert high == (low[0], low[1] + 1)
    installed = tuple(int(p) for p in version("pygls").split(".")[:2])
    assert installed == low, f"pygls {version('pygls')} installed, {low} pinned"


async def test_pygls_calls_every_override(tree, tmp_path):
    tree.standard()
    out = tmp_path / "counts.json"
    config = ClientServerConfig(server_command=[sys.executable, "-m", "tests.lsp.pygls_spy", str(out)],
                                server_env=tree.env())
    client = await config.start()
    try:
        indexed: list = []

        @client.feature("skillLs/indexChanged")
        def _indexed(params):
            indexed.append(params)

        await asyncio.wait_for(client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=uri(tree.ws),
            workspace_folders=[types.WorkspaceFolder(uri=uri(tree.ws), name="ws")])), TIMEOUT)
        await settle(lambda: indexed)
        text = tree.other.read_text(encoding="utf-8")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(tree.other), language_id="markdown", version=1, text=text)))
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri(tree.other), version=2),
            [types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="")]))
        hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri(tree.other)), types.Position(1, 7))), TIMEOUT)
        assert hover is not None and "skill `other`" in hover.contents.value
        try:  # a command that fails with our JSON-RPC error: answered through _send_handler_result
            await asyncio.wait_for(client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="skillLs.where", arguments=[{}])), TIMEOUT)
        except Exception as exc:
            assert "needs" in str(exc)
        else:
            raise AssertionError("skillLs.where without a name must fail")
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
    finally:
        await asyncio.wait_for(client.stop(), TIMEOUT)
    await settle(lambda: out.exists() and out.read_text())
    counts = json.loads(out.read_text(encoding="utf-8"))
    assert set(counts) == {f"{cls.__name__}.{name}" for cls, name in OVERRIDES}
    assert [k for k, n in counts.items() if n == 0] == [], counts
