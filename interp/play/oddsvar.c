/*
** oddsvar.c: exact odds of several rule sets side by side, as `regula odds
** --variants` prints them (see odds.h): per column of the result, each
** value's probability under each rule set as a fraction and a percent, and
** each later rule set's exact difference from the first (B - A); or the
** same as JSON, or as bar charts.
*/
#include "odds.h"
#include "diag.h"

#include "regula_front.h"
#include "chart.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

/* One column of the result across the variants: its values in order and
** each variant's probability of each (0 where it has not the value). */
typedef struct mfield {
  const char *name;
  int any;
  const char **texts;       /* [n] owned by the variants' tallies */
  uint32_t n;
  rgi_frac *p;               /* [n * nv]: p[j * nv + v] */
} mfield;

/* Frees fields fs[0..n) and fs. */
static void free_fields(mfield *fs, uint32_t n) {
  for (uint32_t f = 0; fs && f < n; f++) {
    rg_free(fs[f].texts);
    rg_free(fs[f].p);
  }
  rg_free(fs);
}

/* Returns the field of r named name, or NULL. */
static const rgi_odds_field *field_named(const rgi_odds_result *r, const char *name) {
  for (uint32_t f = 0; f < r->nfields; f++)
    if (strcmp(r->fields[f].name, name) == 0) return &r->fields[f];
  return NULL;
}

/* Matches the variants' columns by name (A's first, then those only later
** ones have) into *out[0..*nout).  Returns 0 or -1. */
static int merge_fields(const rgi_oddsvar *ov, mfield **out, uint32_t *nout) {
  uint32_t nv = ov->n, total = 0, n = 0;
  for (uint32_t v = 0; v < nv; v++) total += ov->rs[v]->nfields;
  mfield *fs = rg_malloc(((size_t)total + 1) * sizeof *fs);
  rgi_tally empty;
  if (!fs) return -1;
  memset(fs, 0, ((size_t)total + 1) * sizeof *fs);
  rgi_tally_init(&empty, ov->rs[0]->tally.m, (rgi_type){ .kind = RG_K_TEXT });
  for (uint32_t v = 0; v < nv; v++)
    for (uint32_t f = 0; f < ov->rs[v]->nfields; f++) {
      const rgi_odds_field *fd = &ov->rs[v]->fields[f];
      int seen = 0;
      for (uint32_t k = 0; k < n; k++) seen |= strcmp(fs[k].name, fd->name) == 0;
      if (!seen) {
        fs[n].name = fd->name;
        fs[n++].any = fd->any;
      }
    }
  for (uint32_t f = 0; f < n; f++) {
    const rgi_tally *tp[RG_CHART_SERIES];
    const rgi_odds_field *fv[RG_CHART_SERIES];
    uint32_t room = 0;
    for (uint32_t v = 0; v < nv; v++) {
      fv[v] = field_named(ov->rs[v], fs[f].name);
      tp[v] = fv[v] ? &fv[v]->tally : &empty;
      room += tp[v]->n;
    }
    fs[f].texts = rg_malloc(((size_t)room + 1) * sizeof *fs[f].texts);
    if (!fs[f].texts || rgi_tally_union_order(tp, nv, fs[f].texts, &fs[f].n) != 0 ||
        !(fs[f].p = rg_malloc(((size_t)fs[f].n * nv + 1) * sizeof *fs[f].p))) {
      free_fields(fs, n);
      return -1;
    }
    for (uint32_t j = 0; j < fs[f].n; j++)
      for (uint32_t v = 0; v < nv; v++) {
        rgi_frac p = { 0, 1 };
        for (uint32_t k = 0; fv[v] && k < fv[v]->tally.n; k++)
          if (strcmp(fv[v]->tally.keys[k].text, fs[f].texts[j]) == 0) p = fv[v]->probs[k];
        fs[f].p[(size_t)j * nv + v] = p;
      }
  }
  *out = fs;
  *nout = n;
  return 0;
}

/* Writes b - a signed ("+1/12", "-1/6", "0") into buf (100 bytes) and its
** value into *x.  Returns 0, or -1 when it does not fit in 128 bits. */
static int diff_str(char *buf, long double *x, const rgi_frac *b, const rgi_frac *a) {
  rgi_frac d;
  int neg;
  char fb[100];
  if (rgi_frac_sub(&d, &neg, b, a) != 0) return -1;
  *x = rgi_frac_value(&d) * (neg ? -1 : 1);
  if (d.num == 0) snprintf(buf, 100, "0");
  else snprintf(buf, 100, "%c%s", neg ? '-' : '+', rgi_frac_str(fb, &d));
  return 0;
}

/* The letter that names variant v: A, B, ... */
static char letter(uint32_t v) {
  return (char)('A' + v);
}

int rgi_oddsvar_text(rg_out *out, const rgi_oddsvar *ov) {
  uint32_t nv = ov->n, nf = 0;
  mfield *fs = NULL;
  char fb[100];
  long double x;
  const rgi_heading *h0 = &ov->hs[0];
  int cut = 0, whole;
  if (merge_fields(ov, &fs, &nf) != 0) return -1;
  for (uint32_t v = 0; v < nv; v++) cut |= ov->rs[v]->cut.num != 0;
  whole = nf == 1 && !fs[0].any && strcmp(fs[0].name, "result") == 0;
  rgi_heading_call(out, h0);
  rg_printf(out, " of %u variants: exact, policy %s\n", (unsigned)nv, ov->policies[0]);
  for (uint32_t v = 0; v < nv; v++) {
    rg_printf(out, "  %c = %s\n", letter(v), ov->names[v]);
    if (strcmp(ov->policies[v], ov->policies[0]) != 0)
      rg_printf(out, "      policy %s\n", ov->policies[v]);
    if (ov->hs[v].sets && *ov->hs[v].sets) {
      rg_puts(out, "      set: ");
      rgi_heading_sets(out, ov->hs[v].sets);
      rg_putc(out, '\n');
    }
    if (ov->placeholders[v] && *ov->placeholders[v])
      rg_printf(out, "      placeholders: %s\n", ov->placeholders[v]);
  }
  for (uint32_t f = 0; f < nf; f++) {
    const mfield *m = &fs[f];
    size_t wtext = 5, wfrac = 1, wdiff = 1;
    for (uint32_t j = 0; j < m->n; j++) {
      if (rgi_text_width(m->texts[j]) > wtext) wtext = rgi_text_width(m->texts[j]);
      for (uint32_t v = 0; v < nv; v++) {
        if (strlen(rgi_frac_str(fb, &m->p[(size_t)j * nv + v])) > wfrac) wfrac = strlen(fb);
        if (v && diff_str(fb, &x, &m->p[(size_t)j * nv + v], &m->p[(size_t)j * nv]) != 0)
          goto fail;
        if (v && strlen(fb) > wdiff) wdiff = strlen(fb);
      }
    }
    for (uint32_t v = 0; cut && v < nv; v++) {
      if (strlen(rgi_frac_str(fb, &ov->rs[v]->cut)) > wfrac) wfrac = strlen(fb);
      if (v && diff_str(fb, &x, &ov->rs[v]->cut, &ov->rs[0]->cut) != 0) goto fail;
      if (v && strlen(fb) > wdiff) wdiff = strlen(fb);
    }
    if (cut && wtext < 12) wtext = 12;   /* "(unresolved)" */
    if (wtext > 40) wtext = 40;
    if (!whole) rg_printf(out, "\n%s%s\n", m->name, m->any ? RG_ODDS_ANY_NOTE : "");
    else rg_putc(out, '\n');
    rg_printf(out, "%-*s", (int)wtext, whole ? "result" : "value");
    for (uint32_t v = 0; v < nv; v++) rg_printf(out, "  %*c", (int)(wfrac + 9), letter(v));
    for (uint32_t v = 1; v < nv; v++) {
      char head[8];
      snprintf(head, sizeof head, "%c - A", letter(v));
      rg_printf(out, "  %*s", (int)(wdiff + 10), head);
    }
    rg_putc(out, '\n');
    for (uint32_t j = 0; j <= m->n; j++) {
      const char *text = j < m->n ? m->texts[j] : "(unresolved)";
      if (j == m->n && !cut) break;
      rgi_put_cell(out, text, wtext, 1);
      for (uint32_t v = 0; v < nv; v++) {
        const rgi_frac *p = j < m->n ? &m->p[(size_t)j * nv + v] : &ov->rs[v]->cut;
        rg_printf(out, "  %*s %7.2Lf%%", (int)wfrac, p->num ? rgi_frac_str(fb, p) : "0",
                  rgi_frac_value(p) * 100.0L);
      }
      for (uint32_t v = 1; v < nv; v++) {
        const rgi_frac *p = j < m->n ? &m->p[(size_t)j * nv + v] : &ov->rs[v]->cut;
        const rgi_frac *p0 = j < m->n ? &m->p[(size_t)j * nv] : &ov->rs[0]->cut;
        if (diff_str(fb, &x, p, p0) != 0) goto fail;
        rg_printf(out, "  %*s %+8.2Lf%%", (int)wdiff, fb, x * 100.0L);
      }
      rg_putc(out, '\n');
    }
  }
  rg_putc(out, '\n');
  for (uint32_t v = 0; v < nv; v++) {
    const rgi_odds_result *r = ov->rs[v];
    rg_printf(out, "%c: %llu run%s, %u chance state%s", letter(v), (unsigned long long)r->paths,
              r->paths == 1 ? "" : "s", (unsigned)r->states, r->states == 1 ? "" : "s");
    if (r->loops)
      rg_printf(out, ", %u loop%s solved", (unsigned)r->loops, r->loops == 1 ? "" : "s");
    if (r->cut_paths)
      rg_printf(out, "; %llu run%s cut after %llu draws: the fractions are exact lower bounds",
                (unsigned long long)r->cut_paths, r->cut_paths == 1 ? "" : "s",
                (unsigned long long)ov->depth);
    rg_putc(out, '\n');
  }
  free_fields(fs, nf);
  return out->failed ? -1 : 0;
fail:
  free_fields(fs, nf);
  return -1;
}

int rgi_oddsvar_json(rg_out *out, const rgi_oddsvar *ov) {
  uint32_t nv = ov->n, nf = 0, taken = 0;
  mfield *fs = NULL;
  char fb[100];
  long double x;
  const rgi_heading *h0 = &ov->hs[0];
  json_t *variants = json_array(), *fields = json_array();
  json_t *doc = json_pack("{s:i,s:o,s:o,s:o,s:o}", "format", RG_JSON_FORMAT, "procedure",
                          rgi_json_text(rgi_module_str(h0->m, h0->m->procs[h0->proc].name)),
                          "policy", rgi_json_text(ov->policies[0]), "variants", variants,
                          "fields", fields);
  if (!doc || rgi_heading_json(doc, h0, 0) != 0 || merge_fields(ov, &fs, &nf) != 0) goto fail;
  /* "sets" of the document: the first variant's; each variant has its own */
  for (uint32_t v = 0; v < nv; v++) {
    const rgi_odds_result *r = ov->rs[v];
    json_t *o = json_pack("{s:o,s:o,s:o,s:s,s:I,s:I,s:I}", "file", rgi_json_text(ov->names[v]),
                          "policy", rgi_json_text(ov->policies[v]), "placeholders", ov->phj[v],
                          "unresolved", rgi_frac_str(fb, &r->cut), "runs", (json_int_t)r->paths,
                          "states", (json_int_t)r->states, "loops", (json_int_t)r->loops);
    taken = v + 1;
    if (!o || json_array_append_new(variants, o) != 0 ||
        rgi_heading_sets_json(o, ov->hs[v].sets) != 0)
      goto fail;
  }
  for (uint32_t f = 0; f < nf; f++) {
    const mfield *m = &fs[f];
    json_t *vals = json_array();
    json_t *fo = json_pack("{s:o,s:b,s:o}", "name", rgi_json_text(m->name), "of_items", m->any,
                           "values", vals);
    if (!fo || json_array_append_new(fields, fo) != 0) goto fail;
    for (uint32_t j = 0; j < m->n; j++) {
      json_t *probs = json_array(), *shares = json_array(), *diffs = json_array();
      json_t *xo = json_pack("{s:o,s:o,s:o,s:o}", "text", rgi_json_text(m->texts[j]),
                             "probabilities", probs, "shares", shares, "differences", diffs);
      if (!xo || json_array_append_new(vals, xo) != 0) goto fail;
      for (uint32_t v = 0; v < nv; v++) {
        const rgi_frac *p = &m->p[(size_t)j * nv + v];
        if (json_array_append_new(probs, json_string(rgi_frac_str(fb, p))) != 0 ||
            json_array_append_new(shares, json_real((double)rgi_frac_value(p))) != 0)
          goto fail;
        if (!v) continue;
        if (diff_str(fb, &x, p, &m->p[(size_t)j * nv]) != 0) goto fail;
        json_t *d = json_pack("{s:i,s:s,s:f}", "variant", (int)v, "difference", fb, "share",
                              (double)x);
        if (!d || json_array_append_new(diffs, d) != 0) goto fail;
      }
    }
  }
  free_fields(fs, nf);
  return rgi_json_put(out, doc, 1);
fail:
  free_fields(fs, nf);
  json_decref(doc);
  for (uint32_t v = taken; v < nv; v++) json_decref(ov->phj[v]);
  return -1;
}

int rgi_oddsvar_chart(rg_out *out, const rgi_oddsvar *ov) {
  uint32_t nv = ov->n > RG_CHART_SERIES ? RG_CHART_SERIES : ov->n, nf = 0, nc = 0;
  mfield *fs = NULL;
  rgi_chart *charts = NULL;
  const char *sets[RG_CHART_SERIES];
  const rgi_heading *h0 = &ov->hs[0];
  char title[2048], what[512];
  int rc = -1;
  if (merge_fields(ov, &fs, &nf) != 0) return -1;
  if (!(charts = rg_malloc(((size_t)nf + 1) * sizeof *charts))) goto done;
  for (uint32_t f = 0; f < nf; f++) {
    const mfield *m = &fs[f];
    rgi_chart_bar *bars = rg_malloc(((size_t)m->n + 1) * sizeof *bars);
    char *name = rg_malloc(strlen(m->name) + sizeof RG_ODDS_ANY_NOTE);
    if (!bars || !name) {
      rg_free(bars);
      rg_free(name);
      goto done;
    }
    for (uint32_t j = 0; j < m->n; j++) {
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = m->texts[j];
      for (uint32_t v = 0; v < nv; v++)
        bars[j].p[v] = bars[j].lo[v] = bars[j].hi[v] =
            (double)rgi_frac_value(&m->p[(size_t)j * ov->n + v]);
    }
    sprintf(name, "%s%s", m->name, m->any ? RG_ODDS_ANY_NOTE : "");
    charts[nc++] = (rgi_chart){ name, bars, m->n, NULL };
  }
  for (uint32_t v = 0; v < nv; v++) sets[v] = ov->hs[v].sets;
  {
    rg_buf call;
    const char *t;
    rg_buf_init(&call);
    rgi_heading_call(&call.out, h0);
    snprintf(what, sizeof what, "exact, policy %s", ov->policies[0]);
    /* the call's name and arguments stand where the procedure's would */
    t = call.out.failed ? NULL : rgi_heading_variants_title(title, sizeof title, call.data, ov->names,
                                                           sets, nv, what);
    rg_buf_free(&call);
    if (!t) goto done;      /* rc is -1: no chart with a shorter title */
  }
  rgi_chart_svg(out, title, ov->names, nv, charts, nc);
  rc = out->failed ? -1 : 0;
done:
  for (uint32_t c = 0; charts && c < nc; c++) {
    rg_free((void *)charts[c].bars);
    rg_free((void *)charts[c].title);
  }
  rg_free(charts);
  free_fields(fs, nf);
  return rc;
}
