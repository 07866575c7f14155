/*
** simtext.c: the tallies of a simulation as `regula sim` prints them (see
** sim.h): a table per field, each distinct value with its count, its share
** and the 95% Wilson interval of the share; or the same as bar charts in
** one SVG document.  (rgi_sim_json, in sim.c, writes them as JSON.)
*/
#include "sim.h"
#include "diag.h"

#include "regula_front.h"
#include "chart.h"

#include <stdio.h>
#include <string.h>

/* Frees order[0..n) and order. */
static void free_orders(uint32_t **order, uint32_t n) {
  if (!order) return;
  for (uint32_t f = 0; f < n; f++) rg_free(order[f]);
  rg_free(order);
}

/* The natural order of each field's values (rgi_tally_order), rg_malloc'd;
** NULL when out of memory. */
static uint32_t **orders(const rgi_sim_result *r) {
  uint32_t **order = rg_malloc(((size_t)r->nfields + 1) * sizeof *order);
  if (!order) return NULL;
  memset(order, 0, ((size_t)r->nfields + 1) * sizeof *order);
  for (uint32_t f = 0; f < r->nfields; f++) {
    const rgi_tally *t = &r->fields[f].tally;
    if (!(order[f] = rg_malloc(((size_t)t->n + 1) * sizeof **order)) ||
        rgi_tally_order(t, order[f]) != 0) {
      free_orders(order, f + 1);
      return NULL;
    }
  }
  return order;
}

int rgi_sim_text(rg_out *out, const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                const char *policy, const char *placeholders) {
  uint64_t runs = r->runs;
  uint32_t **order = orders(r);
  if (!order) return -1;
  rgi_heading_title(out, h);
  rg_printf(out, ": %llu runs, seed %llu, policy %s\n", (unsigned long long)runs,
            (unsigned long long)seed, policy);
  if (h->sets && *h->sets) {
    rg_puts(out, "set: ");
    rgi_heading_sets(out, h->sets);
    rg_putc(out, '\n');
  }
  if (placeholders && *placeholders) rg_printf(out, "placeholders: %s\n", placeholders);
  for (uint32_t f = 0; f < r->nfields; f++) {
    const rgi_sim_field *fd = &r->fields[f];
    const rgi_tally *t = &fd->tally;
    size_t wv = 5;
    for (uint32_t s = 0; s < t->n; s++)
      if (rgi_text_width(t->keys[s].text) > wv) wv = rgi_text_width(t->keys[s].text);
    if (wv > 40) wv = 40;
    if (fd->overflow) {
      rg_printf(out, "\n%s\n  more than %d distinct values: not tallied\n", fd->name,
                RG_SIM_MAX_DISTINCT);
      continue;
    }
    rg_printf(out, "\n%s%s\n  %-*s  %10s  %7s  %s\n", fd->name, fd->any ? RG_SIM_ANY_NOTE : "",
              (int)wv, "value", "count", "share", "95% interval");
    for (uint32_t j = 0; j < t->n; j++) {
      uint32_t s = order[f][j];
      uint64_t c = fd->counts[s];
      double lo, hi;
      rgi_sim_wilson(c, runs, &lo, &hi);
      rg_puts(out, "  ");
      rgi_put_cell(out, t->keys[s].text, wv, 0);
      rg_printf(out, "  %10llu  %6.2f%%  %6.2f%% .. %6.2f%%\n", (unsigned long long)c,
                100.0 * (double)c / (double)runs, 100.0 * lo, 100.0 * hi);
    }
  }
  free_orders(order, r->nfields);
  return out->failed ? -1 : 0;
}

int rgi_sim_chart(rg_out *out, const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                 const char *policy) {
  rgi_chart *charts = rg_malloc(((size_t)r->nfields + 1) * sizeof *charts);
  uint32_t nc = 0;
  int rc = charts ? 0 : -1;
  char title[1024], what[512], overflow[64];
  snprintf(overflow, sizeof overflow, "more than %d distinct values: not tallied",
           RG_SIM_MAX_DISTINCT);
  for (uint32_t f = 0; rc == 0 && f < r->nfields; f++) {
    const rgi_sim_field *fd = &r->fields[f];
    const rgi_tally *t = &fd->tally;
    uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
    rgi_chart_bar *bars = rg_malloc(((size_t)t->n + 1) * sizeof *bars);
    if (!order || !bars || rgi_tally_order(t, order) != 0) {
      rg_free(order);
      rg_free(bars);
      rc = -1;
      break;
    }
    if (fd->overflow) t = NULL;
    for (uint32_t j = 0; t && j < t->n; j++) {
      uint32_t s = order[j];
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = t->keys[s].text;
      bars[j].p[0] = (double)fd->counts[s] / (double)r->runs;
      rgi_sim_wilson(fd->counts[s], r->runs, &bars[j].lo[0], &bars[j].hi[0]);
    }
    rg_free(order);
    char *name = rg_malloc(strlen(fd->name) + sizeof RG_SIM_ANY_NOTE);
    if (!name) {
      rg_free(bars);
      rc = -1;
      break;
    }
    sprintf(name, "%s%s", fd->name, fd->any ? RG_SIM_ANY_NOTE : "");
    charts[nc++] = (rgi_chart){ name, bars, t ? t->n : 0, t ? NULL : overflow };
  }
  snprintf(what, sizeof what, "%llu runs, seed %llu, policy %s (95%% intervals)",
           (unsigned long long)r->runs, (unsigned long long)seed, policy);
  if (rc == 0 && !rgi_heading_chart_title(title, sizeof title, h, what)) rc = -1;
  if (rc == 0) rgi_chart_svg(out, title, NULL, 1, charts, nc);
  for (uint32_t c = 0; c < nc; c++) {
    rg_free((void *)charts[c].bars);
    rg_free((void *)charts[c].title);
  }
  rg_free(charts);
  return rc == 0 && !out->failed ? 0 : -1;
}
