"""The language server: pygls 2.x, assembled from feature modules.

`run_server` is what `skill-ls serve` and `skill-language-server` call. The server logs to stderr
only, never writes files, never runs scripts, and opens no network connection unless asked to
listen with `--tcp` (on 127.0.0.1 only).
"""
from __future__ import annotations

import logging
import os
import sys


def run_server(tcp_port: int | None = None) -> int:
    # Warnings and errors only by default: editors file a language server's stderr as errors
    # (Neovim's lsp.log writes every stderr line as [ERROR]), so routine INFO lines there would read as
    # failures. SKILL_LS_LOG=INFO (or DEBUG) asks for more.
    level = os.environ.get("SKILL_LS_LOG", "WARNING").upper()
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level, logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    logging.getLogger("watchdog").setLevel(logging.WARNING)
    from skill_ls.server.app import create_server

    from skill_ls.server.protocol import start_io

    server = create_server()
    code = 0
    try:
        if tcp_port:
            server.start_tcp("127.0.0.1", tcp_port)
        else:
            code = start_io(server)  # our framing and lifecycle guards (skill_ls.server.protocol)
    finally:
        if server.watchers is not None:
            server.watchers.stop()
    return code
