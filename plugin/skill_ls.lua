-- The repository as a Neovim plugin (lazy.nvim, vim.pack, a pack/*/start clone, 'runtimepath'):
-- the plugin itself lives in editors/nvim. Put that directory on 'runtimepath' (lsp/, lua/, doc/)
-- and load its plugin/ file; build its help tags once. :help skill-ls
local here = debug.getinfo(1, 'S').source:sub(2)
local dir = vim.fs.normalize(vim.fn.fnamemodify(here, ':p:h:h') .. '/editors/nvim')
if vim.fn.isdirectory(dir) == 0 then
  return
end
if not vim.list_contains(vim.api.nvim_list_runtime_paths(), dir) then
  vim.opt.runtimepath:append(dir)
end
local doc = dir .. '/doc'
if vim.fn.getftime(doc .. '/tags') < vim.fn.getftime(doc .. '/skill-ls.txt') then
  pcall(vim.cmd.helptags, vim.fn.fnameescape(doc)) -- a read-only checkout: :help skill-ls needs `:helptags ALL`
end
dofile(dir .. '/plugin/skill_ls.lua') -- guarded by vim.g.loaded_skill_ls
