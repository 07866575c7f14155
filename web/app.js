/*
 * app.js: the page's core.  It loads the library compiled to WebAssembly
 * (regula.js, made by `make web`), lists the bundled rule files from its
 * in-memory file system, runs the tabs and the URL, and holds two views:
 * Run (a whole run, as `regula run` prints it) and the Playground (a rule
 * file edited in the page: diagnostics as you type, the sheet, a table
 * cell, the tests, the diff against its base).  table.js and odds.js add
 * the other two views through window.regulaPage.
 *
 * Everything the page shows about rules comes from web/glue.c, which
 * calls the library's public header: no rules logic lives here.
 *
 * The state worth sharing lives in the URL's fragment, one view at a time:
 * #view=run&file=rules/meg/maximus.rules&seed=1&policy=first
 */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const CHECK_DELAY_MS = 250;        /* diagnostics this long after the last key */

  const pristine = new Map();        /* path -> the bundled text of that file */
  let checkTimer = 0;
  let playBase = null;               /* the file the playground's file extends */

  /* What the other views share: the library, helpers, and the views'
   * hooks (name -> { tab, hash(params), restore(params), ready() }). */
  const page = window.regulaPage = {
    lib: null,
    files: [],
    views: {},
    $,
    call,
    result,
    bundled,
    titleOf,
    fillFiles,
    writeHash,
    info,
    buildInputs,
    readInputs,
    fillPolicies,
  };

  /* ---- the library ------------------------------------------------------ */

  /* Calls glue function name with string (or number) arguments; returns its
   * JSON result parsed (the C string is freed). */
  function call(name, args) {
    const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
    const ptr = page.lib.ccall(name, 'number', types, args);
    if (!ptr) throw new Error('the library ran out of memory');
    try {
      return JSON.parse(page.lib.UTF8ToString(ptr));
    } finally {
      page.lib.ccall('rgw_free', null, ['number'], [ptr]);
    }
  }

  /* Returns every .rules file under dir of the in-memory file system, as
   * paths relative to / ("rules/meg/maximus.rules"), sorted. */
  function ruleFiles(dir) {
    const out = [];
    for (const name of page.lib.FS.readdir('/' + dir)) {
      if (name === '.' || name === '..') continue;
      const path = dir + '/' + name;
      if (page.lib.FS.isDir(page.lib.FS.stat('/' + path).mode)) out.push(...ruleFiles(path));
      else if (name.endsWith('.rules')) out.push(path);
    }
    return out.sort();
  }

  /* Returns the bundled text of path (read once from the file system). */
  function bundled(path) {
    if (!pristine.has(path)) pristine.set(path, page.lib.FS.readFile('/' + path, { encoding: 'utf8' }));
    return pristine.get(path);
  }

  /* Returns the title a rule file gives itself (from the library), or ''. */
  const titles = new Map();
  function titleOf(path) {
    if (!titles.has(path)) titles.set(path, call('rgw_info', [path]).name || '');
    return titles.get(path);
  }

  /* Fills a <select> with the rule files, selecting `chosen` when present.
   * An option shows the file's path until titleAll has its title. */
  function fillFiles(select, chosen) {
    select.textContent = '';
    for (const path of page.files) {
      const opt = document.createElement('option');
      opt.value = path;
      opt.textContent = label(path);
      select.appendChild(opt);
    }
    if (page.files.includes(chosen)) select.value = chosen;
  }

  /* The text of a rule file's option: its title and short path once known. */
  function label(path) {
    const short = path.replace(/^rules\//, '');
    const title = titles.get(path);
    return title ? `${title} (${short})` : short;
  }

  /* Reads the title of each rule file (a compile each, so one per task
   * after the page is ready) and puts it into every list of files. */
  function titleAll() {
    const next = page.files.find((f) => !titles.has(f));
    if (!next) {
      document.body.dataset.titles = '1';          /* every list is final */
      return;
    }
    titleOf(next);
    for (const o of document.querySelectorAll(`option[value="${CSS.escape(next)}"]`)) o.textContent = label(next);
    setTimeout(titleAll, 0);
  }

  /* Returns what the library says of the rule file at path (rgw_inputs:
   * name, inputs with their types and defaults, procedures, strategies,
   * the default one, enums' members), read once. */
  const infos = new Map();
  function info(path) {
    if (!infos.has(path)) infos.set(path, call('rgw_inputs', [path]));
    return infos.get(path);
  }

  /* Builds into box a field per input of the rule file at path, ids
   * PREFIX-NAME-MEMBER (`rating[A]` -> PREFIX-rating-A), keeping the values
   * in `values` (name -> text).  A blank field shows the input's default
   * (from the library); an enum's members are suggested, a set's listed. */
  function buildInputs(box, path, values, prefix) {
    const lib = info(path);
    box.textContent = '';
    for (const inp of lib.inputs) {
      const id = prefix + '-' + inp.name.replace(/\[(.*)\]$/, '-$1');
      const wrap = document.createElement('div');
      const label = document.createElement('label');
      const field = document.createElement('input');
      wrap.className = 'field';
      label.htmlFor = id;
      label.append(inp.name.replace(/_/g, ' ').replace('[', ' ['), ' ');
      const hint = document.createElement('span');
      hint.className = 'hint';
      hint.textContent = `(${inp.type})`;
      label.append(hint);
      field.id = id;
      field.name = inp.name;
      field.type = 'text';
      field.autocomplete = 'off';
      field.value = values.get(inp.name) || '';
      field.placeholder = inp.value;
      field.title = `blank: ${inp.value} (the rule set's default)`;
      wrap.append(label, field);
      const set = /^set (.*)$/.exec(inp.type);
      const members = lib.enums[set ? set[1] : inp.type];
      if (members && !set) {
        const list = document.createElement('datalist');
        list.id = id + '-members';
        for (const m of members) {
          const o = document.createElement('option');
          o.value = m.name;
          list.appendChild(o);
        }
        field.setAttribute('list', list.id);
        wrap.appendChild(list);
      } else if (members) {
        const note = document.createElement('span');
        note.className = 'hint member-hint';
        note.id = id + '-hint';
        note.textContent = 'codes, with commas: ' + members.map((m) => (m.code === m.name ? m.code : `${m.code} ${m.name}`)).join(', ');
        field.setAttribute('aria-describedby', note.id);
        wrap.appendChild(note);
      }
      box.appendChild(wrap);
    }
    if (!lib.inputs.length) box.textContent = 'This rule set has no inputs.';
  }

  /* Reads the filled-in fields of box as NAME=VALUE lines. */
  function readInputs(box) {
    const out = [];
    for (const f of box.querySelectorAll('input')) {
      const v = f.value.trim();
      if (v !== '') out.push(`${f.name}=${v}`);
    }
    return out;
  }

  /* Fills a <select> with who answers the choices of the rule file at
   * path, as `--policy` names them: its strategies (the default one first,
   * marked), then random and first; selects `chosen` when offered, else
   * the default strategy (random when the rules name none). */
  function fillPolicies(select, path, chosen) {
    const lib = info(path);
    select.textContent = '';
    const add = (value, text, title) => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      if (title) o.title = title;
      select.appendChild(o);
    };
    const strategies = [...lib.strategies].sort((a, b) => (b.name === lib.default) - (a.name === lib.default));
    for (const st of strategies) {
      add(st.name, st.name === lib.default ? `${st.name} (the rules' default)` : `${st.name} (strategy)`, st.doc);
    }
    add('random', 'random');
    add('first', 'first option');
    const values = [...select.options].map((o) => o.value);
    select.value = values.includes(chosen) ? chosen : lib.default || 'random';
  }

  /* ---- the URL ------------------------------------------------------------ */

  function readHash() {
    return new URLSearchParams(location.hash.replace(/^#/, ''));
  }

  /* Writes the selected view's state into the URL. */
  function writeHash() {
    if (!page.lib) return;
    const t = tabs.find((x) => x.getAttribute('aria-selected') === 'true');
    const name = t.id.replace(/^tab-/, '');
    const p = new URLSearchParams();
    p.set('view', name);
    if (page.views[name] && page.views[name].hash) page.views[name].hash(p);
    history.replaceState(null, '', '#' + p.toString());
  }

  /* ---- tabs ------------------------------------------------------------------- */

  const tabs = ['tab-table', 'tab-run', 'tab-odds', 'tab-play'].map($);

  /* Shows the panel of tab t (and moves the focus to it when focus is set). */
  function selectTab(t, focus) {
    for (const x of tabs) {
      const on = x === t;
      x.setAttribute('aria-selected', on ? 'true' : 'false');
      x.tabIndex = on ? 0 : -1;
      $(x.getAttribute('aria-controls')).hidden = !on;
    }
    if (focus) t.focus();
    const v = page.views[t.id.replace(/^tab-/, '')];
    if (page.lib && v && v.shown) v.shown();
    writeHash();
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

  /* The result section that ends a run's log: its heading ("Summary", or
   * the title of the display the rule file gives the result, "Result
   * card") and its lines; null when the log has none. */
  function result(out) {
    const at = out.lastIndexOf('\n\n== ');
    if (at < 0) return null;
    const nl = out.indexOf('\n', at + 2);
    return { title: out.slice(at + 5, nl), text: out.slice(nl + 1) };
  }

  /* Runs the chosen rule set's main and shows the summary and the log. */
  function run() {
    const path = $('run-file').value;
    const seed = $('run-seed').value.trim();
    const policy = $('run-policy').value;
    const box = $('run-error');
    const inputs = readInputs($('run-inputs'));
    const r = call('rgw_run', [path, seed, policy === info(path).default ? '' : policy, inputs.join('\n')]);
    const res = result(r.out);
    const sets = inputs.map((x) => ` --set '${x.replace(/'/g, "'\\''")}'`).join('');
    $('run-cmd').textContent = `regula run ${path} --seed ${seed}${sets}` +
      (policy === info(path).default ? '' : ` --policy ${policy}`);
    $('run-log').textContent = r.out;
    $('summary-title').textContent = res ? res.title : 'Summary';
    $('run-summary').textContent = res ? res.text : '(no summary)';
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

  $('run-file').addEventListener('change', () => {
    fillPolicies($('run-policy'), $('run-file').value, '');
    buildInputs($('run-inputs'), $('run-file').value, new Map(), 'run-in');
    writeHash();
  });

  page.views.run = {
    hash(p) {
      p.set('file', $('run-file').value);
      p.set('seed', $('run-seed').value);
      p.set('policy', $('run-policy').value);
      const inputs = readInputs($('run-inputs'));
      if (inputs.length) p.set('inputs', inputs.join('\n'));
    },
    restore(h) {
      const mine = h.get('view') === 'run';
      fillFiles($('run-file'), (mine && h.get('file')) || 'rules/meg/maximus.rules');
      if (mine && /^[0-9]+$/.test(h.get('seed') || '')) $('run-seed').value = h.get('seed');
      fillPolicies($('run-policy'), $('run-file').value, mine ? h.get('policy') : '');
      buildInputs($('run-inputs'), $('run-file').value, inputValues(mine ? h.get('inputs') : ''), 'run-in');
      for (const id of ['run-file', 'run-go']) $(id).disabled = false;
    },
  };

  /* Returns the NAME=VALUE lines of text as a map (name -> value). */
  function inputValues(text) {
    const values = new Map();
    for (const line of (text || '').split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) values.set(line.slice(0, eq), line.slice(eq + 1));
    }
    return values;
  }
  page.inputValues = inputValues;

  /* ---- playground ------------------------------------------------------------------ */

  const source = $('source');

  /* Loads path's bundled text into the editor and checks it. */
  function openInPlayground(path) {
    source.value = bundled(path);
    source.scrollTop = 0;
    $('play-out').hidden = true;
    $('play-out-title').textContent = '';
    check();
    fillTables();
  }

  /* Compiles the editor's text as the file it came from (so `extends` and
   * `from` resolve against the bundled files beside it) and shows the
   * diagnostics. */
  function check() {
    const path = $('play-file').value;
    clearTimeout(checkTimer);
    const r = call('rgw_check', [path, source.value]);
    playBase = r.base;
    $('play-diff').textContent = playBase ? `Diff against ${playBase.replace(/^rules\//, '')}` : 'Diff against the bundled file';
    showDiagnostics(path, r.diags);
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

  /* Shows a tool's output under the editor: title, then text. */
  function showOut(title, text) {
    $('play-out-title').textContent = title;
    $('play-out').textContent = text;
    $('play-out').hidden = false;
  }

  /* Fills the query's table list from the library (keeps the choice). */
  function fillTables() {
    const sel = $('query-table');
    const keep = sel.value;
    const r = call('rgw_query', [$('play-file').value, source.value, '', '']);
    if (!r.tables) return;
    sel.textContent = '';
    for (const t of r.tables) {
      const o = document.createElement('option');
      o.value = t.name;
      o.textContent = `${t.name} (${t.keys} key${t.keys === 1 ? '' : 's'})`;
      sel.appendChild(o);
    }
    if (r.tables.some((t) => t.name === keep)) sel.value = keep;
    else if (r.tables.some((t) => t.name === 'weather')) sel.value = 'weather';
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
  $('play-sheet').addEventListener('click', () => {
    const path = $('play-file').value;
    const r = call('rgw_sheet', [path, source.value]);
    showOut(r.ok ? `The sheet of ${path} (regula sheet):` : 'The file has errors:', r.out);
  });
  $('play-tests').addEventListener('click', () => {
    const path = $('play-file').value;
    const r = call('rgw_test', [path, source.value]);
    showOut(`Tests of ${path} (regula test): ${r.passed} passed, ${r.failed} failed`, r.out);
  });
  $('play-diff').addEventListener('click', () => {
    const path = $('play-file').value;
    const base = playBase || path;
    const r = call('rgw_diff', [base, path, source.value]);
    showOut(r.changes < 0 ? 'A file has errors:'
      : `Changes from ${base} to ${path}${playBase ? '' : ' as edited'} (regula diff): ${r.changes}`, r.out);
  });
  $('query-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const keys = $('query-keys').value.split(',').map((k) => k.trim()).filter((k) => k !== '');
    const table = $('query-table').value;
    const r = call('rgw_query', [$('play-file').value, source.value, table, keys.join('\n')]);
    showOut(r.ok ? `${table}[${keys.join(', ')}] (regula query):` : 'No such cell:', r.out + '\n');
  });

  page.views.play = {
    hash(p) { p.set('file', $('play-file').value); },
    restore(h) {
      fillFiles($('play-file'), h.get('file') || 'rules/meg/maximus.rules');
      for (const id of ['play-file', 'play-reset', 'source', 'play-sheet', 'play-tests', 'play-diff',
        'query-table', 'query-go']) $(id).disabled = false;
    },
    shown() { if (!source.value) openInPlayground($('play-file').value); },
  };

  /* ---- start ----------------------------------------------------------------------- */

  /* Loads the library once every script of the page has run (table.js and
   * odds.js register their views after this file). */
  document.addEventListener('DOMContentLoaded', () => createRegula({ print: () => {}, printErr: () => {} }).then((m) => {
    page.lib = m;
    page.files = ruleFiles('rules');
    const h = readHash();
    for (const v of Object.values(page.views)) if (v.restore) v.restore(h);
    const ms = Math.round(performance.now());
    window.regulaReadyMs = ms;
    $('ready-time').textContent = `Ready in ${ms} ms.`;
    $('status').textContent = `Ready: ${page.files.length} rule files.`;
    const view = h.get('view') === 'playground' ? 'play' : h.get('view');
    const t = tabs.find((x) => x.id === 'tab-' + view) || tabs[0];
    selectTab(t, false);
    document.body.dataset.ready = '1';
    setTimeout(titleAll, 0);
  }, (err) => {
    $('status').textContent = `The library could not be loaded: ${err}`;
  }));
})();
