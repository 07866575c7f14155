/*
** module.c: modules in memory, on disk, and the verifier.
**
** The .rbc file format (all integers little-endian, written byte by byte so
** the output is identical on every platform):
**
**     "RGLA"  u32 version  u32 nsections
**     nsections x { u32 id, u32 offset, u32 size }     the section table
**     the sections, each an array of fixed-size elements
**
** Every array of rgi_module is one section (see `sections` below); its element
** count is its size divided by the element's size on disk.  Section 1 holds
** the three header strings.  A missing section is an empty array.
**
** rgi_module_verify is the gate between a file and the VM: after it passes,
** the VM trusts every index in the module and every procedure's stack
** discipline, and checks only what depends on values computed at run time.
*/
#include "module.h"
#include "opcodes.h"
#include "regula_front.h"
#include "diag.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <utf8proc.h>

/* ---- tables expanded from the opcode list ------------------------------ */

const char *const rgi_opnames[] = {
#define RG_X(name, operand, pops, pushes, doc) #name,
  RG_OPCODES(RG_X)
#undef RG_X
};

const unsigned char rgi_op_operand[] = {
#define RG_X(name, operand, pops, pushes, doc) operand,
  RG_OPCODES(RG_X)
#undef RG_X
};

static const signed char op_pops[] = {
#define RG_X(name, operand, pops, pushes, doc) pops,
  RG_OPCODES(RG_X)
#undef RG_X
};

static const signed char op_pushes[] = {
#define RG_X(name, operand, pops, pushes, doc) pushes,
  RG_OPCODES(RG_X)
#undef RG_X
};

/* ---- basic accessors ----------------------------------------------------- */

/* Frees every array of m and zeroes the struct; m itself stays the caller's. */
void rgi_module_free(rgi_module *m) {
  if (!m) return;
  rg_free(m->strings);
#define RG_X(field, count, type) rg_free(m->field);
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  memset(m, 0, sizeof *m);
}

/* Returns the NUL-terminated string at pool offset s, or "" when s is out of
** range.  The pointer is owned by m. */
const char *rgi_module_str(const rgi_module *m, uint32_t s) {
  if (!m->strings || s >= m->nstrings) return "";
  return m->strings + s;
}

int rgi_module_is_test(const rgi_module *m, uint32_t p) {
  return p < m->nprocs && p >= m->nprocs - m->ntests;   /* tests are the last procedures */
}

/* Returns the index of the procedure named name, or -1. */
int rgi_module_find_proc(const rgi_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nprocs; i++)
    if (strcmp(rgi_module_str(m, m->procs[i].name), name) == 0) return (int)i;
  return -1;
}

/* Returns the index of the table named name, or -1. */
int rgi_module_find_table(const rgi_module *m, const char *name) {
  for (uint32_t i = 0; i < m->ntables; i++)
    if (strcmp(rgi_module_str(m, m->tables[i].name), name) == 0) return (int)i;
  return -1;
}

/* Returns the index of the enum named name, or -1. */
int rgi_module_find_strategy(const rgi_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nstrategies; i++)
    if (strcmp(rgi_module_str(m, m->strategies[i].name), name) == 0) return (int)i;
  return -1;
}

int rgi_module_find_enum(const rgi_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nenums; i++)
    if (strcmp(rgi_module_str(m, m->enums[i].name), name) == 0) return (int)i;
  return -1;
}

/* Sets *pops and *pushes to the stack effect of instruction ins in m, resolving
** the effects that depend on A.  Returns 0, or -1 when the opcode or the
** operand that decides the effect is out of range. */
int rgi_op_effect(const rgi_module *m, uint32_t ins, int *pops, int *pushes) {
  unsigned op = RG_INS_OP(ins);
  uint32_t a = RG_INS_A(ins);
  if (op >= RG_NOPCODES) return -1;
  *pops = op_pops[op];
  *pushes = op_pushes[op];
  switch (op) {
  case RG_OP_LOOKUP:
    if (a >= m->ntables) return -1;
    *pops = (int)m->tables[a].ndims;
    break;
  case RG_OP_MIN: case RG_OP_MAX:
    if (a < 1) return -1;
    *pops = (int)a;
    break;
  case RG_OP_MKREC:
    if (a >= m->nrecords || m->records[a].count > RG_A_MAX) return -1;
    *pops = (int)m->records[a].count;
    break;
  case RG_OP_CALL:
    if (a >= m->nprocs || m->procs[a].nparams > RG_A_MAX) return -1;
    *pops = (int)m->procs[a].nparams;
    *pushes = m->procs[a].result.kind != RG_K_VOID;
    break;
  case RG_OP_NOTE: case RG_OP_SHAPE:
    if (a >= m->nnotes || m->notes[a].nvals > RG_A_MAX) return -1;
    *pops = (int)m->notes[a].nvals;
    break;
  case RG_OP_CHOOSE:
    if (a >= m->nchoices || m->choices[a].kind > RG_OPT_RANGE) return -1;
    *pops = m->choices[a].kind == RG_OPT_RANGE ? 3 : 2;
    break;
  case RG_OP_LIST:
    *pops = (int)a;
    break;
  case RG_OP_ROLL: case RG_OP_ROLLS: case RG_OP_ROLLAT:
    if (a < 1) return -1;
    break;
  default:
    break;
  }
  return 0;
}

/* ---- the file format ------------------------------------------------------ */

enum { F_END, F_U32, F_I64, F_U8 };

/* One field of an element on disk: its encoding and its offset in the
** in-memory struct. */
typedef struct fdesc { unsigned char kind; unsigned short off; } fdesc;

/* One section: the module's pointer and count members it fills, the size of
** an element in memory, and its fields in order on disk. */
typedef struct sdesc {
  size_t ptr_off, count_off, size;
  fdesc f[10];
} sdesc;

#define U(T, mem) {F_U32, offsetof(T, mem)}
#define I(T, mem) {F_I64, offsetof(T, mem)}

/* How each element type is laid out on disk (DISK_ plus the type's name, as
** RG_MODULE_ARRAYS names it). */
#define DISK_char {{F_U8, 0}}
#define DISK_uint32_t {{F_U32, 0}}
#define DISK_rgi_value {{F_I64, 0}}
#define DISK_rgi_unit {U(rgi_unit, name), U(rgi_unit, display)}
#define DISK_rgi_enum {U(rgi_enum, name), U(rgi_enum, first), U(rgi_enum, count), U(rgi_enum, ordered)}
#define DISK_rgi_member_info {U(rgi_member_info, code), U(rgi_member_info, display)}
#define DISK_rgi_record {U(rgi_record, name), U(rgi_record, first), U(rgi_record, count), \
                        U(rgi_record, shown)}
#define DISK_rgi_field_info \
  {U(rgi_field_info, name), U(rgi_field_info, type.kind), U(rgi_field_info, type.ref)}
#define DISK_rgi_table \
  {U(rgi_table, name), U(rgi_table, first_dim), U(rgi_table, ndims), U(rgi_table, value.kind), \
   U(rgi_table, value.ref), U(rgi_table, first), U(rgi_table, count)}
#define DISK_rgi_dim \
  {U(rgi_dim, label), U(rgi_dim, is_enum), U(rgi_dim, ref), I(rgi_dim, lo), U(rgi_dim, size)}
#define DISK_rgi_proc \
  {U(rgi_proc, name), U(rgi_proc, nparams), U(rgi_proc, first_param), U(rgi_proc, nlocals), \
   U(rgi_proc, result.kind), U(rgi_proc, result.ref), U(rgi_proc, code), U(rgi_proc, ncode), \
   U(rgi_proc, max_stack)}
#define DISK_rgi_param_info \
  {U(rgi_param_info, name), U(rgi_param_info, type.kind), U(rgi_param_info, type.ref)}
#define DISK_rgi_type {U(rgi_type, kind), U(rgi_type, ref)}
#define DISK_rgi_note_info \
  {U(rgi_note_info, text), U(rgi_note_info, first_type), U(rgi_note_info, nvals)}
#define DISK_rgi_expect {U(rgi_expect, text), U(rgi_expect, type.kind), U(rgi_expect, type.ref), \
                        U(rgi_expect, first_var), U(rgi_expect, nvars)}
#define DISK_rgi_expect_var {U(rgi_expect_var, name), U(rgi_expect_var, slot), \
                            U(rgi_expect_var, type.kind), U(rgi_expect_var, type.ref)}
#define DISK_rgi_test {U(rgi_test, name), U(rgi_test, proc)}
#define DISK_rgi_line {U(rgi_line, file), U(rgi_line, line), U(rgi_line, col)}
#define DISK_rgi_dice \
  {U(rgi_dice, name), U(rgi_dice, face.kind), U(rgi_dice, face.ref), U(rgi_dice, first), \
   U(rgi_dice, count)}
#define DISK_rgi_deck \
  {U(rgi_deck, name), U(rgi_deck, card.kind), U(rgi_deck, card.ref), U(rgi_deck, first), \
   U(rgi_deck, count), U(rgi_deck, flags)}
#define DISK_rgi_choice \
  {U(rgi_choice, prompt), U(rgi_choice, chooser.kind), U(rgi_choice, chooser.ref), \
   U(rgi_choice, option.kind), U(rgi_choice, option.ref), U(rgi_choice, kind), \
   U(rgi_choice, flags)}
#define DISK_rgi_input \
  {U(rgi_input, name), U(rgi_input, type.kind), U(rgi_input, type.ref), I(rgi_input, value)}
#define DISK_rgi_named \
  {U(rgi_named, name), U(rgi_named, type.kind), U(rgi_named, type.ref), I(rgi_named, value), \
   U(rgi_named, file), U(rgi_named, line), U(rgi_named, starred)}
#define DISK_rgi_cellsrc {U(rgi_cellsrc, file), U(rgi_cellsrc, line), U(rgi_cellsrc, merged)}
#define DISK_rgi_strategy \
  {U(rgi_strategy, name), U(rgi_strategy, doc), U(rgi_strategy, first), U(rgi_strategy, count), \
   U(rgi_strategy, flags)}
#define DISK_rgi_display \
  {U(rgi_display, record), U(rgi_display, title), U(rgi_display, first), U(rgi_display, count)}
#define DISK_rgi_dline \
  {U(rgi_dline, kind), U(rgi_dline, text), U(rgi_dline, field), U(rgi_dline, first), \
   U(rgi_dline, count)}
#define DISK_rgi_pick \
  {U(rgi_pick, prompt), U(rgi_pick, rule), U(rgi_pick, who_set), U(rgi_pick, kind), \
   U(rgi_pick, field), I(rgi_pick, who), I(rgi_pick, value)}

/* Sections 2.. in id order: the pool, then RG_MODULE_ARRAYS in its order
** (section 1, the header strings, is handled apart). */
#define SEC(field, count, type) \
  {offsetof(rgi_module, field), offsetof(rgi_module, count), sizeof(type), DISK_##type},
static const sdesc sections[] = {
  SEC(strings, nstrings, char)
  RG_MODULE_ARRAYS(SEC)
};
#undef SEC

/* The number of arrays, then of sections: the header, the pool and the
** arrays. */
enum {
#define RG_X(field, count, type) SECPOS_##field,
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  NARRAYS
};
enum { SEC_HEADER = 1, RG_NSECTIONS = NARRAYS + 2, RG_MAX_SECTIONS = 64 };
#define NSDESC (sizeof sections / sizeof sections[0])

/* Returns the size on disk of one element of section s. */
static size_t disk_size(const sdesc *s) {
  size_t n = 0;
  for (const fdesc *f = s->f; f < s->f + 10 && f->kind != F_END; f++)
    n += f->kind == F_U32 ? 4 : f->kind == F_I64 ? 8 : 1;
  return n;
}

/* Stores v at p[0..4), little-endian. */
static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}

/* Returns the little-endian uint32 at p[0..4). */
static uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Stores v at p[0..8), two's complement, little-endian. */
static void put_i64(unsigned char *p, int64_t v) {
  uint64_t u = (uint64_t)v;
  put_u32(p, (uint32_t)u);
  put_u32(p + 4, (uint32_t)(u >> 32));
}

/* Returns the little-endian two's complement int64 at p[0..8). */
static int64_t get_i64(const unsigned char *p) {
  uint64_t u = (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
  /* Two's complement without implementation-defined conversion. */
  if (u <= (uint64_t)INT64_MAX) return (int64_t)u;
  return -(int64_t)(~u) - 1;
}

/* Returns the size on disk of one element of section `id` (1 the header
** strings, whose one element is 12 bytes), or 0 for an id no module has.
** The fuzzers' module mutator edits sections element by element with it. */
size_t rgi_module_section_elem(uint32_t id) {
  if (id == SEC_HEADER) return 12;
  if (id < 2 || id > RG_NSECTIONS) return 0;
  return disk_size(&sections[id - 2]);
}

/* Serializes m into a new buffer (owned by the caller, freed with rg_free).
** Returns 0 with *buf and *len set, or -1 when out of memory or when a
** section would not fit in 32 bits. */
int rgi_module_serialize(const rgi_module *m, unsigned char **buf, size_t *len) {
  uint64_t sizes[RG_NSECTIONS + 1];
  uint64_t total = 12 + 12u * RG_NSECTIONS;
  sizes[SEC_HEADER] = 12;
  total += 12;
  for (size_t i = 0; i < NSDESC; i++) {
    const sdesc *s = &sections[i];
    uint32_t count = *(const uint32_t *)((const char *)m + s->count_off);
    sizes[i + 2] = (uint64_t)count * disk_size(s);
    total += sizes[i + 2];
  }
  if (total > UINT32_MAX) return -1;
  unsigned char *out = rg_malloc((size_t)total);
  if (!out) return -1;
  memcpy(out, RG_MODULE_MAGIC, 4);
  put_u32(out + 4, RG_MODULE_VERSION);
  put_u32(out + 8, RG_NSECTIONS);
  uint32_t off = 12 + 12u * RG_NSECTIONS;
  for (uint32_t id = 1; id <= RG_NSECTIONS; id++) {
    unsigned char *e = out + 12 + 12 * (id - 1);
    put_u32(e, id);
    put_u32(e + 4, off);
    put_u32(e + 8, (uint32_t)sizes[id]);
    off += (uint32_t)sizes[id];
  }
  unsigned char *p = out + 12 + 12u * RG_NSECTIONS;
  put_u32(p, m->name); put_u32(p + 4, m->revision); put_u32(p + 8, m->source);
  p += 12;
  for (size_t i = 0; i < NSDESC; i++) {
    const sdesc *s = &sections[i];
    uint32_t count = *(const uint32_t *)((const char *)m + s->count_off);
    const char *arr = *(char *const *)((const char *)m + s->ptr_off);
    for (uint32_t k = 0; k < count; k++) {
      const char *el = arr + (size_t)k * s->size;
      for (const fdesc *f = s->f; f < s->f + 10 && f->kind != F_END; f++) {
        if (f->kind == F_U32) {
          uint32_t v; memcpy(&v, el + f->off, 4); put_u32(p, v); p += 4;
        } else if (f->kind == F_I64) {
          int64_t v; memcpy(&v, el + f->off, 8); put_i64(p, v); p += 8;
        } else {
          *p++ = (unsigned char)el[f->off];
        }
      }
    }
  }
  *buf = out;
  *len = (size_t)total;
  return 0;
}

/* Formats a message into err (size errlen) and returns -1. */
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Reads a module from buf[0..len) into m (zeroed first) and verifies it.
** Returns 0, -1 with m freed and the failed check in err, or RG_NOMEM /
** RG_BAD_MODULE (from the verifier) likewise.  Never reads outside buf. */
static int deserialize(rgi_module *m, const unsigned char *buf, size_t len,
                       char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  if (len < 4 || memcmp(buf, RG_MODULE_MAGIC, 4) != 0)
    return fail(err, errlen, "bad magic");
  if (len < 12) return fail(err, errlen, "truncated header");
  uint32_t version = get_u32(buf + 4);
  if (version != RG_MODULE_VERSION)
    return fail(err, errlen, "unsupported version %u", (unsigned)version);
  uint32_t nsec = get_u32(buf + 8);
  if (nsec > RG_MAX_SECTIONS)
    return fail(err, errlen, "absurd section count %u", (unsigned)nsec);
  uint64_t table_end = 12 + 12ull * nsec;
  if (table_end > len) return fail(err, errlen, "section table out of bounds");

  uint32_t off[RG_MAX_SECTIONS], size[RG_MAX_SECTIONS], id[RG_MAX_SECTIONS];
  int seen[RG_NSECTIONS + 1] = {0};
  for (uint32_t i = 0; i < nsec; i++) {
    const unsigned char *e = buf + 12 + 12 * i;
    id[i] = get_u32(e); off[i] = get_u32(e + 4); size[i] = get_u32(e + 8);
    if (id[i] < 1 || id[i] > RG_NSECTIONS)
      return fail(err, errlen, "section %u: unknown id %u", (unsigned)i, (unsigned)id[i]);
    if (seen[id[i]])
      return fail(err, errlen, "section %u: duplicate id %u", (unsigned)i, (unsigned)id[i]);
    seen[id[i]] = 1;
    if (off[i] < table_end || (uint64_t)off[i] + size[i] > len)
      return fail(err, errlen, "section %u out of bounds", (unsigned)i);
    for (uint32_t j = 0; j < i; j++)
      if (size[i] && size[j] && off[i] < (uint64_t)off[j] + size[j] &&
          off[j] < (uint64_t)off[i] + size[i])
        return fail(err, errlen, "sections %u and %u overlap", (unsigned)j, (unsigned)i);
  }

  for (uint32_t i = 0; i < nsec; i++) {
    const unsigned char *p = buf + off[i];
    if (id[i] == SEC_HEADER) {
      if (size[i] != 12) {
        rgi_module_free(m);   /* the sections before it may hold arrays */
        return fail(err, errlen, "section %u: header size %u is not 12", (unsigned)i, (unsigned)size[i]);
      }
      m->name = get_u32(p); m->revision = get_u32(p + 4); m->source = get_u32(p + 8);
      continue;
    }
    const sdesc *s = &sections[id[i] - 2];
    size_t esz = disk_size(s);
    if (size[i] % esz != 0) {
      rgi_module_free(m);
      return fail(err, errlen, "section %u: size %u is not a multiple of %u",
                  (unsigned)i, (unsigned)size[i], (unsigned)esz);
    }
    uint32_t count = (uint32_t)(size[i] / esz);
    if (count == 0) continue;
    if ((size_t)count > SIZE_MAX / s->size) {
      rgi_module_free(m);
      return fail(err, errlen, "section %u: absurd count %u", (unsigned)i, (unsigned)count);
    }
    char *arr = rg_malloc((size_t)count * s->size);
    if (!arr) {
      rgi_module_free(m);
      fail(err, errlen, "out of memory");
      return RG_NOMEM;
    }
    memset(arr, 0, (size_t)count * s->size);
    *(char **)((char *)m + s->ptr_off) = arr;
    *(uint32_t *)((char *)m + s->count_off) = count;
    for (uint32_t k = 0; k < count; k++) {
      char *el = arr + (size_t)k * s->size;
      for (const fdesc *f = s->f; f < s->f + 10 && f->kind != F_END; f++) {
        if (f->kind == F_U32) {
          uint32_t v = get_u32(p); memcpy(el + f->off, &v, 4); p += 4;
        } else if (f->kind == F_I64) {
          int64_t v = get_i64(p); memcpy(el + f->off, &v, 8); p += 8;
        } else {
          el[f->off] = (char)*p++;
        }
      }
    }
  }
  rg_status st = rgi_module_verify(m, err, errlen);
  if (st != RG_OK) {
    rgi_module_free(m);
    return (int)st;
  }
  return 0;
}

rg_status rgi_module_deserialize(rgi_module *m, const unsigned char *buf, size_t len,
                                char *err, size_t errlen) {
  int r = deserialize(m, buf, len, err, errlen);
  return r == 0 ? RG_OK : r == -1 ? RG_BAD_MODULE : (rg_status)r;
}

/* Writes data[0..len) to fd; returns 0 or the errno of the failure (EFBIG
** past a file size limit when SIGXFSZ is ignored, as the CLI does). */
static int write_all(int fd, const unsigned char *data, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, data + done, len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += (size_t)n;
  }
  return 0;
}

/* Follows path through symbolic links to the name they lead to (at most 40
** links; a link to a missing file leads to that missing name), so that a
** save writes through a link to its target and the link stays a link.
** Returns an rg_malloc'd path (the caller frees), or NULL with *e set
** (ENOMEM, ELOOP, or readlink's errno). */
static char *follow_links(const char *path, int *e) {
  char *cur = rg_malloc(strlen(path) + 1);
  if (!cur) { *e = ENOMEM; return NULL; }
  strcpy(cur, path);
  for (int hops = 0;; hops++) {
    struct stat st;
    char *target, *next, *slash;
    size_t cap = 256;
    ssize_t n;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
    if (hops == 40) { rg_free(cur); *e = ELOOP; return NULL; }
    for (;;) {                            /* the link's text, whatever its length */
      if (!(target = rg_malloc(cap))) { rg_free(cur); *e = ENOMEM; return NULL; }
      n = readlink(cur, target, cap);
      if (n < 0) { *e = errno; rg_free(target); rg_free(cur); return NULL; }
      if ((size_t)n < cap) break;
      rg_free(target);
      cap *= 2;
    }
    target[n] = '\0';
    slash = strrchr(cur, '/');
    if (target[0] == '/' || !slash) {     /* absolute, or beside a link in "." */
      next = target;
    } else {                              /* relative to the link's folder */
      size_t dl = (size_t)(slash - cur) + 1;
      next = rg_malloc(dl + (size_t)n + 1);
      if (!next) { rg_free(target); rg_free(cur); *e = ENOMEM; return NULL; }
      memcpy(next, cur, dl);
      memcpy(next + dl, target, (size_t)n + 1);
      rg_free(target);
    }
    rg_free(cur);
    cur = next;
  }
}

rg_status rg_file_save(const char *path, const void *data, size_t len, int mode, rg_out *why) {
  char err[1024] = "";
  if (rgi_file_save(path, data, len, mode, err, sizeof err) == 0) return RG_OK;
  size_t n = strlen(err);
  if (why) rg_puts(why, err);
  return n >= 13 && strcmp(err + n - 13, "out of memory") == 0 ? RG_NOMEM : RG_IO;
}

int rgi_file_save(const char *path, const void *data, size_t len, int mode, char *err,
                  size_t errlen) {
  struct stat st;
  int fd, e = 0, keep = 0;
  char *real = follow_links(path, &e);
  if (!real && e == ENOMEM) return fail(err, errlen, "%s: out of memory", path);
  if (!real) return fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
  /* A path that is there and is not a regular file (a device, a FIFO,
  ** /dev/stdout) is written straight to: renaming a file over it would
  ** replace the device (as root) instead of writing to it. */
  keep = stat(real, &st) == 0;            /* a file replaced keeps its mode */
  if (keep && !S_ISREG(st.st_mode)) {
    rg_free(real);
    if ((fd = open(path, O_WRONLY)) < 0) {
      e = errno;
      return fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
    }
    e = write_all(fd, data, len);
    if (close(fd) != 0 && !e) e = errno;
    return e ? fail(err, errlen, "%s: cannot write: %s", path, strerror(e)) : 0;
  }
  size_t plen = strlen(real);
  char *tmp = rg_malloc(plen + 40);
  if (!tmp) {
    rg_free(real);
    return fail(err, errlen, "%s: out of memory", path);
  }
  /* open(2) with O_EXCL, not mkstemp: the new file gets mode less the
  ** umask, as any file a program creates (mkstemp's would be 0600) */
  fd = -1;
  for (unsigned k = 0; fd < 0 && k < 100; k++) {
    snprintf(tmp, plen + 40, "%s.tmp.%ld.%u", real, (long)getpid(), k);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, (mode_t)(mode ? mode : 0600));
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    e = errno;
    rg_free(tmp);
    rg_free(real);
    return fail(err, errlen, "%s: cannot create a temporary file: %s", path, strerror(e));
  }
  if (keep && fchmod(fd, st.st_mode & 07777) != 0) e = errno;
  if (!e) e = write_all(fd, data, len);
  if (!e && fsync(fd) != 0) e = errno;
  if (close(fd) != 0 && !e) e = errno;
  if (!e && rename(tmp, real) != 0) e = errno;
  if (e) unlink(tmp);
  rg_free(tmp);
  rg_free(real);
  return e ? fail(err, errlen, "%s: cannot write: %s", path, strerror(e)) : 0;
}

/* Writes m to path with rg_file_save.  Returns 0, or -1 with a message in
** err. */
int rgi_module_save(const rgi_module *m, const char *path, char *err, size_t errlen) {
  unsigned char *buf = NULL;
  size_t len = 0;
  int rc;
  if (rgi_module_serialize(m, &buf, &len) != 0)
    return fail(err, errlen, "%s: out of memory or module too large", path);
  rc = rgi_file_save(path, buf, len, 0666, err, errlen);   /* 0644 under umask 022 */
  rg_free(buf);
  return rc;
}

/* Reads the whole file at path into a new buffer (caller frees).  Returns
** RG_OK, or RG_NOT_FOUND (no such file) / RG_IO / RG_NOMEM with a message. */
static rg_status read_file(const char *path, unsigned char **out, size_t *outlen,
                     char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    rg_status st = errno == ENOENT ? RG_NOT_FOUND : RG_IO;
    return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno)), st;
  }
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = rg_malloc(cap);
  if (!buf) { fclose(f); return fail(err, errlen, "%s: out of memory", path), RG_NOMEM; }
  for (;;) {
    if (len == cap) {
      if (cap > ((size_t)UINT32_MAX)) {
        rg_free(buf); fclose(f);
        return fail(err, errlen, "%s: file too large", path), RG_IO;
      }
      unsigned char *nb = rg_realloc(buf, cap * 2);
      if (!nb) { rg_free(buf); fclose(f); return fail(err, errlen, "%s: out of memory", path), RG_NOMEM; }
      buf = nb; cap *= 2;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { rg_free(buf); return fail(err, errlen, "%s: read error", path), RG_IO; }
  *out = buf;
  *outlen = len;
  return RG_OK;
}

/* Loads and verifies the .rbc file at path into m.  Returns RG_OK, or
** RG_NOT_FOUND / RG_IO / RG_NOMEM / RG_BAD_MODULE with m freed and a
** message ("PATH: bad magic"). */
rg_status rgi_module_load(rgi_module *m, const char *path, char *err, size_t errlen) {
  unsigned char *buf = NULL;
  size_t len = 0;
  memset(m, 0, sizeof *m);
  rg_status st = read_file(path, &buf, &len, err, errlen);
  if (st != RG_OK) return st;
  char msg[256];
  st = rgi_module_deserialize(m, buf, len, msg, sizeof msg);
  rg_free(buf);
  if (st != RG_OK) fail(err, errlen, "%s: %s", path, msg);
  return st;
}

/* Returns 1 when path ends in ".rbc" or the file starts with the magic. */
int rgi_module_is_rbc(const char *path) {
  size_t n = strlen(path);
  if (n >= 4 && strcmp(path + n - 4, ".rbc") == 0) return 1;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char magic[4];
  size_t got = fread(magic, 1, 4, f);
  fclose(f);
  return got == 4 && memcmp(magic, RG_MODULE_MAGIC, 4) == 0;
}

/* ---- the verifier --------------------------------------------------------- */

/* Largest number of locals a procedure may have (LOCAL operands are 24-bit,
** and a frame must fit the VM's stack). */
#define RG_MAX_LOCALS 65536u


typedef struct vctx {
  rgi_module *m;
  char *err;
  size_t errlen;
  int nomem;                /* a check ran out of memory (not a bad module) */
} vctx;

/* Checks that string offset s is in the pool; what names the referrer. */
static int vstr(vctx *v, uint32_t s, const char *what, uint32_t i) {
  if (s >= v->m->nstrings)
    return fail(v->err, v->errlen, "%s %u: string %u out of range", what, (unsigned)i, (unsigned)s);
  return 0;
}

/* Checks that [first, first+count) lies within [0, n). */
static int in_range(uint32_t first, uint32_t count, uint32_t n) {
  return (uint64_t)first + count <= n;
}

/* Checks a type: kind known, ref in range for its kind (an enum for sets),
** ref 0 where unused, void only when allow_void. */
static int vtype(vctx *v, rgi_type t, int allow_void, const char *what, uint32_t i) {
  const rgi_module *m = v->m;
  uint32_t bound = 0;
  int has_ref = 1;
  switch (t.kind) {
  case RG_K_VOID:
    if (!allow_void) return fail(v->err, v->errlen, "%s %u: void type", what, (unsigned)i);
    has_ref = 0;
    break;
  case RG_K_DIST: bound = m->nunits; break;
  case RG_K_ENUM: case RG_K_SET: bound = m->nenums; break;
  case RG_K_RECORD: bound = m->nrecords; break;
  case RG_K_LIST: bound = m->ntypes; break;
  case RG_K_INT: case RG_K_BOOL: case RG_K_PERCENT: case RG_K_TEXT: has_ref = 0; break;
  default:
    return fail(v->err, v->errlen, "%s %u: bad type kind %u", what, (unsigned)i, (unsigned)t.kind);
  }
  if (has_ref ? t.ref >= bound : t.ref != 0)
    return fail(v->err, v->errlen, "%s %u: type reference %u out of range", what,
                (unsigned)i, (unsigned)t.ref);
  /* A list's element chain (list of list of ...) must reach a non-list
  ** type within RG_MAX_LIST_NEST steps: no cycles through types[]. */
  for (unsigned depth = 0; t.kind == RG_K_LIST; depth++) {
    if (depth >= RG_MAX_LIST_NEST)
      return fail(v->err, v->errlen, "%s %u: list nested too deeply or in a cycle", what, (unsigned)i);
    if (t.ref >= m->ntypes)
      return fail(v->err, v->errlen, "%s %u: type reference %u out of range", what,
                  (unsigned)i, (unsigned)t.ref);
    t = m->types[t.ref];
  }
  return 0;
}

/* Checks that value c fits type t where the verifier can tell without the
** heap: an enum member below the member count, a set within its enum, a
** string in the pool.  Returns NULL, or what is wrong. */
static const char *bad_value(const rgi_module *m, rgi_type t, rgi_value c) {
  switch (t.kind) {
  case RG_K_ENUM:
    if (c < 0 || c >= (rgi_value)m->enums[t.ref].count) return "member out of range";
    break;
  case RG_K_SET: {
    uint32_t n = m->enums[t.ref].count;
    if (n < 64 && ((uint64_t)c >> n) != 0) return "set has members outside the enum";
    break;
  }
  case RG_K_TEXT:
    if (c < 0 || (uint64_t)c >= m->nstrings) return "string out of range";
    break;
  default:
    break;
  }
  return NULL;
}

/* Checks a type of a face, card or input: valid, and neither a list nor a
** record. */
static int vplain(vctx *v, rgi_type t, const char *what, uint32_t i) {
  if (vtype(v, t, 0, what, i)) return -1;
  if (t.kind == RG_K_LIST || t.kind == RG_K_RECORD)
    return fail(v->err, v->errlen, "%s %u: a %s type is not allowed here", what, (unsigned)i,
                t.kind == RG_K_LIST ? "list" : "record");
  return 0;
}

/* Checks the displays (version 5): each line's field a list (of records,
** for a table, whose columns are fields of them). */
static int verify_displays(vctx *v) {
  const rgi_module *m = v->m;
  for (uint32_t i = 0; i < m->ndisplays; i++) {
    const rgi_display *dp = &m->displays[i];
    const rgi_record *r;
    if (dp->record >= m->nrecords || vstr(v, dp->title, "display", i) ||
        !in_range(dp->first, dp->count, m->ndlines))
      return fail(v->err, v->errlen, "display %u: bad record, title or lines", (unsigned)i);
    r = &m->records[dp->record];
    for (uint32_t k = dp->first; k < dp->first + dp->count; k++) {
      const rgi_dline *dl = &m->dlines[k];
      rgi_type ft, et;
      if (dl->kind == RG_DL_FORM) {
        if (vstr(v, dl->text, "display line", k)) return -1;
        continue;
      }
      if (dl->kind > RG_DL_LIST || dl->field >= r->count)
        return fail(v->err, v->errlen, "display line %u: bad kind or field", (unsigned)k);
      /* ft and et were checked by vtype in verify_data (a list's ref is
      ** below ntypes, a record's below nrecords): only their kinds here */
      ft = m->fields[r->first + dl->field].type;
      if (ft.kind != RG_K_LIST)
        return fail(v->err, v->errlen, "display line %u: the field is not a list", (unsigned)k);
      et = m->types[ft.ref];
      if (dl->kind == RG_DL_LIST) {
        if (dl->text && (vstr(v, dl->text, "display line", k) || et.kind != RG_K_RECORD))
          return fail(v->err, v->errlen, "display line %u: a form for elements not records",
                      (unsigned)k);
        continue;
      }
      if (et.kind != RG_K_RECORD || !in_range(dl->first, dl->count, m->ndcols))
        return fail(v->err, v->errlen, "display line %u: not a table of records", (unsigned)k);
      for (uint32_t c = dl->first; c < dl->first + dl->count; c++)
        if (m->dcols[c] >= m->records[et.ref].count)
          return fail(v->err, v->errlen, "display line %u: column %u out of range", (unsigned)k,
                      (unsigned)c);
    }
  }
  return 0;
}

/* qsort: choice indexes paired with their prompts, by (prompt, index). */
static int by_choice_prompt(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Returns whether the choices asking the prompt of bypr's run that starts at
** lo (at least two pairs, sorted by prompt) agree on their types.  The
** answer is kept in the choice slot of the run's second pair (UINT32_MAX:
** they disagree, UINT32_MAX - 1: they agree; only the first pair's choice
** is read afterwards), so each run is compared once. */
static int agree(const rgi_module *m, uint32_t *bypr, uint32_t lo) {
  uint32_t pr = bypr[2 * lo], *memo = &bypr[2 * (lo + 1) + 1];
  const rgi_choice *ch = &m->choices[bypr[2 * lo + 1]];
  if (*memo >= UINT32_MAX - 1) return *memo == UINT32_MAX - 1;
  for (uint32_t j = lo + 1; j < m->nchoices && bypr[2 * j] == pr; j++) {
    const rgi_choice *o = &m->choices[bypr[2 * j + 1]];
    if (o->option.kind != ch->option.kind || o->option.ref != ch->option.ref ||
        o->chooser.kind != ch->chooser.kind || o->chooser.ref != ch->chooser.ref) {
      *memo = UINT32_MAX;
      return 0;
    }
  }
  *memo = UINT32_MAX - 1;
  return 1;
}

/* Checks the strategies and their picks (version 5) in O(n log n): each
** strategy's picks sorted by prompt, a rule's picks together; the choices
** asking one prompt agree on their types when a pick names the prompt; each
** pick's values fit those types. */
static int verify_strategies(vctx *v) {
  const rgi_module *m = v->m;
  uint32_t *bypr = NULL;   /* [2 * nchoices]: (prompt, choice) sorted */
  int rc = -1;
  if (m->npicks) {
    if (!(bypr = rg_malloc(2 * (size_t)m->nchoices * sizeof *bypr + 1))) {
      v->nomem = 1;
      return fail(v->err, v->errlen, "out of memory");
    }
    for (uint32_t c = 0; c < m->nchoices; c++) {
      bypr[2 * c] = m->choices[c].prompt;
      bypr[2 * c + 1] = c;
    }
    qsort(bypr, m->nchoices, 2 * sizeof *bypr, by_choice_prompt);
  }
  for (uint32_t i = 0, defaults = 0; i < m->nstrategies; i++) {
    const rgi_strategy *st = &m->strategies[i];
    if (vstr(v, st->name, "strategy", i) || vstr(v, st->doc, "strategy", i)) goto out;
    if (st->flags & ~RG_STRATEGY_DEFAULT || (defaults += st->flags) > 1) {
      fail(v->err, v->errlen, "strategy %u: bad flags, or a second default", (unsigned)i);
      goto out;
    }
    if (!in_range(st->first, st->count, m->npicks)) {
      fail(v->err, v->errlen, "strategy %u: picks out of range", (unsigned)i);
      goto out;
    }
    for (uint32_t k = st->first; k < st->first + st->count; k++) {
      const rgi_pick *p = &m->picks[k], *q = k > st->first ? &m->picks[k - 1] : NULL;
      if (vstr(v, p->prompt, "pick", k)) goto out;
      if (p->kind > RG_PICK_RANDOM || p->who_set > 1 ||
          (p->field && p->kind != RG_PICK_MAX && p->kind != RG_PICK_MIN) ||
          (q && (p->prompt < q->prompt || (p->rule == q->rule && p->prompt != q->prompt) ||
                 (p->rule != q->rule && p->rule != q->rule + 1))) ||
          (!q && p->rule != 0)) {
        fail(v->err, v->errlen, "pick %u: bad kind, order, rule or field", (unsigned)k);
        goto out;
      }
      /* the choices asking its prompt: bypr[lo ..) */
      uint32_t lo = 0, hi = m->nchoices;
      while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (bypr[2 * mid] < p->prompt) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= m->nchoices || bypr[2 * lo] != p->prompt) continue;   /* asks nothing */
      const rgi_choice *ch = &m->choices[bypr[2 * lo + 1]];
      const char *why = NULL;
      if (lo + 1 < m->nchoices && bypr[2 * (lo + 1)] == p->prompt && !agree(m, bypr, lo))
        why = "choices of one prompt with other types";
      if (!why && p->who_set && (ch->chooser.kind == RG_K_RECORD || ch->chooser.kind == RG_K_LIST))
        why = "a chooser that is a record or list";
      else if (!why && p->who_set) why = bad_value(m, ch->chooser, p->who);
      if (!why && p->kind == RG_PICK_VALUE) {
        if (ch->option.kind == RG_K_RECORD || ch->option.kind == RG_K_LIST)
          why = "a value of a record or list option";
        else why = bad_value(m, ch->option, p->value);
      }
      if (!why && p->field) {
        if (ch->option.kind != RG_K_RECORD || p->field > m->records[ch->option.ref].count)
          why = "a field out of range";
        else {
          rgi_type ft = m->fields[m->records[ch->option.ref].first + p->field - 1].type;
          if (ft.kind == RG_K_RECORD || ft.kind == RG_K_LIST) why = "a field that is not simple";
        }
      }
      if (why) {
        fail(v->err, v->errlen, "pick %u: %s", (unsigned)k, why);
        goto out;
      }
    }
  }
  rc = 0;
out:
  rg_free(bypr);
  return rc;
}

/* Checks the dice, decks, choices and inputs (language version 2). */
static int verify_chance(vctx *v) {
  const rgi_module *m = v->m;
  for (uint32_t i = 0; i < m->ndice; i++) {
    const rgi_dice *d = &m->dice[i];
    if (vstr(v, d->name, "dice", i) || vplain(v, d->face, "dice", i)) return -1;
    const char *n = rgi_module_str(m, d->name);
    if (d->count < 1)
      return fail(v->err, v->errlen, "dice '%s': no faces", n);
    if (!in_range(d->first, d->count, m->nfaces))
      return fail(v->err, v->errlen, "dice '%s': faces out of range", n);
    for (uint32_t k = 0; k < d->count; k++) {
      const char *why = bad_value(m, d->face, m->faces[d->first + k]);
      if (why) return fail(v->err, v->errlen, "dice '%s': face %u: %s", n, (unsigned)k, why);
    }
  }
  for (uint32_t i = 0; i < m->ndecks; i++) {
    const rgi_deck *d = &m->decks[i];
    if (vstr(v, d->name, "deck", i) || vplain(v, d->card, "deck", i)) return -1;
    const char *n = rgi_module_str(m, d->name);
    if (d->count < 1)
      return fail(v->err, v->errlen, "deck '%s': no cards", n);
    if (d->flags & ~RG_DECK_SECRET)
      return fail(v->err, v->errlen, "deck '%s': bad flags %u", n, (unsigned)d->flags);
    if (!in_range(d->first, d->count, m->ncards))
      return fail(v->err, v->errlen, "deck '%s': cards out of range", n);
    for (uint32_t k = 0; k < d->count; k++) {
      const char *why = bad_value(m, d->card, m->cards[d->first + k]);
      if (why) return fail(v->err, v->errlen, "deck '%s': card %u: %s", n, (unsigned)k, why);
    }
  }
  for (uint32_t i = 0; i < m->nchoices; i++) {
    const rgi_choice *c = &m->choices[i];
    if (vstr(v, c->prompt, "choice", i) || vtype(v, c->chooser, 0, "choice", i) ||
        vtype(v, c->option, 0, "choice", i)) return -1;
    if (c->flags & ~RG_CHOICE_SECRET)
      return fail(v->err, v->errlen, "choice %u: bad flags %u", (unsigned)i, (unsigned)c->flags);
    if (c->kind > RG_OPT_RANGE)
      return fail(v->err, v->errlen, "choice %u: bad option kind %u", (unsigned)i, (unsigned)c->kind);
    if (c->kind == RG_OPT_SET && c->option.kind != RG_K_ENUM)
      return fail(v->err, v->errlen, "choice %u: options from a set must be enum members", (unsigned)i);
    if (c->kind == RG_OPT_RANGE && c->option.kind != RG_K_INT)
      return fail(v->err, v->errlen, "choice %u: options from a range must be ints", (unsigned)i);
  }
  for (uint32_t i = 0; i < m->ninputs; i++) {
    const rgi_input *in = &m->inputs[i];
    if (vstr(v, in->name, "input", i) || vplain(v, in->type, "input", i)) return -1;
    const char *why = bad_value(m, in->type, in->value);
    if (why)
      return fail(v->err, v->errlen, "input '%s': default: %s", rgi_module_str(m, in->name), why);
  }
  /* Provenance (version 3): named constants and where each cell came from. */
  for (uint32_t i = 0; i < m->nnamed; i++) {
    const rgi_named *nm = &m->named[i];
    /* vplain refuses a record or list: a constant is kept by name only when plain */
    if (vstr(v, nm->name, "constant", i) || vplain(v, nm->type, "constant", i)) return -1;
    const char *why = bad_value(m, nm->type, nm->value);
    if (why)
      return fail(v->err, v->errlen, "constant '%s': %s", rgi_module_str(m, nm->name), why);
    if ((nm->file >= m->nfiles && nm->line) || nm->starred > 1)
      return fail(v->err, v->errlen, "constant '%s': bad source position", rgi_module_str(m, nm->name));
  }
  if (m->ncellsrc != 0 && m->ncellsrc != m->ncells)
    return fail(v->err, v->errlen, "cell sources: %u for %u cells", (unsigned)m->ncellsrc,
                (unsigned)m->ncells);
  for (uint32_t i = 0; i < m->ncellsrc; i++)
    if (m->cellsrc[i].file >= m->nfiles && m->cellsrc[i].line)
      return fail(v->err, v->errlen, "cell %u: source file out of range", (unsigned)i);
    else if (m->cellsrc[i].merged > 1)
      return fail(v->err, v->errlen, "cell %u: merged is %u, not 0 or 1", (unsigned)i,
                  (unsigned)m->cellsrc[i].merged);
  return 0;
}

/* Checks one table cell value c against the table's value type. */
static int vcell(vctx *v, const rgi_table *t, uint32_t ti, uint32_t k, rgi_value c) {
  const rgi_module *m = v->m;
  const char *tn = rgi_module_str(m, t->name);
  switch (t->value.kind) {
  case RG_K_ENUM:
    if (c < 0 || c >= (rgi_value)m->enums[t->value.ref].count)
      return fail(v->err, v->errlen, "table '%s': cell %u: member %lld out of range",
                  tn, (unsigned)k, (long long)c);
    break;
  case RG_K_SET: {
    uint32_t n = m->enums[t->value.ref].count;
    if (n < 64 && ((uint64_t)c >> n) != 0)
      return fail(v->err, v->errlen, "table '%s': cell %u: set has members outside the enum",
                  tn, (unsigned)k);
    break;
  }
  case RG_K_RECORD: {
    uint32_t n = m->records[t->value.ref].count;
    if (c < 0 || (uint64_t)c + n > m->nheap)
      return fail(v->err, v->errlen, "table '%s': cell %u: record offset %lld outside the heap",
                  tn, (unsigned)k, (long long)c);
    break;
  }
  case RG_K_TEXT:
    if (c < 0 || (uint64_t)c >= m->nstrings)
      return fail(v->err, v->errlen, "table '%s': cell %u: string %lld out of range",
                  tn, (unsigned)k, (long long)c);
    break;
  case RG_K_LIST:
    if (c < 0 || (uint64_t)c >= m->nheap || m->heap[c] < 0 ||
        (uint64_t)m->heap[c] > m->nheap - (uint64_t)c - 1)
      return fail(v->err, v->errlen, "table '%s': cell %u: list offset %lld outside the heap",
                  tn, (unsigned)k, (long long)c);
    break;
  default:
    break;
  }
  (void)ti;
  return 0;
}

/* Checks every cross-reference outside the code. */
static int verify_data(vctx *v) {
  rgi_module *m = v->m;
  if (m->nstrings == 0 || !m->strings)
    return fail(v->err, v->errlen, "string pool is empty");
  if (m->strings[0] != '\0')
    return fail(v->err, v->errlen, "string pool does not start with the empty string");
  if (m->strings[m->nstrings - 1] != '\0')
    return fail(v->err, v->errlen, "string pool does not end with NUL");
  /* Text that is printed: valid UTF-8 with nothing that could change what
  ** a terminal shows (diag.c refuses the same in source files). */
  for (uint32_t i = 0; i < m->nstrings;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)m->strings + i,
                                          (utf8proc_ssize_t)(m->nstrings - i), &cp);
    if (k <= 0 || (cp != 0 && rgi_unsafe_char(cp)))
      return fail(v->err, v->errlen, "string pool: %s at byte %u",
                  k <= 0 ? "bad UTF-8" : "a control or bidirectional formatting character",
                  (unsigned)i);
    i += (uint32_t)k;
  }
  if (vstr(v, m->name, "header", 0) || vstr(v, m->revision, "header", 1) ||
      vstr(v, m->source, "header", 2)) return -1;
  for (uint32_t i = 0; i < m->nfiles; i++)
    if (vstr(v, m->files[i], "file", i)) return -1;
  for (uint32_t i = 0; i < m->nunits; i++)
    if (vstr(v, m->units[i].name, "unit", i) || vstr(v, m->units[i].display, "unit", i))
      return -1;
  for (uint32_t i = 0; i < m->nmembers; i++)
    if (vstr(v, m->members[i].code, "member", i) || vstr(v, m->members[i].display, "member", i))
      return -1;
  for (uint32_t i = 0; i < m->nenums; i++) {
    const rgi_enum *e = &m->enums[i];
    if (vstr(v, e->name, "enum", i)) return -1;
    const char *n = rgi_module_str(m, e->name);
    if (e->count < 1 || e->count > 64)
      return fail(v->err, v->errlen, "enum '%s': member count %u not in 1..64", n, (unsigned)e->count);
    if (!in_range(e->first, e->count, m->nmembers))
      return fail(v->err, v->errlen, "enum '%s': members out of range", n);
    if (e->ordered > 1)
      return fail(v->err, v->errlen, "enum '%s': bad ordered flag %u", n, (unsigned)e->ordered);
  }
  for (uint32_t i = 0; i < m->nfields; i++)
    if (vstr(v, m->fields[i].name, "field", i) || vtype(v, m->fields[i].type, 0, "field", i))
      return -1;
  for (uint32_t i = 0; i < m->nrecords; i++) {
    const rgi_record *r = &m->records[i];
    if (vstr(v, r->name, "record", i) || (r->shown && vstr(v, r->shown, "record", i))) return -1;
    const char *n = rgi_module_str(m, r->name);
    if (r->count < 1 || r->count > RG_A_MAX)
      return fail(v->err, v->errlen, "record '%s': field count %u out of range", n, (unsigned)r->count);
    if (!in_range(r->first, r->count, m->nfields))
      return fail(v->err, v->errlen, "record '%s': fields out of range", n);
  }
  for (uint32_t i = 0; i < m->ndims; i++) {
    const rgi_dim *d = &m->dims[i];
    if (vstr(v, d->label, "dimension", i)) return -1;
    if (d->size < 1)
      return fail(v->err, v->errlen, "dimension %u: size 0", (unsigned)i);
    if (d->is_enum == 1) {
      if (d->ref >= m->nenums)
        return fail(v->err, v->errlen, "dimension %u: enum %u out of range", (unsigned)i, (unsigned)d->ref);
      if (d->lo != 0 || d->size != m->enums[d->ref].count)
        return fail(v->err, v->errlen, "dimension %u: size %u differs from enum '%s' (%u members)",
                    (unsigned)i, (unsigned)d->size, rgi_module_str(m, m->enums[d->ref].name),
                    (unsigned)m->enums[d->ref].count);
    } else if (d->is_enum == 0) {
      if (d->ref != 0)
        return fail(v->err, v->errlen, "dimension %u: range with enum reference", (unsigned)i);
      if (d->lo > INT64_MAX - (int64_t)(d->size - 1))
        return fail(v->err, v->errlen, "dimension %u: range overflows", (unsigned)i);
    } else {
      return fail(v->err, v->errlen, "dimension %u: bad enum flag %u", (unsigned)i, (unsigned)d->is_enum);
    }
  }
  for (uint32_t i = 0; i < m->ntables; i++) {
    const rgi_table *t = &m->tables[i];
    if (vstr(v, t->name, "table", i)) return -1;
    const char *n = rgi_module_str(m, t->name);
    if (t->ndims < 1 || t->ndims > 8)
      return fail(v->err, v->errlen, "table '%s': %u dimensions not in 1..8", n, (unsigned)t->ndims);
    if (!in_range(t->first_dim, t->ndims, m->ndims))
      return fail(v->err, v->errlen, "table '%s': dimensions out of range", n);
    if (vtype(v, t->value, 0, "table", i)) return -1;
    uint64_t prod = 1;
    for (uint32_t k = 0; k < t->ndims; k++) {
      prod *= m->dims[t->first_dim + k].size;
      if (prod > UINT32_MAX)
        return fail(v->err, v->errlen, "table '%s': too many cells", n);
    }
    if (prod != t->count)
      return fail(v->err, v->errlen, "table '%s': cell count %u is not the product of its sizes (%llu)",
                  n, (unsigned)t->count, (unsigned long long)prod);
    if (!in_range(t->first, t->count, m->ncells))
      return fail(v->err, v->errlen, "table '%s': cells out of range", n);
    for (uint32_t k = 0; k < t->count; k++)
      if (vcell(v, t, i, k, m->cells[t->first + k])) return -1;
  }
  for (uint32_t i = 0; i < m->nparams; i++)
    if (vstr(v, m->params[i].name, "parameter", i) || vtype(v, m->params[i].type, 0, "parameter", i))
      return -1;
  for (uint32_t i = 0; i < m->ntypes; i++)
    if (vtype(v, m->types[i], 0, "type", i)) return -1;
  for (uint32_t i = 0; i < m->nprocs; i++) {
    const rgi_proc *p = &m->procs[i];
    if (vstr(v, p->name, "procedure", i)) return -1;
    const char *n = rgi_module_str(m, p->name);
    if (!in_range(p->first_param, p->nparams, m->nparams))
      return fail(v->err, v->errlen, "procedure '%s': parameters out of range", n);
    if (p->nlocals < p->nparams)
      return fail(v->err, v->errlen, "procedure '%s': %u locals but %u parameters", n,
                  (unsigned)p->nlocals, (unsigned)p->nparams);
    if (p->nlocals > RG_MAX_LOCALS)
      return fail(v->err, v->errlen, "procedure '%s': absurd local count %u", n, (unsigned)p->nlocals);
    if (vtype(v, p->result, 1, "procedure", i)) return -1;
    if (p->ncode < 1 || !in_range(p->code, p->ncode, m->ncode))
      return fail(v->err, v->errlen, "procedure '%s': code out of range", n);
  }
  for (uint32_t i = 0; i < m->nnotes; i++) {
    if (vstr(v, m->notes[i].text, "note", i)) return -1;
    if (!in_range(m->notes[i].first_type, m->notes[i].nvals, m->ntypes))
      return fail(v->err, v->errlen, "note %u: value types out of range", (unsigned)i);
  }
  for (uint32_t i = 0; i < m->nexpects; i++) {
    if (vstr(v, m->expects[i].text, "expectation", i) ||
        vtype(v, m->expects[i].type, 0, "expectation", i)) return -1;
    if (!in_range(m->expects[i].first_var, m->expects[i].nvars, m->nevars))
      return fail(v->err, v->errlen, "expectation %u: loop variables out of range", (unsigned)i);
  }
  for (uint32_t i = 0; i < m->nevars; i++)
    if (vstr(v, m->evars[i].name, "loop variable", i) ||
        vtype(v, m->evars[i].type, 0, "loop variable", i)) return -1;
  /* The tests' procedures are the last ones, in the tests' order (the
  ** procedures of the rules come first: rg_rules_count counts them alone). */
  if (m->ntests > m->nprocs)
    return fail(v->err, v->errlen, "%u tests for %u procedures", (unsigned)m->ntests,
                (unsigned)m->nprocs);
  for (uint32_t i = 0; i < m->ntests; i++) {
    if (vstr(v, m->tests[i].name, "test", i)) return -1;
    if (m->tests[i].proc != m->nprocs - m->ntests + i)
      return fail(v->err, v->errlen, "test %u: procedure %u, not %u (tests come last)",
                  (unsigned)i, (unsigned)m->tests[i].proc, (unsigned)(m->nprocs - m->ntests + i));
  }
  if (verify_chance(v) || verify_strategies(v) || verify_displays(v)) return -1;
  if (m->nlines != m->ncode)
    return fail(v->err, v->errlen, "line table has %u entries for %u instructions",
                (unsigned)m->nlines, (unsigned)m->ncode);
  for (uint32_t i = 0; i < m->nlines; i++)
    if (m->lines[i].file >= m->nfiles)
      return fail(v->err, v->errlen, "line entry %u: file %u out of range", (unsigned)i,
                  (unsigned)m->lines[i].file);
  return 0;
}

/* Checks operand a of instruction at relative address i of procedure p by
** its operand kind. */
static int voperand(vctx *v, const rgi_proc *p, uint32_t i, uint32_t ins) {
  const rgi_module *m = v->m;
  const char *n = rgi_module_str(m, p->name);
  unsigned op = RG_INS_OP(ins);
  uint32_t a = RG_INS_A(ins);
  const char *what = NULL;
  uint32_t bound = 0;
  if (op >= RG_NOPCODES)
    return fail(v->err, v->errlen, "procedure '%s': instruction %u: bad opcode %u", n, (unsigned)i, op);
  switch (rgi_op_operand[op]) {
  case RG_A_NONE:
    if (a != 0)
      return fail(v->err, v->errlen, "procedure '%s': instruction %u: %s takes no operand (has %u)",
                  n, (unsigned)i, rgi_opnames[op], (unsigned)a);
    return 0;
  case RG_A_IMM: case RG_A_FIELD: return 0;
  case RG_A_JUMP: {
    int64_t target = (int64_t)i + 1 + RG_INS_SA(ins);
    if (target < 0 || target >= (int64_t)p->ncode)
      return fail(v->err, v->errlen, "procedure '%s': instruction %u: jump target %lld outside the procedure",
                  n, (unsigned)i, (long long)target);
    return 0;
  }
  case RG_A_COUNT:
    if (a < 1)
      return fail(v->err, v->errlen, "procedure '%s': instruction %u: count must be at least 1", n, (unsigned)i);
    return 0;
  case RG_A_CONST: what = "constant"; bound = m->nconsts; break;
  case RG_A_LOCAL: what = "local"; bound = p->nlocals; break;
  case RG_A_TABLE: what = "table"; bound = m->ntables; break;
  case RG_A_RECORD: what = "record"; bound = m->nrecords; break;
  case RG_A_PROC: what = "procedure"; bound = m->nprocs; break;
  case RG_A_NOTE: what = "note"; bound = m->nnotes; break;
  case RG_A_EXPECT:
    if (a < m->nexpects)        /* its loop variables are locals of this procedure */
      for (uint32_t k = 0; k < m->expects[a].nvars; k++)
        if (m->evars[m->expects[a].first_var + k].slot >= p->nlocals)
          return fail(v->err, v->errlen, "procedure '%s': instruction %u: loop variable %u of "
                      "expectation %u is not a local", n, (unsigned)i, (unsigned)k, (unsigned)a);
    what = "expectation"; bound = m->nexpects; break;
  case RG_A_STRING: what = "string"; bound = m->nstrings; break;
  case RG_A_DICE: what = "dice"; bound = m->ndice; break;
  case RG_A_DECK: what = "deck"; bound = m->ndecks; break;
  case RG_A_CHOICE: what = "choice"; bound = m->nchoices; break;
  case RG_A_INPUT: what = "input"; bound = m->ninputs; break;
  case RG_A_ENUM: what = "enum"; bound = m->nenums; break;
  case RG_A_COUNT0: return 0;
  case RG_A_TYPE: what = "type"; bound = m->ntypes; break;
  default: return 0;
  }
  if (a >= bound)
    return fail(v->err, v->errlen, "procedure '%s': instruction %u: %s %u out of range",
                n, (unsigned)i, what, (unsigned)a);
  return 0;
}

/* Verifies the code of procedure pi: operands, then the stack heights by
** abstract interpretation over a worklist; stores max_stack.  h and work are
** scratch arrays of at least p->ncode entries. */
static int verify_proc(vctx *v, uint32_t pi, int64_t *h, uint32_t *work) {
  rgi_module *m = v->m;
  rgi_proc *p = &m->procs[pi];
  const uint32_t *code = m->code + p->code;
  const char *n = rgi_module_str(m, p->name);
  for (uint32_t i = 0; i < p->ncode; i++) {
    if (voperand(v, p, i, code[i])) return -1;
    h[i] = -1;
  }
  int64_t maxh = 0;
  uint32_t nwork = 0;
  h[0] = 0;
  work[nwork++] = 0;
  while (nwork) {
    uint32_t i = work[--nwork];
    uint32_t ins = code[i];
    unsigned op = RG_INS_OP(ins);
    int pops, pushes;
    if (rgi_op_effect(m, ins, &pops, &pushes) != 0)
      return fail(v->err, v->errlen, "procedure '%s': instruction %u: bad operand", n, (unsigned)i);
    int64_t height = h[i];
    if (height < pops)
      return fail(v->err, v->errlen, "procedure '%s': instruction %u: stack underflow (%s needs %d, has %lld)",
                  n, (unsigned)i, rgi_opnames[op], pops, (long long)height);
    int64_t after = height - pops + pushes;
    if (after > maxh) maxh = after;
    if (height > maxh) maxh = height;
    uint32_t succ[2];
    int nsucc = 0;
    switch (op) {
    case RG_OP_JMP:
      succ[nsucc++] = (uint32_t)((int64_t)i + 1 + RG_INS_SA(ins));
      break;
    case RG_OP_JMPF: case RG_OP_JMPT:
      succ[nsucc++] = (uint32_t)((int64_t)i + 1 + RG_INS_SA(ins));
      goto next;
    case RG_OP_RET:
      if (p->result.kind == RG_K_VOID)
        return fail(v->err, v->errlen, "procedure '%s': instruction %u: RET in a procedure without a result",
                    n, (unsigned)i);
      if (height != 1)
        return fail(v->err, v->errlen, "procedure '%s': instruction %u: RET needs exactly 1 value on the stack (has %lld)",
                    n, (unsigned)i, (long long)height);
      break;
    case RG_OP_RETV:
      if (p->result.kind != RG_K_VOID)
        return fail(v->err, v->errlen, "procedure '%s': instruction %u: RETV in a procedure with a result",
                    n, (unsigned)i);
      break;
    case RG_OP_FAIL:
      break;
    default:
    next:
      if (i + 1 >= p->ncode)
        return fail(v->err, v->errlen, "procedure '%s': falls off the end", n);
      succ[nsucc++] = i + 1;
      break;
    }
    for (int s = 0; s < nsucc; s++) {
      uint32_t t = succ[s];
      if (h[t] < 0) {
        h[t] = after;
        work[nwork++] = t;
      } else if (h[t] != after) {
        return fail(v->err, v->errlen, "procedure '%s': stack height differs where paths meet at %u (%lld vs %lld)",
                    n, (unsigned)t, (long long)h[t], (long long)after);
      }
    }
  }
  if (maxh > RG_A_MAX)
    return fail(v->err, v->errlen, "procedure '%s': absurd stack depth", n);
  p->max_stack = (uint32_t)maxh;
  return 0;
}

/* Checks every cross-reference of m and the code of every procedure, and
** computes each procedure's max_stack.  Returns RG_OK, or RG_BAD_MODULE /
** RG_NOMEM with a message in err naming the failed check. */
rg_status rgi_module_verify(rgi_module *m, char *err, size_t errlen) {
  vctx v = {m, err, errlen, 0};
  if (verify_data(&v)) return v.nomem ? RG_NOMEM : RG_BAD_MODULE;
  uint32_t maxcode = 0;
  for (uint32_t i = 0; i < m->nprocs; i++)
    if (m->procs[i].ncode > maxcode) maxcode = m->procs[i].ncode;
  if (!maxcode) return RG_OK;
  int64_t *h = rg_malloc((size_t)maxcode * sizeof *h);
  uint32_t *work = rg_malloc((size_t)maxcode * sizeof *work);
  rg_status st = RG_OK;
  if (!h || !work) {
    fail(err, errlen, "out of memory");
    st = RG_NOMEM;
  }
  for (uint32_t i = 0; !st && i < m->nprocs; i++)
    if (verify_proc(&v, i, h, work)) st = RG_BAD_MODULE;
  rg_free(h);
  rg_free(work);
  return st;
}
