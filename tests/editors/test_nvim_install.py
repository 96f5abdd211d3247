"""Neovim 0.11, issue 22: installed in one step and working on first run, headless.

The plugin as a plugin manager installs it (the repository root as the plugin directory, lazy.nvim's
semantics: its plugin/ files sourced, its build.lua run), `:SkillInstall` building the server in a
private venv from the checkout with nothing on PATH, `:SkillRestart`, `:help skill-ls`, and the
Neovim defects of the issue, each tested where it showed: a missing server, two projects, plugin
agents and commands, diagnostics pushed before a buffer is loaded, a new file closed unsaved, a user
skill opened on its own, the server's log lines, `:checkhealth`. The broken `.skill-ls.toml` prompt
is a TUI matter: tests/editors/test_nvim_tmux.py.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.editors.test_nvim import NVIM, NVIM_SKIP_REASON, Fixture, _lua_str, _same, run_nvim
from tests.editors.test_nvim_flows import ALL_DIAGNOSTICS_LUA, Demo, check, demo, triples  # noqa: F401

pytestmark = pytest.mark.editor_requires(NVIM_SKIP_REASON if NVIM is None else None)

REPO = Path(__file__).resolve().parents[2]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_server_is_one_warning_no_traceback_and_other_plugins_filetype_autocmds_run(demo: Demo) -> None:
    """The server missing used to raise an error inside the FileType autocmd (a Lua traceback) and
    stop the FileType autocmds defined after it — another plugin's — for that buffer."""
    r = run_nvim(
        demo,
        f"""
        vim.notify = real_notify  -- Neovim's own: an ERROR notification is an error message
        vim.api.nvim_create_autocmd('FileType', {{ pattern = 'markdown', callback = function(ev)
          vim.b[ev.buf].other_plugin_ran = true
        end }})
        local b = open({_lua_str(demo.ws_review)})
        vim.wait(WAIT_MS, function() return vim.fn.execute('messages'):find(':SkillInstall', 1, true) ~= nil end, 20)
        drain()
        R.other_ran = vim.b[b].other_plugin_ran == true
        R.clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        R.messages_now = vim.fn.execute('messages')
        """,
        init_extra="vim.lsp.config('skill_ls', { cmd = { 'no-such-skill-language-server' } })\n",
    )
    assert r["other_ran"], "another plugin's FileType autocmd did not run:\n" + r["messages_now"]
    assert "traceback" not in r["messages_now"] and "Error" not in r["messages_now"], r["messages_now"]
    assert r["messages_now"].count(":SkillInstall") == 1, r["messages_now"]
    assert r["clients"] == 0


def two_projects(tmp: Path) -> dict[str, Path]:
    """Project `alpha` reads an additional root beside it (`alpha-shared`, outside every project) and
    has its own `review`; project `beta` is configured differently and knows nothing of that root."""
    alpha, beta, shared = tmp / "alpha", tmp / "beta", tmp / "alpha-shared"
    _write(alpha / ".skill-ls.toml", 'runtimes = ["agh"]\n[agh]\nadditional_roots = ["../alpha-shared"]\n')
    _write(beta / ".skill-ls.toml", 'runtimes = ["agh"]\n[rules]\nignore = ["SH001", "SH002"]\n')
    review = "---\nname: review\ndescription: Reviews code. Use when reviewing a change.\n---\nReview.\n"
    return {
        "alpha": _write(alpha / ".agh" / "skills" / "review" / "SKILL.md", review),
        "beta": _write(beta / ".agh" / "skills" / "deploy" / "SKILL.md",
                       "---\nname: deploy\ndescription: Deploys. Use when shipping.\n---\nShip.\n"),
        "shared": _write(shared / ".agh" / "skills" / "review" / "SKILL.md", review.replace("Review.", "Shared.")),
        "alpha_root": alpha, "beta_root": beta,
    }


def test_two_projects_a_file_in_the_first_projects_additional_root_joins_its_client(tmp_path: Path, demo: Demo) -> None:
    """With two projects open (the second started last), a file of the first project's additional
    root and a user skill opened from the first project's buffer join the first project's client and
    get its configuration: the shared copy's SH001 (shadowed by alpha's workspace copy), as `skill-ls
    check` in alpha says. It used to join whichever client started last."""
    p = two_projects(tmp_path)
    user_copy = _write(demo.agh_home / "skills" / "review" / "SKILL.md",
                       "---\nname: review\ndescription: Mine. Use when reviewing.\n---\nMine.\n")
    r = run_nvim(
        demo,
        f"""
        local sl = require('skill_ls')
        local a = open({_lua_str(p['alpha'])})
        local ca = wait_client(a)
        vim.wait(WAIT_MS, function() return sl.last_index ~= nil end, 50)  -- alpha indexed
        local seen = sl.last_index
        local b = open({_lua_str(p['beta'])})
        local cb = wait_client(b)
        vim.wait(WAIT_MS, function() return sl.last_index ~= seen end, 50)  -- beta indexed
        R.distinct = ca ~= nil and cb ~= nil and ca.id ~= cb.id
        vim.api.nvim_set_current_buf(a)
        local s = open({_lua_str(p['shared'])})
        local cs = wait_client(s)
        R.shared_joins_alpha = cs ~= nil and cs.id == ca.id
        R.shared_codes = wait_diag(s, 'SH001')
        vim.api.nvim_set_current_buf(a)
        local u = open({_lua_str(user_copy)})
        local cu = wait_client(u)
        R.user_joins_alpha = cu ~= nil and cu.id == ca.id
        R.user_codes = wait_diag(u, 'SH001')
        R.clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        """,
    )
    assert r["distinct"], r
    assert r["shared_joins_alpha"], r
    assert r["user_joins_alpha"], r
    assert r["clients"] == 2
    expected = {code for path, code, _ in check(p["alpha_root"], p["shared"]) if _same(path, p["shared"])}
    assert "SH001" in expected and set(r["shared_codes"]) == expected, (r["shared_codes"], expected)
    assert "SH001" in r["user_codes"], r["user_codes"]


def test_plugin_agents_and_commands_get_a_client(tmp_path: Path, demo: Demo) -> None:
    """A Claude Code plugin's agents/*.md and commands/*.md are analysed by the server; they used to
    get no client, so edits to them never showed. Their diagnostics equal `skill-ls check`, and an
    edit shows at once."""
    repo = tmp_path / "market"
    (repo / ".git").mkdir(parents=True)
    _write(repo / "p" / ".claude-plugin" / "plugin.json", '{"name": "p"}\n')
    command = _write(repo / "p" / "commands" / "deploy.md", "---\ndescription: Deploys.\nallowed-tool: Bash\n---\nDeploy.\n")
    agent = _write(repo / "p" / "agents" / "rev.md", "---\nname: rev\ndescription: Reviews.\ntools: Read, Grepp\n---\nReview.\n")
    readme = _write(repo / "p" / "README.md", "# p\n")
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local c = open({_lua_str(command)})
        local cc = wait_client(c)
        R.root = cc and cc.root_dir
        local a = open({_lua_str(agent)})
        R.agent_attached = wait_client(a) ~= nil
        R.agent_codes = wait_diag(a, 'SA003')
        local readme = open({_lua_str(readme)})
        R.diagnostics = settle()
        R.readme_clients = #clients(readme)
        vim.api.nvim_set_current_buf(a)
        vim.api.nvim_buf_set_lines(a, 3, 4, false, {{ 'tools: Read, Grep' }})
        vim.wait(WAIT_MS, function() return not vim.tbl_contains(diag_codes(a), 'SA003') end, 50)
        R.after_edit = diag_codes(a)
        """,
    )
    assert _same(r["root"], repo), r["root"]
    assert r["agent_attached"] and "SA003" in r["agent_codes"], r["agent_codes"]
    assert r["readme_clients"] == 0
    assert triples(r["diagnostics"]) == check(repo), r["_logs"]()
    assert "SA003" not in r["after_edit"], r["after_edit"]


def test_diagnostics_pushed_before_the_buffer_is_loaded_are_drawn_when_it_is_opened(demo: Demo) -> None:
    """The server pushes every file's diagnostics; for a file not loaded Neovim 0.11 stores them and
    draws nothing, and did not draw them when the file was opened later. Drawn (signs, underline) as
    the buffer is shown, before any new message from the server."""
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        local target = vim.fn.bufadd({_lua_str(demo.release_notes)})
        vim.wait(WAIT_MS, function() return #vim.diagnostic.get(target) > 0 end, 50)
        R.stored = #vim.diagnostic.get(target)
        R.loaded_before = vim.api.nvim_buf_is_loaded(target)
        vim.cmd.edit(vim.fn.fnameescape({_lua_str(demo.release_notes)}))  -- no vim.wait: nothing from the server yet
        local marks = vim.api.nvim_buf_get_extmarks(target, -1, 0, -1, {{ details = true }})
        R.drawn = 0
        for _, m in ipairs(marks) do
          local d = m[4] or {{}}
          if d.sign_text or d.hl_group then R.drawn = R.drawn + 1 end
        end
        """,
    )
    assert r["attached"] and r["stored"] > 0 and not r["loaded_before"], r
    assert r["drawn"] >= r["stored"], r


def test_a_new_file_closed_unsaved_leaves_no_diagnostics(demo: Demo) -> None:
    """`:e new/SKILL.md`, typing, `:bw!`: the file never existed on disk; its diagnostics go with the
    buffer (they used to become a "cannot read file" error for ever). Neovim then equals `check`."""
    new = demo.demo / ".agh" / "skills" / "new" / "SKILL.md"
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        settle()
        local n = open({_lua_str(new)})
        vim.api.nvim_buf_set_lines(n, 0, -1, false, {{ '---', 'name: new', '---', 'Body.' }})
        vim.wait(WAIT_MS, function() return #vim.diagnostic.get(n) > 0 end, 50)
        R.while_open = diag_codes(n)
        vim.cmd('bwipeout! ' .. n)
        R.after = settle()
        """,
    )
    assert r["attached"] and r["while_open"], r
    assert not new.exists()
    leftover = [d for d in r["after"] if "/skills/new/" in d["path"]]
    assert leftover == [], leftover
    assert triples(r["after"]) == check(demo.demo), r["_logs"]()


def test_a_user_skill_opened_on_its_own_is_read_as_a_user_skill(demo: Demo) -> None:
    """No project open, the working directory $HOME: a user skill used to root the server at $HOME
    (a warning about the home directory that waited for Enter, and its copy labelled "workspace").
    The client roots at the user-level directory, no warning, the copy is the user tier's."""
    home = demo.home
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(demo.user_copy)})
        local c = wait_client(b)
        R.root = c and c.root_dir
        vim.wait(WAIT_MS, function() return #vim.lsp.codelens.get(b) > 0 end, 50)
        R.lens = vim.tbl_map(function(l) return l.command and l.command.title or '' end, vim.lsp.codelens.get(b))
        idle()
        R.messages_now = vim.fn.execute('messages')
        """,
        cwd=home,
    )
    assert r["root"] and not _same(r["root"], home), r["root"]
    assert _same(r["root"], demo.agh_home), r["root"]
    assert "home directory" not in r["messages_now"] and not any("home directory" in n["msg"] for n in r["notifications"])
    assert r["lens"] and "user" in r["lens"][0] and "workspace" not in r["lens"][0], r["lens"]


def test_the_server_log_has_no_info_lines_filed_as_errors(demo: Demo) -> None:
    """Neovim files a server's stderr as [ERROR] in lsp.log: the server's routine INFO lines (a
    re-index after a change on disk) made every session look failed. They are not written there."""
    r = run_nvim(
        demo,
        f"""
        vim.lsp.log.set_level('info')
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        local cfg = {_lua_str(demo.demo / '.skill-ls.toml')}
        idle()
        local seen = changes_seen()
        local f = assert(io.open(cfg, 'a')); f:write('\\n[rules]\\nignore = ["SK007"]\\n'); f:close()
        idle(seen)  -- the server has seen the change and re-indexed (its INFO lines are written)
        R.log = vim.lsp.get_log_path()
        """,
        env_update={"SKILL_LS_LOG": None},
    )
    assert r["attached"]
    log = Path(r["log"]).read_text(encoding="utf-8", errors="replace") if Path(r["log"]).exists() else ""
    infos = [line for line in log.splitlines() if "[ERROR]" in line and " INFO " in line]
    assert infos == [], infos[:3]


def test_checkhealth_says_what_works_when_nothing_is_installed(demo: Demo) -> None:
    """`:checkhealth skill_ls` used to advise `pip install skill-ls` (not on PyPI)."""
    r = run_nvim(
        demo,
        f"""
        open({_lua_str(demo.ws_review)})
        vim.cmd('checkhealth skill_ls')
        R.text = buf_text(vim.api.nvim_get_current_buf())
        """,
        init_extra="vim.lsp.config('skill_ls', { cmd = { 'no-such-skill-language-server' } })\n",
    )
    assert ":SkillInstall" in r["text"], r["text"]
    assert "pip install skill-ls" not in r["text"], r["text"]


def test_help_file(demo: Demo) -> None:
    r = run_nvim(
        demo,
        """
        for _, tag in ipairs({ 'skill-ls', ':SkillInstall', ':SkillRestart', 'skill-ls-lazy', 'skill-ls-projects' }) do
          local ok, err = pcall(vim.cmd.help, tag)
          R[tag] = ok and vim.fn.expand('%:t') or tostring(err)
        end
        """,
        init="vim.opt.runtimepath:prepend(" + _lua_str(REPO) + ")\nvim.opt.swapfile = false\n",
    )
    for tag in ("skill-ls", ":SkillInstall", ":SkillRestart", "skill-ls-lazy", "skill-ls-projects"):
        assert r[tag] == "skill-ls.txt", (tag, r[tag])


# ---------------------------------------------------------------------------------------------
# Installing: nothing on PATH, :SkillInstall, :SkillRestart, the lazy.nvim spec

LAZY_STUB = r"""
-- A stand-in for lazy.nvim (which cannot be installed offline here), with the semantics the spec in
-- editors/nvim/README.md relies on (lazy.nvim's loader and its build task, lua/lazy/manage/task/plugin.lua):
-- `dir` is the plugin directory; on first install the `build` of the spec runs, else the plugin's
-- build.lua; its doc/ gets help tags; then the directory goes on 'runtimepath', its plugin/**/*.lua
-- and *.vim are sourced (lazy.nvim turns 'loadplugins' off and sources them itself) and `config` or
-- `opts` (require(main).setup(opts)) runs.
local M = {}
function M.setup(spec)
  vim.go.loadplugins = false
  for _, p in ipairs(spec) do
    local dir = vim.fs.normalize(p.dir)
    local stamp = vim.fn.stdpath('data') .. '/lazy-stub/' .. vim.fs.basename(dir)
    local fresh = vim.fn.filereadable(stamp) == 0
    vim.opt.runtimepath:append(dir)
    if fresh then
      local build = p.build
      if build == nil and vim.fn.filereadable(dir .. '/build.lua') == 1 then build = 'build.lua' end
      if type(build) == 'function' then build(p)
      elseif type(build) == 'string' and build:sub(1, 1) == ':' then vim.cmd(build:sub(2))
      elseif type(build) == 'string' and build:match('%.lua$') then assert(loadfile(dir .. '/' .. build))()
      end
      if vim.fn.isdirectory(dir .. '/doc') == 1 then vim.cmd.helptags(dir .. '/doc') end
      vim.fn.mkdir(vim.fs.dirname(stamp), 'p')
      vim.fn.writefile({}, stamp)
    end
    for _, f in ipairs(vim.fn.globpath(dir, 'plugin/**/*.{lua,vim}', false, true)) do
      vim.cmd.source(vim.fn.fnameescape(f))
    end
    if type(p.config) == 'function' then p.config(p, p.opts or {})
    elseif p.opts ~= nil or p.config == true then require(p.main).setup(p.opts or {})
    end
  end
end
return M
"""


def _bare_path(tmp: Path) -> str:
    """A PATH with Python (to build the venv) and the system tools, and no skill-language-server."""
    bin_dir = tmp / "bare-bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("python3", "python"):
        link = bin_dir / name
        if not link.exists():
            link.symlink_to(sys.executable)
    dirs = [str(bin_dir)] + [d for d in ("/usr/local/sbin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
                              if os.path.isdir(d) and not os.path.exists(os.path.join(d, "skill-language-server"))]
    return os.pathsep.join(dirs)


@pytest.fixture(scope="session")
def install_options() -> str:
    """Lua setting the plugin's documented install options (g:skill_ls_venv_args, g:skill_ls_pip_args)
    so that :SkillInstall and the lazy.nvim build run their own steps (`python -m venv`, then `pip
    install <checkout>` into it) offline and in seconds: the venv reuses this Python's packages (the
    server's dependencies, pip) and pip builds the checkout from a wheelhouse of its build requirements
    (downloaded once, kept in the temporary directory for later sessions). When this Python is itself
    a venv (its packages are not the system's), the wheelhouse holds the dependencies too and the venv
    is a plain one. Without the wheelhouse (no package index): no options, the install as a user runs it."""
    in_venv = sys.prefix != sys.base_prefix
    wheels = _build_wheelhouse(with_dependencies=in_venv)
    if wheels is None:
        return ""
    venv_args = "" if in_venv else "'--system-site-packages', '--without-pip'"
    return (f"vim.g.skill_ls_venv_args = {{ {venv_args} }}\n"
            f"vim.g.skill_ls_pip_args = {{ '--no-index', '--find-links', {_lua_str(wheels)} }}\n")


def _build_wheelhouse(with_dependencies: bool) -> Path | None:
    """The checkout's build requirements (and its dependencies) as wheels, in a directory named by
    those requirements."""
    import hashlib
    import tempfile
    import tomllib

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    requires = pyproject["build-system"]["requires"] + (pyproject["project"]["dependencies"] if with_dependencies else [])
    key = hashlib.sha256(json.dumps([sys.version_info[:2], requires]).encode()).hexdigest()[:12]
    wheels = Path(tempfile.gettempdir()) / f"skill-ls-test-wheelhouse-{key}"
    if wheels.is_dir():
        return wheels
    partial = Path(tempfile.mkdtemp(prefix=wheels.name + "."))
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q",
                           "-d", str(partial), *requires], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        return None
    try:
        partial.rename(wheels)  # complete or absent, also with two sessions at once
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)
    return wheels


def _readme_lazy_spec() -> str:
    """The lazy.nvim spec line of editors/nvim/README.md."""
    text = (REPO / "editors" / "nvim" / "README.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.strip().startswith("{ 'skill-ls/skill-ls'"))
    return line.strip().rstrip(",")


def test_lazy_spec_installs_plugin_and_server_and_the_demo_equals_check(demo: Demo, install_options: str) -> None:
    """Done means (issue 22): a fresh Neovim 0.11 with only the lazy.nvim spec of the README (the
    repository as a local path) and no server anywhere: the plugin's build installs the server into
    its private venv, and the demo's diagnostics, files never opened included, equal `skill-ls
    check`. Then :SkillRestart starts a new client with the same diagnostics."""
    spec = _readme_lazy_spec()
    assert spec.startswith("{ 'skill-ls/skill-ls'"), spec
    local_spec = spec.replace("'skill-ls/skill-ls'", "dir = " + _lua_str(REPO), 1)
    stub = demo.tmp / "lazy-stub"
    _write(stub / "lua" / "lazy" / "init.lua", LAZY_STUB)
    init = textwrap.dedent(f"""\
        vim.opt.runtimepath:prepend({_lua_str(stub)})
        vim.opt.swapfile = false
        """) + install_options + f"require('lazy').setup({{ {local_spec} }})\n"
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        R.venv = require('skill_ls.install').venv_dir()
        R.cmd = vim.lsp.config.skill_ls.cmd
        local b = open({_lua_str(demo.ws_review)})
        local c = wait_client(b, 60000)
        R.attached = c ~= nil
        R.diagnostics = settle()
        local first = c and c.id
        vim.cmd('SkillRestart')
        vim.wait(WAIT_MS, function()
          local n = clients(b)[1]
          return n ~= nil and n.id ~= first and n.initialized
        end, 50)
        R.restarted = clients(b)[1] ~= nil and clients(b)[1].id ~= first
        R.after_restart = settle()
        """,
        init=init,
        server_cmd=False,
        env_update={"PATH": _bare_path(demo.tmp), "PYTHONPATH": None, "VIRTUAL_ENV": None},
    )
    assert r["cmd"] and r["cmd"][0].startswith(r["venv"]), (r["cmd"], r["venv"])
    assert r["attached"], r["_logs"]()
    expected = check(demo.demo)
    assert triples(r["diagnostics"]) == expected, r["_logs"]()
    assert r["restarted"] and triples(r["after_restart"]) == expected, r


def test_nothing_installed_then_skill_install(demo: Demo, install_options: str) -> None:
    """Neovim with the plugin on 'runtimepath' (a plain clone, no plugin manager) and no server on
    PATH: opening a skill says to run :SkillInstall (once, no client); :SkillInstall builds the venv
    from the checkout and the open buffer gets its client and diagnostics, equal to `check`."""
    init = textwrap.dedent(f"""\
        vim.opt.runtimepath:prepend({_lua_str(REPO)})
        vim.opt.swapfile = false
        """) + install_options
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.ws_review)})
        vim.wait(WAIT_MS, function() return #R.notifications > 0 end, 20)
        drain()
        R.before_clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        R.hint = vim.tbl_map(function(n) return n.msg end, R.notifications)
        vim.cmd('SkillInstall')
        local c = wait_client(b, 120000)
        R.attached = c ~= nil
        R.cmd = c and c.config.cmd
        R.diagnostics = settle()
        """,
        init=init,
        server_cmd=False,
        env_update={"PATH": _bare_path(demo.tmp), "PYTHONPATH": None, "VIRTUAL_ENV": None},
    )
    assert r["before_clients"] == 0
    assert any(":SkillInstall" in m for m in r["hint"]), r["hint"]
    assert r["attached"], r["notifications"]
    assert "skill-ls/venv" in r["cmd"][0], r["cmd"]
    assert triples(r["diagnostics"]) == check(demo.demo), r["_logs"]()


def test_project_root_in_lua_is_the_servers(tmp_path: Path, demo: Demo) -> None:
    """lua/skill_ls/project.lua decides where a client starts by the server's own rule
    (`skill_ls.core.config.project_root`, with markers and skill-tree names generated from the
    descriptors): for every folder of a tree of projects, the two agree."""
    from skill_ls.core.config import project_root

    home = Path(os.environ["HOME"])
    t = tmp_path / "layouts"
    _write(t / "cfg" / ".skill-ls.toml", "")
    _write(t / "cfg" / "shared" / ".agh" / "skills" / "a" / "SKILL.md", "---\nname: a\n---\n")
    _write(t / "py" / "pyproject.toml", '[project]\nname = "x"\n[tool.skill-ls]\nruntimes = ["agh"]\n')
    (t / "py" / "docs").mkdir(parents=True)
    _write(t / "plainpy" / "pyproject.toml", '[project]\nname = "y"\n')
    _write(t / "plainpy" / "pkg" / ".agh" / "skills" / "b" / "SKILL.md", "---\nname: b\n---\n")
    (t / "repo" / ".git").mkdir(parents=True)
    _write(t / "repo" / "pkg" / ".agh" / "skills" / "c" / "SKILL.md", "---\nname: c\n---\n")
    _write(t / "repo" / "plugins" / "p" / "commands" / "deploy.md", "# deploy\n")
    (t / "repo" / "docs" / "deep").mkdir(parents=True)
    _write(home / ".agh" / "skills" / "d" / "SKILL.md", "---\nname: d\n---\n")
    folders = sorted({p if p.is_dir() else p.parent for p in t.rglob("*") if ".git" not in p.parts}
                     | {home / ".agh" / "skills" / "d", home / ".agh" / "skills"})
    r = run_nvim(
        demo,
        "local project = require('skill_ls.project')\nR.roots = {}\n"
        + "".join(f"R.roots[#R.roots + 1] = project.project_root({_lua_str(f)}, {_lua_str(home)})\n" for f in folders),
        enable=False,
    )
    assert len(r["roots"]) == len(folders) > 15
    lua = [os.path.realpath(x) for x in r["roots"]]
    python = [os.path.realpath(project_root(f, home)) for f in folders]
    assert lua == python, [(str(f), a, b) for f, a, b in zip(folders, lua, python) if a != b]


def test_server_messages_are_one_line_and_skill_status_shows_them_whole(demo: Demo) -> None:
    """The server's window/showMessage (here: a broken `.skill-ls.toml`) is echoed as one line that
    fits the command line (tests/editors/test_nvim_tmux.py shows there is no "Press ENTER" in a real
    terminal); :SkillStatus prints it whole."""
    config = demo.demo / ".skill-ls.toml"
    config.write_text(config.read_text() + "\n[rules\n")
    r = run_nvim(
        demo,
        f"""
        vim.o.columns = 80
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        vim.wait(WAIT_MS, function() return vim.fn.execute('messages'):find('skill%-ls: ') ~= nil end, 50)
        R.echoed = vim.fn.execute('messages')
        vim.cmd('SkillStatus')
        vim.wait(WAIT_MS, function() return vim.fn.execute('messages'):find('invalid TOML', 1, true) ~= nil end, 50)
        R.after_status = vim.fn.execute('messages')
        """,
    )
    assert r["attached"]
    echoed = [line for line in r["echoed"].splitlines() if line.startswith("skill-ls: ")]
    assert echoed and all(len(line) <= 80 for line in echoed), echoed
    assert "invalid TOML" in r["after_status"] and str(config) in r["after_status"], r["after_status"]
