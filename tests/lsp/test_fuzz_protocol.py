"""Issue 15: property-based attacks on the running server over raw stdio (one server per module).

- garbage-typed params for every request and notification the server handles (whole params, or one
  leaf of valid params replaced), answered (result or error) within a bound, server alive after;
- surrogate halves, encoded surrogates and bytes that are not UTF-8 inside protocol messages;
- random incremental edits (with every `str.splitlines` break, CR/LF mixes, astral characters and
  surrogate halves) checked end to end: the diagnostics of the edited buffer must equal those of the
  same text sent whole, i.e. the server's copy never diverges from the editor's.
Counts follow the Hypothesis profile (`ci` default, `long` for the recorded runs)."""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.conftest import skill, write
from tests.lsp.raw import RawServer, frame
from tests.test_documents import EditorModel

REPLY_BOUND = 15.0  # seconds for any answer, on a loaded machine


def scaled(factor: float):
    return settings(max_examples=max(1, int(settings.default.max_examples * factor)),
                    suppress_health_check=list(HealthCheck), deadline=None)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzzproto")
    ws = tmp / "ws"
    skill(ws / ".agh" / "skills", "demo", description="Demo skill. Use when testing.",
          body="# Demo\n\nSee [guide](references/guide.md).\n")
    write(ws / ".agh" / "skills" / "demo" / "references" / "guide.md", "# Guide\n")
    write(ws / ".skill-ls.toml", 'runtimes = ["agh"]\n', dedent=False)
    (tmp / "home").mkdir()
    s = RawServer(tmp / "home")
    s.initialize(ws, capabilities={"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {}}})
    s.ws = ws  # type: ignore[attr-defined]
    yield s
    s.close()


def _probe(s: RawServer) -> None:
    """Alive and right: hover on the demo skill's name names it."""
    path = s.ws / ".agh" / "skills" / "demo" / "SKILL.md"  # type: ignore[attr-defined]
    reply = s.call("textDocument/hover", {"textDocument": {"uri": path.as_uri()},
                                         "position": {"line": 1, "character": 7}}, timeout=REPLY_BOUND)
    assert s.alive() and "demo" in json.dumps(reply.get("result")), reply


# -- garbage params ----------------------------------------------------------------------------------------
DOC = {"uri": "file:///nonexistent/SKILL.md"}
POS = {"line": 1, "character": 3}
RANGE = {"start": POS, "end": {"line": 2, "character": 0}}
REQUESTS: dict[str, Any] = {
    "textDocument/hover": {"textDocument": DOC, "position": POS},
    "textDocument/definition": {"textDocument": DOC, "position": POS},
    "textDocument/references": {"textDocument": DOC, "position": POS, "context": {"includeDeclaration": True}},
    "textDocument/completion": {"textDocument": DOC, "position": POS},
    "textDocument/codeAction": {"textDocument": DOC, "range": RANGE, "context": {"diagnostics": []}},
    "textDocument/codeLens": {"textDocument": DOC},
    "textDocument/documentSymbol": {"textDocument": DOC},
    "textDocument/documentLink": {"textDocument": DOC},
    "textDocument/diagnostic": {"textDocument": DOC},
    "workspace/symbol": {"query": "demo"},
    "workspace/diagnostic": {"previousResultIds": []},
    "workspace/executeCommand": {"command": "skillLs.where", "arguments": [{"name": "demo"}]},
}
NOTIFICATIONS: dict[str, Any] = {
    "textDocument/didOpen": {"textDocument": {**DOC, "languageId": "markdown", "version": 1, "text": "---\n"}},
    "textDocument/didChange": {"textDocument": {**DOC, "version": 2},
                               "contentChanges": [{"range": RANGE, "text": "x"}]},
    "textDocument/didSave": {"textDocument": DOC},
    "textDocument/didClose": {"textDocument": DOC},
    "workspace/didChangeWatchedFiles": {"changes": [{"uri": DOC["uri"], "type": 2}]},
    "$/setTrace": {"value": "off"},
    "$/cancelRequest": {"id": 1},
    "window/workDoneProgress/cancel": {"token": "t"},
}
COMMANDS = ["skillLs.renderCatalog", "skillLs.where", "skillLs.reindex", "skillLs.status", "skillLs.listAgents"]

SCALARS = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40)
           | st.sampled_from(["", "x" * 5000, "\ud83d", "file:///", "file:///%FF", "-1", 2**31, -2**31, 2**53]))
GARBAGE = st.recursive(SCALARS, lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=10), c, max_size=5),
                       max_leaves=15)


def _leaves(value: Any, path: tuple = ()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    yield path


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return value


@st.composite
def garbage_params(draw, table: dict[str, Any]):
    method = draw(st.sampled_from(sorted(table)))
    template = table[method]
    if draw(st.booleans()):
        return method, draw(GARBAGE)
    path = draw(st.sampled_from(list(_leaves(template))))
    params = _replace(template, path, draw(GARBAGE))
    if method == "workspace/executeCommand" and draw(st.booleans()):
        params = {"command": draw(st.sampled_from(COMMANDS)), "arguments": draw(GARBAGE)}
    return method, params


@scaled(1.5)
@given(garbage_params(REQUESTS))
def test_garbage_request_params_are_answered(live, case):
    method, params = case
    start = time.monotonic()
    reply = live.call(method, params, timeout=REPLY_BOUND)
    assert ("result" in reply) != ("error" in reply), reply
    assert time.monotonic() - start < REPLY_BOUND
    assert live.alive()


@scaled(0.5)
@given(garbage_params(NOTIFICATIONS))
def test_garbage_notification_params_are_survived(live, case):
    method, params = case
    live.notify(method, params)
    _probe(live)


# -- surrogates and invalid UTF-8 in messages -------------------------------------------------------------
BAD_BYTES = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xed\xb8\x80", b"\xf0\x9f\x98", b"\x80\x80",
                             b"\\ud83d", b"\\ude00", b"\\ud83d\\ude00", b"\\u0000", b"\xc0\xaf", b"\xf4\x90\x80\x80"])


@scaled(1)
@given(st.sampled_from(sorted(REQUESTS)), st.lists(st.tuples(st.integers(0, 10_000), BAD_BYTES), min_size=1, max_size=4))
def test_bad_encodings_inside_messages(live, method, injections):
    live._next += 1
    msg_id = live._next
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": REQUESTS[method]}).encode()
    # inject only inside strings (keys and values), so the JSON stays JSON; never into the key "id"
    # (a request whose id cannot be read cannot be answered)
    def spans_of(data: bytes) -> list[tuple[int, int]]:
        quotes = [i for i, c in enumerate(data) if c == ord('"')]
        pairs = [(quotes[i] + 1, quotes[i + 1]) for i in range(0, len(quotes) - 1, 2)]
        return [(a, b) for a, b in pairs if data[a:b] != b"id"]

    for where, bad in injections:
        spans = spans_of(body)
        a, b = spans[where % len(spans)]
        pos = a + (where % (b - a + 1))
        body = body[:pos] + bad + body[pos:]
    live.send_bytes(frame(body))
    try:  # an escape split by a later injection (`\\ud\xff83d`) is not JSON any more
        json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        pass  # not JSON: nothing can be answered (no id); the server logs it and goes on
    else:
        reply = live.response(msg_id, timeout=REPLY_BOUND)  # every request with a readable id is answered
        assert ("result" in reply) != ("error" in reply)
    _probe(live)


# -- random incremental edits, end to end -----------------------------------------------------------------
SPLITLINES = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
PIECES = st.sampled_from(list(SPLITLINES) + ["\r\n", "a", "b", " ", ":", "-", "é", "\U0001F600", "\ud83d",
                                             "\ude00", "name: ", "description: ", "bogus: 1", "---", "\n---\n"])
TEXT = st.lists(PIECES, max_size=12).map("".join)
EDIT = st.tuples(st.integers(0, 7), st.integers(0, 20), st.integers(0, 7), st.integers(0, 20), TEXT)
_doc_counter = iter(range(10**9))


def _pull(live: RawServer, uri: str) -> list:
    reply = live.call("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=REPLY_BOUND)
    items = reply["result"]["items"]
    return sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"],
                   d["range"]["end"]["character"], d.get("code"), d["message"]) for d in items)


@scaled(0.25)
@given(st.lists(EDIT, min_size=1, max_size=15))
def test_incremental_edits_never_diverge(live, edits):
    n = next(_doc_counter)
    path: Path = live.ws / ".agh" / "skills" / f"e{n}" / "SKILL.md"  # type: ignore[attr-defined]
    uri = path.as_uri()
    initial = f"---\nname: e{n}\ndescription: x\u2028y\x85z\nbogus: 1\n---\n# Body\u2029text\n"
    model = EditorModel(initial)
    live.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                                          "text": initial}})
    version = 1
    for sl, sc, el, ec, new in edits:
        version += 1
        model.edit(sl, sc, el, ec, new)
        live.send(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}},
                                "text": new}]}}))
    incremental = _pull(live, uri)
    live.send(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version + 1}, "contentChanges": [{"text": model.text()}]}}))
    whole = _pull(live, uri)
    live.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert incremental == whole
