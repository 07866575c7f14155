/*
** fuzz_module.c: the .rbc loader, the verifier and the VM on arbitrary bytes.
**
** rgi_module_deserialize reads and verifies the input; a module it accepts
** must survive saving and loading again, and every procedure of it is run
** with zero arguments under small limits, with choices and chances
** answered from the input's bytes.  The verifier's promise is that nothing
** it accepts can make the VM misbehave.
**
** Random bytes seldom get past the framing (magic, version, section table),
** so under libFuzzer a custom mutator keeps it: it reads the section table,
** changes one section element by element (a field set to a telling value,
** an element deleted, duplicated, moved or copied over another) and writes
** the table again with the new offsets and sizes.  Inputs without a
** readable table, and one mutation in eight, go to libFuzzer's own
** byte-level mutator.
*/
#include "fuzz.h"

#include "module.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rgi_module m;
  char err[256];
  if (rgi_module_deserialize(&m, data, size, err, sizeof err) != 0) {
    if (!err[0]) __builtin_trap();        /* refused without saying why */
    return 0;
  }
  fuzz_roundtrip(&m);
  fuzz_run_module(&m, data, size);
  rgi_module_free(&m);
  return 0;
}

enum { MAXSEC = 64 };

/* A module's sections as read from its table: id, bytes (into the input). */
typedef struct frame {
  uint32_t version, n;
  uint32_t id[MAXSEC], off[MAXSEC], size[MAXSEC];
} frame;

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* Reads the framing of data[0..size) into f.  Returns 0, or -1 when the
** magic, the table or a section's bounds or element size do not hold. */
static int read_frame(const uint8_t *data, size_t size, frame *f) {
  if (size < 12 || memcmp(data, RG_MODULE_MAGIC, 4) != 0) return -1;
  f->version = rd32(data + 4);
  f->n = rd32(data + 8);
  if (f->n == 0 || f->n > MAXSEC || 12 + 12 * (size_t)f->n > size) return -1;
  for (uint32_t i = 0; i < f->n; i++) {
    const uint8_t *e = data + 12 + 12 * i;
    f->id[i] = rd32(e); f->off[i] = rd32(e + 4); f->size[i] = rd32(e + 8);
    size_t es = rgi_module_section_elem(f->id[i]);
    if (!es || (uint64_t)f->off[i] + f->size[i] > size || f->size[i] % es) return -1;
  }
  return 0;
}

/* A small generator for the mutator's decisions (xorshift32). */
static uint32_t rnd(uint32_t *s) {
  *s ^= *s << 13; *s ^= *s >> 17; *s ^= *s << 5;
  return *s;
}

/* Writes frame f to out (capacity max), section i's bytes taken from sec[i]
** (length len[i]).  Returns the size written, or 0 when it does not fit. */
static size_t write_frame(const frame *f, uint8_t *const sec[], const size_t len[], uint8_t *out,
                          size_t max) {
  size_t total = 12 + 12 * (size_t)f->n;
  for (uint32_t i = 0; i < f->n; i++) total += len[i];
  if (total > max || total > UINT32_MAX) return 0;
  memcpy(out, RG_MODULE_MAGIC, 4);
  wr32(out + 4, f->version);
  wr32(out + 8, f->n);
  size_t off = 12 + 12 * (size_t)f->n;
  for (uint32_t i = 0; i < f->n; i++) {
    wr32(out + 12 + 12 * i, f->id[i]);
    wr32(out + 16 + 12 * i, (uint32_t)off);
    wr32(out + 20 + 12 * i, (uint32_t)len[i]);
    if (len[i]) memcpy(out + off, sec[i], len[i]);
    off += len[i];
  }
  return total;
}

/* Changes section buffer b (length *len, elements of es bytes, room for
** cap bytes) in place by one element-level edit; other_counts holds every
** section's element count (telling values for a field that indexes one). */
static void mutate_section(uint8_t *b, size_t *len, size_t cap, size_t es, const uint32_t *counts,
                           uint32_t ncounts, uint32_t *s) {
  size_t n = *len / es;
  uint32_t op = rnd(s) % 6;
  if (n == 0) op = 5;
  size_t k = n ? rnd(s) % n : 0, j = n ? rnd(s) % n : 0;
  switch (op) {
  case 0: case 1: {                       /* one 32-bit field of an element */
    if (es < 4) { b[k] = (uint8_t)rnd(s); break; }
    uint8_t *p = b + k * es + 4 * (rnd(s) % (es / 4));
    uint32_t v = rd32(p), c = counts[rnd(s) % ncounts];
    static const uint32_t telling[] = {0, 1, 2, 0xffffffffu, 0x7fffffffu, 0x80000000u};
    switch (rnd(s) % 6) {
    case 0: v++; break;
    case 1: v--; break;
    case 2: v = c; break;                 /* one past the end of some array */
    case 3: v = c ? c - 1 : 0; break;     /* the last of some array */
    case 4: v = rd32(b + j * es + (size_t)(p - b) % es); break;   /* another element's */
    default: v = telling[rnd(s) % 6]; break;
    }
    wr32(p, v);
    break;
  }
  case 2:                                 /* delete element k */
    memmove(b + k * es, b + (k + 1) * es, (n - k - 1) * es);
    *len -= es;
    break;
  case 3:                                 /* duplicate element k at j */
    if (*len + es > cap) break;
    memmove(b + (j + 1) * es, b + j * es, (n - j) * es);
    memcpy(b + j * es, b + (k < j ? k : k + 1) * es, es);
    *len += es;
    break;
  case 4:                                 /* copy element k over j */
    memmove(b + j * es, b + k * es, es);
    break;
  default:                                /* libFuzzer's bytes, whole elements */
    if (LLVMFuzzerMutate) {
      size_t m = LLVMFuzzerMutate(b, *len, cap);
      *len = m - m % es;
    }
    break;
  }
}

/* libFuzzer's hook: mutates data[0..size) in place (room for max_size
** bytes) keeping the module's framing; returns the new size. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  frame f;
  uint32_t s = seed | 1;
  if (!LLVMFuzzerMutate) return size;
  if (rnd(&s) % 8 == 0 || read_frame(data, size, &f) != 0)
    return LLVMFuzzerMutate(data, size, max_size);
  /* each section copied out, with room to grow by a few elements */
  uint8_t *sec[MAXSEC] = {0};
  size_t len[MAXSEC], cap[MAXSEC];
  uint32_t counts[MAXSEC];
  size_t out = 0;
  for (uint32_t i = 0; i < f.n; i++) {
    size_t es = rgi_module_section_elem(f.id[i]);
    len[i] = f.size[i];
    cap[i] = len[i] + 4 * es;
    counts[i] = (uint32_t)(len[i] / es);
    sec[i] = malloc(cap[i]);
    if (!sec[i]) goto done;
    memcpy(sec[i], data + f.off[i], len[i]);
  }
  uint32_t edits = 1 + rnd(&s) % 3;
  for (uint32_t e = 0; e < edits; e++) {
    uint32_t i = rnd(&s) % f.n;
    if (f.id[i] == 1) continue;           /* the header strings: 12 bytes, kept */
    mutate_section(sec[i], &len[i], cap[i], rgi_module_section_elem(f.id[i]), counts, f.n, &s);
  }
  uint8_t *tmp = malloc(max_size);
  if (tmp) {
    out = write_frame(&f, sec, len, tmp, max_size);
    if (out) memcpy(data, tmp, out);
    free(tmp);
  }
done:
  for (uint32_t i = 0; i < f.n; i++) free(sec[i]);
  return out ? out : LLVMFuzzerMutate(data, size, max_size);
}
