/*
 * table.js: table mode.  Choose a rule set, fill in the army inputs, then
 * play: a button per option, dice and cards rolled by the page or read
 * from the real ones (a picker per die; a whole hand typed at once), undo,
 * ending on the result card and the pictures.
 *
 * The game is its rule set, seed, inputs and answers, and nothing else: each
 * step replays the game from its start in the library (web/glue.c
 * rgw_play, the library's rg_game, as `regula run` plays it at a
 * terminal), which stops at the first question without an answer and says
 * who is asked what.  So undo drops the last answer (or hand), the URL
 * holds the whole game, and the answers, one a line, are what `regula run
 * --policy ask` (with --dice ask for real dice) reads to play the same game.
 *
 * A secret: while a player answers in secret (a hand drawn, a card
 * played), the page first asks to pass the device and shows nothing but
 * what everyone may see (the library's public view of the game:
 * rg_game_public); the player's options are put on the page only after
 * "I am PLAYER", and the URL and the program's command hold no answer
 * from the first secret one on (a card drawn in secret is never shown by
 * the log): the whole game is kept in this browser's storage, so that the
 * URL reopens it here, and elsewhere reopens it up to its first secret.
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
    groups: [],                      /* how many answers each reply gave (a
                                      * hand: several); undo takes one group */
    secret: [],                      /* per group: was it a secret answer */
    open: 0,                         /* how many answers the URL (on the screen)
                                      * and the program's command show: those
                                      * before the first secret answer (the
                                      * rest stays on this device, in
                                      * localStorage, until asked for) */
    all: false,                      /* the players asked to see every answer */
    shown: -1,                       /* the secret question (by answers so far)
                                      * whose player asked to see it */
    ask: null,                       /* the question asked now, or null */
    picks: [],                       /* the dice picked so far (several dice) */
  };
  let pictureUrls = [];

  /* A seed for a new game: a whole number from the browser's generator. */
  function freshSeed() {
    const a = new Uint32Array(1);
    crypto.getRandomValues(a);
    return String(a[0] % 1000000);
  }

  /* Builds the input fields of the chosen rule set, keeping `values`. */
  function buildInputs(values) {
    page.buildInputs($('table-inputs'), $('table-file').value, values, 'in');
  }

  /* The library's arguments for the game with answers[0..n). */
  function args(n) {
    return [game.file, game.seed, game.inputs.join('\n'), game.answers.slice(0, n).join('\n'),
      Number(game.dice)];
  }

  /* Replays the game with answers[0..n) (the library's rgw_play). */
  function replay(n) {
    return page.call('rgw_play', args(n));
  }

  /* Returns what the log says since the last reply: the log of the game
   * one reply shorter is the start of this one's. */
  function sinceLastAnswer(out) {
    if (game.answers.length === 0) return out;
    const last = game.groups.length ? game.groups[game.groups.length - 1] : 1;
    const before = replay(game.answers.length - last).out;
    return out.startsWith(before) ? out.slice(before.length) : '';
  }

  /* Returns a button of class cls with text (and a remark in brackets). */
  function button(text, remark, cls) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = cls;
    b.textContent = text;
    if (remark) {
      const r = document.createElement('span');
      r.className = 'remark';
      r.textContent = ` (${remark})`;
      b.appendChild(r);
    }
    return b;
  }

  /* Shows the options of question ask: yes and no; a picker per die when
   * several dice are read at once (their faces each); else a button per
   * option with its remark.  A hand may also be typed at once. */
  function showOptions(ask) {
    const opts = $('table-options');
    const pick = $('table-dice-pick');
    opts.textContent = '';
    pick.textContent = '';
    pick.hidden = true;
    game.picks = [];
    if (ask.yesno) {
      /* the options are false, true: asked as the sheet asks, yes or no */
      for (const [i, word] of [[1, 'yes'], [0, 'no']]) {
        const b = button(word, '', 'option');
        b.dataset.index = String(i);
        b.dataset.answer = word;
        b.addEventListener('click', () => reply([word]));
        opts.appendChild(b);
      }
    } else if (ask.range && ask.dice > 1) {
      pick.hidden = false;
      for (let d = 0; d < ask.dice; d++) {
        const row = document.createElement('div');
        row.className = 'die';
        row.setAttribute('role', 'group');
        row.setAttribute('aria-label', `die ${d + 1} of ${ask.dice}`);
        const name = document.createElement('span');
        name.className = 'die-name';
        name.textContent = `die ${d + 1}`;
        row.appendChild(name);
        for (let f = 0; f < ask.sides; f++) {
          const v = ask.lo + f;
          const b = button(String(v), '', 'face');
          b.dataset.die = String(d);
          b.dataset.face = String(v);
          b.setAttribute('aria-pressed', 'false');
          b.addEventListener('click', () => {
            game.picks[d] = v;
            for (const x of row.querySelectorAll('.face')) x.setAttribute('aria-pressed', x === b ? 'true' : 'false');
            const all = game.picks.filter((p) => p !== undefined).length === ask.dice;
            go.disabled = !all;
            go.textContent = all ? `Enter ${game.picks.join(' and ')}` : 'Enter';
          });
          row.appendChild(b);
        }
        pick.appendChild(row);
      }
      const go = button('Enter', '', 'option enter');
      go.id = 'table-dice-go';
      go.disabled = true;
      go.addEventListener('click', () => reply([game.picks.join(' ')]));
      pick.appendChild(go);
    } else {
      /* a name given twice (or a number) is answered by its place */
      const seen = new Map();
      for (const o of ask.options) seen.set(o, (seen.get(o) || 0) + 1);
      ask.options.forEach((o, i) => {
        const b = button(o === '' ? String(i + 1) : o, ask.remarks[i], 'option');
        b.dataset.index = String(i);
        const a = seen.get(o) > 1 && !ask.numeric ? String(i + 1) : o;
        b.dataset.answer = a;
        b.addEventListener('click', () => reply([a]));
        opts.appendChild(b);
      });
    }
    const typed = ask.hand > 1;
    $('table-type').hidden = !typed;
    $('table-line').value = '';
    if (typed) {
      // the examples are the library's, from the rules' own cards
      $('table-line-label').textContent = `The whole hand at once (${ask.hand} cards: "${ask.counted}", or "${ask.listed}"), or one card by its button`;
      $('table-line').placeholder = `e.g. ${ask.counted}`;
    }
  }

  /* Replays the game and shows where it stands. */
  function step() {
    const r = replay(game.answers.length);
    const ask = r.ask;
    const err = $('table-error');
    game.ask = ask;
    $('table-setup').hidden = true;
    $('table-game').hidden = false;
    $('table-title').textContent = `${page.titleOf(game.file) || game.file}, seed ${game.seed}`;
    $('table-undo').disabled = game.answers.length === 0;
    $('table-log').textContent = r.out;
    $('table-log').scrollTop = $('table-log').scrollHeight;

    game.open = openAnswers();
    store();
    const recent = sinceLastAnswer(r.out).replace(/^\n+|\n+$/g, '');
    $('table-recent').textContent = recent;
    $('table-recent-box').hidden = recent === '';
    /* the end of what happened (the reroll that decided who is asked) */
    $('table-recent').scrollTop = $('table-recent').scrollHeight;

    /* Who answered in secret last (everyone may know that much). */
    const lastSecret = game.secret.length && game.secret[game.secret.length - 1];
    $('table-note').hidden = !lastSecret || !ask;
    $('table-note').textContent = lastSecret ? `(${lastSecret} has answered in secret)` : '';

    /* A secret question ("simultaneously play a card each", a hand drawn):
     * the device goes to its player first, and nothing of the moment's
     * answers shows (the log is held back by the library; the options are
     * not on the page until the player asks for them). */
    const pass = !!(ask && ask.secret && game.shown !== game.answers.length);
    $('table-pass').hidden = !pass;
    if (pass) {
      const who = ask.who || 'the player who answers';
      $('table-pass-who').textContent = `Pass the device to ${who}`;
      $('table-pass-text').textContent =
        `${who[0].toUpperCase() + who.slice(1)} answers in secret (${ask.prompt}): the others look away.`;
      $('table-pass-go').textContent = `I am ${who}: show my options`;
    }
    $('table-cli-box').hidden = !!(r.held || (ask && ask.secret));
    $('table-ask').hidden = !ask || pass;
    $('table-why').hidden = true;
    $('table-why').textContent = '';
    $('table-help-text').hidden = true;
    $('table-help-text').textContent = '';
    if (ask && !pass) {
      $('table-who').textContent = ask.who;
      $('table-who').hidden = !ask.who;
      $('table-prompt').textContent = ask.prompt;
      showOptions(ask);
    } else {
      $('table-who').textContent = '';
      $('table-prompt').textContent = '';
      $('table-options').textContent = '';
      $('table-dice-pick').textContent = '';
      $('table-type').hidden = true;
    }
    const failed = !ask && r.exit !== 0 && r.exit !== 1;
    err.hidden = !failed;
    err.textContent = failed ? r.err + `(the run stopped with exit code ${r.exit})` : '';

    const done = !ask && !failed;
    $('table-end').hidden = !done;
    for (const u of pictureUrls) URL.revokeObjectURL(u);
    pictureUrls = [];
    $('table-pictures').textContent = '';
    /* nothing of an earlier game's end stays in the page, even hidden */
    $('table-end-title').textContent = 'Result';
    $('table-summary').textContent = '';
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
    $('table-game').dataset.state = ask ? (pass ? 'passing' : 'asking') : failed ? 'failed' : 'done';
    page.writeHash();
  }

  /* Returns how many answers come before the first secret one. */
  function openAnswers() {
    let n = 0;
    for (let i = 0; i < game.groups.length && !game.secret[i]; i++) n += game.groups[i];
    return Math.min(n, game.answers.length);
  }

  /* The key of the game in this browser's storage: all but its answers. */
  function storeKey() {
    return `regula-table:${game.file}|${game.seed}|${game.dice}|${game.inputs.join(';')}`;
  }

  /* Keeps the whole game (answers, replies, which were secret) in this
   * browser's storage (not on the screen), for the URL to reopen it here. */
  function store() {
    try {
      localStorage.setItem(storeKey(), JSON.stringify({ answers: game.answers, groups: game.groups, secret: game.secret }));
    } catch (e) { /* no storage: the URL alone */ }
  }

  /* Returns the stored game whose answers start with `answers`, or null. */
  function stored(answers) {
    try {
      const g = JSON.parse(localStorage.getItem(storeKey()) || 'null');
      if (!g || !Array.isArray(g.answers) || !Array.isArray(g.groups) || !Array.isArray(g.secret)) return null;
      if (g.groups.reduce((a, b) => a + b, 0) !== g.answers.length || g.secret.length !== g.groups.length) return null;
      return answers.every((a, i) => g.answers[i] === a) ? g : null;
    } catch (e) {
      return null;
    }
  }

  /* Shows the command that plays the same game in the regula program, with
   * the answers the URL holds (none from the first secret one on, unless
   * the players asked to see them all). */
  function showCli() {
    const sets = game.inputs.map((s) => ` --set '${s.replace(/'/g, "'\\''")}'`).join('');
    const shown = game.all ? game.answers.length : game.open;
    const held = game.answers.length - shown;
    $('table-cli').textContent =
      `regula run ${game.file} --seed ${game.seed}${sets} --policy ask` +
      `${game.dice === '1' ? ' --dice ask' : ''} < answers.txt\n\n# answers.txt\n` +
      game.answers.slice(0, shown).map((a) => a + '\n').join('') +
      (held ? `# (and ${held} more from the first secret answer on: not shown)\n` : '');
    $('table-cli-all').hidden = held === 0;
  }

  /* Adds the answers of one reply (a hand: several) and plays on. */
  function reply(added) {
    game.all = false;
    const ask = game.ask;
    game.answers.push(...added);
    game.groups.push(added.length);
    game.secret.push(ask && ask.secret ? ask.who || 'the player' : '');
    step();
    const first = $('table-game').querySelector('#table-options button, #table-dice-pick button, #table-pass-go');
    if (first && !first.closest('[hidden]')) first.focus();
  }

  /* Hands a typed line to the library as the terminal would (a whole
   * hand, a card's name); shows why when it is refused. */
  function typed(line) {
    const r = page.call('rgw_reply', [...args(game.answers.length), line]);
    if (r.reply === 'answer' && r.added.length) {
      reply(r.added);
    } else {
      $('table-why').hidden = false;
      $('table-why').textContent = r.why || 'that is not an answer here';
    }
  }

  /* Takes the last reply back (a hand typed at once: all of it). */
  function undo() {
    game.all = false;
    const n = game.groups.length ? game.groups.pop() : 1;
    game.secret.pop();
    game.answers.splice(game.answers.length - n, n);
    step();
  }

  /* Starts the game set up in the form. */
  function start() {
    game.file = $('table-file').value;
    game.seed = $('table-seed').value.trim();
    game.dice = $('table-dice').value;
    game.inputs = page.readInputs($('table-inputs'));
    game.answers = [];
    game.groups = [];
    game.secret = [];
    game.open = 0;
    game.shown = -1;
    game.all = false;
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
  $('table-undo').addEventListener('click', undo);
  $('table-new').addEventListener('click', setup);
  $('table-pass-go').addEventListener('click', () => {
    game.shown = game.answers.length;
    step();
    const first = $('table-game').querySelector('#table-options button, #table-dice-pick button');
    if (first) first.focus();
  });
  $('table-type').addEventListener('submit', (e) => {
    e.preventDefault();
    const line = $('table-line').value.trim();
    if (line) typed(line);
  });
  $('table-cli-all').addEventListener('click', () => {
    game.all = true;
    showCli();
  });
  $('table-help').addEventListener('click', () => {
    const r = page.call('rgw_reply', [...args(game.answers.length), '?']);
    $('table-help-text').hidden = false;
    $('table-help-text').textContent = r.why;
  });

  page.views.table = {
    hash(p) {
      p.set('file', game.on ? game.file : $('table-file').value);
      p.set('seed', game.on ? game.seed : $('table-seed').value);
      p.set('dice', game.on ? game.dice : $('table-dice').value);
      const inputs = game.on ? game.inputs : page.readInputs($('table-inputs'));
      if (inputs.length) p.set('inputs', inputs.join('\n'));
      if (game.on) p.set('answers', game.answers.slice(0, game.open).join('\n'));
    },
    restore(h) {
      const fromUrl = h.get('view') === 'table' || !h.get('view');
      page.fillFiles($('table-file'), (fromUrl && h.get('file')) || 'rules/meg/maximus.rules');
      const seed = fromUrl ? h.get('seed') || '' : '';
      $('table-seed').value = /^[0-9]+$/.test(seed) ? seed : freshSeed();
      if (fromUrl && (h.get('dice') === '0' || h.get('dice') === '1')) $('table-dice').value = h.get('dice');
      buildInputs(page.inputValues(fromUrl ? h.get('inputs') : ''));
      $('table-file').disabled = false;
      $('table-start').disabled = false;
      if (fromUrl && h.has('answers')) {
        game.file = $('table-file').value;
        game.seed = $('table-seed').value;
        game.dice = $('table-dice').value;
        game.inputs = page.readInputs($('table-inputs'));
        game.answers = h.get('answers') === '' ? [] : h.get('answers').split('\n');
        game.groups = game.answers.map(() => 1);
        game.secret = game.answers.map(() => '');
        /* the rest of the game, when this browser kept it */
        const g = stored(game.answers);
        if (g) {
          game.answers = g.answers;
          game.groups = g.groups;
          game.secret = g.secret;
        }
        game.shown = -1;
        game.all = false;
        game.on = true;
        step();
      }
    },
  };
})();
