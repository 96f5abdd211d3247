"""A raw stdio harness for the server: write exact bytes, read framed messages with timeouts.

pytest-lsp's client validates and serialises everything it sends; attacks on framing, encoding and
lifecycle need the wire itself. Every read is bounded, so a hung server fails a test, never hangs it."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def frame(body: bytes | str | dict) -> bytes:
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    def __init__(self, home: Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
        e = {k: v for k, v in os.environ.items() if k not in ("AMP_TOOLBOX",)}
        e.update(HOME=str(home), AGH_HOME=str(home / ".agh"), CODEX_HOME=str(home / ".codex"),
                 XDG_CONFIG_HOME=str(home / ".config"), PYTHONPATH=str(ROOT), SKILL_LS_LOG="WARNING")
        e.update(env or {})
        from tests.lsp.conftest import SERVE, server_command

        command = server_command()
        self._pidfile: Path | None = None
        if command != SERVE:  # forked from the zygote: the server writes its own pid for /proc
            self._pidfile = Path(home).parent / f"server-{id(self)}.pid"
            e["SKILL_LS_ZYGOTE_PIDFILE"] = str(self._pidfile)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, cwd=str(cwd or home))
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self._next = 0

    @property
    def pid(self) -> int:
        """The server process's id (forked from the zygote: the child's, not the launcher's)."""
        if self._pidfile is None:
            return self.proc.pid
        deadline = time.monotonic() + 20
        while not self._pidfile.exists():
            assert time.monotonic() < deadline, "the forked server never wrote its pid"
            time.sleep(0.01)
        return int(self._pidfile.read_text())

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line == b"\r\n" and length is not None:
                    break
            self.messages.put(json.loads(out.read(length)))

    def _read_err(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in err:
            self.stderr.append(line)

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, body: bytes | str | dict) -> None:
        self.send_bytes(frame(body))

    def request(self, method: str, params: Any = None) -> int:
        self._next += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self._next

    def notify(self, method: str, params: Any = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def wait(self, predicate, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for msg in self.seen:
            if predicate(msg):
                self.seen.remove(msg)
                return msg
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message within {timeout}s; stderr: "
                                     f"{b''.join(self.stderr[-20:]).decode(errors='replace')}")
            try:
                msg = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if msg is None:
                raise AssertionError("server closed its output; stderr: "
                                     f"{b''.join(self.stderr[-20:]).decode(errors='replace')}")
            if msg.get("method") in ("client/registerCapability", "window/workDoneProgress/create",
                                     "workspace/configuration") and "id" in msg:
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None if msg["method"] != "workspace/configuration" else [None]})
            if predicate(msg):
                return msg
            self.seen.append(msg)

    def response(self, msg_id: int, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def call(self, method: str, params: Any = None, timeout: float = 20.0) -> dict[str, Any]:
        return self.response(self.request(method, params), timeout)

    def initialize(self, root: Path, capabilities: dict | None = None, wait_index: bool = True) -> dict[str, Any]:
        caps = capabilities if capabilities is not None else {"textDocument": {"publishDiagnostics": {}}}
        result = self.call("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": caps})
        self.notify("initialized", {})
        if wait_index:
            self.wait(lambda m: m.get("method") == "skillLs/indexChanged", 60)
        return result

    def idle(self, timeout: float = 20.0) -> dict[str, Any]:
        """Wait until the server has nothing scheduled at all (`skillLs.status`), the release of the
        texts of files that are not open included."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.call("workspace/executeCommand", {"command": "skillLs.status", "arguments": [{}]})["result"]
            if not status["scheduled"]:
                return status
            assert time.monotonic() < deadline, f"the server never became idle: {status}"
            time.sleep(0.02)

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> int | None:
        try:
            if self.alive():
                try:
                    self.call("shutdown", timeout=10)
                    self.notify("exit")
                except (AssertionError, OSError):
                    pass
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(timeout=10)
        finally:
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
