-- lazy.nvim runs this file after installing or updating the plugin (no `build` needed in the spec):
-- the server goes into a private venv built from this checkout (:SkillInstall). :help skill-ls
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local dir = root .. '/editors/nvim'
if not vim.list_contains(vim.api.nvim_list_runtime_paths(), dir) then
  vim.opt.runtimepath:append(dir)
end
if not require('skill_ls.install').install({ wait = true }) then
  error('skill-ls: installing the server failed (see :messages)')
end
