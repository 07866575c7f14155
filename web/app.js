/*
 * app.js: the page.  It loads the library compiled to WebAssembly
 * (regula.js, made by `make web`), lists the bundled rule files from its
 * in-memory file system, and calls the three functions of web/glue.c:
 * rgw_run (a whole run, as `regula run` prints it), rgw_check (diagnostics
 * as records) and rgw_free.  No rules logic lives here: the page shows what
 * the library says.
 *
 * The state worth sharing (view, rule file, seed, policy) lives in the
 * URL's fragment: #view=run&file=rules/meg/maximus.rules&seed=1&policy=first
 */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const CHECK_DELAY_MS = 250;        /* diagnostics this long after the last key */

  let lib = null;                    /* the Emscripten module */
  const pristine = new Map();        /* path -> the bundled text of that file */
  let checkTimer = 0;

  /* ---- the library ------------------------------------------------------ */

  /* Calls glue function name with string arguments; returns its JSON result
   * parsed (the C string is freed). */
  function call(name, args) {
    const ptr = lib.ccall(name, 'number', args.map(() => 'string'), args);
    if (!ptr) throw new Error('the library ran out of memory');
    try {
      return JSON.parse(lib.UTF8ToString(ptr));
    } finally {
      lib.ccall('rgw_free', null, ['number'], [ptr]);
    }
  }

  /* Returns every .rules file under dir of the in-memory file system, as
   * paths relative to / ("rules/meg/maximus.rules"), sorted. */
  function ruleFiles(dir) {
    const out = [];
    for (const name of lib.FS.readdir('/' + dir)) {
      if (name === '.' || name === '..') continue;
      const path = dir + '/' + name;
      if (lib.FS.isDir(lib.FS.stat('/' + path).mode)) out.push(...ruleFiles(path));
      else if (name.endsWith('.rules')) out.push(path);
    }
    return out.sort();
  }

  /* Returns the bundled text of path (read once from the file system). */
  function bundled(path) {
    if (!pristine.has(path)) pristine.set(path, lib.FS.readFile('/' + path, { encoding: 'utf8' }));
    return pristine.get(path);
  }

  /* Returns the title a rule file gives itself (its `ruleset "..."`), or ''. */
  function titleOf(path) {
    const m = /^\s*ruleset\s+"([^"]*)"/m.exec(bundled(path));
    return m ? m[1] : '';
  }

  /* Fills a <select> with the rule files, selecting `chosen` when present. */
  function fillFiles(select, files, chosen) {
    select.textContent = '';
    for (const path of files) {
      const opt = document.createElement('option');
      const title = titleOf(path);
      opt.value = path;
      const short = path.replace(/^rules\//, '');
      opt.textContent = title ? `${short}: ${title}` : short;
      select.appendChild(opt);
    }
    if (files.includes(chosen)) select.value = chosen;
  }

  /* ---- the URL ------------------------------------------------------------ */

  function readHash() {
    return new URLSearchParams(location.hash.replace(/^#/, ''));
  }

  function writeHash() {
    const p = new URLSearchParams();
    const play = $('tab-play').getAttribute('aria-selected') === 'true';
    p.set('view', play ? 'playground' : 'run');
    p.set('file', play ? $('play-file').value : $('run-file').value);
    if (!play) {
      p.set('seed', $('run-seed').value);
      p.set('policy', $('run-policy').value);
    }
    history.replaceState(null, '', '#' + p.toString());
  }

  /* ---- tabs ------------------------------------------------------------------- */

  const tabs = [$('tab-run'), $('tab-play')];

  /* Shows the panel of tab t (and moves the focus to it when focus is set). */
  function selectTab(t, focus) {
    for (const x of tabs) {
      const on = x === t;
      x.setAttribute('aria-selected', on ? 'true' : 'false');
      x.tabIndex = on ? 0 : -1;
      $(x.getAttribute('aria-controls')).hidden = !on;
    }
    if (focus) t.focus();
    if (t === tabs[1] && lib && !$('source').value) openInPlayground($('play-file').value);
    if (lib) writeHash();
  }

  for (const t of tabs) {
    t.addEventListener('click', () => selectTab(t, false));
    t.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(t);
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        e.preventDefault();
        selectTab(tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length], true);
      }
    });
  }

  /* ---- run ---------------------------------------------------------------------- */

  /* Runs the chosen rule set's main and shows the summary and the log. */
  function run() {
    const path = $('run-file').value;
    const seed = $('run-seed').value.trim();
    const policy = $('run-policy').value;
    const box = $('run-error');
    const r = call('rgw_run', [path, seed, policy]);
    const at = r.out.indexOf('\n== Summary\n');
    $('run-cmd').textContent = `regula run ${path} --seed ${seed} --policy ${policy}`;
    $('run-log').textContent = r.out;
    $('run-summary').textContent = at >= 0 ? r.out.slice(at + '\n== Summary\n'.length) : '(no summary)';
    $('run-result').hidden = r.out === '';
    box.hidden = r.exit === 0 && r.err === '';
    box.textContent = r.err + (r.exit ? `(regula run stopped with exit code ${r.exit})` : '');
    $('run-status').textContent = r.exit === 0 ? `Ran ${path} with seed ${seed}.` : `The run of ${path} failed.`;
    writeHash();
  }

  $('run-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (!$('run-seed').checkValidity()) {
      $('run-seed').reportValidity();
      return;
    }
    run();
  });

  /* ---- playground ------------------------------------------------------------------ */

  const source = $('source');

  /* Loads path's bundled text into the editor and checks it. */
  function openInPlayground(path) {
    source.value = bundled(path);
    source.scrollTop = 0;
    check();
  }

  /* Compiles the editor's text as the file it came from (written over that
   * file in the in-memory file system, so `extends` and `from` resolve as in
   * the CLI, then put back) and shows the diagnostics. */
  function check() {
    const path = $('play-file').value;
    let diags;
    clearTimeout(checkTimer);
    lib.FS.writeFile('/' + path, source.value);
    try {
      diags = call('rgw_check', [path]);
    } finally {
      lib.FS.writeFile('/' + path, bundled(path));
    }
    showDiagnostics(path, diags);
  }

  /* Draws the line numbers and the marks of the lines with errors, and
   * lists the diagnostics. */
  function showDiagnostics(path, diags) {
    const lines = source.value.split('\n').length;
    const bad = new Map();
    for (const d of diags) if (d.file === path && d.line > 0 && !bad.has(d.line)) bad.set(d.line, d.message);
    const gutter = [], marks = [];
    for (let n = 1; n <= lines; n++) {
      if (bad.has(n)) {
        gutter.push(`<span class="err" data-line="${n}">${n}</span>`);
        marks.push(`<span class="mark" data-line="${n}"> </span>`);
      } else {
        gutter.push(String(n));
        marks.push('');
      }
    }
    $('gutter').innerHTML = gutter.join('\n') + '\n';
    $('marks').innerHTML = marks.join('\n') + '\n';
    syncScroll();

    const list = $('diags');
    list.textContent = '';
    for (const d of diags) {
      const li = document.createElement('li');
      const where = document.createElement('button');
      const msg = document.createElement('span');
      const text = document.createElement('pre');
      li.dataset.file = d.file;
      li.dataset.line = d.line;
      li.dataset.col = d.col;
      where.type = 'button';
      where.className = 'where';
      where.textContent = d.line ? `${d.file === path ? 'line' : d.file + ' line'} ${d.line}, column ${d.col}` : 'error';
      where.disabled = d.file !== path || !d.line;
      where.addEventListener('click', () => goTo(d.line, d.col));
      msg.className = 'message';
      msg.textContent = d.message;
      text.className = 'diag-text';
      text.textContent = d.text;
      li.append(where, ' ', msg, text);
      list.appendChild(li);
    }
    const edited = source.value !== bundled(path);
    $('play-state').textContent =
      (diags.length === 0 ? 'No errors: the file compiles.'
        : `${diags.length} error${diags.length === 1 ? '' : 's'}.`) +
      (edited ? ' (edited; the bundled file is unchanged)' : '');
  }

  /* Puts the caret at line, display column col of the editor. */
  function goTo(line, col) {
    const lines = source.value.split('\n');
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    at += Math.min(Math.max(col - 1, 0), (lines[line - 1] || '').length);
    source.focus();
    source.setSelectionRange(at, at);
    const lh = parseFloat(getComputedStyle(source).lineHeight) || 20;
    source.scrollTop = Math.max(0, (line - 3) * lh);
    syncScroll();
  }

  /* Keeps the gutter and the marks in step with the editor's scrolling. */
  function syncScroll() {
    $('gutter').style.transform = `translateY(${-source.scrollTop}px)`;
    $('marks').style.transform = `translate(${-source.scrollLeft}px, ${-source.scrollTop}px)`;
  }

  source.addEventListener('scroll', syncScroll);
  source.addEventListener('input', () => {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, CHECK_DELAY_MS);
  });
  $('play-file').addEventListener('change', () => {
    openInPlayground($('play-file').value);
    writeHash();
  });
  $('play-reset').addEventListener('click', () => openInPlayground($('play-file').value));

  /* ---- start ----------------------------------------------------------------------- */

  createRegula({ print: () => {}, printErr: () => {} }).then((m) => {
    lib = m;
    const files = ruleFiles('rules');
    const h = readHash();
    const chosen = h.get('file') || 'rules/meg/maximus.rules';
    fillFiles($('run-file'), files, chosen);
    fillFiles($('play-file'), files, chosen);
    if (/^[0-9]+$/.test(h.get('seed') || '')) $('run-seed').value = h.get('seed');
    if (h.get('policy') === 'first' || h.get('policy') === 'random') $('run-policy').value = h.get('policy');
    for (const id of ['run-file', 'run-go', 'play-file', 'play-reset', 'source']) $(id).disabled = false;
    const ms = Math.round(performance.now());
    window.regulaReadyMs = ms;
    $('ready-time').textContent = `Ready in ${ms} ms.`;
    $('status').textContent = `Ready: ${files.length} rule files.`;
    selectTab(h.get('view') === 'playground' ? tabs[1] : tabs[0], false);
    document.body.dataset.ready = '1';
  }, (err) => {
    $('status').textContent = `The library could not be loaded: ${err}`;
  });
})();
