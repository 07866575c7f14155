/*
 * table.js: table mode.  Choose a rule set, fill in the army inputs, then
 * play: a button per option, dice and cards rolled by the page or read
 * from the real ones, undo, ending on the result card and the pictures.
 *
 * The game is its rule set, seed, inputs and answers, and nothing else: each
 * step replays the game from its start in the library (web/glue.c
 * rgw_play), which stops at the first question without an answer and says
 * who is asked what.  So undo drops the last answer, the URL holds the
 * whole game, and the answers, one a line, are what `regula run --policy
 * ask` (with --dice ask for real dice) reads to play the same game.
 */
'use strict';

(function () {
  const page = window.regulaPage;
  const $ = page.$;

  const game = {
    on: false,                       /* playing (else: setting up) */
    file: '',
    seed: '',
    dice: '0',                       /* '1': dice and cards from the real ones */
    inputs: [],                      /* "NAME=VALUE", the ones filled in */
    answers: [],                     /* one per question answered, in order */
    open: 0,                         /* how many answers the URL may hold: not
                                      * a secret answer whose moment is still
                                      * held back (the URL is on the screen) */
    shown: -1,                       /* the secret question (by answers so far)
                                      * whose player asked to see it */
  };
  let pictureUrls = [];

  /* A seed for a new game: a whole number from the browser's generator. */
  function freshSeed() {
    const a = new Uint32Array(1);
    crypto.getRandomValues(a);
    return String(a[0] % 1000000);
  }

  /* Builds the input fields of the chosen rule set (names and types from
   * the library), keeping the values in `values` (name -> text). */
  function buildInputs(values) {
    const box = $('table-inputs');
    const info = page.call('rgw_inputs', [$('table-file').value]);
    box.textContent = '';
    for (const inp of info.inputs) {
      /* an input per member (`rating[A]`) gets the id in-rating-A */
      const id = 'in-' + inp.name.replace(/\[(.*)\]$/, '-$1');
      const wrap = document.createElement('div');
      const label = document.createElement('label');
      const field = document.createElement('input');
      wrap.className = 'field';
      label.htmlFor = id;
      label.innerHTML = '';
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
      wrap.append(label, field);
      /* an enum's members (from the library) as suggestions; a set's as a hint */
      const set = /^set (.*)$/.exec(inp.type);
      const members = info.enums[set ? set[1] : inp.type];
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
        field.placeholder = members.slice(0, 2).map((m) => m.code).join(',');
        field.setAttribute('aria-describedby', note.id);
        wrap.appendChild(note);
      }
      box.appendChild(wrap);
    }
    if (!info.inputs.length) box.textContent = 'This rule set has no inputs.';
  }

  /* Reads the filled-in inputs as NAME=VALUE lines. */
  function readInputs() {
    const out = [];
    for (const f of $('table-inputs').querySelectorAll('input')) {
      const v = f.value.trim();
      if (v !== '') out.push(`${f.name}=${v}`);
    }
    return out;
  }

  /* Replays the game with answers[0..n) (the library's rgw_play). */
  function replay(n) {
    return page.call('rgw_play', [game.file, game.seed, game.inputs.join('\n'),
      game.answers.slice(0, n).join('\n'), Number(game.dice)]);
  }

  /* Returns what the log says since the last answer: the log of the game
   * one answer shorter is the start of this one's. */
  function sinceLastAnswer(out) {
    if (game.answers.length === 0) return out;
    const before = replay(game.answers.length - 1).out;
    return out.startsWith(before) ? out.slice(before.length) : '';
  }

  /* Replays the game and shows where it stands. */
  function step() {
    const r = replay(game.answers.length);
    const ask = r.ask;
    const err = $('table-error');
    $('table-setup').hidden = true;
    $('table-game').hidden = false;
    $('table-title').textContent = `${page.titleOf(game.file) || game.file}, seed ${game.seed}`;
    $('table-undo').disabled = game.answers.length === 0;
    $('table-log').textContent = r.out;
    $('table-log').scrollTop = $('table-log').scrollHeight;

    game.open = r.held ? Math.min(game.open, game.answers.length) : game.answers.length;
    const recent = sinceLastAnswer(r.out).replace(/^\n+|\n+$/g, '');
    $('table-recent').textContent = recent;
    $('table-recent-box').hidden = recent === '';
    /* A secret question ("simultaneously play a card each"): the device
     * goes to its player first, and nothing of the moment's answers shows
     * (the log is held back by the library; the answers list is hidden). */
    const pass = !!(ask && ask.secret && game.shown !== game.answers.length);
    $('table-pass').hidden = !pass;
    if (pass) {
      $('table-pass-who').textContent = `Pass the device to ${ask.who || 'the next player'}`;
      $('table-pass-text').textContent =
        `${ask.who || 'This player'} answers in secret (${ask.prompt}): the others look away.`;
      $('table-pass-go').textContent = `I am ${ask.who || 'the player'}: show my options`;
    }
    $('table-cli-box').hidden = !!(r.held || (ask && ask.secret));
    $('table-ask').hidden = !ask || pass;
    if (ask) {
      $('table-who').textContent = ask.dice ? (game.dice === '1' ? 'Read the real dice' : '') : ask.who;
      $('table-who').hidden = $('table-who').textContent === '';
      $('table-prompt').textContent = ask.prompt;
      const opts = $('table-options');
      opts.textContent = '';
      ask.options.forEach((o, i) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'option';
        b.textContent = o;
        b.dataset.index = String(i);
        b.addEventListener('click', () => answer(o));
        opts.appendChild(b);
      });
    }
    const failed = !ask && r.exit !== 0 && r.exit !== 1;
    err.hidden = !failed;
    err.textContent = failed ? r.err + `(the run stopped with exit code ${r.exit})` : '';

    const done = !ask && !failed;
    $('table-end').hidden = !done;
    for (const u of pictureUrls) URL.revokeObjectURL(u);
    pictureUrls = [];
    $('table-pictures').textContent = '';
    if (done) {
      const res = page.result(r.out);
      $('table-end-title').textContent = res ? res.title : 'Result';
      $('table-summary').textContent = res ? res.text : '';
      for (const p of r.pictures) {
        const fig = document.createElement('figure');
        const img = document.createElement('img');
        const cap = document.createElement('figcaption');
        const url = URL.createObjectURL(new Blob([p.svg], { type: 'image/svg+xml' }));
        pictureUrls.push(url);
        img.src = url;
        img.alt = `the ${p.name} picture of the game`;
        img.dataset.name = p.name;
        cap.textContent = p.name;
        fig.append(img, cap);
        $('table-pictures').appendChild(fig);
      }
    }
    showCli();
    $('table-game').dataset.answers = String(game.answers.length);
    $('table-game').dataset.state = ask ? 'asking' : failed ? 'failed' : 'done';
    page.writeHash();
  }

  /* Shows the command that plays the same game in the regula program. */
  function showCli() {
    const sets = game.inputs.map((s) => ` --set '${s.replace(/'/g, "'\\''")}'`).join('');
    $('table-cli').textContent =
      `regula run ${game.file} --seed ${game.seed}${sets} --policy ask` +
      `${game.dice === '1' ? ' --dice ask' : ''} < answers.txt\n\n# answers.txt\n` +
      game.answers.map((a) => a + '\n').join('');
  }

  /* Answers the question with option text o. */
  function answer(o) {
    game.answers.push(o);
    step();
    const first = $('table-options').querySelector('button');
    if (first) first.focus();
  }

  /* Starts the game set up in the form. */
  function start() {
    game.file = $('table-file').value;
    game.seed = $('table-seed').value.trim();
    game.dice = $('table-dice').value;
    game.inputs = readInputs();
    game.answers = [];
    game.on = true;
    step();
  }

  /* Back to the setup, keeping the rule set and inputs. */
  function setup() {
    game.on = false;
    $('table-setup').hidden = false;
    $('table-game').hidden = true;
    $('table-seed').value = freshSeed();
    page.writeHash();
  }

  $('table-setup').addEventListener('submit', (e) => {
    e.preventDefault();
    if (!$('table-seed').checkValidity()) {
      $('table-seed').reportValidity();
      return;
    }
    start();
  });
  $('table-file').addEventListener('change', () => {
    buildInputs(new Map());
    page.writeHash();
  });
  $('table-undo').addEventListener('click', () => {
    game.answers.pop();
    step();
  });
  $('table-new').addEventListener('click', setup);
  $('table-pass-go').addEventListener('click', () => {
    game.shown = game.answers.length;
    step();
    const first = $('table-options').querySelector('button');
    if (first) first.focus();
  });

  page.views.table = {
    hash(p) {
      p.set('file', game.on ? game.file : $('table-file').value);
      p.set('seed', game.on ? game.seed : $('table-seed').value);
      p.set('dice', game.on ? game.dice : $('table-dice').value);
      const inputs = game.on ? game.inputs : readInputs();
      if (inputs.length) p.set('inputs', inputs.join('\n'));
      if (game.on) p.set('answers', game.answers.slice(0, game.open).join('\n'));
    },
    restore(h) {
      const fromUrl = h.get('view') === 'table' || !h.get('view');
      page.fillFiles($('table-file'), (fromUrl && h.get('file')) || 'rules/meg/maximus.rules');
      const seed = fromUrl ? h.get('seed') || '' : '';
      $('table-seed').value = /^[0-9]+$/.test(seed) ? seed : freshSeed();
      if (fromUrl && (h.get('dice') === '0' || h.get('dice') === '1')) $('table-dice').value = h.get('dice');
      const values = new Map();
      for (const line of (fromUrl && h.get('inputs') || '').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) values.set(line.slice(0, eq), line.slice(eq + 1));
      }
      buildInputs(values);
      $('table-file').disabled = false;
      $('table-start').disabled = false;
      if (fromUrl && h.has('answers')) {
        game.file = $('table-file').value;
        game.seed = $('table-seed').value;
        game.dice = $('table-dice').value;
        game.inputs = readInputs();
        game.answers = h.get('answers') === '' ? [] : h.get('answers').split('\n');
        game.on = true;
        step();
      }
    },
  };
})();
