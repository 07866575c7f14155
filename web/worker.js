/*
 * worker.js: the Odds view's simulation, in a Web Worker so the page stays
 * responsive and can stop it (it terminates the worker).  It loads its own
 * copy of the library (regula.js) and runs the simulation a slice at a
 * time through web/glue.c (rgw_sims_*), posting progress after each slice:
 * run i depends only on the seed and i, so the tallies are those of
 * `regula sim --runs N --seed S --json` whatever the slices.
 *
 * in:  { path, proc, seed, runs, inputs, policy } (inputs: NAME=VALUE a
 *      line; policy: '' for the rules' default, random, first or a strategy)
 * out: { type: 'progress', done, total }, then
 *      { type: 'done', result } (result: the JSON object of `regula sim
 *      --json`, plus "error": null or the first failed run) or
 *      { type: 'error', message }
 */
'use strict';
importScripts('regula.js');

const SLICE_MS = 100;                /* about this long between progress reports */
const ready = createRegula({ print: () => {}, printErr: () => {} });

/* Returns the JSON text at ptr parsed, and frees it. */
function take(lib, ptr) {
  if (!ptr) throw new Error('the library ran out of memory');
  try {
    return JSON.parse(lib.UTF8ToString(ptr));
  } finally {
    lib.ccall('rgw_free', null, ['number'], [ptr]);
  }
}

onmessage = async (e) => {
  const { path, proc, seed, runs, inputs, policy } = e.data;
  let lib;
  try {
    lib = await ready;
  } catch (err) {
    postMessage({ type: 'error', message: `the library could not be loaded: ${err}` });
    return;
  }
  const h = lib.ccall('rgw_sims_new', 'number', ['string', 'string', 'string', 'string', 'string'],
    [path, proc, seed, inputs || '', policy || '']);
  try {
    let done = 0, slice = 64, ok = true;
    while (ok && done < runs) {
      const n = Math.min(slice, runs - done);
      const t0 = performance.now();
      ok = lib.ccall('rgw_sims_run', 'number', ['number', 'number'], [h, n]) === 0;
      const ms = performance.now() - t0;
      if (ok) done += n;
      postMessage({ type: 'progress', done, total: runs });
      /* aim each slice at SLICE_MS */
      slice = Math.max(1, Math.min(100000, Math.round(n * SLICE_MS / Math.max(ms, 1))));
    }
    const result = take(lib, lib.ccall('rgw_sims_json', 'number', ['number'], [h]));
    postMessage({ type: 'done', result });
  } catch (err) {
    postMessage({ type: 'error', message: String(err) });
  } finally {
    lib.ccall('rgw_sims_free', null, ['number'], [h]);
  }
};
