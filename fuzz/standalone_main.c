/* Replays files through a fuzz target without libFuzzer, so the checked-in
 * corpus (fuzz/corpus/<target>/) runs in every `make test`, with any
 * compiler and under the sanitizer build:
 *   fuzz_utf8 fuzz/corpus/fuzz_utf8 [more files or directories...]
 * Each regular file (directories: each regular file directly inside them) is
 * passed to LLVMFuzzerTestOneInput once, in an exact-size heap copy so ASan
 * sees reads past its end. A target reports a failure by aborting (or a
 * sanitizer report); run the binary on single files to find which one. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf;
  long size;
  if (!f) {
    perror(path);
    return 1;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    perror(path);
    fclose(f);
    return 1;
  }
  buf = malloc(size ? (size_t)size : 1);
  if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
    perror(path);
    free(buf);
    fclose(f);
    return 1;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, (size_t)size);
  free(buf);
  replayed++;
  return 0;
}

static int replay(const char *path) {
  struct stat st;
  DIR *dir;
  struct dirent *e;
  int failed = 0;
  if (stat(path, &st) != 0) {
    perror(path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) return replay_file(path);
  dir = opendir(path);
  if (!dir) {
    perror(path);
    return 1;
  }
  while ((e = readdir(dir)) != NULL) {
    char child[4096];
    struct stat cst;
    if (e->d_name[0] == '.') continue;
    snprintf(child, sizeof child, "%s/%s", path, e->d_name);
    if (stat(child, &cst) == 0 && S_ISREG(cst.st_mode)) failed |= replay_file(child);
  }
  closedir(dir);
  return failed;
}

int main(int argc, char **argv) {
  int i, failed = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; i++) failed |= replay(argv[i]);
  fprintf(stderr, "%s: replayed %lu inputs\n", argv[0], replayed);
  if (replayed == 0) return 1;
  return failed;
}
