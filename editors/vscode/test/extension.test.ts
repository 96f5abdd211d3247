/* eslint-disable @typescript-eslint/no-explicit-any */
// stubs must load first: it installs the fake `vscode` and `vscode-languageclient/node` modules.
import { vs, lc, flush, Uri } from './stubs';
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import * as ext from '../src/extension';
import * as L from '../src/logic';

const NODE = process.execPath; // an executable that exists, standing in for the server

function fakeContext(): any {
  return { subscriptions: [] as { dispose(): void }[] };
}

const STATUS = { skills: 3, agents: 1, runtimes: ['agh', 'claude-code'], workspace: '/w' };
const AGENTS = {
  runtimes: ['agh', 'claude-code'],
  default_runtime: 'agh',
  agents: [{ name: 'reviewer', runtime: 'agh', path: '/w/.agh/agents/reviewer/AGENT.md' }],
};

async function started(): Promise<ext.SkillLsExtension> {
  vs.config['server.command'] = [NODE, 'serve.js'];
  const e = new ext.SkillLsExtension();
  const client = await e.ensureClient();
  assert.ok(client, 'client should start');
  return e;
}

beforeEach(() => {
  vs.reset();
  lc.reset();
  lc.responses[L.SERVER_COMMANDS.status] = () => STATUS;
});

describe('activation', () => {
  it('registers the palette commands and the catalog scheme, never a server command', async () => {
    vs.findFilesResult = [];
    const ctx = fakeContext();
    const e = ext.activate(ctx);
    await flush();
    assert.deepEqual([...vs.registered.keys()].sort(), Object.values(L.CLIENT_COMMANDS).sort());
    for (const id of Object.values(L.SERVER_COMMANDS)) assert.ok(!vs.registered.has(id));
    assert.ok(vs.providers.has('skill-ls-catalog'));
    assert.ok(ctx.subscriptions.includes(e));
    // No skill files anywhere: the server is not started yet...
    assert.equal(lc.clients.length, 0);
    // ...until a SKILL.md is opened (an ordinary markdown file does not count).
    vs.config['server.command'] = [NODE];
    for (const l of vs.openListeners) l(vs.doc('/w/README.md'));
    await flush();
    assert.equal(lc.clients.length, 0);
    for (const l of [...vs.openListeners]) l(vs.doc('/w/skills/pdf/SKILL.md'));
    await flush();
    await flush();
    assert.equal(lc.clients.length, 1);
    await ext.deactivate();
    assert.equal(lc.last.stopped, true);
    e.dispose();
  });

  it('starts at once when the workspace contains skills', async () => {
    vs.config['server.command'] = [NODE];
    vs.findFilesResult = [Uri.file('/w/skills/a/SKILL.md')];
    const e = ext.activate(fakeContext());
    await flush();
    await flush();
    assert.equal(lc.clients.length, 1);
    await ext.deactivate();
    e.dispose();
  });
});

describe('language client', () => {
  it('spawns the configured command with the skill selector and analysis-only init options', async () => {
    vs.config['rules.select'] = ['FM'];
    vs.config['server.pythonPath'] = '/ignored/python';
    vs.config['trace.server'] = 'verbose';
    await started();
    const c = lc.last;
    assert.equal(c.id, 'skillLs'); // so `skillLs.trace.server` is honoured by the client
    assert.equal(c.serverOptions.command, NODE);
    assert.deepEqual(c.serverOptions.args, ['serve.js']);
    assert.deepEqual(c.clientOptions.documentSelector, L.documentSelector());
    const init = c.clientOptions.initializationOptions;
    assert.deepEqual(init.rules.select, ['FM']);
    assert.deepEqual(init.runtimes, ['auto']);
    assert.equal(init.server, undefined);
    assert.equal(init.trace, undefined);
  });

  it('answers workspace/configuration for skillLs with cleaned settings', async () => {
    vs.config['agh.home'] = '/srv/agh';
    await started();
    const mw = lc.last.clientOptions.middleware.workspace.configuration;
    const next = async (params: any) => params.items.map((i: any) => `raw:${i.section}`);
    const result = await mw({ items: [{ section: 'skillLs' }, { section: 'editor' }, { section: 'skillLs.agh' }] }, {}, next);
    assert.equal(result[0].agh.home, '/srv/agh');
    assert.equal(result[0].server, undefined);
    assert.equal(result[1], 'raw:editor');
    assert.equal(result[2].home, '/srv/agh');
  });

  it('shows "$(book) N skills" from skillLs.status, then from skillLs/indexChanged', async () => {
    const e = await started();
    assert.deepEqual(lc.last.requests[0], { method: 'workspace/executeCommand', params: { command: 'skillLs.status', arguments: [{}] } });
    assert.equal(vs.status.text, '$(book) 3 skills');
    assert.equal(vs.status.visible, true);
    assert.equal(vs.status.command, 'skillLs.previewCatalog');
    lc.last.notify('skillLs/indexChanged', { skills: 1, agents: 0, runtimes: ['agh'] });
    assert.equal(vs.status.text, '$(book) 1 skill');
    assert.match(String(vs.status.tooltip), /Runtimes: agh/);
    lc.last.notify('skillLs/indexChanged', { garbage: true });
    assert.equal(vs.status.text, '$(book) 1 skill');
    e.dispose();
  });

  it('pushes analysis settings on change and restarts on server settings', async () => {
    const e = await started();
    const first = lc.last;
    vs.changeConfig({ 'rules.ignore': ['SH001'] });
    assert.equal(first.notifications.length, 1);
    assert.equal(first.notifications[0].method, 'workspace/didChangeConfiguration');
    assert.deepEqual(first.notifications[0].params.settings.skillLs.rules.ignore, ['SH001']);
    assert.equal(first.notifications[0].params.settings.skillLs.server, undefined);
    vs.changeConfig({ 'server.command': [NODE, 'other.js'] });
    await flush();
    await flush();
    assert.equal(first.stopped, true);
    assert.equal(lc.clients.length, 2);
    assert.deepEqual(lc.last.serverOptions.args, ['other.js']);
    e.dispose();
  });

  it('restarts a crashed server a few times, never one that died while starting', async () => {
    const e1 = await started();
    const { errorHandler } = lc.last.clientOptions;
    const actions = [1, 2, 3, 4, 5].map(() => errorHandler.closed());
    assert.deepEqual(actions.slice(0, 4).map((a: any) => a.action), [2, 2, 2, 2]); // CloseAction.Restart
    assert.deepEqual(actions[4], { action: 1, handled: true }); // CloseAction.DoNotRestart, told by us:
    // a notification that goes away once the server runs again (issue 22: the toast stayed)
    assert.equal(vs.progress.length, 1);
    assert.match(vs.progress[0].title, /will not be restarted/);
    await flush();
    assert.equal(vs.progress[0].open, true);
    await vs.registered.get('skillLs.restartServer')!();
    await flush();
    assert.equal(vs.progress[0].open, false);
    assert.equal(errorHandler.error(new Error('x'), undefined, 1).action, 1); // ErrorAction.Continue
    assert.equal(errorHandler.error(new Error('x'), undefined, 4).action, 2); // ErrorAction.Shutdown

    vs.config['server.command'] = [NODE];
    lc.startError = new Error('boom');
    e1.dispose();
    const e2 = new ext.SkillLsExtension();
    await e2.ensureClient();
    assert.deepEqual(lc.last.clientOptions.errorHandler.closed(), { action: 1, handled: true });
    assert.equal(lc.last.clientOptions.initializationFailedHandler(new Error('init')), false);
    e2.dispose();
  });

  it('a server that died for good is shown as stopped and started afresh on the next command', async () => {
    const e = await started();
    lc.last.die();
    assert.equal(vs.status.text, '$(circle-slash) skill-ls');
    assert.equal(vs.status.command, 'skillLs.restartServer');
    lc.responses['skillLs.reindex'] = () => ({ skills: 5, agents: 0 });
    await vs.registered.get('skillLs.reindexWorkspace')!();
    assert.equal(lc.clients.length, 2);
    assert.deepEqual(lc.last.executeCommands(), ['skillLs.status', 'skillLs.reindex']);
    assert.equal(vs.status.text, '$(book) 5 skills');
    e.dispose();
  });

  it('restart command stops the client and starts a fresh one', async () => {
    const e = await started();
    await vs.registered.get('skillLs.restartServer')!();
    assert.equal(lc.clients.length, 2);
    assert.equal(lc.clients[0].stopped, true);
    assert.equal(e.client, lc.clients[1] as any);
    e.dispose();
  });
});

describe('missing server', () => {
  // Whatever is installed on this machine, the default `skill-language-server` must not be found.
  let savedPath: string | undefined;
  beforeEach(() => {
    savedPath = process.env.PATH;
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'empty-path-'));
  });
  afterEach(() => {
    fs.rmSync(process.env.PATH!, { recursive: true, force: true });
    process.env.PATH = savedPath;
  });

  it('explains how to install when the executable is not on PATH, without spawning', async () => {
    vs.errorChoice = 'Open Settings';
    const e = new ext.SkillLsExtension();
    assert.equal(await e.ensureClient(), undefined);
    assert.equal(lc.clients.length, 0);
    assert.equal(vs.errors.length, 1);
    assert.match(vs.errors[0].message, /skill-language-server/);
    assert.match(vs.errors[0].message, /`pipx install \.` in a checkout of/);
    assert.deepEqual(vs.errors[0].items, ['Open Settings', 'Copy Install Command']);
    await flush();
    assert.deepEqual(vs.executed.at(-1), { id: 'workbench.action.openSettings', args: ['skillLs.server'] });
    assert.match(vs.status.text, /skill-ls/);
    assert.equal(vs.status.command, 'skillLs.restartServer');
    e.dispose();
  });

  it('reports spawn ENOENT from client start the same way', async () => {
    vs.errorChoice = 'Copy Install Command';
    vs.config['server.command'] = [NODE];
    lc.startError = 'Launching server using command skill-language-server failed. Error: spawn skill-language-server ENOENT';
    const e = new ext.SkillLsExtension();
    assert.equal(await e.ensureClient(), undefined);
    assert.equal(e.client, undefined);
    assert.match(vs.errors[0].message, /pipx install \./);
    await flush();
    assert.equal(vs.clipboard, 'pipx install .');
    e.dispose();
  });

  it('reports other start failures with the reason', async () => {
    vs.config['server.command'] = [NODE];
    lc.startError = new Error('Server initialization failed: boom');
    const e = new ext.SkillLsExtension();
    assert.equal(await e.ensureClient(), undefined);
    assert.match(vs.errors[0].message, /failed to start: Server initialization failed: boom\./);
    assert.match(vs.errors[0].message, /"Skill LS" output channel/);
    assert.deepEqual(vs.errors[0].items, ['Show Output', 'Open Settings']);
    assert.equal(vs.status.text, '$(error) skill-ls');
    e.dispose();
  });

  it('commands do nothing harmful when the server cannot start', async () => {
    const e = new ext.SkillLsExtension();
    await vs.registered.get('skillLs.previewCatalog')!();
    assert.equal(vs.quickPicks.length, 0);
    assert.match(vs.errors[0].message, /pipx install \./);
    e.dispose();
  });
});

describe('Preview Agent Catalog', () => {
  it('picks an agent, forwards to skillLs.renderCatalog and refreshes on indexChanged', async () => {
    const e = await started();
    let version = 1;
    lc.responses['skillLs.listAgents'] = () => AGENTS;
    lc.responses['skillLs.renderCatalog'] = (arg) => ({ runtime: arg.runtime, agent: arg.agent, text: `catalog v${version} for ${arg.agent}\n`, chars: 10, skills: [] });
    vs.quickPickChoosers.push((items) => items.find((i: any) => i.label.includes('reviewer')));
    await vs.registered.get('skillLs.previewCatalog')!();

    assert.deepEqual(vs.quickPicks[0].items.map((i: any) => i.label), ['(no agent)', '$(person) reviewer']);
    assert.equal(vs.quickPicks.length, 1, 'the agent is bound to one runtime: no runtime pick');
    const cmds = lc.last.requests.map((r) => r.params);
    assert.deepEqual(cmds[1], { command: 'skillLs.listAgents', arguments: [{}] });
    assert.deepEqual(cmds[2], { command: 'skillLs.renderCatalog', arguments: [{ agent: 'reviewer', runtime: 'agh' }] });

    const doc = vs.textDocuments.find((d) => d.uri.scheme === 'skill-ls-catalog')!;
    assert.ok(doc);
    assert.equal(doc.getText(), 'catalog v1 for reviewer\n');
    assert.equal(vs.shown.at(-1)!.target, doc);

    version = 2;
    lc.last.notify('skillLs/indexChanged', { skills: 4, agents: 1, runtimes: ['agh'] });
    await flush();
    assert.equal(doc.getText(), 'catalog v2 for reviewer\n');
    e.dispose();
  });

  it('"(no agent)" asks for the runtime, default first', async () => {
    const e = await started();
    lc.responses['skillLs.listAgents'] = () => AGENTS;
    lc.responses['skillLs.renderCatalog'] = () => ({ text: 'base\n' });
    vs.quickPickChoosers.push((items) => items[0]);
    vs.quickPickChoosers.push((items) => items.find((i: any) => i.value === 'claude-code'));
    await vs.registered.get('skillLs.previewCatalog')!();
    assert.deepEqual(vs.quickPicks[1].items.map((i: any) => i.value), ['agh', 'claude-code']);
    const render = lc.last.requests.find((r) => r.params.command === 'skillLs.renderCatalog')!;
    assert.deepEqual(render.params.arguments, [{ runtime: 'claude-code' }]);
    const doc = vs.textDocuments.find((d) => d.uri.scheme === 'skill-ls-catalog')!;
    assert.equal(doc.uri.path, '/Catalog - no agent (claude-code)');
    e.dispose();
  });

  it('shows the server refusal inside the preview', async () => {
    const e = await started();
    lc.responses['skillLs.listAgents'] = () => ({ runtimes: ['agh'], default_runtime: 'agh', agents: [] });
    lc.responses['skillLs.renderCatalog'] = () => {
      throw new Error('agent "x" fails closed: AG001');
    };
    await vs.registered.get('skillLs.previewCatalog')!();
    assert.equal(vs.quickPicks.length, 0, 'nothing to choose: no agents, one runtime');
    const doc = vs.textDocuments.find((d) => d.uri.scheme === 'skill-ls-catalog')!;
    assert.match(doc.getText(), /fails closed: AG001/);
    e.dispose();
  });

  it('cancelling the agent pick renders nothing', async () => {
    const e = await started();
    lc.responses['skillLs.listAgents'] = () => AGENTS;
    await vs.registered.get('skillLs.previewCatalog')!();
    assert.ok(!lc.last.executeCommands().includes('skillLs.renderCatalog'));
    assert.equal(vs.shown.length, 0);
    e.dispose();
  });
});

describe('multi-root: commands name the workspace folder', () => {
  const folders = () => [
    { uri: Uri.file('/a'), name: 'a', index: 0 },
    { uri: Uri.file('/b'), name: 'b', index: 1 },
  ];

  it('Preview Agent Catalog lists and renders for the active editor\'s folder', async () => {
    const e = await started();
    vs.workspaceFolders = folders();
    vs.activeTextEditor = { document: vs.doc('/b/.agh/skills/x/SKILL.md', '---\nname: x\n---\n') };
    lc.responses['skillLs.listAgents'] = () => ({ runtimes: ['agh'], default_runtime: 'agh', agents: [] });
    lc.responses['skillLs.renderCatalog'] = (arg) => ({ text: `catalog of ${arg.workspace}\n` });
    await vs.registered.get('skillLs.previewCatalog')!();
    const sent = lc.last.requests.map((r) => r.params).filter((p) => p.command !== 'skillLs.status');
    assert.deepEqual(sent[0], { command: 'skillLs.listAgents', arguments: [{ workspace: '/b' }] });
    assert.deepEqual(sent[1].arguments[0].workspace, '/b');
    const doc = vs.textDocuments.find((d) => d.uri.scheme === 'skill-ls-catalog')!;
    assert.equal(doc.getText(), 'catalog of /b\n');
    assert.equal(vs.folderPicks.length, 0);
    e.dispose();
  });

  it('asks for the folder when no editor is in one, and a cancelled pick does nothing', async () => {
    const e = await started();
    vs.workspaceFolders = folders();
    lc.responses['skillLs.where'] = (arg) => ({ name: arg.name, runtime: 'agh', entries: [] });
    vs.inputBoxAnswer = 'pdf-tools';
    vs.folderPickAnswer = vs.workspaceFolders[0];
    await vs.registered.get('skillLs.showShadows')!();
    assert.deepEqual(lc.last.requests.at(-1)!.params, { command: 'skillLs.where', arguments: [{ name: 'pdf-tools', workspace: '/a' }] });
    assert.equal(vs.folderPicks.length, 1);
    vs.folderPickAnswer = undefined;
    const before = lc.last.requests.length;
    await vs.registered.get('skillLs.previewCatalog')!();
    assert.equal(lc.last.requests.length, before, 'cancelled: nothing sent');
    e.dispose();
  });
});

describe('Show Skill Shadows', () => {
  const WHERE = {
    name: 'pdf-tools',
    runtime: 'agh',
    entries: [
      { tier: 'workspace', path: '/w/.agh/skills/pdf/SKILL.md', resolved_to_winner: true, blocked: false,
        label: 'winner', summary: 'winner · workspace — shadows 1' },
      { tier: 'user', path: '/home/u/.agh/skills/pdf-tools/SKILL.md', resolved_to_winner: false, blocked: false,
        label: 'shadowed', summary: 'shadowed · user — by workspace' },
    ],
  };

  it('uses the name: of the current SKILL.md and opens the chosen copy', async () => {
    const e = await started();
    vs.activeTextEditor = { document: vs.doc('/w/.agh/skills/pdf/SKILL.md', '---\nname: pdf-tools\ndescription: d\n---\n') };
    lc.responses['skillLs.where'] = () => WHERE;
    vs.quickPickChoosers.push((items) => items[1]);
    await vs.registered.get('skillLs.showShadows')!();
    assert.equal(vs.inputBoxes.length, 0);
    // the active file is named: the server answers under its runtime (issue 22: .claude/skills got AGH's)
    assert.deepEqual(lc.last.requests.at(-1)!.params, {
      command: 'skillLs.where',
      arguments: [{ name: 'pdf-tools', path: '/w/.agh/skills/pdf/SKILL.md' }],
    });
    assert.deepEqual(vs.quickPicks[0].items.map((i: any) => i.description), ['winner · workspace — shadows 1',
      'shadowed · user — by workspace']);
    assert.match(vs.quickPicks[0].options.placeHolder, /2 declarations of "pdf-tools"/);
    const opened = vs.shown.at(-1)!.target;
    assert.equal(opened.scheme, 'file');
    assert.equal(opened.fsPath, '/home/u/.agh/skills/pdf-tools/SKILL.md');
    e.dispose();
  });

  it('falls back to the directory name, then to an input box', async () => {
    const e = await started();
    const asked: string[] = [];
    lc.responses['skillLs.where'] = (arg) => {
      asked.push(arg.name);
      return { name: arg.name, runtime: 'agh', entries: [] };
    };
    vs.activeTextEditor = { document: vs.doc('/w/skills/csv/SKILL.md', 'no frontmatter') };
    await vs.registered.get('skillLs.showShadows')!();
    vs.activeTextEditor = { document: vs.doc('/w/notes.md', '---\nname: notes\n---\n') };
    vs.inputBoxAnswer = '  typed-name ';
    await vs.registered.get('skillLs.showShadows')!();
    assert.deepEqual(asked, ['csv', 'typed-name']);
    assert.equal(vs.inputBoxes.length, 1);
    assert.equal(vs.inputBoxes[0].validateInput(' '), 'Enter a skill name');
    assert.equal(vs.infos.length, 2);
    assert.match(vs.infos[1], /no declaration of a skill named "typed-name"/);
    assert.equal(vs.quickPicks.length, 0);
    e.dispose();
  });

  it('runs from a code lens: the lens lists the declarations instead of sending skillLs.where blindly', async () => {
    const e = await started();
    vs.workspaceFolders = [{ uri: Uri.file('/a'), name: 'a', index: 0 }, { uri: Uri.file('/b'), name: 'b', index: 1 }];
    const mw = lc.last.clientOptions.middleware;
    const serverLens = () => ({ range: {}, command: { title: 'winner · workspace — shadows 1', command: 'skillLs.where',
      arguments: [{ name: 'pdf-tools', runtime: 'agh', workspace: '/b', agent: 'reviewer' }] } });
    const lenses = await mw.provideCodeLenses(vs.doc('/b/.agh/skills/pdf/SKILL.md'), {}, async () => [serverLens(), { range: {} }]);
    assert.equal(lenses[0].command.command, 'skillLs.showShadows');
    assert.equal(lenses[0].command.title, 'winner · workspace — shadows 1');
    assert.equal(lenses[1].command, undefined);
    const resolved = await mw.resolveCodeLens(serverLens(), {}, async (l: any) => l);
    assert.equal(resolved.command.command, 'skillLs.showShadows');
    // Clicking it: VS Code runs the command with the lens's arguments.
    lc.responses['skillLs.where'] = () => ({ ...WHERE, agent: 'reviewer' });
    vs.quickPickChoosers.push((items) => items[0]);
    await vs.registered.get('skillLs.showShadows')!(...lenses[0].command.arguments);
    assert.deepEqual(lc.last.requests.at(-1)!.params, { command: 'skillLs.where',
      arguments: [{ name: 'pdf-tools', runtime: 'agh', agent: 'reviewer', workspace: '/b' }] });
    assert.equal(vs.folderPicks.length, 0, 'the lens names its folder');
    assert.equal(vs.inputBoxes.length, 0);
    assert.match(vs.quickPicks[0].options.placeHolder, /2 declarations of "pdf-tools" \(agh\) for agent "reviewer"/);
    assert.equal(vs.shown.at(-1)!.target.fsPath, '/w/.agh/skills/pdf/SKILL.md');
    e.dispose();
  });

  it('reports a server error', async () => {
    const e = await started();
    vs.inputBoxAnswer = 'x';
    lc.responses['skillLs.where'] = () => {
      throw new Error('unknown runtime "zz"');
    };
    await vs.registered.get('skillLs.showShadows')!();
    assert.match(vs.errors[0].message, /could not resolve "x": unknown runtime "zz"/);
    e.dispose();
  });
});

describe('Re-index Workspace', () => {
  it('runs skillLs.reindex and updates the status bar', async () => {
    const e = await started();
    lc.responses['skillLs.reindex'] = () => ({ skills: 9, agents: 2 });
    await vs.registered.get('skillLs.reindexWorkspace')!();
    assert.equal(lc.last.requests.at(-1)!.params.command, 'skillLs.reindex');
    assert.equal(vs.status.text, '$(book) 9 skills');
    assert.match(vs.infos[0], /re-indexed 9 skills/);
    e.dispose();
  });
});

describe('bundled server (issue 22: install the .vsix, open a folder, it works)', () => {
  let savedPath: string | undefined;
  let savedVenv: string | undefined;
  let tmp: string;
  let extDir: string;
  let bin: string;
  const launcher = () => path.join(extDir, 'bundled', 'tool', 'skill_ls_bundled.py');

  /** An executable that prints a Python version, standing in for an interpreter. */
  function fakePython(dir: string, name: string, version: string): string {
    fs.mkdirSync(dir, { recursive: true });
    const p = path.join(dir, name);
    fs.writeFileSync(p, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
    return p;
  }

  beforeEach(() => {
    savedPath = process.env.PATH;
    savedVenv = process.env.VIRTUAL_ENV;
    delete process.env.VIRTUAL_ENV;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-ls-bundle-'));
    extDir = path.join(tmp, 'ext');
    fs.mkdirSync(path.join(extDir, 'bundled', 'tool'), { recursive: true });
    fs.mkdirSync(path.join(extDir, 'bundled', 'libs', 'skill_ls'), { recursive: true });
    fs.writeFileSync(launcher(), '');
    fs.writeFileSync(path.join(extDir, 'bundled', 'libs', 'skill_ls', '__init__.py'), '');
    bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    process.env.PATH = bin;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    if (savedVenv !== undefined) process.env.VIRTUAL_ENV = savedVenv;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('runs the bundled server with python3 from PATH, no setting and nothing installed', async () => {
    const python = fakePython(bin, 'python3', '3.11');
    const e = new ext.SkillLsExtension(extDir);
    assert.ok(await e.ensureClient());
    assert.deepEqual(lc.last.serverOptions.command, python);
    assert.deepEqual(lc.last.serverOptions.args, [launcher(), 'serve']);
    assert.equal(vs.errors.length, 0);
    assert.ok(vs.output.some((l) => /Starting: .*skill_ls_bundled\.py serve \(the bundled server; Python from PATH\)/.test(l)), vs.output.join('\n'));
    e.dispose();
  });

  it('prefers the Python extension, then a workspace .venv, over PATH; skips interpreters older than 3.10', async () => {
    fakePython(bin, 'python3', '3.12');
    const venv = fakePython(path.join(tmp, 'ws', '.venv', 'bin'), 'python', '3.8');
    vs.workspaceFolders = [{ uri: Uri.file(path.join(tmp, 'ws')), name: 'ws', index: 0 }];
    let e = new ext.SkillLsExtension(extDir);
    await e.ensureClient();
    assert.equal(lc.last.serverOptions.command, path.join(bin, 'python3')); // the .venv's 3.8 is too old
    assert.ok(vs.output.some((l) => l.includes(`${venv} (workspace virtual environment): Python 3.8 — too old`)));
    await e.stop();
    e.dispose();
    fs.writeFileSync(venv, '#!/bin/sh\necho 3.10\n');
    e = new ext.SkillLsExtension(extDir);
    await e.ensureClient();
    assert.equal(lc.last.serverOptions.command, venv);
    await e.stop();
    e.dispose();
    const selected = fakePython(path.join(tmp, 'sel'), 'python', '3.13');
    vs.extensions['ms-python.python'] = {
      isActive: true,
      exports: { environments: { getActiveEnvironmentPath: () => ({ path: selected }), resolveEnvironment: async () => ({ executable: { uri: Uri.file(selected) } }) } },
    };
    e = new ext.SkillLsExtension(extDir);
    await e.ensureClient();
    assert.equal(lc.last.serverOptions.command, selected);
    assert.equal(e.lastCommand?.origin, 'Python extension');
    e.dispose();
  });

  it('a venv activated in the shell the editor started from is used ($VIRTUAL_ENV)', async () => {
    const venvPython = fakePython(path.join(tmp, 'venv', 'bin'), 'python', '3.11');
    process.env.VIRTUAL_ENV = path.join(tmp, 'venv');
    const e = new ext.SkillLsExtension(extDir);
    await e.ensureClient();
    assert.equal(lc.last.serverOptions.command, venvPython);
    e.dispose();
  });

  it('without any Python, says what it needs with buttons that work locally and remotely', async () => {
    fakePython(bin, 'python3', '3.9');
    vs.errorChoice = 'Install Python';
    let e = new ext.SkillLsExtension(extDir);
    assert.equal(await e.ensureClient(), undefined);
    assert.equal(lc.clients.length, 0);
    assert.match(vs.errors[0].message, /needs Python 3\.10 or newer to run it, and found none/);
    assert.deepEqual(vs.errors[0].items, ['Install Python', 'Open Settings', 'Retry']);
    await flush();
    assert.deepEqual(vs.opened, ['https://www.python.org/downloads/']);
    assert.equal(vs.status.command, 'skillLs.restartServer');
    e.dispose();
    // in a remote window the message says where, and Open Settings opens the Remote tab
    vs.reset();
    vs.remoteName = 'ssh-remote';
    vs.errorChoice = 'Open Settings';
    e = new ext.SkillLsExtension(extDir);
    await e.ensureClient();
    assert.match(vs.errors[0].message, /on the remote machine \(ssh-remote\)/);
    await flush();
    assert.deepEqual(vs.executed.at(-1), { id: 'workbench.action.openRemoteSettings', args: [{ query: 'skillLs.server.pythonPath' }] });
    e.dispose();
    // with the Python extension installed, the button selects an interpreter; Retry starts once one exists
    vs.reset();
    vs.extensions['ms-python.python'] = { isActive: true, exports: {} };
    vs.errorChoice = 'Retry';
    e = new ext.SkillLsExtension(extDir);
    const python = fakePython(bin, 'python3', '3.11');
    fs.writeFileSync(python, '#!/bin/sh\necho 3.9\n');
    await e.ensureClient();
    assert.deepEqual(vs.errors[0].items, ['Install Python', 'Select Interpreter', 'Retry']);
    fs.writeFileSync(python, '#!/bin/sh\necho 3.11\n');
    vs.errorChoice = undefined;
    for (let i = 0; i < 20 && lc.clients.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(lc.clients.length, 1);
    e.dispose();
  });

  it('a configured command that is missing offers the bundled server', async () => {
    fakePython(bin, 'python3', '3.11');
    vs.config['server.command'] = ['/nowhere/skill-language-server'];
    vs.errorChoice = 'Use Bundled Server';
    const e = new ext.SkillLsExtension(extDir);
    assert.equal(await e.ensureClient(), undefined);
    assert.deepEqual(vs.errors[0].items, ['Use Bundled Server', 'Open Settings']);
    await flush();
    await flush();
    assert.deepEqual(vs.updates, [{ key: 'server.command', value: undefined, target: 1 }]);
    e.dispose();
  });

  it('logs a server that exits with code 0 (a restart) as information, not as an error', async () => {
    fakePython(bin, 'python3', '3.11');
    const e = new ext.SkillLsExtension(extDir);
    const client: any = await e.ensureClient();
    client.error('Server process exited with code 0.');
    client.error('Server process exited with code 1.');
    assert.deepEqual(client.logged, [
      { level: 'info', message: 'Server process exited with code 0.' },
      { level: 'error', message: 'Server process exited with code 1.' },
    ]);
    e.dispose();
  });
});
