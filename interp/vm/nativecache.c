/*
** nativecache.c: the native tier's compiler driver, cache and loader (see
** native.c for the technique).
**
** An entry of the cache is DIR/KEY.so: the shared object the C compiler
** made, followed by a trailer (the key, a hash of the bytes before the
** trailer, a magic word).  KEY hashes the generated C (which holds the ABI
** of native.h and everything taken from the module), the compiler's path
** and identity (device, inode, size and time of the file: a new compiler
** is a new key) and its flags.  An entry is written into a private
** temporary folder beside it and renamed into place, so a reader sees a
** whole entry or none.  Before loading, the entry must be a regular file of
** the user's, not writable by others, whose trailer names the expected key
** and whose bytes match their hash; it is then loaded through the file
** descriptor that was checked (/proc/self/fd, kept open while loaded), so
** it cannot be swapped in between.  A directory that is not the user's own and private (0700) is
** not used at all.  Nothing is read from the environment: the compiler's
** path and the directory come from the caller, and the compiler runs with
** a fixed environment of its own.
*/
#include "nat_int.h"

#include <stdio.h>
#include <string.h>

#if defined(RG_NO_NATIVE) || defined(__EMSCRIPTEN__)

rg_status rgi_native_build(const rgi_module *m, const char *cc, const char *cache_dir,
                          rgi_native **out, char *note, size_t notelen) {
  (void)m;
  (void)cc;
  (void)cache_dir;
  *out = NULL;
  if (notelen) snprintf(note, notelen, "this build has no native tier: the VM runs");
  return RG_OK;
}

int rgi_native_fits(const rgi_native *n, const rgi_module *m, uint32_t nfcode) {
  (void)n;
  (void)m;
  (void)nfcode;
  return 0;
}

void rgi_native_free(rgi_native *n) {
  (void)n;
}

#else

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The compiler's flags (part of every key). */
static const char *const nat_flags[] = { "-std=gnu11", "-O2", "-fPIC", "-shared", "-w",
                                         "-fno-strict-overflow", NULL };

#define NAT_MAGIC     "RGNATV01"
#define NAT_KEYLEN    37          /* "rgn" VERSION "-" 32 hex, padded */
#define NAT_HASHLEN   32
#define NAT_TRAILER   (NAT_KEYLEN + NAT_HASHLEN + 8)
#define NAT_MAX_FILE  ((size_t)256 << 20)

/* Seconds of a monotonic clock. */
static double nat_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Two FNV-1a hashes of n bytes of p (different bases), continuing from h. */
static void nat_hash2(uint64_t h[2], const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t k = 0; k < n; k++) {
    h[0] = (h[0] ^ c[k]) * 0x100000001B3ull;
    h[1] = (h[1] ^ (unsigned char)(c[k] ^ 0x5C)) * 0x100000001B3ull;
    h[1] ^= h[1] >> 29;
  }
}

/* Writes h as 32 hex digits into out (room for 33). */
static void nat_hex(const uint64_t h[2], char *out) {
  snprintf(out, NAT_HASHLEN + 1, "%016llx%016llx", (unsigned long long)h[0],
           (unsigned long long)h[1]);
}

/* The hash of bytes p[0..n), as 32 hex digits in out. */
static void nat_digest(const void *p, size_t n, char *out) {
  uint64_t h[2] = { 0xCBF29CE484222325ull, 0x84222325CBF29CE4ull };
  nat_hash2(h, p, n);
  nat_hex(h, out);
}

/* Makes dir and its missing parents, each 0700.  Returns 0, -1 when one
** cannot be made, -2 when out of memory. */
static int nat_mkdirs(const char *dir) {
  size_t n = strlen(dir);
  char *p = rg_malloc(n + 1);
  if (!p) return -2;
  memcpy(p, dir, n + 1);
  for (size_t k = 1; k <= n; k++) {
    if (p[k] != '/' && p[k] != '\0') continue;
    char c = p[k];
    p[k] = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) {
      rg_free(p);
      return -1;
    }
    p[k] = c;
  }
  rg_free(p);
  return 0;
}

/* Joins dir and name into a new string (rg_free it), or NULL. */
static char *nat_path(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = rg_malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

/* Writes n bytes of p to fd; returns 0 or -1. */
static int nat_write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Reads the whole regular file open at fd (at most NAT_MAX_FILE bytes) into
** a new buffer (rg_free it) and stores its size in *n.  Returns the buffer,
** or NULL (*n = 0 when memory ran out, else 1). */
static unsigned char *nat_read_fd(int fd, size_t *n) {
  struct stat st;
  *n = 1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > NAT_MAX_FILE)
    return NULL;
  size_t size = (size_t)st.st_size, got = 0;
  unsigned char *buf = rg_malloc(size ? size : 1);
  if (!buf) {
    *n = 0;
    return NULL;
  }
  while (got < size) {
    ssize_t r = pread(fd, buf + got, size - got, (off_t)got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      rg_free(buf);
      return NULL;
    }
    got += (size_t)r;
  }
  *n = size;
  return buf;
}

/* Loads the object open at *fd (whose trailer names key) through
** /proc/self/fd/N.  The fd stays open while the code is loaded: the
** loader knows an object by the names it was opened by, and two modules
** must not share one.  Yet an object can outlive a number that names it:
** the same entry loaded again (a second rule set's, from the cache) is the
** same object, named by the second number too, and when the first set is
** freed its number is closed while the object stays.  So an object known
** by N already is used only when it is this code (its key is key); else
** the fd moves to a higher number (*fd updated; the moves end at the
** process's limit of descriptors at the latest).  Returns the handle, or
** NULL. */
static void *nat_dlopen(int *fd, const char *key) {
  char fdpath[64];
  for (;;) {
    snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", *fd);
    void *known = dlopen(fdpath, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!known) return dlopen(fdpath, RTLD_NOW | RTLD_LOCAL);
    const char *k = dlsym(known, "rgn_key");
    if (k && strncmp(k, key, NAT_KEYLEN) == 0) return known;
    dlclose(known);
    int moved = fcntl(*fd, F_DUPFD_CLOEXEC, *fd + 1);
    if (moved < 0) return NULL;
    close(*fd);
    *fd = moved;
  }
}

/* The outcome of trying a cache entry. */
enum { NAT_LOADED = 0, NAT_MISSING = 1, NAT_REJECTED = 2, NAT_NOMEM = 3 };

/* Loads the entry at path if it is whole and ours: key, hash, owner and
** mode, then the symbols and their counts (nprocs, nfcode).  Stores the
** handle's parts in *n.  Returns NAT_LOADED, NAT_MISSING (no such file),
** NAT_REJECTED (corrupt, foreign or not loadable) or NAT_NOMEM. */
static int nat_load(const char *path, const char *key, uint32_t nprocs, uint32_t nfcode,
                    rgi_native *n) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? NAT_MISSING : NAT_REJECTED;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
      (st.st_mode & 022)) {
    close(fd);
    return NAT_REJECTED;
  }
  size_t size;
  unsigned char *buf = nat_read_fd(fd, &size);
  if (!buf) {
    close(fd);
    return size == 0 ? NAT_NOMEM : NAT_REJECTED;
  }
  char hash[NAT_HASHLEN + 1];
  int ok = size > NAT_TRAILER;
  if (ok) {
    const unsigned char *t = buf + size - NAT_TRAILER;
    nat_digest(buf, size - NAT_TRAILER, hash);
    ok = memcmp(t, key, NAT_KEYLEN) == 0 && memcmp(t + NAT_KEYLEN, hash, NAT_HASHLEN) == 0 &&
         memcmp(t + NAT_KEYLEN + NAT_HASHLEN, NAT_MAGIC, 8) == 0;
  }
  rg_free(buf);
  if (!ok) {
    close(fd);
    return NAT_REJECTED;
  }
  void *dl = nat_dlopen(&fd, key);
  if (!dl) {
    close(fd);
    return NAT_REJECTED;
  }
  const char *k = dlsym(dl, "rgn_key");
  const uint32_t *np = dlsym(dl, "rgn_nprocs"), *nf = dlsym(dl, "rgn_nfcode");
  const rgn_proc *procs = dlsym(dl, "rgn_procs");
  if (!k || !np || !nf || !procs || strncmp(k, key, NAT_KEYLEN) != 0 || *np != nprocs ||
      *nf != nfcode) {
    dlclose(dl);
    close(fd);
    return NAT_REJECTED;
  }
  n->dl = dl;
  n->fd = fd;
  n->procs = procs;
  n->nprocs = nprocs;
  n->nfcode = nfcode;
  return NAT_LOADED;
}

/* Runs the compiler cc on src into so (in the private folder tmp, whose
** file log takes its output).  Returns its exit status (0 for success),
** -1 when it could not be started, -2 when out of memory. */
static int nat_cc(const char *cc, const char *tmp, const char *src, const char *so) {
  const char *argv[16];
  int a = 0;
  argv[a++] = cc;
  for (int k = 0; nat_flags[k]; k++) argv[a++] = nat_flags[k];
  argv[a++] = "-o";
  argv[a++] = so;
  argv[a++] = src;
  argv[a] = NULL;
  /* a fixed environment: the compiler's own folder, then the system's (cc
  ** is absolute: rgi_native_build checked) */
  char pathvar[4096];
  int dirlen = (int)(strrchr(cc, '/') - cc);
  if (dirlen > 3000) dirlen = 0;
  snprintf(pathvar, sizeof pathvar, "PATH=%.*s%s/usr/local/bin:/usr/bin:/bin", dirlen, cc,
           dirlen ? ":" : "");
  char *envp[] = { pathvar, (char *)"LC_ALL=C", NULL };
  char *log = nat_path(tmp, "log");
  if (!log) return -2;
  posix_spawn_file_actions_t fa;
  int rc = -1;
  if (posix_spawn_file_actions_init(&fa) != 0) {
    rg_free(log);
    return -1;
  }
  pid_t pid;
  if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) == 0 &&
      posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600) == 0 &&
      posix_spawn_file_actions_adddup2(&fa, 1, 2) == 0 &&
      posix_spawn(&pid, cc, &fa, NULL, (char *const *)argv, envp) == 0) {
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
      ;
    if (w == pid)   /* without WUNTRACED: it exited or was killed */
      rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&fa);
  unlink(log);
  rg_free(log);
  return rc;
}

/* Compiles text into the cache entry at path: in a private temporary
** folder in dir, the source, the compiler's output, the trailer, then a
** rename into place.  Returns 0; -1 when the compiler could not be run,
** -2 when memory ran out, -3 when files could not be written, -4 when the
** compiler succeeded but wrote no object, else the compiler's exit status
** (> 0). */
static int nat_compile(const char *cc, const char *dir, const char *text, size_t len,
                       const char *key, const char *path) {
  char *tmpl = nat_path(dir, "tmp-XXXXXX");
  if (!tmpl) return -2;
  if (!mkdtemp(tmpl)) {
    rg_free(tmpl);
    return -3;
  }
  char *src = nat_path(tmpl, "m.c"), *so = nat_path(tmpl, "m.so");
  int rc = -2;
  if (!src || !so) goto done;
  rc = -3;
  int fd = open(src, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) goto done;
  int bad = nat_write_all(fd, text, len) != 0;
  bad |= close(fd) != 0;
  if (bad) goto done;
  rc = nat_cc(cc, tmpl, src, so);
  if (rc != 0) goto done;
  rc = -3;
  /* the trailer: the key, the hash of the object, the magic word */
  fd = open(so, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) rc = -4;
    goto done;
  }
  size_t size;
  unsigned char *buf = nat_read_fd(fd, &size);
  if (!buf) {
    close(fd);
    rc = size == 0 ? -2 : -3;
    goto done;
  }
  char trailer[NAT_TRAILER + 1];
  memcpy(trailer, key, NAT_KEYLEN);
  nat_digest(buf, size, trailer + NAT_KEYLEN);
  memcpy(trailer + NAT_KEYLEN + NAT_HASHLEN, NAT_MAGIC, 8);
  rg_free(buf);
  bad = lseek(fd, 0, SEEK_END) < 0 || nat_write_all(fd, trailer, NAT_TRAILER) != 0 ||
        fchmod(fd, 0600) != 0 || fsync(fd) != 0;
  bad |= close(fd) != 0;
  if (bad || rename(so, path) != 0) goto done;
  rc = 0;
done:
  if (src) unlink(src);
  if (so) unlink(so);
  rmdir(tmpl);
  rg_free(src);
  rg_free(so);
  rg_free(tmpl);
  return rc;
}

rg_status rgi_native_build(const rgi_module *m, const char *cc, const char *cache_dir,
                          rgi_native **out, char *note, size_t notelen) {
  double t0 = nat_now();
  rg_buf text;
  rgi_native *n = NULL;
  char *path = NULL;
  rg_status st = RG_OK;
  uint32_t nfcode = 0;
  struct stat cst, dst;
  *out = NULL;
  if (notelen) note[0] = '\0';
  rg_buf_init(&text);
  if (!cc || cc[0] != '/' || stat(cc, &cst) != 0 || !S_ISREG(cst.st_mode) ||
      access(cc, X_OK) != 0) {
    snprintf(note, notelen, "no C compiler at %s: the VM runs", cc ? cc : "(none)");
    goto done;
  }
  int made = cache_dir && cache_dir[0] ? nat_mkdirs(cache_dir) : -1;
  if (made == -2) {
    st = RG_NOMEM;
    goto done;
  }
  if (made != 0 || lstat(cache_dir, &dst) != 0 ||
      !S_ISDIR(dst.st_mode) || dst.st_uid != geteuid() || (dst.st_mode & 077)) {
    snprintf(note, notelen, "the cache folder %s is not the user's own and private (0700): "
             "the VM runs", cache_dir ? cache_dir : "(none)");
    goto done;
  }
  int rc = nat_source(m, &text, &nfcode);
  if (rc == -2) {
    st = RG_NOMEM;
    goto done;
  }
  if (rc == -1) {
    snprintf(note, notelen, "an instruction of the module has no native form: the VM runs");
    goto done;
  }
  /* the key: the text, the compiler and its flags */
  uint64_t h[2] = { 0xCBF29CE484222325ull ^ RGN_ABI_VERSION, 0x84222325CBF29CE4ull };
  nat_hash2(h, text.data, text.len);
  nat_hash2(h, cc, strlen(cc) + 1);
  uint64_t id[4] = { (uint64_t)cst.st_dev, (uint64_t)cst.st_ino, (uint64_t)cst.st_size,
                     (uint64_t)cst.st_mtim.tv_sec * 1000000000ull + (uint64_t)cst.st_mtim.tv_nsec };
  nat_hash2(h, id, sizeof id);
  for (int k = 0; nat_flags[k]; k++) nat_hash2(h, nat_flags[k], strlen(nat_flags[k]) + 1);
  char key[NAT_KEYLEN + 1], hex[NAT_HASHLEN + 1], name[NAT_KEYLEN + 8];
  nat_hex(h, hex);
  memset(key, '-', NAT_KEYLEN);
  snprintf(key, sizeof key, "rgn%d-%s", RGN_ABI_VERSION, hex);
  snprintf(name, sizeof name, "%s.so", key);
  rg_printf(&text.out, "const char rgn_key[] = \"%s\";\n", key);
  if (text.out.failed || !(path = nat_path(cache_dir, name)) || !(n = rg_malloc(sizeof *n))) {
    st = RG_NOMEM;
    goto done;
  }
  memset(n, 0, sizeof *n);
  n->shape = nat_module_shape(m);
  int got = nat_load(path, key, m->nprocs, nfcode, n);
  if (got == NAT_NOMEM) {
    st = RG_NOMEM;
    goto done;
  }
  if (got == NAT_LOADED) {
    n->seconds = nat_now() - t0;
    snprintf(note, notelen, "native code loaded from the cache (%s)", name);
    goto done;
  }
  int rejected = got == NAT_REJECTED;
  rc = nat_compile(cc, cache_dir, text.data, text.len, key, path);
  if (rc == -2) {
    st = RG_NOMEM;
    goto done;
  }
  if (rc != 0) {
    if (rc == -1) snprintf(note, notelen, "the C compiler %s could not be run: the VM runs", cc);
    else if (rc == -3) snprintf(note, notelen, "the cache folder %s could not be written: the VM runs", cache_dir);
    else if (rc == -4) snprintf(note, notelen, "the C compiler %s wrote no shared object: the VM runs", cc);
    else snprintf(note, notelen, "the C compiler %s failed (status %d): the VM runs", cc, rc);
    goto done;
  }
  got = nat_load(path, key, m->nprocs, nfcode, n);
  if (got == NAT_NOMEM) {
    st = RG_NOMEM;
    goto done;
  }
  if (got != NAT_LOADED) {
    snprintf(note, notelen, "the compiled code could not be loaded: the VM runs");
    goto done;
  }
  n->seconds = nat_now() - t0;
  snprintf(note, notelen, "native code compiled in %.2f s%s", n->seconds,
           rejected ? " (a corrupt or foreign cache entry was replaced)" : "");
done:
  if (n && n->dl) {
    *out = n;
    n = NULL;
  }
  rg_free(n);
  rg_free(path);
  rg_buf_free(&text);
  return st;
}

int rgi_native_fits(const rgi_native *n, const rgi_module *m, uint32_t nfcode) {
  return n->nprocs == m->nprocs && n->nfcode == nfcode && n->shape == nat_module_shape(m);
}

void rgi_native_free(rgi_native *n) {
  if (!n) return;
  dlclose(n->dl);   /* a handle is handed out only when loaded */
  close(n->fd);
  rg_free(n);
}

#endif
