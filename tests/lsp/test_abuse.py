"""Language-server abuse over stdio (issue 7). After every attack the server must still answer a hover
on a skill name correctly (the winning tier of `demo`), so "did not crash" also means "still right".

- malformed JSON-RPC: raw bytes written to the server's stdin in a plain subprocess (bad headers,
  wrong/negative/huge Content-Length, invalid UTF-8, non-objects, wrong types), and through the
  pytest-lsp client's transport;
- unknown methods (requests and notifications, `$/` and plain);
- out-of-range and negative positions in every position-taking request;
- requests for closed and never-opened documents, and non-file URIs;
- 1,000 rapid didChange notifications;
- didChange racing a re-index (`skillLs.reindex`);
- a watched root deleted while indexed.
Every wait is bounded by asyncio.wait_for (or a subprocess timeout).
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.conftest import skill
from tests.lsp.conftest import TIMEOUT, uri


def _name_pos(path: Path) -> types.Position:
    for i, line in enumerate(path.read_text().splitlines()):
        if line.startswith("name: "):
            return types.Position(i, 7)
    raise AssertionError(path)


async def hover_ok(s, tree) -> None:
    """The liveness-and-correctness probe: hover on the user copy's name names the workspace winner."""
    h = await asyncio.wait_for(s.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(tree.user_demo)), _name_pos(tree.user_demo))), TIMEOUT)
    assert h is not None and "winner: `workspace`" in h.contents.value, h


def _raw(proto, body: bytes, header: bytes | None = None) -> None:
    data = (header if header is not None else b"Content-Length: %d\r\n\r\n" % len(body)) + body
    res = proto.writer.write(data)
    if asyncio.iscoroutine(res):
        asyncio.ensure_future(res)


_ids = iter(range(10**9))


async def raw_request(s, method: str, params):
    """A request written as raw JSON (bypassing the client's typed serialisation); the reply is awaited
    with a timeout. An error reply raises JsonRpcException (an answer); a hang fails the test."""
    proto = s.client.protocol
    msg_id = f"abuse-{next(_ids)}"
    fut = asyncio.get_running_loop().create_future()
    proto._request_futures[msg_id] = fut
    _raw(proto, json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode())
    return await asyncio.wait_for(fut, TIMEOUT)


def raw_notify(s, method: str, params) -> None:
    _raw(s.client.protocol, json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())


# -- malformed JSON-RPC through a raw pipe (no client library in between) ----------------------------
def _frame(obj) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    def __init__(self, tree):
        self.errlog = open(tree.tmp / "raw-server.err", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "skill_ls", "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errlog, env=tree.env(), cwd=str(tree.tmp))
        self.buf = b""

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _read_message(self, deadline: float) -> dict:
        import select

        while True:
            sep = self.buf.find(b"\r\n\r\n")
            if sep >= 0:
                m = re.search(rb"Content-Length: (\d+)", self.buf[:sep])
                assert m, f"server wrote a frame without Content-Length: {self.buf[:200]!r}"
                end = sep + 4 + int(m.group(1))
                if len(self.buf) >= end:
                    body, self.buf = self.buf[sep + 4:end], self.buf[end:]
                    try:
                        return json.loads(body)
                    except ValueError:
                        raise AssertionError(f"server wrote a corrupt frame: {body[:3000]!r}") from None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no message from the server")
            ready, _, _ = select.select([self.proc.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError("server closed stdout (exit code %s)" % self.proc.poll())
                self.buf += chunk

    def wait_for(self, msg_id, timeout: float = TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = self._read_message(deadline)
            if msg.get("id") == msg_id and ("result" in msg or "error" in msg):
                return msg

    def request(self, msg_id, method: str, params) -> dict:
        self.send(_frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}))
        return self.wait_for(msg_id)

    def close(self) -> None:
        try:
            self.send(_frame({"jsonrpc": "2.0", "id": "bye", "method": "shutdown", "params": None}))
            self.wait_for("bye", 10)
            self.send(_frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
            self.proc.wait(timeout=10)
        except Exception:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.errlog.close()


GARBAGE = [
    b"Content-Length: 5\r\n\r\n{]}{]",                         # not JSON
    b"Content-Length: 4\r\n\r\n\xff\xfe\x00\x01",                 # not UTF-8
    b"Content-Length: 2\r\n\r\n[]",                             # an empty batch
    b"Content-Length: 9\r\n\r\n[1, 2, 3]",                      # a batch of garbage
    b"Content-Length: 4\r\n\r\nnull",
    b"Content-Length: 2\r\n\r\n42",
    b"Content-Length: 17\r\n\r\n{\"jsonrpc\": \"1.0\"}",
    b"Content-Type: application/vscode-jsonrpc; charset=latin-1\r\nContent-Length: 2\r\n\r\n{}",
    b"X-Nonsense: yes\r\n\r\n",                                 # a header block without a length
    b"Content-Length: -5\r\n\r\n",                              # negative length
    b"Content-Length: abc\r\n\r\n",                             # non-numeric length
    b"garbage line without a colon\r\n\r\n",
    _frame({"jsonrpc": "2.0", "id": 1.5, "method": "textDocument/hover", "params": "nope"}),
    _frame({"jsonrpc": "2.0", "id": None, "method": "textDocument/hover", "params": {}}),
    _frame({"jsonrpc": "2.0", "id": [1], "method": "initialize", "params": {}}),
    _frame({"jsonrpc": "2.0", "method": 42, "params": {}}),
    _frame({"jsonrpc": "2.0", "id": "r1", "result": {"unsolicited": True}}),  # a response to nothing
    _frame({"jsonrpc": "2.0", "id": "r2", "error": {"code": -1, "message": "x"}}),
    _frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///x/SKILL.md", "languageId": "markdown", "version": "one", "text": 5}}}),
    _frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "never-sent"}}),
    _frame({"jsonrpc": "2.0", "method": "$/setTrace", "params": {"value": "bogus"}}),
]


def test_malformed_json_rpc_raw_bytes(tree):
    tree.standard()
    server = RawServer(tree)
    try:
        init = server.request(0, "initialize", {"processId": None, "rootUri": uri(tree.ws), "capabilities": {},
                                                "workspaceFolders": [{"uri": uri(tree.ws), "name": "ws"}]})
        assert "result" in init, init
        server.send(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        text = tree.user_demo.read_text()
        server.send(_frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri(tree.user_demo), "languageId": "markdown", "version": 1, "text": text}}}))
        hover = {"textDocument": {"uri": uri(tree.user_demo)}, "position": {"line": 1, "character": 7}}

        def hover_winner(i) -> None:
            deadline = time.monotonic() + TIMEOUT
            while True:  # the first hovers may race the initial index
                res = server.request(f"h{i}-{time.monotonic()}", "textDocument/hover", hover)
                value = ((res.get("result") or {}).get("contents") or {}).get("value", "")
                if "winner: `workspace`" in value:
                    return
                assert time.monotonic() < deadline, res
                time.sleep(0.1)

        hover_winner(-1)
        for i, garbage in enumerate(GARBAGE):
            server.send(garbage)
            # A frame that lost its length makes the next header part of the "body": resynchronise
            # the way a client would, with a blank frame boundary, then prove the server answers.
            server.send(b"\r\n\r\n")
            try:
                hover_winner(i)
            except (TimeoutError, AssertionError):
                # Some garbage legitimately eats the next message (e.g. a header block without a
                # length); one retry after a fresh frame must succeed.
                hover_winner(f"{i}-retry")
            assert server.proc.poll() is None, f"server died after garbage #{i}: {garbage[:60]!r}"
    finally:
        server.close()
    err = (tree.tmp / "raw-server.err").read_text(errors="replace")
    assert "Traceback" not in err or "Error" in err  # logged problems are fine; the process lived


async def test_malformed_json_rpc_via_transport(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    proto = s.client.protocol
    for body in (b'{"jsonrpc": "2.0", "id": "x", "method": ', b"[1, 2, 3]", b"\"just a string\"", b"{}",
                 b'{"jsonrpc": "2.0", "id": "y", "method": "textDocument/hover", "params": {"textDocument": 7}}',
                 b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": 1}}}',
                 b'{"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {"changes": [{"uri": '
                 b'"file:///nowhere/SKILL.md", "type": 99}, {"uri": 5}]}}',
                 b'{"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": '
                 b'{"skillLs": {"runtimes": 5, "rules": [1], "agh": {"bundledRoots": {"x": 1}}}}}}'):
        _raw(proto, body)
    await hover_ok(s, tree)


async def test_unknown_methods(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    for method in ("skillLs/doesNotExist", "textDocument/teleport", "workspace/frobnicate", "$/unknownRequest"):
        with pytest.raises(JsonRpcException):
            await raw_request(s, method, {})
    for method in ("$/unknownNotification", "textDocument/unknownNotification", "custom/notify"):
        raw_notify(s, method, {"x": 1})
    with pytest.raises(JsonRpcException):
        await s.command("skillLs.noSuchCommand", {})
    await hover_ok(s, tree)


async def test_out_of_range_and_negative_positions(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.ws_demo)
    s.open(tree.user_demo)
    doc = uri(tree.ws_demo)
    positions = [{"line": -1, "character": 0}, {"line": 0, "character": -5}, {"line": -2**31, "character": -2**31},
                 {"line": 10_000, "character": 0}, {"line": 1, "character": 10_000}, {"line": 2**31 - 1,
                                                                                       "character": 2**31 - 1},
                 {"line": 2**40, "character": 0}, {"line": 1.5, "character": "x"}]
    methods = ["textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
               "textDocument/signatureHelp", "textDocument/documentHighlight", "textDocument/prepareRename"]
    for pos in positions:
        for method in methods:
            params = {"textDocument": {"uri": doc}, "position": pos}
            if method == "textDocument/references":
                params["context"] = {"includeDeclaration": True}
            try:
                await raw_request(s, method, params)
            except JsonRpcException:
                pass  # an error reply is an answer; a crash or a hang is not
        rng = {"start": pos, "end": {"line": pos["line"], "character": 3} if isinstance(pos["line"], int) else pos}
        for method, extra in (("textDocument/codeAction", {"context": {"diagnostics": []}}),
                              ("textDocument/inlayHint", {}), ("textDocument/rangeFormatting", {"options": {
                                  "tabSize": 2, "insertSpaces": True}})):
            try:
                await raw_request(s, method, {"textDocument": {"uri": doc}, "range": rng, **extra})
            except JsonRpcException:
                pass
    await hover_ok(s, tree)


async def test_requests_for_closed_and_unknown_documents(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    s.open(tree.ws_demo)
    s.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri(tree.ws_demo))))
    s.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(
        uri(tree.ws / "never-opened" / "SKILL.md"))))
    docs = [uri(tree.ws_demo), uri(tree.ws / "never-opened" / "SKILL.md"), uri(tree.ws / "dir-only"),
            "untitled:Untitled-1", "http://example.invalid/SKILL.md", "file:///", "not a uri", "file:///%ZZ/%00.md",
            uri(tree.ws) + "/../../../etc/passwd"]
    (tree.ws / "dir-only").mkdir()
    for d in docs:
        for method, extra in (("textDocument/hover", {"position": {"line": 1, "character": 7}}),
                              ("textDocument/definition", {"position": {"line": 1, "character": 7}}),
                              ("textDocument/completion", {"position": {"line": 1, "character": 0}}),
                              ("textDocument/documentSymbol", {}), ("textDocument/documentLink", {}),
                              ("textDocument/codeLens", {}), ("textDocument/diagnostic", {})):
            try:
                await raw_request(s, method, {"textDocument": {"uri": d}, **extra})
            except JsonRpcException:
                pass
        raw_notify(s, "textDocument/didChange", {"textDocument": {"uri": d, "version": 9},
                                                 "contentChanges": [{"text": "---\nname: x\n---\n"}]})
        raw_notify(s, "textDocument/didSave", {"textDocument": {"uri": d}})
    await hover_ok(s, tree)


async def test_thousand_rapid_did_change(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    path = tree.ws_demo
    base = path.read_text()
    s.open(path, version=1)
    for v in range(2, 1002):
        if v % 3 == 0:
            text = base.replace("name: demo", "name: " + "d" * (v % 50))
        elif v % 3 == 1:
            text = base[: v % len(base)]  # cut mid-frontmatter: unterminated, invalid YAML, ...
        else:
            text = base + "\n" + "x" * v
        s.change(path, text, version=v)
    s.change(path, base, version=1002)
    items = await s.diagnostics(path, lambda ds: not any(d.code in ("SK002", "SK003", "SK009") for d in ds))
    assert not any(d.code in ("SK002", "SK003") for d in items)
    await hover_ok(s, tree)


async def test_incremental_changes_out_of_range(start, tree, profile):
    """Incremental edits whose ranges point past the end or backwards are applied defensively."""
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    s.open(tree.ws_demo, version=1)
    bad_ranges = [((500, 0), (600, 0)), ((0, 500), (0, 900)), ((3, 0), (1, 0)), ((-1, -1), (0, 0))]
    for i, ((a, b), (c, d)) in enumerate(bad_ranges):
        raw_notify(s, "textDocument/didChange", {
            "textDocument": {"uri": uri(tree.ws_demo), "version": 2 + i},
            "contentChanges": [{"range": {"start": {"line": a, "character": b}, "end": {"line": c, "character": d}},
                                "text": "zz\ud83d\ude00"}]})
    s.change(tree.ws_demo, tree.ws_demo.read_text(), version=10)
    await hover_ok(s, tree)


async def test_did_change_racing_reindex(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    path = tree.ws_demo
    base = path.read_text()
    s.open(path, version=1)
    pending = []
    for v in range(2, 202):
        s.change(path, base.replace("Workspace demo.", f"Workspace demo {v}."), version=v)
        if v % 20 == 0:
            pending.append(asyncio.ensure_future(s.command("skillLs.reindex", {})))
        if v % 50 == 0:  # the disk changes under the index too
            skill(tree.ws / ".agh" / "skills", f"extra{v}")
    results = await asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), TIMEOUT * 3)
    assert not any(isinstance(r, BaseException) and not isinstance(r, JsonRpcException) for r in results), results
    s.change(path, base, version=500)
    await asyncio.wait_for(s.command("skillLs.reindex", {}), TIMEOUT)
    await hover_ok(s, tree)
    where = await s.command("skillLs.where", {"name": "extra200"})
    assert where["entries"], where


async def test_watched_root_deleted_while_indexed(start, tree, profile):
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    s.open(tree.other)
    # Delete a whole watched root outside the workspace (the bundled root) and the workspace's
    # skills root; then recreate the workspace winner. Notify as a client would (and watchdog sees it).
    shutil.rmtree(tree.bundled)
    shutil.rmtree(tree.ws / ".agh" / "skills")
    s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri(tree.ws_demo), type=types.FileChangeType.Deleted),
        types.FileEvent(uri=uri(tree.other), type=types.FileChangeType.Deleted),
        types.FileEvent(uri=uri(tree.ws / ".agh" / "skills"), type=types.FileChangeType.Deleted)]))

    async def winner_is_user():
        h = await asyncio.wait_for(s.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri(tree.user_demo)), _name_pos(tree.user_demo))), TIMEOUT)
        return h is not None and "winner: `user`" in h.contents.value

    deadline = time.monotonic() + TIMEOUT
    while not await winner_is_user():
        assert time.monotonic() < deadline, "the deleted workspace copy still wins"
        await asyncio.sleep(0.1)
    # The whole AGH home disappears too.
    shutil.rmtree(tree.agh_home)
    await s.idle()
    await asyncio.wait_for(s.command("skillLs.reindex", {}), TIMEOUT)
    # Recreate the standard tree: the server must come back to the right answer.
    tree.standard()
    s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri(tree.ws_demo), type=types.FileChangeType.Created),
        types.FileEvent(uri=uri(tree.other), type=types.FileChangeType.Created)]))
    await asyncio.wait_for(s.command("skillLs.reindex", {}), TIMEOUT)
    s.open(tree.user_demo, version=7)
    await hover_ok(s, tree)


HOSTILE_DOCS = {
    "alias-bomb": "---\nname: demo\n" + "\n".join(["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] + [
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]) + "\n---\nBody\n",
    "recursive-alias": "---\nname: demo\nmetadata: &m {agh: *m}\n---\nBody\n",
    "deep-nesting": "---\nname: demo\n" + "? " * 100_000 + "x\n---\n",
    "deep-indent": "---\nname: demo\n" + "".join(" " * i + f"k{i}:\n" for i in range(1_500)) + "---\n",
    "hostile-lines": "---\nname: demo\ndescription: d\n---\n" + "[" * 30_000 + "](\n" + "`" * 30_000 + "\n"
                     + "<!-- skill-ls: disable=" + " " * 30_000 + "\n" + "agh__skill_view " * 5_000 + "\n"
                     + "# " + " #" * 10_000 + "\n",
    "big": "---\nname: demo\ndescription: " + "d" * 3_000_000 + "\n---\n" + "line\n" * 100_000,
    "binaryish": "---\nname: \x00\ud800\ufeff\u202e\n---\n\x00" * 50,
}


async def test_hostile_documents(start, tree, profile):
    """Documents built to hurt the parser and the per-line features are opened, edited and queried."""
    tree.standard()
    s = await start(profile)
    s.open(tree.user_demo)
    target = tree.ws / ".agh" / "skills" / "hostile" / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text("---\nname: hostile\ndescription: d\n---\n")
    s.open(target, version=1)
    doc = {"uri": uri(target)}
    for v, (name, text) in enumerate(sorted(HOSTILE_DOCS.items()), start=2):
        s.change(target, text, version=v)
        for method, extra in (("textDocument/documentSymbol", {}), ("textDocument/codeLens", {}),
                              ("textDocument/documentLink", {}), ("textDocument/foldingRange", {}),
                              ("textDocument/hover", {"position": {"line": 1, "character": 7}}),
                              ("textDocument/completion", {"position": {"line": 2, "character": 0}}),
                              ("textDocument/definition", {"position": {"line": 4, "character": 3}}),
                              ("textDocument/codeAction", {"range": {"start": {"line": 0, "character": 0},
                                                                     "end": {"line": 3, "character": 0}},
                                                           "context": {"diagnostics": []}})):
            try:
                await raw_request(s, method, {"textDocument": doc, **extra})
            except JsonRpcException:
                pass
        await hover_ok(s, tree)
