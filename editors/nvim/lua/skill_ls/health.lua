-- :checkhealth skill_ls
local M = {}

local health = vim.health

--- The python interpreter that runs `exe` (from its shebang), if it is a Python console script.
local function shebang_python(exe)
  local f = io.open(exe, 'r')
  if not f then
    return nil
  end
  local first = f:read('*l') or ''
  f:close()
  local interp = first:match('^#!%s*(%S*python[%w%.]*)%s*$')
  if interp and vim.fn.executable(interp) == 1 then
    return interp
  end
  return nil
end

local function run(cmd, timeout)
  local ok, obj = pcall(function()
    return vim.system(cmd, { text = true }):wait(timeout or 10000)
  end)
  if not ok then
    return nil, tostring(obj)
  end
  return obj
end

local function check_python(python, label)
  local res, err = run({ python, '-c', 'import skill_ls, pygls, lsprotocol; print(getattr(skill_ls, "__version__", "?"))' })
  if not res then
    health.error(('%s: could not run %s: %s'):format(label, python, err))
    return false
  end
  if res.code == 0 then
    health.ok(('%s: `import skill_ls` works (skill-ls %s) with %s'):format(label, vim.trim(res.stdout or ''), python))
    return true
  end
  local msg = vim.trim(res.stderr or '')
  msg = msg:match('([^\n]*)$') or msg
  health.error(('%s: `import skill_ls` failed with %s: %s'):format(label, python, msg), {
    ':SkillInstall (a private venv built from this plugin\'s checkout)',
    'or, into this interpreter, from a skill-ls checkout: python -m pip install /path/to/skill-ls',
  })
  return false
end

function M.check()
  health.start('skill-ls: Neovim')
  local v = vim.version()
  local vs = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. vs .. ' (0.11 or newer required)')
  else
    health.error('Neovim ' .. vs .. ' is too old: 0.11 or newer is required for vim.lsp.config/vim.lsp.enable')
    return
  end

  health.start('skill-ls: configuration')
  local config = vim.lsp.config and vim.lsp.config.skill_ls or nil
  local cmd
  if type(config) == 'table' and config.cmd then
    health.ok('lsp/skill_ls.lua found on runtimepath (vim.lsp.config.skill_ls)')
    cmd = config.cmd
  else
    health.warn("no vim.lsp.config.skill_ls: lsp/skill_ls.lua is not on 'runtimepath'", {
      "Install the plugin (the repository root, or editors/nvim, on 'runtimepath'): :help skill-ls-install",
    })
    cmd = { 'skill-language-server' }
  end
  local enabled = false
  if vim.lsp.is_enabled then
    enabled = vim.lsp.is_enabled('skill_ls')
  elseif vim.lsp._enabled_configs then
    enabled = vim.lsp._enabled_configs.skill_ls ~= nil
  end
  if enabled then
    health.ok("vim.lsp.enable('skill_ls') has been called")
  else
    health.warn("skill_ls is not enabled", { "Add vim.lsp.enable('skill_ls') to your init.lua" })
  end

  health.start('skill-ls: server')
  local install = require('skill_ls.install')
  if vim.fn.executable(install.venv_bin('skill-language-server')) == 1 then
    health.ok(('private venv (:SkillInstall): %s'):format(install.venv_dir()))
  else
    health.info(('no private venv at %s (:SkillInstall builds it from %s)'):format(install.venv_dir(), install.checkout()))
  end
  local python
  if type(cmd) == 'table' and type(cmd[1]) == 'string' then
    local exe = vim.fn.exepath(cmd[1])
    if exe ~= '' then
      health.ok(('server command `%s` found: %s'):format(table.concat(cmd, ' '), exe))
      if cmd[1]:match('python[%d%.]*$') then
        python = exe
      else
        python = shebang_python(exe)
      end
    else
      health.error(('server executable `%s` not found (no private venv at %s, not on $PATH)'):format(cmd[1], install.venv_dir()), {
        ":SkillInstall (a private venv built from this plugin's checkout " .. install.checkout() .. ')',
        "or: vim.lsp.config('skill_ls', { cmd = { '/path/to/python', '-m', 'skill_ls', 'serve' } })",
      })
    end
  elseif type(cmd) == 'function' then
    health.info('server command is a function (custom transport); not checked')
  end
  if python then
    check_python(python, 'server interpreter')
  else
    local found = false
    for _, p in ipairs({ 'python3', 'python' }) do
      if vim.fn.executable(p) == 1 then
        found = true
        check_python(vim.fn.exepath(p), p)
        break
      end
    end
    if not found then
      health.warn('no python3 in $PATH')
    end
  end

  health.start('skill-ls: clients')
  local clients = vim.lsp.get_clients({ name = 'skill_ls' })
  if #clients == 0 then
    health.info('no skill_ls client is running (open a SKILL.md or AGENT.md to start one)')
  end
  for _, c in ipairs(clients) do
    local info = c.server_info or {}
    local names = {}
    for b in pairs(c.attached_buffers or {}) do
      if vim.api.nvim_buf_is_valid(b) then
        names[#names + 1] = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':~:.')
      end
    end
    table.sort(names)
    local shown = table.concat(vim.list_slice(names, 1, 5), ', ') .. (#names > 5 and ', ...' or '')
    local line = ('client %d: %s %s, root %s, attached to %d buffer(s)%s'):format(
      c.id,
      info.name or 'skill-ls',
      info.version or '',
      tostring(c.root_dir),
      #names,
      #names > 0 and (': ' .. shown) or ''
    )
    if c:is_stopped() then
      health.warn(line .. ' (stopped)')
    else
      health.ok(line)
    end
  end
end

return M
