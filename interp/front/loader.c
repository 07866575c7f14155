/*
** loader.c: the default loader, which reads files from the disk (see
** rg_loader in regula.h).
**
** A rule file's `extends "NAME"` is read relative to the folder of the file
** that says it (or as is when NAME is absolute or that file has no folder);
** a table's `from "NAME"` is looked for beside that file, then in each
** folder above it, so that `from "tables/x.tsv"` works from rules/game/.
** The file compiled first is read as named.
*/
#include "regula_front.h"
#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define UP_LEVELS 16    /* folders above the including file searched for a table */

/* Formats a message into err (size errlen) and returns status. */
static rg_status failf(rg_status status, char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  if (!err || !errlen) return status;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return status;
}

/* Reads the whole file at path into an rg_malloc'd buffer stored in src
** (text, len, handle).  Returns RG_OK, or RG_NOT_FOUND / RG_IO / RG_NOMEM
** with a message in err. */
static rg_status read_all(const char *path, rg_source *src, char *err, size_t errlen) {
  FILE *fp = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  if (!fp)
    return failf(errno == ENOENT ? RG_NOT_FOUND : RG_IO, err, errlen, "cannot open %s: %s", path,
                 strerror(errno));
  for (;;) {
    size_t got;
    if (len == cap) {
      char *nb;
      /* Room for RG_MAX_SOURCE + 1 bytes at most: one byte more than the
      ** limit tells a file too large from one of exactly the limit. */
      if (cap > (size_t)RG_MAX_SOURCE) {
        fclose(fp);
        rg_free(buf);
        return failf(RG_IO, err, errlen, "%s: file too large (limit %u bytes)", path, RG_MAX_SOURCE);
      }
      cap = cap ? cap * 2 : 8192;
      if (cap > (size_t)RG_MAX_SOURCE + 1) cap = (size_t)RG_MAX_SOURCE + 1;
      nb = rg_realloc(buf, cap);
      if (!nb) {
        fclose(fp);
        rg_free(buf);
        return failf(RG_NOMEM, err, errlen, "out of memory");
      }
      buf = nb;
    }
    got = fread(buf + len, 1, cap - len, fp);
    len += got;
    if (got == 0) break;
  }
  if (ferror(fp)) {
    int e = errno;
    fclose(fp);
    rg_free(buf);
    /* say why: a folder given for a file (EISDIR) is the common case */
    return failf(RG_IO, err, errlen, "cannot read %s: %s", path, strerror(e));
  }
  fclose(fp);
  src->text = buf ? buf : "";
  src->len = len;
  src->handle = buf;
  return RG_OK;
}

/* Writes into buf the folder of path (up to its last '/'; "" when none). */
static void folder_of(const char *path, char *buf, size_t size) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  size_t n = slash ? (size_t)(slash - path) : 0;
  if (n >= size) n = size - 1;
  memcpy(buf, path ? path : "", n);
  buf[n] = '\0';
}

/* Stores in src->path an rg_malloc'd copy of path (freed by release).
** Returns RG_OK or RG_NOMEM. */
static rg_status keep_path(rg_source *src, const char *path, char *err, size_t errlen) {
  size_t n = strlen(path) + 1;
  char *p = rg_malloc(n);
  if (!p) return failf(RG_NOMEM, err, errlen, "out of memory");
  memcpy(p, path, n);
  src->path = p;
  return RG_OK;
}

/* The default loader's load (see rg_loader): resolves name against from as
** described at the top of this file and reads it. */
static rg_status file_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                           rg_source *src, char *err, size_t errlen) {
  char dir[4096], path[8192];
  rg_status st;
  (void)ctx;
  memset(src, 0, sizeof *src);
  folder_of(from, dir, sizeof dir);
  if (!from || name[0] == '/' || (kind == RG_LOAD_RULES && !*dir)) {
    snprintf(path, sizeof path, "%s", name);
  } else if (kind == RG_LOAD_RULES) {
    snprintf(path, sizeof path, "%s/%s", dir, name);
  } else {
    /* A table: beside the file, then in each folder above it. */
    char up[3 * UP_LEVELS + 1] = "";
    int level;
    for (level = 0; level < UP_LEVELS; level++) {
      FILE *fp;
      snprintf(path, sizeof path, "%s%s%s%s", dir, *dir ? "/" : "", up, name);
      if ((fp = fopen(path, "rb")) != NULL) {
        fclose(fp);
        break;
      }
      strcat(up, "../");
    }
    if (level == UP_LEVELS)
      return failf(RG_NOT_FOUND, err, errlen,
                   "cannot find %s (looked beside the rule file and in the folders above)", name);
  }
  if ((st = keep_path(src, path, err, errlen)) != RG_OK) return st;
  if ((st = read_all(path, src, err, errlen)) != RG_OK) {
    rg_free((char *)src->path);
    src->path = NULL;
  }
  return st;
}

/* The default loader's release: frees the text and the path. */
static void file_release(void *ctx, rg_source *src) {
  (void)ctx;
  rg_free(src->handle);
  rg_free((char *)src->path);
  src->handle = NULL;
  src->path = NULL;
}

const rg_loader rg_file_loader = { file_load, file_release, NULL };
