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
//   - the playground's sheet, tests, diff against the base file and a
//     queried cell are `REGULA sheet`, `test`, `diff` and `query`'s text;
//   - table mode: a Maximus game played by clicking (with a slip undone)
//     gives the log of `REGULA run --policy ask` fed the same answers, and
//     so does one with real dice (--dice ask); the game's URL, opened
//     afresh, shows the same game; the result shows its pictures;
//   - odds: a simulation in the Web Worker gives `REGULA sim --json`'s
//     tallies; a long one can be cancelled;
// and saves screenshots of each view at 390x844 and 1280x800 into SHOTDIR.
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
// ERROR_AT of the file (a roll misspelt as a call of no procedure).
const ERROR_AT = 'roll(p, "commander die", c)';
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

// Runs the CLI in dir (with input on its stdin); returns { out, err, code }.
function cli(args, cwd, input) {
  try {
    return { out: execFileSync(REGULA, args, { cwd, encoding: 'utf8', input: input || '', maxBuffer: 1 << 26, stdio: ['pipe', 'pipe', 'pipe'] }), err: '', code: 0 };
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
  check(await page.isVisible('#table-setup'), 'the page opens on table mode\'s setup');
  const ratings = await page.$$eval('#in-rating-A-members option', (os) => os.map((o) => o.value));
  check(ratings.join(',') === 'mediocre,competent,talented,legendary', 'an enum input suggests its members', ratings.join(','));
  check((await page.textContent('#in-territories-A-hint')).includes('S Standard, C Coastal'), 'a set input lists its members\' codes');
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(shotDir, `table-setup-${w}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // ---- a run equals the CLI's ----
  await page.click('#tab-run');
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
  // the result: the lines after the last section's heading ("== Summary",
  // or the title of the display the rule file gives the result)
  const at = want.out.lastIndexOf('\n\n== ');
  const body = at >= 0 ? want.out.slice(want.out.indexOf('\n', at + 2) + 1) : null;
  check(body !== null && summary === body, 'the result is the log\'s lines after its last heading (the result card)');
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

  // ---- the playground's tools: the CLI's texts ----
  await page.setViewportSize({ width: 1280, height: 800 });
  const MAGNA = 'rules/meg/magna.rules';
  await page.selectOption('#play-file', MAGNA);
  await page.waitForFunction(() => document.querySelector('#play-state').textContent.startsWith('No errors'));
  const tools = [
    ['#play-sheet', ['sheet', MAGNA], 'the sheet'],
    ['#play-tests', ['test', MAGNA], 'the tests'],
    ['#play-diff', ['diff', RULES, MAGNA], 'the diff against the file it extends'],
  ];
  for (const [button, args, what] of tools) {
    await page.click(button);
    await page.waitForSelector('#play-out:not([hidden])');
    const got = await page.textContent('#play-out');
    const want = cli(args, process.cwd());
    check(got === want.out && want.out.length > 0, `playground: ${what} is \`regula ${args.join(' ')}\`'s text`,
          got === want.out ? '' : firstDifference(got, want.out));
  }
  await page.selectOption('#query-table', 'weather');
  await page.fill('#query-keys', '0, Desert');
  await page.click('#query-go');
  await page.waitForFunction(() => document.querySelector('#play-out-title').textContent.startsWith('weather['));
  const qgot = await page.textContent('#play-out');
  const qwant = cli(['query', MAGNA, 'weather', '0', 'Desert'], process.cwd());
  check(qgot === qwant.out, 'playground: a queried cell is `regula query`\'s answer', `page: ${qgot}\ncli: ${qwant.out}`);
  await page.click('#play-sheet');
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.locator('#play-out-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shotDir, `playground-tools-${w}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // ---- table mode: a game by clicking equals the CLI fed the same answers ----
  // pickFor(n, k): which option to click for the kth question with n options
  async function playGame(seed, dice, inputs, pickFor, slipAt) {
    await page.click('#tab-table');
    if (!(await page.isVisible('#table-setup'))) await page.click('#table-new');
    await page.selectOption('#table-file', RULES);
    await page.fill('#table-seed', String(seed));
    await page.selectOption('#table-dice', dice ? '1' : '0');
    for (const [name, value] of Object.entries(inputs)) await page.fill(`#in-${name}`, value);
    await page.click('#table-start');
    const answers = [];
    let prevSecret = false;
    for (let k = 0; k < 400; k++) {
      await page.waitForFunction((n) => document.querySelector('#table-game').dataset.answers === String(n), answers.length);
      const state = await page.getAttribute('#table-game', 'data-state');
      if (state !== 'asking' && state !== 'passing') return { state, answers };
      // no secret answer of an open moment shows: the PBS cards played
      // each day appear in pairs
      const shownLog = await page.textContent('#table-log');
      const plays = (shownLog.match(/chooses [^\n]*\(play a PBS card \(or pass\)\)/g) || []).length;
      if (plays % 2) secretsShown++;
      const passesBefore = passes;
      if (await page.isVisible('#table-pass')) {
        // a secret question: the device is passed first, its options unseen
        passes++;
        // the URL (on the screen too) holds no answer of the open moment
        const inUrl = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('answers');
        if (prevSecret) {
          urlChecks++;
          if ((inUrl ? inUrl.split('\n').length : 0) >= answers.length) secretsShown++;
        }
        if (shots && passes === 2) {
          for (const [w, h] of [[1280, 800], [390, 844]]) {
            await page.setViewportSize({ width: w, height: h });
            await page.screenshot({ path: path.join(shotDir, `table-pass-${w}.png`) });
          }
          await page.setViewportSize({ width: 1280, height: 800 });
        }
        if (await page.isVisible('#table-options')) secretsShown++;
        if (await page.isVisible('#table-cli-box')) secretsShown++;
        await page.click('#table-pass-go');
        await page.waitForSelector('#table-options button');
      }
      if (await page.isVisible('#table-dice-pick')) {
        // several dice read at once: a picker per die, six faces each
        const faces = await page.$$eval('#table-dice-pick .die', (rows) =>
          rows.map((r) => [...r.querySelectorAll('.face')].map((b) => b.dataset.face)));
        dicePickers++;
        if (!faces.every((f) => f.length === 6)) diceBad++;
        const picks = faces.map((f, d) => f[pickFor(f.length, k + d)]);
        for (let d = 0; d < picks.length; d++) {
          await page.click(`#table-dice-pick .face[data-die="${d}"][data-face="${picks[d]}"]`);
        }
        if (!(await page.textContent('#table-prompt')).match(/^.*: roll /) ||
            !(await page.textContent('#table-who')).match(/^player /)) diceBad++;
        answers.push(picks.join(' '));
        await page.click('#table-dice-go');
        continue;
      }
      if (dice && (await page.textContent('#table-prompt')).includes(': roll ')) {
        diceAsked++;
        if (!(await page.textContent('#table-who')).match(/^player /)) diceBad++;
      }
      // what a button answers (its name, without its remark in brackets)
      const opts = await page.$$eval('#table-options button', (bs) => bs.map((b) => b.dataset.answer));
      if (k === slipAt && opts.length > 1) {
        // a slip: the other option, then undo
        const wrong = (pickFor(opts.length, k) + 1) % opts.length;
        await page.locator("#table-options button").nth(wrong).click();
        await page.waitForFunction((n) => document.querySelector('#table-game').dataset.answers === String(n), answers.length + 1);
        if (shots && !(await page.isVisible('#table-end'))) {
          for (const [w, h] of [[1280, 800], [390, 844]]) {
            await page.setViewportSize({ width: w, height: h });
            await page.screenshot({ path: path.join(shotDir, `table-asking-${w}.png`) });
          }
          await page.setViewportSize({ width: 1280, height: 800 });
        }
        await page.click('#table-undo');
        await page.waitForFunction((n) => document.querySelector('#table-game').dataset.answers === String(n), answers.length);
      }
      const i = pickFor(opts.length, k);
      prevSecret = passes > passesBefore;
      answers.push(opts[i]);
      await page.locator("#table-options button").nth(i).click();
    }
    return { state: 'too long', answers };
  }
  let shots = true;
  let passes = 0, secretsShown = 0, urlChecks = 0, dicePickers = 0, diceAsked = 0, diceBad = 0;
  const inputs = { 'rating-A': 'legendary', 'ugs-B': '14' };
  const sets = ['--set', 'rating[A]=legendary', '--set', 'ugs[B]=14'];
  const g1 = await playGame(11, false, inputs, (n, k) => (k * 7 + 3) % n, 2);
  shots = false;
  check(g1.state === 'done', `table mode: the game ends (${g1.answers.length} answers, one slip undone)`, g1.state);
  check(passes >= 6 && urlChecks >= 3 && secretsShown === 0,
        `table mode: each secret play passes the device (${passes} times) and shows nothing of the other's card (in the log, the page or the URL)`,
        `${secretsShown} times a secret showed`);
  const log1 = await page.textContent('#table-log');
  const want1 = cli(['run', RULES, '--seed', '11', ...sets, '--policy', 'ask'], process.cwd(), g1.answers.join('\n') + '\n');
  check(want1.code === 0 && log1 === want1.out, 'table mode: the log is `regula run --policy ask`\'s fed the same answers',
        log1 === want1.out ? want1.err : firstDifference(log1, want1.out));
  const summary1 = await page.textContent('#table-summary');
  check(summary1.length > 0 && want1.out.endsWith('\n' + summary1) &&
        want1.out.includes('\n== Result card\n' + summary1), 'table mode: the result is the run\'s result card');
  check((await page.$$('#table-pictures img')).length >= 1, 'table mode: the result shows the game\'s pictures');
  // the command shows the answers before the first secret one; the rest
  // only when the players ask for them
  const cliHeld = await page.textContent('#table-cli');
  const heldNote = cliHeld.match(/# \(and (\d+) more from the first secret answer on: not shown\)\n$/);
  check(heldNote && Number(heldNote[1]) > 0 && Number(heldNote[1]) < g1.answers.length &&
        cliHeld.endsWith(g1.answers.slice(0, g1.answers.length - Number(heldNote[1])).map((a) => a + '\n').join('') + heldNote[0]),
        'table mode: the command holds back the answers from the first secret one on', cliHeld.slice(-300));
  await page.click('#table-cli-box summary');
  await page.click('#table-cli-all');
  const cliText = await page.textContent('#table-cli');
  check(cliText.includes(`--seed 11 --set 'rating[A]=legendary' --set 'ugs[B]=14' --policy ask < answers.txt`) &&
        cliText.endsWith(g1.answers.map((a) => a + '\n').join('')), 'table mode: asked, it shows the command and answers that replay the game');
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(shotDir, `table-end-${w}.png`), fullPage: true });
    // the result card fits: no element wider than the window, the card
    // with no horizontal scroll (no line cut)
    const fit = await page.evaluate(() => {
      const wide = [...document.querySelectorAll('#table-game *')]
        .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > window.innerWidth + 0.5 &&
                       !e.closest('pre.log, #table-cli-box'))
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
      const card = document.querySelector('#table-summary');
      return { wide, scroll: card.scrollWidth - card.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
    });
    check(fit.wide.length === 0 && fit.scroll <= 0 && fit.page <= 0,
          `table mode at ${w} px: the result card fits (no horizontal scroll, nothing wider than the window)`,
          JSON.stringify(fit));
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // ---- a bad input is refused with the program's words ----
  {
    const bad = await page.evaluate((f) => window.regulaPage.call('rgw_play', [f, '1', 'rating[A]=bogus', '', 0]), RULES);
    const wantBad = cli(['run', RULES, '--set', 'rating[A]=bogus', '--policy', 'ask'], process.cwd(), '');
    check(bad.exit === 2 && wantBad.code === 2 && bad.err === wantBad.err,
          'table mode: a bad input is refused as `regula run --set` refuses it', `${bad.err} vs ${wantBad.err}`);
  }

  // ---- the URL reopens the same game ----
  const url = page.url();
  check(url.includes('answers='), 'table mode: the answers are in the URL');
  {
    const inUrl = new URLSearchParams(new URL(url).hash.slice(1)).get('answers');
    check(inUrl !== null && inUrl.split('\n').length < g1.answers.length,
          'table mode: the URL holds no answer from the first secret one on', `${inUrl && inUrl.split('\n').length} of ${g1.answers.length}`);
    // this browser kept the rest of the game: the URL reopens all of it here
    const p2 = await context.newPage();
    p2.on('pageerror', (e) => consoleErrors.push(String(e)));
    await p2.goto(url);
    await p2.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    await p2.waitForSelector('#table-game[data-state="done"]');
    const again = await p2.textContent('#table-log');
    check(again === log1, 'table mode: the URL, opened afresh, shows the same game', firstDifference(again, log1));
    await p2.close();
    // elsewhere (another browser: no storage), the URL reopens the game at
    // its first secret answer's question; an unfinished game's URL asks the
    // same question
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p3 = await other.newPage();
    p3.on('pageerror', (e) => consoleErrors.push(String(e)));
    await p3.goto(url);
    await p3.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    await p3.waitForSelector('#table-game[data-state="passing"], #table-game[data-state="asking"]');
    check((await p3.getAttribute('#table-game', 'data-answers')) === String(inUrl.split('\n').length),
          'table mode: elsewhere, the URL reopens the game at its first secret answer');
    const half = new URL(url);
    const hp = new URLSearchParams(half.hash.slice(1));
    hp.set('answers', g1.answers.slice(0, 5).join('\n'));
    half.hash = hp.toString();
    await p3.goto('about:blank');
    await p3.goto(half.toString());
    await p3.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    await p3.waitForSelector('#table-game[data-state="passing"], #table-game[data-state="asking"]');
    check((await p3.getAttribute('#table-game', 'data-answers')) === '5', 'table mode: an unfinished game reopens at its question');
    await other.close();
  }

  // ---- table mode with real dice: the CLI's --dice ask ----
  const g2 = await playGame(4, true, {}, (n, k) => (k * 3 + 1) % n, -1);
  check(g2.state === 'done', `table mode, real dice: the game ends (${g2.answers.length} answers)`,
        `${g2.state}: ${await page.textContent('#table-error')}\nanswers: ${JSON.stringify(g2.answers)}`);
  const log2 = await page.textContent('#table-log');
  const want2 = cli(['run', RULES, '--seed', '4', '--policy', 'ask', '--dice', 'ask'], process.cwd(), g2.answers.join('\n') + '\n');
  check(dicePickers > 0 && diceAsked > 0 && diceBad === 0,
        `table mode, real dice: dice read at once have a picker per die, six faces each (${dicePickers} times), and every roll asked names its player (${diceAsked} times)`,
        `${diceBad} bad`);
  check(want2.code === 0 && log2 === want2.out, 'table mode, real dice: the log is `regula run --policy ask --dice ask`\'s',
        log2 === want2.out ? want2.err : firstDifference(log2, want2.out));

  // ---- a whole hand typed at one prompt, taken back by one undo ----
  {
    await page.click('#table-new');
    await page.selectOption('#table-file', RULES);
    await page.fill('#table-seed', '1');
    await page.selectOption('#table-dice', '1');
    await page.click('#table-start');
    let n = 0;
    for (; n < 20; n++) {
      await page.waitForFunction((k) => document.querySelector('#table-game').dataset.answers === String(k), n);
      const st = await page.getAttribute('#table-game', 'data-state');
      if (st === 'passing') break;
      if (st !== 'asking') throw new Error(`the hand's game: ${st} after ${n} answers: ${await page.textContent('#table-error')}`);
      // another face each time (the same faces tie, and are rolled again)
      const buttons = page.locator('#table-options button');
      await buttons.nth(n % (await buttons.count())).click();
    }
    await page.click('#table-pass-go');
    const label = await page.textContent('#table-line-label');
    const hand = Number((label.match(/\((\d+) cards/) || [])[1]);
    // the examples are the library's (rg_game_hand_example), a whole hand each
    const ex = label.match(/cards: "(\d+) (\S+)(?: 1 (\S+))?", or "([^"]*)"\)/);
    check(ex && Number(ex[1]) + (ex[3] ? 1 : 0) === hand && ex[4].split(' ').length === hand &&
          (await page.getAttribute('#table-line', 'placeholder')) === `e.g. ${ex[1]} ${ex[2]}${ex[3] ? ` 1 ${ex[3]}` : ''}`,
          'table mode: the hand\'s examples, counted and listed, are each a whole hand', label);
    // the cards dealt round the five colours: six are "2 red 1 white 1 black 1 green 1 yellow"
    const colours = ['red', 'white', 'black', 'green', 'yellow'];
    const counts = colours.map((c, i) => Math.floor(hand / 5) + (i < hand % 5 ? 1 : 0));
    const typed = colours.flatMap((c, i) => (counts[i] ? [String(counts[i]), c] : []));
    await page.fill('#table-line', typed.join(' '));
    await page.click('#table-line-go');
    await page.waitForFunction((k) => document.querySelector('#table-game').dataset.answers !== String(k), n);
    const after = Number(await page.getAttribute('#table-game', 'data-answers'));
    check(hand > 1 && after === n + hand, `table mode: a whole hand typed at one prompt (${typed.join(' ')}) is ${hand} answers`,
          `${n} -> ${after}, hand ${hand}`);
    await page.click('#table-undo');
    const undone = await page.getAttribute('#table-game', 'data-answers');
    check(undone === String(n), 'table mode: one undo takes the whole hand back', `${after} -> ${undone}`);
  }

  // ---- odds: the worker's tallies are `regula sim --json`'s ----
  await page.click('#tab-odds');
  await page.selectOption('#odds-file', RULES);
  await page.fill('#odds-runs', '3000');
  await page.fill('#odds-seed', '5');
  await page.click('#odds-go');
  await page.waitForSelector('body[data-odds-done="1"]', { timeout: 120000 });
  const odds = await page.evaluate(() => window.regulaOdds);
  const simWant = cli(['sim', RULES, '--runs', '3000', '--seed', '5', '--json'], process.cwd());
  const simJson = JSON.parse(simWant.out);
  const oddsErr = odds.error;
  delete odds.error;
  check(oddsErr === null && JSON.stringify(odds) === JSON.stringify(simJson),
        'odds: 3000 runs in the worker give `regula sim --runs 3000 --seed 5 --json`\'s tallies', String(oddsErr));
  {
    // a chart per result; a record's columns one at a time, picked from a list
    const records = new Map();
    let plain = 0;
    for (const t of simJson.tallies) {
      const m = /^(.*?)(?: \(items\)|\.(.+))$/.exec(t.name);
      if (m) records.set(m[1], (records.get(m[1]) || 0) + 1); else plain++;
    }
    const charts = await page.$$eval('#odds-charts table', (ts) => ts.map((t) => t.dataset.tally));
    check(records.size > 0 && charts.length === plain + records.size,
          `odds: a chart per result (${plain}), a record's fields one at a time (${records.size} records)`,
          `${charts.length} charts`);
    const [rec, nfields] = [...records][0];
    const sel = `#odds-charts .record-chart[data-record="${rec}"] select`;
    const seen = [];
    for (let i = 0; i < nfields; i++) {
      await page.selectOption(sel, String(i));
      seen.push(await page.getAttribute(`#odds-charts .record-chart[data-record="${rec}"] table`, 'data-tally'));
    }
    const want = simJson.tallies.map((t) => t.name).filter((n) => n === `${rec} (items)` || n.startsWith(`${rec}.`));
    check(JSON.stringify(seen) === JSON.stringify(want), `odds: the ${rec} record's list charts each of its ${nfields} fields`,
          `${seen} vs ${want}`);
    await page.selectOption(sel, '0');
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    check(height < 8000, `odds: the page at 1280 px stays short (${height} px)`);
  }
  check(await page.evaluate(() => document.querySelector('#odds-progress').value === 1), 'odds: the progress bar is full');
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(shotDir, `odds-${w}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.fill('#odds-runs', '100000000');
  await page.click('#odds-go');
  await page.waitForFunction(() => document.querySelector('#odds-progress').value > 0);
  await page.click('#odds-cancel');
  check(await page.isEnabled('#odds-go') && (await page.textContent('#odds-status')).startsWith('Cancelled'),
        'odds: a long simulation can be cancelled');

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
