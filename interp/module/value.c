/*
** value.c: printing and parsing values as people read them (see value.h).
*/
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* A bounded buffer as an rg_out: writes as much as fits, never fails, and
** keeps the text NUL-terminated (truncated to size - 1 bytes). */
typedef struct sbuf {
  char *p;
  size_t n, size;
} sbuf;

/* rg_out callback of an sbuf: appends s[0..n), truncated; returns 0, or
** -1 once the buffer is full (the rg_out fails: a value's printing stops
** there instead of walking what can no longer be written). */
static int sbuf_write(void *ctx, const char *s, size_t n) {
  sbuf *b = ctx;
  while (n && b->n + 1 < b->size) {
    b->p[b->n++] = *s++;
    n--;
  }
  if (b->size) b->p[b->n] = '\0';      /* n < size: the loop keeps n + 1 < size */
  return n ? -1 : 0;
}

/* Makes an rg_out writing into b (buf of size bytes, emptied). */
static rg_out sbuf_out(sbuf *b, char *buf, size_t size) {
  rg_out o = { sbuf_write, b, 0 };
  b->p = buf;
  b->n = 0;
  b->size = size;
  if (size) buf[0] = '\0';
  return o;
}

/* Writes a number of thousandths as a decimal ("6", "2.5", "-0.125"). */
static void put_milli(rg_out *o, rgi_value v) {
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  uint64_t whole = u / 1000, frac = u % 1000;
  if (frac == 0) rg_printf(o, "%s%llu", v < 0 ? "-" : "", (unsigned long long)whole);
  else {
    int digits = 3;
    while (frac % 10 == 0) { frac /= 10; digits--; }
    rg_printf(o, "%s%llu.%0*llu", v < 0 ? "-" : "", (unsigned long long)whole, digits,
              (unsigned long long)frac);
  }
}

/* Returns the name people see for member i of enum e. */
static const char *member_name(const rgi_module *m, uint32_t e, uint32_t i) {
  const rgi_member_info *mi;
  if (e >= m->nenums || i >= m->enums[e].count) return "?";
  mi = &m->members[m->enums[e].first + i];
  return rgi_module_str(m, mi->display ? mi->display : mi->code);
}

static void put_shown(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      const rgi_record *r, rgi_value v, int depth, long *left);

/* Writes v of type t to o; records inline as {field: value, ...}, lists as
** [a, b, ...].  depth counts the records and lists around v: past 16 (only
** a crafted module nests so deep) the value prints as "?".  *left counts
** the values still allowed (RG_PRINT_MAX_VALUES for one print): a value
** past it prints as "..." and the lists and records around it stop, so a
** value that holds itself (l[i] = {a: l}) prints in bounded time. */
static void put_value(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      rgi_type t, rgi_value v, int depth, long *left) {
  if (*left <= 0 || --*left == 0) {
    if (*left == 0) { rg_puts(o, "..."); *left = -1; }
    return;
  }
  switch (t.kind) {
  case RG_K_INT: rg_printf(o, "%lld", (long long)v); break;
  case RG_K_BOOL: rg_puts(o, v ? "true" : "false"); break;
  case RG_K_PERCENT: rg_printf(o, "%lld%%", (long long)v); break;
  case RG_K_TEXT:
    rg_puts(o, v >= 0 && (uint64_t)v < m->nstrings ? rgi_module_str(m, (uint32_t)v) : "?");
    break;
  case RG_K_DIST:
    put_milli(o, v);
    rg_putc(o, ' ');
    rg_puts(o, t.ref < m->nunits ? rgi_module_str(m, m->units[t.ref].name) : "?");
    break;
  case RG_K_ENUM:
    rg_puts(o, v >= 0 && v < 64 ? member_name(m, t.ref, (uint32_t)v) : "?");
    break;
  case RG_K_SET: {
    bool first = true;
    uint32_t count = t.ref < m->nenums ? m->enums[t.ref].count : 0;
    for (uint32_t i = 0; i < count; i++)
      if (((uint64_t)v >> i) & 1) {
        if (!first) rg_puts(o, ", ");
        rg_puts(o, member_name(m, t.ref, i));
        first = false;
      }
    if (first) rg_puts(o, "none");
    break;
  }
  case RG_K_RECORD: {
    const rgi_record *r;
    if (depth > 16 || t.ref >= m->nrecords || v < 0 || (uint64_t)v + m->records[t.ref].count > nheap) {
      rg_putc(o, '?');
      break;
    }
    r = &m->records[t.ref];
    if (r->shown) {
      put_shown(o, m, heap, nheap, r, v, depth, left);
      break;
    }
    rg_putc(o, '{');
    for (uint32_t k = 0; k < r->count && !o->failed && *left > 0; k++) {
      const rgi_field_info *f = &m->fields[r->first + k];
      if (k) rg_puts(o, ", ");
      rg_puts(o, rgi_module_str(m, f->name));
      rg_puts(o, ": ");
      put_value(o, m, heap, nheap, f->type, heap[v + k], depth + 1, left);
    }
    rg_putc(o, '}');
    break;
  }
  case RG_K_LIST: {
    /* heap[v] is the length n; the elements follow. */
    rgi_value n;
    if (t.ref >= m->ntypes || v < 0 || (uint64_t)v >= nheap || depth > 16) {
      rg_putc(o, '?');
      break;
    }
    n = heap[v];
    if (n < 0 || (uint64_t)n > (uint64_t)nheap - (uint64_t)v - 1) {
      rg_putc(o, '?');
      break;
    }
    rg_putc(o, '[');
    for (rgi_value k = 0; k < n && !o->failed && *left > 0; k++) {
      if (k) rg_puts(o, ", ");
      put_value(o, m, heap, nheap, m->types[t.ref], heap[v + 1 + k], depth + 1, left);
    }
    rg_putc(o, ']');
    break;
  }
  default: rg_putc(o, '?'); break;
  }
}

/* Writes record v (of record r, on the heap) by r's shown form: text as
** it is, {{ as {, {FIELD} as the field's value (a bool field: its name
** when true, nothing when false), spaces at either end dropped.  The form
** was checked by the compiler; an unknown field prints as '?'. */
static void put_form(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                     const rgi_record *r, const char *form, rgi_value v, int depth, long *left);

static void put_shown(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      const rgi_record *r, rgi_value v, int depth, long *left) {
  put_form(o, m, heap, nheap, r, rgi_module_str(m, r->shown), v, depth, left);
}

void rgi_value_form(rg_out *out, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                   uint32_t rec, const char *form, rgi_value v) {
  long left = RG_PRINT_MAX_VALUES;
  if (rec >= m->nrecords || v < 0 || (uint64_t)v + m->records[rec].count > nheap) {
    rg_putc(out, '?');
    return;
  }
  put_form(out, m, heap, nheap, &m->records[rec], form, v, 0, &left);
}

int rgi_form_part_at(const char *s, const char *end, rgi_form_part *p) {
  int depth = 0;
  p->close = NULL;
  for (const char *c = s; c < end && !p->close; c++) {
    if (*c == '{' && c > s && c + 1 < end && c[1] == '{') c++;   /* {{ inside */
    else if (*c == '{') depth++;
    else if (*c == '}' && --depth == 0) p->close = c;
  }
  if (!p->close) return -1;
  /* a name holds no ':' and no '{': the first ':' ends it */
  p->name = s + 1;
  p->text = memchr(s + 1, ':', (size_t)(p->close - s - 1));
  p->nlen = p->text ? (size_t)(p->text - p->name) : (size_t)(p->close - p->name);
  if (p->text) p->text++;
  return 0;
}

int rgi_form_flag_kind(rgi_kind k) {
  return k == RG_K_BOOL || k == RG_K_INT || k == RG_K_PERCENT || k == RG_K_DIST;
}

/* Writes form[s..end) of record v to o, with no trimming; nest counts the
** {FIELD:TEXT} it is inside (beyond RG_FORM_MAX_NEST: '?'). */
static void expand(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                   const rgi_record *r, const char *s, const char *end, rgi_value v, int depth,
                   long *left, int nest) {
  while (s < end) {
    rgi_form_part p;
    uint32_t k = 0;
    if (*s == '{' && s + 1 < end && s[1] == '{') { rg_putc(o, '{'); s += 2; continue; }
    if (*s != '{') { rg_putc(o, *s++); continue; }
    if (rgi_form_part_at(s, end, &p) != 0) {
      /* only a crafted module's form (the compiler refuses it): the rest as
      ** it is, so that the work stays linear */
      rg_write(o, s, (size_t)(end - s));
      break;
    }
    for (; k < r->count; k++) {
      const char *f = rgi_module_str(m, m->fields[r->first + k].name);
      if (strlen(f) == p.nlen && strncmp(f, p.name, p.nlen) == 0) break;
    }
    if (k == r->count) {
      rg_putc(o, '?');
    } else if (p.text) {
      if (nest >= RG_FORM_MAX_NEST || !rgi_form_flag_kind(m->fields[r->first + k].type.kind))
        rg_putc(o, '?');
      else if (heap[v + k] != 0)
        expand(o, m, heap, nheap, r, p.text, p.close, v, depth, left, nest + 1);
    } else if (m->fields[r->first + k].type.kind == RG_K_BOOL) {
      if (heap[v + k]) rg_write(o, p.name, p.nlen);
    } else {
      put_value(o, m, heap, nheap, m->fields[r->first + k].type, heap[v + k], depth + 1, left);
    }
    s = p.close + 1;
  }
}

/* put_shown with form in place of r's shown form. */
static void put_form(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                     const rgi_record *r, const char *form, rgi_value v, int depth, long *left) {
  char buf[1024];
  sbuf b;
  rg_out tmp = sbuf_out(&b, buf, sizeof buf);
  size_t from = 0, to;
  expand(&tmp, m, heap, nheap, r, form, form + strlen(form), v, depth, left, 0);
  to = strlen(buf);
  while (from < to && buf[from] == ' ') from++;
  while (to > from && buf[to - 1] == ' ') to--;
  rg_write(o, buf + from, to - from);
}

void rgi_value_write(rg_out *out, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                    rgi_type t, rgi_value v) {
  long left = RG_PRINT_MAX_VALUES;
  put_value(out, m, heap, nheap, t, v, 0, &left);
}

char *rgi_value_format(char *buf, size_t size, const rgi_module *m, const rgi_value *heap,
                      uint32_t nheap, rgi_type t, rgi_value v) {
  sbuf b;
  rg_out o = sbuf_out(&b, buf, size);
  long left = RG_PRINT_MAX_VALUES;
  put_value(&o, m, heap, nheap, t, v, 0, &left);
  return buf;
}

void rgi_value_print(rg_out *out, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                    rgi_type t, rgi_value v) {
  long left = RG_PRINT_MAX_VALUES;
  if (t.kind == RG_K_RECORD && t.ref < m->nrecords && v >= 0 &&
      (uint64_t)v + m->records[t.ref].count <= nheap) {
    const rgi_record *r = &m->records[t.ref];
    for (uint32_t k = 0; k < r->count; k++) {
      const rgi_field_info *f = &m->fields[r->first + k];
      rgi_value fv = heap[v + k];
      /* A list of records reads better one element a line. */
      if (f->type.kind == RG_K_LIST && f->type.ref < m->ntypes &&
          m->types[f->type.ref].kind == RG_K_RECORD && fv >= 0 && (uint64_t)fv < nheap &&
          heap[fv] > 0 && (uint64_t)heap[fv] < nheap - (uint64_t)fv) {
        rg_printf(out, "%s:\n", rgi_module_str(m, f->name));
        for (rgi_value i = 0; i < heap[fv] && left > 0; i++) {
          rg_puts(out, "  - ");
          put_value(out, m, heap, nheap, m->types[f->type.ref], heap[fv + 1 + i], 0, &left);
          rg_putc(out, '\n');
        }
        continue;
      }
      rg_printf(out, "%s: ", rgi_module_str(m, f->name));
      put_value(out, m, heap, nheap, f->type, fv, 0, &left);
      rg_putc(out, '\n');
    }
    if (r->count) return;
  }
  put_value(out, m, heap, nheap, t, v, 0, &left);
  rg_putc(out, '\n');
}

/* Returns a malloc'd case-folded NFC copy of s, or NULL. */
static char *fold_case(const char *s) {
  utf8proc_uint8_t *out = NULL;
  if (utf8proc_map((const utf8proc_uint8_t *)s, 0, &out,
                   UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD) < 0)
    return NULL;
  return (char *)out;
}

int rgi_enum_lookup(const rgi_module *m, uint32_t e, const char *text) {
  char *want;
  int found = -1;
  if (e >= m->nenums) return -1;
  for (uint32_t i = 0; i < m->enums[e].count; i++)
    if (strcmp(rgi_module_str(m, m->members[m->enums[e].first + i].code), text) == 0) return (int)i;
  want = fold_case(text);
  if (!want) return -1;
  for (uint32_t i = 0; i < m->enums[e].count && found < 0; i++) {
    const rgi_member_info *mi = &m->members[m->enums[e].first + i];
    uint32_t names[2] = { mi->code, mi->display };
    for (int k = 0; k < 2 && found < 0; k++) {
      char *have;
      if (k == 1 && !mi->display) break;
      have = fold_case(rgi_module_str(m, names[k]));
      if (have && strcmp(have, want) == 0) found = (int)i;
      free(have);
    }
  }
  free(want);
  return found;
}

/* Writes "Standard (S), Coastal (C), ..." for enum e into buf. */
static void list_members(char *buf, size_t size, const rgi_module *m, uint32_t e) {
  sbuf b;
  rg_out o = sbuf_out(&b, buf, size);
  for (uint32_t i = 0; i < m->enums[e].count; i++) {
    const rgi_member_info *mi = &m->members[m->enums[e].first + i];
    if (i) rg_puts(&o, ", ");
    rg_puts(&o, rgi_module_str(m, mi->code));
    if (mi->display) rg_printf(&o, " (%s)", rgi_module_str(m, mi->display));
  }
}

size_t rgi_parse_milli(const char *s, int64_t *out) {
  size_t i = 0;
  uint64_t v = 0, max;      /* v in thousandths; max: the most -v or v may be */
  bool neg = false;
  if (s[i] == '-' || s[i] == '+') neg = s[i++] == '-';
  if (s[i] < '0' || s[i] > '9') return 0;
  max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  while (s[i] >= '0' && s[i] <= '9') {
    unsigned d = (unsigned)(s[i++] - '0');
    if (v > (max / 1000 - d) / 10) return 0;
    v = v * 10 + d;
  }
  v *= 1000;
  if (s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
    uint64_t scale = 100;
    i++;
    while (s[i] >= '0' && s[i] <= '9') {
      uint64_t d = (uint64_t)(s[i++] - '0') * scale;
      if (!scale || v > max - d) return 0;
      v += d;
      scale /= 10;
    }
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return i;
}

size_t rgi_parse_int(const char *s, int64_t *out) {
  size_t i = 0;
  uint64_t v = 0, max;
  bool neg = false;
  if (s[i] == '-' || s[i] == '+') neg = s[i++] == '-';
  if (s[i] < '0' || s[i] > '9') return 0;
  max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  while (s[i] >= '0' && s[i] <= '9') {
    unsigned d = (unsigned)(s[i++] - '0');
    if (v > (max - d) / 10) return 0;
    v = v * 10 + d;
  }
  if (s[i] == '.' && s[i + 1] == '0') {      /* "6.0", "6.000": whole */
    size_t j = i + 1;
    while (s[j] == '0') j++;
    if (s[j] < '0' || s[j] > '9') i = j;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return i;
}

int rgi_value_parse(const rgi_module *m, rgi_type t, const char *text, rgi_value *v,
                   char *err, size_t errlen) {
  char list[2048], tn[128];
  int64_t x;
  size_t k;
  switch (t.kind) {
  case RG_K_INT: case RG_K_PERCENT:
    k = rgi_parse_int(text, &x);
    if (k && (!text[k] || (t.kind == RG_K_PERCENT && text[k] == '%' && !text[k + 1]))) {
      *v = x;
      return 0;
    }
    break;
  case RG_K_BOOL:
    if (strcmp(text, "true") == 0) { *v = 1; return 0; }
    if (strcmp(text, "false") == 0) { *v = 0; return 0; }
    break;
  case RG_K_DIST: {
    const char *unit = t.ref < m->nunits ? rgi_module_str(m, m->units[t.ref].name) : "";
    k = rgi_parse_milli(text, &x);
    if (!k) break;
    while (text[k] == ' ') k++;
    if (*unit && strncmp(text + k, unit, strlen(unit)) == 0) k += strlen(unit);
    else if (text[k] == '"' && strcmp(unit, "in") == 0) k++;   /* 5" is inches only */
    if (text[k] == '*') k++;
    if (text[k]) break;
    *v = x;
    return 0;
  }
  case RG_K_TEXT:
    for (uint32_t off = 0; off < m->nstrings; off += (uint32_t)strlen(m->strings + off) + 1)
      if (strcmp(m->strings + off, text) == 0) { *v = off; return 0; }
    snprintf(err, errlen, "'%s' is not one of the texts of this rule set", text);
    return -1;
  case RG_K_ENUM: {
    int i = rgi_enum_lookup(m, t.ref, text);
    if (i >= 0) { *v = i; return 0; }
    list_members(list, sizeof list, m, t.ref);
    snprintf(err, errlen, "'%s' is not a %s; valid: %s", text, rgi_module_str(m, m->enums[t.ref].name), list);
    return -1;
  }
  case RG_K_SET: {
    uint64_t mask = 0;
    const char *p = text;
    if (strcmp(text, "none") == 0 || !*text) { *v = 0; return 0; }
    while (*p) {
      char word[256];
      size_t n = 0;
      int i;
      while (*p == ',' || *p == ' ') p++;
      if (!*p) break;
      while (*p && *p != ',' && n + 1 < sizeof word) word[n++] = *p++;
      while (word[n - 1] == ' ') n--;   /* word[0] is no space: n stays >= 1 */
      word[n] = '\0';
      i = rgi_enum_lookup(m, t.ref, word);
      if (i < 0) {
        list_members(list, sizeof list, m, t.ref);
        snprintf(err, errlen, "'%s' is not a %s; valid: %s", word, rgi_module_str(m, m->enums[t.ref].name), list);
        return -1;
      }
      mask |= (uint64_t)1 << i;
    }
    *v = (rgi_value)mask;
    return 0;
  }
  default:
    snprintf(err, errlen, "a %s cannot be given on the command line", rgi_type_name(tn, sizeof tn, m, t));
    return -1;
  }
  snprintf(err, errlen, "'%s' is not a valid %s", text, rgi_type_name(tn, sizeof tn, m, t));
  return -1;
}

char *rgi_type_name(char *buf, size_t size, const rgi_module *m, rgi_type t) {
  size_t len = 0;
  /* "list " once per level; a chain of lists that does not end within 8
  ** levels (a crafted module) is cut there. */
  for (int depth = 0; t.kind == RG_K_LIST && depth < 8; depth++) {
    if (len + 6 < size) { memcpy(buf + len, "list ", 5); len += 5; }
    if (t.ref >= m->ntypes) { t.kind = RG_NKINDS; break; }
    t = m->types[t.ref];
  }
  buf += len;
  size -= len;
  switch (t.kind) {
  case RG_K_VOID: snprintf(buf, size, "nothing"); break;
  case RG_K_INT: snprintf(buf, size, "int"); break;
  case RG_K_BOOL: snprintf(buf, size, "bool"); break;
  case RG_K_PERCENT: snprintf(buf, size, "percent"); break;
  case RG_K_TEXT: snprintf(buf, size, "text"); break;
  case RG_K_DIST:
    snprintf(buf, size, "distance %s", t.ref < m->nunits ? rgi_module_str(m, m->units[t.ref].name) : "?");
    break;
  case RG_K_ENUM:
    snprintf(buf, size, "%s", t.ref < m->nenums ? rgi_module_str(m, m->enums[t.ref].name) : "?");
    break;
  case RG_K_SET:
    snprintf(buf, size, "set %s", t.ref < m->nenums ? rgi_module_str(m, m->enums[t.ref].name) : "?");
    break;
  case RG_K_RECORD:
    snprintf(buf, size, "%s", t.ref < m->nrecords ? rgi_module_str(m, m->records[t.ref].name) : "?");
    break;
  default: snprintf(buf, size, "?"); break;
  }
  return buf - len;
}

char *rgi_dim_name(char *buf, size_t size, const rgi_module *m, const rgi_dim *d) {
  const char *label = rgi_module_str(m, d->label);
  char what[128];
  if (d->is_enum)
    snprintf(what, sizeof what, "%s", d->ref < m->nenums ? rgi_module_str(m, m->enums[d->ref].name) : "?");
  else
    snprintf(what, sizeof what, "%lld..%lld", (long long)d->lo,
             (long long)(d->lo + (int64_t)d->size - 1));
  if (*label && strcmp(label, what) != 0) snprintf(buf, size, "%s: %s", label, what);
  else snprintf(buf, size, "%s", what);
  return buf;
}

/* Appends the names of table t's dimensions, comma separated, to err. */
static void dim_names(char *err, size_t errlen, const rgi_module *m, const rgi_table *t) {
  char dn[160];
  for (uint32_t i = 0; i < t->ndims && t->first_dim + i < m->ndims; i++) {
    size_t n = strlen(err);
    if (n + 1 >= errlen) return;
    snprintf(err + n, errlen - n, "%s%s", i ? ", " : "",
             rgi_dim_name(dn, sizeof dn, m, &m->dims[t->first_dim + i]));
  }
}

/* See value.h. */
int rgi_table_cell(const rgi_module *m, uint32_t ti, const char *const *keys, int nkeys,
                  rgi_value *cell, char *err, size_t errlen) {
  const rgi_table *t = &m->tables[ti];
  const char *name = rgi_module_str(m, t->name);
  uint64_t index = 0;
  char why[512], dn[160];
  if (nkeys < 0 || (uint32_t)nkeys != t->ndims || t->first_dim + t->ndims > m->ndims) {
    size_t n;
    snprintf(err, errlen, "table '%s' takes %u key%s (", name, t->ndims, t->ndims == 1 ? "" : "s");
    dim_names(err, errlen, m, t);
    n = strlen(err);
    snprintf(err + n, errlen - n, "), got %d", nkeys);
    return -1;
  }
  /* Row-major: the last key varies fastest. */
  for (uint32_t i = 0; i < t->ndims; i++) {
    const rgi_dim *d = &m->dims[t->first_dim + i];
    rgi_type kt = { d->is_enum ? RG_K_ENUM : RG_K_INT, d->is_enum ? d->ref : 0 };
    rgi_value k;
    why[0] = '\0';
    if (rgi_value_parse(m, kt, keys[i], &k, why, sizeof why) != 0) {
      snprintf(err, errlen, "key %u of table '%s' (%s): %s", i + 1, name,
               rgi_dim_name(dn, sizeof dn, m, d), why);   /* an int or a member: always says why */
      return -1;
    }
    if (k < d->lo || k - d->lo >= (rgi_value)d->size) {
      snprintf(err, errlen, "key %u of table '%s' (%s): %s is outside %lld..%lld", i + 1, name,
               rgi_dim_name(dn, sizeof dn, m, d), keys[i], (long long)d->lo,
               (long long)(d->lo + (int64_t)d->size - 1));
      return -1;
    }
    index = index * d->size + (uint64_t)(k - d->lo);
  }
  if (index >= t->count || t->first + index >= m->ncells) {
    snprintf(err, errlen, "table '%s' has no cell there", name);
    return -1;
  }
  *cell = m->cells[t->first + index];
  return 0;
}
