#!/bin/sh
# CMakeLists.txt, used the three ways a CMake project can (the consumer is
# tests/consumer/): an installed package (find_package(utfx CONFIG), the
# version file, utfx.pc, shared by default, static with UTFX_USE_STATIC_LIBS),
# add_subdirectory and FetchContent (URL of a local archive of the tree: no
# network) without installing or building anything but the library. And it
# builds what the Makefile builds: the same objects (from sources.mk) and the
# same global symbols in libutfx.a, the same soname. Everything is built in a
# temporary directory with the cmake on the machine. Speaks TAP.
BUILD=${BUILD:-build}
CC=${CC:-cc}
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..9"
# Its own cmake and make, isolated from the make running the tests; a plain
# build (no sanitizer flags) with the compiler of this test run.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES CFLAGS EXTRA_FLAGS
export CC
run() { # run LOG CMD...: runs CMD, output to LOG
  log=$1
  shift
  "$@" > "$log" 2>&1
}
show() { tail -n 25 "$1" | sed 's/^/#   /'; }

if ! command -v cmake > /dev/null 2>&1; then
  for i in 1 2 3 4 5 6 7 8 9; do echo "not ok $i - cmake not found"; done
  exit 1
fi

# 1-2: build and install; what the Makefile builds.
lib=$tmp/lib
if run "$tmp/log" cmake -S "$root" -B "$lib" -DCMAKE_INSTALL_PREFIX="$tmp/prefix" &&
    run "$tmp/log" cmake --build "$lib" -j2 && run "$tmp/log" cmake --install "$lib"; then
  echo "ok 1 - cmake configure, build -j2 and install ($(cmake --version | head -n 1))"
else
  echo "not ok 1 - cmake configure, build and install"
  show "$tmp/log"
fi
objs() { ar t "$1" | sed 's/\.c\.o$/.o/' | sort; }
syms() { nm -g --defined-only "$1" | awk 'NF >= 3 && $3 ~ /^utfxi?_/ { print $3 }' | sort -u; }
soname() { readelf -d "$1" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p'; }
mk=$BUILD/libutfx.a
if [ -e "$lib/libutfx.a" ] && [ -e "$mk" ] && objs "$mk" > "$tmp/mk.o" &&
    objs "$lib/libutfx.a" > "$tmp/cm.o" && cmp -s "$tmp/mk.o" "$tmp/cm.o" &&
    syms "$mk" > "$tmp/mk.s" && syms "$lib/libutfx.a" > "$tmp/cm.s" && cmp -s "$tmp/mk.s" "$tmp/cm.s" &&
    [ "$(soname "$lib/libutfx.so")" = "$(soname "$BUILD/libutfx.so")" ] &&
    [ -x "$lib/utfx" ]; then
  echo "ok 2 - same $(wc -l < "$tmp/cm.o") objects and $(wc -l < "$tmp/cm.s") global symbols as" \
    "the Makefile's libutfx.a, soname $(soname "$lib/libutfx.so"), and the utfx CLI"
else
  echo "not ok 2 - CMake and the Makefile build the same library"
  diff "$tmp/mk.o" "$tmp/cm.o" 2>&1 | head -n 10 | sed 's/^/#   /'
  diff "$tmp/mk.s" "$tmp/cm.s" 2>&1 | head -n 10 | sed 's/^/#   /'
fi

# 3-6: an installed package.
consumer() { # consumer NAME cmake-args...: configures and builds tests/consumer in $tmp/NAME
  name=$1
  shift
  run "$tmp/$name.log" cmake -S "$root/tests/consumer" -B "$tmp/$name" "$@" &&
    run "$tmp/$name.log" cmake --build "$tmp/$name" -j2 &&
    out=$("$tmp/$name/consumer" 2>&1)
}
needs_so() { readelf -d "$1" | grep -q 'NEEDED.*libutfx\.so'; }
if consumer pkg -DUTFX_MODE=package -DUTFX_WANT_VERSION=0.1 -DCMAKE_PREFIX_PATH="$tmp/prefix" &&
    needs_so "$tmp/pkg/consumer"; then
  echo "ok 3 - find_package(utfx 0.1 CONFIG REQUIRED): utfx::utfx, the shared library: $out"
else
  echo "not ok 3 - find_package(utfx 0.1 CONFIG REQUIRED) consumer (shared)"
  show "$tmp/pkg.log"
fi
if consumer pkgs -DUTFX_MODE=package -DUTFX_USE_STATIC_LIBS=ON -DCMAKE_PREFIX_PATH="$tmp/prefix" &&
    ! needs_so "$tmp/pkgs/consumer"; then
  echo "ok 4 - with UTFX_USE_STATIC_LIBS=ON utfx::utfx is the static library: $out"
else
  echo "not ok 4 - find_package consumer with UTFX_USE_STATIC_LIBS=ON (static)"
  show "$tmp/pkgs.log"
fi
if ! run "$tmp/v.log" cmake -S "$root/tests/consumer" -B "$tmp/v" -DUTFX_MODE=package \
    -DUTFX_WANT_VERSION=1.0 -DCMAKE_PREFIX_PATH="$tmp/prefix" &&
    grep -q 'considered but not accepted' "$tmp/v.log"; then
  echo "ok 5 - the version file refuses find_package(utfx 1.0)"
else
  echo "not ok 5 - the version file refuses find_package(utfx 1.0)"
  show "$tmp/v.log"
fi
pc=$(ls "$tmp"/prefix/lib*/pkgconfig/utfx.pc 2> /dev/null | head -n 1)
flags=$([ -n "$pc" ] && PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs utfx 2>&1)
if [ -n "$pc" ] && $CC -std=c11 tests/consumer/main.c $flags -o "$tmp/pc-consumer" 2> "$tmp/err" &&
    LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")") "$tmp/pc-consumer" > /dev/null; then
  echo "ok 6 - the installed utfx.pc works: $flags"
else
  echo "not ok 6 - the installed utfx.pc works ($flags)"
  sed 's/^/#   /' "$tmp/err"
fi

# 7-9: a subproject, from the tree and from an archive of it. Each builds the
# library again with the same CMakeLists.txt that 1 built: CMake logic, which
# the ASan+UBSan pass (UTFX_SANITIZED=1; its clang build is checked by 1-6)
# leaves to the normal pass.
if [ -n "${UTFX_SANITIZED:-}" ]; then
  for i in 7 8 9; do echo "ok $i # SKIP add_subdirectory and FetchContent are checked in the normal pass"; done
  exit 0
fi
only_lib() { # only_lib DIR: the library was built, not the CLI; the install installs nothing
  dir=$1
  [ -e "$(find "$dir" -name libutfx.a | head -n 1)" ] && [ -z "$(find "$dir" -name utfx -type f)" ] &&
    [ -z "$(find "$dir" -name 'libutfx.so*')" ] &&
    run "$tmp/inst.log" cmake --install "$dir" --prefix "$dir-inst" &&
    [ -z "$(find "$dir-inst" -type f 2> /dev/null)" ]
}
if consumer sub -DUTFX_MODE=subdirectory -DUTFX_SOURCE="$root" && only_lib "$tmp/sub"; then
  echo "ok 7 - add_subdirectory(utfx): links utfx::utfx (static), builds only the library: $out"
else
  echo "not ok 7 - add_subdirectory(utfx) consumer"
  show "$tmp/sub.log"
fi
# (the same build tree reconfigured: only the shared library is new)
if consumer sub -DBUILD_SHARED_LIBS=ON && needs_so "$tmp/sub/consumer"; then
  echo "ok 8 - add_subdirectory with BUILD_SHARED_LIBS=ON links the shared library: $out"
else
  echo "not ok 8 - add_subdirectory with BUILD_SHARED_LIBS=ON"
  show "$tmp/sub.log"
fi
git ls-files --cached --others --exclude-standard | tar -czf "$tmp/utfx.tar.gz" -T - \
  --transform 's,^,utfx/,' 2> "$tmp/err"
if consumer fetch -DUTFX_MODE=fetchcontent -DUTFX_URL="file://$tmp/utfx.tar.gz" &&
    only_lib "$tmp/fetch"; then
  echo "ok 9 - FetchContent_Declare(utfx URL <archive of the tree>): builds only the library: $out"
else
  echo "not ok 9 - FetchContent consumer"
  show "$tmp/fetch.log"
fi
