#!/bin/sh
# Before/after benchmark of two revisions of utfx, like Node's
# benchmark/compare.js: both libraries are built, each linked with the
# harness of the *current* tree (so only the library differs), then run
# alternately, ROUNDS times each; every row prints its change with a Welch
# t-test confidence (* p < 0.05, ** p < 0.01, *** p < 0.001).
# The harness is compiled once and linked with each library as one bundle
# whose code and data start on pages (bench/bundle.ld), so both binaries
# run the same harness bytes at the same page offsets; only the kernel probe
# (which reads a library's internals) is built per side.
#
#   bench/compare.sh [-r ROUNDS] [-k LAYOUTS] OLD NEW [utfx-bench options...]
#
# -k K links each side K times in K code layouts (layout 0 as without -k;
# layout k > 0 links the library compiled with -ffunction-sections, its
# functions reordered inside each object and its objects reordered, both by
# hashes seeded with k, after a pad of 64 * (37k mod 256) bytes of code and of
# read-only data; the same K layouts on both sides) and runs layout r % K in round r
# (ROUNDS at least 2K; a multiple of K): each row's change is then the mean
# over layouts, tested with the layouts as samples, and `spr` is the spread
# of a side's layout means. Use it for short calls, whose speed can move a few
# % with the code's addresses alone (docs/perf-decisions.md, 'Code layout').
#
# OLD and NEW are git revisions (main, HEAD~1, a sha...) or "." for the
# working tree as it is now (uncommitted changes included). Example:
#   bench/compare.sh main . --suite kernels --func 'convert_utf8_*' --quick
# Builds go to build/compare/ (BUILD_ROOT); revisions are exported with
# `git archive`, so no worktree or checkout is touched.
set -eu

rounds=6
layouts=1
while [ $# -ge 2 ]; do
  case $1 in
    -r) rounds=$2 ;;
    -k) layouts=$2 ;;
    *) break ;;
  esac
  shift 2
done
if [ $# -lt 2 ]; then
  sed -n '2,30s/^# \{0,1\}//p' "$0"
  exit 2
fi
old=$1
new=$2
shift 2

top=$(git rev-parse --show-toplevel)
cd "$top"
root=${BUILD_ROOT:-$top/build/compare}
mkdir -p "$root"
root=$(cd "$root" && pwd) # (make -C: relative paths would move)
jobs=${JOBS:-2}

# The one harness: every harness object of this tree, as one bundle.
bundle=$root/harness/obj/bench/bundle.o
make -s -j"$jobs" "$bundle" BUILD="$root/harness" >&2

# build REV DIR: the library of REV in DIR/build, its binary in DIR/bench:
# the bundle, REV's kernel probe and library. A library without a function
# this tree's harness calls (an old revision) gets a harness of its own,
# compiled against its headers, as before the bundle (said on stderr).
build() {
  rev=$1
  dir=$2
  if [ "$rev" = "." ]; then
    src=$top
  else
    src=$dir/src
    rm -rf "$src"
    mkdir -p "$src"
    git archive --format=tar "$rev" | tar -x -C "$src"
  fi
  echo "compare: building $rev in $dir" >&2
  make -s -C "$src" -j"$jobs" lib BUILD="$dir/build" >&2
  if [ "$layouts" -gt 1 ]; then
    make -s -C "$src" -j"$jobs" lib BUILD="$dir/build-fs" \
      EXTRA_FLAGS="${EXTRA_FLAGS:-} -ffunction-sections" >&2
  fi
  own=
  bins=
  k=0
  while [ $k -lt "$layouts" ]; do
    lib=$dir/build/libutfx.a
    pad=
    if [ $k -gt 0 ]; then
      layout "$k" "$dir/layout-$k"
      lib=$dir/layout-$k/libutfx.a
      pad=$dir/layout-$k/pad.o
    fi
    link "$dir" "$src" "$lib" "$pad"
    bin=$dir/bench/utfx-bench
    if [ "$layouts" -gt 1 ]; then
      mv "$bin" "$bin.$k"
      bin=$bin.$k
    fi
    bins=${bins:+$bins,}$bin
    k=$((k + 1))
  done
  if [ -n "$own" ]; then
    echo "compare: $rev does not link with this tree's harness; it gets its own" \
      "(the harness's placement then differs between the sides)" >&2
  fi
}

# layout K DIR: layout K's pad object and library in DIR. The library is
# the -ffunction-sections build: in each object, `ld -r` joins the functions'
# sections into one .text in the order of a hash seeded with K (so the code
# moves inside its object too, each function keeping its own alignment, and
# its neighbours change); .text.unlikely/.hot/.startup/.exit stay apart as
# the linker groups them. The objects then go into the archive in the order
# of another hash seeded with K.
shuffle() { # shuffle K: stdin's lines in the order of a hash seeded with K
  while read -r l; do
    echo "$(printf '%s %s' "$1" "$l" | cksum | cut -d' ' -f1) $l"
  done | sort -n | cut -d' ' -f2
}
syms() { # the functions of object $1 with their sizes, sorted
  ${NM:-nm} -S --defined-only "$1" | awk '$3 ~ /^[tT]$/ { print $4, $2 }' | sort
}
layout() {
  rm -rf "$2"
  mkdir -p "$2/obj" "$2/fs"
  pad=$((64 * ($1 * 37 % 256)))
  printf '.section .text.utfx_pad,"ax",@progbits\n.skip %d,0xcc\n.section .rodata.utfx_pad,"a"\n.skip %d\n.section .note.GNU-stack,"",@progbits\n' \
    "$pad" "$pad" | ${CC:-cc} -c -x assembler -o "$2/pad.o" -
  (cd "$2/fs" && ar x "$dir/build-fs/libutfx.a")
  for m in $(ar t "$dir/build-fs/libutfx.a"); do
    {
      printf 'SECTIONS {\n  .text 0 : {\n'
      ${READELF:-readelf} -SW "$2/fs/$m" | sed -n 's/^ *\[ *[0-9]*\] \(\.text\.[^ ]*\) .*/\1/p' |
        grep -v '^\.text\.\(unlikely\|hot\|startup\|exit\)\(\.\|$\)' |
        shuffle "$1" | sed 's/.*/    *(&)/'
      printf '    *(.text)\n  }\n}\n'
    } >"$2/fs/$m.ld"
    ${LD:-ld} -r -T "$2/fs/$m.ld" -o "$2/obj/$m" "$2/fs/$m"
    if [ "$(syms "$2/fs/$m")" != "$(syms "$2/obj/$m")" ]; then
      echo "compare: layout $1: $m's functions changed in the reorder" >&2
      exit 1
    fi
  done
  (cd "$2/obj" && ar t "$dir/build-fs/libutfx.a" | shuffle "$1" | xargs ar rcs ../libutfx.a)
}

# link DIR SRC LIB PAD: DIR/bench/utfx-bench, the bundle (or, when SRC's
# library lacks a function the harness calls, a harness of SRC's own) with
# SRC's kernel probe, PAD and LIB.
link() {
  set -- "$1/bench/utfx-bench" BUILD="$1/bench" BENCH_LIB="$3" BENCH_PAD="$4" \
    BENCH_INCLUDE="$2/include" BENCH_INTERNAL="$2/src"
  rm -f "$1" # (linked from the bundle or not: make cannot tell)
  if [ -n "$own" ] ||
    ! make -s -j"$jobs" "$@" BENCH_BUNDLE="$bundle" >"$dir/link.log" 2>&1; then
    [ -n "$own" ] || cat "$dir/link.log" >&2
    own=1
    make -s -j"$jobs" "$@" >&2
  fi
}

name() { # a directory name for a revision
  if [ "$1" = "." ]; then echo worktree; else
    echo "$1-$(git rev-parse --short "$1^{commit}")" | tr '/~^:' '____'
  fi
}

old_dir=$root/old-$(name "$old")
new_dir=$root/new-$(name "$new")
build "$old" "$old_dir"
build_old_bins=$bins
build "$new" "$new_dir"
exec "${bins%%,*}" --compare "$build_old_bins" "$bins" --rounds "$rounds" "$@"
