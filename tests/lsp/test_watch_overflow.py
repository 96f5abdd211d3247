"""Issue 24, class 10: a mass change that overflows the file-watch queue converges.

With the built-in watcher (clients without dynamic watch registration, such as Neovim), rewriting
5,000 files overflowed the inotify queue and 3,600-4,700 files kept their old diagnostics for good.
An overflow (watchdog says so on its logger only) now rescans the folders; the server then says what
`check` says about every file.
"""
from __future__ import annotations

import logging
import os
import time

from lsprotocol import types

from tests.conftest import write
from tests.lsp.conftest import settle, uri

PROFILES = ("neovim",)  # pushes diagnostics, and has no dynamic watch registration: the built-in watcher
N = int(os.environ.get("SKILL_LS_TEST_N", "5000"))


def _skill(i: int, name: str) -> str:
    return f"---\nname: {name}\ndescription: Skill {i}. Use when testing the watcher.\n---\nBody {i}.\n"


async def test_a_mass_change_of_5000_files_converges(start, tree, profile):
    root = tree.ws / ".claude" / "skills"
    for i in range(N):
        write(root / f"s{i}" / "SKILL.md", _skill(i, f"s{i}"), dedent=False)
    s = await start(profile)
    assert (await s.command("skillLs.status", {}))["skills"] >= N
    first = time.monotonic()
    # Every file gets a name that does not match its directory (SK009 under Claude Code), as fast as the
    # file system allows: far more events than the kernel's queue holds (16,384 by default).
    for final in (False, True):  # twice: ~20,000 events, past the queue whatever the machine's speed
        for i in range(N):
            (root / f"s{i}" / "SKILL.md").write_text(_skill(i, f"t{i}" if final else f"u{i}"), encoding="utf-8")
    wrong = {uri(root / f"s{i}" / "SKILL.md") for i in range(N)}

    def converged():
        return all(any(str(d.code) == "SK009" and "'t" in d.message for d in s.client.diagnostics.get(u, []))
                   for u in wrong)

    await settle(converged, timeout=120)
    elapsed = time.monotonic() - first
    print(f"converged on {N} files in {elapsed:.1f} s")


def test_the_overflow_log_record_is_a_rescan():
    from skill_ls.server.features.watching import watch_lost_events

    calls = []

    class FakeServer:
        def events_lost_threadsafe(self, where):
            calls.append(where)

    ls = FakeServer()
    watch_lost_events(ls)
    watch_lost_events(ls)  # once per server
    logging.getLogger("watchdog.observers.inotify_c").warning("Inotify queue overflowed; filesystem events were lost")
    logging.getLogger("watchdog.observers.inotify").info("unrelated")
    assert calls == [None]
    for h in list(logging.getLogger("watchdog").handlers):
        if getattr(h, "ls", None) is ls:
            logging.getLogger("watchdog").removeHandler(h)
