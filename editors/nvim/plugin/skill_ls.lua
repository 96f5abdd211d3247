-- skill-ls: user commands, and vim.lsp.enable('skill_ls') (the client is configured in
-- lsp/skill_ls.lua). Set vim.g.skill_ls_enable = false before the plugin loads to enable it yourself.
-- :help skill-ls
if vim.g.loaded_skill_ls then
  return
end
vim.g.loaded_skill_ls = true

if vim.fn.has('nvim-0.11') ~= 1 then
  vim.api.nvim_echo({ { 'skill-ls: Neovim 0.11 or newer is required (see :checkhealth skill_ls)', 'WarningMsg' } }, true, {})
  return
end

local function sl()
  return require('skill_ls')
end

vim.api.nvim_create_user_command('SkillCatalog', function(opts)
  sl().catalog(sl().parse_catalog_args(opts.fargs))
end, {
  nargs = '*',
  desc = 'skill-ls: show the effective skill catalog ([agent] [runtime=R] [workspace=DIR])',
  complete = function(arglead, cmdline, pos)
    return sl().complete_catalog(arglead, cmdline, pos)
  end,
})

vim.api.nvim_create_user_command('SkillWhere', function(opts)
  sl().where(sl().parse_where_args(opts.fargs))
end, {
  nargs = '*',
  desc = 'skill-ls: every declaration of a skill name, winner first ({name} [runtime=R] [agent=A])',
  complete = function(arglead)
    return sl().complete_where(arglead)
  end,
})

vim.api.nvim_create_user_command('SkillReindex', function()
  sl().reindex()
end, { nargs = 0, desc = 'skill-ls: re-index the workspace and user roots' })

vim.api.nvim_create_user_command('SkillStatus', function()
  sl().status()
end, { nargs = 0, desc = 'skill-ls: number of skills and agents, active runtimes' })

vim.api.nvim_create_user_command('SkillInstall', function()
  require('skill_ls.install').install()
end, { nargs = 0, desc = "skill-ls: install or update the server in a private venv from the plugin's checkout" })

vim.api.nvim_create_user_command('SkillRestart', function()
  sl().restart()
end, { nargs = 0, desc = 'skill-ls: restart the language server(s)' })

local group = vim.api.nvim_create_augroup('skill_ls_plugin', { clear = true })

-- A server that cannot start is reported when a skill/agent file is opened (not only in :checkhealth),
-- after the FileType autocmds and as a warning (lua/skill_ls check_server).
vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = 'markdown',
  callback = function(ev)
    pcall(sl().check_server, ev.buf)
  end,
})

-- Diagnostics the server pushed before the buffer was loaded: draw them when it is.
vim.api.nvim_create_autocmd('BufWinEnter', {
  group = group,
  callback = function(ev)
    if vim.bo[ev.buf].buftype == '' and sl().is_skill_file(vim.api.nvim_buf_get_name(ev.buf)) then
      sl().show_stored_diagnostics(ev.buf)
    end
  end,
})

if vim.g.skill_ls_enable ~= false then
  vim.lsp.enable('skill_ls')
end
