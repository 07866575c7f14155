/*
** replay.c: a main for a fuzz harness without libFuzzer.
**
**     replay FILE_OR_FOLDER...
**
** Feeds every file named (and every file of every folder named, except
** README.md) to LLVMFuzzerTestOneInput once, so that `make test` replays
** the inputs that once crashed a harness, under the sanitizers too.  Prints
** `NAME: N inputs replayed`; a crash is the harness's own report.
*/
#include "fuzz.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Feeds the file at path to the harness; returns 0, or -1 if unreadable. */
static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0;
  if (!f) return -1;
  for (;;) {
    if (len == cap) {
      unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
      if (!nb) { free(buf); fclose(f); return -1; }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  fclose(f);
  /* An exact-size copy, so ASan sees a read past the input's end. */
  unsigned char *exact = malloc(len ? len : 1);
  if (!exact) { free(buf); return -1; }
  if (len) memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

int main(int argc, char **argv) {
  unsigned long n = 0;
  int status = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: cannot read %s\n", argv[i]);
      status = 1;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (replay_file(argv[i]) != 0) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); status = 1; }
      else n++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    if (!d) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); status = 1; continue; }
    while ((e = readdir(d)) != NULL) {
      char p[4096];
      if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0) continue;
      snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
      if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (replay_file(p) != 0) { fprintf(stderr, "replay: cannot read %s\n", p); status = 1; }
      else n++;
    }
    closedir(d);
  }
  const char *name = strrchr(argv[0], '/');
  printf("%s: %lu inputs replayed\n", name ? name + 1 : argv[0], n);
  return status;
}
