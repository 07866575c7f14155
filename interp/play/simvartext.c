/*
** simvartext.c: variants compared run by run as `regula sim --variants`
** prints them (see simvar.h): per field, the distributions side by side
** and each variant's difference from the first with its paired and
** unpaired 95% intervals; or the same as JSON, or as bar charts.
*/
#include "simvar.h"
#include "diag.h"

#include "regula_front.h"
#include "chart.h"
#include "json.h"
#include "sim.h"

#include <stdio.h>
#include <string.h>

/* The letter that names variant i in the tables: A, B, ... */
static char letter(uint32_t i) {
  return (char)('A' + i);
}

/* Writes the tables of r: per field, the shares side by side, then each
** variant's difference from A. */
static void tables(rg_out *out, const rgi_simvar_result *r, uint32_t n) {
  for (uint32_t f = 0; f < r->nfields; f++) {
    const rgi_simvar_field *fd = &r->fields[f];
    size_t wv = 5;
    rg_printf(out, "\n%s%s\n", fd->name, fd->any ? RG_SIM_ANY_NOTE : "");
    if (fd->overflow) {
      rg_printf(out, "  more than %d distinct values: not tallied\n", RG_SIM_MAX_DISTINCT);
      continue;
    }
    for (uint32_t j = 0; j < fd->nvals; j++)
      if (rgi_text_width(fd->vals[j].text) > wv) wv = rgi_text_width(fd->vals[j].text);
    if (wv > 40) wv = 40;
    rg_printf(out, "  %-*s", (int)wv, "value");
    for (uint32_t v = 0; v < n; v++) rg_printf(out, "  %7c", letter(v));
    for (uint32_t v = 1; v < n; v++) {
      char h[16];
      snprintf(h, sizeof h, "%c - A", letter(v));
      rg_printf(out, "  %8s   %-17s  %-*s", h, "paired 95%", v + 1 < n ? 17 : 0, "unpaired 95%");
    }
    rg_putc(out, '\n');
    for (uint32_t j = 0; j < fd->nvals; j++) {
      const rgi_simvar_value *x = &fd->vals[j];
      rg_puts(out, "  ");
      rgi_put_cell(out, x->text, wv, 1);
      for (uint32_t v = 0; v < n; v++)
        rg_printf(out, "  %6.2f%%", 100.0 * (double)x->count[v] / (double)r->runs);
      for (uint32_t v = 1; v < n; v++) {
        double lo, hi, ulo, uhi;
        rgi_simvar_interval(x, v, r->runs, &lo, &hi, &ulo, &uhi);
        /* in percent as the shares are (100 x count / runs): a difference
        ** from 0% rounds as the share it takes away */
        double d = 100.0 * ((double)x->count[v] - (double)x->count[0]) / (double)r->runs;
        char ratio[32];
        /* how much pairing the runs narrowed the interval, when it did */
        if (hi - lo > 0 && (uhi - ulo) / (hi - lo) >= 1.05)
          snprintf(ratio, sizeof ratio, "%.1fx narrower", (uhi - ulo) / (hi - lo));
        else if (hi - lo > 0) ratio[0] = '\0';
        else snprintf(ratio, sizeof ratio, "%s", uhi - ulo > 0 ? "the same every run" : "");
        rg_printf(out, "  %+7.2f%%  %+6.2f .. %+6.2f%%  %+6.2f .. %+6.2f%%%s%s", d, 100 * lo,
                  100 * hi, 100 * ulo, 100 * uhi, *ratio ? "  " : "", ratio);
      }
      rg_putc(out, '\n');
    }
  }
}

int rgi_simvar_text(rg_out *out, const rgi_simvar_result *r, const char *proc,
                   const char *const *names, const char *const *sets,
                   const char *const *placeholders, uint32_t n, uint64_t seed,
                   const char *policy) {
  rg_printf(out, "%s() of %u variants: %llu runs, seed %llu, policy %s, common random numbers by "
                 "step\n", proc, (unsigned)n, (unsigned long long)r->runs,
            (unsigned long long)seed, policy);
  for (uint32_t v = 0; v < n; v++) {
    rg_printf(out, "  %c = %s\n", letter(v), names[v]);
    if (sets[v] && *sets[v]) {
      rg_puts(out, "      set: ");
      rgi_heading_sets(out, sets[v]);
      rg_putc(out, '\n');
    }
    if (placeholders[v] && *placeholders[v])
      rg_printf(out, "      placeholders: %s\n", placeholders[v]);
  }
  tables(out, r, n);
  return out->failed ? -1 : 0;
}

/* Returns r as one new JSON object (NULL when out of memory); takes
** placeholders[0..n) over. */
static json_t *result_json(const rgi_simvar_result *r, const char *proc, const char *const *names,
                           const char *const *sets, json_t *const *placeholders, uint32_t n,
                           uint64_t seed, const char *policy, const char *strategy) {
  char digits[24];
  json_t *variants = json_array(), *fields = json_array();
  uint32_t taken = 0;
  snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
  json_t *doc = json_pack("{s:i,s:o,s:I,s:s,s:o,s:o,s:o}", "format", RG_JSON_FORMAT,
                          "procedure", rgi_json_text(proc), "runs", (json_int_t)r->runs,
                          "seed", digits, "policy", rgi_json_text(policy), "variants",
                          variants, "fields", fields);
  if (doc && strategy && json_object_set_new(doc, "strategy", rgi_json_text(strategy)) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  for (uint32_t v = 0; doc && v < n; v++) {
    json_t *o = json_pack("{s:o,s:o}", "file", rgi_json_text(names[v]), "placeholders",
                          placeholders[v]);
    taken = v + 1;
    if (!o || json_array_append_new(variants, o) != 0 || rgi_heading_sets_json(o, sets[v]) != 0)
      goto fail;
  }
  for (uint32_t f = 0; doc && f < r->nfields; f++) {
    const rgi_simvar_field *fd = &r->fields[f];
    json_t *vals = json_array();
    json_t *fo = json_pack("{s:o,s:b,s:b,s:o}", "name", rgi_json_text(fd->name), "tallied",
                           !fd->overflow, "of_items", fd->any, "values", vals);
    if (!fo || json_array_append_new(fields, fo) != 0) goto fail;
    for (uint32_t j = 0; j < fd->nvals; j++) {
      const rgi_simvar_value *x = &fd->vals[j];
      json_t *counts = json_array(), *diffs = json_array();
      json_t *xo = json_pack("{s:o,s:o,s:o}", "text", rgi_json_text(x->text), "counts", counts,
                             "differences", diffs);
      if (!xo || json_array_append_new(vals, xo) != 0) goto fail;
      for (uint32_t v = 0; v < n; v++)
        if (json_array_append_new(counts, json_integer((json_int_t)x->count[v])) != 0) goto fail;
      for (uint32_t v = 1; v < n; v++) {
        double lo, hi, ulo, uhi;
        rgi_simvar_interval(x, v, r->runs, &lo, &hi, &ulo, &uhi);
        json_t *d = json_pack("{s:i,s:f,s:f,s:f,s:f,s:f}", "variant", (int)v, "difference",
                              ((double)x->count[v] - (double)x->count[0]) / (double)r->runs,
                              "low", lo, "high", hi, "unpaired_low", ulo, "unpaired_high", uhi);
        if (!d || json_array_append_new(diffs, d) != 0) goto fail;
      }
    }
  }
  if (doc) return doc;
fail:
  json_decref(doc);
  for (uint32_t v = taken; v < n; v++) json_decref(placeholders[v]);
  return NULL;
}

int rgi_simvar_json(rg_out *out, const rgi_simvar_result *r, const char *proc,
                   const char *const *names, const char *const *sets,
                   json_t *const *placeholders, uint32_t n, uint64_t seed, const char *policy,
                   const char *strategy) {
  return rgi_json_put(out,
                     result_json(r, proc, names, sets, placeholders, n, seed, policy, strategy),
                     1);
}

int rgi_simvar_chart(rg_out *out, const rgi_simvar_result *r, const char *proc,
                    const char *const *names, const char *const *sets, uint32_t n,
                    uint64_t seed, const char *policy) {
  rgi_chart *charts = rg_malloc(((size_t)r->nfields + 1) * sizeof *charts);
  uint32_t nc = 0;
  int rc = charts ? 0 : -1;
  char title[2048], what[512], overflow[64];
  snprintf(overflow, sizeof overflow, "more than %d distinct values: not tallied",
           RG_SIM_MAX_DISTINCT);
  for (uint32_t f = 0; rc == 0 && f < r->nfields; f++) {
    const rgi_simvar_field *fd = &r->fields[f];
    rgi_chart_bar *bars = rg_malloc(((size_t)fd->nvals + 1) * sizeof *bars);
    if (!bars) {
      rc = -1;
      break;
    }
    for (uint32_t j = 0; j < fd->nvals; j++) {
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = fd->vals[j].text;
      for (uint32_t v = 0; v < n; v++) {
        bars[j].p[v] = (double)fd->vals[j].count[v] / (double)r->runs;
        rgi_sim_wilson(fd->vals[j].count[v], r->runs, &bars[j].lo[v], &bars[j].hi[v]);
      }
    }
    char *name = rg_malloc(strlen(fd->name) + sizeof RG_SIM_ANY_NOTE);
    if (!name) {
      rg_free(bars);
      rc = -1;
      break;
    }
    sprintf(name, "%s%s", fd->name, fd->any ? RG_SIM_ANY_NOTE : "");
    charts[nc++] = (rgi_chart){ name, bars, fd->overflow ? 0 : fd->nvals,
                               fd->overflow ? overflow : NULL };
  }
  snprintf(what, sizeof what, "%llu runs, seed %llu, policy %s (95%% intervals)",
           (unsigned long long)r->runs, (unsigned long long)seed, policy);
  char call[200];
  snprintf(call, sizeof call, "%s()", proc);
  if (rc == 0 && !rgi_heading_variants_title(title, sizeof title, call, names, sets, n, what))
    rc = -1;
  if (rc == 0) rgi_chart_svg(out, title, names, n, charts, nc);
  for (uint32_t c = 0; c < nc; c++) {
    rg_free((void *)charts[c].bars);
    rg_free((void *)charts[c].title);
  }
  rg_free(charts);
  return rc == 0 && !out->failed ? 0 : -1;
}
