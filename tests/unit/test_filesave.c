/*
** test_filesave.c: rg_file_save (regula_front.h) on the paths that make it
** follow links, keep modes and fail: each case in a fresh temporary folder,
** checked by what is on disk afterwards and by the status and message.
** Cases are named save-N.  Failures of the system calls themselves are in
** test_sysfail.c.
*/
#include "regula_front.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "files.h"

static char dir[256];

/* Writes dir/name into buf (size 512) and returns buf. */
static const char *at(char *buf, const char *name) {
  snprintf(buf, 512, "%s/%s", dir, name);
  return buf;
}

/* Returns the number of entries of dir (not . and ..). */
static int entries(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if (!d) return -1;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  closedir(d);
  return n;
}

/* Saves text to path; returns the status and leaves the message in msg
** (size 512). */
static rg_status save(const char *path, const char *text, int mode, char *msg) {
  rg_buf why;
  rg_status st;
  rg_buf_init(&why);
  st = rg_file_save(path, text, strlen(text), mode, &why.out);
  snprintf(msg, 512, "%s", why.data ? why.data : "");
  rg_buf_free(&why);
  return st;
}

/* Removes every entry of dir (files and links only). */
static void empty(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[512];
  if (!d) return;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) unlink(at(p, e->d_name));
  closedir(d);
}

int main(void) {
  char a[512], b[512], c[512], msg[512], want[1024];
  const char *tmpdir = getenv("TMPDIR");
  struct stat st;
  snprintf(dir, sizeof dir, "%s/regula-save.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }

  /* save-1: a relative link in a folder names its target beside it; the
  ** target is written and the link stays a link */
  if (symlink("target.txt", at(a, "link")) == 0) {
    CHECK(save(a, "one", 0644, msg) == RG_OK, "save-1 status (%s)", msg);
    CHECK(holds(at(b, "target.txt"), "one"), "save-1 the target holds the text");
    CHECK(lstat(a, &st) == 0 && S_ISLNK(st.st_mode), "save-1 the link stays a link");
    CHECK(entries() == 2, "save-1 nothing else left: %d entries", entries());
  }
  empty();

  /* save-2: a link whose text is longer than the first read of it (256
  ** bytes), through a second, absolute link */
  {
    char rel[600] = "";
    for (int i = 0; i < 150; i++) strcat(rel, "./");   /* 307 bytes */
    strcat(rel, "far.txt");
    if (symlink(rel, at(a, "long")) == 0 && symlink(a, at(b, "abs")) == 0) {
      CHECK(save(b, "two", 0644, msg) == RG_OK, "save-2 status (%s)", msg);
      CHECK(holds(at(c, "far.txt"), "two"), "save-2 the far target holds the text");
      CHECK(lstat(b, &st) == 0 && S_ISLNK(st.st_mode) && lstat(a, &st) == 0 && S_ISLNK(st.st_mode),
            "save-2 both links stay links");
    }
  }
  empty();

  /* save-3: two links that name each other: refused with the system's
  ** word for it, nothing written */
  if (symlink("y", at(a, "x")) == 0 && symlink("x", at(b, "y")) == 0) {
    CHECK(save(a, "three", 0644, msg) == RG_IO, "save-3 status");
    snprintf(want, sizeof want, "%s: cannot write: %s", a, strerror(ELOOP));
    CHECK(strcmp(msg, want) == 0, "save-3 message '%s', want '%s'", msg, want);
    CHECK(entries() == 2, "save-3 nothing written: %d entries", entries());
  }
  empty();

  /* save-4: a folder that is not there: no temporary file can be made */
  at(a, "no-such-folder/out.txt");
  CHECK(save(a, "four", 0644, msg) == RG_IO, "save-4 status");
  snprintf(want, sizeof want, "%s: cannot create a temporary file: %s", a, strerror(ENOENT));
  CHECK(strcmp(msg, want) == 0, "save-4 message '%s', want '%s'", msg, want);

  /* save-5: a file replaced keeps its mode (0640), whatever mode is asked */
  {
    FILE *f = fopen(at(a, "kept.txt"), "w");
    if (f) {
      fputs("old", f);
      fclose(f);
      chmod(a, 0640);
      CHECK(save(a, "five", 0600, msg) == RG_OK, "save-5 status (%s)", msg);
      CHECK(holds(a, "five"), "save-5 the new text");
      CHECK(stat(a, &st) == 0 && (st.st_mode & 07777) == 0640, "save-5 mode %o, want 640",
            (unsigned)(st.st_mode & 07777));
    }
  }
  empty();

  /* save-6: every allocation that fails ends in RG_NOMEM and "out of
  ** memory", with no file and no temporary file left; then it succeeds */
  if (symlink("six.txt", at(a, "link6")) == 0) {
    unsigned long k;
    for (k = 1; k < 50; k++) {
      rg_status s;
      rg_alloc_fail_at(k);
      s = save(a, "six", 0644, msg);
      rg_alloc_fail_at(0);
      if (s == RG_OK) break;
      snprintf(want, sizeof want, "%s: out of memory", a);
      CHECK(s == RG_NOMEM && strcmp(msg, want) == 0, "save-6 failure %lu: %s '%s'", k,
            rg_status_name(s), msg);
      CHECK(entries() == 1, "save-6 failure %lu left %d entries", k, entries());
    }
    CHECK(k > 1 && k < 50 && holds(at(b, "six.txt"), "six"), "save-6 written after %lu", k);
  }
  empty();

  /* save-7: a link named without a folder (in the current one) leads to
  ** its target beside it */
  {
    char cwd[512];
    if (getcwd(cwd, sizeof cwd) && chdir(dir) == 0) {
      if (symlink("seven.txt", "here") == 0) {
        CHECK(save("here", "seven", 0644, msg) == RG_OK, "save-7 status (%s)", msg);
        CHECK(holds(at(a, "seven.txt"), "seven"), "save-7 the target holds the text");
        CHECK(lstat("here", &st) == 0 && S_ISLNK(st.st_mode), "save-7 the link stays a link");
      }
      CHECK(chdir(cwd) == 0, "save-7 back to %s", cwd);
    }
  }
  empty();

  /* save-8: no buffer for the reason: the status alone, nothing written */
  CHECK(rg_file_save(at(a, "no-such-folder/x"), "8", 1, 0644, NULL) == RG_IO && entries() == 0,
        "save-8 status without a reason");

  /* save-9: mode 0 makes a new file 0600 (under umask 022) */
  {
    mode_t old = umask(022);
    CHECK(save(at(a, "nine.txt"), "nine", 0, msg) == RG_OK && stat(a, &st) == 0 &&
          (st.st_mode & 07777) == 0600, "save-9 mode %o, want 600 (%s)",
          (unsigned)(st.st_mode & 07777), msg);
    umask(old);
  }
  empty();

  rmdir(dir);
  return check_done("test_filesave");
}
