import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { describe, it } from 'node:test';
import * as L from '../src/logic';

const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const props: Record<string, { type: string; default: unknown; markdownDescription?: string; description?: string }> =
  pkg.contributes.configuration.properties;

describe('buildServerCommand', () => {
  it('defaults to skill-language-server with no arguments', () => {
    assert.deepEqual(L.buildServerCommand({ command: [], pythonPath: '' }), {
      command: 'skill-language-server',
      args: [],
      source: 'default',
    });
    assert.equal(L.buildServerCommand({}).command, 'skill-language-server');
  });

  it('runs <python> -m skill_ls serve when pythonPath is set with importStrategy fromEnvironment', () => {
    // useBundled (the default): the interpreter runs the bundled server (resolved by the extension)
    assert.equal(L.buildServerCommand({ command: [], pythonPath: '/venv/bin/python' }).source, 'default');
    assert.equal(L.configuredPython({ pythonPath: ' /venv/bin/python ' }), '/venv/bin/python');
    assert.deepEqual(L.buildServerCommand({ command: [], pythonPath: ' /venv/bin/python ', importStrategy: 'fromEnvironment' }), {
      command: '/venv/bin/python',
      args: ['-m', 'skill_ls', 'serve'],
      source: 'pythonPath',
    });
  });

  it('prefers an explicit server.command over pythonPath', () => {
    const cmd = L.buildServerCommand({ command: ['uvx', '--from', 'skill-ls', 'skill-language-server'], pythonPath: '/usr/bin/python3' });
    assert.deepEqual(cmd, { command: 'uvx', args: ['--from', 'skill-ls', 'skill-language-server'], source: 'command' });
  });

  it('ignores non-string items and an empty first item', () => {
    assert.equal(L.buildServerCommand({ command: [''], pythonPath: '' }).source, 'default');
    assert.deepEqual(L.buildServerCommand({ command: [42, 'srv', null, '--x'] }).args, ['--x']);
    assert.equal(L.buildServerCommand({ command: 'not-an-array' }).source, 'default');
  });

  it('expands ${workspaceFolder} and ~', () => {
    const ctx = { workspaceFolder: '/ws', home: '/home/u' };
    assert.deepEqual(L.buildServerCommand({ command: ['${workspaceFolder}/.venv/bin/skill-ls', 'serve', '--log=~/x'] }, ctx), {
      command: '/ws/.venv/bin/skill-ls',
      args: ['serve', '--log=~/x'],
      source: 'command',
    });
    assert.equal(L.buildServerCommand({ pythonPath: '~/venv/bin/python', importStrategy: 'fromEnvironment' }, ctx).command, '/home/u/venv/bin/python');
    assert.equal(L.configuredPython({ pythonPath: '~/venv/bin/python' }, ctx), '/home/u/venv/bin/python');
    assert.equal(L.expandVariables('${userHome}/a', ctx), '/home/u/a');
  });
});

describe('missing server', () => {
  it('recognises spawn ENOENT in every shape the client produces', () => {
    assert.ok(L.isMissingExecutableError('Launching server using command skill-language-server failed. Error: spawn skill-language-server ENOENT'));
    assert.ok(L.isMissingExecutableError(Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' })));
    assert.ok(L.isMissingExecutableError({ code: 'ENOENT' }));
    assert.ok(!L.isMissingExecutableError(new Error('Connection to server got closed. Server will not be restarted.')));
    assert.ok(!L.isMissingExecutableError(undefined));
    assert.ok(!L.isMissingExecutableError('ENOENTISH'));
  });

  it('suggests the install that works (a checkout: skill-ls is not on PyPI), or the interpreter own pip', () => {
    const def = L.buildServerCommand({});
    assert.equal(L.installHint(def), 'pipx install .');
    assert.match(L.missingServerMessage(def), /"skill-language-server" was not found/);
    assert.match(L.missingServerMessage(def), /`pipx install \.` in a checkout of https:\/\/github\.com\/skill-ls\/skill-ls/);
    assert.doesNotMatch(L.missingServerMessage(def), /pip install skill-ls/);
    const py = L.buildServerCommand({ pythonPath: '/opt/my python/bin/python', importStrategy: 'fromEnvironment' });
    assert.equal(L.installHint(py), '"/opt/my python/bin/python" -m pip install .');
    assert.match(L.missingModuleMessage(py), /cannot import skill_ls/);
    assert.match(L.missingServerMessage(L.buildServerCommand({ command: ['srv'] })), /"srv" \(skillLs\.server\.command\)/);
  });

  it('findExecutable searches PATH like spawn does', () => {
    const files = new Set(['/usr/local/bin/skill-language-server', '/opt/x/bin/python', 'C:\\Py\\Scripts\\skill-language-server.EXE']);
    const isFile = (p: string) => files.has(p);
    assert.equal(L.findExecutable('skill-language-server', { pathEnv: '/usr/bin::/usr/local/bin/', isFile }), '/usr/local/bin/skill-language-server');
    assert.equal(L.findExecutable('skill-language-server', { pathEnv: '/usr/bin', isFile }), undefined);
    assert.equal(L.findExecutable('/opt/x/bin/python', { pathEnv: '', isFile }), '/opt/x/bin/python');
    assert.equal(L.findExecutable('/opt/y/bin/python', { pathEnv: '/opt/x/bin', isFile }), undefined);
    assert.equal(
      L.findExecutable('skill-language-server', { pathEnv: 'C:\\Windows;C:\\Py\\Scripts', pathExt: '.COM;.EXE', platform: 'win32', isFile }),
      'C:\\Py\\Scripts\\skill-language-server.EXE',
    );
  });

  it('formats the command line with quoting', () => {
    assert.equal(L.formatCommandLine({ command: '/a b/python', args: ['-m', 'skill_ls', 'serve'], source: 'pythonPath' }), '"/a b/python" -m skill_ls serve');
  });
});

describe('restart policy', () => {
  it('never restarts a server that did not finish initializing', () => {
    const p = new L.RestartPolicy(4, 1000, () => 0);
    assert.equal(p.shouldRestart(false), false);
  });

  it('restarts up to max times within the window, then gives up; old deaths expire', () => {
    let now = 0;
    const p = new L.RestartPolicy(2, 1000, () => now);
    assert.equal(p.shouldRestart(true), true);
    now = 100;
    assert.equal(p.shouldRestart(true), true);
    now = 200;
    assert.equal(p.shouldRestart(true), false);
    now = 5000;
    assert.equal(p.shouldRestart(true), true);
  });

  it('words a start failure with the command, the reason and the install hint', () => {
    const msg = L.startFailedMessage(L.buildServerCommand({ pythonPath: '/py', importStrategy: 'fromEnvironment' }), new Error('the server process exited during startup'));
    assert.match(msg, /\(\/py -m skill_ls serve\) failed to start: the server process exited during startup\./);
    assert.match(msg, /`\/py -m pip install \.` in a checkout/);
    // the bundled server needs no install hint
    assert.doesNotMatch(L.startFailedMessage(L.bundledServerCommand('/usr/bin/python3', '/ext/bundled/tool/skill_ls_bundled.py', 'PATH'), 'x'), /install/);
  });
});

describe('bundled server: finding a Python', () => {
  const files = new Set(['/sel/bin/python', '/w/.venv/bin/python', '/v/bin/python', '/usr/bin/python3', '/usr/bin/python']);
  const isFile = (p: string) => files.has(p);

  it('tries the Python extension, a workspace .venv, $VIRTUAL_ENV, then python3/python on PATH', () => {
    const c = L.pythonCandidates({ selected: '/sel/bin/python', virtualEnv: '/v', folders: ['/w', '/x'], platform: 'linux', pathEnv: '/usr/bin', isFile });
    assert.deepEqual(c, [
      { path: '/sel/bin/python', origin: 'Python extension' },
      { path: '/w/.venv/bin/python', origin: 'workspace virtual environment' },
      { path: '/v/bin/python', origin: 'VIRTUAL_ENV' },
      { path: '/usr/bin/python3', origin: 'PATH' },
      { path: '/usr/bin/python', origin: 'PATH' },
    ]);
    assert.deepEqual(L.pythonCandidates({ folders: [], platform: 'linux', pathEnv: '/nowhere', isFile }), []);
  });

  it('on Windows looks in Scripts\\python.exe and for python.exe on PATH', () => {
    const win = new Set(['C:\\w\\.venv\\Scripts\\python.exe', 'C:\\Py\\python.EXE']);
    const c = L.pythonCandidates({ folders: ['C:\\w'], platform: 'win32', pathEnv: 'C:\\Py', pathExt: '.EXE', isFile: (p) => win.has(p) });
    assert.deepEqual(c.map((x) => x.path), ['C:\\w\\.venv\\Scripts\\python.exe', 'C:\\Py\\python.EXE']);
  });

  it('accepts 3.10 and newer', () => {
    assert.deepEqual(L.parsePythonVersion('3.11\n'), [3, 11]);
    assert.equal(L.parsePythonVersion('Python 3.11'), undefined);
    assert.ok(L.pythonVersionOk([3, 10]) && L.pythonVersionOk([3, 13]) && L.pythonVersionOk([4, 0]));
    assert.ok(!L.pythonVersionOk([3, 9]) && !L.pythonVersionOk([2, 7]) && !L.pythonVersionOk(undefined));
    assert.match(L.describeCandidate({ path: '/usr/bin/python3', origin: 'PATH' }, [3, 8]), /Python 3\.8 — too old/);
  });

  it('runs the bundled launcher with the interpreter found', () => {
    assert.deepEqual(L.bundledServerCommand('/usr/bin/python3', '/ext/bundled/tool/skill_ls_bundled.py', 'PATH'), {
      command: '/usr/bin/python3', args: ['/ext/bundled/tool/skill_ls_bundled.py', 'serve'], source: 'bundled', origin: 'PATH',
    });
  });

  it('says what it needs, and where in a remote window', () => {
    const local = L.noPythonMessage();
    assert.match(local, /needs Python 3\.10 or newer/);
    assert.match(local, /no python3 on PATH/);
    assert.match(L.noPythonMessage('ssh-remote'), /on the remote machine \(ssh-remote\)/);
  });
});

describe('palette commands', () => {
  it('lists skills with their tier and opens the file; a built-in has none', () => {
    const list = L.parseListSkills({ runtime: 'amp', skills: [
      { name: 'pdf', tier: 'workspace', path: '/w/.agents/skills/pdf/SKILL.md', description: 'PDFs.' },
      { name: 'code-review', tier: 'builtin', path: null, builtin: true },
      { name: 'off', tier: 'user', path: '/h/off/SKILL.md', disabled: true },
    ] });
    const items = L.skillItems(list.skills);
    assert.deepEqual(items.map((i) => [i.label, i.description, i.value]), [
      ['$(book) pdf', 'workspace', '/w/.agents/skills/pdf/SKILL.md'],
      ['$(book) code-review', 'builtin · built-in', undefined],
      ['$(book) off', 'user · disabled', '/h/off/SKILL.md'],
    ]);
    assert.equal(items[0].detail, 'PDFs. — /w/.agents/skills/pdf/SKILL.md');
  });

  it('a built-in declaration in Show Skill Shadows opens nothing', () => {
    const where = L.parseWhere({ name: 'code-review', runtime: 'amp', entries: [
      { tier: 'builtin', path: '(built-in code-review)', builtin: true, resolved_to_winner: true, label: 'winner' },
      { tier: 'workspace', path: '/w/.agents/skills/code-review/SKILL.md', label: 'shadowed' },
    ] });
    const items = L.whereItems(where);
    assert.equal(items[0].value, undefined);
    assert.equal(items[0].detail, 'built into amp (no file)');
    assert.equal(items[1].value, '/w/.agents/skills/code-review/SKILL.md');
    assert.match(L.builtinMessage(where), /built into amp: there is no file to open/);
  });

  it('offers the codes under the cursor first when explaining a rule', () => {
    const rules = L.parseRuleList({ rules: [{ code: 'AG001', name: 'a', severity: 'error', summary: 's' },
      { code: 'SK007', name: 'unknown-field', severity: 'warning', summary: 'u' }] });
    const here = L.codesAt([{ code: 'SK007', source: 'skill-ls' }, { code: { value: 'SK007' }, source: 'skill-ls' }, { code: 'E1', source: 'other' }]);
    assert.deepEqual(here, ['SK007']);
    assert.deepEqual(L.ruleItems(rules, here).map((r) => r.value), ['SK007', 'AG001']);
    assert.match(L.explainText({ markdown: '# SK007\n', url: 'https://x/docs/rules.md#sk007' }), /\[Online: https:\/\/x\/docs\/rules\.md#sk007\]/);
  });
});

describe('configuration', () => {
  const contract = [
    'runtimes', 'roots', 'exclude', 'rules.select', 'rules.ignore', 'rules.severity', 'noUserRoots', 'agh.home',
    'agh.bundledRoots', 'agh.additionalRoots', 'agh.disabled', 'agh.draftFields', 'agh.bundledSkillDescription',
    'amp.skillsPath', 'agentcy.maxPromptChars',
  ];

  it('covers exactly the keys of docs/lsp-protocol.md', () => {
    assert.deepEqual(L.CONFIG_KEYS.map((k) => k.key), contract);
  });

  it('maps camelCase keys to the .skill-ls.toml spelling', () => {
    for (const k of L.CONFIG_KEYS) {
      const toml = k.key.split('.').map(L.camelToSnake).join('.');
      assert.equal(k.toml, toml, k.key);
      assert.equal(k.key, k.toml.split('.').map(L.snakeToCamel).join('.'));
    }
    assert.equal(L.camelToSnake('maxPromptChars'), 'max_prompt_chars');
    assert.equal(L.snakeToCamel('no_user_roots'), 'noUserRoots');
  });

  it('package.json contributes every key with the contract default and a description', () => {
    for (const k of L.CONFIG_KEYS) {
      const p = props[`skillLs.${k.key}`];
      assert.ok(p, `missing setting skillLs.${k.key}`);
      assert.deepEqual(p.default, k.default, k.key);
      assert.ok((p.markdownDescription ?? p.description ?? '').length > 20, `no description for ${k.key}`);
    }
    for (const k of L.EDITOR_ONLY_KEYS) assert.ok(props[`skillLs.${k}`], `missing setting skillLs.${k}`);
    assert.deepEqual(props['skillLs.server.command'].default, []);
    assert.equal(props['skillLs.server.command'].type, 'array');
    assert.equal(props['skillLs.server.pythonPath'].default, '');
    assert.equal(props['skillLs.trace.server'].default, 'off');
    assert.equal(Object.keys(props).length, L.CONFIG_KEYS.length + L.EDITOR_ONLY_KEYS.length);
  });

  it('defaults produce the server defaults, minus an empty agh.home', () => {
    const s = L.toServerSettings((k) => props[`skillLs.${k}`]?.default);
    assert.deepEqual(s, {
      runtimes: ['auto'],
      roots: [],
      exclude: [],
      rules: { select: [], ignore: [], severity: {} },
      noUserRoots: false,
      agh: { bundledRoots: [], additionalRoots: [], disabled: [], draftFields: 'error' },
      amp: { skillsPath: [] },
      agentcy: { maxPromptChars: 16000 },
    });
  });

  it('nests dotted keys, drops editor-only and invalid values', () => {
    const values: Record<string, unknown> = {
      runtimes: ['agh', 7],
      roots: [{ path: 'vendor/skills', runtime: 'agh', tier: 'additional', extra: 1 }, { runtime: 'x' }, 'bad'],
      'rules.select': ['FM', 'SH001'],
      'rules.severity': { SH001: 'error', XX: 'fatal' },
      noUserRoots: true,
      'agh.home': '/srv/agh',
      'agh.draftFields': 'loud',
      'agentcy.maxPromptChars': 1.5,
      'server.command': ['x'],
      'server.pythonPath': '/py',
      'trace.server': 'verbose',
    };
    const s = L.toServerSettings((k) => values[k]);
    assert.deepEqual(s, {
      runtimes: ['agh'],
      roots: [{ path: 'vendor/skills', runtime: 'agh', tier: 'additional' }],
      rules: { select: ['FM', 'SH001'], severity: { SH001: 'error' } },
      noUserRoots: true,
      agh: { home: '/srv/agh' },
    });
    assert.equal(L.getNested(s, 'agh.home'), '/srv/agh');
    assert.equal(L.getNested(s, 'agh.nope.deeper'), undefined);
  });

  it('restarts only for server.* settings', () => {
    const affects = (keys: string[]) => (s: string) => keys.some((k) => k === s || k.startsWith(s + '.'));
    assert.ok(L.needsRestart(affects(['skillLs.server.command'])));
    assert.ok(L.needsRestart(affects(['skillLs.server.pythonPath'])));
    assert.ok(!L.needsRestart(affects(['skillLs.rules.select'])));
    assert.ok(!L.needsRestart(affects(['skillLs.trace.server'])));
  });
});

describe('status bar', () => {
  it('reads indexChanged and status payloads', () => {
    assert.deepEqual(L.parseIndexCounts({ skills: 12, agents: 2, runtimes: ['agh', 3] }), { skills: 12, agents: 2, runtimes: ['agh'] });
    assert.deepEqual(L.parseIndexCounts({ skills: 0, agents: 0, runtimes: [], workspace: '/w' }), { skills: 0, agents: 0, runtimes: [], workspace: '/w' });
    assert.equal(L.parseIndexCounts({ agents: 1 }), undefined);
    assert.equal(L.parseIndexCounts(null), undefined);
    assert.equal(L.parseIndexCounts({ skills: 'many' }), undefined);
  });

  it('says "$(book) N skills" with a singular', () => {
    assert.equal(L.statusText({ skills: 0 }), '$(book) 0 skills');
    assert.equal(L.statusText({ skills: 1 }), '$(book) 1 skill');
    assert.equal(L.statusText({ skills: 214, agents: 3 }), '$(book) 214 skills');
    const tip = L.statusTooltip({ skills: 2, agents: 1, runtimes: ['agh', 'claude-code'] });
    assert.match(tip, /2 skills indexed, 1 agent/);
    assert.match(tip, /Runtimes: agh, claude-code/);
  });
});

describe('agent and runtime picks', () => {
  const raw = {
    runtimes: ['agh', 'claude-code', 'codex'],
    default_runtime: 'claude-code',
    agents: [
      { name: 'writer', runtime: 'agh', path: '/w/.agh/agents/writer/AGENT.md' },
      { name: 'reviewer', runtime: 'claude-code', path: '/w/.claude/agents/reviewer.md' },
      { bogus: true },
      { name: 'free' },
    ],
  };

  it('parses listAgents defensively', () => {
    const list = L.parseListAgents(raw);
    assert.deepEqual(list.runtimes, ['agh', 'claude-code', 'codex']);
    assert.equal(list.defaultRuntime, 'claude-code');
    assert.deepEqual(list.agents.map((a) => a.name), ['writer', 'reviewer', 'free']);
    assert.deepEqual(L.parseListAgents(undefined), { runtimes: [], defaultRuntime: undefined, agents: [] });
  });

  it('offers "(no agent)" first, then agents by name', () => {
    const items = L.agentPickItems(L.parseListAgents(raw), (p) => p.replace('/w/', ''));
    assert.deepEqual(items.map((i) => i.label), ['(no agent)', '$(person) free', '$(person) reviewer', '$(person) writer']);
    assert.deepEqual(items[0].value, {});
    assert.deepEqual(items[2].value, { agent: 'reviewer', runtime: 'claude-code' });
    assert.equal(items[2].detail, '.claude/agents/reviewer.md');
    assert.equal(items[2].description, 'claude-code');
  });

  it('offers the default runtime first without an agent, only the agent runtime with one', () => {
    const list = L.parseListAgents(raw);
    const none = L.runtimePickItems(list, {});
    assert.deepEqual(none.map((i) => i.value), ['claude-code', 'agh', 'codex']);
    assert.equal(none[0].description, 'default');
    assert.deepEqual(L.runtimePickItems(list, { agent: 'writer', runtime: 'agh' }).map((i) => i.value), ['agh']);
    assert.deepEqual(L.runtimePickItems(list, { agent: 'free' }).map((i) => i.value), ['claude-code', 'agh', 'codex']);
    assert.deepEqual(L.runtimePickItems({ runtimes: [], agents: [] }, {}), []);
  });
});

describe('where', () => {
  const raw = {
    name: 'pdf',
    runtime: 'agh',
    entries: [
      { tier: 'workspace', path: '/w/.agh/skills/pdf/SKILL.md', resolved_to_winner: true, blocked: false,
        label: 'winner', summary: 'winner · workspace — shadows 1' },
      { tier: 'user', path: '/home/u/.agh/skills/pdf/SKILL.md', resolved_to_winner: false, blocked: false,
        label: 'shadowed', summary: 'shadowed · user — by workspace' },
      { tier: 'bundled', path: '/opt/agh/skills/pdf/SKILL.md', resolved_to_winner: false, blocked: true,
        label: 'blocked', summary: 'blocked · bundled — no frontmatter' },
      { tier: 'additional', path: '/x/.agh/skills/a/b/c/d/pdf/SKILL.md', resolved_to_winner: false, blocked: false,
        label: 'not discovered', summary: 'not discovered · additional' },
      { tier: 'user', nopath: 1 },
    ],
  };

  it('keeps the winner-first order and shows the server\'s labels (an undiscovered copy is not "shadowed")', () => {
    const w = L.parseWhere(raw);
    assert.equal(w.name, 'pdf');
    assert.equal(w.runtime, 'agh');
    assert.deepEqual(
      w.entries.map((e) => [e.tier, e.winner, e.blocked, e.label]),
      [['workspace', true, false, 'winner'], ['user', false, false, 'shadowed'], ['bundled', false, true, 'blocked'],
        ['additional', false, false, 'not discovered']],
    );
    const items = L.whereItems(w, (p) => p.replace('/w/', ''));
    assert.deepEqual(items.map((i) => i.label),
      ['$(pass-filled) workspace', '$(debug-step-over) user', '$(error) bundled', '$(eye-closed) additional']);
    assert.deepEqual(items.map((i) => i.description), ['winner · workspace — shadows 1', 'shadowed · user — by workspace',
      'blocked · bundled — no frontmatter', 'not discovered · additional']);
    assert.equal(items[0].detail, '.agh/skills/pdf/SKILL.md');
    assert.equal(items[1].value, '/home/u/.agh/skills/pdf/SKILL.md');
    assert.equal(L.wherePlaceholder(w), '4 declarations of "pdf" (agh), winner first');
  });

  it('accepts resolved_to_winner given as the winner path', () => {
    const w = L.parseWhere({ name: 'a', entries: [{ tier: 't', path: '/a', resolved_to_winner: '/a' }, { tier: 't', path: '/b', resolved_to_winner: '/a' }] });
    assert.deepEqual(w.entries.map((e) => e.winner), [true, false]);
    assert.deepEqual(w.entries.map((e) => e.label), ['winner', 'not the winner'], 'no label from an older server');
    assert.deepEqual(L.parseWhere('nonsense'), { name: '', runtime: undefined, agent: undefined, entries: [] });
  });

  it('names the agent whose view was asked for', () => {
    const w = L.parseWhere({ name: 'a', runtime: 'agh', agent: 'reviewer', entries: [{ tier: 't', path: '/a', resolved_to_winner: true }] });
    assert.equal(L.wherePlaceholder(w), '1 declaration of "a" (agh) for agent "reviewer", winner first');
    assert.equal(L.parseWhere({ name: 'a', agent: null, entries: [] }).agent, undefined);
  });
});

describe('code lens', () => {
  const lens = { title: 'winner · workspace — shadows 2', command: 'skillLs.where',
    arguments: [{ name: 'code-review', runtime: 'agh', workspace: '/w', agent: '', extra: 1 }] };

  it('runs Show Skill Shadows with the lens\'s argument instead of sending skillLs.where', () => {
    const out = L.lensCommand(lens);
    assert.equal(out.command, L.CLIENT_COMMANDS.showShadows);
    assert.equal(out.title, lens.title);
    assert.deepEqual(out.arguments, [{ name: 'code-review', runtime: 'agh', workspace: '/w' }]);
    assert.ok(out.tooltip);
    assert.equal(lens.command, 'skillLs.where', 'the server\'s lens is not modified');
  });

  it('keeps any other command, and a where lens without a name', () => {
    const other = { title: 't', command: 'skillLs.renderCatalog', arguments: [{}] };
    assert.equal(L.lensCommand(other), other);
    const nameless = { title: 't', command: 'skillLs.where', arguments: [{ runtime: 'agh' }] };
    assert.equal(L.lensCommand(nameless), nameless);
  });

  it('reads a where argument defensively', () => {
    assert.equal(L.parseWhereArg(undefined), undefined);
    assert.equal(L.parseWhereArg(['x']), undefined);
    assert.equal(L.parseWhereArg({ name: ' ' }), undefined);
    assert.deepEqual(L.parseWhereArg({ name: 'x', runtime: 3, agent: 'a' }), { name: 'x', agent: 'a' });
  });
});

describe('skill name detection', () => {
  it('reads name: from the frontmatter', () => {
    assert.equal(L.detectSkillName('/w/skills/dir/SKILL.md', '---\nname: pdf-tools\ndescription: x\n---\nbody'), 'pdf-tools');
    assert.equal(L.detectSkillName('/w/skills/dir/SKILL.md', '\uFEFF---\r\ndescription: "a: b"\r\nname: "quoted name" # c\r\n---\r\n'), 'quoted name');
    assert.equal(L.detectSkillName('/w/skills/dir/SKILL.md', "---\nname: 'single'\n---\n"), 'single');
    assert.equal(L.detectSkillName('/w/skills/dir/SKILL.md', '---\nname: plain # comment\n---\n'), 'plain');
    assert.equal(L.detectSkillName('C:\\w\\skills\\dir\\skill.md', '---\r\nname: win\r\n...\r\n'), 'win');
  });

  it('falls back to the directory name', () => {
    assert.equal(L.detectSkillName('/w/skills/pdf/SKILL.md', '# no frontmatter\nname: nope'), 'pdf');
    assert.equal(L.detectSkillName('/w/skills/pdf/SKILL.md', '---\nname: unterminated\n'), 'pdf');
    assert.equal(L.detectSkillName('/w/skills/pdf/SKILL.md', '---\n  name: nested\nmeta:\n  name: inner\n---\n'), 'pdf');
    assert.equal(L.detectSkillName('/w/skills/pdf/SKILL.md', '---\nname:\n---\n'), 'pdf');
    assert.equal(L.detectSkillName('C:\\w\\skills\\pdf\\SKILL.md', ''), 'pdf');
  });

  it('has no name for other files', () => {
    assert.equal(L.detectSkillName('/w/agents/a/AGENT.md', '---\nname: agent\n---\n'), undefined);
    assert.equal(L.detectSkillName('/w/README.md', '---\nname: readme\n---\n'), undefined);
    assert.equal(L.isSkillFile('/w/x/SKILL.md.bak'), false);
  });

  it('frontmatter split follows SPEC 2.1 delimiters', () => {
    assert.deepEqual(L.frontmatterLines('---  \na: b---c\n---\n'), ['a: b---c']);
    assert.equal(L.frontmatterLines('--- x\n---\n'), undefined);
    assert.deepEqual(L.frontmatterLines('---\r---\r'), []);
  });
});

describe('catalog preview URIs', () => {
  it('round-trips agent, runtime and workspace through the query', () => {
    const p = { agent: 'rév & co', runtime: 'agh', workspace: '/w/a b' };
    assert.deepEqual(L.parseCatalogQuery(L.catalogQuery(p)), p);
    assert.deepEqual(L.parseCatalogQuery(L.catalogQuery({})), {});
    assert.equal(L.catalogQuery({ runtime: 'codex' }), 'runtime=codex');
  });

  it('titles the document and keeps path-unsafe characters out', () => {
    assert.equal(L.catalogPath({ runtime: 'agh' }), '/Catalog - no agent (agh)');
    assert.equal(L.catalogPath({ agent: 'a/b?c', runtime: 'agh' }), '/Catalog - a_b_c (agh)');
  });

  it('shows the server text verbatim, or the refusal reason', () => {
    assert.equal(L.catalogText({ text: '<skills>\n</skills>\n', chars: 20 }), '<skills>\n</skills>\n');
    assert.match(L.catalogText({}), /no catalog text/);
    const msg = L.catalogErrorText({ agent: 'bad', runtime: 'agh' }, { code: -32603, message: 'agent "bad" fails closed: AG001 missing provider' });
    assert.match(msg, /agent "bad" \(runtime agh\)/);
    assert.match(msg, /fails closed: AG001 missing provider/);
  });
});

describe('package manifest', () => {
  it('declares the required identity and entry point', () => {
    assert.equal(pkg.name, 'skill-ls');
    assert.equal(pkg.publisher, 'skill-ls');
    assert.equal(pkg.license, 'MIT');
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.engines.vscode, '^1.82.0');
    assert.ok(pkg.repository && pkg.repository.url);
  });

  it('activates on skill/agent workspaces and files', () => {
    for (const e of ['workspaceContains:**/SKILL.md', 'workspaceContains:**/AGENT.md', 'onLanguage:markdown']) {
      assert.ok(pkg.activationEvents.includes(e), e);
    }
  });

  it('contributes the palette commands, none clashing with server commands', () => {
    const ids: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);
    assert.deepEqual(ids.sort(), Object.values(L.CLIENT_COMMANDS).sort());
    const serverIds = new Set<string>(Object.values(L.SERVER_COMMANDS));
    for (const id of ids) assert.ok(!serverIds.has(id), `${id} clashes with a server command`);
    const titles = pkg.contributes.commands.map((c: { category: string; title: string }) => `${c.category}: ${c.title}`);
    for (const t of ['Skill LS: Preview Agent Catalog', 'Skill LS: Show Skill Shadows', 'Skill LS: Restart Server']) assert.ok(titles.includes(t), t);
  });

  it('limits the document selector to skill and agent files', () => {
    const sel = L.documentSelector();
    const patterns = (scheme: string) => sel.filter((f) => f.scheme === scheme).map((f) => f.pattern);
    for (const p of ['**/SKILL.md', '**/skill.md', '**/AGENT.md', '**/.claude/agents/**/*.md', '**/workspace/agents/*.md', '**/mcp.json', '**/.skill-ls.toml', '**/.agh-meta.json']) {
      assert.ok(patterns('file').includes(p), p);
    }
    assert.ok(patterns('untitled').includes('**/SKILL.md'));
    assert.ok(!patterns('untitled').includes('**/mcp.json'));
    assert.ok(sel.every((f) => f.pattern.startsWith('**/') && !['**/*.md', '**/*', '**/*.json'].includes(f.pattern)), 'no catch-all pattern');
  });

  it('ships a frontmatter injection grammar embedding YAML', () => {
    const g = pkg.contributes.grammars[0];
    assert.deepEqual(g.injectTo, ['text.html.markdown']);
    const grammar = JSON.parse(fs.readFileSync(path.join(root, g.path), 'utf8'));
    assert.equal(grammar.scopeName, g.scopeName);
    assert.match(grammar.injectionSelector, /text\.html\.markdown/);
    const fm = grammar.repository.frontmatter;
    assert.deepEqual(fm.patterns, [{ include: 'source.yaml' }]);
    assert.equal(g.embeddedLanguages[fm.contentName], 'yaml');
    // The Oniguruma patterns, translated to JS, accept exactly the SPEC 2.1 delimiters.
    const begin = new RegExp(fm.begin.replace('\\A', '^').replace('\\x{FEFF}', '\\uFEFF'));
    const end = new RegExp(fm.end);
    assert.ok(begin.test('---') && begin.test('\uFEFF---  ') && !begin.test('--- x') && !begin.test('----'));
    assert.ok(end.test('---') && end.test('...') && !end.test('a---b'));
  });
});
