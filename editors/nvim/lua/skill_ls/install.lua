-- :SkillInstall — the server in a private virtual environment, built from this plugin's own
-- checkout (the repository that holds editors/nvim), as mason.nvim installs servers: nothing goes
-- into the system Python, and the server's version is the plugin's.
--
--   <stdpath('data')>/skill-ls/venv        (vim.g.skill_ls_venv overrides it)
--   python3 -m venv [g:skill_ls_venv_args] <venv>
--   <venv>/bin/python -m pip install --upgrade [g:skill_ls_pip_args] <checkout>
--
-- g:skill_ls_venv_args / g:skill_ls_pip_args (lists of strings) are passed to those two commands as
-- they are: an offline or mirrored install (`{'--no-index', '--find-links', '/wheels'}`, `{'--index-url',
-- url}`), or a venv that reuses the system's packages (`{'--system-site-packages'}`).
--
-- lsp/skill_ls.lua runs <venv>/bin/skill-language-server when it exists, else
-- `skill-language-server` from PATH. lazy.nvim runs the repository's build.lua (this install) after
-- cloning or updating the plugin.

local M = {}

local is_win = vim.fn.has('win32') == 1

--- The repository checkout this plugin belongs to (editors/nvim/lua/skill_ls/install.lua -> ../../../..).
---@return string
function M.checkout()
  local here = debug.getinfo(1, 'S').source:sub(2)
  return vim.fs.normalize(vim.fn.fnamemodify(here, ':p:h:h:h:h:h'))
end

---@return string
function M.venv_dir()
  return vim.fs.normalize(vim.g.skill_ls_venv or (vim.fn.stdpath('data') .. '/skill-ls/venv'))
end

---@param name string
---@return string
function M.venv_bin(name)
  return M.venv_dir() .. (is_win and ('/Scripts/' .. name .. '.exe') or ('/bin/' .. name))
end

--- The server command: the private venv's, else `skill-language-server` on PATH.
---@return string[]
function M.server_cmd()
  local exe = M.venv_bin('skill-language-server')
  if vim.fn.executable(exe) == 1 then
    return { exe }
  end
  return { 'skill-language-server' }
end

--- A Python >= 3.10 to build the venv with: vim.g.skill_ls_python, else python3, else python.
---@return string? python, string? why
function M.find_python()
  local tried = {}
  local candidates = type(vim.g.skill_ls_python) == 'string' and { vim.g.skill_ls_python } or { 'python3', 'python' }
  for _, p in ipairs(candidates) do
    if vim.fn.executable(p) == 1 then
      local res = vim.system({ p, '-c', 'import sys; print("%d.%d" % sys.version_info[:2])' }, { text = true }):wait(15000)
      local major, minor = vim.trim(res.stdout or ''):match('^(%d+)%.(%d+)$')
      if res.code == 0 and major and (tonumber(major) > 3 or (tonumber(major) == 3 and tonumber(minor) >= 10)) then
        return vim.fn.exepath(p)
      end
      tried[#tried + 1] = ('%s (%s)'):format(p, major and (major .. '.' .. minor) or 'does not run')
    end
  end
  return nil, #tried > 0 and ('Python 3.10 or newer is needed; found ' .. table.concat(tried, ', '))
    or 'no python3 on PATH (set vim.g.skill_ls_python to a Python 3.10+ interpreter)'
end

local function log_path()
  return vim.fn.stdpath('log') .. '/skill-ls-install.log'
end

local function say(msg, level)
  vim.notify('skill-ls: ' .. msg, level or vim.log.levels.INFO, { title = 'skill-ls' })
end

--- vim.g[name] as a list of strings (nil/unset: empty); nil when it is something else.
---@param name string
---@return string[]?
function M.extra_args(name)
  local v = vim.g[name]
  if v == nil then
    return {}
  end
  if type(v) ~= 'table' or not vim.iter(v):all(function(x) return type(x) == 'string' end) then
    return nil
  end
  return vim.deepcopy(v)
end

--- The steps, each an argv.
---@return string[][]? steps, string? why
function M.steps()
  local root = M.checkout()
  if vim.fn.filereadable(root .. '/pyproject.toml') ~= 1 then
    return nil, ('%s holds no pyproject.toml: this plugin is not inside a skill-ls checkout'):format(root)
  end
  local python, why = M.find_python()
  if not python then
    return nil, why
  end
  local venv_args, pip_args = M.extra_args('skill_ls_venv_args'), M.extra_args('skill_ls_pip_args')
  if not venv_args or not pip_args then
    return nil, ('g:%s must be a list of strings'):format(venv_args and 'skill_ls_pip_args' or 'skill_ls_venv_args')
  end
  local venv_python = M.venv_bin('python')
  local steps = {}
  if vim.fn.executable(venv_python) ~= 1 then
    steps[#steps + 1] = vim.list_extend(vim.list_extend({ python, '-m', 'venv' }, venv_args), { M.venv_dir() })
  end
  local pip = { venv_python, '-m', 'pip', 'install', '--disable-pip-version-check', '--upgrade' }
  steps[#steps + 1] = vim.list_extend(vim.list_extend(pip, pip_args), { root })
  return steps
end

--- Install (or update) the server. `opts.wait`: synchronously (lazy.nvim's build, scripts);
--- otherwise in the background with a message when done. On success the config is read again and
--- the open skill buffers get their client (running clients are restarted on the new server).
---@param opts? {wait?: boolean, on_done?: fun(ok: boolean, message: string)}
---@return boolean? ok when `wait`
function M.install(opts)
  opts = opts or {}
  local steps, why = M.steps()
  local function finish(ok, message)
    if ok then
      say(message)
      vim.lsp.config('skill_ls', {}) -- lsp/skill_ls.lua is read again: its cmd is now the venv's
      local sl = require('skill_ls')
      if #vim.lsp.get_clients({ name = 'skill_ls' }) > 0 then
        sl.restart()
      else
        sl.start_for_open_buffers()
      end
    else
      say(message, vim.log.levels.ERROR)
    end
    if opts.on_done then
      opts.on_done(ok, message)
    end
    return ok
  end
  if not steps then
    return finish(false, 'cannot install the server: ' .. why)
  end
  vim.fn.mkdir(vim.fn.stdpath('log'), 'p')
  local log = assert(io.open(log_path(), 'w'))
  local i = 0
  local run_next
  local function done_step(res)
    log:write(('$ %s\n%s%s[exit %d]\n'):format(table.concat(steps[i], ' '), res.stdout or '', res.stderr or '', res.code))
    if res.code ~= 0 then
      log:close()
      local last = vim.trim(res.stderr or ''):match('([^\n]*)$') or ''
      return finish(false, ('installing the server failed (%s): %s — see %s'):format(steps[i][3] == 'venv' and 'venv' or 'pip', last, log_path()))
    end
    return run_next()
  end
  run_next = function()
    i = i + 1
    if i > #steps then
      log:close()
      return finish(true, ('server installed in %s (from %s)'):format(M.venv_dir(), M.checkout()))
    end
    if opts.wait then
      return done_step(vim.system(steps[i], { text = true }):wait())
    end
    vim.system(steps[i], { text = true }, vim.schedule_wrap(done_step))
  end
  say(('installing the server into %s (pip install %s) ...'):format(M.venv_dir(), M.checkout()))
  return run_next()
end

return M
