"""The server survives malformed requests, out-of-range positions, documents closed mid-request
and edit storms, and still answers afterwards."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.lsp.conftest import TIMEOUT, uri


async def _alive(s):
    assert (await s.command("skillLs.status", {}))["skills"] == 4


def _raw(proto, body: bytes) -> None:
    """Write bytes straight to the server's stdin, bypassing the client's typed serialisation."""
    res = proto.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    if asyncio.iscoroutine(res):
        asyncio.ensure_future(res)


async def _raw_request(proto, method: str, params, msg_id: str):
    import json

    fut = asyncio.get_running_loop().create_future()
    proto._request_futures[msg_id] = fut
    _raw(proto, json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode())
    return await asyncio.wait_for(fut, TIMEOUT)


async def test_malformed_requests(start, tree, profile):
    tree.standard()
    s = await start(profile)
    proto = s.client.protocol
    for i, (method, params) in enumerate([("textDocument/hover", {"bogus": 1}), ("textDocument/definition", None),
                           ("textDocument/completion", {"textDocument": {"uri": 42}, "position": "x"}),
                           ("skillLs/unknownMethod", {}), ("workspace/executeCommand", {"command": "nope"})]):
        with pytest.raises(JsonRpcException):
            await _raw_request(proto, method, params, f"raw-{i}")
    _raw(proto, b'{"jsonrpc": "2.0", "id": "broken", "method": ')  # not even JSON
    _raw(proto, b'[1, 2, 3]')
    with pytest.raises(JsonRpcException):
        await s.command("skillLs.where", {"name": 7})
    with pytest.raises(JsonRpcException):
        await asyncio.wait_for(s.client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="skillLs.renderCatalog", arguments=["not an object"])), TIMEOUT)
    # notifications with garbage are dropped, not fatal
    _raw(proto, b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": '
                b'{"uri": "file:///nowhere"}, "contentChanges": 5}}')
    _raw(proto, b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": null}}')
    await _alive(s)


async def test_out_of_range_positions(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.ws_demo)
    doc = types.TextDocumentIdentifier(uri(tree.ws_demo))
    for pos in [types.Position(10_000, 0), types.Position(1, 10_000), types.Position(0, 2**31 - 1)]:
        await s.request(s.client.text_document_hover_async(types.HoverParams(doc, pos)))
        await s.request(s.client.text_document_definition_async(types.DefinitionParams(doc, pos)))
        await s.request(s.client.text_document_completion_async(types.CompletionParams(doc, pos)))
    bad_range = types.Range(types.Position(500, 0), types.Position(900, 3))
    await s.request(s.client.text_document_code_action_async(types.CodeActionParams(
        doc, bad_range, types.CodeActionContext(diagnostics=[]))))
    await _alive(s)


async def test_document_closed_mid_request(start, tree, profile):
    tree.standard()
    s = await start(profile)
    gone = tree.ws / "never" / "SKILL.md"
    for path in (tree.ws_demo, gone):
        text = "---\nname: demo\ndescription: x\n---\n"
        s.open(path, text=text)
        doc = types.TextDocumentIdentifier(uri(path))
        pending = [
            s.client.text_document_hover_async(types.HoverParams(doc, types.Position(1, 7))),
            s.client.text_document_definition_async(types.DefinitionParams(doc, types.Position(1, 7))),
            s.client.text_document_document_symbol_async(types.DocumentSymbolParams(doc)),
            s.client.text_document_code_lens_async(types.CodeLensParams(doc)),
        ]
        s.client.text_document_did_close(types.DidCloseTextDocumentParams(doc))
        await asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), TIMEOUT)
        # and requests about a document that is closed (or never existed) afterwards
        await s.request(s.client.text_document_hover_async(types.HoverParams(doc, types.Position(1, 7))))
        await s.request(s.client.text_document_document_link_async(types.DocumentLinkParams(doc)))
    await _alive(s)


async def test_edit_storm(start, tree, profile):
    tree.standard()
    s = await start(profile)
    path = tree.other
    base = path.read_text()
    s.open(path, version=1)
    last = 400
    for v in range(2, last + 1):
        text = base if v == last else base.replace("description: Other skill.", f"description: {'x' * (v % 7)}\n{v}")
        s.change(path, text, version=v)
    items = await s.diagnostics(path, lambda ds: not any(d.code in ("SK003", "SK005") for d in ds))
    assert not any(d.code == "SK003" for d in items)
    if not s.pull:
        # The final state (after the last version's publish) has no SK003. Under load, publishes for
        # intermediate versions may still arrive after the first clean one, so wait for the state
        # to settle instead of sampling once.
        loop = asyncio.get_running_loop()
        deadline, clean_since = loop.time() + 10, None
        while loop.time() < deadline:
            clean = not any(d.code == "SK003" for d in s.client.diagnostics[uri(path)])
            clean_since = (clean_since or loop.time()) if clean else None
            if clean_since is not None and loop.time() - clean_since >= 0.5:
                break
            await asyncio.sleep(0.05)
        assert not any(d.code == "SK003" for d in s.client.diagnostics[uri(path)])
    await _alive(s)


def test_the_index_graph_is_collected_once_then_frozen(monkeypatch):
    """After an index build the server runs one full collection and freezes what survives (the index
    graph): later releases only trim memory. A full collection per release rescanned the whole index
    (~0.2 s on the event loop at 10,000 skills, right when a change on disk was being answered)."""
    import gc

    from skill_ls.server import app, publishing

    collections = []
    monkeypatch.setattr(publishing.gc, "collect", lambda *a: collections.append(a) or 0)
    ls = app.SkillLanguageServer()
    try:
        ls.release_texts_soon()  # no running loop: released at once
        assert len(collections) == 1 and gc.get_freeze_count() > 0
        ls.release_texts_soon()
        assert len(collections) == 1  # frozen: nothing to rescan
    finally:
        gc.unfreeze()
