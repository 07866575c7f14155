// secrecy.mjs: a secret stays secret on the page (the page's side of
// tests/secrecy.py, which holds the same promise at the terminal).
//
//   node web/test/secrecy.mjs REGULA WEBDIR [RULES...]
//
// The promise, as a property: two games that differ only in one player's
// secret draws or answers show every other player exactly the same page
// (the DOM of the whole page, and the URL) at every question and every
// pass of the device, until the rules reveal the secret.
//
// For each rule file (default: every bundled one with secrets) a base game
// is played on the page in headless Chromium, with real dice and cards, by
// a fixed, deterministic table of players (the one tests/secrecy.py uses:
// dice from a fixed sequence, cards named in turn, choices their first
// option).  Every question asked in secret (the page passes the device
// first) is a secret moment.  For each one a second game is played exactly
// as the first except that, at that moment, the player answers another
// option; the rest of the table keeps its ways.  Then, from the moment on,
// the page at every question and every pass screen of the two games is
// compared, except while the player who holds the secret answers in secret
// (only that player looks then).  When the log on the page differs, the
// rules have revealed something: the first line that differs must be one
// the rules wrote (a choice, a note), not a roll or a draw, and the
// comparison of that pair of games ends there.  Any other difference is a
// leak: the test fails and shows it.
//
// Prints `secrecy (page): N moments, M games, K leaks`; exits 1 on a leak or
// when a file has no secret moment.  SECRECY_EVERY=k checks every k-th
// moment only (make test-web); `make secrecy-web` checks them all.
import { launch, serve } from './browser.mjs';

const FILES = ['rules/meg/maximus.rules', 'rules/meg/magna.rules', 'rules/meg/pacto.rules',
  'rules/meg/revised/maximus.rules', 'rules/meg/revised/magna.rules',
  'rules/meg/revised/pacto.rules'];
const SEED = '1';

// Plays one game on the page (in the browser, clicking its buttons) and
// returns what the page showed: a snapshot per pass screen and per
// question ({q, phase: 'pass'|'ask'|'end', who, line, secret, view, url,
// log, alt}), q counting the questions.  override: the question at which
// the player answers the other option.
function playInPage([file, seed, override, mutant]) {
  const $ = (id) => document.getElementById(id);
  // the mutant (SECRECY_MUTANT=bag: the test's own check): a page that
  // shows how many of each card have left the bag (counted from the game
  // this browser keeps), which the test must catch
  const bag = () => {
    let p = document.getElementById('mutant-bag');
    if (!p) {
      p = document.createElement('p');
      p.id = 'mutant-bag';
      document.getElementById('table-game').appendChild(p);
    }
    const counts = {};
    for (const k of Object.keys(localStorage)) {
      const g = JSON.parse(localStorage.getItem(k));
      if (k.startsWith('regula-table:') && g.answers) for (const a of g.answers) counts[a] = (counts[a] || 0) + 1;
    }
    p.textContent = Object.keys(counts).sort().map((c) => `${c}: ${counts[c]}`).join(', ');
  };
  const SEQ = [3, 5, 2, 6, 4, 1, 5, 3, 6, 2, 1, 4];
  let dice = 0, cards = 0;
  const roll = (lo, hi) => lo + (SEQ[dice++ % SEQ.length] - 1) % (hi - lo + 1);
  // the page as a player sees it: its DOM, each element with its
  // attributes in order of name (the order they were set in means
  // nothing), blob URLs and the load time left out (they differ from one
  // load to the next); its URL; its log
  const ser = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.textContent.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    if (n.nodeType !== Node.ELEMENT_NODE) return '';
    const attrs = [...n.attributes].map((a) => `${a.name}="${a.value.replace(/^blob:.*/, 'blob:')}"`).sort();
    const kids = n.id === 'ready-time' ? '' : [...n.childNodes].map(ser).join('');
    const value = n.tagName === 'INPUT' || n.tagName === 'SELECT' || n.tagName === 'TEXTAREA' ? ` value="${n.value}"` : '';
    return `<${n.tagName.toLowerCase()}${attrs.length ? ' ' + attrs.join(' ') : ''}${value}>${kids}</${n.tagName.toLowerCase()}>\n`;
  };
  const view = () => ser(document.body);
  const snap = (o) => (mutant && bag(), Object.assign(o, { view: view(), url: location.href, log: $('table-log').textContent }));
  const nameOf = (b) => (b.firstChild ? b.firstChild.textContent : '');

  localStorage.clear();
  if (!$('table-game').hidden) $('table-new').click();
  $('tab-table').click();
  $('table-file').value = file;
  $('table-file').dispatchEvent(new Event('change'));
  $('table-seed').value = seed;
  $('table-dice').value = '1';
  $('table-start').click();

  const snaps = [];
  let q = 0, passedFor = -1;
  for (let guard = 0; guard < 3000; guard++) {
    const state = $('table-game').dataset.state;
    if (state === 'passing') {
      const who = $('table-pass-who').textContent.replace(/^Pass the device to /, '');
      snaps.push(snap({ q, phase: 'pass', who, line: '(pass)', secret: true }));
      passedFor = q;
      $('table-pass-go').click();
      continue;
    }
    if (state !== 'asking') {
      snaps.push(snap({ q, phase: 'end', who: '', line: `(the end: ${state})`, secret: false }));
      return snaps;
    }
    const who = $('table-who').textContent, prompt = $('table-prompt').textContent;
    const secret = passedFor === q;
    const buttons = [...document.querySelectorAll('#table-options button')];
    const names = buttons.map(nameOf);
    let act, alt = null;
    if (!$('table-dice-pick').hidden) {
      // several dice at once: a face of each die's picker
      const rows = [...document.querySelectorAll('#table-dice-pick .die')];
      const faces = rows.map((r) => [...r.querySelectorAll('.face')]);
      const picks = faces.map((f) => roll(Number(f[0].dataset.face), Number(f[f.length - 1].dataset.face)));
      act = () => {
        faces.forEach((f, d) => f.find((b) => Number(b.dataset.face) === picks[d]).click());
        $('table-dice-go').click();
      };
    } else if (names.length === 2 && names.includes('yes') && names.includes('no')) {
      act = () => buttons[names.indexOf('no')].click();
      alt = () => buttons[names.indexOf('yes')].click();
    } else {
      const n = buttons.length;
      const numbers = names.every((x) => /^-?\d+$/.test(x));
      let k = 0;
      if (prompt.includes(': roll ') && numbers) {
        k = names.indexOf(String(roll(Number(names[0]), Number(names[n - 1]))));
      } else if (prompt.includes(': roll ')) {
        k = roll(1, 6) % n;
      } else if (prompt.includes(': draw ')) {
        k = cards++ % n;
        if (n > 1) alt = () => buttons[(k + 1) % n].click();
      } else if (n > 1) {
        alt = () => buttons[1].click();
      }
      act = () => buttons[k].click();
    }
    snaps.push(snap({ q, phase: 'ask', who, line: `${who}, ${prompt}`, secret, alt: !!alt }));
    q++;
    (q - 1 === override && alt ? alt : act)();
  }
  snaps.push(snap({ q, phase: 'end', who: '', line: '(more than 3000 steps)', secret: false }));
  return snaps;
}

// Returns the first line where a and b differ, with its neighbours.
function firstDiff(a, b) {
  const la = a.split(/(?=<)|\n/), lb = b.split(/(?=<)|\n/);
  let k = 0;
  while (k < la.length && k < lb.length && la[k] === lb[k]) k++;
  return `  base: ${JSON.stringify((la[k] || '(nothing)').slice(0, 300))}\n  alt:  ${JSON.stringify((lb[k] || '(nothing)').slice(0, 300))}`;
}

// Compares what the others saw in the two games from the moment (the
// base's snapshot index at) on.  Returns null, or a description of a leak.
function compare(base, alt, at, file) {
  const owner = base[at].who, q0 = base[at].q;
  for (let j = at; j < base.length && j < alt.length; j++) {
    const b = base[j], a = alt[j];
    if ((b.phase === 'ask' && b.secret && b.who === owner) || (a.phase === 'ask' && a.secret && a.who === owner)) continue;
    const lb = b.log.split('\n'), la = a.log.split('\n');
    if (b.log !== a.log) {
      let k = 0;
      while (k < lb.length && k < la.length && lb[k] === la[k]) k++;
      const first = k < lb.length ? lb[k] : la[k];
      if (/^\s+(roll|draw) /.test(first)) {
        return `${file}: question ${b.q} (${b.line}): the log differs first at a ${first.trim().split(' ')[0]} line, ` +
          `which the rules do not write to reveal: ${JSON.stringify(first)}`;
      }
      return null;                  // the rules revealed it
    }
    if (b.view !== a.view || b.url !== a.url) {
      return `${file}: ${b.phase === 'pass' ? 'the pass screen before' : ''} question ${b.q}, asked of ${b.who || 'everyone'} ` +
        `(${b.line}), shows a secret of ${owner} answered at question ${q0} (${base[at].line}):\n` +
        (b.url !== a.url ? `  the URL:\n  base: ${b.url}\n  alt:  ${a.url}` : firstDiff(b.view, a.view));
    }
    if (b.line !== a.line) return null;   // both at the end, or asked otherwise
  }
  return null;
}

export async function secrecy(browserPage, files, every, log, mutant) {
  let moments = 0, games = 0, leaks = 0, bad = false;
  for (const file of files) {
    const base = await browserPage.evaluate(playInPage, [file, SEED, -1, mutant]);
    games++;
    const at = base.map((s, i) => (s.phase === 'ask' && s.secret && s.alt ? i : -1)).filter((i) => i >= 0);
    if (!at.length) {
      log(`FAIL secrecy (page): ${file}: no secret moment to test`);
      bad = true;
      continue;
    }
    if (base[base.length - 1].line !== '(the end: done)') {
      log(`FAIL secrecy (page): ${file}: the base game did not end: ${base[base.length - 1].line}`);
      bad = true;
    }
    for (let n = 0; n < at.length; n++) {
      if (n % every) continue;
      moments++;
      const alt = await browserPage.evaluate(playInPage, [file, SEED, base[at[n]].q, mutant]);
      games++;
      const leak = compare(base, alt, at[n], file);
      if (leak) {
        leaks++;
        log(`FAIL secrecy (page): ${leak}`);
      }
    }
  }
  return { moments, games, leaks, ok: !bad && leaks === 0 };
}

// Run alone: node web/test/secrecy.mjs REGULA WEBDIR [RULES...]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [, webDir, ...rest] = process.argv.slice(2);
  if (!webDir) {
    console.error('usage: node web/test/secrecy.mjs REGULA WEBDIR [RULES...]');
    process.exit(2);
  }
  const files = rest.length ? rest : FILES;
  const every = Math.max(1, Number(process.env.SECRECY_EVERY || '1'));
  const server = await serve(webDir);
  const browser = await launch();
  let r = { ok: false, moments: 0, games: 0, leaks: 0 };
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    // the lists of files get their titles after the page is ready: wait, so
    // that the two games of a pair see the same lists
    await page.waitForSelector('body[data-titles="1"]', { timeout: 60000 });
    r = await secrecy(page, files, every, console.log, process.env.SECRECY_MUTANT === 'bag');
    if (errors.length) {
      console.log(`FAIL secrecy (page): errors on the page:\n${errors.join('\n')}`);
      r.ok = false;
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`secrecy (page): ${r.moments} moments, ${r.games} games, ${r.leaks} leaks`);
  process.exit(r.ok ? 0 : 1);
}

export { FILES };
