#!/bin/sh
# include/utfx.h compiles as strict C11 and as C++11 without warnings, and a
# small C++ program using u"..." literals links against the library and
# runs; every row of include/utfx_operations.h's lists names a function of
# utfx.h with the signature the list's comment gives (C11 and C++11). Speaks TAP. BUILD, CC and CXX come from the environment (make
# run-tests passes them); EXTRA_FLAGS (the sanitizer flags of the ASan+UBSan
# run) is reused for linking when set.
BUILD=${BUILD:-build}
CC=${CC:-cc}
CXX=${CXX:-g++}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..6"

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

# Each list row, expanded into a pointer of the signature its comment gives:
# a row naming no function, or with the wrong unit types, does not compile.
cat > "$tmp/ops.c" <<'C'
#include "utfx.h"
#include "utfx_operations.h"
#include "utfx_operations.h"
#define V(enc, S) utfx_result (*v_##enc)(const S *, size_t) = utfx_validate_##enc;
#define C(f, S, t, T) \
  utfx_result (*c_##f##_##t)(const S *, size_t, T *, size_t, unsigned) = utfx_convert_##f##_to_##t;
#define L(t, f, S) size_t (*l_##t##_##f)(const S *, size_t) = utfx_##t##_length_from_##f;
#define B(op, S, T) utfx_result (*b_##op)(const S *, size_t, T *, size_t, unsigned) = utfx_##op;
#define BL(op, S) size_t (*bl_##op)(const S *, size_t, unsigned) = utfx_##op;
#define BW(op, S, T) \
  utfx_result (*bw_##op)(const S *, size_t, T *, size_t, unsigned, size_t, size_t *) = utfx_##op;
#define M(op) void (*m_##op)(const char16_t *, size_t, char16_t *) = utfx_##op;
#define K(op) utfx_result (*k_##op)(const char16_t *, size_t) = utfx_##op;
#define F(op) size_t (*f_##op)(const char16_t *, size_t, int *) = utfx_##op;
int ops_main(void);
int ops_main(void) {
  int n = 0;
  UTFX_VALIDATIONS(V)
  UTFX_CONVERSIONS(C)
  UTFX_LENGTHS(L)
  UTFX_BASE64_CODECS(B)
  UTFX_BASE64_LENGTHS(BL)
  UTFX_BASE64_LINE_CODECS(BW)
  UTFX_UTF16_MAPS(M)
  UTFX_UTF16_CHECKS(K)
  UTFX_UTF16_FLAGGED_LENGTHS(F)
#define COUNT(...) n++;
  UTFX_VALIDATIONS(COUNT) UTFX_CONVERSIONS(COUNT) UTFX_LENGTHS(COUNT)
  return n + (v_utf8 != 0) + (c_utf8_utf16le != 0) + (l_utf16_utf8 != 0) +
         (b_base64_encode != 0) + (bl_binary_length_from_base64 != 0) + (bw_base64_encode_lines != 0) +
         (m_swap_bytes_utf16 != 0) + (k_validate_ascii_utf16le != 0) +
         (f_utf8_length_from_utf16le_with_surrogates != 0);
}
C
if $CC -std=c11 -pedantic -Wall -Wextra -Werror -Wno-unused-variable -Iinclude -c "$tmp/ops.c" \
    -o "$tmp/ops.o" 2> "$tmp/err"; then
  echo "ok 5 - utfx_operations.h: every row names a utfx.h function of its list's signature (C11)"
else
  echo "not ok 5 - utfx_operations.h: every row names a utfx.h function of its list's signature (C11)"
  sed 's/^/#   /' "$tmp/err"
fi
cp "$tmp/ops.c" "$tmp/ops.cpp"
if $CXX -std=c++11 -Wall -Wextra -Werror -Wno-unused-variable -Iinclude -c "$tmp/ops.cpp" \
    -o "$tmp/opsxx.o" 2> "$tmp/err"; then
  echo "ok 6 - utfx_operations.h: the same in C++11"
else
  echo "not ok 6 - utfx_operations.h: the same in C++11"
  sed 's/^/#   /' "$tmp/err"
fi
