/*
** chart.c: bar charts as SVG (see chart.h).
*/
#include "chart.h"

#include <string.h>

#define WIDTH 960
#define LABEL_W 260         /* the column of value labels */
#define BAR_X (LABEL_W + 10)
#define BAR_W 560           /* the longest bar */
#define BAR_H 12            /* one series' bar */
#define ROW_GAP 8
#define TITLE_H 30
#define TITLE_MAX 90        /* bytes of a heading line (16 px bold fills 960 px) */
#define TITLE_LINES 6       /* most lines of a heading */
#define SCALE_H 14          /* the 0..100% scale above a chart's rows */

static const char *const colours[] = { "#4a7ab5", "#d9822b", "#5a9e4b", "#b5484a", "#7d5ba6",
                                       "#8c6d46", "#c95fa8", "#6d6d6d" };

/* Writes s[0..n) XML-escaped (& < > " ' as entities, control characters
** as spaces). */
static void put_text(rg_out *o, const char *s, size_t n) {
  for (const char *end = s + n; s < end; s++) {
    switch (*s) {
    case '&': rg_puts(o, "&amp;"); break;
    case '<': rg_puts(o, "&lt;"); break;
    case '>': rg_puts(o, "&gt;"); break;
    case '"': rg_puts(o, "&quot;"); break;
    case '\'': rg_puts(o, "&apos;"); break;
    default: rg_putc(o, (unsigned char)*s < 0x20 ? ' ' : *s);
    }
  }
}

/* Writes a label cut to at most max bytes (at a UTF-8 boundary), with
** "..." when cut. */
static void put_label(rg_out *o, const char *s, size_t max) {
  size_t n = strlen(s);
  if (n <= max) {
    put_text(o, s, n);
    return;
  }
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) max--;
  put_text(o, s, max);
  rg_puts(o, "...");
}

/* Splits title into at most TITLE_LINES lines of at most TITLE_MAX bytes,
** cut at spaces (or, with none, at a character's start): line k is
** title[at[k] .. at[k] + len[k]).  Returns the number of lines; the last
** one may be longer (put_label cuts it). */
static uint32_t title_lines(const char *title, size_t *at, size_t *len) {
  size_t tlen = strlen(title), pos = 0;
  uint32_t n = 0;
  for (;;) {                /* ends at the text's end: line TITLE_LINES takes the rest */
    size_t rest = tlen - pos, cut = rest;
    if (rest > TITLE_MAX && n + 1 < TITLE_LINES) {
      for (cut = TITLE_MAX; cut > 0 && title[pos + cut] != ' '; cut--) {}
      if (cut == 0)
        for (cut = TITLE_MAX; cut > 0 && ((unsigned char)title[pos + cut] & 0xC0) == 0x80; cut--) {}
    }
    at[n] = pos;
    len[n++] = cut;
    pos += cut;
    if (pos < tlen && title[pos] == ' ') pos++;
    if (pos >= tlen) break;
  }
  return n;
}

void rgi_chart_svg(rg_out *out, const char *title, const char *const *names, uint32_t nseries,
                  const rgi_chart *charts, uint32_t n) {
  uint32_t ns = nseries < 1 ? 1 : nseries > RG_CHART_SERIES ? RG_CHART_SERIES : nseries;
  uint32_t row_h = ns * BAR_H + ROW_GAP, legend = ns > 1 ? 22 * ns : 0;
  /* a long heading goes on several lines, cut at spaces */
  size_t at[TITLE_LINES], len[TITLE_LINES];
  uint32_t nlines = title_lines(title, at, len);
  uint64_t top_h = 20 + 20 * (uint64_t)nlines;
  uint64_t height = top_h + legend;
  for (uint32_t c = 0; c < n; c++)
    height += TITLE_H + SCALE_H + (uint64_t)(charts[c].nbars ? charts[c].nbars : charts[c].note != NULL) *
                            row_h + 16;
  rg_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                 "version=\"1.1\" width=\"%d\" height=\"%llu\" viewBox=\"0 0 %d %llu\" "
                 "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
            WIDTH, (unsigned long long)height, WIDTH, (unsigned long long)height);
  rg_printf(out, "<rect width=\"%d\" height=\"%llu\" fill=\"#fff\"/>\n", WIDTH,
            (unsigned long long)height);
  for (uint32_t k = 0; k < nlines; k++) {
    rg_printf(out, "<text x=\"10\" y=\"%u\" font-size=\"16\" font-weight=\"bold\">",
              24 + 20 * (unsigned)k);
    if (k + 1 < nlines) put_text(out, title + at[k], len[k]);
    else put_label(out, title + at[k], TITLE_MAX + 10);
    rg_puts(out, "</text>\n");
  }
  uint64_t y = top_h;
  for (uint32_t s = 0; s < ns && ns > 1; s++, y += 22) {
    rg_printf(out, "<rect x=\"10\" y=\"%llu\" width=\"14\" height=\"14\" fill=\"%s\"/>"
                   "<text x=\"30\" y=\"%llu\">%c = ", (unsigned long long)y, colours[s % 8],
              (unsigned long long)y + 12, 'A' + (int)s);
    put_label(out, names[s], 110);
    rg_puts(out, "</text>\n");
  }
  for (uint32_t c = 0; c < n; c++) {
    const rgi_chart *ch = &charts[c];
    /* every bar of every chart on one scale, 0 to 100% */
    const double top = 1;
    rg_printf(out, "<text x=\"10\" y=\"%llu\" font-size=\"14\" font-weight=\"bold\">",
              (unsigned long long)y + 20);
    put_label(out, ch->title, 100);
    rg_puts(out, "</text>\n");
    y += TITLE_H;
    if (ch->nbars) {
      /* the scale: 0, 25, 50, 75 and 100%, lines down through the rows */
      uint64_t bottom = y + SCALE_H + (uint64_t)ch->nbars * row_h;
      for (int q = 0; q <= 4; q++) {
        double x = BAR_X + q * (BAR_W / 4.0);
        rg_printf(out, "<text x=\"%.1f\" y=\"%llu\" font-size=\"9\" fill=\"#666\" "
                       "text-anchor=\"middle\">%d%%</text><path d=\"M%.1f %lluV%llu\" "
                       "stroke=\"#ddd\" stroke-width=\"1\"/>\n",
                  x, (unsigned long long)y + 9, q * 25, x, (unsigned long long)y + 12,
                  (unsigned long long)bottom);
      }
    }
    y += SCALE_H;
    if (!ch->nbars && ch->note) {
      rg_printf(out, "<text x=\"%d\" y=\"%llu\" font-style=\"italic\">", BAR_X,
                (unsigned long long)y + (ns * BAR_H) / 2 + 4);
      put_label(out, ch->note, 100);
      rg_puts(out, "</text>\n");
      y += row_h;
    }
    for (uint32_t b = 0; b < ch->nbars; b++) {
      const rgi_chart_bar *bar = &ch->bars[b];
      rg_printf(out, "<text x=\"%d\" y=\"%llu\" text-anchor=\"end\">", LABEL_W,
                (unsigned long long)y + (ns * BAR_H) / 2 + 4);
      put_label(out, bar->label, 36);   /* fits LABEL_W at 12 px */
      rg_puts(out, "</text>\n");
      for (uint32_t s = 0; s < ns; s++) {
        double w = bar->p[s] / top * BAR_W;
        uint64_t by = y + (uint64_t)s * BAR_H;
        rg_printf(out, "<rect x=\"%d\" y=\"%llu\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
                  BAR_X, (unsigned long long)by, w, BAR_H - 2, colours[s % 8]);
        if (bar->hi[s] > bar->lo[s]) {
          double x0 = BAR_X + bar->lo[s] / top * BAR_W, x1 = BAR_X + bar->hi[s] / top * BAR_W;
          double my = (double)by + (BAR_H - 2) / 2.0;
          rg_printf(out, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
                         "stroke=\"#222\" stroke-width=\"1.2\" fill=\"none\"/>",
                    x0, my, x1, x0, my - 4, my + 4, x1, my - 4, my + 4);
        }
        double xt = BAR_X + (bar->hi[s] > bar->p[s] ? bar->hi[s] : bar->p[s]) / top * BAR_W + 6;
        rg_printf(out, "<text x=\"%.1f\" y=\"%llu\" font-size=\"10\">%.1f%%</text>\n", xt,
                  (unsigned long long)by + BAR_H - 3, 100.0 * bar->p[s]);
      }
      y += row_h;
    }
    y += 16;
  }
  rg_puts(out, "</svg>\n");
}
