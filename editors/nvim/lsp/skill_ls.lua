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

--- Workspace root markers. Project markers win over skill directories: the nearest ancestor holding a
--- project marker is the workspace, so a skill in an additional root inside the project (the demo's
--- `shared/.agh/...`) or in a nested `.agh/` joins the project's client instead of becoming its own root.
--- Only without any project marker does the nearest skill directory (`.agh`, `.agents`, `.claude`) decide.
local project_markers = { '.skill-ls.toml', 'pyproject.toml', '.git' }
local skill_markers = { '.agh', '.agents', '.claude' }
local root_markers = { '.skill-ls.toml', 'pyproject.toml', '.git', '.agh', '.agents', '.claude' }

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

--- Does `dir` hold a project marker? `pyproject.toml` counts only with a `[tool.skill-ls]` table.
local function has_project_marker(dir)
  for _, marker in ipairs(project_markers) do
    local file = dir .. '/' .. marker
    if uv.fs_stat(file) then
      if marker ~= 'pyproject.toml' then
        return true
      end
      local f = io.open(file, 'r')
      if f then
        local text = f:read('*a') or ''
        f:close()
        if text:find('%[tool%.skill%-ls[%].]') then
          return true
        end
      end
    end
  end
  return false
end

--- The workspace root for `path`: the nearest ancestor with a project marker, else the nearest one with a
--- skill directory marker (never a directory inside .agh/.claude/.agents/.codex). Second value: whether a
--- project marker decided.
---@param path string
---@return string?, boolean
local function find_root(path)
  local fallback
  for dir in vim.fs.parents(path) do
    if not inside_skill_dir(dir) then
      if has_project_marker(dir) then
        return dir, true
      end
      if not fallback then
        for _, marker in ipairs(skill_markers) do
          if uv.fs_stat(dir .. '/' .. marker) then
            fallback = dir
            break
          end
        end
      end
    end
  end
  return fallback, false
end

--- Is some running skill_ls client's workspace folder an ancestor of `path`? Returns its root.
local function running_client_for(path)
  local running = vim.lsp.get_clients({ name = 'skill_ls' })
  for i = #running, 1, -1 do
    local client = running[i]
    if not client:is_stopped() then
      for _, folder in ipairs(client.workspace_folders or {}) do
        local dir = vim.uri_to_fname(folder.uri)
        if path:sub(1, #dir + 1) == dir .. '/' then
          return dir
        end
      end
    end
  end
  return nil
end

--- The most recently started running skill_ls client's root, if any.
local function any_running_root()
  local running = vim.lsp.get_clients({ name = 'skill_ls' })
  for i = #running, 1, -1 do
    local client = running[i]
    if not client:is_stopped() and client.root_dir then
      return client.root_dir
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
    -- A folder of a running client (its root or one added with vim.lsp.buf.add_workspace_folder) holds
    -- the file: that client (reuse_client matches on the workspace folder).
    local owner = running_client_for(path)
    if owner then
      return on_dir(owner)
    end
    local root, by_project = find_root(path)
    local home = normalize(vim.env.HOME or uv.os_homedir())
    -- No project of its own (a user root, an additional root outside any project): join the running
    -- client, whose configuration says how this file is read.
    if not by_project or root == home or in_user_root(path) then
      local running = any_running_root()
      if running then
        return on_dir(running)
      end
    end
    on_dir(root or vim.fs.dirname(path))
  end,
  -- Section `skillLs` (docs/lsp-protocol.md). vim.empty_dict(): an empty Lua table would be sent as a
  -- JSON array (`"skillLs": []`), which the server rejects as a settings object.
  settings = { skillLs = vim.empty_dict() },
  -- Client-side commands: running the code lens shows the declarations (quickfix list, winner first)
  -- instead of sending skillLs.where and dropping the answer.
  commands = {
    ['skillLs.where'] = function(command, ctx)
      local ok, skill_ls = pcall(require, 'skill_ls')
      if ok and type(skill_ls) == 'table' and skill_ls.run_where_lens then
        return skill_ls.run_where_lens(command, ctx)
      end
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if client then
        client:request('workspace/executeCommand', command, function(err, result)
          vim.notify(err and ('skill-ls: ' .. (err.message or vim.inspect(err))) or vim.inspect(result))
        end, ctx.bufnr)
      end
    end,
  },
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
