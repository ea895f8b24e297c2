#!/bin/sh
# include/utfx.h compiles as strict C11 and as C++11 without warnings, and a
# small C++ program using u"..." literals links against the library and
# runs. Speaks TAP. BUILD, CC and CXX come from the environment (make
# run-tests passes them); EXTRA_FLAGS (the sanitizer flags of the ASan+UBSan
# run) is reused for linking when set.
BUILD=${BUILD:-build}
CC=${CC:-cc}
CXX=${CXX:-g++}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..4"

printf '#include "utfx.h"\nint main(void) { return utfx_version() == 0; }\n' > "$tmp/c11.c"
if $CC -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -c "$tmp/c11.c" -o "$tmp/c11.o" \
    2> "$tmp/err"; then
  echo "ok 1 - utfx.h compiles with $CC -std=c11 -pedantic -Wall -Wextra -Werror"
else
  echo "not ok 1 - utfx.h compiles with $CC -std=c11 -pedantic -Wall -Wextra -Werror"
  sed 's/^/#   /' "$tmp/err"
fi

printf '#include "utfx.h"\n#include "utfx.h"\nint main() { return utfx_version() == 0; }\n' \
  > "$tmp/cxx.cpp"
if $CXX -std=c++11 -Wall -Wextra -Werror -Iinclude -c "$tmp/cxx.cpp" -o "$tmp/cxx.o" \
    2> "$tmp/err"; then
  echo "ok 2 - utfx.h compiles (twice included) with $CXX -std=c++11 -Wall -Wextra -Werror"
else
  echo "not ok 2 - utfx.h compiles with $CXX -std=c++11 -Wall -Wextra -Werror"
  sed 's/^/#   /' "$tmp/err"
fi

cat > "$tmp/use.cpp" <<'CPP'
#include <cstring>
#include <cstdio>
#include "utfx.h"

int main() {
  const char16_t text[] = u"caf\u00e9 \u20ac \U0001F600";
  size_t n = sizeof text / sizeof text[0] - 1;
  char out[32];
  size_t need = utfx_utf8_length_from_utf16le(text, n);
  utfx_result r = utfx_convert_utf16le_to_utf8(text, n, out, sizeof out, UTFX_STRICT);
  const char want[] = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
  char16_t back[16];
  utfx_result b = utfx_convert_utf8_to_utf16le(out, r.written, back, 16, UTFX_STRICT);
  if (r.status != UTFX_OK || r.written != need || need != sizeof want - 1 ||
      std::memcmp(out, want, need) != 0) {
    std::printf("utf16le -> utf8 failed: status %d written %zu\n", (int)r.status, r.written);
    return 1;
  }
  if (b.status != UTFX_OK || b.written != n || std::memcmp(back, text, n * 2) != 0) {
    std::printf("round trip failed\n");
    return 1;
  }
  std::printf("%s %s\n", utfx_version(), utfx_implementation());
  return 0;
}
CPP
if $CXX -std=c++11 -Wall -Wextra -Werror -Iinclude ${EXTRA_FLAGS:-} "$tmp/use.cpp" \
    "$BUILD/libutfx.a" -o "$tmp/use" -lpthread 2> "$tmp/err"; then
  echo "ok 3 - a C++ program using u\"...\" literals links against $BUILD/libutfx.a"
  if out=$("$tmp/use" 2>&1); then
    echo "ok 4 - and runs: $out"
  else
    echo "not ok 4 - the C++ program runs"
    printf '%s\n' "$out" | sed 's/^/#   /'
  fi
else
  echo "not ok 3 - a C++ program using u\"...\" literals links"
  sed 's/^/#   /' "$tmp/err"
  echo "not ok 4 - the C++ program runs"
fi
