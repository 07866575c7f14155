/*
** test_path.c: rgi_path_norm and rgi_path_shared_dir (path.h), the paths
** people read in diff headers and messages.  Each expected path is worked
** out by hand from path.h's rules.  Cases are named path-N.
*/
#include <stdio.h>
#include <string.h>

#include "path.h"
#include "check.h"

/* Compares got with want under name. */
static void check(const char *name, const char *got, const char *want) {
  if (strcmp(got, want) == 0) { passed++; return; }
  failed++;
  printf("FAIL %s:\n  want [%s]\n  got  [%s]\n", name, want, got);
}

/* Normalizes in and checks the result. */
static void norm(const char *name, const char *in, const char *want) {
  char out[1100];
  rgi_path_norm(out, sizeof out, in);
  check(name, out, want);
}

int main(void) {
  char in[1200], want[1100], buf[16];
  norm("path-1 . and empty parts, dir/..", "a/./b//c/../d", "a/b/d");
  norm("path-2 leading .. kept, one after another", "../../x", "../../x");
  norm("path-3 .. folds the part before it only", "../a/../b", "../b");
  norm("path-4 names that start with dots", "a/.b/..c/...", "a/.b/..c/...");
  norm("path-5 absolute", "/x/./y/../z/", "/x/z");
  norm("path-6 nothing left", "a/..", "");
  /* at most 128 parts are kept */
  in[0] = '\0';
  for (int i = 0; i < 130; i++) strcat(in, "a/");
  want[0] = '\0';
  for (int i = 0; i < 128; i++) strcat(want, i ? "/a" : "a");
  norm("path-7 128 parts", in, want);
  /* a path longer than the 1024-byte work buffer stops before a part that
  ** does not fit: 10 parts of 100 letters fit (1009 bytes), the 11th not */
  in[0] = '\0';
  for (int i = 0; i < 11; i++) {
    char part[102];
    memset(part, 'a' + i, 100);
    part[100] = '/';
    part[101] = '\0';
    strcat(in, part);
  }
  in[strlen(in) - 1] = '\0';
  memcpy(want, in, 1009);
  want[1009] = '\0';
  norm("path-8 cut before a part that does not fit", in, want);

  rgi_path_shared_dir("x/y/a.rules", "x/y/b.rules", buf, sizeof buf);
  check("path-9 a shared folder", buf, "x/y/");
  rgi_path_shared_dir("x/y", "x/y/z.rules", buf, sizeof buf);
  check("path-10 a folder of the other", buf, "x/y/");
  rgi_path_shared_dir("x/yz", "x/y", buf, sizeof buf);
  check("path-11 shared first letters are no folder", buf, "x/");
  rgi_path_shared_dir("x/y/a", "x/y/b", buf, 3);
  check("path-12 cut to the buffer", buf, "x/");
  rgi_path_shared_dir("a", "b", buf, sizeof buf);
  check("path-13 nothing shared", buf, "");
  strcpy(buf, "kept");
  rgi_path_shared_dir("x/y/a", "x/y/b", buf, 0);
  check("path-14 no room: nothing written", buf, "kept");
  return check_done("test_path");
}
