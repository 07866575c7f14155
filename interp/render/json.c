/*
** json.c: rule-language values as JSON, through jansson (see json.h).
*/
#include "json.h"

#include "regula_front.h"
#include "value.h"

#include <string.h>
#include <utf8proc.h>

/* Deepest nesting of lists and records written as JSON. */
#define JSON_DEPTH 16

char *rg_utf8_repair(const char *s, size_t n, size_t *len) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
  char *fixed, *w;
  /* each bad byte becomes the 3 bytes of U+FFFD; a NUL too */
  if (n > (SIZE_MAX - 1) / 3 || !(fixed = rg_malloc(3 * n + 1))) return NULL;
  w = fixed;
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t c;
    utf8proc_ssize_t k = utf8proc_iterate(p + i, (utf8proc_ssize_t)(n - i), &c);
    if (k <= 0 || c == 0) {
      memcpy(w, "\xef\xbf\xbd", 3);
      w += 3;
      i++;
    } else {
      memcpy(w, s + i, (size_t)k);
      w += k;
      i += (size_t)k;
    }
  }
  *w = '\0';
  *len = (size_t)(w - fixed);
  return fixed;
}

json_t *rgi_json_textn(const char *s, size_t n) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
  char *fixed;
  json_t *j;
  size_t i = 0, len;
  if (!s) return json_string("");
  /* the common case: valid already */
  while (i < n) {
    utf8proc_int32_t c;
    utf8proc_ssize_t k = utf8proc_iterate(p + i, (utf8proc_ssize_t)(n - i), &c);
    if (k <= 0 || c == 0) break;
    i += (size_t)k;
  }
  if (i == n) return json_stringn_nocheck(s, n);
  if (!(fixed = rg_utf8_repair(s, n, &len))) return NULL;
  j = json_stringn_nocheck(fixed, len);
  rg_free(fixed);
  return j;
}

json_t *rgi_json_text(const char *s) {
  return rgi_json_textn(s, s ? strlen(s) : 0);
}

/* Sets obj[key] = v (v's reference taken; key repaired like a text).
** Returns 0, or -1 (v released) when v is NULL or out of memory. */
static int set(json_t *obj, const char *key, json_t *v) {
  json_t *k = rgi_json_text(key);
  int rc = -1;
  if (k && v) rc = json_object_set_new_nocheck(obj, json_string_value(k), v);
  else json_decref(v);
  json_decref(k);
  return rc;
}

/* Returns a new {"code":..,"name":..} for member i of enum e. */
static json_t *member(const rgi_module *m, uint32_t e, rgi_value i) {
  const rgi_member_info *mi;
  json_t *o;
  if (e >= m->nenums || i < 0 || (uint64_t)i >= m->enums[e].count) return json_string("?");
  mi = &m->members[m->enums[e].first + (uint32_t)i];
  if (!(o = json_object())) return NULL;
  if (set(o, "code", rgi_json_text(rgi_module_str(m, mi->code))) != 0 ||
      set(o, "name", rgi_json_text(rgi_module_str(m, mi->display ? mi->display : mi->code))) != 0) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* Returns a number of thousandths as a JSON integer when whole, else a
** real (exact to the thousandth when printed with 15 digits). */
static json_t *milli(rgi_value v) {
  if (v % 1000 == 0) return json_integer(v / 1000);
  return json_real((double)v / 1000.0);
}

/* rgi_json_value at nesting depth `depth`, with *left values still allowed
** (at least 1: the lists and records stop calling when none is left):
** past it a value is the string "...", and the lists and records around it
** stop. */
static json_t *value_at(const rgi_module *m, const rgi_value *heap, uint32_t nheap, rgi_type t,
                        rgi_value v, int depth, long *left) {
  json_t *o;
  if (--*left == 0) {
    *left = -1;
    return json_string("...");
  }
  switch (t.kind) {
  case RG_K_INT: return json_integer(v);
  case RG_K_BOOL: return json_boolean(v);
  case RG_K_PERCENT:
    if (!(o = json_object()) || set(o, "percent", json_integer(v)) != 0) break;
    return o;
  case RG_K_DIST:
    if (!(o = json_object()) || set(o, "distance", milli(v)) != 0 ||
        set(o, "unit", rgi_json_text(t.ref < m->nunits ? rgi_module_str(m, m->units[t.ref].name)
                                                      : "?")) != 0)
      break;
    return o;
  case RG_K_TEXT:
    return rgi_json_text(v >= 0 && (uint64_t)v < m->nstrings ? rgi_module_str(m, (uint32_t)v) : "?");
  case RG_K_ENUM: return member(m, t.ref, v);
  case RG_K_SET: {
    uint32_t count = t.ref < m->nenums ? m->enums[t.ref].count : 0;
    if (!(o = json_array())) return NULL;
    for (uint32_t i = 0; i < count && i < 64; i++)
      if ((((uint64_t)v >> i) & 1) && json_array_append_new(o, member(m, t.ref, i)) != 0) {
        json_decref(o);
        return NULL;
      }
    return o;
  }
  case RG_K_LIST: {
    rgi_value n;
    if (depth >= JSON_DEPTH || t.ref >= m->ntypes || v < 0 || (uint64_t)v >= nheap ||
        (n = heap[v]) < 0 || (uint64_t)n > (uint64_t)nheap - (uint64_t)v - 1)
      return json_string("...");
    if (!(o = json_array())) return NULL;
    for (rgi_value k = 0; k < n && *left > 0; k++)
      if (json_array_append_new(o, value_at(m, heap, nheap, m->types[t.ref], heap[v + 1 + k],
                                            depth + 1, left)) != 0)
        break;
    if (*left > 0 && json_array_size(o) != (size_t)n) break;
    return o;
  }
  case RG_K_RECORD: {
    const rgi_record *rec;
    if (depth >= JSON_DEPTH || t.ref >= m->nrecords || v < 0 ||
        (uint64_t)v + m->records[t.ref].count > nheap)
      return json_string("...");
    rec = &m->records[t.ref];
    if (!(o = json_object())) return NULL;
    for (uint32_t k = 0; k < rec->count && *left > 0; k++) {
      const rgi_field_info *f = &m->fields[rec->first + k];
      if (set(o, rgi_module_str(m, f->name),
              value_at(m, heap, nheap, f->type, heap[v + k], depth + 1, left)) != 0) {
        json_decref(o);
        return NULL;
      }
    }
    return o;
  }
  default: return json_string("?");
  }
  json_decref(o);
  return NULL;
}

json_t *rgi_json_value(const rgi_module *m, const rgi_value *heap, uint32_t nheap, rgi_type t,
                      rgi_value v) {
  long left = RG_PRINT_MAX_VALUES;
  return value_at(m, heap, nheap, t, v, 0, &left);
}

/* json_dump_callback's writer: appends to the rg_out in data. */
static int put_cb(const char *buf, size_t n, void *data) {
  rg_out *o = data;
  rg_write(o, buf, n);
  return o->failed ? -1 : 0;
}

int rgi_json_put(rg_out *o, json_t *j, int nl) {
  if (!j) {
    o->failed = 1;
    return -1;
  }
  if (json_dump_callback(j, put_cb, o, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15)) != 0)
    o->failed = 1;
  else if (nl)
    rg_putc(o, '\n');
  json_decref(j);
  return o->failed ? -1 : 0;
}
