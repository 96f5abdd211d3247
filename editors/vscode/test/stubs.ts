/**
 * Minimal in-memory stand-ins for the `vscode` API and `vscode-languageclient/node`, installed into
 * Node's module loader so that src/extension.ts can be exercised by `node --test` without VS Code.
 * Import this module before anything that imports `vscode`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as fs from 'fs';
import * as path from 'path';
import Module = require('module');

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (l: Listener<T>) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(v: T): void {
    for (const l of [...this.listeners]) l(v);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query = '',
  ) {}
  get fsPath(): string {
    return this.path;
  }
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static from(c: { scheme: string; path?: string; query?: string }): Uri {
    return new Uri(c.scheme, c.path ?? '', c.query ?? '');
  }
  authority = '';
  static parse(s: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/([^/]*))?([^?#]*)(?:\?([^#]*))?/i.exec(s);
    if (!m) return new Uri('file', s);
    const u = new Uri(m[1], decodeURIComponent(m[3]), m[4] ?? '');
    u.authority = m[2] ?? '';
    return u;
  }
  toString(): string {
    return `${this.scheme}:${this.authority ? '//' + this.authority : ''}${this.path}${this.query ? '?' + this.query : ''}`;
  }
}

export interface FakeDoc {
  uri: Uri;
  getText(): string;
}

/** Defaults of every contributed setting, read from the real package.json. */
function contributedDefaults(): Record<string, unknown> {
  const pkgPath = path.resolve(__dirname, '..', '..', 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries<any>(pkg.contributes.configuration.properties)) {
    out[k.replace(/^skillLs\./, '')] = v.default;
  }
  return out;
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp('^' + re + '$');
}

export const vs = {
  defaults: contributedDefaults(),
  config: {} as Record<string, unknown>,
  errors: [] as { message: string; items: string[] }[],
  infos: [] as string[],
  errorChoice: undefined as string | undefined,
  quickPicks: [] as { items: any[]; options: any }[],
  /** Each call to showQuickPick consumes one chooser. */
  quickPickChoosers: [] as ((items: any[]) => any)[],
  inputBoxes: [] as any[],
  inputBoxAnswer: undefined as string | undefined,
  shown: [] as { target: any; options: any }[],
  executed: [] as { id: string; args: any[] }[],
  registered: new Map<string, (...a: any[]) => any>(),
  providers: new Map<string, any>(),
  clipboard: '',
  textDocuments: [] as FakeDoc[],
  activeTextEditor: undefined as { document: FakeDoc } | undefined,
  workspaceFolders: [{ uri: Uri.file('/w'), name: 'w', index: 0 }] as any[] | undefined,
  findFilesResult: [] as Uri[],
  folderPicks: [] as any[],
  folderPickAnswer: undefined as any,
  configListeners: [] as Listener<any>[],
  openListeners: [] as Listener<FakeDoc>[],
  status: { text: '', tooltip: '' as any, command: undefined as any, visible: false, name: '' },
  output: [] as string[],
  /** Progress notifications shown (withProgress at Notification): `open` until their task resolves. */
  progress: [] as { title: string; open: boolean }[],
  remoteName: undefined as string | undefined,
  extensions: {} as Record<string, any>,
  opened: [] as string[],
  languageOf: new Map<string, string>(),
  diagnostics: [] as any[],
  updates: [] as { key: string; value: unknown; target: unknown }[],
  reset(): void {
    this.updates = [];
    this.progress = [];
    this.remoteName = undefined;
    this.extensions = {};
    this.opened = [];
    this.languageOf = new Map();
    this.diagnostics = [];
    this.config = {};
    this.errors = [];
    this.infos = [];
    this.errorChoice = undefined;
    this.quickPicks = [];
    this.quickPickChoosers = [];
    this.inputBoxes = [];
    this.inputBoxAnswer = undefined;
    this.shown = [];
    this.executed = [];
    this.registered = new Map();
    this.providers = new Map();
    this.clipboard = '';
    this.textDocuments = [];
    this.activeTextEditor = undefined;
    this.workspaceFolders = [{ uri: Uri.file('/w'), name: 'w', index: 0 }];
    this.findFilesResult = [];
    this.folderPicks = [];
    this.folderPickAnswer = undefined;
    this.configListeners = [];
    this.openListeners = [];
    this.status = { text: '', tooltip: '', command: undefined, visible: false, name: '' };
    this.output = [];
  },
  doc(p: string, text = '', scheme = 'file'): FakeDoc {
    return { uri: new Uri(scheme, p), getText: () => text };
  },
  /** Simulate a settings change of the given full keys (e.g. `skillLs.rules.select`). */
  changeConfig(values: Record<string, unknown>): void {
    Object.assign(this.config, values);
    const keys = Object.keys(values).map((k) => `skillLs.${k}`);
    const e = { affectsConfiguration: (s: string) => keys.some((k) => k === s || k.startsWith(s + '.')) };
    for (const l of this.configListeners) l(e);
  },
};

const disposable = { dispose: () => undefined };

export const vscodeStub = {
  version: '1.82.0',
  Uri,
  EventEmitter,
  StatusBarAlignment: { Left: 1, Right: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  extensions: {
    getExtension: (id: string) => vs.extensions[id],
  },
  window: {
    withProgress: async (options: any, task: (p: any, token: any) => Promise<unknown>) => {
      const entry = { title: options.title, open: true };
      vs.progress.push(entry);
      try {
        return await task({ report: () => undefined }, { onCancellationRequested: () => disposable, isCancellationRequested: false });
      } finally {
        entry.open = false;
      }
    },
    createOutputChannel: () => ({
      appendLine: (l: string) => vs.output.push(l),
      append: (l: string) => vs.output.push(l),
      show: () => undefined,
      clear: () => undefined,
      dispose: () => undefined,
    }),
    createStatusBarItem: () => {
      const s = vs.status;
      return {
        get text() { return vs.status.text; },
        set text(v: string) { vs.status.text = v; },
        get tooltip() { return vs.status.tooltip; },
        set tooltip(v: any) { vs.status.tooltip = v; },
        get command() { return vs.status.command; },
        set command(v: any) { vs.status.command = v; },
        set name(v: string) { s.name = v; },
        show: () => (vs.status.visible = true),
        hide: () => (vs.status.visible = false),
        dispose: () => undefined,
      };
    },
    showErrorMessage: async (message: string, ...items: string[]) => {
      vs.errors.push({ message, items });
      return vs.errorChoice;
    },
    showInformationMessage: async (message: string) => {
      vs.infos.push(message);
      return undefined;
    },
    showQuickPick: async (items: any[], options: any) => {
      const resolved = await items;
      vs.quickPicks.push({ items: resolved, options });
      const chooser = vs.quickPickChoosers.shift();
      return chooser ? chooser(resolved) : undefined;
    },
    showWorkspaceFolderPick: async (options: any) => {
      vs.folderPicks.push(options);
      return vs.folderPickAnswer;
    },
    showInputBox: async (options: any) => {
      vs.inputBoxes.push(options);
      return vs.inputBoxAnswer;
    },
    showTextDocument: async (target: any, options?: any) => {
      vs.shown.push({ target, options });
      return {};
    },
    get activeTextEditor() {
      return vs.activeTextEditor;
    },
  },
  workspace: {
    getConfiguration: (section: string) => {
      if (section !== 'skillLs') throw new Error(`unexpected section ${section}`);
      return {
        get: (key: string) => (key in vs.config ? vs.config[key] : vs.defaults[key]),
        // every setting of a test is a user (global) setting
        inspect: (key: string) => ({ key, defaultValue: vs.defaults[key], globalValue: vs.config[key] }),
        update: async (key: string, value: unknown, target: unknown) => {
          vs.updates.push({ key, value, target });
          if (value === undefined) delete vs.config[key];
          else vs.config[key] = value;
        },
      };
    },
    registerTextDocumentContentProvider: (scheme: string, provider: any) => {
      vs.providers.set(scheme, provider);
      return disposable;
    },
    onDidChangeConfiguration: (l: Listener<any>) => {
      vs.configListeners.push(l);
      return disposable;
    },
    onDidOpenTextDocument: (l: Listener<FakeDoc>) => {
      vs.openListeners.push(l);
      return { dispose: () => (vs.openListeners = vs.openListeners.filter((x) => x !== l)) };
    },
    get textDocuments() {
      return vs.textDocuments;
    },
    get workspaceFolders() {
      return vs.workspaceFolders;
    },
    findFiles: async () => vs.findFilesResult,
    openTextDocument: async (uri: Uri) => {
      const existing = vs.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (existing) return existing;
      const provider = vs.providers.get(uri.scheme);
      let text = provider ? await provider.provideTextDocumentContent(uri) : '';
      const doc: FakeDoc = { uri, getText: () => text };
      if (provider) {
        // Like VS Code: re-read the content when the provider signals a change.
        provider.onDidChange((u: Uri) => {
          if (u.toString() === uri.toString()) {
            void Promise.resolve(provider.provideTextDocumentContent(uri)).then((t: string) => (text = t));
          }
        });
      }
      vs.textDocuments.push(doc);
      return doc;
    },
    asRelativePath: (p: string) => (p.startsWith('/w/') ? p.slice(3) : p),
    getWorkspaceFolder: (uri: Uri) =>
      (vs.workspaceFolders ?? []).find((f: any) => uri.path === f.uri.path || uri.path.startsWith(f.uri.path + '/')),
  },
  commands: {
    registerCommand: (id: string, fn: (...a: any[]) => any) => {
      if (vs.registered.has(id)) throw new Error(`command ${id} already registered`);
      vs.registered.set(id, fn);
      return { dispose: () => vs.registered.delete(id) };
    },
    executeCommand: async (id: string, ...args: any[]) => {
      vs.executed.push({ id, args });
      const fn = vs.registered.get(id);
      return fn ? fn(...args) : undefined;
    },
  },
  languages: {
    setTextDocumentLanguage: async (doc: FakeDoc, language: string) => {
      vs.languageOf.set(doc.uri.toString(), language);
      return doc;
    },
    getDiagnostics: () => vs.diagnostics,
    match: (selector: { scheme: string; pattern: string }[], doc: FakeDoc) =>
      selector.some((f) => f.scheme === doc.uri.scheme && globToRegExp(f.pattern).test(doc.uri.path)) ? 10 : 0,
  },
  env: {
    get remoteName() {
      return vs.remoteName;
    },
    openExternal: async (uri: Uri) => {
      vs.opened.push(uri.toString());
      return true;
    },
    clipboard: {
      writeText: async (t: string) => {
        vs.clipboard = t;
      },
    },
  },
};

// ---------------------------------------------------------------------------------------------

export const State = { Stopped: 1, Running: 2, Starting: 3 };

export const lc = {
  clients: [] as FakeLanguageClient[],
  startError: undefined as unknown,
  responses: {} as Record<string, (arg: any) => unknown>,
  reset(): void {
    this.clients = [];
    this.startError = undefined;
    this.responses = {};
  },
  get last(): FakeLanguageClient {
    const c = this.clients[this.clients.length - 1];
    if (!c) throw new Error('no LanguageClient was created');
    return c;
  },
};

export class FakeLanguageClient {
  readonly handlers = new Map<string, (p: unknown) => void>();
  readonly requests: { method: string; params: any }[] = [];
  readonly notifications: { method: string; params: any }[] = [];
  readonly stateListeners: Listener<{ oldState: number; newState: number }>[] = [];
  running = false;
  stopped = false;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: any,
    readonly clientOptions: any,
  ) {
    lc.clients.push(this);
  }
  onNotification(method: string, h: (p: unknown) => void) {
    this.handlers.set(method, h);
    return disposable;
  }
  onDidChangeState(l: Listener<{ oldState: number; newState: number }>) {
    this.stateListeners.push(l);
    return disposable;
  }
  async start(): Promise<void> {
    if (lc.startError !== undefined) throw lc.startError;
    this.running = true;
    for (const l of this.stateListeners) l({ oldState: State.Starting, newState: State.Running });
  }
  isRunning(): boolean {
    return this.running;
  }
  get state(): number {
    return this.running ? State.Running : State.Stopped;
  }
  /** Simulate the server dying for good (the error handler chose not to restart). */
  die(): void {
    this.running = false;
    for (const l of this.stateListeners) l({ oldState: State.Running, newState: State.Stopped });
  }
  async stop(): Promise<void> {
    this.running = false;
    this.stopped = true;
    for (const l of this.stateListeners) l({ oldState: State.Running, newState: State.Stopped });
  }
  async dispose(): Promise<void> {
    this.running = false;
  }
  async sendRequest(method: string, params: any): Promise<unknown> {
    this.requests.push({ method, params });
    if (method !== 'workspace/executeCommand') throw new Error(`unexpected request ${method}`);
    const h = lc.responses[params.command];
    if (!h) throw new Error(`unknown command ${params.command}`);
    return h(params.arguments[0]);
  }
  async sendNotification(method: string, params: any): Promise<void> {
    this.notifications.push({ method, params });
  }
  /** Deliver a server -> client notification. */
  notify(method: string, params: unknown): void {
    const h = this.handlers.get(method);
    if (!h) throw new Error(`no handler for ${method}`);
    h(params);
  }
  executeCommands(): string[] {
    return this.requests.map((r) => r.params.command);
  }
  readonly logged: { level: string; message: string }[] = [];
  error(message: string): void {
    this.logged.push({ level: 'error', message });
  }
  info(message: string): void {
    this.logged.push({ level: 'info', message });
  }
}

export const ErrorAction = { Continue: 1, Shutdown: 2 };
export const CloseAction = { DoNotRestart: 1, Restart: 2 };
export const languageClientStub = { LanguageClient: FakeLanguageClient, State, ErrorAction, CloseAction };

const M = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const originalLoad = M._load;
/** What `require('vscode')` returns; a test may swap in a wider stub (see anything/deepStub). */
export const loader: { vscode: unknown } = { vscode: vscodeStub };
M._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') return loader.vscode;
  if (request === 'vscode-languageclient/node') return languageClientStub;
  return originalLoad.call(this, request, parent, isMain);
};

/** Let pending promise callbacks run. */
export function flush(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/**
 * A value that can be called, constructed, extended, iterated and read at any depth: stands in for the
 * parts of the VS Code API that the real vscode-languageclient touches but the tests do not observe.
 */
export function anything(name = 'vscode'): any {
  const fn = function () {
    return anything(`${name}()`);
  };
  return new Proxy(fn, {
    get(_t, k) {
      if (k === 'then') return undefined;
      if (k === Symbol.toPrimitive) return () => 0;
      if (k === Symbol.iterator) return function* () {};
      if (k === 'dispose') return () => undefined;
      if (k === 'prototype') return {};
      return anything(`${name}.${String(k)}`);
    },
    apply: () => anything(`${name}()`),
    construct: () => anything(`new ${name}`),
  });
}

/** `target` where every missing key (at any depth of plain objects) is `anything`. */
export function deepStub(target: any, name = 'vscode'): any {
  return new Proxy(target, {
    get(t, k) {
      if (!(k in t)) return typeof k === 'symbol' ? undefined : anything(`${name}.${String(k)}`);
      const v = t[k];
      const plain = typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
      return plain ? deepStub(v, `${name}.${String(k)}`) : v;
    },
  });
}
