-- skill-ls user commands. The LSP client itself is configured in lsp/skill_ls.lua and started with
-- vim.lsp.enable('skill_ls').
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

-- A server that cannot start is reported when a skill/agent file is opened (not only in :checkhealth).
vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('skill_ls_server_check', { clear = true }),
  pattern = 'markdown',
  callback = function(ev)
    sl().check_server(ev.buf)
  end,
})

-- `gd` in skill/agent buffers: go to the winning declaration (winner-first quickfix list), unless the
-- buffer already has a `gd` mapping or vim.g.skill_ls_no_mappings is set.
vim.api.nvim_create_autocmd('LspAttach', {
  group = vim.api.nvim_create_augroup('skill_ls_attach', { clear = true }),
  callback = function(ev)
    local client = vim.lsp.get_client_by_id(ev.data.client_id)
    if not client or client.name ~= 'skill_ls' then
      return
    end
    -- Code lens ("winner · workspace — shadows 2") kept fresh without :lua vim.lsp.codelens.refresh():
    -- on attach, when entering the buffer, after edits, and on skillLs/indexChanged (lua/skill_ls).
    if vim.g.skill_ls_codelens ~= false and client:supports_method('textDocument/codeLens') then
      sl().refresh_codelens(ev.buf)
      vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged', 'BufWritePost' }, {
        group = vim.api.nvim_create_augroup('skill_ls_codelens_' .. ev.buf, { clear = true }),
        buffer = ev.buf,
        callback = function(args)
          sl().refresh_codelens(args.buf)
        end,
      })
    end
    if vim.g.skill_ls_no_mappings then
      return
    end
    local existing = vim.api.nvim_buf_call(ev.buf, function()
      return vim.fn.maparg('gd', 'n', false, true)
    end)
    if type(existing) == 'table' and existing.buffer == 1 then
      return
    end
    vim.keymap.set('n', 'gd', function()
      sl().definition()
    end, { buffer = ev.buf, desc = 'skill-ls: go to the winning declaration' })
  end,
})
