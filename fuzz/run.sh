#!/bin/sh
# Runs libFuzzer targets for a fixed time each, one process at a time (one
# core), or two at a time with FUZZ_JOBS=2 (the targets split in two lists,
# each run as above; their lines printed when both are done), and fails on a
# finding.
#   fuzz/run.sh BUILD SECONDS TARGET...
# SECONDS 0 means no time limit (then FUZZ_FLAGS should hold -runs=N);
# FUZZ_FLAGS (environment) is passed on to every target after the defaults
# (so it can override them), e.g. -max_len=256;
# a TARGET written NAME=RUNS also gets -runs=RUNS.
# Each BUILD/fuzz/TARGET starts from fuzz/corpus/TARGET (read only) and
# BUILD/fuzz/corpus-TARGET (new inputs go there); its full log is
# BUILD/fuzz/TARGET.log, a crash or sanitizer report is saved as
# BUILD/fuzz/TARGET-crash-* (libFuzzer's artifact). Prints one line per
# target (executions, rate, new inputs) and, on a finding, the report's
# first 40 lines and the failing input's name; exits 1 then. Output is
# bounded whatever the fuzzer prints.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD SECONDS TARGET..." >&2
  exit 2
fi
build=$1
seconds=$2
shift 2
if [ "${FUZZ_JOBS:-1}" = 2 ] && [ $# -gt 1 ]; then
  first= second= i=0
  for spec in "$@"; do
    if [ $((i % 2)) -eq 0 ]; then first="$first $spec"; else second="$second $spec"; fi
    i=$((i + 1))
  done
  mkdir -p "$build/fuzz"
  # shellcheck disable=SC2086 # the lists split into targets on purpose
  FUZZ_JOBS=1 "$0" "$build" "$seconds" $first >"$build/fuzz/run-1.out" 2>&1 &
  pid=$!
  # shellcheck disable=SC2086
  FUZZ_JOBS=1 "$0" "$build" "$seconds" $second >"$build/fuzz/run-2.out" 2>&1
  status2=$?
  wait "$pid"
  status1=$?
  cat "$build/fuzz/run-1.out" "$build/fuzz/run-2.out"
  [ "$status1" -gt "$status2" ] && exit "$status1"
  exit "$status2"
fi
status=0
for spec in "$@"; do
  t=${spec%%=*}
  runs_flag=
  [ "$t" != "$spec" ] && runs_flag="-runs=${spec#*=}"
  bin="$build/fuzz/$t"
  log="$build/fuzz/$t.log"
  if [ ! -x "$bin" ]; then
    echo "fuzz: $t: $bin not built" >&2
    exit 2
  fi
  mkdir -p "$build/fuzz/corpus-$t"
  seeds=
  [ -d "fuzz/corpus/$t" ] && seeds="fuzz/corpus/$t"
  # -timeout: an input that runs 10 s is a finding; -rss_limit_mb bounds memory.
  limit=
  [ "$seconds" != 0 ] && limit="-max_total_time=$seconds"
  start=$(date +%s)
  # shellcheck disable=SC2086 # $limit, $runs_flag, $FUZZ_FLAGS: flags or nothing; $seeds: a directory or nothing
  "$bin" $limit $runs_flag -timeout=10 -rss_limit_mb=2048 ${FUZZ_FLAGS:-} -print_final_stats=1 \
    -artifact_prefix="$build/fuzz/$t-" "$build/fuzz/corpus-$t" $seeds >"$log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz: $t: ${runs:-?} executions in $took s (${rate:-?}/s), ${added:-0} new inputs, no findings"
  else
    echo "fuzz: $t: FINDING (exit $rc) after ${runs:-?} executions; report (first 40 lines of $log):"
    grep -m 1 -n -E 'ERROR|runtime error|utfx fuzz|deadly signal|timeout' "$log" >/dev/null &&
      sed -n "$(grep -m 1 -n -E 'ERROR|runtime error|utfx fuzz|deadly signal|timeout' "$log" |
        cut -d: -f1),+39p" "$log" | cut -c1-300
    grep -E "^artifact_prefix|Test unit written" "$log" | head -n 2 | cut -c1-300
    status=1
  fi
done
exit $status
