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

static const char *const colours[] = { "#4a7ab5", "#d9822b", "#5a9e4b", "#b5484a", "#7d5ba6",
                                       "#8c6d46", "#c95fa8", "#6d6d6d" };

/* Writes s XML-escaped (& < > " ' as entities, control characters as spaces). */
static void put_text(rg_out *o, const char *s) {
  for (; *s; s++) {
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
    put_text(o, s);
    return;
  }
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) max--;
  char buf[256];
  if (max >= sizeof buf) max = sizeof buf - 1;
  memcpy(buf, s, max);
  buf[max] = '\0';
  put_text(o, buf);
  rg_puts(o, "...");
}

void rg_chart_svg(rg_out *out, const char *title, const char *const *names, uint32_t nseries,
                  const rg_chart *charts, uint32_t n) {
  uint32_t ns = nseries < 1 ? 1 : nseries > RG_CHART_SERIES ? RG_CHART_SERIES : nseries;
  uint32_t row_h = ns * BAR_H + ROW_GAP, legend = ns > 1 ? 22 * ns : 0;
  /* a long heading goes on two lines, cut at a space */
  size_t tlen = strlen(title), cut = tlen;
  if (tlen > TITLE_MAX) {
    for (cut = TITLE_MAX; cut > 0 && title[cut] != ' '; cut--) {}
    if (cut == 0)   /* no space: cut at a character's start */
      for (cut = TITLE_MAX; cut > 0 && ((unsigned char)title[cut] & 0xC0) == 0x80; cut--) {}
  }
  uint64_t top_h = cut < tlen ? 60 : 40;
  uint64_t height = top_h + legend;
  for (uint32_t c = 0; c < n; c++)
    height += TITLE_H + (uint64_t)(charts[c].nbars ? charts[c].nbars : charts[c].note != NULL) *
                            row_h + 16;
  rg_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                 "version=\"1.1\" width=\"%d\" height=\"%llu\" viewBox=\"0 0 %d %llu\" "
                 "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
            WIDTH, (unsigned long long)height, WIDTH, (unsigned long long)height);
  rg_printf(out, "<rect width=\"%d\" height=\"%llu\" fill=\"#fff\"/>\n<text x=\"10\" y=\"24\" "
                 "font-size=\"16\" font-weight=\"bold\">", WIDTH, (unsigned long long)height);
  if (cut < tlen) {
    char first[TITLE_MAX + 1];
    memcpy(first, title, cut);
    first[cut] = '\0';
    put_text(out, first);
    rg_puts(out, "</text>\n<text x=\"10\" y=\"44\" font-size=\"16\" font-weight=\"bold\">");
    put_label(out, title + cut + (title[cut] == ' '), TITLE_MAX + 10);
  } else {
    put_text(out, title);
  }
  rg_puts(out, "</text>\n");
  uint64_t y = top_h;
  for (uint32_t s = 0; s < ns && ns > 1; s++, y += 22) {
    rg_printf(out, "<rect x=\"10\" y=\"%llu\" width=\"14\" height=\"14\" fill=\"%s\"/>"
                   "<text x=\"30\" y=\"%llu\">%c = ", (unsigned long long)y, colours[s % 8],
              (unsigned long long)y + 12, 'A' + (int)s);
    put_label(out, names[s], 110);
    rg_puts(out, "</text>\n");
  }
  for (uint32_t c = 0; c < n; c++) {
    const rg_chart *ch = &charts[c];
    double top = 0;
    for (uint32_t b = 0; b < ch->nbars; b++)
      for (uint32_t s = 0; s < ns; s++) {
        if (ch->bars[b].hi[s] > top) top = ch->bars[b].hi[s];
        if (ch->bars[b].p[s] > top) top = ch->bars[b].p[s];
      }
    if (top <= 0) top = 1;
    rg_printf(out, "<text x=\"10\" y=\"%llu\" font-size=\"14\" font-weight=\"bold\">",
              (unsigned long long)y + 20);
    put_label(out, ch->title, 100);
    rg_puts(out, "</text>\n");
    y += TITLE_H;
    if (!ch->nbars && ch->note) {
      rg_printf(out, "<text x=\"%d\" y=\"%llu\" font-style=\"italic\">", BAR_X,
                (unsigned long long)y + (ns * BAR_H) / 2 + 4);
      put_label(out, ch->note, 100);
      rg_puts(out, "</text>\n");
      y += row_h;
    }
    for (uint32_t b = 0; b < ch->nbars; b++) {
      const rg_chart_bar *bar = &ch->bars[b];
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
