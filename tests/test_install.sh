#!/bin/sh
# `make install DESTDIR=... PREFIX=/usr` installs a usable library: a small
# consumer builds with `pkg-config --cflags --libs utfx` (pointed into the
# DESTDIR), links against the installed shared library and runs; `make
# uninstall` removes what install put there. Speaks TAP.
#
# It runs its own make, isolated from the make that runs the tests (no
# inherited MAKEFLAGS / jobserver), on the normal build in $BUILD when that is
# not sanitized; for the ASan+UBSan run it builds a plain library in its own
# temporary BUILD directory instead (an installed library must not need
# libasan). The ASan+UBSan pass (UTFX_SANITIZED=1) skips it: that plain
# library would be the normal pass's install with clang for gcc, and the
# Makefile's clang build is the sanitizer pass's own build (test_cmake.sh
# builds a plain clang library there too).
BUILD=${BUILD:-build}
if [ -n "${UTFX_SANITIZED:-}" ]; then
  echo "1..0 # SKIP the install is checked in the normal pass (an installed library is not sanitized)"
  exit 0
fi
CC=${CC:-cc}
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
echo "1..5"

build_dir=$root/$BUILD
case $BUILD in /*) build_dir=$BUILD ;; esac
if [ -n "${EXTRA_FLAGS:-}" ] || nm "$build_dir/libutfx.a" 2>/dev/null | grep -q __asan_; then
  build_dir=$tmp/build
fi

if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u EXTRA_FLAGS -u CFLAGS \
    make -s -C "$root" install BUILD="$build_dir" DESTDIR="$dest" PREFIX=/usr CC="$CC" \
    > "$tmp/log" 2>&1; then
  echo "ok 1 - make install DESTDIR=... PREFIX=/usr"
else
  echo "not ok 1 - make install DESTDIR=... PREFIX=/usr"
  sed 's/^/#   /' "$tmp/log"
fi

missing=
for f in usr/include/utfx.h usr/include/utfx_operations.h usr/lib/libutfx.a usr/lib/libutfx.so \
    usr/lib/pkgconfig/utfx.pc; do
  [ -e "$dest/$f" ] || missing="$missing $f"
done
ls "$dest"/usr/lib/libutfx.so.* > /dev/null 2>&1 || missing="$missing usr/lib/libutfx.so.N"
if [ -z "$missing" ]; then
  echo "ok 2 - headers, static and shared libraries and utfx.pc are installed"
else
  echo "not ok 2 - installed files missing:$missing"
fi

flags=$(PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$dest/usr/lib/pkgconfig \
  PKG_CONFIG_PATH= PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
  pkg-config --cflags --libs utfx 2> "$tmp/err")
if [ -n "$flags" ] && $CC -std=c11 -Wall -Wextra -Werror tests/consumer/main.c $flags \
    -o "$tmp/consumer" 2>> "$tmp/err"; then
  echo "ok 3 - consumer builds with pkg-config --cflags --libs utfx ($flags)"
else
  echo "not ok 3 - consumer builds with pkg-config --cflags --libs utfx ($flags)"
  sed 's/^/#   /' "$tmp/err"
fi

if [ -x "$tmp/consumer" ] && readelf -d "$tmp/consumer" | grep -q 'NEEDED.*libutfx\.so' &&
    out=$(LD_LIBRARY_PATH=$dest/usr/lib "$tmp/consumer" 2>&1); then
  echo "ok 4 - consumer runs against the installed shared library: $out"
else
  echo "not ok 4 - consumer runs against the installed shared library"
  printf '%s\n' "${out:-}" | sed 's/^/#   /'
fi

if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u EXTRA_FLAGS -u CFLAGS \
    make -s -C "$root" uninstall BUILD="$build_dir" DESTDIR="$dest" PREFIX=/usr \
    > "$tmp/log" 2>&1 && [ -z "$(find "$dest" -type f -o -type l)" ]; then
  echo "ok 5 - make uninstall removes every installed file"
else
  echo "not ok 5 - make uninstall removes every installed file"
  find "$dest" -type f -o -type l | sed 's/^/#   left: /'
fi
