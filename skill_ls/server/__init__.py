"""The language server (SPEC §6.3): pygls 2.x, assembled from feature modules.

`run_server` is what `skill-ls serve` and `skill-language-server` call. The server logs to stderr
only, never writes files, never runs scripts, and opens no network connection unless asked to
listen with `--tcp` (on 127.0.0.1 only).
"""
from __future__ import annotations

import logging
import os
import sys


def run_server(tcp_port: int | None = None) -> int:
    level = os.environ.get("SKILL_LS_LOG", "INFO").upper()
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    logging.getLogger("watchdog").setLevel(logging.WARNING)
    from skill_ls.server.app import create_server

    server = create_server()
    try:
        if tcp_port:
            server.start_tcp("127.0.0.1", tcp_port)
        else:
            server.start_io()
    finally:
        if server.watchers is not None:
            server.watchers.stop()
    return 0
