#!/bin/sh
# The single-file build ($BUILD/amalg/utfx.c, what `make amalgamate` writes to
# dist/): gcc and clang compile it with the project's warnings as errors, and
# with no flags at all; it defines exactly the library's global symbols and
# exports only utfx_*; every function of it that touches YMM/ZMM registers
# has a vzeroupper (the target pragmas must not lose what per-file flags
# give); it builds without the SIMD tiers (UTFX_NO_SIMD, as on other CPUs).
# The C test programs run against it as $BUILD/amalg/tests/* (Makefile).
# Speaks TAP.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
src=$BUILD/amalg/utfx.c
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..6"

warn=$(printf 'w:\n\t@echo $(UTFX_WARN)\n' |
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -f sources.mk -f - w)
# The ASan+UBSan pass (UTFX_SANITIZED=1) generates the same file from the same
# sources and would compile it with the same gcc and clang and flags as the
# normal pass: checks 1-5 are the normal pass's (skipped here); check 6 runs
# with the pass's compiler (clang there, gcc in the normal pass).
if [ -n "${UTFX_SANITIZED:-}" ]; then
  for n in 1 2 3 4 5; do
    echo "ok $n # SKIP the normal pass compiles the same $src with the same compilers"
  done
else
  n=0
  compiled=
  for cc in gcc clang; do
    n=$((n + 1))
    if ! command -v $cc > /dev/null 2>&1; then
      echo "not ok $n - $cc compiles $src: $cc not found"
      continue
    fi
    if $cc -std=c11 $warn -Werror -O2 -c "$src" -o "$tmp/$cc.o" 2> "$tmp/err" &&
        $cc -O2 -c "$src" -o "$tmp/$cc-plain.o" 2>> "$tmp/err" &&
        [ ! -s "$tmp/err" ]; then
      echo "ok $n - $cc compiles $src: project warnings as errors, and plain -O2 without a warning"
      compiled="$compiled $cc"
    else
      echo "not ok $n - $cc compiles $src without warnings"
      head -n 40 "$tmp/err" | sed 's/^/#   /'
    fi
  done

  # The same global symbols as the library; only utfx_* visible.
  syms() { nm -g --defined-only "$1" | awk 'NF >= 3 && $3 ~ /^utfxi?_/ { print $3 }' | sort -u; }
  if [ -e "$tmp/gcc.o" ] && [ -e "$BUILD/libutfx.a" ] &&
      syms "$BUILD/libutfx.a" > "$tmp/lib.syms" && syms "$tmp/gcc.o" > "$tmp/am.syms" &&
      cmp -s "$tmp/lib.syms" "$tmp/am.syms"; then
    visible=$(readelf -sW "$tmp/gcc.o" |
      awk '$5 == "GLOBAL" && $7 != "UND" && $6 != "HIDDEN" && $8 !~ /^utfx_/ { print $8 }')
    if [ -z "$visible" ]; then
      echo "ok 3 - the same $(wc -l < "$tmp/am.syms") global symbols as $BUILD/libutfx.a; only utfx_* not hidden"
    else
      echo "not ok 3 - internal symbols not hidden"
      printf '%s\n' "$visible" | head -n 20 | sed 's/^/#   /'
    fi
  else
    echo "not ok 3 - the same global symbols as $BUILD/libutfx.a"
    diff "$tmp/lib.syms" "$tmp/am.syms" 2>&1 | head -n 20 | sed 's/^/#   /'
  fi

  # Every function using YMM/ZMM registers clears the upper state somewhere
  # (gcc drops vzeroupper around calls into the same file under -fipa-ra unless
  # the target region turns that off; this is what would catch it).
  n=3
  for cc in gcc clang; do
    n=$((n + 1))
    if [ ! -e "$tmp/$cc.o" ]; then echo "not ok $n - $cc: vzeroupper (not compiled)"; continue; fi
    objdump -d --no-show-raw-insn "$tmp/$cc.o" | awk '
      /^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f) }
      /%[yz]mm/ { wide[f] = 1 }
      /vzeroupper/ { vz[f] = 1 }
      END { for (f in wide) { total++; if (!(f in vz)) print f }; print total > "/dev/stderr" }' \
      > "$tmp/novz" 2> "$tmp/nwide"
    if [ ! -s "$tmp/novz" ] && [ "$(cat "$tmp/nwide")" -gt 0 ]; then
      echo "ok $n - $cc: all $(cat "$tmp/nwide") functions using YMM/ZMM have a vzeroupper"
    else
      echo "not ok $n - $cc: functions using YMM/ZMM without vzeroupper"
      head -n 20 "$tmp/novz" | sed 's/^/#   /'
    fi
  done

fi

cc=${CC:-cc}
if $cc -std=c11 $warn -Werror -O2 -DUTFX_NO_SIMD -c "$src" -o "$tmp/nosimd.o" 2> "$tmp/err" &&
    ! nm "$tmp/nosimd.o" | grep -q '_avx'; then
  echo "ok 6 - without the SIMD tiers (-DUTFX_NO_SIMD) it compiles to the scalar tier alone"
else
  echo "not ok 6 - -DUTFX_NO_SIMD build"
  head -n 20 "$tmp/err" | sed 's/^/#   /'
fi
