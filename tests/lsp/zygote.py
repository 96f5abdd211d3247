"""`python -m tests.lsp.zygote SOCKET`: the language server's interpreter with everything imported,
forking one real server per test session over stdio.

Starting `python -m skill_ls serve` costs ~0.7 s of CPU before the first message (the interpreter,
lsprotocol's ~1,000 classes, pygls), and the LSP tests start ~200 servers. A test's server is instead
launched as `python -I -S -c LAUNCHER SOCKET` (a few milliseconds): the launcher hands its stdin,
stdout and stderr, its environment and working directory to this process, which forks; the child
takes them over and runs `skill_ls.server.run_server()` — the same server code on the same pipes, with
the test's private HOME. The launcher exits with the child's exit status. Tests that are about the
command itself (`skill-ls serve`, framing from the first byte) start it the ordinary way.
"""
from __future__ import annotations

import array
import gc
import json
import os
import signal
import socket
import struct
import sys

LAUNCHER = r"""
import array, json, os, socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
body = json.dumps({"env": dict(os.environ), "cwd": os.getcwd()}).encode()
s.sendmsg([struct.pack("!I", len(body)) + body], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
for fd in (0, 1):  # the server owns the pipes now: the client sees their end when the server's ends
    os.close(fd)
got = b""
while True:
    chunk = s.recv(64)
    if not chunk:
        break
    got += chunk
status = got.rpartition(b"\n")[2]  # "<server pid>\n<exit status>" when the server ends
sys.exit(int(status) if status.strip() else 1)
"""


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    msg, ancdata, _, _ = conn.recvmsg(1 << 20, socket.CMSG_SPACE(3 * 4))
    fds = array.array("i")
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    (length,) = struct.unpack("!I", msg[:4])
    body = msg[4:]
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            break
        body += chunk
    return json.loads(body), list(fds)


def _child(conn: socket.socket, request: dict, fds: list[int]) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for target, fd in zip((0, 1, 2), fds):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    pidfile = os.environ.get("SKILL_LS_ZYGOTE_PIDFILE")
    if pidfile:  # written here, before the first message is read, so the test can count on it
        with open(pidfile + ".tmp", "w", encoding="ascii") as f:
            f.write(str(os.getpid()))
        os.rename(pidfile + ".tmp", pidfile)
    code = 1
    try:
        from skill_ls.server import run_server

        code = run_server()
    finally:
        try:
            conn.sendall(f"{os.getpid()}\n{code}".encode())  # (pygls's exit closed stdout already)
        except OSError:
            pass
        os._exit(code)


def main() -> None:
    path = sys.argv[1]
    import skill_ls.server  # noqa: F401  (everything a server imports, once)
    from skill_ls.server.app import create_server
    from skill_ls.server.protocol import start_io  # noqa: F401

    create_server()  # imports every feature module
    gc.collect()
    gc.freeze()  # the children share these pages instead of copying them on their first collection
    # Started in a session of its own: the tests end it and every server it forked with one killpg.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path + ".tmp")
    os.rename(path + ".tmp", path)  # the socket appears once it is ready
    server.listen(16)
    while True:
        conn, _ = server.accept()
        try:
            request, fds = _receive(conn)
        except Exception:
            conn.close()
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            server.close()
            _child(conn, request, fds)
        conn.close()
        for fd in fds:
            os.close(fd)


if __name__ == "__main__":
    main()
