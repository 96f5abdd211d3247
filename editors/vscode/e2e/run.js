#!/usr/bin/env node
/**
 * Real VS Code end-to-end run: the built skill-ls.vsix installed in code-server (VS Code's own workbench,
 * extension host and extension API), driven through Debian's Chromium with playwright-core the way a
 * person uses it (keyboard, mouse, what is on screen).
 *
 *   node run.js CONFIG.json
 *
 * CONFIG (written by tests/editors/test_vscode.py):
 *   vsix            the extension package to install
 *   workspace       folder to open (a copy of examples/demo, so quick fixes may edit it)
 *   home, aghHome   private HOME and AGH_HOME for code-server, the extension host and the server
 *   path            PATH of code-server and its extension host (the extension finds python3 there and
 *                   runs the server it carries; no server setting is written)
 *   serverCommand   optional: argv of the language server (goes to skillLs.server.command)
 *   work            scratch directory (user data, extensions, logs)
 *   out             where the results JSON is written
 *   screenshots     optional: directory for the PNGs (README pictures: screenshots.sh copies them to
 *                   docs/img); without it no picture is taken but a failed flow's
 *   failureShots    optional: directory for the picture of each failed flow (failed-NAME.png)
 *   chromium        the browser executable (default /usr/bin/chromium)
 *   userCopy        {path, text}: a skill written into the user root during the disk-change flow
 *   catalogEdit     {path, from, to}: an edit made on disk while the catalog preview is open
 *   folderMove      {from, to}: a skill directory moved out of the workspace and back (fs.renameSync)
 *   checkCommand    argv of `skill-ls check --format json` (run in the workspace, same HOME/AGH_HOME)
 *   multiRoot       a multi-root workspace opened after the demo flows (see multiRootFlows)
 *   flows           optional: which groups to run (["demo", "multiroot"], the default)
 *   trace           optional: skillLs.trace.server ("verbose": the traffic in results.outputChannel)
 *
 * Every flow records what it saw (`observed`) and an `error` when a step failed; the pytest side decides
 * what must hold. Flows run in order in one window, as one person's session would.
 */
'use strict';
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const CODE_SERVER = require.resolve('code-server/out/node/entry.js');
const STEP = 60000; // ms: one wait on a loaded 2-core machine

/**
 * How much longer than on an idle machine a wait may take now: the run queue per core (the load
 * average of the last minute), from 1 (idle) to 3. Other test modules run beside this session on the
 * same 2 cores; a wait's deadline follows the load while it waits instead of being a fixed time.
 */
const loadFactor = () => Math.min(3, Math.max(1, os.loadavg()[0] / Math.max(1, os.cpus().length)));

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const results = { flows: {}, log: [] };
const log = (msg) => {
  results.log.push(`${new Date().toISOString()} ${msg}`);
  process.stderr.write(`e2e: ${msg}\n`);
};
const save = () => fs.writeFileSync(config.out, JSON.stringify(results, null, 2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function env(extra = {}) {
  const e = { ...process.env };
  delete e.VIRTUAL_ENV; // a venv of the test runner is not the user's
  delete e.PYTHONPATH;
  return {
    ...e,
    ...(config.path ? { PATH: config.path } : {}),
    ...extra,
    HOME: config.home,
    AGH_HOME: config.aghHome,
    XDG_CONFIG_HOME: path.join(config.home, '.config'),
    XDG_DATA_HOME: path.join(config.home, '.local/share'),
    XDG_CACHE_HOME: path.join(config.home, '.cache'),
  };
}

async function waitFor(what, fn, timeout = STEP, every = 250) {
  const t0 = Date.now();
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) {
        // Where the session's time goes: every wait longer than a second, in results.log.
        if (Date.now() - t0 > 1000) log(`  waited ${((Date.now() - t0) / 1000).toFixed(1)} s for ${what}`);
        return last;
      }
    } catch (err) {
      last = err;
    }
    // The budget is `timeout` on an idle machine, longer while the machine is loaded (loadFactor).
    if (Date.now() - t0 > timeout * loadFactor()) {
      throw new Error(`timed out waiting for ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s, load ${os.loadavg()[0].toFixed(1)})${last instanceof Error ? `: ${last.message}` : ''}`);
    }
    await sleep(every);
  }
}

async function flow(name, fn) {
  const observed = {};
  const t0 = Date.now();
  log(`flow ${name}`);
  try {
    await fn(observed);
    results.flows[name] = { ok: true, observed, seconds: (Date.now() - t0) / 1000 };
  } catch (err) {
    log(`flow ${name} failed: ${err && err.stack ? err.stack : err}`);
    if (page) observed.window = await windowState().catch((e) => `unreadable: ${e}`);
    results.flows[name] = { ok: false, observed, error: String(err && err.message ? err.message : err), seconds: (Date.now() - t0) / 1000 };
    if (page) await shot(`failed-${name}`).catch(() => undefined);
  }
  save();
}

let page;
let browser;
const VIEWPORT = { width: 1280, height: 800 };

/**
 * A browser tab; the workbench's errors and warnings in its console go to results.console (what a
 * failed flow's report needs: a workspace that could not be read, a failed request).
 */
async function newPage(name) {
  const p = await browser.newPage({ viewport: VIEWPORT });
  results.console = results.console || [];
  const keep = (text) => { if (results.console.length < 300) results.console.push(`${new Date().toISOString()} [${name}] ${text.slice(0, 1000)}`); };
  p.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warning') keep(`${msg.type()}: ${msg.text()}`); });
  p.on('pageerror', (err) => keep(`page error: ${err && err.message ? err.message : err}`));
  return p;
}

async function shot(name, clip) {
  const dir = name.startsWith('failed-') ? config.failureShots || config.screenshots : config.screenshots;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), ...(clip ? { clip } : {}) });
}

// ---------------------------------------------------------------------------------------------
// What is on screen

/** Toasts: [{severity, text}] (severity from the toast's icon). */
async function toasts() {
  return page.$$eval('.notifications-toasts .notification-toast', (els) =>
    els.map((e) => {
      const icon = e.querySelector('.notification-list-item-icon');
      const cls = icon ? icon.className : '';
      const severity = /codicon-error/.test(cls) ? 'error' : /codicon-warning/.test(cls) ? 'warning' : 'info';
      return { severity, text: e.innerText.replace(/\s+/g, ' ').trim() };
    }),
  );
}

/**
 * Run `fn(read)` with the Problems panel shown and maximized. The panel's list is virtualized (only rows
 * on screen exist in the DOM), and moving through it with the keyboard opens each file in a preview
 * editor: maximize the panel to read every row at once (once, however many reads `fn` makes; readProblems
 * scrolls with the mouse wheel when they do not fit), then restore it. Only the palette touches the
 * workbench. `read(screenshot)` gives the rows now: {file, code, line, col, severity, message}.
 */
async function withProblems(fn) {
  await showProblems();
  const vh = page.viewportSize().height;
  const height = async () => (await page.locator('.part.panel').first().boundingBox()).height;
  const toggled = (await height()) < vh * 0.6;
  if (toggled) {
    await palette('View: Toggle Maximized Panel');
    await waitFor('the Problems panel maximized', async () => (await height()) >= vh * 0.6, 10000, 50);
  }
  try {
    return await fn(readProblems);
  } finally {
    if (toggled) await palette('View: Toggle Maximized Panel');
  }
}

/**
 * The Problems rows as a person reads them (the panel maximized): every row of the list, in order; an
 * error (a wait tries again) while a row is not shown or a file's row does not have as many problems
 * under it as it says. The list is virtualized (only rows on screen exist in the DOM): when they do not
 * all fit, or the list is scrolled, it is scrolled with the mouse wheel from top to bottom and read on
 * the way. A collapsed file is expanded (its twistie clicked).
 */
async function readProblems(screenshot) {
  const rows = await problemRowsScrolled();
  const collapsed = rows.filter((r) => r.expanded === 'false');
  if (collapsed.length) {
    for (const r of collapsed) await page.click(`.markers-panel .monaco-list-row[data-index="${r.index}"] .monaco-tl-twistie`).catch(() => undefined);
    throw new Error(`collapsed in the Problems panel (expanded now): ${collapsed.map((r) => r.label).join('; ')}`);
  }
  // Each file's row says how many problems it has: as many rows must be under it.
  let header;
  const incomplete = [];
  const close = () => { if (header && header.count !== header.seen) incomplete.push(`${header.label}: ${header.seen} shown`); };
  for (const r of rows) {
    const m = /^(\d+) problems? in file /.exec(r.label);
    if (m) {
      close();
      header = { label: r.label, count: Number(m[1]), level: r.level, seen: 0 };
    } else if (header && r.level === header.level + 1) header.seen++;
  }
  close();
  if (incomplete.length) throw new Error(`the Problems panel does not show every problem: ${incomplete.join('; ')}`);
  if (screenshot) await shot(screenshot);
  return parseProblemRows(rows);
}

/** Every row of the Problems list by its index (scrolling when the list does not show them all). */
async function problemRowsScrolled() {
  const seen = new Map();
  const add = (rows) => { for (const r of rows) seen.set(r.index, r); return rows; };
  const whole = () => {
    const last = [...seen.values()].find((r) => r.last);
    return seen.size === 0 || (last !== undefined && [...Array(last.index + 1).keys()].every((i) => seen.has(i)));
  };
  let rows = add(await readProblemRows());
  if (whole()) return rows.sort((x, y) => x.index - y.index);
  // A wheel notch moves the list by a few rows, whatever its delta: notch until row 0 is on screen,
  // then down to the last row, reading each screen (drawn in the next frame: the rows shown change).
  const box = await page.locator('.markers-panel .monaco-list').first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const shown = (r) => r.map((x) => x.index).join(',');
  const notch = async (dy) => {
    const was = shown(rows);
    await page.mouse.wheel(0, dy);
    rows = await waitFor('the Problems list to scroll', async () => {
      const now = await readProblemRows();
      return shown(now) !== was ? now : undefined;
    }, 2000, 30).catch(() => readProblemRows());
    add(rows);
  };
  for (let i = 0; i < 200 && !rows.some((r) => r.index === 0); i++) await notch(-box.height);
  for (let i = 0; i < 200 && !whole(); i++) await notch(box.height);
  if (!whole()) throw new Error(`the Problems list could not be read whole (${seen.size} rows seen)`);
  return [...seen.values()].sort((x, y) => x.index - y.index);
}

async function readProblemRows() {
  return page.$$eval('.markers-panel .monaco-list-rows > .monaco-list-row', (els) =>
    els.map((e) => ({
      index: Number(e.getAttribute('data-index')),
      last: e.getAttribute('data-last-element') === 'true',
      level: Number(e.getAttribute('aria-level') || 0),
      expanded: e.getAttribute('aria-expanded'),
      label: e.getAttribute('aria-label') || '',
      text: e.innerText.replace(/\s+/g, ' ').trim(),
    })),
  );
}

function parseProblemRows(rows) {
  const out = [];
  let file;
  for (const r of rows) {
    const header = /^(\d+) problems? in file (.+?)(?: of folder (.+))?$/.exec(r.label);
    if (header) {
      file = { name: header[2], folder: header[3] || '' };
      continue;
    }
    // "message skill-ls SK003 [Ln 3, Col 14]" (the source and code are separate elements)
    const marker = /^(.*?)\s+skill-ls\s*\(?(\w+)\)?\s+\[Ln (\d+), Col (\d+)\]$/.exec(r.text);
    if (marker && file) {
      const severity = (/^(Error|Warning|Info)\b/.exec(r.label) || [, ''])[1].toLowerCase();
      out.push({ file: file.folder ? `${file.folder}/${file.name}` : file.name, code: marker[2], line: +marker[3], col: +marker[4], severity, message: marker[1] });
    }
  }
  return out;
}

async function statusBar() {
  return page.$$eval('.statusbar-item', (els) => els.map((e) => ({ id: e.id, text: e.innerText.replace(/\s+/g, ' ').trim() })));
}

async function explorerRoots() {
  return page.$$eval('.explorer-folders-view .monaco-list-row[aria-level="1"]', (els) => els.map((e) => e.innerText.trim()));
}

/** What a window shows, for a failure report: address, title, toasts, explorer, status bar. */
async function windowState() {
  const state = { url: page.url() };
  for (const [key, read] of [['title', () => page.title()], ['toasts', toasts], ['explorer', explorerRoots], ['statusBar', statusBar],
    ['sideBar', () => page.$$eval('.part.sidebar .title-label', (els) => els.map((e) => e.innerText.trim()))]]) {
    try {
      state[key] = await read();
    } catch (err) {
      state[key] = `unreadable: ${err && err.message ? err.message : err}`;
    }
  }
  return state;
}

async function editorText() {
  // The visible lines of the active editor, top to bottom (Monaco positions them absolutely).
  return page.$eval('.editor-group-container.active .monaco-editor .view-lines', (el) =>
    [...el.querySelectorAll('.view-line')]
      .map((l) => ({ top: parseFloat(l.style.top) || 0, text: l.innerText.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text)
      .join('\n'),
  );
}

// ---------------------------------------------------------------------------------------------
// What a person does

/** The command palette is open and its input has the keyboard (a closing quick pick may still be on screen). */
async function paletteReady() {
  return page
    .$eval('.quick-input-widget input', (e) => e.checkVisibility() && document.activeElement === e && e.value.startsWith('>'))
    .catch(() => false);
}

async function palette(command) {
  // F1, and type only once the palette has the keyboard: keys sent too early (a quick pick still
  // closing, an editor taking focus on a slow machine) would be typed into the editor.
  await waitFor('the command palette', async () => {
    if (await paletteReady()) return true;
    await page.keyboard.press('F1');
    return waitFor('F1 to open the palette', paletteReady, 3000).catch(() => false);
  });
  // The command's name at once (as pasted: the filter runs once, not once per key).
  await page.keyboard.insertText(command);
  await waitFor(`palette entry "${command}" selected`, async () =>
    (await page.$$eval('.quick-input-widget .monaco-list-row.focused', (els) => els.map((e) => e.innerText))).some((t) => t.includes(command)),
    STEP, 50);
  await page.keyboard.press('Enter');
}

/**
 * A panel that takes most of the window (maximized, or restored tall: the Problems reader maximizes it
 * to read every row, and a new window restores the last layout) leaves the editor no lines to read:
 * hide it (showProblems opens it again).
 */
async function unmaximizePanel() {
  const boxes = await page.$$eval('.part.panel', (els) =>
    els.filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect().height));
  if (boxes.some((h) => h > page.viewportSize().height * 0.5)) {
    await palette('View: Hide Panel');
    await waitFor('the panel hidden', async () => !(await page.$$eval('.part.panel', (els) =>
      els.some((e) => e.checkVisibility() && e.getBoundingClientRect().height > 0))), 10000, 50);
  }
}

async function openFile(rel) {
  // A path relative to the demo workspace, or an absolute one (multi-root: typed in full).
  const file = path.isAbsolute(rel) ? rel : path.join(config.workspace, rel);
  await unmaximizePanel();
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.insertText(rel);
  // The list for the whole path typed: its first row names the file's folder, and stays (the list
  // is filtered again as results come in).
  const folder = path.basename(path.dirname(rel));
  let listed = '';
  await waitFor(`quick open to list ${rel}`, async () => {
    const rows = await page.$$eval('.quick-input-widget .monaco-list-row', (els) => els.map((e) => e.getAttribute('aria-label') || ''));
    const now = JSON.stringify(rows);
    const ok = rows.length > 0 && rows[0].includes(folder) && now === listed;
    listed = now;
    return ok;
  }, STEP, 100);
  await page.keyboard.press('Enter');
  const base = path.basename(rel);
  await waitFor(`editor tab ${base}`, async () =>
    (await page.$$eval('.tabs-container .tab.active', (els) => els.map((e) => e.innerText))).some((t) => t.includes(base)),
  );
  await page.waitForSelector('.editor-group-container.active .monaco-editor .view-lines', { state: 'visible' });
  // Every tab here is called SKILL.md: wait for this file's own text (its first lines) in the editor.
  const head = fs.readFileSync(file, 'utf8').split('\n').slice(0, 2).join('\n');
  await waitFor(`the text of ${rel}`, async () => (await editorText()).startsWith(head), STEP, 100);
  await editorFocused();
}

/** The active editor has the keyboard (it takes the focus last: keys sent before would be lost). */
async function editorFocused() {
  await waitFor('the editor to have the keyboard', async () =>
    (await page.$('.editor-group-container.active .monaco-editor.focused')) !== null, 10000, 50);
}

async function goTo(line, col) {
  await page.keyboard.press('Control+G');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.insertText(`${line}:${col}`);
  await page.keyboard.press('Enter');
  // The cursor there: the status bar says so, and the editor has the keyboard again.
  await waitFor(`the cursor at ${line}:${col}`, async () =>
    (await statusBar()).some((s) => s.text.startsWith(`Ln ${line}, Col ${col}`)), 10000, 50);
  await editorFocused();
}

/** Hover the skill name on line 2 with the mouse, as a person does; the hover's text (the one naming a winner). */
async function hoverName(name) {
  return hoverWord(2, 9, name, (t) => t.includes(`skill ${name}`) && /winner/.test(t));
}

/** Hover `word` (at line:col, 1-based) with the mouse; the hover's text that `accept`s. */
async function hoverWord(line, col, name, accept) {
  await goTo(line, col);
  // The hover widget on screen now (an earlier one may linger hidden in the DOM); it shows the
  // diagnostics first, then the server's hover, which may come later.
  const shown = async () => {
    const texts = await page.$$eval('.monaco-hover-content', (els) =>
      els.filter((e) => e.checkVisibility()).map((e) => e.innerText).filter((t) => t.trim()));
    return texts.find(accept);
  };
  // A hover that does not come up (code-server now and then drops one that was asked for while the
  // window was still busy): as a person does, move the mouse away and back, then ask with the
  // keyboard (Ctrl+K Ctrl+I at the cursor, which is on the name).
  for (const how of ['mouse', 'keyboard', 'mouse again']) {
    await askHover(name, how);
    try {
      return await waitFor('a hover', shown, 5000);
    } catch (err) {
      log(`no hover after the ${how}: ${err.message}`);
    }
  }
  return waitFor('a hover', shown);
}

async function askHover(name, how) {
  if (how !== 'keyboard') {
    await page.mouse.move(5, 5); // off the editor: the next move onto the name is a new hover
    for (const w of await page.$$('.editor-group-container.active .view-line span span')) {
      if ((await w.innerText()).trim() === name) {
        await w.hover();
        return;
      }
    }
  }
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
}

/**
 * The hover at full height for the README picture. VS Code caps a hover at a quarter of the editor's
 * height (at least 250 px), so in the 800-pixel window the skill card's tier table is cut: make the
 * window tall enough for the whole hover, hover again and take the editor's top with the hover, then
 * restore the window.
 */
async function hoverPicture(name, file) {
  const height = await page.$$eval('.monaco-hover-content', (els) =>
    Math.max(0, ...els.filter((e) => e.checkVisibility()).map((e) => e.scrollHeight)));
  const tall = { width: VIEWPORT.width, height: Math.max(VIEWPORT.height, 4 * (height + 60) + 200) };
  await page.keyboard.press('Escape');
  await palette('View: Hide Panel');
  await page.setViewportSize(tall);
  try {
    await waitFor('the editor to fill the taller window', async () => {
      const box = await page.locator('.editor-group-container.active .monaco-editor').first().boundingBox();
      return box && box.height > tall.height - 300;
    });
    await hoverName(name);
    const box = await waitFor('the whole hover on screen, unscrolled', async () => {
      const r = await page.$$eval('.monaco-hover-content', (els) => els.filter((e) => e.checkVisibility())
        .map((e) => { const b = e.getBoundingClientRect(); return { bottom: b.bottom, full: e.clientHeight + 2 >= e.scrollHeight }; }));
      return r.length && r.every((x) => x.full) ? r : undefined;
    });
    const bottom = Math.max(...box.map((b) => b.bottom));
    await shot(file, { x: 0, y: 0, width: tall.width, height: Math.min(tall.height, Math.ceil(bottom) + 24) });
  } finally {
    await page.keyboard.press('Escape');
    await page.setViewportSize(VIEWPORT);
    await waitFor('the editor back in the window', async () => {
      const box = await page.locator('.editor-group-container.active .monaco-editor').first().boundingBox();
      return box && box.y + box.height <= VIEWPORT.height;
    }, 10000, 50);
  }
  return height;
}

/**
 * `skill-ls check --format json` of a folder (the demo workspace by default) started now, as Problems
 * rows (paths relative to the folder); a promise, so the check runs while the window is watched.
 */
function checkNow(dir = config.workspace) {
  const [cmd, ...args] = config.checkCommand;
  return new Promise((resolve, reject) => {
    cp.execFile(cmd, args, { cwd: dir, env: env(), encoding: 'utf8', timeout: 120000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err && err.code !== 1) return reject(new Error(`skill-ls check failed (${err.code}): ${stderr}`));
      try {
        resolve(JSON.parse(stdout).diagnostics.map((d) => ({
          file: d.path, code: d.code, line: d.range.start.line + 1, col: d.range.start.character + 1, message: d.message,
        })));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** Problems rows equal `skill-ls check` rows: file, code, position, and the message (the panel adds ` [runtime]`). */
function sameRows(panel, check) {
  const key = (r) => `${r.file}|${r.code}|${r.line}|${r.col}`;
  const a = [...panel].sort((x, y) => key(x).localeCompare(key(y)));
  const b = [...check].sort((x, y) => key(x).localeCompare(key(y)));
  return a.length === b.length && a.every((r, i) => key(r) === key(b[i]) && r.message.startsWith(b[i].message));
}

/** The selected row of the open quick pick, or undefined. */
async function focusedPickRow() {
  const rows = await page.$$eval('.quick-input-widget .monaco-list-row.focused', (els) =>
    els.filter((e) => e.checkVisibility()).map((e) => e.innerText.replace(/\s+/g, ' ').trim()));
  return rows[0];
}

/**
 * After Preview Agent Catalog (or a pick of it): {tab} once a catalog preview is the active tab, or
 * {rows} when a further quick pick asks (rows that `isPrevious` are the pick just closed, still on screen).
 */
async function catalogOrPick(isPrevious) {
  return waitFor('the catalog preview or a pick', async () => {
    const tab = (await page.$$eval('.tabs-container .tab.active', (els) => els.map((e) => e.innerText.trim()))).find((t) => /catalog/i.test(t));
    if (tab) return { tab };
    if (!(await quickPickOpen())) return undefined;
    const rows = await quickPickRows();
    return rows.length && !isPrevious(rows) ? { rows } : undefined;
  }, STEP, 50);
}

/**
 * A command's quick pick, once it is on screen whole: {rows, placeholder}. Not the palette that ran the
 * command (`command`: rows naming it), nor a pick whose list is still being laid out (the same rows on
 * two reads in a row; as many as a placeholder that starts with a count says), whose placeholder
 * matches `placeholderIs`.
 */
async function commandPick(what, command, placeholderIs = /^/) {
  let prev = '';
  return waitFor(what, async () => {
    if (!(await quickPickOpen())) return undefined;
    const rows = await quickPickRows();
    const placeholder = await page.$eval('.quick-input-widget input', (e) => e.getAttribute('placeholder') || '');
    const now = JSON.stringify([rows, placeholder]);
    const same = now === prev;
    prev = now;
    if (!rows.length || rows.some((r) => r.includes(command)) || !same || !placeholderIs.test(placeholder)) return undefined;
    const count = /^(\d+) /.exec(placeholder);
    return !count || Number(count[1]) > 8 || rows.length === Number(count[1]) ? { rows, placeholder } : undefined;
  }, STEP, 100);
}

/** The rows of the open quick pick (palette, quick open, a command's pick). */
async function quickPickRows() {
  return page.$$eval('.quick-input-widget .monaco-list-row', (els) => els.map((e) => e.innerText.replace(/\s+/g, ' ').trim()));
}

async function quickPickOpen() {
  const input = await page.$('.quick-input-widget input');
  return Boolean(input && (await input.isVisible()));
}

/**
 * Wait until the Problems rows satisfy `accept` on two reads in a row (diagnostics arrive in batches:
 * a state that holds once may be a step on the way). `read` is withProblems's reader.
 */
async function settle(read, what, accept = (rows) => rows.length > 0) {
  let last = [];
  let held = 0;
  await waitFor(what, async () => {
    last = await read();
    held = (await accept(last)) ? held + 1 : 0;
    return held >= 2;
  }, STEP, 200).catch((err) => {
    err.message += ` (last: ${JSON.stringify(last).slice(0, 2000)})`;
    throw err;
  });
  return last;
}

/** settle, with the Problems panel shown and maximized for the wait only. */
async function settledProblems(what, accept) {
  return withProblems((read) => settle(read, what, accept));
}

async function showProblems() {
  // Ctrl+Shift+M toggles the panel when it already has focus; the palette command always shows it.
  await palette('Problems: Focus on Problems View');
  await page.waitForSelector('.markers-panel', { state: 'visible' });
}

/**
 * The active editor's edit of `file` undone (File: Revert File): the tab is no longer dirty and the
 * editor shows the file as it is on disk, which must still be `original` (an edit that reached the disk
 * is an error: the tests compare the tree afterwards with what the session showed).
 */
async function revertFile(file, original) {
  await palette('File: Revert File');
  // Markdown wraps long lines: compare the words, not the lines on screen.
  const words = (t) => t.split(/\s+/).filter(Boolean).join(' ');
  await waitFor(`the edit of ${path.basename(file)} reverted`, async () =>
    !(await page.$('.tabs-container .tab.active.dirty')) && words(await editorText()) === words(fs.readFileSync(file, 'utf8')), STEP, 50);
  const now = fs.readFileSync(file, 'utf8');
  if (now !== original) throw new Error(`the temporary edit of ${file} reached the disk: ${JSON.stringify(now)}`);
}

/**
 * `fn()` edits the active editor, which shows `file`, for a while (a word typed to see completions):
 * the edit is then reverted (revertFile), also when `fn` fails, so that the next flows and the checks
 * afterwards see the tree as it was.
 */
async function temporaryEdit(file, fn) {
  const original = fs.readFileSync(file, 'utf8');
  try {
    await fn();
  } catch (err) {
    await page.keyboard.press('Escape');
    await revertFile(file, original).catch((e) => log(`reverting ${file} after the failure: ${e.message}`));
    throw err;
  }
  await revertFile(file, original);
}

async function closeAllEditors() {
  await palette('View: Close All Editors');
  await waitFor('every editor closed', async () => (await page.$$('.tabs-container .tab')).length === 0, 10000, 50);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const ud = path.join(config.work, 'user-data');
  const ext = path.join(config.work, 'extensions');
  fs.mkdirSync(path.join(ud, 'User'), { recursive: true });
  fs.mkdirSync(ext, { recursive: true });
  fs.writeFileSync(
    path.join(ud, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'extensions.ignoreRecommendations': true,
        'git.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'editor.hover.delay': 300,
        // VS Code for the Web (code-server) saves a changed file after a second by default: the flows'
        // temporary edits (a word typed to see completions, then File: Revert File) reached the disk
        // whenever the steps between typing and reverting took longer than that (a loaded machine), and
        // the tree the tests check afterwards was no longer the tree the session showed. Saving is
        // the flows' own act (Ctrl+S), as in desktop VS Code's default.
        'files.autoSave': 'off',
        ...(config.serverCommand ? { 'skillLs.server.command': config.serverCommand } : {}),
        // SKILL_LS_E2E_TRACE=verbose: the JSON-RPC traffic in the "Skill LS" output (results.outputChannel).
        ...(config.trace ? { 'skillLs.trace.server': config.trace } : {}),
      },
      null,
      2,
    ),
  );

  log('installing the .vsix');
  const install = cp.spawnSync(process.execPath, [CODE_SERVER, '--extensions-dir', ext, '--user-data-dir', ud, '--install-extension', config.vsix], {
    env: env(),
    encoding: 'utf8',
    timeout: 120000,
  });
  results.install = (install.stdout + install.stderr).trim();
  if (install.status !== 0 || !/successfully installed/.test(install.stdout)) throw new Error(`installing the .vsix failed: ${results.install}`);

  // Both code-servers (the second one has no Python: noPythonFlows) and the browser start at once.
  const first = startCodeServer(ext, ud, {}, 'code-server.log');
  const noPython = (noPythonServer = config.noPython ? startNoPythonServer(ext) : undefined);
  if (noPython) noPython.catch(() => undefined); // awaited (and reported) by its flow
  try {
    const [{ port }] = await Promise.all([
      first,
      chromium.launch({ executablePath: config.chromium || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
        .then((b) => { browser = b; }),
    ]);
    log(`code-server on ${port}`);
    page = await newPage('demo');
    await flows(port);
    if (noPython) await noPythonFlows();
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await Promise.allSettled([first, noPython]);
    await Promise.all(codeServers.map(stopProcessGroup));
    copyLogs(ud);
  }
}

/** SIGTERM to a detached process's group, SIGKILL if it is still there after a moment. */
async function stopProcessGroup(child) {
  try { process.kill(-child.pid, 'SIGTERM'); } catch { return; /* already gone */ }
  const gone = () => { try { process.kill(-child.pid, 0); return false; } catch { return true; } };
  await waitFor('code-server to stop', async () => gone(), 1000, 50).catch(() => undefined);
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}

const codeServers = []; // every code-server started (stopped at the end)

/**
 * Start code-server with its own user data (and `envExtra`) on a port the system picks (port 0: no
 * clash with another session running beside this one); resolves with the port once it listens.
 */
async function startCodeServer(ext, ud, envExtra, logName) {
  const logFile = path.join(config.work, logName);
  const serverLog = fs.openSync(logFile, 'w');
  const server = cp.spawn(
    process.execPath,
    [CODE_SERVER, '--extensions-dir', ext, '--user-data-dir', ud, '--auth', 'none', '--bind-addr', '127.0.0.1:0',
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
    { env: env(envExtra), stdio: ['ignore', serverLog, serverLog], detached: true },
  );
  codeServers.push(server);
  const port = await waitFor('code-server to listen', async () => {
    if (server.exitCode !== null) throw new Error(`code-server exited (${server.exitCode}): ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(fs.readFileSync(logFile, 'utf8'));
    return m ? Number(m[1]) : undefined;
  }, STEP, 50);
  return { port, server };
}

/**
 * A machine without Python (a second code-server whose PATH holds no interpreter, the same .vsix):
 * opening the demo shows one notification saying what is needed, with its buttons; its Open Settings
 * (code-server is a remote window: the settings are on the Remote tab) shows the server settings,
 * not "No Settings Found".
 */
function startNoPythonServer(ext) {
  const ud = path.join(config.work, 'user-data-no-python');
  fs.mkdirSync(path.join(ud, 'User'), { recursive: true });
  fs.writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'git.enabled': false,
    'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'extensions.ignoreRecommendations': true,
  }));
  const empty = path.join(config.work, 'no-python-bin');
  fs.mkdirSync(empty, { recursive: true });
  // VSCODE_CLI: the server does not resolve a login shell's environment, whose profile would put
  // /usr/bin (and its python3) back on the extension host's PATH.
  return startCodeServer(ext, ud, { PATH: empty, VSCODE_CLI: '1' }, 'code-server-no-python.log');
}

let noPythonServer; // startNoPythonServer's promise: it starts with the first code-server
let noPythonWindow; // openNoPythonWindow's promise, once asked for

/**
 * The demo in a window of the code-server without Python, opened in its own browser page (it loads
 * while other flows run: multiRootFlows asks for it early); resolves with the page.
 */
function openNoPythonWindow() {
  const opening = noPythonServer.then(async (started) => {
    const p = await newPage('no-python');
    await p.goto(`http://127.0.0.1:${started.port}/?folder=${encodeURIComponent(config.workspace)}`);
    return p;
  });
  opening.catch(() => undefined); // reported by the no_python flow, which awaits it
  return opening;
}

async function noPythonFlows() {
  await flow('no_python', async (o) => {
    const old = page;
    page = await (noPythonWindow || openNoPythonWindow());
    await old.close({ runBeforeUnload: false }).catch(() => undefined);
    await page.waitForSelector('.monaco-workbench', { timeout: STEP });
    const toast = await waitFor('the notification saying what is needed', async () =>
      (await toasts()).find((t) => /needs Python/.test(t.text)));
    o.toast = toast;
    o.buttons = await page.$$eval('.notifications-toasts .notification-toast', (els) =>
      els.filter((e) => /needs Python/.test(e.innerText)).flatMap((e) => [...e.querySelectorAll('.monaco-button')].map((b) => b.innerText.trim())));
    o.status = (await statusBar()).filter((s) => /skill-ls/i.test(s.id)).map((s) => s.text);
    await shot('no-python');
    const button = page.locator('.notifications-toasts .notification-toast .monaco-button', { hasText: 'Open Settings' }).first();
    await button.click();
    let last;
    o.settings = await waitFor('the settings editor with the server settings', async () => {
      const st = await page.$$eval('.settings-editor', (els) => els.filter((e) => e.checkVisibility()).map((e) => ({
        noResults: [...e.querySelectorAll('.no-results-message')].some((n) => n.checkVisibility()),
        rows: [...e.querySelectorAll('.setting-item-contents .setting-item-title')].map((t) => t.innerText.replace(/\s+/g, ' ').trim()),
        tab: [...e.querySelectorAll('.settings-tabs-widget .checked, .settings-tabs-widget [aria-checked="true"], .settings-tabs-widget [aria-selected="true"]')]
          .map((t) => t.innerText.trim()).filter(Boolean)[0] || '',
        query: (e.querySelector('.settings-header .suggest-input-container .view-lines') || {}).innerText || '',
      })));
      const s = st[0];
      last = s;
      // the search applied: either nothing found, or the server settings listed
      return s && (s.noResults || s.rows.some((r) => /Python Path|Server/.test(r))) ? s : undefined;
    }, 20000).catch((err) => {
      o.settingsLast = last;
      throw err;
    });
    await shot('no-python-settings');
  });
}

/** The bundled server's process in this session (its launcher lives in the session's extensions dir). */
function serverPids() {
  const pids = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes('skill_ls_bundled.py') && cmd.includes(config.work)) pids.push(Number(d));
  }
  return pids;
}

async function skillStatus() {
  const item = (await statusBar()).find((s) => /skill-ls/i.test(s.id));
  return item ? item.text : '';
}

function copyLogs(ud) {
  // The extension's output channel (server stderr, client errors) next to the results.
  const found = [];
  const walk = (dir) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/Skill LS\.log$/.test(e.name)) found.push(p);
    }
  };
  walk(path.join(ud, 'logs'));
  results.outputChannel = found.map((p) => fs.readFileSync(p, 'utf8')).join('\n');
  save();
}

async function flows(port) {
  const which = config.flows || ['demo', 'multiroot'];
  if (which.includes('demo')) await demoFlows(port);
  if (which.includes('multiroot') && config.multiRoot) await multiRootFlows(port);
  await flow('final_toasts', async (o) => {
    Object.assign(o, await windowState());
  });
}

async function demoFlows(port) {
  await flow('startup', async (o) => {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(config.workspace)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: STEP });
    // The status bar item says "N skills" once the server indexed the workspace.
    o.status = await waitFor('the skill-ls status bar item to count skills', async () => {
      const item = (await statusBar()).find((s) => /skill-ls/i.test(s.id) && /\d+ skills?/.test(s.text));
      return item && item.text;
    });
    o.toasts = await toasts(); // and again once the Problems panel settled (flow problems: toasts)
    await shot('startup');
  });

  await flow('problems', async (o) => {
    // Wait until the panel equals `skill-ls check` of the workspace (diagnostics for files never
    // opened arrive in batches), and holds it.
    const check = checkNow();
    await withProblems(async (read) => {
      o.problems = await settle(read, 'the Problems panel to equal skill-ls check', async (rows) => sameRows(rows, await check));
      await read('problems'); // the README picture
      // Each code is a link to its rule's documentation (codeDescription).
      o.codeLinks = await page.$$eval('.markers-panel .monaco-list-row a', (els) => els.map((a) => ({
        text: a.innerText.trim(), href: a.getAttribute('href') || a.getAttribute('title') || a.getAttribute('aria-label') || '' })));
    });
    o.openEditors = await page.$$eval('.tabs-container .tab', (els) => els.length);
    // Any startup notification (settings exchange, the first index) has come by now.
    o.toasts = await toasts();
  });

  await flow('hover', async (o) => {
    await openFile('.agh/skills/code-review/SKILL.md');
    o.hover = await hoverName('code-review');
    o.codeLens = await page.$$eval('.editor-group-container.active .contentWidgets .codelens-decoration, .editor-group-container.active .codelens-decoration', (els) =>
      els.map((e) => e.innerText.trim()),
    );
    await shot('hover-window');
    // The README picture: the whole hover, down to the card's tier table.
    o.hoverHeight = await hoverPicture('code-review', 'hover');
    await page.keyboard.press('Escape');
  });

  if (config.tombstoneHover) {
    await flow('tombstone_hover', async (o) => {
      // Hover a skill name listed in an agent's `skills.disabled`: the server's skill card for it.
      const { path: rel, line, col, name } = config.tombstoneHover;
      await openFile(rel);
      o.hover = await hoverWord(line, col, name, (t) => t.includes(`skill ${name}`) && /winner/.test(t));
      await page.keyboard.press('Escape');
    });
  }

  await flow('codelens', async (o) => {
    // Click the code lens over the frontmatter with the mouse: the declarations appear in a quick pick
    // (winner first), and choosing one opens that copy.
    await openFile('.agh/skills/code-review/SKILL.md');
    const lens = page.locator('.editor-group-container.active .codelens-decoration a').first();
    await waitFor('the code lens', async () => (await lens.count()) > 0 && (await lens.isVisible()));
    o.title = (await lens.innerText()).trim();
    await lens.click();
    // Show Skill Shadows' pick (its placeholder counts the declarations), not a quick open left in the DOM.
    ({ rows: o.items, placeholder: o.placeholder } = await commandPick('the declarations quick pick', 'Show Skill Shadows', /declarations? of/));
    await shot('codelens');
    const pick = o.items.findIndex((r) => r.includes(config.codeLensPick));
    if (pick < 0) throw new Error(`no row mentions ${config.codeLensPick}: ${JSON.stringify(o.items)}`);
    for (let i = 0; i < pick; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitFor('the quick pick to close', async () => !(await quickPickOpen()));
    const head = fs.readFileSync(path.join(config.workspace, config.codeLensPick), 'utf8').split('\n').slice(0, 2).join('\n');
    // Its text, and the keyboard in it (the editor takes the focus last: keys sent before would be lost).
    await waitFor('the chosen copy in the editor, focused', async () =>
      (await editorText()).startsWith(head) && (await page.$('.editor-group-container.active .monaco-editor.focused')) !== null);
    o.opened = (await page.$$eval('.editor-group-container.active .breadcrumbs-control', (els) => els.map((e) => e.innerText.replace(/\s+/g, ' ').trim())))[0] || '';
    await closeAllEditors();
  });

  await flow('palette', async (o) => {
    // Explain Rule with the cursor on a finding: its code is offered first; the rule's page opens.
    await closeAllEditors();
    await openFile('.agh/skills/release-notes/SKILL.md');
    await goTo(4, 2);
    await palette('Skill LS: Explain Rule');
    ({ rows: o.explainItems } = await commandPick('the rule quick pick', 'Explain Rule'));
    await page.keyboard.press('Enter');
    o.explain = await waitFor('the rule documentation', async () => {
      const t = await editorText();
      return /^# SK007/.test(t) ? t : undefined;
    });
    // List Skills: the default runtime's skills, in catalog order.
    await palette('Skill LS: List Skills');
    ({ rows: o.skills, placeholder: o.skillsPlaceholder } = await commandPick('the skills quick pick', 'List Skills'));
    await page.keyboard.press('Escape');
    // Show Portability of the current skill.
    await openFile('.agh/skills/code-review/SKILL.md');
    await palette('Skill LS: Show Portability');
    o.portability = await waitFor('the portability table', async () => {
      const t = await editorText();
      return /^Portability of/.test(t) ? t : undefined;
    });
    // Show Skill Shadows on a skill AGH does not read: answered under the runtime that reads it.
    await openFile('.agents/skills/summarize/SKILL.md');
    await palette('Skill LS: Show Skill Shadows');
    ({ rows: o.shadows, placeholder: o.shadowsPlaceholder } = await commandPick('the declarations quick pick', 'Show Skill Shadows'));
    await page.keyboard.press('Escape');
    // Show Output: the channel, saying which interpreter runs the server.
    await palette('Skill LS: Show Output');
    o.output = await waitFor('the Skill LS output', async () => {
      const t = await page.$$eval('.part.panel .monaco-editor .view-lines', (els) => els.filter((e) => e.checkVisibility())
        .map((e) => [...e.querySelectorAll('.view-line')].map((l) => l.innerText.replace(/\u00a0/g, ' ')).join('\n')).join('\n'));
      return /Starting: /.test(t) ? t : undefined;
    });
    await palette('View: Hide Panel');
    await closeAllEditors();
  });

  await flow('completion', async (o) => {
    // Type `allowed-t` on a new frontmatter line and accept the suggestion: the whole word is
    // replaced (VS Code's word stops at `-`; without a range it inserted `allowed-allowed-tools`).
    const rel = '.agh/skills/code-review/SKILL.md';
    await openFile(rel);
    await temporaryEdit(path.join(config.workspace, rel), async () => {
      await goTo(2, 1);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('allowed-t');
      await waitFor('the typed word in the text', async () => (await editorText()).split('\n')[2] === 'allowed-t', 10000, 50);
      await page.keyboard.press('Control+Space');
      o.suggestions = await waitFor('the suggest widget', async () => {
        const rows = await page.$$eval('.editor-widget.suggest-widget .monaco-list-row', (els) =>
          els.filter((e) => e.checkVisibility()).map((e) => e.innerText.replace(/\s+/g, ' ').trim()));
        return rows.some((r) => /allowed-tools/.test(r)) ? rows : undefined;
      });
      const idx = o.suggestions.findIndex((r) => /^allowed-tools/.test(r));
      for (let i = 0; i < idx; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      o.line = await waitFor('the accepted suggestion in the text', async () => {
        const line = (await editorText()).split('\n')[2];
        return /tools/.test(line) ? line : undefined;
      });
    });
    await closeAllEditors();
  });

  await flow('quickfix', async (o) => {
    await openFile('.agh/skills/release-notes/SKILL.md');
    o.before = await editorText();
    await goTo(4, 2);
    await page.keyboard.press('Control+.');
    const rows = await waitFor('the quick fix menu', async () => {
      const r = await page.$$eval('.action-widget .monaco-list-row.action', (els) => els.map((e) => e.innerText.trim()));
      return r.length ? r : undefined;
    });
    o.actions = rows;
    await shot('quickfix');
    const idx = rows.findIndex((r) => /allowed-tools/.test(r));
    if (idx < 0) throw new Error(`no quick fix mentions allowed-tools: ${JSON.stringify(rows)}`);
    for (let i = 0; i < idx; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    o.after = await waitFor('the fix to be applied', async () => {
      const t = await editorText();
      return /allowed-tools/.test(t) && !/alowed-tools/.test(t) ? t : undefined;
    });
    await page.keyboard.press('Control+S');
    // Saved: the tab is clean and the file on disk has the fix.
    const file = path.join(config.workspace, '.agh/skills/release-notes/SKILL.md');
    o.onDisk = await waitFor('the fix saved', async () => {
      const t = fs.readFileSync(file, 'utf8');
      return !(await page.$('.tabs-container .tab.active.dirty')) && /allowed-tools/.test(t) ? t : undefined;
    }, STEP, 50);
    const check = checkNow();
    o.problemsAfter = await settledProblems('SK007 to leave the Problems panel (equal to skill-ls check)', async (p) =>
      !p.some((x) => x.code === 'SK007') && sameRows(p, await check));
  });

  await flow('catalog', async (o) => {
    await closeAllEditors();
    await palette('Skill LS: Preview Agent Catalog');
    // Pick the agent (and the runtime, when asked) in the quick pick, by typing as a person does.
    await waitFor('the agent quick pick', async () =>
      (await page.$$eval('.quick-input-widget .monaco-list-row', (els) => els.map((e) => e.innerText))).some((t) => /reviewer/.test(t)),
    );
    o.agentItems = await page.$$eval('.quick-input-widget .monaco-list-row', (els) => els.map((e) => e.innerText.replace(/\s+/g, ' ').trim()));
    await page.keyboard.type('reviewer');
    await waitFor('the reviewer agent selected', async () => /reviewer/.test((await focusedPickRow()) || ''), 10000, 50);
    await page.keyboard.press('Enter');
    // The preview, or first a pick of the runtime (when the agent's runtime is not the only one).
    const next = await catalogOrPick((rows) => rows.some((r) => /reviewer|no agent/.test(r)));
    if (next.rows) {
      o.runtimeItems = next.rows;
      await page.keyboard.type('agh');
      await waitFor('the agh runtime selected', async () => /agh/.test((await focusedPickRow()) || ''), 10000, 50);
      await page.keyboard.press('Enter');
    }
    o.tab = await waitFor('the catalog preview tab', async () =>
      (await page.$$eval('.tabs-container .tab.active', (els) => els.map((e) => e.innerText.trim()))).find((t) => /reviewer|catalog/i.test(t)),
    );
    o.text = await waitFor('catalog text', async () => {
      const t = await editorText();
      return /code-review/.test(t) ? t : undefined;
    });
    // For the picture: the whole catalog in view (no panel, long lines wrapped).
    await palette('View: Hide Panel');
    await palette('View: Toggle Word Wrap');
    await waitFor('the catalog lines wrapped', () => page.$eval('.editor-group-container.active .monaco-editor', (ed) => {
      const right = ed.getBoundingClientRect().right;
      return [...ed.querySelectorAll('.view-line > span')].every((sp) => sp.getBoundingClientRect().right <= right + 1);
    }), 10000, 50);
    await shot('catalog');
    await palette('View: Toggle Word Wrap');
    if (config.catalogEdit) {
      // Change a description on disk (no keystroke in any editor): the open preview must follow.
      const { path: rel, from, to } = config.catalogEdit;
      const file = path.join(config.workspace, rel);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(from, to));
      try {
        o.refreshed = await waitFor('the preview to show the new description', async () => {
          const t = await editorText();
          return t.includes(to) ? t : undefined;
        }, 30000);
      } catch (err) {
        o.refreshed = null;
        o.afterEdit = await editorText();
        throw err;
      }
    }
  });

  await flow('disk_change', async (o) => {
    await closeAllEditors();
    const checkBefore = checkNow();
    await withProblems(async (read) => {
      o.before = await settle(read, 'the Problems panel to equal skill-ls check', async (rows) => sameRows(rows, await checkBefore));
      const { path: file, text } = config.userCopy;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      // No keystroke: the workspace copy's shadow diagnostic must change in the Problems panel by itself
      // (the user copy itself is outside the workspace: like `skill-ls check`, no row while it is not
      // open), and the panel equal `skill-ls check` run now.
      const check = checkNow();
      o.after = await settle(read, 'the new user copy in the Problems panel', async (p) =>
        p.some((x) => x.code === config.userCopy.expectCode && x.message.includes(config.userCopy.expectText)) && sameRows(p, await check));
      await read('disk-change'); // a picture with every row
    });
  });

  if (config.folderMove) {
    await flow('folder_moved', async (o) => {
      // A skill directory moved out of the workspace on disk (fs.renameSync: one rename, no keystroke,
      // nothing open), then moved back. VS Code's watcher reports a moved directory, not the files in it:
      // the Problems panel must drop its rows, update the other copies' shadow findings and equal
      // `skill-ls check`; moved back, everything returns.
      const { from, to } = config.folderMove;
      await closeAllEditors();
      const checkBefore = checkNow();
      await withProblems(async (read) => {
        o.before = await settle(read, 'the Problems panel to equal skill-ls check', async (rows) => sameRows(rows, await checkBefore));
        // Rename, then wait for the panel to equal `skill-ls check` run right after (o[key], o[check+key]).
        const rename = async (src, dst, key) => {
          fs.mkdirSync(path.dirname(dst), { recursive: true });
          fs.renameSync(src, dst);
          const check = checkNow();
          o[key] = await settle(read, `the Problems panel to equal skill-ls check (${key})`, async (rows) => sameRows(rows, await check));
          o[`check${key[0].toUpperCase()}${key.slice(1)}`] = await check;
        };
        await rename(from, to, 'away');
        await read('folder-moved');
        await rename(to, from, 'back');
      });
    });
  }

  await flow('server_killed', async (o) => {
    // The server process killed (kill -9): the extension starts it again by itself and the panel
    // equals `skill-ls check` again. Killed four more times within the restart window: a notification
    // says it will not be restarted; Restart Server starts it and the notification goes away.
    const waitNewPid = async (old) => waitFor('a new server process', async () => {
      const now = serverPids().filter((p) => !old.includes(p));
      return now.length ? now : undefined;
    }, STEP, 50);
    // A normal restart first (the server exits with code 0: information, not an error, in the output).
    const running = serverPids();
    await palette('Skill LS: Restart Server');
    await waitNewPid(running);
    await waitFor('the status bar to count skills again', async () => /\d+ skills?/.test(await skillStatus()));
    const first = serverPids();
    o.pidsBefore = first;
    if (!first.length) throw new Error('no bundled server process found');
    process.kill(first[0], 'SIGKILL');
    o.pidsAfter = await waitNewPid(first);
    await waitFor('the status bar to count skills again', async () => /\d+ skills?/.test(await skillStatus()));
    const check = checkNow();
    o.problems = await settledProblems('the Problems panel to equal skill-ls check after the restart', async (rows) => sameRows(rows, await check));
    let pids = o.pidsAfter;
    for (let kill = 2; kill <= 5; kill++) {
      process.kill(pids[0], 'SIGKILL');
      if (kill < 5) {
        pids = await waitNewPid(pids);
        await waitFor('the status bar to count skills again', async () => /\d+ skills?/.test(await skillStatus()));
      }
    }
    o.crashToast = await waitFor('the crashed-repeatedly notification', async () =>
      (await toasts()).find((t) => /crashed repeatedly/.test(t.text)));
    o.statusAfterCrash = await skillStatus();
    await palette('Skill LS: Restart Server');
    await waitNewPid(pids);
    await waitFor('the status bar to count skills again', async () => /\d+ skills?/.test(await skillStatus()));
    o.toastsAfterRestart = await waitFor('the crashed-repeatedly notification to go away', async () => {
      const t = await toasts();
      return t.some((x) => /crashed repeatedly/.test(x.text)) ? undefined : t;
    }, 20000);
  });
}

/**
 * A multi-root workspace, in the same code-server: the `.code-workspace` file opened from the URL (as
 * File > Open Workspace from File does), folders with different `.skill-ls.toml`; the Problems panel
 * per folder, a hover, the catalog preview and "Show Skill Shadows" on a file of the second folder;
 * then a folder added and one removed by editing the workspace file on disk.
 *
 * config.multiRoot: {workspaceFile, folders: {name: path}, hover: {file, name}, winner (the copy that
 * wins for the hovered name, outside every folder), add: {name, path}, remove: name}. Problems rows carry their folder: "alpha • .agh/skills/x/SKILL.md".
 */
async function multiRootFlows(port) {
  const mr = config.multiRoot;
  const names = Object.keys(mr.folders);
  const hasFolder = (rows, name) => rows.some((r) => r.file.startsWith(`${name} • `));
  // The rows of one folder ("alpha • .agh/skills/x/SKILL.md"), paths relative to it as check's are.
  const inFolder = (rows, name) => rows.filter((r) => r.file.startsWith(`${name} • `)).map((r) => ({ ...r, file: r.file.slice(name.length + 3) }));
  // Every row belongs to a folder of `checks` ({name: promise of check rows}) and equals its check.
  const foldersEqual = async (rows, checks) => {
    const folders = Object.keys(checks);
    if (!rows.every((r) => folders.some((n) => r.file.startsWith(`${n} • `)))) return false;
    for (const n of folders) if (!sameRows(inFolder(rows, n), await checks[n])) return false;
    return true;
  };
  const writeWorkspace = (folders) =>
    fs.writeFileSync(mr.workspaceFile, JSON.stringify({ folders: folders.map((p) => ({ path: p })), settings: {} }, null, 2));

  await flow('multiroot_open', async (o) => {
    // A new window for the workspace (File > Open Workspace from File, "open in a new window"): a fresh
    // tab on the workspace URL; the demo window is closed without its unload prompts.
    const url = `http://127.0.0.1:${port}/?workspace=${encodeURIComponent(mr.workspaceFile)}`;
    const demo = page;
    page = await newPage('multi-root');
    await demo.close({ runBeforeUnload: false }).catch(() => undefined);
    // code-server sometimes comes up without the workspace's folders (seen on a loaded machine, about
    // one run in five: the explorer says "You have not yet added a folder to the workspace", no server
    // starts, nothing in the console, and it stays so). VS Code for the Web reads a remote workspace
    // file from its configuration cache first (empty on the first open in a fresh user-data directory)
    // and the file's folders only once the remote file system is registered; our reading is that this
    // late update is what gets lost, and a reload reads the cache the first attempt filled. What a
    // person does then, reload, is done once; what the failed attempt showed is kept in `attempts`
    // (the test reports it) and the browser console in results.console.
    o.attempts = [];
    for (let attempt = 1; ; attempt++) {
      if (attempt === 1) await page.goto(url);
      else await page.reload();
      await page.waitForSelector('.monaco-workbench', { timeout: STEP });
      try {
        // The window with its folders, or, held for 3 s, the explorer's "You have not yet added a folder
        // to the workspace": the workspace came up without them (a person reloads at once).
        let emptySince;
        const seen = await waitFor('every folder in the explorer', async () => {
          const roots = await explorerRoots();
          if (names.every((n) => roots.some((r) => r.toUpperCase() === n.toUpperCase()))) return { roots };
          const empty = await page.$$eval('.welcome-view-content', (els) =>
            els.some((e) => e.checkVisibility() && /not yet added a folder/i.test(e.innerText)));
          emptySince = empty ? emptySince || Date.now() : undefined;
          return emptySince && Date.now() - emptySince > 3000 ? { empty: true } : undefined;
        }, attempt === 1 ? 45000 : STEP);
        if (seen.empty) throw new Error('the workspace window opened without its folders ("You have not yet added a folder to the workspace")');
        o.explorer = seen.roots;
        break;
      } catch (err) {
        o.attempts.push({ error: String(err && err.message ? err.message : err), ...(await windowState()) });
        await shot(`multiroot-open-attempt-${attempt}`).catch(() => undefined);
        if (attempt >= 2) throw err;
      }
    }
    o.status = await waitFor('the skill-ls status bar item to count skills', async () => {
      const item = (await statusBar()).find((s) => /skill-ls/i.test(s.id) && /\d+ skills?/.test(s.text));
      return item && item.text;
    });
    o.toasts = await toasts(); // and again once the Problems panel settled (multiroot_problems)
  });

  // The window without Python loads while the multi-root flows run (flow no_python reads it).
  if (noPythonServer && !noPythonWindow) noPythonWindow = openNoPythonWindow();

  await flow('multiroot_problems', async (o) => {
    // Every folder's rows equal `skill-ls check` of that folder (run now), and no other row.
    const checks = Object.fromEntries(names.map((n) => [n, checkNow(mr.folders[n])]));
    await withProblems(async (read) => {
      o.problems = await settle(read, 'every folder\'s rows equal to its skill-ls check', (rows) => foldersEqual(rows, checks));
      o.rawLabels = (await readProblemRows()).map((r) => r.label);
      await read('multiroot-problems');
    });
    o.openEditors = await page.$$eval('.tabs-container .tab', (els) => els.length);
    o.toasts = await toasts();
  });

  await flow('multiroot_hover', async (o) => {
    await openFile(mr.hover.file);
    o.hover = await hoverName(mr.hover.name);
    await shot('multiroot-hover');
    await page.keyboard.press('Escape');
  });

  if (mr.modelCompletion) {
    await flow('model_completion', async (o) => {
      // `model: ` typed on a new frontmatter line of each file (a Claude Code skill, a subagent), then
      // Ctrl+Space: what the suggest widget lists (or its "No suggestions." message), in o[name]. The
      // edit is reverted.
      const widget = async () => page.$$eval('.editor-widget.suggest-widget', (els) => els.filter((e) => e.checkVisibility()).map((e) => ({
        rows: [...e.querySelectorAll('.monaco-list-row')].filter((r) => r.checkVisibility()).map((r) => r.innerText.replace(/\s+/g, ' ').trim()),
        message: [...e.querySelectorAll('.message')].filter((m) => m.checkVisibility()).map((m) => m.innerText.trim()).join(' '),
      })));
      for (const { name, file, line } of mr.modelCompletion) {
        await openFile(file);
        await temporaryEdit(file, async () => {
          await goTo(line, 1);
          await page.keyboard.press('End');
          await page.keyboard.press('Enter');
          await page.keyboard.type('model: ');
          await waitFor('the typed key in the text', async () => (await editorText()).split('\n')[line] === 'model: ', 10000, 50);
          await page.keyboard.press('Control+Space');
          const shown = await waitFor(`the suggest widget (${name})`, async () =>
            (await widget()).find((w) => w.rows.length || (w.message && !/^Loading/.test(w.message))));
          o[name] = { suggestions: shown.rows, message: shown.message };
          await shot(`model-completion-${name}`);
          await page.keyboard.press('Escape');
        });
      }
      await closeAllEditors();
    });
  }

  await flow('multiroot_catalog', async (o) => {
    // The active editor is the second folder's file: the palette command answers for that folder.
    if (mr.modelCompletion) await openFile(mr.hover.file);
    await palette('Skill LS: Preview Agent Catalog');
    o.picks = [];
    let isPrevious = (rows) => rows.some((r) => /Preview Agent Catalog/.test(r)); // still the palette
    for (;;) {
      const next = await catalogOrPick(isPrevious);
      if (next.tab) break;
      if (o.picks.length >= 2) throw new Error(`a third pick: ${JSON.stringify(next.rows)}`);
      o.picks.push(next.rows);
      const shown = JSON.stringify(next.rows);
      isPrevious = (rows) => JSON.stringify(rows) === shown;
      await page.keyboard.press('Enter'); // the first entry: the whole set, the folder's runtime
    }
    o.tab = await waitFor('the catalog preview tab', async () =>
      (await page.$$eval('.tabs-container .tab.active', (els) => els.map((e) => e.innerText.trim()))).find((t) => /catalog/i.test(t)),
    );
    await unmaximizePanel();
    o.text = await waitFor('catalog text', async () => {
      const t = await editorText();
      return t.includes(mr.hover.name) ? t : undefined;
    });
    await shot('multiroot-catalog');
    await closeAllEditors();
  });

  await flow('multiroot_where', async (o) => {
    await openFile(mr.hover.file);
    await palette('Skill LS: Show Skill Shadows');
    ({ rows: o.items, placeholder: o.placeholder } = await commandPick('the declarations quick pick', 'Show Skill Shadows'));
    await shot('multiroot-where');
    // Pick the winner (outside every folder: the personal copy) and hover its name there.
    await page.keyboard.press('Enter');
    const winner = mr.winner;
    const head = fs.readFileSync(winner, 'utf8').split('\n').slice(0, 3).join('\n');
    await waitFor('the winning copy in the editor', async () => (await editorText()).startsWith(head), STEP, 100);
    await editorFocused();
    o.winnerHover = await hoverName(mr.hover.name);
    await page.keyboard.press('Escape');
    await closeAllEditors();
  });

  if (mr.add) {
    await flow('multiroot_add_folder', async (o) => {
      // The workspace file edited on disk (by hand, or by a script): a third folder appears.
      writeWorkspace([...Object.values(mr.folders), mr.add.path]);
      o.explorer = await waitFor('the added folder in the explorer', async () => {
        const roots = await explorerRoots();
        return roots.some((r) => r.toUpperCase() === mr.add.name.toUpperCase()) ? roots : undefined;
      });
      // Its rows, and every other folder's, equal `skill-ls check` of the folder.
      const checks = Object.fromEntries([...names, mr.add.name].map((n) => [n, checkNow(n === mr.add.name ? mr.add.path : mr.folders[n])]));
      o.problems = await settledProblems('rows of the added folder', (rows) => hasFolder(rows, mr.add.name) && foldersEqual(rows, checks));
    });
  }

  if (mr.builtin) {
    await flow('builtin_pick', async (o) => {
      // The code lens of a skill Amp reads, clicked: its pick lists Amp's built-in copy of the name;
      // choosing it has no file to open (the notification and the editor say what happened).
      await openFile(mr.builtin.file);
      const lens = page.locator('.editor-group-container.active .codelens-decoration a').first();
      await waitFor('the code lens', async () => (await lens.count()) > 0 && (await lens.isVisible()));
      o.title = (await lens.innerText()).trim();
      await lens.click();
      ({ rows: o.items, placeholder: o.placeholder } = await commandPick('the declarations quick pick', 'Show Skill Shadows', /declarations? of/));
      const pick = o.items.findIndex((r) => /built.in/i.test(r));
      if (pick < 0) throw new Error(`no row is a built-in copy: ${JSON.stringify(o.items)}`);
      const before = await toasts();
      for (let i = 0; i < pick; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await waitFor('the quick pick to close', async () => !(await quickPickOpen()), 10000, 50);
      // What choosing it did: a notification (an answer, or an error opening a file).
      o.toasts = await waitFor('a notification', async () => {
        const now = await toasts();
        return now.length > before.length || now.some((t) => !before.some((b) => b.text === t.text)) ? now : undefined;
      }, 20000);
      await shot('builtin-pick');
      o.tabs = await page.$$eval('.tabs-container .tab', (els) => els.map((e) => e.innerText.trim()));
      await palette('Notifications: Clear All Notifications');
      await closeAllEditors();
    });
  }

  if (mr.remove) {
    await flow('multiroot_remove_folder', async (o) => {
      const keep = Object.entries(mr.folders).filter(([n]) => n !== mr.remove).map(([, p]) => p);
      writeWorkspace([...keep, ...(mr.add ? [mr.add.path] : [])]);
      const left = [...names.filter((n) => n !== mr.remove), ...(mr.add ? [mr.add.name] : [])];
      const checks = Object.fromEntries(left.map((n) => [n, checkNow(n === (mr.add && mr.add.name) ? mr.add.path : mr.folders[n])]));
      await withProblems(async (read) => {
        o.problems = await settle(read, 'the removed folder to leave the Problems panel', (rows) => foldersEqual(rows, checks));
        await read('multiroot-after-remove');
      });
      o.status = await statusBar();
    });
  }
}

main()
  .catch((err) => {
    results.fatal = String(err && err.stack ? err.stack : err);
    log(`fatal: ${results.fatal}`);
  })
  .finally(() => {
    save();
    process.exit(results.fatal ? 1 : 0);
  });
