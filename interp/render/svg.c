/*
** svg.c: collects the shapes of a run into pictures and writes them as SVG
** (see svg.h).  Each shape is turned into its SVG element when it arrives,
** while the values it refers to (a list of points, a label) are still on the
** VM's heap; a picture is its header data and the text of its elements.
*/
#include "svg.h"
#include "grow.h"

#include "regula_front.h"
#include "builtins.h"
#include "value.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utf8proc.h>

/* The fonts a label asks for: common ones, then the generic family. */
#define FONT_FAMILY "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

/* The largest width or height of a canvas, in thousandths of its unit. */
#define MAX_SIZE 1000000000000ll

/* A growable text; `failed` once an allocation failed (appends stop). */
typedef struct sbuf {
  char *s;
  size_t n, cap;
  int failed;
} sbuf;

typedef struct picture {
  char *name, *title;
  int64_t w, h;             /* thousandths of the sheet's unit */
  sbuf body;                /* the elements, one a line */
} picture;

struct rg_svg {
  picture *pics;
  uint32_t n, cap;
  char err[256];            /* the first error ("" none) */
  uint32_t err_pc;
  const rgi_module *m;       /* the module of the shapes (rgi_svg_add), for err_pc */
};

/* ---- text ------------------------------------------------------------------ */

/* Appends s[0..n) to b, kept NUL-terminated, growing b->s (rg_realloc).
** When that fails, sets b->failed: this and every later append are dropped. */
static void put_n(sbuf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    char *p;
    while (cap < b->n + n + 1) cap *= 2;
    p = rg_realloc(b->s, cap);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

/* Appends the string s to b (see put_n). */
static void put(sbuf *b, const char *s) {
  put_n(b, s, strlen(s));
}

/* Appends a number of thousandths exactly: "12", "12.5", "-0.125". */
static void put_milli(sbuf *b, int64_t v) {
  char tmp[48];
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  uint64_t whole = u / 1000, frac = u % 1000;
  if (frac == 0) {
    snprintf(tmp, sizeof tmp, "%s%llu", v < 0 ? "-" : "", (unsigned long long)whole);
  } else {
    int digits = 3;
    while (frac % 10 == 0) { frac /= 10; digits--; }
    snprintf(tmp, sizeof tmp, "%s%llu.%0*llu", v < 0 ? "-" : "", (unsigned long long)whole,
             digits, (unsigned long long)frac);
  }
  put(b, tmp);
}

/* Appends ` NAME="NUMBER"`. */
static void put_attr(sbuf *b, const char *name, int64_t milli) {
  put(b, " ");
  put(b, name);
  put(b, "=\"");
  put_milli(b, milli);
  put(b, "\"");
}

/* Appends s as XML character data (also fit for an attribute in double
** quotes): & < > " ' escaped, tabs and line breaks as spaces, invalid UTF-8
** and characters XML forbids as U+FFFD. */
static void put_xml(sbuf *b, const char *s) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
  while (*p) {
    utf8proc_int32_t c;
    utf8proc_ssize_t n = utf8proc_iterate(p, -1, &c);
    if (n <= 0) {
      put(b, "\xEF\xBF\xBD");
      p++;
      continue;
    }
    if (c == '&') put(b, "&amp;");
    else if (c == '<') put(b, "&lt;");
    else if (c == '>') put(b, "&gt;");
    else if (c == '"') put(b, "&quot;");
    else if (c == '\'') put(b, "&apos;");
    else if (c == '\t' || c == '\n' || c == '\r') put(b, " ");
    else if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) put(b, "\xEF\xBF\xBD");
    else put_n(b, (const char *)p, (size_t)n);
    p += n;
  }
}

/* Returns a copy of s from rg_malloc (the caller frees it with rg_free), or
** NULL when out of memory. */
static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = rg_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* ---- errors ---------------------------------------------------------------- */

/* Keeps the first error; returns -1. */
static int fail(rg_svg *s, uint32_t pc, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
/* Formats fmt into s->err and keeps pc, unless an error is kept already.
** Returns -1. */
static int fail(rg_svg *s, uint32_t pc, const char *fmt, ...) {
  va_list ap;
  if (s->err[0]) return -1;
  va_start(ap, fmt);
  vsnprintf(s->err, sizeof s->err, fmt, ap);
  va_end(ap);
  s->err_pc = pc;
  return -1;
}

/* ---- values ---------------------------------------------------------------- */

/* A number in thousandths of the sheet's unit: a distance as it is, an int
** or a percent as whole units.  Returns 0, or -1 when it is not a number or
** too large. */
static int milli_of(rgi_type t, rgi_value v, int64_t *out) {
  const int64_t lim = INT64_MAX / 1000;
  if (t.kind == RG_K_DIST) {
    *out = v;
    return 0;
  }
  if (t.kind != RG_K_INT && t.kind != RG_K_PERCENT) return -1;
  if (v > lim || v < -lim) return -1;
  *out = v * 1000;
  return 0;
}

/* Checks a style: only [a-zA-Z0-9#:;.,%()_ -] and no "url(".  Returns 0,
** 1 for url(, or 2 with the first character not allowed in *bad. */
static int style_check(const char *st, unsigned char *bad) {
  for (const char *p = st; *p; p++) {
    unsigned char c = (unsigned char)*p;
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             strchr("#:;.,%()_ -", c) != NULL;
    if (!ok) {
      *bad = c;
      return 2;
    }
    if ((p[0] == 'u' || p[0] == 'U') && (p[1] == 'r' || p[1] == 'R') &&
        (p[2] == 'l' || p[2] == 'L') && p[3] == '(')
      return 1;
  }
  return 0;
}

/* Appends ` style="..."` when st is not empty. */
static void put_style(sbuf *b, const char *st) {
  if (!*st) return;
  put(b, " style=\"");
  put(b, st);   /* checked: nothing in it needs escaping */
  put(b, "\"");
}

/* The default stroke width of picture p: 1/400 of its shorter side, at least
** 1 (thousandths). */
static int64_t stroke_of(const picture *p) {
  int64_t s = (p->w < p->h ? p->w : p->h) / 400;
  return s > 0 ? s : 1;
}
/* The default font size of picture p: 1/32 of its shorter side, at least 1
** (thousandths). */
static int64_t font_of(const picture *p) {
  int64_t s = (p->w < p->h ? p->w : p->h) / 32;
  return s > 0 ? s : 1;
}

/* Appends a label centred on (x, y) when text is not empty. */
static void put_centred(sbuf *b, const picture *p, int64_t x, int64_t y, const char *text) {
  if (!*text) return;
  put(b, "<text");
  put_attr(b, "x", x);
  put_attr(b, "y", y);
  put_attr(b, "font-size", font_of(p));
  put(b, " text-anchor=\"middle\" dy=\"0.35em\" fill=\"#000\">");
  put_xml(b, text);
  put(b, "</text>\n");
}

/* Appends the default look of a filled shape: no fill, a thin black line. */
static void put_outline(sbuf *b, const picture *p) {
  put(b, " fill=\"none\" stroke=\"#000\"");
  put_attr(b, "stroke-width", stroke_of(p));
}

/* ---- the collection -------------------------------------------------------- */

rg_svg *rgi_svg_new(void) {
  rg_svg *s = rg_malloc(sizeof *s);
  if (s) memset(s, 0, sizeof *s);
  return s;
}

void rgi_svg_free(rg_svg *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->n; i++) {
    rg_free(s->pics[i].name);
    rg_free(s->pics[i].title);
    rg_free(s->pics[i].body.s);
  }
  rg_free(s->pics);
  rg_free(s);
}

const char *rgi_svg_error(const rg_svg *s, uint32_t *pc) {
  if (!s->err[0]) return NULL;
  if (pc) *pc = s->err_pc;
  return s->err;
}

const rgi_module *rgi_svg_module(const rg_svg *s) {
  return s->m;
}

uint32_t rgi_svg_count(const rg_svg *s) {
  return s->n;
}

const char *rgi_svg_name(const rg_svg *s, uint32_t i) {
  return i < s->n ? s->pics[i].name : "";
}

int rgi_svg_find(const rg_svg *s, const char *name) {
  for (uint32_t i = 0; i < s->n; i++)
    if (strcmp(s->pics[i].name, name) == 0) return (int)i;
  return -1;
}

/* Starts a picture. */
static int add_canvas(rg_svg *s, const char *name, int64_t w, int64_t h, const char *title,
                      uint32_t pc) {
  picture *p;
  if (w <= 0 || h <= 0 || w > MAX_SIZE || h > MAX_SIZE)
    return fail(s, pc, "canvas '%s' needs a width and a height above 0 (and at most 10^9)", name);
  if (s->n == s->cap) {
    picture *np = rgi_grow(s->pics, &s->cap, 4, sizeof *np);
    if (!np) return fail(s, pc, "out of memory");
    s->pics = np;
  }
  p = &s->pics[s->n];
  memset(p, 0, sizeof *p);
  p->name = dup_str(name);
  p->title = dup_str(title);
  p->w = w;
  p->h = h;
  if (!p->name || !p->title) {
    rg_free(p->name);
    rg_free(p->title);
    return fail(s, pc, "out of memory");
  }
  s->n++;
  return 0;
}

/* Returns the argument kinds of shape `kind` (builtins.h: "nnnnsv" for
** rect), or NULL when kind is not a shape. */
static const char *shape_args(const char *kind) {
#define RG_X(n, kind_, argc, args, op, fn) RG_BUILTIN_IF_SHAPE_##kind_(if (strcmp(kind, #n) == 0) return args;)
  RG_BUILTINS(RG_X)
#undef RG_X
  return NULL;
}

int rgi_svg_add(rg_svg *s, const rgi_module *m, uint32_t note, const rgi_value *vals,
               const rgi_value *heap, uint32_t nheap, uint32_t pc) {
  const rgi_note_info *ni;
  const char *kind;
  const rgi_type *ty;
  int64_t num[4] = { 0, 0, 0, 0 };
  char text[1024], name[1024];
  s->m = m;
  unsigned char bad = 0;
  const char *style = "", *args;
  picture *p;
  sbuf *b;
  uint32_t nn = 0;

  if (s->err[0]) return -1;
  if (note >= m->nnotes) return fail(s, pc, "a shape of no known kind");
  ni = &m->notes[note];
  kind = rgi_module_str(m, ni->text);
  if ((uint64_t)ni->first_type + ni->nvals > m->ntypes) return fail(s, pc, "a shape of bad types");
  ty = &m->types[ni->first_type];

  args = shape_args(kind);
  if (strcmp(kind, "canvas") == 0) {
    if (!args || ni->nvals != strlen(args)) return fail(s, pc, "canvas takes 4 values");
    rgi_value_format(name, sizeof name, m, heap, nheap, ty[0], vals[0]);
    rgi_value_format(text, sizeof text, m, heap, nheap, ty[3], vals[3]);
    if (milli_of(ty[1], vals[1], &num[0]) || milli_of(ty[2], vals[2], &num[1]))
      return fail(s, pc, "canvas '%s': its width and height are not numbers", name);
    return add_canvas(s, name, num[0], num[1], text, pc);
  }
  if (s->n == 0) return fail(s, pc, "a %s before any canvas", kind);
  p = &s->pics[s->n - 1];
  b = &p->body;

  /* The leading numbers, the style, the label: as builtins.h lists the
  ** shape's arguments. */
  if (!args || ni->nvals != strlen(args) || !strchr(args, 's'))
    return fail(s, pc, "a shape '%s' with %u values", kind, ni->nvals);
  while (args[nn] == 'n') nn++;
  for (uint32_t i = 0; i < nn; i++)
    if (milli_of(ty[i], vals[i], &num[i])) return fail(s, pc, "%s: value %u is not a number", kind, i + 1);
  {
    /* The style: the value after the numbers (label: the last). */
    uint32_t si = (uint32_t)(strchr(args, 's') - args);
    if (ty[si].kind != RG_K_TEXT) return fail(s, pc, "%s: the style is not text", kind);
    style = vals[si] >= 0 && (uint64_t)vals[si] < m->nstrings ? rgi_module_str(m, (uint32_t)vals[si]) : "";
    switch (style_check(style, &bad)) {
    case 1:
      return fail(s, pc, "%s: style \"%s\": url() is not allowed in a style (a picture links to nothing)",
                  kind, style);
    case 2:
      if (bad < 0x20 || bad >= 0x7f)
        return fail(s, pc, "%s: a style may hold only letters, digits, spaces and #:;.,%%()_-, not byte 0x%02x",
                    kind, bad);
      return fail(s, pc, "%s: style \"%s\": '%c' is not allowed in a style (only letters, digits, spaces and #:;.,%%()_-)",
                  kind, style, bad);
    }
  }
  text[0] = '\0';

  if (strcmp(kind, "rect") == 0) {
    int64_t x = num[0], y = num[1], w = num[2], h = num[3];
    if (w < 0) { x += w; w = -w; }
    if (h < 0) { y += h; h = -h; }
    rgi_value_format(text, sizeof text, m, heap, nheap, ty[5], vals[5]);
    put(b, "<rect");
    put_attr(b, "x", x);
    put_attr(b, "y", y);
    put_attr(b, "width", w);
    put_attr(b, "height", h);
    put_outline(b, p);
    put_style(b, style);
    put(b, "/>\n");
    put_centred(b, p, x + w / 2, y + h / 2, text);
  } else if (strcmp(kind, "line") == 0) {
    put(b, "<line");
    put_attr(b, "x1", num[0]);
    put_attr(b, "y1", num[1]);
    put_attr(b, "x2", num[2]);
    put_attr(b, "y2", num[3]);
    put(b, " stroke=\"#000\"");
    put_attr(b, "stroke-width", stroke_of(p));
    put_style(b, style);
    put(b, "/>\n");
  } else if (strcmp(kind, "circle") == 0) {
    if (num[2] < 0) return fail(s, pc, "circle: a negative radius");
    rgi_value_format(text, sizeof text, m, heap, nheap, ty[4], vals[4]);
    put(b, "<circle");
    put_attr(b, "cx", num[0]);
    put_attr(b, "cy", num[1]);
    put_attr(b, "r", num[2]);
    put_outline(b, p);
    put_style(b, style);
    put(b, "/>\n");
    put_centred(b, p, num[0], num[1], text);
  } else if (strcmp(kind, "label") == 0) {
    rgi_value_format(text, sizeof text, m, heap, nheap, ty[2], vals[2]);
    if (*text) {
      put(b, "<text");
      put_attr(b, "x", num[0]);
      put_attr(b, "y", num[1]);
      put_attr(b, "font-size", font_of(p));
      put(b, " fill=\"#000\"");
      put_style(b, style);
      put(b, ">");
      put_xml(b, text);
      put(b, "</text>\n");
    }
  } else {
    /* polygon: a list of numbers x1, y1, x2, y2, ... on the heap. */
    rgi_value v = vals[0];
    rgi_type et;
    rgi_value n;
    int64_t sx = 0, sy = 0;
    if (ty[0].kind != RG_K_LIST || ty[0].ref >= m->ntypes || v < 0 || (uint64_t)v >= nheap)
      return fail(s, pc, "polygon: the points are not a list");
    et = m->types[ty[0].ref];
    n = heap[v];
    if (n < 0 || (uint64_t)n > nheap - (uint64_t)v - 1)
      return fail(s, pc, "polygon: the points are not a list");
    if (n % 2 != 0 || n < 6)
      return fail(s, pc, "polygon: needs at least 3 points as x1, y1, x2, y2, ... (got %lld numbers)",
                  (long long)n);
    rgi_value_format(text, sizeof text, m, heap, nheap, ty[2], vals[2]);
    put(b, "<polygon points=\"");
    for (rgi_value k = 0; k < n; k++) {
      int64_t c;
      if (milli_of(et, heap[v + 1 + k], &c)) return fail(s, pc, "polygon: a point is not a number");
      if (k) put(b, k % 2 ? "," : " ");
      put_milli(b, c);
      if (k % 2) sy += c / (n / 2);
      else sx += c / (n / 2);
    }
    put(b, "\"");
    put_outline(b, p);
    put_style(b, style);
    put(b, "/>\n");
    put_centred(b, p, sx, sy, text);
  }
  if (b->failed) return fail(s, pc, "out of memory");
  return 0;
}

/* ---- writing --------------------------------------------------------------- */

/* Renders picture i as a whole document into b. */
static void render(const rg_svg *s, uint32_t i, sbuf *b) {
  const picture *p = &s->pics[i];
  int64_t longer = p->w > p->h ? p->w : p->h;
  /* Pixels: the longer side RG_SVG_PIXELS, the other in proportion (rounded). */
  int64_t pw = (p->w * RG_SVG_PIXELS + longer / 2) / longer;
  int64_t ph = (p->h * RG_SVG_PIXELS + longer / 2) / longer;
  char tmp[64];
  if (pw < 1) pw = 1;
  if (ph < 1) ph = 1;
  put(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  snprintf(tmp, sizeof tmp, "%lld", (long long)pw);
  put(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
  put(b, tmp);
  snprintf(tmp, sizeof tmp, "%lld", (long long)ph);
  put(b, "\" height=\"");
  put(b, tmp);
  put(b, "\" viewBox=\"0 0 ");
  put_milli(b, p->w);
  put(b, " ");
  put_milli(b, p->h);
  put(b, "\" font-family=\"" FONT_FAMILY "\">\n<title>");
  put_xml(b, p->title);
  put(b, "</title>\n<desc>");
  put_xml(b, p->name);
  put(b, "</desc>\n<rect x=\"0\" y=\"0\"");
  put_attr(b, "width", p->w);
  put_attr(b, "height", p->h);
  put(b, " fill=\"#fff\"/>\n");
  if (p->body.s) put(b, p->body.s);
  put(b, "</svg>\n");
}

int rgi_svg_write(const rg_svg *s, uint32_t i, rg_out *out) {
  sbuf b = { 0 };
  int rc = 0;
  if (i >= s->n) return -1;
  render(s, i, &b);
  if (!b.failed) rg_write(out, b.s, b.n);
  if (b.failed || out->failed) rc = -1;
  rg_free(b.s);
  return rc;
}

int rgi_svg_save(const rg_svg *s, uint32_t i, const char *path, char *err, size_t errlen) {
  sbuf b = { 0 };
  int rc;
  if (i >= s->n) {
    snprintf(err, errlen, "%s: no such picture", path);
    return -1;
  }
  render(s, i, &b);
  if (b.failed) {
    rg_free(b.s);
    snprintf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  /* a picture is for everyone to read */
  rc = rgi_file_save(path, b.s, b.n, 0644, err, errlen);
  rg_free(b.s);
  return rc;
}
