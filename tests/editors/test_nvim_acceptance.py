"""Neovim 0.11 acceptance over the demo (issue 10), headless: the remaining ways the open buffer's
diagnostics used to go stale until the user typed (an edit to `.skill-ls.toml`, an edit in another
buffer, `:SkillReindex`), the catalog preview following a description change, and every key and
command that editors/nvim/README.md promises, pressed or typed as a person does.

tests/editors/test_nvim_flows.py covers never-opened files, the additional root, a change in a user
root, the multi-root session, the split paste, the code lens, `:SkillWhere`'s default name and a
missing server.
"""
from __future__ import annotations

import os

import pytest

from tests.editors.test_nvim import NVIM, NVIM_DIR, NVIM_SKIP_REASON, _lua_str, run_nvim
from tests.editors.test_nvim_flows import ALL_DIAGNOSTICS_LUA, Demo, check, demo, nested_skill, triples  # noqa: F401

pytestmark = pytest.mark.editor_requires(NVIM_SKIP_REASON if NVIM is None else None)


def _rows(diags: list[dict]) -> list[tuple[str, str, int]]:
    return triples(diags)


def test_config_edit_another_buffer_and_reindex_reach_every_buffer_without_typing(demo: Demo) -> None:
    """The open buffer and the never-opened files follow (1) `.skill-ls.toml` edited on disk,
    (2) an edit in another buffer, (3) `:SkillReindex`, with no keystroke in the buffer watched."""
    config = demo.demo / ".skill-ls.toml"
    new_config = config.read_text() + '\n[rules]\nignore = ["SK007", "SK003"]\n'
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local notes = open({_lua_str(demo.release_notes)})
        R.attached = wait_client(notes) ~= nil
        R.tick = vim.b[notes].changedtick
        R.initial = settle()

        -- (1) the configuration file changes on disk
        write_file({_lua_str(config)}, {_lua_str(new_config)})
        vim.wait(WAIT_MS, function() return not vim.tbl_contains(diag_codes(notes), 'SK007') end, 100)
        R.after_config = settle()

        -- (2) another buffer renames its skill to `code-review`: the workspace copy, never opened
        -- in this session, becomes ambiguous (SH003) at once; undoing it clears that again
        local review = {_lua_str(demo.ws_review)}
        local function review_codes()
          local out = {{}}
          for _, d in ipairs(all_diagnostics()) do
            if d.path == vim.uv.fs_realpath(review) then out[#out + 1] = d.code end
          end
          return out
        end
        local triage = open({_lua_str(demo.demo / '.agh' / 'skills' / 'triage' / 'SKILL.md')})
        vim.api.nvim_buf_set_lines(triage, 0, -1, false,
          {{ '---', 'name: code-review', 'description: Triage, renamed. Use when testing.', '---', 'Body.' }})
        vim.wait(WAIT_MS, function() return vim.tbl_contains(review_codes(), 'SH003') end, 100)
        R.renamed = review_codes()
        vim.cmd('silent! undo')
        vim.wait(WAIT_MS, function() return not vim.tbl_contains(review_codes(), 'SH003') end, 100)
        R.undone = review_codes()
        vim.api.nvim_set_current_buf(notes)

        -- (3) :SkillReindex keeps every file's diagnostics (none dropped, none stale)
        R.before_reindex = #R.notifications
        vim.cmd('SkillReindex')
        vim.wait(WAIT_MS, function()
          for i = R.before_reindex + 1, #R.notifications do
            if R.notifications[i].msg:find('re-indexed', 1, true) then return true end
          end
          return false
        end, 50)
        R.after_reindex = settle()
        R.typed = vim.b[notes].changedtick ~= R.tick
        """,
    )
    assert r["attached"]
    # The edited file is on disk again (undo) and `check` now reads the new configuration.
    assert (demo.demo / ".agh" / "skills" / "triage" / "SKILL.md").read_text().startswith("---\nname: triage")
    expected = check(demo.demo)
    assert not any(code in ("SK007", "SK003") for _, code, _ in expected)
    assert any(c == "SK007" for _, c, _ in _rows(r["initial"])), r["initial"]
    assert _rows(r["after_config"]) == expected, r["_logs"]()
    assert "SH003" in r["renamed"], r["renamed"]
    assert "SH003" not in r["undone"], r["undone"]
    assert any("re-indexed" in n["msg"] for n in r["notifications"]), r["notifications"]
    assert _rows(r["after_reindex"]) == expected
    assert not r["typed"]


def test_catalog_preview_follows_a_description_change(demo: Demo) -> None:
    """The preview refreshes when a description changes (the number of skills does not), on disk and
    in an open buffer."""
    local = demo.demo / ".agh" / "agents" / "reviewer" / "skills" / "code-review" / "SKILL.md"
    on_disk = local.read_text().replace("own code review procedure", "stricter review procedure")
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        vim.cmd('SkillCatalog reviewer')
        local cat
        vim.wait(WAIT_MS, function()
          cat = vim.fn.bufnr('skill-ls://catalog/reviewer')
          return cat ~= -1 and buf_text(cat):find('code-review', 1, true) ~= nil
        end, 50)
        R.before = buf_text(cat)
        write_file({_lua_str(local)}, {_lua_str(on_disk)})
        vim.wait(WAIT_MS, function() return buf_text(cat):find('stricter', 1, true) ~= nil end, 100)
        R.disk = buf_text(cat)
        -- typed into the agent-local copy's buffer, not saved
        vim.cmd('wincmd p')
        local lb = open({_lua_str(local)})
        local pos = pos_of(lb, 'stricter')
        vim.api.nvim_buf_set_text(lb, pos.line, pos.character, pos.line, pos.character + #'stricter', {{ 'typed' }})
        vim.wait(WAIT_MS, function() return buf_text(cat):find('typed review', 1, true) ~= nil end, 100)
        R.typed = buf_text(cat)
        """,
    )
    assert r["attached"]
    assert "own code review procedure" in r["before"]
    assert "stricter review procedure" in r["disk"], r["disk"]
    assert "typed review procedure" in r["typed"], r["typed"]


def test_every_key_and_command_the_readme_promises(demo: Demo) -> None:
    """editors/nvim/README.md, "Commands and keys": `K`, `grr`, `gra`, `<C-x><C-o>`'s omnifunc,
    `vim.lsp.buf.document_symbol()`, `grn` (says the server cannot rename), `:SkillStatus`,
    `:SkillReindex`, `:SkillWhere name runtime=R agent=A`, `:SkillCatalog workspace=DIR`, the
    statusline component, and `setup({ where = 'float' })`."""
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        idle()
        local function floats()
          local out = {{}}
          for _, w in ipairs(vim.api.nvim_list_wins()) do
            if vim.api.nvim_win_get_config(w).relative ~= '' then out[#out + 1] = buf_text(vim.api.nvim_win_get_buf(w)) end
          end
          return out
        end
        local function close_floats()
          for _, w in ipairs(vim.api.nvim_list_wins()) do
            if vim.api.nvim_win_get_config(w).relative ~= '' then vim.api.nvim_win_close(w, true) end
          end
        end
        local function on(needle, offset)
          vim.api.nvim_set_current_buf(b)
          local p = pos_of(b, needle)
          vim.api.nvim_win_set_cursor(0, {{ p.line + 1, p.character + (offset or 0) }})
        end
        local function feed(keys)
          vim.api.nvim_feedkeys(vim.keycode(keys), 'mx', false)
        end

        -- K: hover with the winning tier
        on('code-review', 2)
        feed('K')
        vim.wait(WAIT_MS, function() return #floats() > 0 end, 50)
        R.K = floats()[1]
        close_floats()

        -- grr on release-notes: every agent or skill naming it (the reviewer's tombstone), in the quickfix list
        local notes = open({_lua_str(demo.release_notes)})
        wait_client(notes)
        wait_diag(notes, 'SK007')
        vim.fn.setqflist({{}}, 'r')
        local rn = pos_of(notes, 'release-notes')
        vim.api.nvim_win_set_cursor(0, {{ rn.line + 1, rn.character + 2 }})
        feed('grr')
        vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
        R.grr = vim.tbl_map(function(i) return vim.api.nvim_buf_get_name(i.bufnr) end, vim.fn.getqflist())
        vim.cmd('cclose')
        vim.api.nvim_set_current_buf(notes)

        -- gra on the misspelled key: the quick fix is offered and applied
        local p = pos_of(notes, 'alowed-tools')
        vim.api.nvim_win_set_cursor(0, {{ p.line + 1, p.character + 1 }})
        R.gra_titles = {{}}
        vim.ui.select = function(items, opts, on_choice)
          local chosen, idx
          for i, item in ipairs(items) do
            local title = (item.action or item).title or opts.format_item(item)
            R.gra_titles[#R.gra_titles + 1] = title
            if not chosen and title:find('allowed-tools', 1, true) then chosen, idx = item, i end
          end
          on_choice(chosen, idx)
        end
        feed('gra')
        vim.wait(WAIT_MS, function() return buf_text(notes):find('\\nallowed-tools:', 1, true) ~= nil end, 50)
        R.gra_text = buf_text(notes)

        -- <C-x><C-o> completes through the LSP omnifunc (the keys themselves: tests/editors/test_nvim_tmux_flows.py)
        R.omnifunc = vim.bo[notes].omnifunc

        -- document symbols: the headings
        vim.fn.setloclist(0, {{}}, 'r')
        vim.lsp.buf.document_symbol()
        vim.wait(WAIT_MS, function() return #vim.fn.getloclist(0) > 0 end, 50)
        R.symbols = vim.tbl_map(function(i) return i.text end, vim.fn.getloclist(0))
        vim.cmd('lclose')

        -- grn: no rename; Neovim says so
        R.before_grn = #R.notifications
        vim.ui.input = function(_, on_confirm) R.grn_prompted = true; on_confirm(nil) end
        feed('grn')
        vim.wait(2000, function() return #R.notifications > R.before_grn end, 50)
        R.grn = vim.tbl_map(function(n) return n.msg end, {{ unpack(R.notifications, R.before_grn + 1) }})

        -- :SkillStatus, :SkillReindex
        R.before_cmds = #R.notifications
        vim.cmd('SkillStatus')
        vim.cmd('SkillReindex')
        vim.wait(WAIT_MS, function() return #R.notifications >= R.before_cmds + 2 end, 50)
        R.cmds = vim.tbl_map(function(n) return n.msg end, {{ unpack(R.notifications, R.before_cmds + 1) }})
        R.statusline = require('skill_ls').statusline()

        -- :SkillWhere with a name, runtime and agent: the agent-local copy first
        vim.fn.setqflist({{}}, 'r')
        vim.cmd('SkillWhere code-review runtime=agh agent=reviewer')
        vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
        R.where_agent = vim.tbl_map(function(i) return {{ path = vim.api.nvim_buf_get_name(i.bufnr), text = i.text }} end, vim.fn.getqflist())
        vim.cmd('cclose')

        -- :SkillCatalog workspace=DIR
        vim.cmd('SkillCatalog workspace=' .. {_lua_str(demo.demo)})
        local cat
        vim.wait(WAIT_MS, function()
          cat = vim.fn.bufnr('skill-ls://catalog')
          return cat ~= -1 and buf_text(cat):find('release-notes', 1, true) ~= nil
        end, 50)
        R.catalog = cat ~= -1 and buf_text(cat) or ''

        -- setup({{ where = 'float' }}): :SkillWhere in a floating window
        close_floats()
        require('skill_ls').setup({{ where = 'float' }})
        vim.cmd('SkillWhere code-review')
        vim.wait(WAIT_MS, function() return #floats() > 0 end, 50)
        R.where_float = floats()[1]
        """,
    )
    assert r["attached"]
    assert r["K"] and "winner: `workspace`" in r["K"] and "shadowed: `additional`" in r["K"], r["K"]
    assert any(p.endswith(".agh/agents/reviewer/AGENT.md") for p in r["grr"]), r["grr"]
    assert any("allowed-tools" in t for t in r["gra_titles"]), r["gra_titles"]
    assert "\nallowed-tools: Read Grep" in r["gra_text"], r["gra_text"]
    assert r["omnifunc"] == "v:lua.vim.lsp.omnifunc"
    assert any("Release notes" in s for s in r["symbols"]), r["symbols"]
    assert r["grn"] and any("rename" in m.lower() for m in r["grn"]), r["grn"]
    assert not r.get("grn_prompted"), "grn asked for a new name although nothing can rename"
    assert any("skill(s)" in m and "runtimes:" in m for m in r["cmds"]), r["cmds"]
    assert any("re-indexed" in m for m in r["cmds"]), r["cmds"]
    assert r["statusline"].startswith("skills "), r["statusline"]
    assert r["where_agent"] and r["where_agent"][0]["path"].endswith(".agh/agents/reviewer/skills/code-review/SKILL.md"), r["where_agent"]
    assert "release-notes" in r["catalog"] and "code-review" in r["catalog"], r["catalog"]
    assert r["where_float"] and "winner" in r["where_float"], r["where_float"]


def test_readme_options_turn_the_mappings_and_the_lens_off(demo: Demo) -> None:
    """`vim.g.skill_ls_no_mappings = true` leaves `gd` alone; `vim.g.skill_ls_codelens = false` stops
    the automatic code lens refresh."""
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        -- the index is built and announced (skillLs/indexChanged, which refreshes lenses when allowed)
        R.indexed = vim.wait(WAIT_MS, function() return require('skill_ls').last_index ~= nil end, 50)
        wait_diag(b, 'SH002')
        -- no code lens refresh waiting for its debounce, and the server has answered everything
        vim.wait(WAIT_MS, function() return not require('skill_ls').codelens_pending() end, 20)
        idle()
        R.gd = vim.fn.maparg('gd', 'n', false, true).desc or ''
        R.lenses = #vim.lsp.codelens.get(b)
        """,
        init_extra="vim.g.skill_ls_no_mappings = true\nvim.g.skill_ls_codelens = false\n",
    )
    assert r["attached"] and r["indexed"]
    assert "skill-ls" not in r["gd"], r["gd"]
    assert r["lenses"] == 0



def test_the_lsp_config_without_the_plugin_files_has_every_feature(demo: Demo) -> None:
    """Issue 22: the `lsp/skill_ls.lua` setup without the plugin's plugin/ file (nvim-lspconfig,
    `--noplugin`, a manager that does not source plugin/) had no code lens: it was refreshed from
    plugin/'s LspAttach autocmd. The config's own `on_attach` does it now. With plugin/ not sourced
    and vim.lsp.enable() called by hand: one client at the project root, every file's diagnostics
    equal `skill-ls check`, and the code lens appears by itself."""
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        R.plugin = vim.fn.exists(':SkillCatalog') == 2
        local b = open({_lua_str(demo.ws_review)})
        local c = wait_client(b)
        R.root = c and c.root_dir
        R.diagnostics = settle()
        vim.wait(WAIT_MS, function() return #vim.lsp.codelens.get(b) > 0 end, 50)
        R.lens = vim.tbl_map(function(l) return l.command and l.command.title end, vim.lsp.codelens.get(b))
        """,
        init_extra="vim.go.loadplugins = false\n",
    )
    assert not r["plugin"], "plugin/skill_ls.lua was sourced"
    assert r["root"] and os.path.realpath(r["root"]) == os.path.realpath(demo.demo), r["root"]
    assert triples(r["diagnostics"]) == check(demo.demo), r["_logs"]()
    assert r["lens"] and "winner" in r["lens"][0], r["lens"]


def test_a_git_repository_is_the_project_of_its_nested_skill_directories(demo: Demo, tmp_path) -> None:
    """Root detection (README "One server per project"): `.git` is a project marker too, so a skill in a
    nested `.agh/` of a repository starts the client at the repository, not at `pkg/`."""
    repo = tmp_path / "repo"
    nested = nested_skill(repo, ".git", None, "alpha")
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(nested)})
        local c = wait_client(b)
        R.root = c and c.root_dir
        """,
    )
    assert r["root"] and os.path.realpath(r["root"]) == os.path.realpath(repo), r["root"]


LSPCONFIG_STUB = """\
-- nvim-lspconfig's legacy framework, as much of it as a `configs.X` entry meets: `setup()` starts the
-- server for a buffer of its filetypes at `root_dir(fname, bufnr)`, and not at all when that is nil.
local configs = require('lspconfig.configs')
return setmetatable({}, { __index = function(_, name)
  return { setup = function(opts)
    local config = vim.tbl_deep_extend('force', configs[name].default_config, opts or {})
    vim.api.nvim_create_autocmd('FileType', { pattern = config.filetypes, callback = function(ev)
      local root = config.root_dir(vim.api.nvim_buf_get_name(ev.buf), ev.buf)
      if root then
        vim.lsp.start(vim.tbl_extend('force', config, { name = name, root_dir = root }), { bufnr = ev.buf })
      end
    end })
  end }
end })
"""


def test_the_legacy_lspconfig_snippet_roots_like_the_lsp_config(demo: Demo, tmp_path) -> None:
    """README "nvim-lspconfig users": the legacy `configs.skill_ls` snippet, run against a stand-in
    for nvim-lspconfig's legacy framework, decides roots with lsp/skill_ls.lua's own function (a
    `pyproject.toml` with `[tool.skill-ls]` is a project marker, one without it is not), starts no
    client for other Markdown files, and carries the code lens command."""
    import re

    readme = (NVIM_DIR / "README.md").read_text(encoding="utf-8")
    snippet = re.search(r"legacy `require\('lspconfig'\)\.X\.setup\{\}` style.*?```lua\n(.*?)```", readme, re.S)
    assert snippet, "the README has no legacy nvim-lspconfig snippet"
    assert "root_pattern" not in snippet.group(1), "the snippet copies root markers instead of sharing them"
    lua = demo.tmp / "nvim" / "xdg_config_home" / "nvim" / "lua"
    (lua / "lspconfig").mkdir(parents=True)
    (lua / "lspconfig" / "configs.lua").write_text("return {}\n")
    (lua / "lspconfig.lua").write_text(LSPCONFIG_STUB)
    proj, plain, repo = tmp_path / "proj", tmp_path / "plain", tmp_path / "repo"
    alpha = nested_skill(proj, "pyproject.toml", '[project]\nname = "x"\n\n[tool.skill-ls]\nruntimes = ["agh"]\n', "alpha")
    beta = nested_skill(plain, "pyproject.toml", '[project]\nname = "y"\n', "beta")
    gamma = nested_skill(repo, ".git", None, "gamma")
    (proj / "README.md").write_text("# Not a skill\n")
    r = run_nvim(
        demo,
        f"""
        R.roots = {{}}
        for i, path in ipairs({{ {_lua_str(alpha)}, {_lua_str(beta)}, {_lua_str(gamma)} }}) do
          local b = open(path)
          local c = wait_client(b)
          R.roots[i] = c and c.root_dir or vim.NIL
          R.lens_command = R.lens_command or (c and c.commands and c.commands['skillLs.where'] ~= nil)
          vim.lsp.stop_client(vim.lsp.get_clients({{ name = 'skill_ls' }}), true)
          vim.wait(5000, function() return #vim.lsp.get_clients({{ name = 'skill_ls' }}) == 0 end, 50)
          vim.cmd('bwipeout! ' .. b)
        end
        local readme = open({_lua_str(proj / "README.md")})
        idle()
        R.readme_clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        """,
        enable=False,
        init_extra=snippet.group(1),
    )
    assert [os.path.realpath(p) if p else p for p in r["roots"]] == [
        os.path.realpath(p) for p in (proj, plain / "pkg", repo)], r["roots"]
    assert r["lens_command"], "the legacy client runs the code lens without the client-side command"
    assert r["readme_clients"] == 0
