/*
** heading.c: what a simulation or an exact distribution is of (see
** heading.h).
*/
#include "heading.h"

#include "value.h"

#include <stdio.h>
#include <string.h>

#define SET_SHOWN 160       /* bytes of one setting a header shows */

const char *rgi_heading_file(const rgi_module *m) {
  return m->nfiles ? rgi_module_str(m, m->files[0]) : "";
}

void rgi_heading_call(rg_out *out, const rgi_heading *h) {
  const rgi_module *m = h->m;
  const rgi_proc *p = &m->procs[h->proc];
  char buf[256];
  rg_printf(out, "%s(", rgi_module_str(m, p->name));
  for (uint32_t k = 0; h->args && k < p->nparams; k++) {
    rgi_type t = m->params[p->first_param + k].type;
    rgi_value_format(buf, sizeof buf, m, m->heap, m->nheap, t, h->args[k]);
    rg_printf(out, "%s%s", k ? ", " : "", buf);
  }
  rg_putc(out, ')');
}

void rgi_heading_title(rg_out *out, const rgi_heading *h) {
  const char *file = rgi_heading_file(h->m);
  if (*file) rg_printf(out, "%s: ", file);
  rgi_heading_call(out, h);
}

int rgi_heading_sets(rg_out *out, const char *sets) {
  int n = 0;
  for (const char *p = sets; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    /* a setting of thousands of cards is cut (at a character's start) */
    size_t show = len;
    if (show > SET_SHOWN)
      for (show = SET_SHOWN; show > 0 && ((unsigned char)p[show] & 0xC0) == 0x80; show--) {}
    if (len) rg_printf(out, "%s%.*s%s", n++ ? ", " : "", (int)show, p, show < len ? "..." : "");
    p += len + (nl != NULL);
  }
  return n;
}

int rgi_heading_sets_json(json_t *o, const char *sets) {
  json_t *a = json_array();
  int bad = !a;
  for (const char *q = sets; !bad && q && *q;) {
    const char *nl = strchr(q, '\n');
    size_t len = nl ? (size_t)(nl - q) : strlen(q);
    if (len) bad = json_array_append_new(a, rgi_json_textn(q, len)) != 0;
    q += len + (nl != NULL);
  }
  if (bad) {
    json_decref(a);
    return -1;
  }
  return json_object_set_new(o, "sets", a) != 0 ? -1 : 0;
}

int rgi_heading_json(json_t *doc, const rgi_heading *h, int file) {
  const rgi_module *m = h->m;
  const rgi_proc *p = &m->procs[h->proc];
  json_t *args = json_array();
  char buf[256];
  int bad = !args;
  for (uint32_t k = 0; !bad && h->args && k < p->nparams; k++) {
    rgi_value_format(buf, sizeof buf, m, m->heap, m->nheap, m->params[p->first_param + k].type,
                    h->args[k]);
    bad = json_array_append_new(args, rgi_json_text(buf)) != 0;
  }
  if (bad || (file && json_object_set_new(doc, "file", rgi_json_text(rgi_heading_file(m))) != 0)) {
    json_decref(args);
    return -1;
  }
  if (json_object_set_new(doc, "arguments", args) != 0) return -1;
  return rgi_heading_sets_json(doc, h->sets);
}

char *rgi_heading_chart_title(char *buf, size_t size, const rgi_heading *h, const char *what) {
  rg_buf b;
  rg_buf_init(&b);
  rgi_heading_title(&b.out, h);
  rg_printf(&b.out, ": %s", what);
  if (h->sets && *h->sets) {
    rg_puts(&b.out, "; set ");
    rgi_heading_sets(&b.out, h->sets);
  }
  /* never a shorter title in its place: the picture would pass for whole */
  if (b.out.failed) buf = NULL;
  else snprintf(buf, size, "%s", b.data);
  rg_buf_free(&b);
  return buf;
}

char *rgi_heading_variants_title(char *buf, size_t size, const char *call,
                                const char *const *names, const char *const *sets, uint32_t n,
                                const char *what) {
  rg_buf b;
  int same = 1, any = 0;
  rg_buf_init(&b);
  rg_printf(&b.out, "%s of ", call);
  for (uint32_t v = 0; v < n; v++) {
    const char *s0 = sets[0] ? sets[0] : "", *sv = sets[v] ? sets[v] : "";
    rg_printf(&b.out, "%s%c = %s", v ? ", " : "", 'A' + (int)v, names[v]);
    same &= strcmp(s0, sv) == 0;
    any |= *sv != '\0';
  }
  rg_printf(&b.out, ": %s", what);
  if (any && same) {
    rg_puts(&b.out, "; set ");
    rgi_heading_sets(&b.out, sets[0]);
  }
  for (uint32_t v = 0; any && !same && v < n; v++)
    if (sets[v] && *sets[v]) {
      rg_printf(&b.out, "; set %c: ", 'A' + (int)v);
      rgi_heading_sets(&b.out, sets[v]);
    }
  if (b.out.failed) buf = NULL;
  else snprintf(buf, size, "%s", b.data);
  rg_buf_free(&b);
  return buf;
}
