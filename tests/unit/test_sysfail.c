/*
** test_sysfail.c: what the library does when the system fails it, with the
** system calls of the library wrapped by the linker (the Makefile links this
** test with -Wl,--wrap=SYMBOL for each call below: LDFLAGS_test_sysfail),
** so that the Nth call from a point on fails with a chosen errno, is
** interrupted (EINTR) or comes up short.  Nothing in the library changes.
**
** save-N  rg_file_save: a write, fsync, close, rename, fchmod or readlink
**         that fails leaves the file as it was, removes its temporary file
**         and says what failed ("PATH: cannot write: <strerror>", RG_IO);
**         interrupted and short writes still write every byte; a temporary
**         name taken 100 times over is given up.  A path that is no regular
**         file (/dev/null) is written straight to, and its failures said.
** nc-N    the native cache (rg_rules_native): each step of compiling into
**         the cache failing in turn gives RG_OK, the note naming the step's
**         kind, no entry and no temporary folder left, and the VM runs;
**         the compiler's environment is the fixed one; an entry that does
**         not check (body, key, hash, magic, unreadable) is compiled again
**         and replaced; code lacking the expected symbols or counts is not
**         used; a compiler that leaves a FIFO, an empty or an enormous file
**         is survived; a frame too big for the tier stays in the VM.  The
**         compilers are shell scripts; the cases that need
**         real code run /usr/bin/cc (skipped when it is not there).
*/
#include "regula_front.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "files.h"

/* ---- the wrapped calls ---------------------------------------------------- */

enum { S_WRITE, S_FSYNC, S_CLOSE, S_RENAME, S_OPEN, S_PREAD, S_FSTAT, S_LSEEK, S_FCHMOD,
       S_MKDTEMP, S_READLINK, S_SPAWN, S_FAINIT, S_FAOPEN, S_FADUP, S_WAITPID, NSYS };

/* For each call: its calls from the point it was armed at fail when their
** number is in [at, at + count); err 0 means "short" (a write of one byte,
** a read of none) for write and pread.  at 0: never. */
static struct { long at, count, calls; int err; } plan[NSYS];

/* Arms call s: its nth call from now and the count - 1 after it fail with
** err. */
static void arm(int s, long nth, long count, int err) {
  plan[s].at = nth;
  plan[s].count = count;
  plan[s].calls = 0;
  plan[s].err = err;
}

/* Disarms every call. */
static void disarm(void) {
  memset(plan, 0, sizeof plan);
}

/* Counts a call of s; returns 1 (errno set to its err) when it is to fail. */
static int fails(int s) {
  long c;
  if (!plan[s].at) return 0;
  c = ++plan[s].calls;
  if (c < plan[s].at || c >= plan[s].at + plan[s].count) return 0;
  errno = plan[s].err;
  return 1;
}

ssize_t __real_write(int fd, const void *p, size_t n);
int __real_fsync(int fd);
int __real_close(int fd);
int __real_rename(const char *a, const char *b);
int __real_open(const char *path, int flags, ...);
ssize_t __real_pread(int fd, void *p, size_t n, off_t off);
int __real_fstat(int fd, struct stat *st);
off_t __real_lseek(int fd, off_t off, int whence);
int __real_fchmod(int fd, mode_t mode);
char *__real_mkdtemp(char *tmpl);
ssize_t __real_readlink(const char *path, char *buf, size_t n);
int __real_posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                       const posix_spawnattr_t *at, char *const argv[], char *const envp[]);
int __real_posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa);
int __real_posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *fa, int fd,
                                            const char *path, int flags, mode_t mode);
int __real_posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int to);
pid_t __real_waitpid(pid_t pid, int *status, int options);

ssize_t __wrap_write(int fd, const void *p, size_t n);
int __wrap_fsync(int fd);
int __wrap_close(int fd);
int __wrap_rename(const char *a, const char *b);
int __wrap_open(const char *path, int flags, ...);
ssize_t __wrap_pread(int fd, void *p, size_t n, off_t off);
int __wrap_fstat(int fd, struct stat *st);
off_t __wrap_lseek(int fd, off_t off, int whence);
int __wrap_fchmod(int fd, mode_t mode);
char *__wrap_mkdtemp(char *tmpl);
ssize_t __wrap_readlink(const char *path, char *buf, size_t n);
int __wrap_posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                       const posix_spawnattr_t *at, char *const argv[], char *const envp[]);
int __wrap_posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa);
int __wrap_posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *fa, int fd,
                                            const char *path, int flags, mode_t mode);
int __wrap_posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int to);
pid_t __wrap_waitpid(pid_t pid, int *status, int options);

/* write(2), failing or short (one byte) as planned. */
ssize_t __wrap_write(int fd, const void *p, size_t n) {
  if (!fails(S_WRITE)) return __real_write(fd, p, n);
  return plan[S_WRITE].err ? -1 : __real_write(fd, p, n ? 1 : 0);
}
/* fsync(2), failing as planned. */
int __wrap_fsync(int fd) {
  return fails(S_FSYNC) ? -1 : __real_fsync(fd);
}
/* close(2): a planned failure still closes fd (as Linux does). */
int __wrap_close(int fd) {
  if (!fails(S_CLOSE)) return __real_close(fd);
  int e = errno;
  __real_close(fd);
  errno = e;
  return -1;
}
/* rename(2), failing as planned. */
int __wrap_rename(const char *a, const char *b) {
  return fails(S_RENAME) ? -1 : __real_rename(a, b);
}
/* open(2), failing as planned. */
int __wrap_open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return fails(S_OPEN) ? -1 : __real_open(path, flags, mode);
}
/* pread(2), failing or short (nothing read) as planned. */
ssize_t __wrap_pread(int fd, void *p, size_t n, off_t off) {
  if (!fails(S_PREAD)) return __real_pread(fd, p, n, off);
  return plan[S_PREAD].err ? -1 : 0;
}
/* fstat(2), failing as planned. */
int __wrap_fstat(int fd, struct stat *st) {
  return fails(S_FSTAT) ? -1 : __real_fstat(fd, st);
}
/* lseek(2), failing as planned. */
off_t __wrap_lseek(int fd, off_t off, int whence) {
  return fails(S_LSEEK) ? -1 : __real_lseek(fd, off, whence);
}
/* fchmod(2), failing as planned. */
int __wrap_fchmod(int fd, mode_t mode) {
  return fails(S_FCHMOD) ? -1 : __real_fchmod(fd, mode);
}
/* mkdtemp(3), failing as planned. */
char *__wrap_mkdtemp(char *tmpl) {
  return fails(S_MKDTEMP) ? NULL : __real_mkdtemp(tmpl);
}
/* readlink(2), failing as planned. */
ssize_t __wrap_readlink(const char *path, char *buf, size_t n) {
  return fails(S_READLINK) ? -1 : __real_readlink(path, buf, n);
}
/* posix_spawn(3): a planned failure returns its err and starts nothing. */
int __wrap_posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                       const posix_spawnattr_t *at, char *const argv[], char *const envp[]) {
  return fails(S_SPAWN) ? plan[S_SPAWN].err : __real_posix_spawn(pid, path, fa, at, argv, envp);
}
/* posix_spawn_file_actions_init(3), failing as planned. */
int __wrap_posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa) {
  return fails(S_FAINIT) ? plan[S_FAINIT].err : __real_posix_spawn_file_actions_init(fa);
}
/* posix_spawn_file_actions_addopen(3), failing as planned. */
int __wrap_posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *fa, int fd,
                                            const char *path, int flags, mode_t mode) {
  return fails(S_FAOPEN) ? plan[S_FAOPEN].err
                         : __real_posix_spawn_file_actions_addopen(fa, fd, path, flags, mode);
}
/* posix_spawn_file_actions_adddup2(3), failing as planned. */
int __wrap_posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int to) {
  return fails(S_FADUP) ? plan[S_FADUP].err : __real_posix_spawn_file_actions_adddup2(fa, fd, to);
}
/* waitpid(2): EINTR returns at once (the child is waited for at the next
** call); another planned failure waits for the child first, so that no
** zombie is left, then fails. */
pid_t __wrap_waitpid(pid_t pid, int *status, int options) {
  if (!fails(S_WAITPID)) return __real_waitpid(pid, status, options);
  int e = errno;
  if (e != EINTR) __real_waitpid(pid, status, options);
  errno = e;
  return -1;
}

/* ---- helpers ---------------------------------------------------------------- */

static char dir[256];

/* Writes dir/name into buf (size 512) and returns buf. */
static const char *at(char *buf, const char *name) {
  snprintf(buf, 512, "%s/%s", dir, name);
  return buf;
}

/* Writes text to path with mode. */
static void put(const char *path, const char *text, mode_t mode) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  chmod(path, mode);
}

/* The number of entries of folder d (not . and ..) whose name contains
** part ("" for all). */
static int count(const char *d, const char *part) {
  DIR *dd = opendir(d);
  struct dirent *e;
  int n = 0;
  if (!dd) return -1;
  while ((e = readdir(dd)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && strstr(e->d_name, part)) n++;
  closedir(dd);
  return n;
}

/* rg_file_save of text to path with every call armed as planned (then
** disarmed); the message into msg (size 512).  Returns the status. */
static rg_status save(const char *path, const char *text, char *msg) {
  rg_buf why;
  rg_status st;
  rg_buf_init(&why);
  st = rg_file_save(path, text, strlen(text), 0644, &why.out);
  disarm();
  snprintf(msg, 512, "%s", why.data ? why.data : "");
  rg_buf_free(&why);
  return st;
}

/* One failure of rg_file_save onto the file dir/old.txt that holds "old":
** call s failing at its nth call with err.  Checks RG_IO, the message
** "PATH: cannot write: <strerror(err)>", the file still "old", and no
** temporary file left. */
static void save_fails(const char *name, int s, long nth, int err) {
  char p[512], msg[512], want[1024];
  at(p, "old.txt");
  put(p, "old", 0644);
  arm(s, nth, 1, err);
  CHECK(save(p, "new text", msg) == RG_IO, "%s status", name);
  snprintf(want, sizeof want, "%s: cannot write: %s", p, strerror(err));
  CHECK(strcmp(msg, want) == 0, "%s message '%s', want '%s'", name, msg, want);
  CHECK(holds(p, "old"), "%s the file is as it was", name);
  CHECK(count(dir, "") == 1, "%s temporary file left: %d entries", name, count(dir, ""));
}

/* ---- rg_file_save ------------------------------------------------------------ */

static void test_save(void) {
  char p[512], q[512], msg[512], want[1024];
  long k;

  /* save-1 each step after the temporary file is made failing in turn
  ** (the file replaced has a mode, so fchmod runs) */
  save_fails("save-1 write", S_WRITE, 1, ENOSPC);
  save_fails("save-1 fchmod", S_FCHMOD, 1, EPERM);
  save_fails("save-1 fsync", S_FSYNC, 1, EIO);
  save_fails("save-1 close", S_CLOSE, 1, EIO);
  save_fails("save-1 rename", S_RENAME, 1, EXDEV);
  /* the first failure is the one said: a write, then its close */
  at(p, "old.txt");
  arm(S_WRITE, 1, 1, ENOSPC);
  arm(S_CLOSE, 1, 1, EIO);
  CHECK(save(p, "new text", msg) == RG_IO && holds(p, "old") && count(dir, "") == 1,
        "save-1 write and close: %s", msg);
  snprintf(want, sizeof want, "%s: cannot write: %s", p, strerror(ENOSPC));
  CHECK(strcmp(msg, want) == 0, "save-1 message '%s', want '%s'", msg, want);
  clear(dir, 0);

  /* save-2 writes interrupted, then short (one byte each): every byte
  ** written, nothing else left */
  at(p, "two.txt");
  arm(S_WRITE, 1, 3, EINTR);
  CHECK(save(p, "interrupted", msg) == RG_OK && holds(p, "interrupted"), "save-2 EINTR: %s", msg);
  arm(S_WRITE, 1, 1000, 0);
  CHECK(save(p, "written a byte at a time", msg) == RG_OK && holds(p, "written a byte at a time"),
        "save-2 short writes: %s", msg);
  CHECK(count(dir, "") == 1, "save-2 %d entries", count(dir, ""));
  clear(dir, 0);

  /* save-3 a temporary name taken (EEXIST): the next is tried, 100 in all */
  at(p, "three.txt");
  arm(S_OPEN, 1, 3, EEXIST);
  CHECK(save(p, "third", msg) == RG_OK && holds(p, "third"), "save-3 fourth name: %s", msg);
  arm(S_OPEN, 1, 100, EEXIST);
  CHECK(save(p, "never", msg) == RG_IO && holds(p, "third"), "save-3 100 names taken");
  snprintf(want, sizeof want, "%s: cannot create a temporary file: %s", p, strerror(EEXIST));
  CHECK(strcmp(msg, want) == 0, "save-3 message '%s', want '%s'", msg, want);
  CHECK(count(dir, "") == 1, "save-3 %d entries", count(dir, ""));
  clear(dir, 0);

  /* save-4 a link whose text cannot be read: nothing written */
  if (symlink("four.txt", at(p, "link")) == 0) {
    arm(S_READLINK, 1, 1, EIO);
    CHECK(save(p, "four", msg) == RG_IO, "save-4 status");
    snprintf(want, sizeof want, "%s: cannot write: %s", p, strerror(EIO));
    CHECK(strcmp(msg, want) == 0, "save-4 message '%s', want '%s'", msg, want);
    CHECK(count(dir, "") == 1, "save-4 %d entries", count(dir, ""));
  }
  clear(dir, 0);

  /* save-5 a path that is no regular file is written straight to: its
  ** open, write or close failing is said; with no failure, RG_OK */
  strcpy(q, "/dev/null");
  CHECK(save(q, "five", msg) == RG_OK, "save-5 /dev/null: %s", msg);
  {
    static const int sys[3] = { S_OPEN, S_WRITE, S_CLOSE }, err[3] = { EACCES, ENOSPC, EIO };
    for (k = 0; k < 3; k++) {
      arm(sys[k], 1, 1, err[k]);
      CHECK(save(q, "five", msg) == RG_IO, "save-5 failure %ld status", k);
      snprintf(want, sizeof want, "/dev/null: cannot write: %s", strerror(err[k]));
      CHECK(strcmp(msg, want) == 0, "save-5 message '%s', want '%s'", msg, want);
    }
    arm(S_WRITE, 1, 1, ENOSPC);
    arm(S_CLOSE, 1, 1, EIO);
    CHECK(save(q, "five", msg) == RG_IO, "save-5 write and close status");
    snprintf(want, sizeof want, "/dev/null: cannot write: %s", strerror(ENOSPC));
    CHECK(strcmp(msg, want) == 0, "save-5 message '%s', want '%s'", msg, want);
  }
}

/* ---- the native cache ------------------------------------------------------- */

/* By hand: total(10) = 1 + ... + 10 = 55. */
static const char text[] =
  "procedure total(n: int) -> int {\n"
  "  let s = 0\n"
  "  for i in 1..n { s = s + i }\n"
  "  return s\n"
  "}\n";

static char cache[300];

/* Writes an executable script dir/name with body; its path into path
** (size 512). */
static void script(const char *name, const char *body, char *path) {
  at(path, name);
  put(path, body, 0700);
}

/* rg_rules_native of r with compiler cc into cache, the note into note
** (size 512), with the calls armed as planned (then disarmed).  Returns
** the status. */
static rg_status build(rg_rules *r, const char *cc, char *note) {
  rg_native_options o = { sizeof o, cc, cache };
  rg_status st = rg_rules_native(r, &o, note, 512);
  disarm();
  return st;
}

/* Whether total(10) of r is 55. */
static int total_right(const rg_rules *r) {
  rg_run *run = NULL;
  const char *args[] = { "10" };
  char res[32] = "";
  if (rg_run_new(r, NULL, &run) == RG_OK && rg_run_call(run, "total", args, 1) == RG_OK)
    rg_run_result(run, res, sizeof res);
  rg_run_free(run);
  return strcmp(res, "55") == 0;
}

/* The path of the one entry (*.so) of the cache into name (size 512);
** returns whether there is exactly one. */
static int entry(char *name) {
  DIR *d = opendir(cache);
  struct dirent *e;
  int n = 0;
  if (!d) return 0;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".so") && snprintf(name, 512, "%s/%s", cache, e->d_name) < 512) n++;
  closedir(d);
  return n == 1;
}

/* One build with the junk compiler cc and call s failing at its nth call
** with err: RG_OK, the note want (with %s for the cache folder or the
** compiler), no entry and no temporary folder left, and the VM runs. */
static void nc_fails(rg_rules *r, const char *name, const char *cc, int s, long nth, int err,
                     const char *want) {
  char note[512], w[1024];
  arm(s, nth, 1, err);
  snprintf(w, sizeof w, want, strstr(want, "folder") ? cache : cc);
  CHECK(build(r, cc, note) == RG_OK && strcmp(note, w) == 0, "%s: note '%s', want '%s'", name,
        note, w);
  CHECK(count(cache, "") == 0, "%s: %d entries left in the cache", name, count(cache, ""));
  CHECK(total_right(r), "%s: the VM runs", name);
}

/* Flips byte at (from the end when negative) of file path. */
static void flip(const char *path, long at) {
  FILE *f = fopen(path, "r+b");
  int c;
  if (!f) return;
  fseek(f, at, at < 0 ? SEEK_END : SEEK_SET);
  c = fgetc(f);
  fseek(f, at, at < 0 ? SEEK_END : SEEK_SET);
  fputc(c ^ 1, f);
  fclose(f);
}

static void test_cache(rg_rules *r) {
  char cc[512], note[512], name[512], body[1024], p[512];
  static const char written[] = "the cache folder %s could not be written: the VM runs";
  static const char notrun[] = "the C compiler %s could not be run: the VM runs";
  snprintf(cache, sizeof cache, "%s/cache", dir);
  /* a compiler that writes a line to its -o file: never loadable */
  script("junk", "#!/bin/sh\n"
         "while [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then echo junk >\"$2\"; fi; shift; done\n", cc);

  /* nc-1 the calls of compiling into the cache, in order: open 1 is the
  ** entry's (missing), 2 the source's, 3 the object's; write 1 the
  ** source, write 2 the trailer; close 1 the source, close 2 the object;
  ** fstat 1 and pread 1 read the object for its hash */
  nc_fails(r, "nc-1 mkdtemp", cc, S_MKDTEMP, 1, ENOSPC, written);
  nc_fails(r, "nc-1 open source", cc, S_OPEN, 2, EACCES, written);
  nc_fails(r, "nc-1 write source", cc, S_WRITE, 1, ENOSPC, written);
  nc_fails(r, "nc-1 close source", cc, S_CLOSE, 1, EIO, written);
  nc_fails(r, "nc-1 open object", cc, S_OPEN, 3, EACCES, written);
  nc_fails(r, "nc-1 fstat object", cc, S_FSTAT, 1, EIO, written);
  nc_fails(r, "nc-1 read object", cc, S_PREAD, 1, EIO, written);
  nc_fails(r, "nc-1 object short", cc, S_PREAD, 1, 0, written);
  nc_fails(r, "nc-1 lseek", cc, S_LSEEK, 1, ESPIPE, written);
  nc_fails(r, "nc-1 write trailer", cc, S_WRITE, 2, ENOSPC, written);
  nc_fails(r, "nc-1 fchmod", cc, S_FCHMOD, 1, EPERM, written);
  nc_fails(r, "nc-1 fsync", cc, S_FSYNC, 1, EIO, written);
  nc_fails(r, "nc-1 close object", cc, S_CLOSE, 2, EIO, written);
  nc_fails(r, "nc-1 rename", cc, S_RENAME, 1, EXDEV, written);

  /* nc-2 the compiler not started, or lost */
  nc_fails(r, "nc-2 spawn", cc, S_SPAWN, 1, EAGAIN, notrun);
  nc_fails(r, "nc-2 file actions", cc, S_FAINIT, 1, ENOMEM, notrun);
  nc_fails(r, "nc-2 stdin", cc, S_FAOPEN, 1, ENOMEM, notrun);
  nc_fails(r, "nc-2 log", cc, S_FAOPEN, 2, ENOMEM, notrun);
  nc_fails(r, "nc-2 stderr", cc, S_FADUP, 1, ENOMEM, notrun);
  nc_fails(r, "nc-2 waitpid", cc, S_WAITPID, 1, ECHILD, notrun);
  /* interrupted: the wait goes on, the junk is made, written and refused */
  arm(S_WAITPID, 1, 1, EINTR);
  CHECK(build(r, cc, note) == RG_OK &&
        strcmp(note, "the compiled code could not be loaded: the VM runs") == 0,
        "nc-2 waitpid interrupted: %s", note);
  CHECK(entry(name) && count(cache, "tmp-") == 0, "nc-2 the junk entry, no temporary folder");
  clear(cache, 1);

  /* nc-3 the compiler's environment is fixed: PATH its own folder, then
  ** the system's; LC_ALL=C; nothing else */
  snprintf(body, sizeof body, "#!/bin/sh\nenv | sort >%s/env\nexit 1\n", dir);
  script("envcc", body, cc);
  CHECK(build(r, cc, note) == RG_OK && strstr(note, "envcc failed (status 1)"), "nc-3 note %s", note);
  snprintf(body, sizeof body, "LC_ALL=C\nPATH=%s:/usr/local/bin:/usr/bin:/bin\nPWD=", dir);
  {
    char got[1024] = "";
    FILE *f = fopen(at(p, "env"), "r");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    if (f) fclose(f);
    got[n] = '\0';
    CHECK(strncmp(got, body, strlen(body)) == 0, "nc-3 environment:\n%s", got);
  }
  /* a compiler in a folder over 3000 bytes long: the system's PATH only */
  {
    char deep[4096], seg[201], deepcc[4200];
    size_t n = strlen(dir);
    memset(seg, 'd', 200);
    seg[200] = '\0';
    strcpy(deep, dir);
    while (n < 3100) {
      n += (size_t)snprintf(deep + n, sizeof deep - n, "/%s", seg);
      mkdir(deep, 0700);
    }
    snprintf(body, sizeof body, "#!/bin/sh\necho \"$PATH\" >%s/path\nexit 1\n", dir);
    snprintf(deepcc, sizeof deepcc, "%s/cc", deep);
    put(deepcc, body, 0700);
    {
      rg_native_options o = { sizeof o, deepcc, cache };
      char longnote[4400];
      CHECK(rg_rules_native(r, &o, longnote, sizeof longnote) == RG_OK &&
            strstr(longnote, "/cc failed (status 1): the VM runs"), "nc-3 deep: %s",
            longnote + strlen(longnote) - 60);
    }
    CHECK(holds(at(p, "path"), "/usr/local/bin:/usr/bin:/bin\n"), "nc-3 deep: PATH");
    unlink(deepcc);
    while (n > strlen(dir)) {
      rmdir(deep);
      n -= 201;
      deep[n] = '\0';
    }
  }
  clear(cache, 1);

  /* nc-4 a compiler that leaves a FIFO, an empty file or 300 MB (sparse):
  ** no hang, no entry of the FIFO or the giant */
  script("fifo", "#!/bin/sh\n"
         "while [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then mkfifo \"$2\"; fi; shift; done\n", cc);
  CHECK(build(r, cc, note) == RG_OK && strcmp(note, (snprintf(body, sizeof body, written, cache), body)) == 0,
        "nc-4 FIFO: %s", note);
  CHECK(count(cache, "") == 0, "nc-4 FIFO: nothing left");
  script("giant", "#!/bin/sh\n"
         "while [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then truncate -s 300M \"$2\"; fi; shift; done\n", cc);
  CHECK(build(r, cc, note) == RG_OK && strcmp(note, body) == 0, "nc-4 giant: %s", note);
  CHECK(count(cache, "") == 0, "nc-4 giant: nothing left");
  script("empty", "#!/bin/sh\n"
         "while [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then : >\"$2\"; fi; shift; done\n", cc);
  CHECK(build(r, cc, note) == RG_OK &&
        strcmp(note, "the compiled code could not be loaded: the VM runs") == 0, "nc-4 empty: %s", note);
  CHECK(total_right(r), "nc-4 the VM runs");
  clear(cache, 1);

  /* nc-5 cache folders not used: none named (""), a link to a private one */
  {
    rg_native_options o = { sizeof o, cc, "" };
    CHECK(rg_rules_native(r, &o, note, sizeof note) == RG_OK &&
          strcmp(note, "the cache folder  is not the user's own and private (0700): the VM runs") == 0,
          "nc-5 empty name: %s", note);
    CHECK(rg_rules_native(r, &o, NULL, 0) == RG_OK, "nc-5 no room for a note");
    mkdir(at(p, "real"), 0700);
    symlink(p, at(name, "link"));
    o.cache_dir = name;
    CHECK(rg_rules_native(r, &o, note, sizeof note) == RG_OK && strstr(note, "is not the user's own"),
          "nc-5 a link: %s", note);
    CHECK(count(p, "") == 0, "nc-5 nothing written through the link");
    unlink(name);
    chmod(p, 0750);
    o.cache_dir = p;
    CHECK(rg_rules_native(r, &o, note, sizeof note) == RG_OK && strstr(note, "is not the user's own"),
          "nc-5 a folder others may read: %s", note);
    CHECK(count(p, "") == 0, "nc-5 nothing written into it");
    rmdir(p);
  }

  /* nc-8 a procedure whose frame is over the native tier's 4096 slots
  ** (4100 locals), before another that would translate: the module stays
  ** in the VM, compiling nothing */
  {
    rg_buf big;
    rg_rules *rb = NULL;
    rg_buf_init(&big);
    rg_puts(&big.out, "procedure big() -> int {\n");
    for (int k = 0; k < 4100; k++) rg_printf(&big.out, "  let a%d = %d\n", k, k);
    rg_puts(&big.out, "  return a4099 - a4000\n}\nprocedure small() -> int { return 1 }\n");
    CHECK(rg_rules_compile("big.rules", big.data, big.len, NULL, &rb) == RG_OK,
          "nc-8 the rules compile");
    if (rb) {
      rg_run *run = NULL;
      char res[32] = "";
      CHECK(build(rb, cc, note) == RG_OK &&
            strcmp(note, "an instruction of the module has no native form: the VM runs") == 0,
            "nc-8 note: %s", note);
      CHECK(count(cache, "") == 0, "nc-8 nothing in the cache");
      if (rg_run_new(rb, NULL, &run) == RG_OK && rg_run_call(run, "big", NULL, 0) == RG_OK)
        rg_run_result(run, res, sizeof res);
      rg_run_free(run);
      CHECK(strcmp(res, "99") == 0, "nc-8 big() = 4099 - 4000 = 99: %s", res);
    }
    rg_rules_free(rb);
    rg_buf_free(&big);
    clear(cache, 1);
  }
}

/* The compiler of nc-6 and nc-7, a script over /usr/bin/cc (at -O0, for
** speed) led by the file dir/variant: none, it compiles the source once and
** copies that object afterwards (the key is the same: the script is); with
** "capture", it keeps the source as dir/src.c and fails; with a number N,
** it links dir/vN.o (made by the test) instead of compiling. */
static void fast_cc(char *cc) {
  char body[2048];
  snprintf(body, sizeof body,
           "#!/bin/sh\nfor a; do s=\"$a\"; done\n"
           "while [ $# -gt 1 ]; do if [ \"$1\" = -o ]; then o=\"$2\"; fi; shift; done\n"
           "v=$(cat %s/variant 2>/dev/null)\n"
           "case \"$v\" in\n"
           "capture) cp \"$s\" %s/src.c; exit 1;;\n"
           "'') if [ -f %s/first.so ]; then exec cp %s/first.so \"$o\"; fi\n"
           "    /usr/bin/cc -std=gnu11 -O0 -fPIC -shared -w -o \"$o\" \"$s\" && cp \"$o\" %s/first.so;;\n"
           "*) exec /usr/bin/ld -shared -o \"$o\" %s/v$v.o;;\n"
           "esac\n", dir, dir, dir, dir, dir, dir);
  script("fast", body, cc);
}

/* nc-6 with a real compiler: an entry that does not check is compiled
** again and replaced; nc-7: code that lacks a symbol or has the wrong
** counts is never used. */
static void test_load(rg_rules *r) {
  char cc[512], note[512], name[512], p[512];
  static const char replaced[] = " (a corrupt or foreign cache entry was replaced)";
  static const char noload[] = "the compiled code could not be loaded: the VM runs";
  struct stat st;
  if (access("/usr/bin/cc", X_OK) != 0 || access("/usr/bin/ld", X_OK) != 0) {
    printf("test_sysfail: no /usr/bin/cc or /usr/bin/ld, nc-6 and nc-7 skipped\n");
    return;
  }
  fast_cc(cc);
  arm(S_WAITPID, 1, 1, EINTR);   /* the wait interrupted once, the object's read */
  arm(S_PREAD, 1, 1, EINTR);     /* and the trailer's write too */
  arm(S_WRITE, 2, 1, EINTR);
  CHECK(build(r, cc, note) == RG_OK && strncmp(note, "native code compiled in ", 24) == 0 &&
        !strstr(note, replaced), "nc-6 compiled: %s", note);
  CHECK(total_right(r), "nc-6 total(10) natively");
  CHECK(build(r, cc, note) == RG_OK && strstr(note, "native code loaded from the cache"),
        "nc-6 from the cache: %s", note);
  CHECK(entry(name) && stat(name, &st) == 0 && st.st_size > 77, "nc-6 the entry");
  {
    /* a byte of the object (its hash then differs), of the key, of the
    ** magic word (the trailer: 37 + 32 + 8 bytes); then the entry
    ** unreadable */
    static const long where[3] = { 100, -77, -3 };
    static const char *const what[3] = { "object", "key", "magic" };
    for (int k = 0; k < 3; k++) {
      flip(name, where[k]);
      CHECK(build(r, cc, note) == RG_OK && strstr(note, replaced), "nc-6 %s: %s", what[k], note);
      CHECK(build(r, cc, note) == RG_OK && strstr(note, "loaded from the cache"),
            "nc-6 %s replaced whole: %s", what[k], note);
    }
    arm(S_FSTAT, 1, 1, EIO);
    CHECK(build(r, cc, note) == RG_OK && strstr(note, replaced), "nc-6 fstat: %s", note);
    arm(S_PREAD, 1, 1, EIO);
    CHECK(build(r, cc, note) == RG_OK && strstr(note, replaced), "nc-6 pread: %s", note);
    CHECK(total_right(r), "nc-6 total(10) after");
  }
  clear(cache, 1);

  /* nc-7: other rules (2 procedures), whose key the compiler keeps; then
  ** objects that load but are not their code (rgn_procs's type does not
  ** matter to dlsym), each left to the VM */
  {
    static const char text2[] = "procedure twice(n: int) -> int { return n * 2 }\n"
                                "procedure total(n: int) -> int { return n * (n + 1) / 2 }\n";
    static const struct { const char *snippet; int keyless; } bad[] = {
      { "int x;", 1 },                                                      /* no key */
      { "int x;", 0 },                                                      /* no counts */
      { "const uint32_t rgn_nprocs = 2;", 0 },
      { "const uint32_t rgn_nprocs = 2, rgn_nfcode = 0;", 0 },              /* no procs */
      { "const char rgn_key[] = \"rgn-other\"; const uint32_t rgn_nprocs = 2, rgn_nfcode = 0; "
        "const void *rgn_procs[2];", 1 },                                  /* another key */
      { "const uint32_t rgn_nprocs = 9, rgn_nfcode = 0; const void *rgn_procs[2];", 0 },
      { "const uint32_t rgn_nprocs = 2, rgn_nfcode = 0; const void *rgn_procs[2];", 0 },
    };
    enum { NBAD = sizeof bad / sizeof *bad };
    rg_rules *r2 = NULL;
    char key[256] = "", cmd[1024], v[16];
    FILE *f;
    put(at(p, "variant"), "capture", 0600);
    CHECK(rg_rules_compile("t2.rules", text2, sizeof text2 - 1, NULL, &r2) == RG_OK &&
          build(r2, cc, note) == RG_OK && strstr(note, "failed (status 1)"), "nc-7 capture: %s", note);
    f = fopen(at(p, "src.c"), "r");
    while (f && fgets(key, sizeof key, f) && !strstr(key, "rgn_key")) key[0] = '\0';
    if (f) fclose(f);
    CHECK(strstr(key, "const char rgn_key[] = \"rgn"), "nc-7 the key: %s", key);
    snprintf(cmd, sizeof cmd, "cd %s && /usr/bin/cc -c -fPIC -w -O0", dir);
    for (int k = 0; k < NBAD; k++) {
      snprintf(v, sizeof v, "v%d.c", k);
      f = fopen(at(p, v), "w");
      if (f) {
        fprintf(f, "#include <stdint.h>\n%s%s\n", bad[k].keyless ? "" : key, bad[k].snippet);
        fclose(f);
      }
      strcat(cmd, " ");
      strcat(cmd, v);
    }
    CHECK(system(cmd) == 0, "nc-7 the objects: %s", cmd);
    for (int k = 0; k < NBAD; k++) {
      snprintf(v, sizeof v, "%d", k);
      put(at(p, "variant"), v, 0600);
      CHECK(build(r2, cc, note) == RG_OK && strcmp(note, noload) == 0, "nc-7 %d: %s", k, note);
      CHECK(total_right(r2), "nc-7 %d: the VM runs", k);
      clear(cache, 1);
    }
    rg_rules_free(r2);
  }
}

int main(void) {
  const char *tmpdir = getenv("TMPDIR");
  rg_rules *r = NULL;
  snprintf(dir, sizeof dir, "%s/regula-sysfail.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(dir) || rg_rules_compile("t.rules", text, sizeof text - 1, NULL, &r) != RG_OK) {
    printf("FAIL test_sysfail: no folder or no rules\n");
    return 1;
  }
  test_save();
  clear(dir, 0);
  test_cache(r);
  clear(dir, 0);
  test_load(r);
  rg_rules_free(r);
  clear(dir, 1);
  return check_done("test_sysfail");
}
