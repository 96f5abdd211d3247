-- skill-ls Neovim helpers: :SkillCatalog, :SkillWhere, :SkillReindex, :SkillStatus.
-- The commands are thin wrappers around the server's workspace/executeCommand commands
-- (docs/lsp-protocol.md): skillLs.renderCatalog, skillLs.where, skillLs.listAgents, skillLs.reindex,
-- skillLs.status.

local M = {}

M.name = 'skill_ls'
M.commands = {
  renderCatalog = 'skillLs.renderCatalog',
  where = 'skillLs.where',
  reindex = 'skillLs.reindex',
  status = 'skillLs.status',
  listAgents = 'skillLs.listAgents',
}

M.options = {
  --- How :SkillWhere shows its result: 'quickfix' (default) or 'float'.
  where = 'quickfix',
  --- Open the quickfix window after :SkillWhere.
  open_quickfix = true,
  --- Timeout (ms) of the synchronous requests used by command-line completion.
  complete_timeout = 1000,
  --- The server's window/showMessage: 'echo' (one line that fits, no "Press ENTER") or 'notify'
  --- (the whole message to vim.notify, e.g. for a notification plugin).
  messages = 'echo',
}

--- Optional: override M.options.
---@param opts? table
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', M.options, opts or {})
end

local function notify(msg, level)
  vim.notify('skill-ls: ' .. msg, level or vim.log.levels.INFO, { title = 'skill-ls' })
end
M.notify = notify

--- Is `path` a file the server analyses (a skill, an agent definition, a plugin agent or command)?
--- (skill_ls.project decides, from lists generated from the server's descriptors.)
---@param path string
---@return boolean
function M.is_skill_file(path)
  return require('skill_ls.project').is_server_file(path)
end

--- lsp/skill_ls.lua as nvim-lspconfig's legacy `default_config` (`require('lspconfig.configs').skill_ls`):
--- the same command, settings, client commands (the code lens) and handlers, and the same root
--- detection (project markers, `pyproject.toml` with `[tool.skill-ls]` included, then skill directories)
--- behind the legacy `root_dir(fname, bufnr)` signature, which returns nil for a file that is not a skill
--- or agent (no client). Not a copy: the config is read from lsp/skill_ls.lua on the runtimepath.
---@return table
function M.lspconfig_default_config()
  local ok, config = pcall(function()
    return vim.lsp.config[M.name]
  end)
  if not ok or type(config) ~= 'table' or type(config.root_dir) ~= 'function' then
    error("skill-ls: lsp/skill_ls.lua is not on 'runtimepath' (add editors/nvim to it)", 2)
  end
  config = vim.deepcopy(config)
  local root_dir = config.root_dir
  config.root_dir = function(fname, bufnr)
    if bufnr == nil or bufnr == 0 then
      bufnr = vim.fn.bufnr(fname) -- older nvim-lspconfig passes the file name only
    end
    if bufnr < 0 then
      return nil
    end
    local root
    root_dir(bufnr, function(dir)
      root = dir
    end)
    return root
  end
  return config
end

--- The skill_ls client for `bufnr` (attached to it), else the most recently started one.
---@param bufnr? integer
---@return vim.lsp.Client?
function M.get_client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local attached = vim.lsp.get_clients({ name = M.name, bufnr = bufnr })
  if attached[1] then
    return attached[1]
  end
  local all = vim.lsp.get_clients({ name = M.name })
  for i = #all, 1, -1 do
    if not all[i]:is_stopped() then
      return all[i]
    end
  end
  return nil
end

--- The workspace folder (of `client`) that holds the file in `bufnr`, or nil (a file outside every
--- folder: the server's default workspace answers). Commands pass it so a multi-root client answers
--- for the folder the user is looking at.
---@param bufnr integer
---@param client vim.lsp.Client
---@return string?
function M.workspace_for(bufnr, client)
  local arg = M.catalog_buffers[bufnr]
  if arg and arg.workspace then
    return arg.workspace
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  local path = vim.fs.normalize(vim.fn.fnamemodify(name, ':p'))
  local best
  for _, folder in ipairs(client.workspace_folders or {}) do
    local dir = vim.fs.normalize(vim.uri_to_fname(folder.uri))
    if (path == dir or path:sub(1, #dir + 1) == dir .. '/') and (not best or #dir > #best) then
      best = dir
    end
  end
  return best
end

--- Neovim 0.11's vim.lsp.enable() silently skips a config whose `cmd` is not executable: only
--- :checkhealth would say why nothing happens. Say it once per command, when a skill file is opened:
--- after the FileType autocmds (vim.schedule) and as a warning, so no error message interrupts other
--- plugins' FileType autocmds for that buffer and no traceback is printed.
local reported_missing = {}
---@param bufnr integer
---@return boolean missing
function M.check_server(bufnr)
  local enabled = (vim.lsp.is_enabled and vim.lsp.is_enabled(M.name))
    or (vim.lsp._enabled_configs ~= nil and vim.lsp._enabled_configs[M.name] ~= nil)
  if not enabled or not M.is_skill_file(vim.api.nvim_buf_get_name(bufnr)) then
    return false
  end
  local ok, config = pcall(function()
    return vim.lsp.config[M.name]
  end)
  local cmd = ok and type(config) == 'table' and config.cmd or nil
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' or vim.fn.executable(cmd[1]) == 1 then
    return false
  end
  if not reported_missing[cmd[1]] then
    reported_missing[cmd[1]] = true
    vim.schedule(function()
      notify(M.install_hint(cmd[1]), vim.log.levels.WARN)
    end)
  end
  return true
end

--- What to do when the server command `exe` is missing.
function M.install_hint(exe)
  return ("the language server '%s' is not installed or not executable. Run :SkillInstall (a private venv "
    .. "from this plugin's checkout), or point vim.lsp.config('skill_ls', { cmd = { '/path/to/skill-language-server' } }) "
    .. 'at one (:checkhealth skill_ls)'):format(exe)
end

local NO_CLIENT = 'no skill_ls client is running. Open a SKILL.md or AGENT.md in a workspace '
  .. "(with vim.lsp.enable('skill_ls')), or run :checkhealth skill_ls"

--- A command argument object: an empty Lua table would be sent as a JSON array.
local function obj(arg)
  if type(arg) ~= 'table' or next(arg) == nil then
    return vim.empty_dict()
  end
  return arg
end

local function error_message(err)
  if type(err) == 'table' then
    return err.message or vim.inspect(err)
  end
  return tostring(err)
end

--- Run a server command asynchronously. `callback(result)` runs only on success; errors are notified.
---@param command string
---@param arg table
---@param callback fun(result: any, client: vim.lsp.Client)
---@param opts? {bufnr?: integer, quiet?: boolean, no_workspace?: boolean}
---@return boolean started
function M.execute(command, arg, callback, opts)
  opts = opts or {}
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local client = M.get_client(bufnr)
  if not client then
    notify(NO_CLIENT, vim.log.levels.ERROR)
    return false
  end
  arg = vim.deepcopy(arg or {})
  if arg.workspace == nil and not opts.no_workspace then
    arg.workspace = M.workspace_for(bufnr, client)
  end
  local params = { command = command, arguments = { obj(arg) } }
  local ok = client:request('workspace/executeCommand', params, function(err, result)
    if err then
      notify(command .. ' failed: ' .. error_message(err), vim.log.levels.ERROR)
      return
    end
    callback(result, client)
  end, bufnr)
  if not ok then
    notify('the skill_ls client could not send ' .. command .. ' (is the server still running?)', vim.log.levels.ERROR)
  end
  return ok and true or false
end

--- Run a server command synchronously; returns result or nil, err.
---@return any result, string? err
function M.execute_sync(command, arg, timeout_ms, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.get_client(bufnr)
  if not client then
    return nil, NO_CLIENT
  end
  arg = vim.deepcopy(arg or {})
  if arg.workspace == nil then
    arg.workspace = M.workspace_for(bufnr, client)
  end
  local params = { command = command, arguments = { obj(arg) } }
  local resp, err = client:request_sync('workspace/executeCommand', params, timeout_ms or 5000, bufnr)
  if not resp then
    return nil, error_message(err or 'no response')
  end
  if resp.err then
    return nil, error_message(resp.err)
  end
  return resp.result, nil
end

-- ---------------------------------------------------------------------------------------------
-- Command arguments

--- Parse `:SkillCatalog [agent] [runtime=R] [workspace=DIR]` arguments into the command object.
---@param fargs string[]
---@return table
function M.parse_catalog_args(fargs)
  local arg = {}
  for _, a in ipairs(fargs or {}) do
    local k, v = a:match('^(%w+)=(.*)$')
    if k == 'runtime' or k == 'workspace' or k == 'agent' then
      arg[k] = v
    else
      arg.agent = a
    end
  end
  return arg
end

-- ---------------------------------------------------------------------------------------------
-- Agent / skill name completion (cached; cleared on skillLs/indexChanged)

local cache = { agents = nil, skills = nil }

---@return string[]
function M.agent_names()
  if cache.agents then
    return cache.agents
  end
  local result = M.execute_sync(M.commands.listAgents, {}, M.options.complete_timeout)
  local names, seen = {}, {}
  if type(result) == 'table' and type(result.agents) == 'table' then
    for _, a in ipairs(result.agents) do
      if type(a) == 'table' and type(a.name) == 'string' and not seen[a.name] then
        seen[a.name] = true
        names[#names + 1] = a.name
      end
    end
    table.sort(names)
    cache.agents = names
  end
  return names
end

---@return string[]
function M.skill_names()
  if cache.skills then
    return cache.skills
  end
  local names, seen = {}, {}
  local result = M.execute_sync(M.commands.renderCatalog, {}, M.options.complete_timeout)
  if type(result) == 'table' and type(result.skills) == 'table' then
    for _, s in ipairs(result.skills) do
      if type(s) == 'table' and type(s.name) == 'string' and not seen[s.name] then
        seen[s.name] = true
        names[#names + 1] = s.name
      end
    end
    table.sort(names)
    cache.skills = names
  end
  return names
end

local function filter(list, lead)
  return vim.tbl_filter(function(s)
    return vim.startswith(s, lead or '')
  end, list)
end

function M.complete_catalog(arglead, cmdline, _)
  if arglead:match('^runtime=') then
    local result = M.execute_sync(M.commands.listAgents, {}, M.options.complete_timeout)
    local out = {}
    if type(result) == 'table' and type(result.runtimes) == 'table' then
      for _, r in ipairs(result.runtimes) do
        out[#out + 1] = 'runtime=' .. r
      end
    end
    return filter(out, arglead)
  end
  local _ = cmdline
  return filter(M.agent_names(), arglead)
end

function M.complete_where(arglead)
  return filter(M.skill_names(), arglead)
end

-- ---------------------------------------------------------------------------------------------
-- :SkillCatalog

M.catalog_buffers = {} ---@type table<integer, table> bufnr -> command argument

local function catalog_bufname(arg)
  local name = 'skill-ls://catalog'
  if arg.agent and arg.agent ~= '' then
    name = name .. '/' .. arg.agent
  end
  if arg.runtime and arg.runtime ~= '' then
    name = name .. '?runtime=' .. arg.runtime
  end
  return name
end

local function fill_catalog(buf, result)
  local text = type(result) == 'table' and result.text or ''
  if type(text) ~= 'string' then
    text = ''
  end
  local lines = vim.split(text, '\n', { plain = true })
  if #lines > 1 and lines[#lines] == '' then
    table.remove(lines)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  vim.b[buf].skill_ls_catalog = {
    runtime = result.runtime,
    agent = result.agent,
    chars = result.chars,
    skills = type(result.skills) == 'table' and #result.skills or 0,
  }
  -- Pure XML (Claude Code, Codex): xml; XML plus prose (AGH, Amp) or Markdown: markdown.
  local ft = (text:match('^%s*<') and text:match('>%s*$')) and 'xml' or 'markdown'
  if vim.bo[buf].filetype ~= ft then
    vim.bo[buf].filetype = ft
  end
end

--- Open (or refresh) the scratch buffer showing the effective catalog.
---@param arg table {agent?, runtime?, workspace?}
---@param result table the catalog --format json object
---@return integer bufnr
function M.show_catalog(arg, result)
  local name = catalog_bufname(arg)
  local buf = vim.fn.bufnr(name)
  if buf == -1 or not vim.api.nvim_buf_is_valid(buf) then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].buftype = 'nofile'
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    vim.api.nvim_create_autocmd('BufWipeout', {
      buffer = buf,
      once = true,
      callback = function()
        M.catalog_buffers[buf] = nil
      end,
    })
  end
  M.catalog_buffers[buf] = vim.deepcopy(arg)
  fill_catalog(buf, result)
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  else
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, buf)
  end
  local skills = type(result.skills) == 'table' and #result.skills or 0
  notify(
    ('catalog%s: %d skill(s), %s chars (%s)'):format(
      result.agent and result.agent ~= vim.NIL and (' for ' .. tostring(result.agent)) or '',
      skills,
      tostring(result.chars or #(result.text or '')),
      tostring(result.runtime or '?')
    )
  )
  return buf
end

---@param arg table {agent?, runtime?, workspace?}
---@param done? fun(bufnr: integer)
function M.catalog(arg, done)
  arg = vim.deepcopy(arg or {})
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.get_client(bufnr)
  if arg.workspace == nil and client then
    arg.workspace = M.workspace_for(bufnr, client)
  end
  return M.execute(M.commands.renderCatalog, arg, function(result)
    if type(result) ~= 'table' or type(result.text) ~= 'string' then
      notify('skillLs.renderCatalog returned no catalog text', vim.log.levels.ERROR)
      return
    end
    local buf = M.show_catalog(arg, result)
    if done then
      done(buf)
    end
  end)
end

-- ---------------------------------------------------------------------------------------------
-- :SkillWhere

--- 1-based line of the `name:` key in a SKILL.md (frontmatter), or 1.
local function name_line(path)
  local f = io.open(path, 'r')
  if not f then
    return 1
  end
  local lnum, i, in_fm = 1, 0, false
  for line in f:lines() do
    i = i + 1
    if i == 1 then
      line = line:gsub('^\239\187\191', '')
      if line:match('^%-%-%-%s*$') then
        in_fm = true
      else
        break
      end
    elseif in_fm and line:match('^%-%-%-%s*$') then
      break
    elseif in_fm and line:match('^name%s*:') then
      lnum = i
      break
    end
    if i > 200 then
      break
    end
  end
  f:close()
  return lnum
end

--- Quickfix items for a `where --format json` object, winner first (the server's order). Each entry's
--- `label` (winner, shadowed, blocked, not discovered, also loaded, overridden) and the line of its
--- name (`range`) are the server's: the plugin shows them and derives nothing.
---@param result table
---@return table[]
function M.where_items(result)
  local items = {}
  for _, e in ipairs(type(result) == 'table' and result.entries or {}) do
    local state = type(e.label) == 'string' and e.label
      or (e.resolved_to_winner and 'winner' or (e.blocked and 'blocked' or 'not the winner')) -- a server older than labels
    local reason = e.not_discovered or e.reason
    local lnum = type(e.range) == 'table' and type(e.range.start) == 'table' and tonumber(e.range.start.line)
    items[#items + 1] = {
      filename = e.path,
      lnum = lnum and lnum + 1 or name_line(e.path),
      col = 1,
      text = ('[%s] %s%s'):format(tostring(e.tier), state, type(reason) == 'string' and (' — ' .. reason) or ''),
      type = e.resolved_to_winner and 'I' or 'W',
      user_data = e,
    }
  end
  return items
end

local function show_where_float(result, items)
  local lines = {}
  for i, it in ipairs(items) do
    lines[#lines + 1] = ('%d. %s  %s'):format(i, it.text, vim.fn.fnamemodify(it.filename, ':~:.'))
  end
  vim.lsp.util.open_floating_preview(lines, 'markdown', {
    title = (' %s · %s '):format(result.name or '?', result.runtime or '?'),
    border = 'rounded',
    focus_id = 'skill_ls_where',
  })
end

---@param arg table {name, runtime?, agent?}
---@param done? fun(items: table[])
function M.where(arg, done, bufnr)
  if not arg or not arg.name or arg.name == '' then
    notify('usage: :SkillWhere {name} [runtime=R] [agent=A]', vim.log.levels.ERROR)
    return false
  end
  return M.execute(M.commands.where, arg, function(result)
    local items = M.where_items(result)
    if #items == 0 then
      notify(("no declaration of '%s' found"):format(arg.name), vim.log.levels.WARN)
    else
      local title = ('skill-ls where %s (%s)'):format(arg.name, tostring(result.runtime or '?'))
      vim.fn.setqflist({}, ' ', { title = title, items = items })
      if M.options.where == 'float' then
        show_where_float(result, items)
      elseif M.options.open_quickfix then
        vim.cmd('botright copen')
      end
    end
    if done then
      done(items)
    end
  end, { bufnr = bufnr })
end

--- Parse `:SkillWhere {name} [runtime=R] [agent=A]`; without a name, the word under the cursor.
function M.parse_where_args(fargs)
  local arg = {}
  for _, a in ipairs(fargs or {}) do
    local k, v = a:match('^(%w+)=(.*)$')
    if k == 'runtime' or k == 'agent' or k == 'name' then
      arg[k] = v
    else
      arg.name = a
    end
  end
  if not arg.name or arg.name == '' then
    local word = M.name_under_cursor()
    if word then
      arg.name = word
    end
  end
  return arg
end

--- The skill name under the cursor: letters, digits, '-', '_' and ':' (plugin:name), so a hyphenated
--- name is taken whole (<cword> stops at '-'). Leading/trailing '-' and ':' are not part of it.
---@return string?
function M.name_under_cursor()
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2] + 1 -- 1-based byte
  local function is_name(c)
    return c ~= '' and c:match('[%w_:%-]') ~= nil
  end
  if not is_name(line:sub(col, col)) then
    return nil
  end
  local s, e = col, col
  while s > 1 and is_name(line:sub(s - 1, s - 1)) do
    s = s - 1
  end
  while e < #line and is_name(line:sub(e + 1, e + 1)) do
    e = e + 1
  end
  local word = line:sub(s, e)
  -- 'name:' -> 'name'; a word is cut at a ':' followed by nothing (YAML keys)
  word = word:gsub('^[:%-]+', ''):gsub('[:%-]+$', '')
  return word ~= '' and word or nil
end

-- ---------------------------------------------------------------------------------------------
-- Go to definition, winner first
--
-- vim.lsp.buf.definition() sorts several locations by file name, which can put a shadowed copy
-- first. The server answers winner first (then the shadowed copies in precedence order); this keeps
-- that order: jump to the winner and put every declaration in the quickfix list. (<C-]> through
-- vim.lsp.tagfunc keeps the server order too.)

---@param opts? {bufnr?: integer, open_quickfix?: boolean}
function M.definition(opts)
  opts = opts or {}
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local client = vim.lsp.get_clients({ name = M.name, bufnr = bufnr })[1]
  if not client then
    notify(NO_CLIENT, vim.log.levels.ERROR)
    return false
  end
  local win = vim.api.nvim_get_current_win()
  local params = vim.lsp.util.make_position_params(win, client.offset_encoding)
  return client:request('textDocument/definition', params, function(err, result)
    if err then
      notify('textDocument/definition failed: ' .. error_message(err), vim.log.levels.ERROR)
      return
    end
    if result == nil or result == vim.NIL then
      notify('no definition found', vim.log.levels.INFO)
      return
    end
    local locations = result.uri and { result } or result.targetUri and { result } or result
    if #locations == 0 then
      notify('no definition found', vim.log.levels.INFO)
      return
    end
    local items = {}
    for _, loc in ipairs(locations) do
      -- one call per location keeps the server's order (locations_to_items sorts by file)
      vim.list_extend(items, vim.lsp.util.locations_to_items({ loc }, client.offset_encoding))
    end
    if #items > 1 then
      vim.fn.setqflist({}, ' ', { title = 'skill-ls declarations (winner first)', items = items })
    end
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_set_current_win(win)
    end
    vim.lsp.util.show_document(locations[1], client.offset_encoding, { focus = true, reuse_win = false })
    if #items > 1 then
      notify(('%d declarations, winner first (:copen to list them)'):format(#items))
    end
  end, bufnr)
end

-- ---------------------------------------------------------------------------------------------
-- :SkillReindex / :SkillStatus

function M.reindex()
  return M.execute(M.commands.reindex, {}, function(result)
    cache.agents, cache.skills = nil, nil
    notify(('re-indexed: %s skill(s), %s agent(s)'):format(tostring(result and result.skills), tostring(result and result.agents)))
  end)
end

function M.status()
  return M.execute(M.commands.status, {}, function(result)
    result = result or {}
    notify(
      ('%s skill(s), %s agent(s), runtimes: %s, workspace: %s'):format(
        tostring(result.skills),
        tostring(result.agents),
        table.concat(type(result.runtimes) == 'table' and result.runtimes or {}, ', '),
        tostring(result.workspace)
      )
    )
    -- The server's messages in full (the command line showed each cut to one line).
    for i = math.max(1, #M.messages - 4), #M.messages do
      vim.api.nvim_echo({ { M.messages[i], 'WarningMsg' } }, true, {})
    end
  end)
end

-- ---------------------------------------------------------------------------------------------
-- skillLs/indexChanged

M.last_index = nil

--- Refresh the code lens of `bufnr` (debounced: edits and index changes come in bursts). Nothing when
--- `vim.g.skill_ls_codelens = false` (the user turned the automatic lens off).
local lens_timers = {}
function M.refresh_codelens(bufnr)
  if vim.g.skill_ls_codelens == false or not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  if lens_timers[bufnr] then
    lens_timers[bufnr]:stop()
  end
  lens_timers[bufnr] = vim.defer_fn(function()
    lens_timers[bufnr] = nil
    if vim.api.nvim_buf_is_valid(bufnr) and #vim.lsp.get_clients({ name = M.name, bufnr = bufnr }) > 0 then
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    end
  end, 150)
end

--- Whether a code lens refresh is waiting for its debounce (a test waits for none instead of sleeping).
function M.codelens_pending()
  return not vim.tbl_isempty(lens_timers)
end

--- Running a code lens (vim.lsp.codelens.run()): show the declarations it names, winner first, in the
--- quickfix list, as :SkillWhere does (the server's answer would otherwise be dropped silently).
function M.run_where_lens(command, ctx)
  local arg = type(command.arguments) == 'table' and command.arguments[1] or nil
  if type(arg) ~= 'table' or not arg.name then
    notify('this code lens has no skill name', vim.log.levels.WARN)
    return
  end
  return M.where(arg, nil, ctx and ctx.bufnr)
end

function M.on_index_changed(_, result, ctx)
  M.last_index = result
  if ctx and ctx.client_id then
    require('skill_ls.project').note_index(ctx.client_id, result) -- which roots this client's server reads
  end
  cache.agents, cache.skills = nil, nil
  -- Shadowing changed somewhere: the code lens of every attached buffer may be stale.
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    for bufnr in pairs(client.attached_buffers or {}) do
      M.refresh_codelens(bufnr)
    end
  end
  -- Refresh the open catalog previews.
  for buf, arg in pairs(M.catalog_buffers) do
    if vim.api.nvim_buf_is_valid(buf) and vim.fn.bufwinid(buf) ~= -1 then
      M.execute_async_quiet(M.commands.renderCatalog, arg, function(res)
        if vim.api.nvim_buf_is_valid(buf) and type(res) == 'table' and type(res.text) == 'string' then
          fill_catalog(buf, res)
        end
      end)
    end
  end
end

--- Like M.execute but silent (used for background refreshes).
function M.execute_async_quiet(command, arg, callback)
  local client = M.get_client()
  if not client then
    return
  end
  client:request('workspace/executeCommand', { command = command, arguments = { obj(arg) } }, function(err, res)
    if not err then
      callback(res)
    end
  end)
end

--- Statusline component: "skills N · agents M" once the server reported its index.
function M.statusline()
  local r = M.last_index
  if type(r) ~= 'table' then
    return ''
  end
  return ('skills %s · agents %s'):format(tostring(r.skills), tostring(r.agents))
end

-- ---------------------------------------------------------------------------------------------
-- The client: attach, messages, restart

--- `on_attach` of lsp/skill_ls.lua: the code lens kept fresh without :lua vim.lsp.codelens.refresh()
--- (on attach, when entering the buffer, after edits, on skillLs/indexChanged) and `gd` to the
--- winning declaration. Part of the config, so a setup without plugin/ (nvim-lspconfig, --noplugin)
--- has them too. A user `on_attach` replaces it: call require('skill_ls').on_attach(client, bufnr)
--- from yours.
---@param client vim.lsp.Client
---@param bufnr integer
function M.on_attach(client, bufnr)
  if vim.g.skill_ls_codelens ~= false and client:supports_method('textDocument/codeLens') then
    M.refresh_codelens(bufnr)
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged', 'BufWritePost' }, {
      group = vim.api.nvim_create_augroup('skill_ls_codelens_' .. bufnr, { clear = true }),
      buffer = bufnr,
      callback = function(args)
        M.refresh_codelens(args.buf)
      end,
    })
  end
  if vim.g.skill_ls_no_mappings then
    return
  end
  local existing = vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.maparg('gd', 'n', false, true)
  end)
  if type(existing) == 'table' and existing.buffer == 1 then
    return
  end
  vim.keymap.set('n', 'gd', function()
    M.definition()
  end, { buffer = bufnr, desc = 'skill-ls: go to the winning declaration' })
end

--- Diagnostics pushed for a file before its buffer was loaded (the server reports every file of the
--- project) are stored but not drawn: Neovim 0.11 draws only into loaded buffers and does not draw
--- again when one is loaded. Draw them when a skill buffer is read.
---@param bufnr integer
function M.show_stored_diagnostics(bufnr)
  if vim.api.nvim_buf_is_loaded(bufnr) and #vim.diagnostic.get(bufnr) > 0 then
    vim.diagnostic.show(nil, bufnr)
  end
end

--- window/showMessage: one line that fits the command line, so no "Press ENTER" prompt stops Neovim
--- (and the diagnostics) while it waits; messages arriving together are shown once, the most severe
--- first, the same message not again until it changes. With `setup({ messages = 'notify' })` the
--- whole message goes to vim.notify (a notification plugin) instead.
local pending_messages, last_message = {}, nil
function M.on_show_message(_, result, ctx)
  if type(result) ~= 'table' or type(result.message) ~= 'string' then
    return vim.NIL
  end
  local level = ({ vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG })[result.type]
    or vim.log.levels.INFO
  local text = result.message:gsub('%s*\n%s*', ' ')
  if M.options.messages == 'notify' then
    vim.notify(text, level, { title = 'skill-ls' })
    return vim.NIL
  end
  pending_messages[#pending_messages + 1] = { text = text, level = level }
  if #pending_messages == 1 then
    vim.defer_fn(function()
      local batch = pending_messages
      pending_messages = {}
      table.sort(batch, function(a, b)
        return a.level > b.level
      end)
      local first = batch[1]
      local key = first.text
      if key == last_message then
        return
      end
      last_message = key
      for _, m in ipairs(batch) do
        M.messages[#M.messages + 1] = m.text -- the whole text (:SkillStatus lists them)
      end
      -- paths relative to the working directory (or ~): the line keeps room for the reason
      local shown = first.text:gsub('(/[^%s:;,]+)', function(p)
        return vim.fn.fnamemodify(p, ':~:.')
      end)
      if #batch > 1 then
        shown = shown .. (' (+%d more: :SkillStatus)'):format(#batch - 1)
      end
      local width = math.max(20, (vim.v.echospace > 0 and vim.v.echospace or vim.o.columns - 12) - 1)
      if vim.fn.strdisplaywidth(shown) > width then
        shown = vim.fn.strcharpart(shown, 0, width - 1) .. '…'
      end
      local hl = first.level >= vim.log.levels.ERROR and 'ErrorMsg' or (first.level == vim.log.levels.WARN and 'WarningMsg' or 'Normal')
      vim.api.nvim_echo({ { shown, hl } }, true, {})
    end, 100)
  end
  local _ = ctx
  return vim.NIL
end
M.messages = {}

--- Skill buffers (loaded, with a name the server analyses).
local function skill_buffers()
  return vim.tbl_filter(function(b)
    return vim.api.nvim_buf_is_loaded(b) and vim.bo[b].buftype == '' and M.is_skill_file(vim.api.nvim_buf_get_name(b))
  end, vim.api.nvim_list_bufs())
end

--- Start clients for the open skill buffers (after :SkillInstall, :SkillRestart): the FileType
--- autocmd of vim.lsp.enable() for each, as opening them did.
function M.start_for_open_buffers()
  for _, b in ipairs(skill_buffers()) do
    pcall(vim.api.nvim_exec_autocmds, 'FileType', { group = 'nvim.lsp.enable', buffer = b, modeline = false })
  end
end

--- :SkillRestart: stop every skill_ls client, re-read the config (a new `cmd` after :SkillInstall or
--- vim.lsp.config()), and start the clients again for the open skill buffers.
---@param done? fun(count: integer)
function M.restart(done)
  local clients = vim.lsp.get_clients({ name = M.name })
  for _, c in ipairs(clients) do
    c:stop()
  end
  local function wait_stopped(tries)
    local alive = vim.tbl_filter(function(c)
      return not c:is_stopped()
    end, clients)
    if #alive > 0 and tries > 0 then
      return vim.defer_fn(function()
        wait_stopped(tries - 1)
      end, 50)
    end
    for _, c in ipairs(alive) do
      c:stop(true)
    end
    reported_missing = {}
    vim.lsp.config(M.name, {}) -- drop the resolved config: lsp/skill_ls.lua is read again
    M.start_for_open_buffers()
    local buffers = #skill_buffers()
    notify(('restarted (%d client(s) stopped, %d skill buffer(s))'):format(#clients, buffers))
    if done then
      done(#clients)
    end
  end
  wait_stopped(100)
end

return M
