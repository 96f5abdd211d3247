/**
 * Pure logic of the skill-ls VS Code extension.
 *
 * Nothing in this module imports `vscode`: it is unit-tested with Node's built-in test runner.
 * The shapes follow docs/lsp-protocol.md (server commands, `skillLs/indexChanged`, `skillLs` config).
 */

// ---------------------------------------------------------------------------------------------
// Protocol names (docs/lsp-protocol.md)

/** Commands executed on the server through `workspace/executeCommand`. */
export const SERVER_COMMANDS = {
  renderCatalog: 'skillLs.renderCatalog',
  where: 'skillLs.where',
  reindex: 'skillLs.reindex',
  status: 'skillLs.status',
  listAgents: 'skillLs.listAgents',
} as const;

/** Client-side (command palette) command IDs. They must never equal a server command ID. */
export const CLIENT_COMMANDS = {
  previewCatalog: 'skillLs.previewCatalog',
  showShadows: 'skillLs.showShadows',
  restartServer: 'skillLs.restartServer',
  reindexWorkspace: 'skillLs.reindexWorkspace',
} as const;

export const INDEX_CHANGED_NOTIFICATION = 'skillLs/indexChanged';
export const CONFIG_SECTION = 'skillLs';
export const CATALOG_SCHEME = 'skill-ls-catalog';
export const DEFAULT_SERVER_EXECUTABLE = 'skill-language-server';
export const INSTALL_COMMAND = 'pip install skill-ls';

// ---------------------------------------------------------------------------------------------
// Document selector

export interface DocumentFilter {
  scheme: string;
  pattern: string;
}

/** Markdown files that are skills or agents; these also make sense as untitled buffers with a path. */
export const MARKDOWN_PATTERNS = [
  '**/SKILL.md',
  '**/skill.md',
  '**/AGENT.md',
  '**/.claude/agents/**/*.md',
  '**/workspace/agents/*.md',
];

/** Sidecars and configuration: only meaningful on disk. */
export const SIDECAR_PATTERNS = [
  '**/mcp.json',
  '**/.agh-meta.json',
  '**/.skill-ls.toml',
  '**/agents/openai.yaml',
];

export function documentSelector(): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  for (const pattern of MARKDOWN_PATTERNS) {
    filters.push({ scheme: 'file', pattern });
    filters.push({ scheme: 'untitled', pattern });
  }
  for (const pattern of SIDECAR_PATTERNS) {
    filters.push({ scheme: 'file', pattern });
  }
  return filters;
}

// ---------------------------------------------------------------------------------------------
// Server command line

export interface ServerSettings {
  /** `skillLs.server.command`: argv, empty = `skill-language-server`. */
  command?: unknown;
  /** `skillLs.server.pythonPath`: if set, run `<python> -m skill_ls serve`. */
  pythonPath?: unknown;
}

export interface ServerCommand {
  command: string;
  args: string[];
  /** Which setting produced it: used to word errors and install hints. */
  source: 'command' | 'pythonPath' | 'default';
}

export interface ExpandContext {
  workspaceFolder?: string;
  home?: string;
}

/** Expand `${workspaceFolder}`, `${userHome}` and a leading `~`/`~/` in a setting value. */
export function expandVariables(value: string, ctx: ExpandContext = {}): string {
  let out = value;
  if (ctx.home !== undefined) {
    if (out === '~') {
      out = ctx.home;
    } else if (out.startsWith('~/') || out.startsWith('~\\')) {
      out = ctx.home + out.slice(1);
    }
    out = out.split('${userHome}').join(ctx.home);
  }
  if (ctx.workspaceFolder !== undefined) {
    out = out.split('${workspaceFolder}').join(ctx.workspaceFolder);
  }
  return out;
}

/**
 * The process to spawn. `skillLs.server.command` wins when non-empty, then `skillLs.server.pythonPath`,
 * then the `skill-language-server` console script on PATH.
 */
export function buildServerCommand(settings: ServerSettings, ctx: ExpandContext = {}): ServerCommand {
  const argv = Array.isArray(settings.command)
    ? settings.command.filter((a): a is string => typeof a === 'string').map((a) => expandVariables(a, ctx))
    : [];
  if (argv.length > 0 && argv[0].trim() !== '') {
    return { command: argv[0], args: argv.slice(1), source: 'command' };
  }
  const python = typeof settings.pythonPath === 'string' ? settings.pythonPath.trim() : '';
  if (python !== '') {
    return { command: expandVariables(python, ctx), args: ['-m', 'skill_ls', 'serve'], source: 'pythonPath' };
  }
  return { command: DEFAULT_SERVER_EXECUTABLE, args: [], source: 'default' };
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\-./:=@+,]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** Human-readable command line, for messages. */
export function formatCommandLine(cmd: ServerCommand): string {
  return [cmd.command, ...cmd.args].map(shellQuote).join(' ');
}

/** The install command to suggest for this way of starting the server. */
export function installHint(cmd: ServerCommand): string {
  if (cmd.source === 'pythonPath') {
    return `${shellQuote(cmd.command)} -m ${INSTALL_COMMAND}`;
  }
  return INSTALL_COMMAND;
}

/** True when an error from spawning / starting the client means "executable not found". */
export function isMissingExecutableError(err: unknown): boolean {
  if (err === null || err === undefined) {
    return false;
  }
  if (typeof err === 'object' && (err as { code?: unknown }).code === 'ENOENT') {
    return true;
  }
  const text =
    typeof err === 'string'
      ? err
      : err instanceof Error
        ? `${err.message}`
        : typeof (err as { message?: unknown }).message === 'string'
          ? String((err as { message: string }).message)
          : String(err);
  return /\bENOENT\b/.test(text) || /command not found|is not recognized as an internal or external command/i.test(text);
}

/** The notification shown when the server cannot be found. */
export function missingServerMessage(cmd: ServerCommand): string {
  const what =
    cmd.source === 'pythonPath'
      ? `the Python interpreter "${cmd.command}" (skillLs.server.pythonPath)`
      : cmd.source === 'command'
        ? `"${cmd.command}" (skillLs.server.command)`
        : `"${DEFAULT_SERVER_EXECUTABLE}"`;
  return (
    `Skill LS: could not start the language server: ${what} was not found. ` +
    `Install it with \`${installHint(cmd)}\`, or set skillLs.server.command / skillLs.server.pythonPath.`
  );
}

/** The notification shown when the server process started but the client could not initialize it. */
export function startFailedMessage(cmd: ServerCommand, err: unknown): string {
  return (
    `Skill LS: the language server (${formatCommandLine(cmd)}) failed to start: ${errorMessage(err)}. ` +
    `Its output is in the "Skill LS" output channel. Is skill-ls installed and up to date? \`${installHint(cmd)}\``
  );
}

/**
 * When the server process dies: restart it, unless it died `max` times within `windowMs` (then the user
 * restarts it by hand), and never when it died before it ever finished initializing.
 */
export class RestartPolicy {
  private readonly deaths: number[] = [];
  constructor(
    private readonly max = 4,
    private readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Call when the connection closed unexpectedly; true = restart the server. */
  shouldRestart(wasRunning: boolean): boolean {
    if (!wasRunning) return false;
    const t = this.now();
    this.deaths.push(t);
    while (this.deaths.length > 0 && t - this.deaths[0] > this.windowMs) this.deaths.shift();
    return this.deaths.length <= this.max;
  }
}

export const CRASH_MESSAGE =
  'Skill LS: the language server crashed repeatedly and will not be restarted. See the "Skill LS" output, then run "Skill LS: Restart Server".';

/** The notification shown when the interpreter runs but has no `skill_ls` module. */
export function missingModuleMessage(cmd: ServerCommand): string {
  return (
    `Skill LS: the Python interpreter "${cmd.command}" (skillLs.server.pythonPath) cannot import skill_ls. ` +
    `Install it with \`${installHint(cmd)}\`.`
  );
}

export interface PathLookup {
  pathEnv?: string;
  pathExt?: string;
  platform?: string;
  isFile: (p: string) => boolean;
}

/**
 * Find an executable the way `child_process.spawn` would. Returns the resolved path, or undefined.
 * A command containing a path separator is checked as given.
 */
export function findExecutable(command: string, lookup: PathLookup): string | undefined {
  const win = lookup.platform === 'win32';
  const sep = win ? ';' : ':';
  const exts = win ? ['', ...(lookup.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const hasDir = command.includes('/') || (win && command.includes('\\'));
  const candidates: string[] = [];
  if (hasDir) {
    for (const ext of exts) candidates.push(command + ext);
  } else {
    for (const dir of (lookup.pathEnv ?? '').split(sep)) {
      if (dir === '') continue;
      const joiner = dir.endsWith('/') || dir.endsWith('\\') ? '' : win ? '\\' : '/';
      for (const ext of exts) candidates.push(dir + joiner + command + ext);
    }
  }
  return candidates.find((c) => lookup.isFile(c));
}

// ---------------------------------------------------------------------------------------------
// Configuration: the `skillLs` section, camelCase mirror of `.skill-ls.toml`

export type ConfigType = 'string[]' | 'roots' | 'severityMap' | 'boolean' | 'string' | 'draftFields' | 'integer';

export interface ConfigKey {
  /** Key below `skillLs.` (dotted = nested object sent to the server). */
  key: string;
  /** The `.skill-ls.toml` spelling (table.key, snake_case). */
  toml: string;
  type: ConfigType;
  default: unknown;
}

/** Analysis configuration sent to the server (docs/lsp-protocol.md, "Configuration"). */
export const CONFIG_KEYS: ConfigKey[] = [
  { key: 'runtimes', toml: 'runtimes', type: 'string[]', default: ['auto'] },
  { key: 'roots', toml: 'roots', type: 'roots', default: [] },
  { key: 'exclude', toml: 'exclude', type: 'string[]', default: [] },
  { key: 'rules.select', toml: 'rules.select', type: 'string[]', default: [] },
  { key: 'rules.ignore', toml: 'rules.ignore', type: 'string[]', default: [] },
  { key: 'rules.severity', toml: 'rules.severity', type: 'severityMap', default: {} },
  { key: 'noUserRoots', toml: 'no_user_roots', type: 'boolean', default: false },
  { key: 'agh.home', toml: 'agh.home', type: 'string', default: '' },
  { key: 'agh.bundledRoots', toml: 'agh.bundled_roots', type: 'string[]', default: [] },
  { key: 'agh.additionalRoots', toml: 'agh.additional_roots', type: 'string[]', default: [] },
  { key: 'agh.disabled', toml: 'agh.disabled', type: 'string[]', default: [] },
  { key: 'agh.draftFields', toml: 'agh.draft_fields', type: 'draftFields', default: 'warning' },
  { key: 'amp.skillsPath', toml: 'amp.skills_path', type: 'string[]', default: [] },
  { key: 'agentcy.maxPromptChars', toml: 'agentcy.max_prompt_chars', type: 'integer', default: 16000 },
];

/** Editor-only settings: never sent to the server as analysis configuration. */
export const EDITOR_ONLY_KEYS = ['server.command', 'server.pythonPath', 'trace.server'];

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);
const DRAFT_FIELDS = new Set(['error', 'warning', 'ignore']);

/** camelCase -> snake_case (`bundledRoots` -> `bundled_roots`). */
export function camelToSnake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/** snake_case -> camelCase (`max_prompt_chars` -> `maxPromptChars`). */
export function snakeToCamel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function sanitize(type: ConfigType, value: unknown): unknown {
  switch (type) {
    case 'string[]':
      return Array.isArray(value) ? value.filter((v) => typeof v === 'string' && v !== '') : undefined;
    case 'roots':
      if (!Array.isArray(value)) return undefined;
      return value
        .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && typeof (r as { path?: unknown }).path === 'string')
        .map((r) => {
          const root: Record<string, string> = { path: r.path as string };
          if (typeof r.runtime === 'string' && r.runtime !== '') root.runtime = r.runtime;
          if (typeof r.tier === 'string' && r.tier !== '') root.tier = r.tier;
          return root;
        });
    case 'severityMap': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      const out: Record<string, string> = {};
      for (const [code, sev] of Object.entries(value as Record<string, unknown>)) {
        if (typeof sev === 'string' && SEVERITIES.has(sev)) out[code] = sev;
      }
      return out;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'string':
      // An empty string means "use the server's default" (e.g. `$AGH_HOME` or `~/.agh`).
      return typeof value === 'string' && value.trim() !== '' ? value : undefined;
    case 'draftFields':
      return typeof value === 'string' && DRAFT_FIELDS.has(value) ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
  }
}

/**
 * Build the object the server receives as `initializationOptions`, as the `skillLs` item of
 * `workspace/configuration`, and in `workspace/didChangeConfiguration`: nested camelCase keys
 * (`{rules: {select}, agh: {bundledRoots}}`), editor-only keys dropped, invalid values dropped,
 * an empty `agh.home` left out (server default).
 *
 * `get(key)` reads one setting below `skillLs.` (e.g. `vscode.workspace.getConfiguration('skillLs').get`).
 */
export function toServerSettings(get: (key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of CONFIG_KEYS) {
    const v = sanitize(k.type, get(k.key));
    if (v === undefined) continue;
    const parts = k.key.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) {
      if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = v;
  }
  return out;
}

/** Read a dotted key out of a nested settings object (what `getConfiguration(section).get` does). */
export function getNested(obj: unknown, key: string): unknown {
  let node: unknown = obj;
  for (const p of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[p];
  }
  return node;
}

/** Whether a configuration change of `skillLs.<key>` needs a server restart (editor-only server keys). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects(`${CONFIG_SECTION}.server`);
}

// ---------------------------------------------------------------------------------------------
// Status bar

export interface IndexCounts {
  skills?: number;
  agents?: number;
  runtimes?: string[];
  workspace?: string;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Parse a `skillLs/indexChanged` or `skillLs.status` payload; undefined if it is not one. */
export function parseIndexCounts(payload: unknown): IndexCounts | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const p = payload as Record<string, unknown>;
  if (typeof p.skills !== 'number' || !Number.isFinite(p.skills)) return undefined;
  const out: IndexCounts = { skills: Math.max(0, Math.trunc(p.skills)) };
  if (typeof p.agents === 'number' && Number.isFinite(p.agents)) out.agents = Math.max(0, Math.trunc(p.agents));
  if (Array.isArray(p.runtimes)) out.runtimes = p.runtimes.filter((r): r is string => typeof r === 'string');
  if (typeof p.workspace === 'string') out.workspace = p.workspace;
  return out;
}

export function statusText(counts: IndexCounts): string {
  return `$(book) ${plural(counts.skills ?? 0, 'skill', 'skills')}`;
}

export function statusTooltip(counts: IndexCounts): string {
  const lines = [`skill-ls: ${plural(counts.skills ?? 0, 'skill', 'skills')} indexed`];
  if (counts.agents !== undefined) lines[0] += `, ${plural(counts.agents, 'agent', 'agents')}`;
  if (counts.runtimes && counts.runtimes.length > 0) lines.push(`Runtimes: ${counts.runtimes.join(', ')}`);
  lines.push('Click to preview an agent catalog');
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Quick picks

export interface PickItem<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
}

export interface AgentChoice {
  /** undefined = "(no agent)" */
  agent?: string;
  runtime?: string;
}

export interface AgentList {
  runtimes: string[];
  defaultRuntime?: string;
  agents: { name: string; runtime?: string; path?: string }[];
}

export const NO_AGENT_LABEL = '(no agent)';

/** Parse a `skillLs.listAgents` result defensively. */
export function parseListAgents(result: unknown): AgentList {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const runtimes = Array.isArray(r.runtimes) ? r.runtimes.filter((x): x is string => typeof x === 'string') : [];
  const defaultRuntime = typeof r.default_runtime === 'string' && r.default_runtime !== '' ? r.default_runtime : undefined;
  const agents: AgentList['agents'] = [];
  if (Array.isArray(r.agents)) {
    for (const a of r.agents) {
      if (typeof a !== 'object' || a === null || typeof (a as { name?: unknown }).name !== 'string') continue;
      const o = a as Record<string, unknown>;
      agents.push({
        name: o.name as string,
        runtime: typeof o.runtime === 'string' ? o.runtime : undefined,
        path: typeof o.path === 'string' ? o.path : undefined,
      });
    }
  }
  return { runtimes, defaultRuntime, agents };
}

/** Agent quick-pick items: "(no agent)" first, then agents sorted by name, then runtime. */
export function agentPickItems(list: AgentList, relative: (p: string) => string = (p) => p): PickItem<AgentChoice>[] {
  const items: PickItem<AgentChoice>[] = [
    { label: NO_AGENT_LABEL, description: 'base stack: the skills every agent sees', value: {} },
  ];
  const sorted = [...list.agents].sort((a, b) => a.name.localeCompare(b.name) || (a.runtime ?? '').localeCompare(b.runtime ?? ''));
  for (const a of sorted) {
    items.push({
      label: `$(person) ${a.name}`,
      description: a.runtime,
      detail: a.path !== undefined ? relative(a.path) : undefined,
      value: { agent: a.name, runtime: a.runtime },
    });
  }
  return items;
}

/**
 * Runtimes offered after the agent was chosen: the agent's own runtime (if any) first, then the default,
 * then the rest. An agent bound to a runtime only offers that one.
 */
export function runtimePickItems(list: AgentList, choice: AgentChoice): PickItem<string>[] {
  let runtimes = [...list.runtimes];
  if (choice.runtime !== undefined) {
    runtimes = [choice.runtime];
  }
  const first = choice.runtime ?? list.defaultRuntime;
  if (first !== undefined) {
    runtimes = [first, ...runtimes.filter((r) => r !== first)];
  }
  runtimes = runtimes.filter((r, i) => runtimes.indexOf(r) === i);
  return runtimes.map((r) => ({
    label: r,
    description: r === list.defaultRuntime ? 'default' : undefined,
    value: r,
  }));
}

export interface WhereEntry {
  tier: string;
  path: string;
  winner: boolean;
  blocked: boolean;
  /** The server's label: winner, shadowed, blocked, not discovered, also loaded or overridden. */
  label: string;
  /** The server's one-line summary (`shadowed · user — by workspace`), when it sends one. */
  summary?: string;
}

export interface WhereResult {
  name: string;
  runtime?: string;
  entries: WhereEntry[];
}

/**
 * Parse a `skillLs.where` result. Each entry's `label` and `summary` are the server's (the same words
 * as `skill-ls where`, hover and code lens): the extension shows them and never derives its own.
 * `resolved_to_winner` is read as "this entry is the copy the runtime loads" (true, or the entry's own
 * path). Order is kept (winner first).
 */
export function parseWhere(result: unknown): WhereResult {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const entries: WhereEntry[] = [];
  if (Array.isArray(r.entries)) {
    for (const e of r.entries) {
      if (typeof e !== 'object' || e === null) continue;
      const o = e as Record<string, unknown>;
      if (typeof o.path !== 'string') continue;
      const rtw = o.resolved_to_winner;
      const winner = rtw === true || (typeof rtw === 'string' && rtw === o.path);
      entries.push({
        tier: typeof o.tier === 'string' ? o.tier : '?',
        path: o.path,
        winner,
        blocked: o.blocked === true,
        // A server older than labels: say only what the fields state.
        label: typeof o.label === 'string' ? o.label : winner ? 'winner' : o.blocked === true ? 'blocked' : 'not the winner',
        summary: typeof o.summary === 'string' ? o.summary : undefined,
      });
    }
  }
  return {
    name: typeof r.name === 'string' ? r.name : '',
    runtime: typeof r.runtime === 'string' ? r.runtime : undefined,
    entries,
  };
}

const WHERE_ICONS: Record<string, string> = {
  winner: '$(pass-filled)',
  'also loaded': '$(pass)',
  blocked: '$(error)',
  'not discovered': '$(eye-closed)',
};

/** Quick-pick items for `skillLs.where` entries (the server's labels); choosing one opens `value` (a path). */
export function whereItems(where: WhereResult, relative: (p: string) => string = (p) => p): PickItem<string>[] {
  return where.entries.map((e) => {
    const icon = WHERE_ICONS[e.label] ?? '$(debug-step-over)';
    return {
      label: `${icon} ${e.tier}`,
      description: e.summary ?? e.label,
      detail: relative(e.path),
      value: e.path,
    };
  });
}

export function wherePlaceholder(where: WhereResult): string {
  const rt = where.runtime ? ` (${where.runtime})` : '';
  return `${plural(where.entries.length, 'declaration', 'declarations')} of "${where.name}"${rt}, winner first`;
}

// ---------------------------------------------------------------------------------------------
// Skill name detection

function basename(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

function dirname(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts.length >= 2 ? parts[parts.length - 2] : '';
}

export function isSkillFile(path: string): boolean {
  const b = basename(path);
  return b === 'SKILL.md' || b === 'skill.md';
}

/**
 * The frontmatter block (between the opening `---` line and the next `---`/`...` line), or undefined.
 * BOM and CRLF/CR line endings are accepted (SPEC §2.1).
 */
export function frontmatterLines(text: string): string[] | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (lines.length === 0 || !/^---[ \t]*$/.test(lines[0])) return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)[ \t]*$/.test(lines[i])) return lines.slice(1, i);
  }
  return undefined;
}

/** The top-level `name:` value of the frontmatter (plain, single- or double-quoted scalar). */
export function frontmatterName(text: string): string | undefined {
  const lines = frontmatterLines(text);
  if (!lines) return undefined;
  for (const line of lines) {
    const m = /^name[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[1].trim();
    if (v.startsWith('"')) {
      const end = v.indexOf('"', 1);
      v = end > 0 ? v.slice(1, end) : '';
    } else if (v.startsWith("'")) {
      const end = v.indexOf("'", 1);
      v = end > 0 ? v.slice(1, end) : '';
    } else {
      v = v.replace(/[ \t]+#.*$/, '').trim();
    }
    return v !== '' && !/^[|>&*!]/.test(v) ? v : undefined;
  }
  return undefined;
}

/**
 * The skill name of a document: its frontmatter `name:`, else the skill's directory name.
 * Only SKILL.md / skill.md documents have one.
 */
export function detectSkillName(path: string, text: string): string | undefined {
  if (!isSkillFile(path)) return undefined;
  return frontmatterName(text) ?? (dirname(path) || undefined);
}

// ---------------------------------------------------------------------------------------------
// Catalog preview documents (`skill-ls-catalog:` URIs)

export interface CatalogParams {
  agent?: string;
  runtime?: string;
  workspace?: string;
}

/** The query string of a catalog preview URI. */
export function catalogQuery(p: CatalogParams): string {
  const q = new URLSearchParams();
  if (p.agent) q.set('agent', p.agent);
  if (p.runtime) q.set('runtime', p.runtime);
  if (p.workspace) q.set('workspace', p.workspace);
  return q.toString();
}

export function parseCatalogQuery(query: string): CatalogParams {
  const q = new URLSearchParams(query);
  const out: CatalogParams = {};
  const agent = q.get('agent');
  const runtime = q.get('runtime');
  const workspace = q.get('workspace');
  if (agent) out.agent = agent;
  if (runtime) out.runtime = runtime;
  if (workspace) out.workspace = workspace;
  return out;
}

/** The path part of a catalog preview URI: shown as the editor tab title. */
export function catalogPath(p: CatalogParams): string {
  const safe = (s: string) => s.replace(/[\\/?#%]/g, '_');
  const who = p.agent ? safe(p.agent) : 'no agent';
  return `/Catalog - ${who}${p.runtime ? ` (${safe(p.runtime)})` : ''}`;
}

/** The preview text: the server's `text` verbatim; a readable note when the server refused. */
export function catalogText(result: unknown): string {
  if (typeof result === 'object' && result !== null && typeof (result as { text?: unknown }).text === 'string') {
    return (result as { text: string }).text;
  }
  return 'skill-ls: the server returned no catalog text.\n';
}

export function catalogErrorText(p: CatalogParams, err: unknown): string {
  const who = p.agent ? `agent "${p.agent}"` : 'the base stack (no agent)';
  return `skill-ls could not render the catalog for ${who}${p.runtime ? ` (runtime ${p.runtime})` : ''}:\n\n${errorMessage(err)}\n`;
}

/** The one-line reason from a JSON-RPC error or any thrown value. */
export function errorMessage(err: unknown): string {
  if (typeof err === 'string') return err;
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}
