/* A program that uses utfx as a user's project would (tests/test_install.sh,
 * tests/test_cmake.sh): one conversion with a replacement, the version, and
 * the tier runtime dispatch chose. */
#include <stdio.h>
#include <string.h>
#include <utfx.h>

int main(void) {
  char16_t out[8];
  utfx_result r = utfx_convert_utf8_to_utf16le("h\xC3\xA9\xE2\x82", 5, out, 8, UTFX_REPLACE);
  if (r.status != UTFX_OK || r.written != 3 || out[1] != 0xE9 || out[2] != 0xFFFD) return 1;
  if (strcmp(utfx_version(), UTFX_VERSION_STRING) != 0) return 2;
  printf("%s %s\n", utfx_version(), utfx_implementation());
  return 0;
}
