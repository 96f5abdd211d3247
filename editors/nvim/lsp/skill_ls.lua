-- skill-ls: language server for Agent Skills (SKILL.md) and agent definitions (AGENT.md).
--
-- A Neovim 0.11+ LSP config. Put this directory on 'runtimepath' (or copy this file to
-- ~/.config/nvim/lsp/skill_ls.lua) and call:
--
--   vim.lsp.enable('skill_ls')
--
-- Override anything with vim.lsp.config('skill_ls', { ... }), e.g.
--   vim.lsp.config('skill_ls', { cmd = { '/path/to/python', '-m', 'skill_ls', 'serve' } })
--   vim.lsp.config('skill_ls', { settings = { skillLs = { runtimes = { 'agh' } } } })
--
-- The file is self-contained (it does not need lua/skill_ls/ to be on 'runtimepath').
-- The client only starts for, and only attaches to, skill and agent files:
--   SKILL.md, skill.md, AGENT.md, .claude/agents/**/*.md, workspace/agents/*.md

local uv = vim.uv or vim.loop

--- Workspace root markers, all of equal priority: the nearest ancestor holding any of them wins.
local root_markers = { '.skill-ls.toml', '.agh', '.agents', '.claude', '.git' }

--- Directories that hold skills/agents *inside* a workspace; an ancestor inside one of them is never
--- the workspace root (a skill checked out as a git submodule must not become its own workspace).
local skill_dirs = { ['.agh'] = true, ['.agents'] = true, ['.claude'] = true, ['.codex'] = true }

local function normalize(path)
  if not path or path == '' then
    return nil
  end
  return vim.fs.normalize(path)
end

--- Is `path` a skill or agent definition the server analyses?
---@param path string
---@return boolean
local function is_skill_file(path)
  path = normalize(path)
  if not path then
    return false
  end
  local base = vim.fs.basename(path)
  if base == 'SKILL.md' or base == 'skill.md' or base == 'AGENT.md' then
    return true
  end
  if not base:match('%.md$') then
    return false
  end
  if path:find('/.claude/agents/', 1, true) then
    return true
  end
  return path:match('/workspace/agents/[^/]+%.md$') ~= nil
end

--- Does the directory `dir` have an ancestor-or-self component that is a skills directory?
local function inside_skill_dir(dir)
  for part in dir:gmatch('[^/]+') do
    if skill_dirs[part] then
      return true
    end
  end
  return false
end

--- Nearest ancestor of `path` that holds a root marker and is not inside .agh/.claude/.agents/.codex.
---@param path string
---@return string?
local function find_root(path)
  for dir in vim.fs.parents(path) do
    if not inside_skill_dir(dir) then
      for _, marker in ipairs(root_markers) do
        if uv.fs_stat(dir .. '/' .. marker) then
          return dir
        end
      end
    end
  end
  return nil
end

--- Is `path` under one of the user-level roots ($HOME's tiers, $AGH_HOME, $CODEX_HOME)?
local function in_user_root(path)
  local homes = {}
  for _, var in ipairs({ 'AGH_HOME', 'CODEX_HOME' }) do
    local v = normalize(vim.env[var])
    if v then
      homes[#homes + 1] = v
    end
  end
  local home = normalize(vim.env.HOME or uv.os_homedir())
  if home then
    for _, sub in ipairs({ '.agh', '.claude', '.codex', '.agents', '.config/amp' }) do
      homes[#homes + 1] = home .. '/' .. sub
    end
  end
  for _, h in ipairs(homes) do
    if path:sub(1, #h + 1) == h .. '/' then
      return true
    end
  end
  return false
end

---@type vim.lsp.Config
return {
  cmd = { 'skill-language-server' },
  filetypes = { 'markdown' },
  -- Documentation and nvim-lspconfig compatibility; `root_dir` below takes precedence.
  root_markers = root_markers,
  --- Gate: only start/attach for skill and agent files. A file in a user-level root ($AGH_HOME,
  --- ~/.claude/agents, ...) joins the running skill_ls client (its shadows are workspace-relative)
  --- instead of starting a second server rooted at $HOME.
  ---@param bufnr integer
  ---@param on_dir fun(root_dir?: string)
  root_dir = function(bufnr, on_dir)
    local path = normalize(vim.api.nvim_buf_get_name(bufnr))
    if not path or not is_skill_file(path) then
      return
    end
    local root = find_root(path)
    local home = normalize(vim.env.HOME or uv.os_homedir())
    if not root or root == home or in_user_root(path) then
      local running = vim.lsp.get_clients({ name = 'skill_ls' })
      for i = #running, 1, -1 do
        local client = running[i]
        if not client:is_stopped() and client.root_dir then
          return on_dir(client.root_dir)
        end
      end
    end
    on_dir(root or vim.fs.dirname(path))
  end,
  -- Section `skillLs` (docs/lsp-protocol.md). vim.empty_dict(): an empty Lua table would be sent as a
  -- JSON array (`"skillLs": []`), which the server rejects as a settings object.
  settings = { skillLs = vim.empty_dict() },
  handlers = {
    -- Refresh open :SkillCatalog previews and the agent-name cache (lua/skill_ls, if installed).
    ['skillLs/indexChanged'] = function(err, result, ctx)
      local ok, skill_ls = pcall(require, 'skill_ls')
      if ok and type(skill_ls) == 'table' and skill_ls.on_index_changed then
        skill_ls.on_index_changed(err, result, ctx)
      end
    end,
  },
}
