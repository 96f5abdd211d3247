/* eslint-disable @typescript-eslint/no-explicit-any */
// Integration: the shipped bundle (dist/extension.js, with the real vscode-languageclient inside) against
// a fake language server process speaking the skill-ls protocol. Only `vscode` is stubbed.
import { vs, loader, vscodeStub, deepStub, flush } from './stubs';
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { after, before, describe, it } from 'node:test';

const bundlePath = path.resolve(__dirname, '..', '..', 'dist', 'extension.js');
const fakeServer = path.resolve(__dirname, '..', '..', 'test', 'fixtures', 'fake-server.js');
const built = fs.existsSync(bundlePath);

async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('dist/extension.js with the real language client', { skip: !built && 'run `npm run build` first' }, () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-ls-vscode-'));
  const logFile = path.join(workspace, 'requests.jsonl');
  const requests = () =>
    fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  let bundle: any;
  let api: any;
  const context = { subscriptions: [] as { dispose(): void }[] };

  before(async () => {
    vs.reset();
    loader.vscode = deepStub(vscodeStub);
    process.env.FAKE_SERVER_LOG = logFile;
    vs.config['server.command'] = [process.execPath, fakeServer];
    vs.config['rules.select'] = ['SH'];
    vs.workspaceFolders = [{ uri: vscodeStub.Uri.file(workspace), name: 'ws', index: 0 }];
    vs.findFilesResult = [vscodeStub.Uri.file(path.join(workspace, 'skills/a/SKILL.md'))];
    const source = fs.readFileSync(bundlePath, 'utf8');
    assert.doesNotMatch(source, /require\(["']vscode-languageclient/, 'the client library must be bundled');
    bundle = require(bundlePath);
    api = bundle.activate(context);
    await until(() => vs.status.text === '$(book) 2 skills', 'the status bar to show the index');
  });

  after(async () => {
    if (bundle) await bundle.deactivate();
    for (const d of context.subscriptions) d.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('initializes the server with the analysis settings only, in the workspace folder', () => {
    const init = requests().find((r) => r.method === 'initialize');
    assert.ok(init);
    assert.equal(init.params.rootPath ?? workspace, workspace);
    assert.deepEqual(vs.errors, []);
    assert.deepEqual(init.params.initializationOptions.rules.select, ['SH']);
    assert.equal(init.params.initializationOptions.server, undefined);
  });

  it('lets the client register the server commands next to the palette ones, without clashes', () => {
    for (const id of ['skillLs.renderCatalog', 'skillLs.where', 'skillLs.reindex', 'skillLs.listAgents']) {
      assert.ok(vs.registered.has(id), `server command ${id} registered by vscode-languageclient`);
    }
    for (const id of ['skillLs.previewCatalog', 'skillLs.showShadows', 'skillLs.restartServer']) assert.ok(vs.registered.has(id));
  });

  it('previews a catalog through workspace/executeCommand and refreshes it on indexChanged', async () => {
    vs.quickPickChoosers.push((items) => items.find((i: any) => i.label.includes('writer')));
    await vs.registered.get('skillLs.previewCatalog')!();
    const doc = vs.textDocuments.find((d) => d.uri.scheme === 'skill-ls-catalog');
    assert.ok(doc);
    assert.equal(doc.getText(), '<catalog agent=writer skills=2>\n');
    const render = requests().find((r) => r.method === 'workspace/executeCommand' && r.params.command === 'skillLs.renderCatalog');
    assert.deepEqual(render.params.arguments, [{ agent: 'writer', runtime: 'agh' }]);

    await vs.registered.get('skillLs.reindexWorkspace')!();
    await until(() => doc.getText() === '<catalog agent=writer skills=3>\n', 'the preview to refresh');
    assert.equal(vs.status.text, '$(book) 3 skills');
  });

  it('restarts the server process', async () => {
    const before = requests().filter((r) => r.method === 'initialize').length;
    await vs.registered.get('skillLs.restartServer')!();
    await flush();
    await until(() => requests().filter((r) => r.method === 'initialize').length === before + 1, 'a second initialize');
    assert.ok(requests().some((r) => r.method === 'shutdown'));
    assert.ok(api.client);
  });
});

describe('dist/extension.js when the server dies during startup', { skip: !built && 'run `npm run build` first' }, () => {
  it('reports one clear failure and does not restart in a loop', async () => {
    vs.reset();
    loader.vscode = deepStub(vscodeStub);
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-ls-vscode-'));
    const spawned = path.join(workspace, 'spawned');
    vs.workspaceFolders = [{ uri: vscodeStub.Uri.file(workspace), name: 'ws', index: 0 }];
    const script = `require('fs').appendFileSync(${JSON.stringify(spawned)}, 'x'); process.stderr.write('ImportError: no skill_ls.server\\n'); process.exit(3)`;
    vs.config['server.command'] = [process.execPath, '-e', script];
    const bundle = require(bundlePath);
    const e = new bundle.SkillLsExtension();
    try {
      assert.equal(await e.ensureClient(), undefined);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(fs.readFileSync(spawned, 'utf8'), 'x', 'spawned exactly once');
      const ours = vs.errors.filter((m) => m.message.startsWith('Skill LS: the language server'));
      assert.equal(ours.length, 1);
      assert.match(ours[0].message, /failed to start/);
      assert.match(ours[0].message, /pipx install \./);
      assert.equal(vs.status.text, '$(error) skill-ls');
      assert.ok(vs.output.join('\n').includes('ImportError: no skill_ls.server'), 'server stderr reaches the output channel');
      assert.equal(e.client, undefined);
    } finally {
      e.dispose();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
