/*
** test_natfall.c: the native tier's ways back to the VM (rg_rules_native),
** with stand-in compilers (shell scripts) so that nothing is compiled.
**
** natfall-1  a compiler that is no compiler (relative, missing, a folder,
**            not executable) and a cache folder that cannot be: RG_OK, a
**            note naming it, and the VM runs.
** natfall-2  a compiler that fails (an exit status, a signal), writes
**            nothing, or writes what is no shared object: the note says
**            which, and the VM's result stands.
** natfall-3  a cache entry that is not to be trusted (group-writable, too
**            short, a symbolic link, a folder) is not loaded: the entry is
**            compiled again and replaced by a private file, a link's target
**            left untouched; a folder in its place cannot be replaced.
** natfall-4  each allocation of a build failing in turn: RG_NOMEM, or RG_OK
**            with the VM running; nothing left allocated.
*/
#include "regula_front.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "files.h"

/* By hand: total(10) = 1 + ... + 10 = 55. */
static const char text[] =
  "procedure total(n: int) -> int {\n"
  "  let s = 0\n"
  "  for i in 1..n { s = s + i }\n"
  "  return s\n"
  "}\n";

static char dir[64];
static check_counts cnt;   /* what the counting allocator saw */

/* Writes body to dir/name with mode; returns the path in path[0..256). */
static void script(const char *name, const char *body, mode_t mode, char *path) {
  FILE *f;
  snprintf(path, 256, "%s/%s", dir, name);
  f = fopen(path, "w");
  if (f) {
    fputs(body, f);
    fclose(f);
  }
  chmod(path, mode);
}

/* rg_rules_native of r with compiler cc and the cache dir/cache; the note
** into note[0..512).  Returns the status. */
static rg_status build(rg_rules *r, const char *cc, const char *cache, char *note) {
  rg_native_options o = { sizeof o, cc, cache };
  return rg_rules_native(r, &o, note, 512);
}

/* total(10) of r, "55" when right. */
static int total_right(const rg_rules *r) {
  rg_run *run = NULL;
  const char *args[] = { "10" };
  char res[32] = "";
  if (rg_run_new(r, NULL, &run) == RG_OK && rg_run_call(run, "total", args, 1) == RG_OK)
    rg_run_result(run, res, sizeof res);
  rg_run_free(run);
  return strcmp(res, "55") == 0;
}

/* The path of the one entry (*.so) in folder cache, into name[0..512);
** returns 1 when there is exactly one. */
static int entry(const char *cache, char *name) {
  DIR *d = opendir(cache);
  struct dirent *e;
  int n = 0;
  if (!d) return 0;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".so")) {
      snprintf(name, 512, "%s/%s", cache, e->d_name);
      n++;
    }
  closedir(d);
  return n == 1;
}

int main(void) {
  rg_rules *r = NULL;
  char note[512], cc[256], cache[256], path[256], name[512], calls[256];
  struct stat st;
  rg_set_allocator(check_counting, &cnt);
  strcpy(dir, "/tmp/regula-test-natfall.XXXXXX");
  if (!mkdtemp(dir) || rg_rules_compile("t.rules", text, sizeof text - 1, NULL, &r) != RG_OK) {
    printf("FAIL test_natfall: no folder or no rules\n");
    return 1;
  }
  snprintf(cache, sizeof cache, "%s/cache", dir);
  snprintf(calls, sizeof calls, "%s/calls", dir);

  /* natfall-1 */
  CHECK(rg_rules_native(r, NULL, NULL, 0) == RG_OK, "natfall-1 no options, no room for a note");
  CHECK(build(r, "cc", cache, note) == RG_OK &&
        strcmp(note, "no C compiler at cc: the VM runs") == 0, "natfall-1 relative: %s", note);
  CHECK(build(r, NULL, cache, note) == RG_OK &&
        strcmp(note, "no C compiler at (none): the VM runs") == 0, "natfall-1 none: %s", note);
  snprintf(cc, sizeof cc, "%s/missing", dir);
  CHECK(build(r, cc, cache, note) == RG_OK && strstr(note, "no C compiler at /tmp/"),
        "natfall-1 missing: %s", note);
  CHECK(build(r, dir, cache, note) == RG_OK && strstr(note, "no C compiler at /tmp/"),
        "natfall-1 a folder: %s", note);
  script("noexec", "#!/bin/sh\nexit 0\n", 0600, cc);
  CHECK(build(r, cc, cache, note) == RG_OK && strstr(note, "no C compiler at /tmp/"),
        "natfall-1 not executable: %s", note);
  script("fails", "#!/bin/sh\nexit 3\n", 0700, cc);
  CHECK(build(r, cc, NULL, note) == RG_OK &&
        strcmp(note, "the cache folder (none) is not the user's own and private (0700): the VM "
                     "runs") == 0, "natfall-1 no cache folder: %s", note);
  snprintf(path, sizeof path, "%s/noexec/cache", dir);   /* under a file: cannot be made */
  CHECK(build(r, cc, path, note) == RG_OK && strstr(note, "is not the user's own and private"),
        "natfall-1 a cache folder under a file: %s", note);

  /* natfall-2 */
  CHECK(build(r, cc, cache, note) == RG_OK && strstr(note, "/fails failed (status 3): the VM runs"),
        "natfall-2 exit 3: %s", note);
  CHECK(total_right(r), "natfall-2 the VM runs");
  script("killed", "#!/bin/sh\nkill -9 $$\n", 0700, cc);
  CHECK(build(r, cc, cache, note) == RG_OK &&
        strstr(note, "/killed failed (status 137): the VM runs"), "natfall-2 a signal: %s", note);
  script("silent", "#!/bin/sh\nexit 0\n", 0700, cc);
  CHECK(build(r, cc, cache, note) == RG_OK &&
        strstr(note, "/silent wrote no shared object: the VM runs"), "natfall-2 nothing: %s", note);
  CHECK(!entry(cache, name), "natfall-2 no entry in the cache");
  {
    /* writes a line to its -o file, and counts its calls */
    char body[512];
    snprintf(body, sizeof body,
             "#!/bin/sh\necho call >>%s\n"
             "while [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then echo junk >\"$2\"; fi; shift; done\n",
             calls);
    script("junk", body, 0700, cc);
  }
  CHECK(build(r, cc, cache, note) == RG_OK &&
        strcmp(note, "the compiled code could not be loaded: the VM runs") == 0,
        "natfall-2 junk: %s", note);
  CHECK(total_right(r), "natfall-2 the VM runs after junk");

  /* natfall-3: the junk entry (its trailer right, the rest no object) */
  CHECK(entry(cache, name) && stat(name, &st) == 0 && (st.st_mode & 0777) == 0600,
        "natfall-3 the entry is private");
  chmod(name, 0666);
  CHECK(build(r, cc, cache, note) == RG_OK && stat(name, &st) == 0 &&
        (st.st_mode & 0777) == 0600, "natfall-3 a group-writable entry replaced (mode %o)",
        (unsigned)(st.st_mode & 0777));
  {
    FILE *f = fopen(name, "w");
    if (f) {
      fputs("x", f);
      fclose(f);
    }
  }
  CHECK(build(r, cc, cache, note) == RG_OK && stat(name, &st) == 0 && st.st_size > 1,
        "natfall-3 a short entry replaced (%lld bytes)", (long long)st.st_size);
  script("target", "keep\n", 0600, path);
  unlink(name);
  CHECK(symlink(path, name) == 0, "natfall-3 a link planted");
  CHECK(build(r, cc, cache, note) == RG_OK && lstat(name, &st) == 0 && S_ISREG(st.st_mode),
        "natfall-3 the link replaced by a file");
  {
    char keep[16] = "";
    FILE *f = fopen(path, "r");
    if (f) {
      if (!fgets(keep, sizeof keep, f)) keep[0] = '\0';
      fclose(f);
    }
    CHECK(strcmp(keep, "keep\n") == 0, "natfall-3 the link's target untouched: '%s'", keep);
  }
  unlink(name);
  CHECK(mkdir(name, 0700) == 0 && build(r, cc, cache, note) == RG_OK &&
        strstr(note, "could not be written: the VM runs"), "natfall-3 a folder: %s", note);
  rmdir(name);
  {
    /* the junk compiler ran once for natfall-2 and once for each entry
    ** rejected: 5 in all */
    int n = 0;
    char line[16];
    FILE *f = fopen(calls, "r");
    while (f && fgets(line, sizeof line, f)) n++;
    if (f) fclose(f);
    CHECK(n == 5, "natfall-3 the compiler ran %d times", n);
  }
  CHECK(total_right(r), "natfall-3 the VM runs");

  /* natfall-4: the junk compiler, its entry rejected each time; n: the
  ** allocations of a build without failures */
  {
    long before = cnt.live, bad = 0, leaks = 0, n;
    rg_status st;
    cnt.calls = 0;
    CHECK(build(r, cc, cache, note) == RG_OK && cnt.live == before, "natfall-4 without failures");
    n = cnt.calls;
    for (long k = 1; k <= n; k++) {
      rg_alloc_fail_at((unsigned long)k);
      st = build(r, cc, cache, note);
      rg_alloc_fail_at(0);
      if (st != RG_NOMEM && !(st == RG_OK && strstr(note, "the VM runs")) && bad++ < 3)
        printf("natfall-4 allocation %ld failing: %s, %s\n", k, rg_status_name(st), note);
      if (cnt.live != before && leaks++ < 3)
        printf("natfall-4 allocation %ld failing leaves %ld blocks\n", k, cnt.live - before);
      cnt.live = before;
    }
    CHECK(n > 0 && bad == 0 && leaks == 0, "natfall-4 of %ld: %ld wrong, %ld leaked", n, bad,
          leaks);
  }

  rg_rules_free(r);
  clear(cache, 1);
  clear(dir, 1);
  return check_done("test_natfall");
}
