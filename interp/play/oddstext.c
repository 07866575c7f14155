/*
** oddstext.c: an exact distribution as `regula odds` prints it (see
** odds.h): one line per distinct result in its natural order, with its
** probability as a fraction, a percent and a bar; or one JSON object; or a
** bar chart.
*/
#include "odds.h"
#include "diag.h"

#include "regula_front.h"
#include "chart.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

/* A record result's whole values are shown too when there are at most
** this many, each at most this long. */
#define WHOLE_MAX_RESULTS 64
#define WHOLE_MAX_TEXT 60

/* Whether r's result is one column, the result itself (a scalar). */
static int whole(const rgi_odds_result *r) {
  return r->nfields == 1 && !r->fields[0].any && strcmp(r->fields[0].name, "result") == 0;
}

/* Writes the distribution as one JSON object: the procedure, policy,
** placeholders (phj, a JSON array, taken over), each result with its
** probability (a fraction as text and a number), and the runs, states and
** cut mass.  Returns 0 or -1. */
static int odds_json(rg_out *out, const rgi_odds_result *r, const uint32_t *order,
                     const rgi_heading *h, const char *policy, const char *strategy,
                     json_t *phj) {
  char fb[100];
  const char *proc = rgi_module_str(h->m, h->m->procs[h->proc].name);
  json_t *res = json_array();
  json_t *doc = json_pack("{s:i,s:o,s:o,s:o,s:o,s:s,s:I,s:I,s:I}", "format", RG_JSON_FORMAT,
                          "procedure", rgi_json_text(proc), "policy", rgi_json_text(policy),
                          "placeholders", phj, "results", res,
                          "unresolved", rgi_frac_str(fb, &r->cut), "runs",
                          (json_int_t)r->paths, "states", (json_int_t)r->states, "loops",
                          (json_int_t)r->loops);
  if (doc && strategy && json_object_set_new(doc, "strategy", rgi_json_text(strategy)) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  if (doc && rgi_heading_json(doc, h, 1) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  if (doc && !whole(r)) {
    json_t *fields = json_array();
    if (!fields || json_object_set_new(doc, "fields", fields) != 0) {
      json_decref(doc);
      doc = NULL;
    }
    for (uint32_t f = 0; doc && f < r->nfields; f++) {
      const rgi_odds_field *fd = &r->fields[f];
      uint32_t *ford = rg_malloc(((size_t)fd->tally.n + 1) * sizeof *ford);
      json_t *vals = json_array();
      json_t *fo = json_pack("{s:o,s:b,s:o}", "name", rgi_json_text(fd->name), "of_items",
                             fd->any, "values", vals);
      /* (fo joins the document first: freed with it whatever fails next) */
      int bad = !fo || json_array_append_new(fields, fo) != 0 || !ford ||
                rgi_tally_order(&fd->tally, ford) != 0;
      for (uint32_t j = 0; !bad && j < fd->tally.n; j++) {
        uint32_t k = ford[j];
        json_t *o = json_pack("{s:o,s:s,s:f}", "text", rgi_json_text(fd->tally.keys[k].text),
                              "probability", rgi_frac_str(fb, &fd->probs[k]), "share",
                              (double)rgi_frac_value(&fd->probs[k]));
        if (o && !fd->tally.compound &&
            json_object_set_new(o, "value", rgi_json_value(fd->tally.m, NULL, 0, fd->tally.type,
                                                          fd->tally.keys[k].v)) != 0) {
          json_decref(o);
          o = NULL;
        }
        bad = !o || json_array_append_new(vals, o) != 0;
      }
      rg_free(ford);
      if (bad) {
        json_decref(doc);
        doc = NULL;
      }
    }
  }
  for (uint32_t j = 0; doc && j < r->tally.n; j++) {
    uint32_t k = order[j];
    json_t *o = json_pack("{s:o,s:s,s:f}", "text", rgi_json_text(r->tally.keys[k].text),
                          "probability", rgi_frac_str(fb, &r->probs[k]), "share",
                          (double)rgi_frac_value(&r->probs[k]));
    const rgi_tally *t = &r->tally;
    if (o && !t->compound &&
        json_object_set_new(o, "value", rgi_json_value(t->m, NULL, 0, t->type, t->keys[k].v)) != 0) {
      json_decref(o);
      o = NULL;
    }
    if (!o || json_array_append_new(res, o) != 0) {
      json_decref(doc);
      doc = NULL;
    }
  }
  return rgi_json_put(out, doc, 1);
}

/* Writes one table: a line per value of tally t (probabilities probs) in
** its natural order, first-column heading `head`, with the unresolved
** probability cut when not 0.  Bars: 40 characters are 100%.  Returns 0
** or -1. */
static int odds_table(rg_out *out, const char *head, const rgi_tally *t, const rgi_frac *probs,
                      const rgi_frac *cut) {
  uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
  size_t wtext = 6, wfrac = 11;   /* the heads, "result" and "value", fit in 6 */
  char fb[100];
  if (!order || rgi_tally_order(t, order) != 0) {
    rg_free(order);
    return -1;
  }
  for (uint32_t k = 0; k < t->n; k++) {
    size_t n = rgi_text_width(t->keys[k].text);
    if (n > wtext) wtext = n;
    if (strlen(rgi_frac_str(fb, &probs[k])) > wfrac) wfrac = strlen(fb);
  }
  if (cut->num && strlen(rgi_frac_str(fb, cut)) > wfrac) wfrac = strlen(fb);
  if (cut->num && wtext < 12) wtext = 12;   /* "(unresolved)" */
  if (wtext > WHOLE_MAX_TEXT) wtext = WHOLE_MAX_TEXT;   /* the whole results' column fits them all */
  rgi_put_cell(out, head, wtext, 0);
  rg_printf(out, "  %*s  %7s\n", (int)wfrac, "probability", "percent");
  for (uint32_t j = 0; j < t->n; j++) {
    uint32_t k = order[j];
    long double pv = rgi_frac_value(&probs[k]);
    int bar = (int)(pv * 40.0L + 0.5L);
    rgi_put_cell(out, t->keys[k].text, wtext, 0);
    rg_printf(out, "  %*s  %6.2Lf%%  ", (int)wfrac, rgi_frac_str(fb, &probs[k]), pv * 100.0L);
    for (int b = 0; b < bar; b++) rg_putc(out, '#');
    rg_putc(out, '\n');
  }
  if (cut->num)
    rg_printf(out, "%-*s  %*s  %6.2Lf%%\n", (int)wtext, "(unresolved)", (int)wfrac,
              rgi_frac_str(fb, cut), rgi_frac_value(cut) * 100.0L);
  rg_free(order);
  return 0;
}

int rgi_odds_text(rg_out *out, const rgi_odds_result *r, uint64_t depth, const rgi_heading *h,
                 const char *policy, const char *strategy, const char *placeholders,
                 json_t *phj) {
  const rgi_tally *t = &r->tally;
  if (phj) {
    uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
    if (!order || rgi_tally_order(t, order) != 0) {
      rg_free(order);
      json_decref(phj);
      return -1;
    }
    int rc = odds_json(out, r, order, h, policy, strategy, phj);
    rg_free(order);
    return rc;
  }
  rgi_heading_title(out, h);
  rg_printf(out, ": exact, policy %s\n", policy);
  if (h->sets && *h->sets) {
    rg_puts(out, "set: ");
    rgi_heading_sets(out, h->sets);
    rg_putc(out, '\n');
  }
  if (placeholders && *placeholders) rg_printf(out, "placeholders: %s\n", placeholders);
  if (whole(r)) {
    if (odds_table(out, "result", t, r->probs, &r->cut) != 0) return -1;
  } else {
    /* a record: the whole results when they are few and short (their
    ** joint odds: {a: X, b: Y}), then a table per column */
    int small = t->n <= WHOLE_MAX_RESULTS;
    for (uint32_t k = 0; small && k < t->n; k++) small = strlen(t->keys[k].text) <= WHOLE_MAX_TEXT;
    if (small && odds_table(out, "result", t, r->probs, &r->cut) != 0) return -1;
    for (uint32_t f = 0; f < r->nfields; f++) {
      const rgi_odds_field *fd = &r->fields[f];
      rg_printf(out, "\n%s%s\n", fd->name, fd->any ? RG_ODDS_ANY_NOTE : "");
      if (odds_table(out, "value", &fd->tally, fd->probs, &r->cut) != 0) return -1;
    }
    rg_putc(out, '\n');
  }
  rg_printf(out, "%llu run%s, %u chance state%s", (unsigned long long)r->paths,
            r->paths == 1 ? "" : "s", (unsigned)r->states, r->states == 1 ? "" : "s");
  if (r->loops) rg_printf(out, ", %u loop%s solved", (unsigned)r->loops, r->loops == 1 ? "" : "s");
  if (r->cut_paths)
    rg_printf(out, "; %llu run%s cut after %llu draws: their probability is unresolved, the "
                   "fractions above are exact lower bounds", (unsigned long long)r->cut_paths,
              r->cut_paths == 1 ? "" : "s", (unsigned long long)depth);
  rg_putc(out, '\n');
  return out->failed ? -1 : 0;
}

int rgi_odds_chart(rg_out *out, const rgi_odds_result *r, const rgi_heading *h, const char *policy) {
  uint32_t nf = whole(r) ? 1 : r->nfields;
  rgi_chart *charts = rg_malloc(((size_t)nf + 1) * sizeof *charts);
  char title[1024], what[512];
  uint32_t nc = 0;
  int rc = charts ? 0 : -1;
  for (uint32_t f = 0; rc == 0 && f < nf; f++) {
    const rgi_odds_field *fd = &r->fields[f];
    const rgi_tally *t = whole(r) ? &r->tally : &fd->tally;
    const rgi_frac *probs = whole(r) ? r->probs : fd->probs;
    uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
    rgi_chart_bar *bars = rg_malloc(((size_t)t->n + 1) * sizeof *bars);
    char *name = rg_malloc(strlen(fd->name) + sizeof RG_ODDS_ANY_NOTE);
    if (!order || !bars || !name || rgi_tally_order(t, order) != 0) {
      rg_free(order);
      rg_free(bars);
      rg_free(name);
      rc = -1;
      break;
    }
    for (uint32_t j = 0; j < t->n; j++) {
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = t->keys[order[j]].text;
      bars[j].p[0] = bars[j].lo[0] = bars[j].hi[0] = (double)rgi_frac_value(&probs[order[j]]);
    }
    rg_free(order);
    sprintf(name, "%s%s", fd->name, fd->any ? RG_ODDS_ANY_NOTE : "");
    charts[nc++] = (rgi_chart){ name, bars, t->n, NULL };
  }
  if (rc == 0) {
    snprintf(what, sizeof what, "exact, policy %s%s", policy,
             r->cut.num ? " (some runs cut: lower bounds)" : "");
    if (rgi_heading_chart_title(title, sizeof title, h, what)) {
      rgi_chart_svg(out, title, NULL, 1, charts, nc);
      rc = out->failed ? -1 : 0;
    } else {
      rc = -1;
    }
  }
  for (uint32_t c = 0; c < nc; c++) {
    rg_free((void *)charts[c].bars);
    rg_free((void *)charts[c].title);
  }
  rg_free(charts);
  return rc;
}
