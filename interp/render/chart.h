/*
** chart.h: distributions as SVG bar charts, for `sim --svg` and `odds
** --svg`.
**
** One document holds one chart per field of the result, one under another.
** A chart has a row per value, and in each row one horizontal bar per
** series (a variant, or the only one), its length the share, with the
** interval of the share drawn as a line with end marks across the bar's
** end (none when the share is exact).  Every bar of a document is drawn
** on one scale, 0 to 100% (marked above each chart), so that two charts
** can be compared by eye.  Labels are XML-escaped; numbers are written with
** one decimal, so the same data give the same file.
*/
#ifndef RG_CHART_H
#define RG_CHART_H

#include <stdint.h>

#include "regula_front.h"

#define RG_CHART_SERIES 16  /* most series (variants) in one chart */

/* One row: a value and each series' share with its interval. */
typedef struct rgi_chart_bar {
  const char *label;
  double p[RG_CHART_SERIES];       /* shares, 0..1 */
  double lo[RG_CHART_SERIES];      /* the interval (lo == hi: none drawn) */
  double hi[RG_CHART_SERIES];
} rgi_chart_bar;

/* One chart: a title and its rows (or, with none, a note). */
typedef struct rgi_chart {
  const char *title;
  const rgi_chart_bar *bars;
  uint32_t nbars;
  const char *note;         /* shown instead of bars when there are none
                            ** ("not tallied: ..."), or NULL */
} rgi_chart;

/* Writes charts[0..n) as one SVG document to out, under the heading title;
** series names[0..nseries) (1..RG_CHART_SERIES) get a legend when there are
** two or more. */
void rgi_chart_svg(rg_out *out, const char *title, const char *const *names, uint32_t nseries,
                  const rgi_chart *charts, uint32_t n);

#endif
