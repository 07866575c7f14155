/*
** api_variants.c: the results of several runs side by side, as `regula
** run --variants` prints them (regula.h: rg_runs_side_by_side): a row per
** field of the result records (matched by name), a column per run, a
** mark on the rows whose values differ; or the --json lines.
*/
#include "regula_front.h"
#include "api_int.h"
#include "diag.h"
#include "json.h"
#include "value.h"

#include <stdio.h>
#include <string.h>

#define WIDE 30             /* a value wider than this gets lines of its own */
#define MAX_FIELDS 256      /* the rows shown at most */
#define VALUE_MAX 8192      /* a value's text, cut beyond */


/* Formats field `field` of run's result (its whole result when field is
** NULL) into buf; "-" when the result has no such field. */
static const char *field_text(const rg_run *run, const char *field, char *buf, size_t size) {
  const rgi_module *m = &run->r->m;
  rgi_type t = run->rtype;
  uint32_t nheap;
  const rgi_value *heap = rgi_vm_heap(run->vm, &nheap);
  if (!field) return rgi_value_format(buf, size, m, heap, nheap, t, run->result);
  if (t.kind == RG_K_RECORD && t.ref < m->nrecords) {
    const rgi_record *rec = &m->records[t.ref];
    for (uint32_t k = 0; k < rec->count; k++)
      if (strcmp(rgi_module_str(m, m->fields[rec->first + k].name), field) == 0) {
        if (run->result < 0 || (uint64_t)run->result + rec->count > nheap) break;
        return rgi_value_format(buf, size, m, heap, nheap, m->fields[rec->first + k].type,
                               heap[run->result + k]);
      }
  }
  snprintf(buf, size, "-");
  return buf;
}

/* The text table. */
static rg_status write_text(const rg_run *const *runs, const char *const *names, int n,
                            uint64_t seed, const char *policy, rg_out *out) {
  const char *fields[MAX_FIELDS];
  int nfields = 0;
  size_t namew = 5, *colw = rg_malloc((size_t)n * sizeof *colw);
  char buf[VALUE_MAX], first[VALUE_MAX];
  if (!colw) return RG_NOMEM;
  for (int i = 0; i < n; i++) {
    const rgi_module *m = &runs[i]->r->m;
    rgi_type t = runs[i]->rtype;
    if (t.kind != RG_K_RECORD || t.ref >= m->nrecords) continue;
    for (uint32_t k = 0; k < m->records[t.ref].count && nfields < MAX_FIELDS; k++) {
      const char *f = rgi_module_str(m, m->fields[m->records[t.ref].first + k].name);
      int seen = 0;
      for (int j = 0; j < nfields; j++) seen |= strcmp(fields[j], f) == 0;
      if (!seen) fields[nfields++] = f;
    }
  }
  /* a result that is no record (all, or some beside records): a row of
  ** its own, "result", with the whole value */
  int plain = 0;
  for (int i = 0; i < n; i++) {
    const rgi_module *m = &runs[i]->r->m;
    plain |= runs[i]->rtype.kind != RG_K_RECORD || runs[i]->rtype.ref >= m->nrecords;
  }
  if ((plain || !nfields) && nfields < MAX_FIELDS) fields[nfields++] = NULL;
  for (int j = 0; j < nfields; j++) {
    size_t w = rgi_text_width(fields[j] ? fields[j] : "result");
    if (w > namew) namew = w;
  }
  for (int i = 0; i < n; i++) {
    colw[i] = rgi_text_width(names[i]);
    for (int j = 0; j < nfields; j++) {
      size_t w = rgi_text_width(field_text(runs[i], fields[j], buf, sizeof buf));
      if (w <= WIDE && w > colw[i]) colw[i] = w;
    }
  }
  rg_printf(out, "run %s of %d variants: seed %llu, policy %s, common random numbers by step"
                 "; * marks the rows that differ\n\n",
            rgi_module_str(&runs[0]->r->m, runs[0]->r->m.procs[runs[0]->proc].name), n,
            (unsigned long long)seed, policy);
  rgi_put_cell(out, "", namew + 2, 0);
  for (int i = 0; i < n; i++) {
    rg_puts(out, "  ");
    if (i == n - 1) rg_puts(out, names[i]);     /* no spaces end a line */
    else rgi_put_cell(out, names[i], colw[i], 0);
  }
  rg_putc(out, '\n');
  for (int j = 0; j < nfields; j++) {
    int wide = 0, same = 1;
    for (int i = 0; i < n; i++)
      wide |= rgi_text_width(field_text(runs[i], fields[j], buf, sizeof buf)) > WIDE;
    field_text(runs[0], fields[j], first, sizeof first);
    for (int i = 1; i < n; i++)
      same &= strcmp(first, field_text(runs[i], fields[j], buf, sizeof buf)) == 0;
    rg_puts(out, same ? "  " : "* ");
    if (wide) {                               /* the values on lines of their own */
      rg_puts(out, fields[j] ? fields[j] : "result");
      rg_putc(out, '\n');
      if (same) rg_printf(out, "    (all): %s\n", first);
      else
        for (int i = 0; i < n; i++)
          rg_printf(out, "    %s: %s\n", names[i], field_text(runs[i], fields[j], buf, sizeof buf));
      continue;
    }
    int last = -1;                            /* the last value that is not empty */
    for (int i = 0; i < n; i++)
      if (*field_text(runs[i], fields[j], buf, sizeof buf)) last = i;
    if (last < 0) rg_puts(out, fields[j] ? fields[j] : "result");   /* no spaces end a line */
    else rgi_put_cell(out, fields[j] ? fields[j] : "result", namew, 0);
    for (int i = 0; i <= last; i++) {
      rg_puts(out, "  ");
      if (i == last) rg_puts(out, field_text(runs[i], fields[j], buf, sizeof buf));
      else rgi_put_cell(out, field_text(runs[i], fields[j], buf, sizeof buf), colw[i], 0);
    }
    rg_putc(out, '\n');
  }
  rg_free(colw);
  return out->failed ? RG_NOMEM : RG_OK;
}

/* The --json lines: the header, then a summary per run. */
static rg_status write_json(const rg_run *const *runs, const char *const *names, int n,
                            uint64_t seed, const char *policy, rg_out *out) {
  const rgi_module *m0 = &runs[0]->r->m;
  char digits[24];
  json_t *paths = json_array();
  snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
  for (int i = 0; paths && i < n; i++)
    if (json_array_append_new(paths, rgi_json_text(names[i])) != 0) {
      json_decref(paths);
      paths = NULL;
    }
  rgi_json_put(out, json_pack("{s:s,s:i,s:o,s:s,s:s,s:o}", "event", "variants", "format",
                             RG_JSON_FORMAT, "procedure",
                             rgi_json_text(rgi_module_str(m0, m0->procs[runs[0]->proc].name)),
                             "seed", digits, "policy", policy, "variants", paths),
              1);
  for (int i = 0; i < n; i++) {
    const rgi_module *m = &runs[i]->r->m;
    uint32_t nheap;
    const rgi_value *heap = rgi_vm_heap(runs[i]->vm, &nheap);
    json_t *r = runs[i]->rtype.kind == RG_K_VOID
                    ? json_null()
                    : rgi_json_value(m, heap, nheap, runs[i]->rtype, runs[i]->result);
    rgi_json_put(out, json_pack("{s:s,s:o,s:o}", "event", "summary", "variant",
                               rgi_json_text(names[i]), "result", r),
                1);
  }
  return out->failed ? RG_NOMEM : RG_OK;
}

rg_status rg_runs_side_by_side(const rg_run *const *runs, const char *const *names, int n,
                               uint64_t seed, const char *policy, int json, rg_out *out) {
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (n < 1) return RG_BAD_VALUE;
  for (int i = 0; i < n; i++)
    if (runs[i]->proc < 0) return RG_BAD_VALUE;   /* no successful call */
  return rgi_watch_end(&w, json ? write_json(runs, names, n, seed, policy, o)
                                : write_text(runs, names, n, seed, policy, o));
}
