/*
 * odds.js: the Odds view.  A simulation of a rule set's procedure, with the
 * army inputs and who answers the choices (the rules' default strategy
 * first, as `regula sim` does), runs in a Web Worker (worker.js) with a
 * progress bar and a Cancel button; its tallies (the object `regula sim
 * --json` prints, from the library: a record's fields tallied one by one)
 * are drawn as bar charts, each bar with its 95% interval.  The fields of
 * a record result ("terrain.name", "terrain.sector", ...) share one chart
 * with a list to pick the field shown.
 */
'use strict';

(function () {
  const page = window.regulaPage;
  const $ = page.$;
  const MAX_BARS = 16;               /* a field with more values shows its commonest */

  let worker = null;
  let started = 0;

  /* Fills the procedure list of the chosen rule set (those without
   * parameters, from the library), selecting `chosen` or main. */
  function fillProcs(chosen) {
    const sel = $('odds-proc');
    const info = page.call('rgw_info', [$('odds-file').value]);
    sel.textContent = '';
    for (const p of info.procs) {
      const o = document.createElement('option');
      o.value = o.textContent = p;
      sel.appendChild(o);
    }
    sel.value = info.procs.includes(chosen) ? chosen : info.procs.includes('main') ? 'main' : info.procs[0] || '';
  }

  /* Shows whether a simulation is under way. */
  function busy(on) {
    $('odds-go').disabled = on;
    $('odds-cancel').disabled = !on;
  }

  /* Starts the simulation the form describes. */
  function start() {
    const path = $('odds-file').value, proc = $('odds-proc').value;
    const seed = $('odds-seed').value.trim(), runs = Number($('odds-runs').value.trim());
    const policy = $('odds-policy').value === page.info(path).default ? '' : $('odds-policy').value;
    const inputs = page.readInputs($('odds-inputs')).join('\n');
    stop();
    $('odds-error').hidden = true;
    $('odds-charts').textContent = '';
    $('odds-progress').value = 0;
    $('odds-status').textContent = `Simulating ${runs} runs of ${proc}…`;
    delete document.body.dataset.oddsDone;
    busy(true);
    started = performance.now();
    worker = new Worker('worker.js');
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'progress') {
        $('odds-progress').value = m.done / m.total;
        $('odds-status').textContent = `${m.done} of ${m.total} runs`;
      } else if (m.type === 'done') {
        finish(m.result, path);
      } else {
        fail(m.message);
      }
    };
    worker.onerror = (e) => fail(e.message || 'the worker failed');
    worker.postMessage({ path, proc, seed, runs, inputs, policy });
    page.writeHash();
  }

  /* Stops the worker (if any). */
  function stop() {
    if (worker) worker.terminate();
    worker = null;
    busy(false);
  }

  /* Shows what went wrong. */
  function fail(msg) {
    stop();
    $('odds-error').hidden = false;
    $('odds-error').textContent = msg;
    $('odds-status').textContent = 'The simulation failed.';
  }

  /* Shows a finished simulation. */
  function finish(r, path) {
    stop();
    window.regulaOdds = r;
    if (r.error) {
      $('odds-error').hidden = false;
      $('odds-error').textContent = r.error;
    }
    if (!r.tallies) {
      $('odds-status').textContent = 'The simulation could not start.';
      return;
    }
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    $('odds-status').textContent = `${r.runs} runs of ${r.procedure} in ${path}, seed ${r.seed} (${secs} s)`;
    $('odds-progress').value = 1;
    for (const g of groups(r.tallies)) $('odds-charts').appendChild(g.fields ? record(g, r.runs) : chart(g.tally, r.runs));
    document.body.dataset.oddsDone = '1';
  }

  /* Returns a percentage's text ("49.8%"). */
  function pct(x) {
    return `${(100 * x).toFixed(1)}%`;
  }

  /* Returns a table row holding the remark text across its columns. */
  function noteRow(text) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = 3;
    td.className = 'hint';
    td.textContent = text;
    tr.appendChild(td);
    return tr;
  }

  /* Groups the tallies: a field of its own ({tally}), or the columns of a
   * record result, "NAME (items)" and "NAME.FIELD" ({name, fields}), in
   * the order the library gives them. */
  function groups(tallies) {
    const out = [], byName = new Map();
    for (const t of tallies) {
      const m = /^(.*?)(?: \(items\)|\.(.+))$/.exec(t.name);
      if (!m) {
        out.push({ tally: t });
        continue;
      }
      if (!byName.has(m[1])) {
        const g = { name: m[1], fields: [] };
        byName.set(m[1], g);
        out.push(g);
      }
      byName.get(m[1]).fields.push({ label: m[2] || 'how many items', tally: t });
    }
    return out;
  }

  /* Returns a record result's chart: a list of its fields and the chart of
   * the one picked (the first at first). */
  function record(g, runs) {
    const box = document.createElement('div');
    const head = document.createElement('div');
    const label = document.createElement('label');
    const sel = document.createElement('select');
    const id = 'odds-field-' + g.name.replace(/[^A-Za-z0-9_-]/g, '_');
    box.className = 'record-chart';
    box.dataset.record = g.name;
    head.className = 'record-head';
    label.htmlFor = id;
    label.textContent = g.name.replace(/_/g, ' ') + ': field';
    sel.id = id;
    g.fields.forEach((f, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = f.label.replace(/_/g, ' ');
      sel.appendChild(o);
    });
    head.append(label, sel);
    box.appendChild(head);
    let shown = chart(g.fields[0].tally, runs, g.fields[0].label);
    box.appendChild(shown);
    sel.addEventListener('change', () => {
      const f = g.fields[Number(sel.value)];
      const next = chart(f.tally, runs, f.label);
      shown.replaceWith(next);
      shown = next;
    });
    return box;
  }

  /* Returns a table drawing tally t as bars with their intervals (its
   * caption: title, else the tally's name). */
  function chart(t, runs, title) {
    const table = document.createElement('table');
    const cap = document.createElement('caption');
    table.className = 'dist';
    table.dataset.tally = t.name;
    cap.textContent = (title || t.name).replace(/_/g, ' ');
    if (t.of_items) cap.append(' ', Object.assign(document.createElement('span'), { className: 'hint', textContent: '(share of runs with an item of this value)' }));
    table.appendChild(cap);
    let values = t.values;
    if (!t.tallied) {
      table.appendChild(noteRow('too many distinct values: not tallied'));
      return table;
    }
    if (values.length > MAX_BARS) {
      const top = new Set([...values].sort((a, b) => b.count - a.count).slice(0, MAX_BARS));
      values = values.filter((v) => top.has(v));
    }
    for (const v of values) {
      const tr = document.createElement('tr');
      const name = document.createElement('th');
      const bar = document.createElement('td');
      const num = document.createElement('td');
      name.scope = 'row';
      name.textContent = v.text;
      bar.className = 'bar';
      bar.setAttribute('aria-hidden', 'true');
      bar.innerHTML = '<div class="track"><div class="fill"></div><div class="ci"></div></div>';
      bar.querySelector('.fill').style.width = pct(v.share);
      bar.querySelector('.ci').style.left = pct(v.low);
      bar.querySelector('.ci').style.width = pct(v.high - v.low);
      num.className = 'num';
      num.textContent = `${pct(v.share)} (${pct(v.low)}–${pct(v.high)})`;
      num.title = `${v.count} of ${runs} runs; 95% interval ${pct(v.low)} to ${pct(v.high)}`;
      tr.append(name, bar, num);
      table.appendChild(tr);
    }
    if (values.length < t.values.length) table.appendChild(noteRow(`and ${t.values.length - values.length} rarer values`));
    return table;
  }

  $('odds-form').addEventListener('submit', (e) => {
    e.preventDefault();
    for (const id of ['odds-runs', 'odds-seed']) {
      if (!$(id).checkValidity() || Number($(id).value) < (id === 'odds-runs' ? 1 : 0)) {
        $(id).reportValidity();
        return;
      }
    }
    start();
  });
  $('odds-cancel').addEventListener('click', () => {
    const done = Math.round($('odds-progress').value * Number($('odds-runs').value));
    stop();
    $('odds-status').textContent = `Cancelled after about ${done} runs.`;
    document.body.dataset.oddsCancelled = '1';
  });
  $('odds-file').addEventListener('change', () => {
    fillProcs('main');
    page.fillPolicies($('odds-policy'), $('odds-file').value, '');
    page.buildInputs($('odds-inputs'), $('odds-file').value, new Map(), 'odds-in');
    page.writeHash();
  });

  page.views.odds = {
    hash(p) {
      p.set('file', $('odds-file').value);
      p.set('proc', $('odds-proc').value);
      p.set('runs', $('odds-runs').value);
      p.set('seed', $('odds-seed').value);
      p.set('policy', $('odds-policy').value);
      const inputs = page.readInputs($('odds-inputs'));
      if (inputs.length) p.set('inputs', inputs.join('\n'));
    },
    restore(h) {
      const mine = h.get('view') === 'odds';
      page.fillFiles($('odds-file'), (mine && h.get('file')) || 'rules/meg/maximus.rules');
      if (mine) fillProcs(h.get('proc'));
      if (mine && /^[0-9]+$/.test(h.get('runs') || '')) $('odds-runs').value = h.get('runs');
      if (mine && /^[0-9]+$/.test(h.get('seed') || '')) $('odds-seed').value = h.get('seed');
      page.fillPolicies($('odds-policy'), $('odds-file').value, mine ? h.get('policy') : '');
      page.buildInputs($('odds-inputs'), $('odds-file').value, page.inputValues(mine ? h.get('inputs') : ''), 'odds-in');
      $('odds-file').disabled = false;
      busy(false);
    },
    shown() { if (!$('odds-proc').options.length) fillProcs('main'); },
  };
})();
