#!/bin/sh
# Replays the checked-in fuzz corpus (fuzz/corpus/<target>/) through each fuzz
# target's standalone build ($BUILD/fuzz-replay/<target>, made by the Makefile
# with the test programs: plain or sanitized, whichever $BUILD is), so every
# `make test` re-runs the fuzzers' findings and the hand-made edge cases on
# every kernel tier. TAP output, one line per target. $FUZZ_EXEC, when set,
# runs each replay program (tests/cross/run.sh: under qemu-user).
BUILD=${BUILD:-build}
n=0
fail=0
for dir in fuzz/corpus/*/; do
  t=$(basename "$dir")
  n=$((n + 1))
  bin="$BUILD/fuzz-replay/$t"
  if [ ! -x "$bin" ]; then
    echo "not ok $n - $t: $bin not built"
    fail=1
    continue
  fi
  count=$(find "$dir" -maxdepth 1 -type f | wc -l)
  if log=$($FUZZ_EXEC "$bin" "$dir" 2>&1); then
    echo "ok $n - $t: replayed $count corpus inputs on every tier"
  else
    echo "not ok $n - $t: replay failed"
    printf '%s\n' "$log" | tail -n 20 | sed 's/^/# /'
    for f in "$dir"*; do
      [ -f "$f" ] && ! $FUZZ_EXEC "$bin" "$f" >/dev/null 2>&1 && echo "# failing input: $f"
    done | head -n 10
    fail=1
  fi
done
if [ "$n" -eq 0 ]; then
  echo "not ok 1 - no fuzz corpus found under fuzz/corpus/ (run from the repository root)"
  n=1
fi
echo "1..$n"
exit $fail
