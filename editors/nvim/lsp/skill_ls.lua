-- skill-ls: the language server for Agent Skills (SKILL.md), agent definitions (AGENT.md) and
-- Claude Code plugin agents and commands. :help skill-ls
--
-- Part of the skill-ls plugin (its lua/skill_ls/ modules do the work); the plugin enables it.
-- Override any field with vim.lsp.config('skill_ls', { ... }), e.g.
--   vim.lsp.config('skill_ls', { cmd = { '/path/to/python', '-m', 'skill_ls', 'serve' } })
--   vim.lsp.config('skill_ls', { settings = { skillLs = { runtimes = { 'agh' } } } })

---@type vim.lsp.Config
return {
  -- :SkillInstall's private venv, else `skill-language-server` on PATH
  cmd = require('skill_ls.install').server_cmd(),
  filetypes = { 'markdown' },
  -- Only files the server analyses get a client, one per project (lua/skill_ls/project.lua).
  root_dir = function(bufnr, on_dir)
    require('skill_ls.project').root_dir(bufnr, on_dir)
  end,
  -- Section `skillLs`, a camelCase mirror of .skill-ls.toml. vim.empty_dict(): an empty Lua table
  -- would be sent as a JSON array, which the server rejects as a settings object.
  settings = { skillLs = vim.empty_dict() },
  -- Code lens kept fresh, `gd` to the winning declaration.
  on_attach = function(client, bufnr)
    require('skill_ls').on_attach(client, bufnr)
  end,
  -- Running the code lens lists the declarations, winner first (quickfix list).
  commands = {
    ['skillLs.where'] = function(command, ctx)
      return require('skill_ls').run_where_lens(command, ctx)
    end,
  },
  handlers = {
    -- Which roots the server reads (for files outside every project), catalog previews, code lens.
    ['skillLs/indexChanged'] = function(err, result, ctx)
      return require('skill_ls').on_index_changed(err, result, ctx)
    end,
    -- One line that fits, never a "Press ENTER" prompt.
    ['window/showMessage'] = function(err, result, ctx)
      return require('skill_ls').on_show_message(err, result, ctx)
    end,
  },
}
