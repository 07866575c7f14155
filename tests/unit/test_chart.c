/*
** test_chart.c: the SVG bar charts of `sim --svg` and `odds --svg`
** (interp/render/chart.c), linked against the library only.
**
** Each case draws one document into an rg_buf and looks for the pieces the
** layout must hold, worked out by hand from chart.c's constants (a page 960
** wide, a heading line 20 high under a 20 top margin, a chart title 30, its
** scale 14, a row 12 per series plus 8, 16 after a chart; bars from x 270,
** 560 long at 100%).  Cases are named chart-N.
*/
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "regula_front.h"
#include "check.h"

/* Counts a check of name: ok, else prints why with the document. */
static void check(const char *name, int ok, const char *doc) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s\n--- document\n%s---\n", name, doc ? doc : "(nothing)");
}

/* Whether doc holds piece. */
static int has(const char *doc, const char *piece) {
  return doc && strstr(doc, piece) != NULL;
}

/* Draws the charts into a fresh buffer; returns its text (caller frees with
** rg_buf_free(b)). */
static const char *draw(rg_buf *b, const char *title, const char *const *names, uint32_t nseries,
                        const rgi_chart *charts, uint32_t n) {
  rg_buf_init(b);
  rgi_chart_svg(&b->out, title, names, nseries, charts, n);
  return b->data;
}

int main(void) {
  rg_buf b;
  const char *doc;

  {
    /* chart-1: XML's five characters as entities and a control character
    ** as a space; nseries 0 counts as one series (no legend); a chart with
    ** no bars shows its note in a row, one with neither takes no row.
    ** height: top 20 + 20 (one heading line) = 40; the noted chart 30 + 14
    ** + 20 (a row) + 16 = 80; the empty one 30 + 14 + 16 = 60: 180.
    ** The note: y = 40 + 30 + 14 = 84, its text at 84 + 12 / 2 + 4 = 94. */
    rgi_chart ch[2] = { { "first", NULL, 0, "not tallied: a <list>" }, { "second", NULL, 0, NULL } };
    doc = draw(&b, "a<b & \"c\" 'd'\x01" "e", NULL, 0, ch, 2);
    check("chart-1 entities and a control character",
          has(doc, "font-weight=\"bold\">a&lt;b &amp; &quot;c&quot; &apos;d&apos; e</text>"), doc);
    check("chart-2 height", has(doc, "width=\"960\" height=\"180\" viewBox=\"0 0 960 180\""), doc);
    check("chart-3 no legend for one series", !has(doc, "A = "), doc);
    check("chart-4 the note in place of bars",
          has(doc, "<text x=\"270\" y=\"94\" font-style=\"italic\">not tallied: a &lt;list&gt;</text>"), doc);
    check("chart-5 the second chart's title under the first (40 + 80 + 20)",
          has(doc, "<text x=\"10\" y=\"140\" font-size=\"14\" font-weight=\"bold\">second</text>"), doc);
    check("chart-6 no scale without bars", !has(doc, "%</text><path"), doc);
    check("chart-7 ends", has(doc, "</svg>\n") && strcmp(doc + strlen(doc) - 7, "</svg>\n") == 0, doc);
    rg_buf_free(&b);
  }
  {
    /* chart-10: a heading of 10 words of 19 letters (199 bytes) goes on
    ** lines of at most 90 bytes cut at spaces: 4 words (79 bytes), 4
    ** words, 2 words; each line 20 lower (y 24, 44, 64). */
    char title[256], w[20], l1[128], l3[300];
    memset(w, 'a', 19);
    w[19] = '\0';
    title[0] = '\0';
    for (int i = 0; i < 10; i++) {
      if (i) strcat(title, " ");
      w[0] = (char)('a' + i);
      strcat(title, w);
    }
    memcpy(l1, title, 79);
    l1[79] = '\0';
    snprintf(l3, sizeof l3, "%s</text>", title + 160);
    doc = draw(&b, title, NULL, 1, NULL, 0);
    check("chart-10 first line: 4 words",
          has(doc, "<text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">") &&
          has(doc, l1) && !has(doc, title), doc);
    check("chart-11 third line: the last 2 words",
          has(doc, "<text x=\"10\" y=\"64\" font-size=\"16\" font-weight=\"bold\">") && has(doc, l3) &&
          !has(doc, "y=\"84\" font-size=\"16\""), doc);
    check("chart-12 height 20 + 3 * 20", has(doc, "height=\"80\""), doc);
    rg_buf_free(&b);
  }
  {
    /* chart-20: a heading with no space is cut at 90 bytes, backed off to
    ** the start of a character: 89 x, then a 2-byte e-acute at bytes
    ** 89..90, so the first line is the 89 x and the second starts with it. */
    char title[128];
    memset(title, 'x', 89);
    memcpy(title + 89, "\xC3\xA9yyyyyyyyyy", 13);
    doc = draw(&b, title, NULL, 1, NULL, 0);
    {
      char first[160], second[64];
      snprintf(first, sizeof first, "font-weight=\"bold\">%.89s</text>", title);
      snprintf(second, sizeof second, "font-weight=\"bold\">\xC3\xA9yyyyyyyyyy</text>");
      check("chart-20 cut at a character's start", has(doc, first) && has(doc, second), doc);
    }
    rg_buf_free(&b);
  }
  {
    /* chart-30: at most 6 heading lines; the 6th holds the rest, cut at 100
    ** bytes with "...", backed off to a character's start: 20 words make 5
    ** lines of 4, then 99 z, an e-acute at bytes 99..100 and "tail": the
    ** 6th line is the 99 z and "...". */
    char title[600], w[20], last[160];
    size_t n = 0;
    memset(w, 'a', 19);
    w[19] = '\0';
    for (int i = 0; i < 20; i++) n += (size_t)snprintf(title + n, sizeof title - n, "%s ", w);
    memset(title + n, 'z', 99);
    n += 99;
    snprintf(title + n, sizeof title - n, "\xC3\xA9tail");
    doc = draw(&b, title, NULL, 1, NULL, 0);
    snprintf(last, sizeof last, "y=\"124\" font-size=\"16\" font-weight=\"bold\">%.99s...</text>", title + 400);
    check("chart-30 the 6th line cut with ...", has(doc, last), doc);
    check("chart-31 no 7th line", !has(doc, "y=\"144\" font-size=\"16\""), doc);
    check("chart-32 height 20 + 6 * 20", has(doc, "height=\"140\""), doc);
    rg_buf_free(&b);
  }
  {
    /* chart-40: 20 series are drawn as 16 (RG_CHART_SERIES), each in the
    ** legend (A to P, 22 apart from y 40), the colours round again after
    ** 8: series I (the 9th) has the first's colour.  A name longer than
    ** 110 bytes is cut with "...". */
    const char *names[20];
    char longname[200];
    memset(longname, 'n', 150);
    longname[150] = '\0';
    for (int i = 0; i < 20; i++) names[i] = "s";
    names[1] = longname;
    rgi_chart_bar bar;
    memset(&bar, 0, sizeof bar);
    bar.label = "hit";
    bar.p[15] = 0.5;
    rgi_chart ch = { "result", &bar, 1, NULL };
    doc = draw(&b, "t", names, 20, &ch, 1);
    check("chart-40 16 series in the legend", has(doc, "P = s</text>") && !has(doc, "Q = "), doc);
    check("chart-41 the 9th series' colour is the first's",
          has(doc, "<rect x=\"10\" y=\"216\" width=\"14\" height=\"14\" fill=\"#4a7ab5\"/>"
                   "<text x=\"30\" y=\"228\">I = s</text>"), doc);
    {
      char cut[160];
      snprintf(cut, sizeof cut, "B = %.110s...</text>", longname);
      check("chart-42 a long series name cut at 110 bytes", has(doc, cut), doc);
    }
    /* height: 40 + legend 16 * 22 = 352, then 30 + 14 + 1 row of 16 * 12 +
    ** 8 = 200, + 16: 652 */
    check("chart-43 height with 16 series", has(doc, "height=\"652\""), doc);
    rg_buf_free(&b);
  }
  {
    /* chart-50: bars.  One series: a share of 25% is 140 px long; an
    ** interval 0.2..0.3 is drawn from x 382 to 438 across the bar's middle
    ** (y 84 + 5 = 89) and the percentage follows the interval's end (270 +
    ** 168 + 6 = 444); an exact share (lo == hi) has no interval.  The
    ** first bar's row is at y 40 + 30 + 14 = 84; its label 84 + 6 + 4. */
    rgi_chart_bar bars[2];
    memset(bars, 0, sizeof bars);
    bars[0].label = "2 & up";
    bars[0].p[0] = 0.25;
    bars[0].lo[0] = 0.2;
    bars[0].hi[0] = 0.3;
    bars[1].label = "a label longer than thirty-six bytes, cut";
    bars[1].p[0] = 0.75;
    bars[1].lo[0] = bars[1].hi[0] = 0.75;
    rgi_chart ch = { "hits", bars, 2, "never shown" };
    doc = draw(&b, "t", NULL, 1, &ch, 1);
    check("chart-50 bar label", has(doc, "<text x=\"260\" y=\"94\" text-anchor=\"end\">2 &amp; up</text>"), doc);
    check("chart-51 bar length",
          has(doc, "<rect x=\"270\" y=\"84\" width=\"140.0\" height=\"10\" fill=\"#4a7ab5\"/>"), doc);
    check("chart-52 interval",
          has(doc, "<path d=\"M382.0 89.0H438.0M382.0 85.0V93.0M438.0 85.0V93.0\""), doc);
    check("chart-53 percentage after the interval",
          has(doc, "<text x=\"444.0\" y=\"93\" font-size=\"10\">25.0%</text>"), doc);
    check("chart-54 an exact share has no interval, its text after the bar (270 + 420 + 6)",
          has(doc, "<text x=\"696.0\" y=\"113\" font-size=\"10\">75.0%</text>") &&
          !has(doc, "H690.0"), doc);
    check("chart-55 a label cut at 36 bytes",
          has(doc, ">a label longer than thirty-six bytes...</text>"), doc);
    check("chart-56 the note is not shown beside bars", !has(doc, "never shown"), doc);
    rg_buf_free(&b);
    /* a label of bytes that start no character (a crafted module's text)
    ** is cut back to nothing, not before its start */
    char odd[41];
    memset(odd, 0x80, 40);
    odd[40] = '\0';
    bars[0].label = odd;
    doc = draw(&b, "t", NULL, 1, &ch, 1);
    check("chart-58 a label of continuation bytes cut to '...'",
          has(doc, "<text x=\"260\" y=\"94\" text-anchor=\"end\">...</text>"), doc);
    check("chart-57 the scale: 50% at x 550 down to the rows' end (84 + 2 * 20 = 124)",
          has(doc, "<text x=\"550.0\" y=\"79\" font-size=\"9\" fill=\"#666\" text-anchor=\"middle\">50%"
                   "</text><path d=\"M550.0 82V124\""), doc);
    rg_buf_free(&b);
  }
  return check_done("test_chart");
}
