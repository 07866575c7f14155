/*
** files.h: the unit tests' helpers for files they make in a scratch
** folder: whether a file holds a text, and removing a folder's files.
** Header-only (static), for a test program of one C file.
*/
#ifndef CHECK_FILES_H
#define CHECK_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Returns whether the file at path holds exactly text (at most 255
** bytes). */
static inline int holds(const char *path, const char *text) {
  char got[256];
  FILE *f = fopen(path, "rb");
  size_t n;
  if (!f) return 0;
  n = fread(got, 1, sizeof got - 1, f);
  fclose(f);
  got[n] = '\0';
  return strcmp(got, text) == 0;
}

/* Removes the files and empty folders in folder d (one level), then d
** itself when gone is set. */
static inline void clear(const char *d, int gone) {
  DIR *dd = opendir(d);
  struct dirent *e;
  char p[1024];
  if (!dd) return;
  while ((e = readdir(dd))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", d, e->d_name);
    if (unlink(p) != 0) rmdir(p);
  }
  closedir(dd);
  if (gone) rmdir(d);
}

#endif
