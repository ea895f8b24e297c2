/* A whole file read into memory, for the tests that compare with answers an
 * oracle (Node, coreutils) wrote to a file. */
#ifndef UTFX_TESTS_SUPPORT_SLURP_H
#define UTFX_TESTS_SUPPORT_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at path, NUL-terminated, *len of them (malloc'd;
 * free it); NULL if it cannot be opened or read whole. */
static inline char *test_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *p;
  long size;
  *len = 0;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  p = size < 0 ? NULL : malloc((size_t)size + 1);
  if (p && fread(p, 1, (size_t)size, f) != (size_t)size) {
    free(p);
    p = NULL;
  }
  if (p) {
    p[size] = '\0';
    *len = (size_t)size;
  }
  fclose(f);
  return p;
}

#endif
