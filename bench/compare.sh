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
#   bench/compare.sh [-r ROUNDS] OLD NEW [utfx-bench options...]
#
# OLD and NEW are git revisions (main, HEAD~1, a sha...) or "." for the
# working tree as it is now (uncommitted changes included). Example:
#   bench/compare.sh main . --suite kernels --func 'convert_utf8_*' --quick
# Builds go to build/compare/ (BUILD_ROOT); revisions are exported with
# `git archive`, so no worktree or checkout is touched.
set -eu

rounds=6
if [ "${1:-}" = "-r" ]; then
  rounds=$2
  shift 2
fi
if [ $# -lt 2 ]; then
  sed -n '2,19s/^# \{0,1\}//p' "$0"
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
  set -- "$dir/bench/utfx-bench" BUILD="$dir/bench" \
    BENCH_LIB="$dir/build/libutfx.a" BENCH_INCLUDE="$src/include" \
    BENCH_INTERNAL="$src/src"
  rm -f "$1" # (linked from the bundle or not: make cannot tell)
  if ! make -s -j"$jobs" "$@" BENCH_BUNDLE="$bundle" >"$dir/link.log" 2>&1; then
    cat "$dir/link.log" >&2
    echo "compare: $rev does not link with this tree's harness; it gets its own" \
      "(the harness's placement then differs between the sides)" >&2
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
build "$new" "$new_dir"
exec "$new_dir/bench/utfx-bench" --compare "$old_dir/bench/utfx-bench" \
  "$new_dir/bench/utfx-bench" --rounds "$rounds" "$@"
