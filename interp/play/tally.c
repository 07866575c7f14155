/*
** tally.c: distinct results of many runs (see tally.h).
*/
#include "tally.h"
#include "grow.h"
#include "regula_front.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rgi_tally_init(rgi_tally *t, const rgi_module *m, rgi_type ty) {
  memset(t, 0, sizeof *t);
  t->m = m;
  t->type = ty;
  t->compound = ty.kind == RG_K_LIST || ty.kind == RG_K_RECORD;
}

void rgi_tally_free(rgi_tally *t) {
  for (uint32_t k = 0; k < t->n; k++) {
    rg_free(t->keys[k].text);
    rg_free(t->keys[k].vec);
  }
  rg_free(t->keys);
  rg_free(t->hash);
  rg_free(t->flat);
  rg_free(t->fhash);
  rg_free(t->fpool);
  memset(t, 0, sizeof *t);
}

/* FNV-1a over bytes. */
static uint64_t hash_bytes(const char *s, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001B3ull;
  return h;
}

/* Hashes key k of t: FNV-1a of its text for a list or record, else a mix
** of its value. */
static uint64_t key_hash(const rgi_tally *t, const rgi_tally_key *k) {
  if (t->compound) return hash_bytes(k->text, strlen(k->text), 0xCBF29CE484222325ull);
  uint64_t x = (uint64_t)k->v * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

/* Returns whether keys a and b of t are equal: by text for a list or
** record, else by value. */
static int key_equal(const rgi_tally *t, const rgi_tally_key *a, const rgi_tally_key *b) {
  return t->compound ? strcmp(a->text, b->text) == 0 : a->v == b->v;
}

/* rgi_index's hashes of slot k and flat form k of tally ctx. */
static uint64_t slot_hash(const void *ctx, uint32_t k) {
  const rgi_tally *t = ctx;
  return key_hash(t, &t->keys[k]);
}

static uint64_t flat_hash(const void *ctx, uint32_t k) {
  return ((const rgi_tally *)ctx)->flat[k].hash;
}

/* Doubles the hash index (or makes the first one). */
static int rehash(rgi_tally *t) {
  uint32_t ncap = t->hcap ? t->hcap * 2 : 64;
  uint32_t *h = rgi_index(t->n, ncap, slot_hash, t);
  if (!h) return -1;
  rg_free(t->hash);
  t->hash = h;
  t->hcap = ncap;
  return 0;
}

/* Finds key; when absent, adds it (taking ownership of its text and vec
** when take, else copying them).  Returns the slot or -1. */
static int64_t find_or_add(rgi_tally *t, rgi_tally_key *key, int take) {
  if (t->n + 1 > t->hcap / 2 && rehash(t) != 0) return -1;
  if (t->limit && t->n >= t->limit) {
    uint32_t i = (uint32_t)key_hash(t, key) & (t->hcap - 1);
    for (; t->hash[i]; i = (i + 1) & (t->hcap - 1))
      if (key_equal(t, &t->keys[t->hash[i] - 1], key)) return t->hash[i] - 1;
    return -3;
  }
  uint64_t h = key_hash(t, key);
  uint32_t i = (uint32_t)h & (t->hcap - 1);
  while (t->hash[i]) {
    uint32_t k = t->hash[i] - 1;
    if (key_equal(t, &t->keys[k], key)) return k;
    i = (i + 1) & (t->hcap - 1);
  }
  if (t->n == t->cap) {
    rgi_tally_key *nk = rgi_grow(t->keys, &t->cap, 16, sizeof *nk);
    if (!nk) return -1;
    t->keys = nk;
  }
  rgi_tally_key k = *key;
  if (!take) {
    size_t len = strlen(key->text) + 1;
    k.text = rg_malloc(len);
    k.vec = NULL;
    if (key->nvec) k.vec = rg_malloc((size_t)key->nvec * sizeof *k.vec);
    if (!k.text || (key->nvec && !k.vec)) {
      rg_free(k.text);
      rg_free(k.vec);
      return -1;
    }
    memcpy(k.text, key->text, len);
    if (key->nvec) memcpy(k.vec, key->vec, (size_t)key->nvec * sizeof *k.vec);
  }
  t->keys[t->n] = k;
  t->hash[i] = t->n + 1;
  return t->n++;
}

/* Whether values of type ty compare by their number (not text or compound). */
static int numeric_kind(uint32_t kind) {
  return kind != RG_K_TEXT && kind != RG_K_LIST && kind != RG_K_RECORD && kind != RG_K_VOID;
}

/* The most values of one flat form, flat forms and pooled values a tally
** keeps: past them a value is found by its text, as without them. */
#define FLAT_MAX_LEN   512
#define FLAT_MAX_FORMS 65536u
#define FLAT_MAX_POOL  (1u << 20)

/* Appends to out[*n..cap) the flat form of v, of type ty, read from
** heap[0..nheap) (see rgi_tally).  depth counts the lists and records
** around v.  Returns 0, or -1 when v has no flat form: out of the heap,
** nested deeper than 16 (rgi_value_format prints those as "?"), or longer
** than cap.  (The module is verified: type references and records' fields
** are in range.) */
static int flatten(const rgi_module *m, const rgi_value *heap, uint32_t nheap, rgi_type ty,
                   rgi_value v, int depth, rgi_value *out, uint32_t cap, uint32_t *n) {
  if (*n >= cap) return -1;
  if (ty.kind == RG_K_RECORD) {
    if (depth > 16) return -1;
    const rgi_record *r = &m->records[ty.ref];
    if (v < 0 || (uint64_t)v + r->count > nheap) return -1;
    for (uint32_t k = 0; k < r->count; k++)
      if (flatten(m, heap, nheap, m->fields[r->first + k].type, heap[v + k], depth + 1, out,
                  cap, n) != 0)
        return -1;
    return 0;
  }
  if (ty.kind == RG_K_LIST) {
    if (depth > 16 || v < 0 || (uint64_t)v >= nheap) return -1;
    rgi_value len = heap[v];
    if (len < 0 || (uint64_t)len > (uint64_t)nheap - (uint64_t)v - 1) return -1;
    out[(*n)++] = len;
    for (rgi_value k = 0; k < len; k++)
      if (flatten(m, heap, nheap, m->types[ty.ref], heap[v + 1 + k], depth + 1, out, cap, n) != 0)
        return -1;
    return 0;
  }
  out[(*n)++] = v;
  return 0;
}

/* FNV-1a over the bytes of values a[0..n). */
static uint64_t hash_values(const rgi_value *a, uint32_t n) {
  return hash_bytes((const char *)a, (size_t)n * sizeof *a, 0xCBF29CE484222325ull);
}

/* The slot of flat form a[0..n) (hash h) in t, or -1 when t has not met it. */
static int64_t flat_find(const rgi_tally *t, uint64_t h, const rgi_value *a, uint32_t n) {
  if (!t->fhcap) return -1;
  for (uint32_t i = (uint32_t)h & (t->fhcap - 1); t->fhash[i]; i = (i + 1) & (t->fhcap - 1)) {
    const struct rgi_tally_flat *f = &t->flat[t->fhash[i] - 1];
    if (f->hash == h && f->len == n && memcmp(t->fpool + f->off, a, (size_t)n * sizeof *a) == 0)
      return f->slot;
  }
  return -1;
}

/* Remembers that flat form a[0..n) (hash h) has slot `slot` in t, unless
** t keeps as many as it may.  Returns 0, or -1 when out of memory. */
static int flat_add(rgi_tally *t, uint64_t h, const rgi_value *a, uint32_t n, uint32_t slot) {
  if (t->nflat >= FLAT_MAX_FORMS || t->fpn + n > FLAT_MAX_POOL) return 0;
  if (t->nflat + 1 > t->fhcap / 2) {
    uint32_t ncap = t->fhcap ? t->fhcap * 2 : 64;
    uint32_t *nh = rgi_index(t->nflat, ncap, flat_hash, t);
    if (!nh) return -1;
    rg_free(t->fhash);
    t->fhash = nh;
    t->fhcap = ncap;
  }
  if (t->nflat == t->flatcap) {
    struct rgi_tally_flat *nf = rgi_grow(t->flat, &t->flatcap, 16, sizeof *nf);
    if (!nf) return -1;
    t->flat = nf;
  }
  if (t->fpn + n > t->fpcap) {
    uint32_t nc = t->fpcap ? t->fpcap : 256;
    while (nc < t->fpn + n) nc *= 2;
    rgi_value *np = rg_realloc(t->fpool, (size_t)nc * sizeof *np);
    if (!np) return -1;
    t->fpool = np;
    t->fpcap = nc;
  }
  memcpy(t->fpool + t->fpn, a, (size_t)n * sizeof *a);
  t->flat[t->nflat] = (struct rgi_tally_flat){ h, t->fpn, n, slot };
  t->fpn += n;
  uint32_t i = (uint32_t)h & (t->fhcap - 1);
  while (t->fhash[i]) i = (i + 1) & (t->fhcap - 1);
  t->fhash[i] = ++t->nflat;
  return 0;
}

/* rgi_tally_slot of a list or record by its text (see rgi_tally_slot). */
static int64_t slot_by_text(rgi_tally *t, const rgi_value *heap, uint32_t nheap, rgi_value v) {
  const rgi_module *m = t->m;
  rgi_tally_key key = { .v = 0 };
  char buf[4096];
  rgi_value_format(buf, sizeof buf, m, heap, nheap, t->type, v);
  key.text = buf;
  /* Scalar elements or fields make an order. */
  if (v >= 0 && (uint64_t)v < nheap) {
    if (t->type.kind == RG_K_LIST && numeric_kind(m->types[t->type.ref].kind)) {
      rgi_value n = heap[v];
      if (n >= 0 && (uint64_t)n <= (uint64_t)nheap - (uint64_t)v - 1) {
        key.vec = (rgi_value *)heap + v + 1;
        key.nvec = (uint32_t)n;
      }
    } else if (t->type.kind == RG_K_RECORD) {
      const rgi_record *r = &m->records[t->type.ref];
      int ok = (uint64_t)v + r->count <= nheap;
      for (uint32_t f = 0; ok && f < r->count; f++)
        ok = numeric_kind(m->fields[r->first + f].type.kind);
      if (ok) {
        key.vec = (rgi_value *)heap + v;
        key.nvec = r->count;
      }
    }
  }
  return find_or_add(t, &key, 0);
}

static int64_t tally_slot(rgi_tally *t, const rgi_value *heap, uint32_t nheap, rgi_value v);

int64_t rgi_tally_slot(rgi_tally *t, const rgi_value *heap, uint32_t nheap, rgi_value v) {
  /* A small scalar met before needs neither hash nor text (nor the frame
  ** of the general case below). */
  if (!t->compound && (uint64_t)v < RG_TALLY_SMALL && t->small[v]) return t->small[v] - 1;
  return tally_slot(t, heap, nheap, v);
}

/* rgi_tally_slot past its first fast path. */
static int64_t tally_slot(rgi_tally *t, const rgi_value *heap, uint32_t nheap, rgi_value v) {
  const rgi_module *m = t->m;
  rgi_tally_key key = { .v = v };
  char buf[4096];
  if (!t->compound) {
    /* Fast path: a known scalar needs no text. */
    if (t->hcap) {
      uint64_t h = key_hash(t, &key);
      uint32_t i = (uint32_t)h & (t->hcap - 1);
      while (t->hash[i]) {
        uint32_t k = t->hash[i] - 1;
        if (t->keys[k].v == v) {
          if ((uint64_t)v < RG_TALLY_SMALL) t->small[v] = k + 1;
          return k;
        }
        i = (i + 1) & (t->hcap - 1);
      }
    }
    rgi_value_format(buf, sizeof buf, m, heap, nheap, t->type, v);
    key.text = buf;
    return find_or_add(t, &key, 0);
  }
  /* A list or record met before is found by its flat form. */
  rgi_value flat[FLAT_MAX_LEN];
  uint32_t n = 0;
  if (flatten(m, heap, nheap, t->type, v, 0, flat, FLAT_MAX_LEN, &n) != 0)
    return slot_by_text(t, heap, nheap, v);
  uint64_t h = hash_values(flat, n);
  int64_t s = flat_find(t, h, flat, n);
  if (s >= 0) return s;
  s = slot_by_text(t, heap, nheap, v);
  if (s >= 0 && flat_add(t, h, flat, n, (uint32_t)s) != 0) return -1;
  return s;
}

int64_t rgi_tally_slot_key(rgi_tally *t, const rgi_tally_key *key) {
  rgi_tally_key k = *key;
  return find_or_add(t, &k, 0);
}

/* Compares slots sa and sb of t by their values' natural order: lists and
** records element-wise (then text), texts bytewise, sets by size then
** members, other values by value.  Returns <0, 0 or >0. */
static int cmp_slots(const rgi_tally *t, uint32_t sa, uint32_t sb) {
  const rgi_tally_key *a = &t->keys[sa], *b = &t->keys[sb];
  if (t->compound) {
    if (a->vec && b->vec) {
      for (uint32_t i = 0; i < a->nvec && i < b->nvec; i++)
        if (a->vec[i] != b->vec[i]) return a->vec[i] < b->vec[i] ? -1 : 1;
      if (a->nvec != b->nvec) return a->nvec < b->nvec ? -1 : 1;
    }
    return strcmp(a->text, b->text);
  }
  if (t->type.kind == RG_K_TEXT) return strcmp(a->text, b->text);
  if (t->type.kind == RG_K_SET) {
    /* Fewer members first, then by the members' order. */
    int ca = __builtin_popcountll((uint64_t)a->v), cb = __builtin_popcountll((uint64_t)b->v);
    if (ca != cb) return ca < cb ? -1 : 1;
    uint64_t x = (uint64_t)a->v, y = (uint64_t)b->v;
    while (x != y) {
      uint64_t lx = x & -x, ly = y & -y;
      if (lx != ly) return lx < ly ? -1 : 1;
      x ^= lx;
      y ^= ly;
    }
    return 0;
  }
  return a->v < b->v ? -1 : a->v > b->v;
}

/* Sorts order[0..n) by cmp_slots, stable (merge sort through tmp[0..n)). */
static void sort_slots(const rgi_tally *t, uint32_t *order, uint32_t *tmp, uint32_t n) {
  uint32_t h = n / 2, i = 0, j = h, k = 0;
  if (n < 2) return;
  sort_slots(t, order, tmp, h);
  sort_slots(t, order + h, tmp, n - h);
  while (i < h && j < n) tmp[k++] = cmp_slots(t, order[j], order[i]) < 0 ? order[j++] : order[i++];
  while (i < h) tmp[k++] = order[i++];
  while (j < n) tmp[k++] = order[j++];
  memcpy(order, tmp, (size_t)n * sizeof *order);
}

int rgi_tally_order(const rgi_tally *t, uint32_t *order) {
  uint32_t *tmp = rg_malloc(((size_t)t->n + 1) * sizeof *tmp);
  if (!tmp) return -1;
  for (uint32_t k = 0; k < t->n; k++) order[k] = k;
  sort_slots(t, order, tmp, t->n);
  rg_free(tmp);
  return 0;
}

/* Returns the index of text s in out[0..n), or -1. */
static int64_t text_at(const char *const *out, uint32_t n, const char *s) {
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(out[i], s) == 0) return i;
  return -1;
}

int rgi_tally_union_order(const rgi_tally *const *t, uint32_t nt, const char **out, uint32_t *n) {
  *n = 0;
  for (uint32_t v = 0; v < nt; v++) {
    const rgi_tally *tv = t[v];
    uint32_t *order = rg_malloc(((size_t)tv->n + 1) * sizeof *order);
    if (!order || rgi_tally_order(tv, order) != 0) {
      rg_free(order);
      return -1;
    }
    int64_t after = -1;     /* where the last text of tv met stands in out */
    for (uint32_t j = 0; j < tv->n; j++) {
      const char *s = tv->keys[order[j]].text;
      int64_t at = text_at(out, *n, s);
      if (at < 0) {
        /* new: right after the one before it in tv's order */
        at = after + 1;
        memmove(out + at + 1, out + at, (*n - (size_t)at) * sizeof *out);
        out[at] = s;
        (*n)++;
      }
      after = at;
    }
    rg_free(order);
  }
  return 0;
}
