/**
 * VS Code wiring for skill-ls: starts the language server, forwards palette commands to the server's
 * `workspace/executeCommand` commands (docs/lsp-protocol.md), keeps the status bar and catalog previews
 * in sync with `skillLs/indexChanged`. All decisions live in ./logic (no `vscode` import there).
 */
import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, LanguageClient, LanguageClientOptions, ServerOptions, State } from 'vscode-languageclient/node';
import * as L from './logic';

const OPEN_SETTINGS = 'Open Settings';
const COPY_INSTALL = 'Copy Install Command';
const SHOW_OUTPUT = 'Show Output';
const USE_BUNDLED = 'Use Bundled Server';
const INSTALL_PYTHON = 'Install Python';
const SELECT_INTERPRETER = 'Select Interpreter';
const RETRY = 'Retry';
const PYTHON_EXTENSION = 'ms-python.python';

type Exec = (command: string, arg: object) => Promise<unknown>;

/**
 * Works around two vscode-languageclient 9 behaviours when the server dies during `initialize`: the client
 * calls `void this.stop()` on a client that is not running (a rejected promise nobody handles), and rejects
 * its internal start promise after `start()` already returned. Neither changes what the user sees.
 */
class SkillLanguageClient extends LanguageClient {
  override start(): Promise<void> {
    const result = super.start();
    const internal = (this as unknown as { _onStart?: Promise<void> })._onStart;
    if (internal && typeof internal.catch === 'function') internal.catch(() => undefined);
    return result;
  }

  /** A server that exits with code 0 stopped as asked (a restart, a window closing): not an error. */
  override error(message: string, data?: unknown, showNotification: boolean | 'force' = 'force'): void {
    if (/^Server process exited with code 0\.?$/.test(message)) {
      this.info(message);
      return;
    }
    super.error(message, data, showNotification);
  }

  override stop(timeout?: number): Promise<void> {
    return super.stop(timeout).catch((err: unknown) => {
      if (!this.isRunning() && /not running/i.test(L.errorMessage(err))) return;
      throw err;
    });
  }
}

/** Read-only documents of the palette commands (`skill-ls-doc:`): their text is set before they open. */
class DocProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.emitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

class CatalogProvider implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly exec: Exec) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const params = L.parseCatalogQuery(uri.query);
    try {
      return L.catalogText(await this.exec(L.SERVER_COMMANDS.renderCatalog, params));
    } catch (err) {
      return L.catalogErrorText(params, err);
    }
  }

  /** Re-render one preview (if open) or every open preview. */
  refresh(uri?: vscode.Uri): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== L.CATALOG_SCHEME) continue;
      if (uri === undefined || doc.uri.toString() === uri.toString()) this.emitter.fire(doc.uri);
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export class SkillLsExtension implements vscode.Disposable {
  client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  readonly output: vscode.OutputChannel;
  readonly status: vscode.StatusBarItem;
  readonly catalog: CatalogProvider;
  readonly docs = new DocProvider();
  private readonly disposables: vscode.Disposable[] = [];

  /** Resolves the "crashed repeatedly" notification (it closes once the server runs again). */
  private dismissCrash: (() => void) | undefined;
  /** How the running server was started (its interpreter and where that came from). */
  lastCommand: L.ServerCommand | undefined;

  constructor(private readonly extensionPath: string = path.join(__dirname, '..')) {
    this.output = vscode.window.createOutputChannel('Skill LS');
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    this.status.name = 'Skill LS';
    this.catalog = new CatalogProvider((command, arg) => this.executeServerCommand(command, arg));
    this.disposables.push(
      this.output,
      this.status,
      this.catalog,
      vscode.workspace.registerTextDocumentContentProvider(L.CATALOG_SCHEME, this.catalog),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.previewCatalog, () => this.previewCatalog()),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.showShadows, (arg?: unknown) => this.showShadows(arg)),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.restartServer, () => this.restart()),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.reindexWorkspace, () => this.reindex()),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.showOutput, () => this.output.show()),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.listSkills, () => this.listSkills()),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.showPortability, () => this.showPortability()),
      vscode.commands.registerCommand(L.CLIENT_COMMANDS.explainRule, (code?: unknown) => this.explainRule(code)),
      this.docs,
      vscode.workspace.registerTextDocumentContentProvider(L.DOC_SCHEME, this.docs),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Server lifecycle

  private config(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(L.CONFIG_SECTION, scope);
  }

  /** The analysis configuration the server receives (editor-only keys stripped). */
  serverSettings(scope?: vscode.ConfigurationScope): Record<string, unknown> {
    const cfg = this.config(scope);
    return L.toServerSettings((key) => cfg.get(key));
  }

  /** The first workspace folder that is a directory on this machine (the server's cwd). */
  private firstFolder(): string | undefined {
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      if (f.uri.scheme === 'file' && isDirectory(f.uri.fsPath)) return f.uri.fsPath;
    }
    return undefined;
  }

  private serverSettingsOf(): L.ServerSettings {
    const cfg = this.config();
    return { command: cfg.get('server.command'), pythonPath: cfg.get('server.pythonPath'), importStrategy: cfg.get('server.importStrategy') };
  }

  /** The command from the settings alone (`default`: the bundled server, or PATH without a bundle). */
  serverCommand(): L.ServerCommand {
    return L.buildServerCommand(this.serverSettingsOf(), { workspaceFolder: this.firstFolder(), home: os.homedir() });
  }

  /** The launcher of the server this extension carries, when this build carries one. */
  bundledLauncher(): string | undefined {
    const launcher = path.join(this.extensionPath, ...L.BUNDLED_LAUNCHER);
    return isFile(launcher) && isFile(path.join(this.extensionPath, ...L.BUNDLED_PACKAGE)) ? launcher : undefined;
  }

  /**
   * What to start: a `skillLs.server.command`, or `-m skill_ls serve` with importStrategy
   * fromEnvironment, as configured; otherwise the bundled server with the first interpreter >= 3.10
   * of: skillLs.server.pythonPath, the Python extension's, a workspace .venv, $VIRTUAL_ENV, PATH.
   * undefined: no interpreter (the user was told what to do).
   */
  async resolveServerCommand(): Promise<L.ServerCommand | undefined> {
    const cmd = this.serverCommand();
    const launcher = this.bundledLauncher();
    if (cmd.source !== 'default' || launcher === undefined) return cmd;
    const ctx = { workspaceFolder: this.firstFolder(), home: os.homedir() };
    const configured = L.configuredPython(this.serverSettingsOf(), ctx);
    const candidates: L.PythonCandidate[] = configured
      ? [{ path: configured, origin: 'skillLs.server.pythonPath' }]
      : L.pythonCandidates({
          selected: await pythonExtensionInterpreter(vscode.workspace.workspaceFolders?.[0]?.uri),
          virtualEnv: process.env.VIRTUAL_ENV,
          folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
          platform: process.platform,
          pathEnv: process.env.PATH ?? process.env.Path,
          pathExt: process.env.PATHEXT,
          isFile,
        });
    const tried: string[] = [];
    for (const c of candidates) {
      const version = await pythonVersion(c.path);
      tried.push(L.describeCandidate(c, version));
      this.output.appendLine(`Python: ${tried[tried.length - 1]}`);
      if (L.pythonVersionOk(version)) return L.bundledServerCommand(c.path, launcher, c.origin);
    }
    this.reportNoPython(tried, configured !== undefined);
    return undefined;
  }

  /** Start the client if it is not running; resolves to undefined when it cannot start. */
  ensureClient(): Promise<LanguageClient | undefined> {
    if (this.client && this.client.state === State.Stopped) {
      // It crashed too often and was not restarted: start a fresh one on demand.
      const dead = this.client;
      this.client = undefined;
      void dead.dispose().catch(() => undefined);
    }
    if (this.client) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private setStatus(text: string, tooltip: string, command: string): void {
    this.status.text = text;
    this.status.tooltip = tooltip;
    this.status.command = command;
    this.status.show();
  }

  private async start(): Promise<LanguageClient | undefined> {
    const cwd = this.firstFolder();
    this.setStatus('$(sync~spin) skill-ls', 'skill-ls: starting the language server', L.CLIENT_COMMANDS.restartServer);
    const cmd = await this.resolveServerCommand();
    if (cmd === undefined) return undefined;
    this.lastCommand = cmd;
    this.output.appendLine(`Starting: ${L.formatCommandLine(cmd)}${cmd.origin ? ` (the bundled server; Python from ${cmd.origin})` : ''}`);

    const found = L.findExecutable(cmd.command, {
      pathEnv: process.env.PATH ?? process.env.Path,
      pathExt: process.env.PATHEXT,
      platform: process.platform,
      isFile: (p) => {
        try {
          return fs.statSync(path.resolve(cwd ?? process.cwd(), p)).isFile();
        } catch {
          return false;
        }
      },
    });
    if (found === undefined) {
      this.reportMissing(cmd, L.missingServerMessage(cmd));
      return undefined;
    }
    if (cmd.source === 'pythonPath' && (await pythonHasModule(cmd.command, cwd)) === false) {
      this.reportMissing(cmd, L.missingModuleMessage(cmd));
      return undefined;
    }

    const serverOptions: ServerOptions = { command: cmd.command, args: cmd.args, options: { cwd, env: process.env } };
    const restarts = new L.RestartPolicy();
    let everRunning = false;
    const clientOptions: LanguageClientOptions = {
      documentSelector: L.documentSelector(),
      // Initialization failures are reported once, by us (see the catch below), not retried.
      initializationFailedHandler: (error) => {
        this.output.appendLine(`Initialization failed: ${L.errorMessage(error)}`);
        return false;
      },
      errorHandler: {
        error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown }),
        closed: () => {
          if (!everRunning) return { action: CloseAction.DoNotRestart, handled: true };
          if (restarts.shouldRestart(true)) return { action: CloseAction.Restart };
          this.showCrashed();
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      initializationOptions: this.serverSettings(),
      outputChannel: this.output,
      middleware: {
        // The server's code lens runs `skillLs.where`; in VS Code that would send the command and drop
        // its answer. Running the lens shows the declarations instead (L.lensCommand).
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          for (const lens of lenses ?? []) if (lens.command) lens.command = L.lensCommand(lens.command);
          return lenses;
        },
        resolveCodeLens: async (lens, token, next) => {
          const resolved = await next(lens, token);
          if (resolved?.command) resolved.command = L.lensCommand(resolved.command);
          return resolved;
        },
        workspace: {
          configuration: async (params, token, next) => {
            const result = await next(params, token);
            if (!Array.isArray(result)) return result;
            return params.items.map((item, i) => {
              const section = item.section ?? '';
              if (section !== L.CONFIG_SECTION && !section.startsWith(L.CONFIG_SECTION + '.')) return result[i];
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
              const settings = this.serverSettings(scope);
              return section === L.CONFIG_SECTION ? settings : L.getNested(settings, section.slice(L.CONFIG_SECTION.length + 1)) ?? null;
            });
          },
        },
      },
    };
    let client: LanguageClient | undefined;
    try {
      client = new SkillLanguageClient('skillLs', 'Skill LS', serverOptions, clientOptions);
      const self = client;
      client.onNotification(L.INDEX_CHANGED_NOTIFICATION, (payload: unknown) => this.onIndexChanged(payload));
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) {
          everRunning = true;
          this.clearCrashed();
        }
        if (e.newState === State.Stopped && this.client === self) {
          this.setStatus('$(circle-slash) skill-ls', 'skill-ls: the language server stopped. Click to restart.', L.CLIENT_COMMANDS.restartServer);
        }
      });
      await client.start();
      // vscode-languageclient 9 resolves start() when the process dies during initialization.
      if (!client.isRunning()) throw new Error('the server process exited during startup');
    } catch (err) {
      if (L.isMissingExecutableError(err)) {
        this.reportMissing(cmd, L.missingServerMessage(cmd));
      } else {
        const message = L.startFailedMessage(cmd, err);
        this.output.appendLine(message);
        this.setStatus('$(error) skill-ls', 'skill-ls: the language server failed to start. Click to restart.', L.CLIENT_COMMANDS.restartServer);
        void vscode.window.showErrorMessage(message, SHOW_OUTPUT, OPEN_SETTINGS).then(async (choice) => {
          if (choice === SHOW_OUTPUT) this.output.show();
          else if (choice === OPEN_SETTINGS) await openServerSettings();
        });
      }
      return undefined;
    }
    this.client = client;
    this.clearCrashed();
    this.setStatus('$(book) skill-ls', 'skill-ls: indexing', L.CLIENT_COMMANDS.previewCatalog);
    try {
      this.onIndexChanged(await this.sendCommand(client, L.SERVER_COMMANDS.status, {}));
    } catch (err) {
      this.output.appendLine(`skillLs.status failed: ${L.errorMessage(err)}`);
    }
    return client;
  }

  private reportMissing(cmd: L.ServerCommand, message: string): void {
    this.output.appendLine(message);
    this.setStatus('$(warning) skill-ls', 'skill-ls: the configured language server was not found. Click to retry.', L.CLIENT_COMMANDS.restartServer);
    const buttons = this.bundledLauncher() ? [USE_BUNDLED, OPEN_SETTINGS] : [OPEN_SETTINGS, COPY_INSTALL];
    void vscode.window.showErrorMessage(message, ...buttons).then(async (choice) => {
      if (choice === OPEN_SETTINGS) {
        await openServerSettings();
      } else if (choice === COPY_INSTALL) {
        await vscode.env.clipboard.writeText(L.installHint(cmd));
      } else if (choice === USE_BUNDLED) {
        await clearServerSettings();
      }
    });
  }

  /** No interpreter for the bundled server: say what is needed, with buttons that do it here or remotely. */
  private reportNoPython(tried: string[], configured: boolean): void {
    const remote = vscode.env.remoteName;
    const message = configured
      ? `Skill LS: the interpreter in skillLs.server.pythonPath cannot run the bundled server (needs Python ${L.MIN_PYTHON.join('.')} or newer): ${tried.join('; ')}.`
      : L.noPythonMessage(remote);
    this.output.appendLine(message);
    this.setStatus('$(warning) skill-ls', `skill-ls: needs Python ${L.MIN_PYTHON.join('.')} or newer. Click to retry.`, L.CLIENT_COMMANDS.restartServer);
    const hasPythonExtension = vscode.extensions.getExtension(PYTHON_EXTENSION) !== undefined;
    const buttons = [INSTALL_PYTHON, hasPythonExtension ? SELECT_INTERPRETER : OPEN_SETTINGS, RETRY];
    void vscode.window.showErrorMessage(message, ...buttons).then(async (choice) => {
      if (choice === INSTALL_PYTHON) {
        // Opens on the user's own machine, also from a remote window; the message says where to install.
        await vscode.env.openExternal(vscode.Uri.parse(L.PYTHON_DOWNLOAD_URL));
      } else if (choice === SELECT_INTERPRETER) {
        await vscode.commands.executeCommand('python.setInterpreter');
      } else if (choice === OPEN_SETTINGS) {
        await openServerSettings('skillLs.server.pythonPath');
      } else if (choice === RETRY) {
        await this.restart();
      }
    });
  }

  /** The server died too often and is not restarted: a notification that goes away once it runs again. */
  private showCrashed(): void {
    this.clearCrashed();
    this.output.appendLine(L.CRASH_MESSAGE);
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: L.CRASH_MESSAGE, cancellable: true },
      (_progress, token) =>
        new Promise<void>((resolve) => {
          this.dismissCrash = resolve;
          token.onCancellationRequested(() => resolve());
        }),
    );
  }

  private clearCrashed(): void {
    const dismiss = this.dismissCrash;
    this.dismissCrash = undefined;
    if (dismiss) dismiss();
  }

  async stop(): Promise<void> {
    if (this.starting) await this.starting;
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop();
      } catch (err) {
        this.output.appendLine(`Stopping the server failed: ${L.errorMessage(err)}`);
      }
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    if (await this.ensureClient()) this.catalog.refresh();
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (L.needsRestart((s) => e.affectsConfiguration(s))) {
      void this.restart();
      return;
    }
    if (this.client && L.CONFIG_KEYS.some((k) => e.affectsConfiguration(`${L.CONFIG_SECTION}.${k.key}`))) {
      void this.client.sendNotification('workspace/didChangeConfiguration', { settings: { [L.CONFIG_SECTION]: this.serverSettings() } });
    }
  }

  onIndexChanged(payload: unknown): void {
    const counts = L.parseIndexCounts(payload);
    if (!counts) return;
    this.setStatus(L.statusText(counts), L.statusTooltip(counts), L.CLIENT_COMMANDS.previewCatalog);
    this.catalog.refresh();
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  private sendCommand(client: LanguageClient, command: string, arg: object): Promise<unknown> {
    return client.sendRequest('workspace/executeCommand', { command, arguments: [arg] });
  }

  async executeServerCommand(command: string, arg: object): Promise<unknown> {
    const client = await this.ensureClient();
    if (!client) throw new Error('the skill-ls language server is not running');
    return this.sendCommand(client, command, arg);
  }

  private relative(p: string): string {
    return vscode.workspace.asRelativePath(p, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  }

  private showCommandError(what: string, err: unknown): void {
    void vscode.window.showErrorMessage(`Skill LS: ${what}: ${L.errorMessage(err)}`);
  }

  /**
   * The workspace folder a command is about, for a multi-root workspace: the active editor's folder, else
   * the one the user picks. undefined: a single folder (the server's default); null: the pick was cancelled.
   */
  async commandFolder(): Promise<string | undefined | null> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length <= 1) return undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = active && active.scheme === 'file' ? vscode.workspace.getWorkspaceFolder(active) : undefined;
    if (folder) return folder.uri.fsPath;
    const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Workspace folder whose skills to use' });
    return picked ? picked.uri.fsPath : null;
  }

  async previewCatalog(): Promise<void> {
    if (!(await this.ensureClient())) return;
    const workspace = await this.commandFolder();
    if (workspace === null) return;
    const scope = workspace ? { workspace } : {};
    let list: L.AgentList;
    try {
      list = L.parseListAgents(await this.executeServerCommand(L.SERVER_COMMANDS.listAgents, scope));
    } catch (err) {
      this.showCommandError('could not list agents', err);
      return;
    }
    const agentItems = L.agentPickItems(list, (p) => this.relative(p));
    const agentPick =
      agentItems.length === 1
        ? agentItems[0]
        : await vscode.window.showQuickPick(agentItems, {
            title: 'Skill LS: Preview Agent Catalog',
            placeHolder: 'Agent whose catalog to preview',
            matchOnDescription: true,
            matchOnDetail: true,
          });
    if (!agentPick) return;
    const runtimeItems = L.runtimePickItems(list, agentPick.value);
    let runtime: string | undefined = runtimeItems[0]?.value;
    if (runtimeItems.length > 1) {
      const pick = await vscode.window.showQuickPick(runtimeItems, {
        title: 'Skill LS: Preview Agent Catalog',
        placeHolder: 'Runtime whose catalog format to render',
      });
      if (!pick) return;
      runtime = pick.value;
    }
    const params: L.CatalogParams = { agent: agentPick.value.agent, runtime, ...scope };
    const uri = vscode.Uri.from({ scheme: L.CATALOG_SCHEME, path: L.catalogPath(params), query: L.catalogQuery(params) });
    this.catalog.refresh(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /**
   * Show Skill Shadows. From the palette: the current SKILL.md's name (else a typed one) in the active
   * editor's folder. From a code lens: `arg` is the lens's `skillLs.where` argument (name, runtime, agent,
   * folder), sent as it is.
   */
  async showShadows(arg?: unknown): Promise<void> {
    const given = L.parseWhereArg(arg);
    if (given) {
      await this.showWhere(given);
      return;
    }
    const doc = vscode.window.activeTextEditor?.document;
    let name = doc ? L.detectSkillName(doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.path, doc.getText()) : undefined;
    if (!name) {
      name = (
        await vscode.window.showInputBox({
          title: 'Skill LS: Show Skill Shadows',
          prompt: 'Name of the skill whose declarations to list',
          placeHolder: 'e.g. pdf-tools',
          validateInput: (v) => (v.trim() === '' ? 'Enter a skill name' : undefined),
        })
      )?.trim();
      if (!name) return;
    }
    const workspace = await this.commandFolder();
    if (workspace === null) return;
    // The active skill file answers for itself (its runtime and agent, as its code lens does).
    const file = doc && doc.uri.scheme === 'file' && L.isSkillFile(doc.uri.fsPath) ? doc.uri.fsPath : undefined;
    await this.showWhere(L.paletteWhereArg(name, file, workspace));
  }

  /** `skillLs.where` with `arg`, as a quick pick (winner first); choosing a declaration opens it. */
  private async showWhere(arg: L.WhereArg): Promise<void> {
    const name = arg.name;
    let where: L.WhereResult;
    try {
      where = L.parseWhere(await this.executeServerCommand(L.SERVER_COMMANDS.where, arg));
    } catch (err) {
      this.showCommandError(`could not resolve "${name}"`, err);
      return;
    }
    if (where.entries.length === 0) {
      void vscode.window.showInformationMessage(`Skill LS: no declaration of a skill named "${name}" was found.`);
      return;
    }
    if (!where.name) where.name = name;
    const pick = await vscode.window.showQuickPick(L.whereItems(where, (p) => this.relative(p)), {
      title: 'Skill LS: Show Skill Shadows',
      placeHolder: L.wherePlaceholder(where),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!pick) return;
    if (pick.value === undefined) {
      void vscode.window.showInformationMessage(L.builtinMessage(where));
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(pick.value));
  }

  /** Open a read-only document of a palette command (Markdown for a rule, plain text for a table). */
  private async openDoc(name: string, text: string, language: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: L.DOC_SCHEME, path: `/${name}` });
    this.docs.set(uri, text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** List Skills: the effective set of the active folder's default runtime; choosing one opens it. */
  async listSkills(): Promise<void> {
    if (!(await this.ensureClient())) return;
    const workspace = await this.commandFolder();
    if (workspace === null) return;
    let list: ReturnType<typeof L.parseListSkills>;
    try {
      list = L.parseListSkills(await this.executeServerCommand(L.SERVER_COMMANDS.listSkills, workspace ? { workspace } : {}));
    } catch (err) {
      this.showCommandError('could not list skills', err);
      return;
    }
    const pick = await vscode.window.showQuickPick(L.skillItems(list.skills, (p) => this.relative(p)), {
      title: `Skill LS: Skills (${list.runtime ?? 'default runtime'})`,
      placeHolder: `${list.skills.length} skills the runtime loads, in catalog order`,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!pick) return;
    if (pick.value === undefined) {
      void vscode.window.showInformationMessage(`Skill LS: ${pick.label.replace('$(book) ', '')} is built into ${list.runtime ?? 'the runtime'}: there is no file to open.`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(pick.value));
  }

  /** Show Portability: which runtime loads the active skill (or every skill of the folder), and why not. */
  async showPortability(): Promise<void> {
    if (!(await this.ensureClient())) return;
    const active = vscode.window.activeTextEditor?.document.uri;
    const file = active && active.scheme === 'file' && L.isSkillFile(active.fsPath) ? active.fsPath : undefined;
    const workspace = file ? undefined : await this.commandFolder();
    if (workspace === null) return;
    const arg = file ? { path: file, workspace: file } : workspace ? { workspace } : {};
    try {
      const result = await this.executeServerCommand(L.SERVER_COMMANDS.portability, arg);
      const what = file ? this.relative(file) : 'the workspace';
      await this.openDoc(`Portability - ${file ? path.basename(path.dirname(file)) : 'workspace'}`, L.portabilityText(result, what), 'plaintext');
    } catch (err) {
      this.showCommandError('portability failed', err);
    }
  }

  /** Explain Rule: a rule's documentation (the codes under the cursor first). */
  async explainRule(arg?: unknown): Promise<void> {
    if (!(await this.ensureClient())) return;
    let code = typeof arg === 'string' ? arg : undefined;
    if (!code) {
      let rules: L.RuleSummary[];
      try {
        rules = L.parseRuleList(await this.executeServerCommand(L.SERVER_COMMANDS.explain, {}));
      } catch (err) {
        this.showCommandError('could not list the rules', err);
        return;
      }
      const editor = vscode.window.activeTextEditor;
      const here = editor
        ? L.codesAt(vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.range.contains(editor.selection.active)))
        : [];
      const pick = await vscode.window.showQuickPick(L.ruleItems(rules, here), {
        title: 'Skill LS: Explain Rule',
        placeHolder: 'Rule code (the findings under the cursor first)',
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (!pick) return;
      code = pick.value;
    }
    try {
      const result = await this.executeServerCommand(L.SERVER_COMMANDS.explain, { code });
      await this.openDoc(`${code.toUpperCase()}.md`, L.explainText(result), 'markdown');
    } catch (err) {
      this.showCommandError(`could not explain ${code}`, err);
    }
  }

  async reindex(): Promise<void> {
    try {
      const result = await this.executeServerCommand(L.SERVER_COMMANDS.reindex, {});
      const counts = L.parseIndexCounts(result);
      if (counts) {
        this.onIndexChanged(result);
        void vscode.window.showInformationMessage(`Skill LS: re-indexed ${L.statusText(counts).replace('$(book) ', '')}.`);
      }
    } catch (err) {
      this.showCommandError('re-index failed', err);
    }
  }

  /** Start now if a skill/agent file is open or the workspace has one; otherwise on the first one opened. */
  async startWhenRelevant(): Promise<void> {
    const selector = L.documentSelector();
    const relevant = (d: vscode.TextDocument) => vscode.languages.match(selector, d) > 0;
    if (vscode.workspace.textDocuments.some(relevant)) {
      await this.ensureClient();
      return;
    }
    const found = await vscode.workspace.findFiles('**/{SKILL.md,AGENT.md,.skill-ls.toml}', '**/{node_modules,.git}/**', 1);
    if (found.length > 0) {
      await this.ensureClient();
      return;
    }
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (relevant(d)) {
        sub.dispose();
        void this.ensureClient();
      }
    });
    this.disposables.push(sub);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `<python> -c 'print version'`: [major, minor], or undefined when it does not run. */
function pythonVersion(python: string): Promise<[number, number] | undefined> {
  return new Promise((resolve) => {
    cp.execFile(python, ['-c', L.PYTHON_VERSION_SCRIPT], { timeout: 15000 }, (err, stdout) => {
      resolve(err ? undefined : L.parsePythonVersion(String(stdout)));
    });
  });
}

/** The Python extension's interpreter for `resource`, when that extension is installed (its API or the older one). */
async function pythonExtensionInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension(PYTHON_EXTENSION);
  if (!ext) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api: any = ext.isActive ? ext.exports : await ext.activate();
    const envs = api?.environments;
    if (envs?.getActiveEnvironmentPath) {
      const active = envs.getActiveEnvironmentPath(resource);
      const resolved = envs.resolveEnvironment ? await envs.resolveEnvironment(active) : undefined;
      const exe = resolved?.executable?.uri?.fsPath ?? active?.path;
      return typeof exe === 'string' && exe !== '' ? exe : undefined;
    }
    const exec = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
    return Array.isArray(exec) && typeof exec[0] === 'string' ? exec[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The server settings in the Settings editor. They are machine-overridable: in a remote window
 * (Remote-SSH, WSL, Codespaces, code-server) they live on the Remote tab, where the User tab
 * said "No Settings Found" — open the remote settings there.
 */
async function openServerSettings(query = 'skillLs.server'): Promise<void> {
  if (vscode.env.remoteName) {
    try {
      await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query });
      return;
    } catch {
      // an older VS Code: the user settings below
    }
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', query);
}

/** "Use Bundled Server": clear skillLs.server.command / importStrategy wherever they are set. */
async function clearServerSettings(): Promise<void> {
  const cfg = vscode.workspace.getConfiguration(L.CONFIG_SECTION);
  for (const key of ['server.command', 'server.importStrategy']) {
    const info = cfg.inspect(key);
    if (info?.workspaceFolderValue !== undefined) {
      for (const f of vscode.workspace.workspaceFolders ?? []) {
        await vscode.workspace.getConfiguration(L.CONFIG_SECTION, f.uri).update(key, undefined, vscode.ConfigurationTarget.WorkspaceFolder);
      }
    }
    if (info?.workspaceValue !== undefined) await cfg.update(key, undefined, vscode.ConfigurationTarget.Workspace);
    if (info?.globalValue !== undefined) await cfg.update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `<python> -c "import skill_ls"`: true/false, or undefined if it could not be decided (timeout). */
function pythonHasModule(python: string, cwd: string | undefined): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    cp.execFile(python, ['-c', 'import skill_ls'], { cwd, timeout: 15000 }, (err) => {
      if (!err) resolve(true);
      else if ((err as { killed?: boolean }).killed) resolve(undefined);
      else resolve(false);
    });
  });
}

let extension: SkillLsExtension | undefined;

export function activate(context: vscode.ExtensionContext): SkillLsExtension {
  extension = new SkillLsExtension(context.extensionPath);
  context.subscriptions.push(extension);
  // Do not block activation on the server: commands work (and start it) meanwhile.
  void extension.startWhenRelevant();
  return extension;
}

export async function deactivate(): Promise<void> {
  const ext = extension;
  extension = undefined;
  if (ext) await ext.stop();
}
