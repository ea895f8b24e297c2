/* Smoke test: the examples of design.md section 2 on every tier, with the
 * input against a guard page. The full suites live in the other test files. */
#include <string.h>

#include "support/guard.h"
#include "tap.h"

static void suite(void) {
  static const struct {
    const char *in;
    size_t n;
    size_t replacements;
  } cases[] = {{"\xE0\x80", 2, 2},         {"\xED\xA0\x80", 3, 3}, {"\xF4\x90\x80\x80", 4, 4},
               {"\xC0\xAF", 2, 2},         {"\xE2\x82\x41", 3, 1}, {"\xF0\x9F\x98", 3, 1},
               {"\xF8\x88\x80\x80\x80", 5, 5}};
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *in = guard_alloc(cases[i].n);
    char16_t out[16];
    utfx_result r;
    memcpy(in, cases[i].in, cases[i].n);
    r = utfx_convert_utf8_to_utf16le(in, cases[i].n, out, 16, UTFX_REPLACE);
    CHECK(r.status == UTFX_OK && r.read == cases[i].n, "case %zu status", i);
    CHECK(r.replaced == cases[i].replacements, "case %zu: %zu replacements", i, r.replaced);
    guard_free(in, cases[i].n);
  }
  {
    utfx_result r = utfx_convert_utf8_to_utf16le("a\xE2\x82\x41", 4, NULL, 0, UTFX_STRICT);
    CHECK(r.status == UTFX_DST_FULL && r.read == 0, "cap 0 before the error");
  }
  tap_group("design.md maximal-subpart examples");
}

int main(void) {
  tap_for_each_impl(suite);
  return tap_done();
}
