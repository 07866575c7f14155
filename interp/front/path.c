/*
** path.c: paths normalized and cut for people (see path.h).
*/
#include "path.h"

#include <stdio.h>
#include <string.h>

void rgi_path_norm(char *out, size_t size, const char *in) {
  char tmp[1024];
  const char *parts[128];
  size_t lens[128];
  int n = 0, abs = in[0] == '/';
  const char *p = in;
  while (*p) {
    const char *q = strchr(p, '/');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (len == 0 || (len == 1 && p[0] == '.')) {
    } else if (len == 2 && p[0] == '.' && p[1] == '.' && n > 0 &&
               !(lens[n - 1] == 2 && parts[n - 1][0] == '.' && parts[n - 1][1] == '.')) {
      n--;
    } else if (n < 128) {
      parts[n] = p;
      lens[n++] = len;
    }
    if (!q) break;
    p = q + 1;
  }
  size_t o = 0;
  tmp[0] = '\0';
  if (abs) tmp[o++] = '/';
  for (int i = 0; i < n && o + lens[i] + 2 < sizeof tmp; i++) {
    if (i) tmp[o++] = '/';
    memcpy(tmp + o, parts[i], lens[i]);
    o += lens[i];
  }
  tmp[o] = '\0';
  snprintf(out, size, "%s", tmp);
}

void rgi_path_shared_dir(const char *a, const char *b, char *buf, size_t size) {
  char na[1024], nb[1024];
  size_t i = 0, last = 0;
  rgi_path_norm(na, sizeof na, a);
  rgi_path_norm(nb, sizeof nb, b);
  while (na[i] && na[i] == nb[i]) {
    if (na[i] == '/') last = i + 1;
    i++;
  }
  /* a is a folder of b ("x/y" of "x/y/z": normalizing dropped a's final
  ** '/'), not only a path sharing its first letters */
  if (!na[i] && nb[i] == '/') last = i + 1;
  if (last >= size) last = size ? size - 1 : 0;
  if (size) {
    memcpy(buf, nb, last);   /* nb: it has the final '/' when na was a folder */
    buf[last] = '\0';
  }
}

