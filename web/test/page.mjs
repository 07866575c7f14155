// page.mjs: the page in a real browser (Debian's chromium, headless, driven
// by playwright-core; nothing downloads a browser).
//
//   node web/test/page.mjs REGULA WEBDIR SHOTDIR
//
// Serves WEBDIR (made by `make web`) on 127.0.0.1, then checks that
//   - the page becomes ready (and reports how long it took);
//   - a run of Maximus with seed 1 and policy first shows, as its log, exactly
//     the bytes `REGULA run rules/meg/maximus.rules --seed 1 --policy first`
//     prints, and its summary is the lines after "== Summary";
//   - so does every bundled rule file with seeds 2 and 1000 (policy random);
//   - an error typed into the playground is listed with the line, column
//     and message, and the text, that `REGULA check` gives for the same
//     text, and its line is marked in the gutter;
//   - nothing is logged on the browser's console as an error;
// and saves screenshots at 390x844 and 1280x800 into SHOTDIR.
// Ends with "N passed, N failed"; exits 1 when a check failed.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(new URL('../package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [regula, webDir, shotDir] = process.argv.slice(2);
if (!regula || !webDir || !shotDir) {
  console.error('usage: node web/test/page.mjs REGULA WEBDIR SHOTDIR');
  process.exit(2);
}
const REGULA = path.resolve(regula);
const RULES = 'rules/meg/maximus.rules';
// The slip the test types in the playground: ERROR_TEXT before the first
// ERROR_AT of the file (a die's name misspelt).
const ERROR_AT = 'YELLOW }';
const ERROR_TEXT = 'Y';
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.png': 'image/png',
};

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log(`ok   ${what}`); return; }
  failed++;
  console.log(`FAIL ${what}${detail ? '\n' + detail : ''}`);
}

// Shows where two texts first differ (for a failed byte comparison).
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `first difference at byte ${i}:\n  page: ${JSON.stringify(a.slice(i, i + 80))}\n  cli:  ${JSON.stringify(b.slice(i, i + 80))}`;
}

// A static server for webDir on 127.0.0.1, on a free port.
function serve(dir) {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
    if (file.endsWith('/')) file += 'index.html';
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Runs the CLI in dir; returns { out, err, code }.
function cli(args, cwd) {
  try {
    return { out: execFileSync(REGULA, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), err: '', code: 0 };
  } catch (e) {
    return { out: e.stdout || '', err: e.stderr || '', code: e.status };
  }
}

const server = await serve(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  // playwright gives each launch a fresh profile (its own --user-data-dir)
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const consoleErrors = [];
fs.mkdirSync(shotDir, { recursive: true });

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));

  // ---- ready ----
  const t0 = Date.now();
  await page.goto(base);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  const wall = Date.now() - t0;
  const readyMs = await page.evaluate(() => window.regulaReadyMs);
  check(typeof readyMs === 'number', 'the page is ready');
  console.log(`     ready ${readyMs} ms after navigation start (${wall} ms from goto)`);

  // ---- a run equals the CLI's ----
  await page.selectOption('#run-file', RULES);
  await page.fill('#run-seed', '1');
  await page.selectOption('#run-policy', 'first');
  await page.click('#run-go');
  await page.waitForSelector('#run-result:not([hidden])');
  const log = await page.textContent('#run-log');
  const summary = await page.textContent('#run-summary');
  const want = cli(['run', RULES, '--seed', '1', '--policy', 'first'], process.cwd());
  check(want.code === 0 && want.out.length > 0, 'the CLI runs Maximus', want.err);
  check(log === want.out, 'the page\'s log equals `regula run ... --seed 1 --policy first` byte for byte',
        log === want.out ? '' : firstDifference(log, want.out));
  const at = want.out.indexOf('\n== Summary\n');
  check(at >= 0 && summary === want.out.slice(at + 12), 'the summary is the log\'s lines after "== Summary"');
  check(!(await page.isVisible('#run-error')), 'the run shows no error');
  check((await page.evaluate(() => location.hash)).includes('seed=1'), 'the seed is in the URL');
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(shotDir, `run-${w}.png`) });
  }

  // ---- a different seed gives the CLI's game too (random policy) ----
  await page.fill('#run-seed', '7');
  await page.selectOption('#run-policy', 'random');
  await page.click('#run-go');
  await page.waitForFunction(() => document.querySelector('#run-log').textContent.startsWith('run main: seed 7'));
  const log7 = await page.textContent('#run-log');
  const want7 = cli(['run', RULES, '--seed', '7', '--policy', 'random'], process.cwd());
  check(log7 === want7.out, 'seed 7, policy random: the same log as the CLI',
        log7 === want7.out ? '' : firstDifference(log7, want7.out));

  // ---- every bundled rule file, two seeds: the page's log is the CLI's ----
  const files = await page.$$eval('#run-file option', (os) => os.map((o) => o.value));
  let same = 0;
  const differ = [];
  for (const f of files) {
    for (const seed of ['2', '1000']) {
      await page.selectOption('#run-file', f);
      await page.fill('#run-seed', seed);
      await page.click('#run-go');
      await page.waitForFunction(([f, seed]) => document.querySelector('#run-status').textContent.includes(`${f} with seed ${seed}`) ||
        document.querySelector('#run-status').textContent.includes(`run of ${f} failed`), [f, seed]);
      const got = await page.textContent('#run-log');
      const cliRun = cli(['run', f, '--seed', seed], process.cwd());
      const pageFailed = await page.isVisible('#run-error');
      if (got === cliRun.out && pageFailed === (cliRun.code !== 0)) same++;
      else differ.push(`${f} --seed ${seed}: ${firstDifference(got, cliRun.out)}`);
    }
  }
  check(differ.length === 0 && same === files.length * 2,
        `all ${files.length} bundled rule files, seeds 2 and 1000: the page's log is the CLI's`, differ.join('\n'));

  // ---- the playground: an error typed in, as `regula check` reports it ----
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click('#tab-play');
  await page.selectOption('#play-file', RULES);
  await page.waitForFunction(() => document.querySelector('#play-state').textContent.startsWith('No errors'));
  check(true, 'the bundled Maximus compiles in the playground');
  const bundledText = await page.inputValue('#source');
  const errorAt = bundledText.indexOf(ERROR_AT);
  const ERROR_LINE = bundledText.slice(0, errorAt).split('\n').length;
  await page.click('#source');
  await page.evaluate((at) => document.querySelector('#source').setSelectionRange(at, at), errorAt);
  await page.keyboard.type(ERROR_TEXT);
  await page.waitForSelector('#diags li');
  const text = await page.inputValue('#source');
  const shown = await page.$$eval('#diags li', (lis) => lis.map((li) => ({
    file: li.dataset.file, line: Number(li.dataset.line), col: Number(li.dataset.col),
    message: li.querySelector('.message').textContent, text: li.querySelector('.diag-text').textContent,
  })));
  // The CLI checks the same text at the same path, beside copies of the
  // bundled files, so that `from` and `extends` resolve the same way.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'regula-web-'));
  fs.cpSync('rules', path.join(tmp, 'rules'), { recursive: true });
  fs.cpSync('tables', path.join(tmp, 'tables'), { recursive: true });
  fs.writeFileSync(path.join(tmp, RULES), text);
  const got = cli(['check', RULES], tmp);
  fs.rmSync(tmp, { recursive: true, force: true });
  const first = /^([^\n]*):(\d+):(\d+): error: ([^\n]*)\n/.exec(got.err);
  check(got.code === 2 && first, 'the CLI rejects the edited text', got.err);
  if (first) {
    const d = shown[0] || {};
    check(d.file === first[1] && d.line === Number(first[2]) && d.col === Number(first[3]),
          `the diagnostic is at the CLI's place (${first[1]}:${first[2]}:${first[3]})`, JSON.stringify(d));
    check(d.line === ERROR_LINE, `... which is the line typed on (${ERROR_LINE})`);
    check(d.message === first[4], 'the diagnostic has the CLI\'s message', `page: ${d.message}\ncli:  ${first[4]}`);
    check(shown.map((x) => x.text).join('') === got.err, 'the diagnostics\' text is the CLI\'s, byte for byte',
          firstDifference(shown.map((x) => x.text).join(''), got.err));
    check(await page.isVisible(`#gutter .err[data-line="${first[2]}"]`), 'the line is marked in the gutter');
  }
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(shotDir, `playground-${w}.png`) });
  }

  // ---- undoing the error clears it ----
  for (let i = 0; i < ERROR_TEXT.length; i++) await page.keyboard.press('Backspace');
  await page.waitForFunction(() => document.querySelector('#play-state').textContent.startsWith('No errors'));
  check((await page.$$('#diags li')).length === 0, 'removing the typed text clears the diagnostics');

  check(consoleErrors.length === 0, 'no errors on the browser\'s console', consoleErrors.join('\n'));
  await context.close();
} catch (e) {
  check(false, 'the page test ran to its end', String(e && e.stack || e));
} finally {
  await browser.close();
  server.close();
}
console.log(`web: screenshots in ${shotDir}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
