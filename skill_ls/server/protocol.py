"""Message guards between the wire and pygls: framing, decoding, structuring, lifecycle.

Each guard fixes, in our layer, a failure of pygls 2.x under hostile input (docs/reliability.md):

- framing (`serve_stdio`): a `Content-Length` over `MAX_CONTENT_LENGTH` (10^12 was a MemoryError,
  10^20 an OverflowError, 2^31 a wait for 2 GB that never came) is refused and the reader
  re-synchronises at the next header; header lines are read with a bound;
- decoding: a body that is not valid UTF-8 is decoded with replacement characters and handled (pygls
  dropped it, so every later incremental edit applied to a stale text);
- structuring (`converter`): cattrs stops at the first error instead of collecting one per element
  (`previousResultIds` as a 100,000-character string blocked the loop 13 s and 1,000,000 crashed);
  a request whose params do not structure is answered with InvalidParams, never dropped;
- lifecycle (`SkillProtocol.handle_message`): requests before `initialize` get ServerNotInitialized
  (they waited 120 s), a second `initialize` gets InvalidRequest (it re-rooted the server), only the
  first `initialized` is handled (each one started watcher threads), requests after `shutdown` get
  InvalidRequest (they were never answered), `exit` without `shutdown` exits 1 (it exited 0);
- memory: pygls keeps the future of every generator-handled notification (`didOpen`, `didChange`,
  `didClose`: its built-in handlers) in `_request_futures` under a fresh uuid and never removes it,
  about 2.3 KB per keystroke; the entry is removed when the notification is done.
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
import threading
from typing import Any, BinaryIO, Callable
from urllib.parse import unquote

import cattrs
from lsprotocol import converters, types
from pygls.exceptions import (JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcServerNotInitialized)
from pygls.protocol import (JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage,
                            LanguageServerProtocol, lsp_method)
from pygls.protocol import _params_field_structure_hook, _result_field_structure_hook

from skill_ls.server.documents import adopt

log = logging.getLogger("skill_ls.server.protocol")

MAX_CONTENT_LENGTH = 128 * 1024 * 1024  # a whole document in one didOpen; the index reads 16 MiB per file
MAX_HEADER_LINE = 8192
_HEADER = re.compile(rb"content-length:[ \t]*(\d+)[ \t]*\r?\n$", re.I)

_ANSWERED = object()  # a malformed message that was already answered (or deliberately ignored)


# Requests under the per-request boundary whose empty answer is `null` (LSP allows it for each):
# a failure while answering one is logged and answered with nothing rather than an InternalError.
EMPTY_ANSWER: dict[str, Any] = {method: None for method in (
    types.TEXT_DOCUMENT_HOVER, types.TEXT_DOCUMENT_DEFINITION, types.TEXT_DOCUMENT_REFERENCES,
    types.TEXT_DOCUMENT_COMPLETION, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, types.TEXT_DOCUMENT_DOCUMENT_LINK,
    types.TEXT_DOCUMENT_CODE_LENS, types.TEXT_DOCUMENT_CODE_ACTION, types.WORKSPACE_SYMBOL)}


def converter() -> cattrs.Converter:
    """lsprotocol's converter, failing fast: the first structuring error ends the attempt, instead
    of one error object per element of a string or list that should have been something else."""
    conv = converters.get_converter(cattrs.Converter(detailed_validation=False))
    conv.register_structure_hook(JsonRPCRequestMessage, _params_field_structure_hook)
    conv.register_structure_hook(JsonRPCResponseMessage, _result_field_structure_hook)
    conv.register_structure_hook(JsonRPCNotification, _params_field_structure_hook)
    return conv


class SkillProtocol(LanguageServerProtocol):
    """pygls's protocol with the guards of this module."""

    def __init__(self, server: Any, conv: cattrs.Converter) -> None:
        super().__init__(server, conv)
        self.initialize_seen = False
        self.initialized_seen = False
        self.exit_code: int | None = None
        self._methods: dict[Any, str] = {}  # id -> method of a request under the per-request boundary

    # -- structuring -------------------------------------------------------------------------------
    def structure_message(self, data: Any) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException:
            if not isinstance(data, dict) or "method" not in data:
                # A response we cannot read, or a message with unknown keys.
                log.warning("ignoring a message that does not structure: keys %.200r", list(data)[:10]
                            if isinstance(data, dict) else type(data).__name__)
                if isinstance(data, dict) and "result" not in data and "error" not in data:
                    self._answer_invalid(data)
                return _ANSWERED
            method = data.get("method")
            if "id" in data and isinstance(data["id"], (str, int)) and not isinstance(data["id"], bool):
                self._send_response(data["id"], error=JsonRpcInvalidParams(
                    f"Invalid params for {str(method)[:100]!r}").to_response_error())
            else:
                log.warning("ignoring malformed %.100r notification", method)
            return _ANSWERED

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        """A request that fails with a JSON-RPC error of ours (an unknown agent, a bad argument) is
        an answer, not a crash: reply with the error and log one line, not a traceback.

        The per-request boundary: any other failure of a request about a position or a document
        (a hostile file that a query does not survive) is logged and answered with the request's
        empty answer (`null`), so the client goes on as if there were nothing there; a command's
        failure is an InternalError saying "skill-ls could not …" in one line."""
        if not future.cancelled() and isinstance(future.exception(), JsonRpcException):
            exc = future.exception()
            self._request_futures.pop(msg_id, None)
            self._methods.pop(msg_id, None)
            log.info("request %s failed: %s", msg_id, exc)
            self._send_response(msg_id, error=exc.to_response_error())
            return
        if not future.cancelled() and isinstance(future.exception(), Exception):
            exc = future.exception()
            self._request_futures.pop(msg_id, None)
            method = self._methods.pop(msg_id, None)
            log.error("request %s (%s) failed", msg_id, method, exc_info=exc)
            if method in EMPTY_ANSWER:
                self._send_response(msg_id, result=EMPTY_ANSWER[method])
            else:
                self._send_response(msg_id, error=JsonRpcInternalError(
                    f"skill-ls could not answer {str(method)[:100]}: {type(exc).__name__}: "
                    f"{' '.join(str(exc).split())[:300]}").to_response_error())
            return
        self._methods.pop(msg_id, None)
        super()._send_handler_result(future, msg_id=msg_id)

    # -- lifecycle ---------------------------------------------------------------------------------
    def handle_message(self, message: Any) -> Any:
        if message is _ANSWERED:
            return None
        if not hasattr(message, "jsonrpc"):
            log.warning("ignoring a message that is not JSON-RPC: %.200r", message)
            if isinstance(message, dict) and "result" not in message and "error" not in message:
                self._answer_invalid(message)
            return None
        method = getattr(message, "method", None)
        msg_id = getattr(message, "id", None)
        is_request = method is not None and msg_id is not None
        if message.jsonrpc != self.VERSION:
            log.warning("ignoring a message of JSON-RPC version %.20r", message.jsonrpc)
            if is_request:
                self._refuse(msg_id, JsonRpcInvalidRequest("not a JSON-RPC 2.0 message"))
            return None
        if method == types.EXIT:
            self.exit_code = 0 if self._shutdown else 1
            return super().handle_message(message)
        if self._shutdown:
            if is_request:
                self._refuse(msg_id, JsonRpcInvalidRequest("the server is shut down: only 'exit' is accepted"))
            return None
        if not self.initialize_seen:
            if method == types.INITIALIZE and is_request:
                self.initialize_seen = True
                return super().handle_message(message)
            if is_request:
                self._refuse(msg_id, JsonRpcServerNotInitialized("the server is not initialized yet"))
            return None  # notifications before initialize are dropped (LSP)
        if method == types.INITIALIZE:
            if is_request:
                self._refuse(msg_id, JsonRpcInvalidRequest("the server is already initialized"))
            return None
        if is_request and (method in EMPTY_ANSWER or method == types.WORKSPACE_EXECUTE_COMMAND):
            if len(self._methods) > 10_000:  # (never: each answer removes its entry; a bound all the same)
                self._methods.clear()
            self._methods[msg_id] = method
        if method == types.INITIALIZED:
            if self.initialized_seen:
                log.warning("ignoring a repeated 'initialized' notification")
                return None
            self.initialized_seen = True
        return super().handle_message(message)

    def _answer_invalid(self, data: dict[str, Any]) -> None:
        """JSON-RPC: an invalid request object whose id can be read gets InvalidRequest."""
        msg_id = data.get("id")
        if isinstance(msg_id, (str, int)) and not isinstance(msg_id, bool):
            self._refuse(msg_id, JsonRpcInvalidRequest("not a valid JSON-RPC 2.0 request"))

    def _refuse(self, msg_id: Any, error: JsonRpcException) -> None:
        self._send_response(msg_id, error=error.to_response_error())

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Any:
        """pygls's initialize, with our document model in the workspace it creates. Pull diagnostics
        are advertised only to clients that get them by pull (see `choose_pull`): a client offered
        both would show pulled and pushed findings twice (Neovim keeps them in separate namespaces)."""
        gen = super().lsp_initialize(params)
        try:
            step = next(gen)
        except StopIteration as stop:
            adopt(self.workspace)
            result = stop.value
        else:
            adopt(self.workspace)
            while True:
                value = yield step
                try:
                    step = gen.send(value)
                except StopIteration as stop:
                    result = stop.value
                    break
        if result is not None and not getattr(self._server, "pull", True):
            result.capabilities.diagnostic_provider = None
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        """A change to a document that is not open is ignored (there is no text to apply it to)."""
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            log.warning("ignoring a change to a document that is not open: %.200s", params.text_document.uri)
            return None
        return (yield from super().lsp_text_document__did_change(params))

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """`$/cancelRequest` for a request that is already answered is the normal case (an editor
        cancels a hover or code lens it no longer needs, often after the answer left): nothing to do,
        and nothing to log (pygls warned "Cancel notification for unknown message id" each time, which
        filled VS Code's output channel)."""
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)

    # -- memory ------------------------------------------------------------------------------------
    def _execute_handler(self, msg_id: Any, handler: Any, callback: Callable[..., Any],
                         args: Any = None, kwargs: Any = None) -> None:
        inner = isinstance(callback, functools.partial) and callback.func == self._run_generator
        if callback == self._check_handler_result or inner:
            # A notification (nobody can cancel it by id), or the step a generator handler yields to
            # (`workspace/executeCommand` runs every command this way) under a fresh uuid: pygls
            # stores its future and never removes it (1.8-5.7 KB per command, more per big answer).
            futures = self._request_futures

            def done(future: Any, _inner: Callable[..., Any] = callback) -> None:
                futures.pop(msg_id, None)
                _inner(future)

            callback = done
        super()._execute_handler(msg_id, handler, callback, args, kwargs)


# -- framing ---------------------------------------------------------------------------------------
class FdReader:
    """`readline(limit)` and `read(n)` straight from a file descriptor. Not `sys.stdin.buffer`: a
    daemon thread blocked inside a BufferedReader holds its lock, and the interpreter aborts at exit
    (SIGABRT, "could not acquire lock for <stdin> at interpreter shutdown")."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""
        self.eof = False

    def _fill(self) -> bool:
        if self.eof:
            return False
        try:
            chunk = os.read(self.fd, 1 << 16)
        except InterruptedError:  # pragma: no cover - retried by Python already
            return True
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def readline(self, limit: int = -1) -> bytes:
        while True:
            end = self.buf.find(b"\n")
            if end != -1 and (limit < 0 or end < limit):
                line, self.buf = self.buf[:end + 1], self.buf[end + 1:]
                return line
            if 0 <= limit <= len(self.buf):
                line, self.buf = self.buf[:limit], self.buf[limit:]
                return line
            if not self._fill():
                line, self.buf = self.buf, b""
                return line

    def read(self, n: int) -> bytes:
        while len(self.buf) < n and self._fill():
            pass
        data, self.buf = self.buf[:n], self.buf[n:]
        return data


def _read_message(stdin: Any) -> bytes | None:
    """The next message body from the stream (blocking; run in a thread), None at end of input.
    Oversized or malformed framing is logged and skipped, never trusted."""
    length: int | None = None
    while True:
        line = stdin.readline(MAX_HEADER_LINE)
        if not line:
            return None
        if not line.endswith(b"\n"):  # an over-long header line: not a header, skip it whole
            while line and not line.endswith(b"\n"):
                line = stdin.readline(MAX_HEADER_LINE)
            length = None
            continue
        if line in (b"\r\n", b"\n"):
            if length is None:
                continue  # a blank line without a length header: nothing to read
            if length > MAX_CONTENT_LENGTH:
                log.error("refusing a message of %d bytes (limit %d); waiting for the next header",
                          length, MAX_CONTENT_LENGTH)
                length = None
                continue
            body = _read_exactly(stdin, length)
            return body
        m = _HEADER.search(line)  # search, not match: re-synchronises after a body without a newline
        if m:
            length = int(m.group(1)) if len(m.group(1)) <= 20 else MAX_CONTENT_LENGTH + 1
        # other headers (Content-Type) are accepted and ignored


def _read_exactly(stdin: Any, length: int) -> bytes:
    chunks, remaining = [], length
    while remaining > 0:
        chunk = stdin.read(min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def decode_body(body: bytes) -> str:
    """A message body as text. Bytes that are not valid UTF-8 are kept as escapes (U+DC80..U+DCFF,
    Python's `surrogateescape`): an editor that splits a paste inside a multi-byte character sends its
    halves in two changes, each invalid alone, and the document model rejoins them
    (`documents.join_surrogates`); anything still unpaired reaches the analysis as U+FFFD."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        log.warning("message body is not valid UTF-8 (byte %d); keeping the invalid bytes as escapes", exc.start)
        return body.decode("utf-8", errors="surrogateescape")


async def serve_stdio(protocol: SkillProtocol, stdin: Any, stop: threading.Event) -> None:
    """The message loop over stdio: pygls's `run_async` with the framing and decoding guards.

    Reading happens in a daemon thread handing one body at a time to the loop (back-pressure: the
    thread waits until the loop took the previous one), so a client that keeps stdin open after
    `exit` never keeps the process alive."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=1)

    def reader() -> None:
        while True:
            try:
                body = _read_message(stdin)
            except (OSError, ValueError):
                body = None
            try:
                asyncio.run_coroutine_threadsafe(queue.put(body), loop).result()
            except Exception:  # the loop is gone
                return
            if body is None:
                return

    threading.Thread(target=reader, name="skill-ls-stdin", daemon=True).start()
    while not stop.is_set():
        body = await queue.get()
        if body is None:
            break
        if not body:
            continue
        try:
            message = json.loads(decode_body(body), object_hook=protocol.structure_message)
        except (ValueError, RecursionError) as exc:
            # No Parse error reply: its `id` would be null, which pygls-based clients (and others) cannot
            # tell from a notification, and they fail on it.
            log.warning("ignoring a message that is not JSON: %s", str(exc)[:200])
            continue
        except Exception:  # structuring is pygls and cattrs: whatever they raise ends one message only
            log.exception("ignoring a message that cannot be read")
            continue
        try:
            protocol.handle_message(message)
        except Exception:
            log.exception("unable to handle a message")


def start_io(server: Any, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve on stdio until `exit` or end of input; returns the exit status LSP prescribes (0 after
    `shutdown`, 1 without it; 0 when the client just closed the stream)."""
    import sys

    from pygls.io_ import StdoutWriter

    stop = threading.Event()
    server._stop_event = stop
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    try:
        source = stdin or sys.stdin.buffer
        try:
            reader: Any = FdReader(source.fileno())
        except (AttributeError, OSError, ValueError):  # not a real file (tests): read it as it is
            reader = source
        asyncio.run(serve_stdio(server.protocol, reader, stop))
    except BrokenPipeError:
        log.error("the connection to the client is lost; shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
    code = server.protocol.exit_code
    return 0 if code is None else code
