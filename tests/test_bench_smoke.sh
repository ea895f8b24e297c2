#!/bin/sh
# Smoke test of the benchmark harness (bench/): every suite runs once on tiny
# inputs and writes rows to its CSV, the statistics pass their self-test, and
# the compare modes run. No timing is checked: this only keeps the harness
# from rotting. The binary comes from `make test-build` ($BUILD/utfx-bench).
BUILD=${BUILD:-build}
BIN=$BUILD/utfx-bench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { # description, command...
  desc=$1
  shift
  if "$@" >"$TMP/out" 2>&1; then ok "$desc"; else not_ok "$desc"; sed 's/^/# /' "$TMP/out"; fi
}
rows() { # csv file, prefix: count of data rows whose line starts with prefix
  grep -c "^$2" "$1" 2>/dev/null || true
}

if [ ! -x "$BIN" ]; then
  echo "1..1"
  echo "not ok 1 - $BIN is missing (make test-build builds it)"
  exit 1
fi

check "statistics self-test (t distribution, Welch, median)" "$BIN" --selftest

check "kernel suite, tiny inputs" "$BIN" --tiny --suite kernels --csv "$TMP/k.csv" \
  --raw "$TMP/k-raw.csv" --plot-data "$TMP/k.tsv"
if [ "$(rows "$TMP/k.csv" kernels,)" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" kernels,.*,memcpy,)" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" kernels,.*,utfx-scalar,)" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" kernels,.*,icu,)" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" kernels,.*,iconv,)" -gt 0 ]; then
  ok "kernel CSV has memcpy, utfx-scalar, icu and iconv rows"
else
  not_ok "kernel CSV has memcpy, utfx-scalar, icu and iconv rows"
fi
# The limit (bench/limit.c): its three timings, and every kernel row's fraction
# of it (validate_utf8 writes nothing: no limit-write or limit-rw row).
if [ "$(rows "$TMP/k.csv" 'kernels,convert_utf8_to_utf16le/[^,]*,limit-write,')" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" 'kernels,convert_utf8_to_utf16le/[^,]*,limit-rw,')" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" 'kernels,validate_utf8/[^,]*,limit-write,')" -eq 0 ] \
   && [ "$(rows "$TMP/k.csv" 'kernels,validate_utf8/[^,]*,limit-rw,')" -eq 0 ] \
   && [ "$(rows "$TMP/k.csv" 'kernels,.*,limit-read,.*,[0-9.]*,[0-9.]*$')" -gt 0 ] \
   && [ "$(rows "$TMP/k.csv" 'kernels,.*,utfx-scalar,.*,[0-9.][0-9.]*,[0-9.][0-9.]*$')" -gt 0 ]
then ok "kernel CSV has the limit's rows and each row's fraction of it"
else not_ok "kernel CSV has the limit's rows and each row's fraction of it"; fi
if grep -q '^# funcs: validate_utf8' "$TMP/k.tsv" && [ "$(rows "$TMP/k-raw.csv" kernels,)" -gt 0 ]
then ok "plot data and raw samples written"; else not_ok "plot data and raw samples written"; fi

check "small suite, tiny inputs" "$BIN" --tiny --suite small --func 'validate_utf8,convert_utf8_to_utf16le' \
  --small-lengths 0-2,33 --csv "$TMP/s.csv"
if [ "$(rows "$TMP/s.csv" small,convert_utf8_to_utf16le/Mixed/n=2,utfx-scalar,)" -eq 1 ] \
   && grep -q '^suite,.*,cpu,compiler,limit_gbps,of_limit$' "$TMP/s.csv"; then
  ok "small CSV has the rows, and the CPU and compiler columns"
else
  not_ok "small CSV has the rows, and the CPU and compiler columns"
fi

check "encode suite, tiny inputs" "$BIN" --tiny --suite encode --csv "$TMP/e.csv"
if [ "$(rows "$TMP/e.csv" encode,lone/len=16/dst=short,utfx-scalar,)" -eq 1 ]; then
  ok "encode CSV has the grid rows"
else
  not_ok "encode CSV has the grid rows"
fi

check "decode suite, tiny inputs" "$BIN" --tiny --suite decode --csv "$TMP/d.csv"
if grep -q '^#define UTFX_DECODER' include/utfx.h 2>/dev/null; then
  if [ "$(rows "$TMP/d.csv" decode,utf8/in=32/chunk=16,utfx-scalar,)" -eq 1 ]; then
    ok "decode CSV has the grid rows"
  else
    not_ok "decode CSV has the grid rows"
  fi
else
  skip "the streaming decoder is not built yet"
fi

if command -v node >/dev/null 2>&1; then
  check "node suite, tiny inputs" "$BIN" --tiny --suite node --func 'utf8,bmp' --csv "$TMP/n.csv"
  if [ "$(rows "$TMP/n.csv" decode,utf8/in=32/chunk=16,node-StringDecoder,)" -eq 1 ] \
     && [ "$(rows "$TMP/n.csv" encode,bmp/len=16/dst=3x,node-write,)" -eq 1 ]; then
    ok "node rows parsed into the decode and encode tables"
  else
    not_ok "node rows parsed into the decode and encode tables"
  fi
else
  skip "node is not installed"
  skip "node is not installed"
fi

# --processes: the batches of three fresh processes, pooled (--tiny: one each).
check "kernels in three processes" "$BIN" --tiny --suite kernels --func validate_utf8 \
  --input ASCII --impl utfx-scalar --processes 3 --csv "$TMP/p.csv"
if [ "$(cut -d, -f1,3,6 "$TMP/p.csv" | grep -c '^kernels,utfx-scalar,3$')" -eq 1 ]; then
  ok "--processes 3 pools three processes' batches"
else
  not_ok "--processes 3 pools three processes' batches"
  sed 's/^/# /' "$TMP/p.csv"
fi

check "compare two result files" "$BIN" --compare-csv "$TMP/e.csv" "$TMP/e.csv"
# compare_check WHAT OLD NEW ROUNDS ROW_REGEX FOOTER: a compare of one encode
# row, its row and footer in the table.
compare_check() {
  check "compare $1" "$BIN" --compare "$2" "$3" --rounds "$4" --tiny \
    --suite encode --func bmp --input 'len=16/*'
  if grep -q "$5" "$TMP/out" && grep -q "$6" "$TMP/out"; then
    ok "compare $1: each row with its change"
  else
    not_ok "compare $1: each row with its change"
    sed 's/^/# /' "$TMP/out"
  fi
}
compare_check "two binaries, interleaved" "$BIN" "$BIN" 2 'bmp/len=16/dst=exact,utfx-scalar' Welch
compare_check "two lists of layouts" "$BIN,$BIN" "$BIN,$BIN" 4 \
  'bmp/len=16/dst=exact,utfx-scalar.* 2/2 ' 'layout means'

echo "1..$n"
[ "$fails" -eq 0 ]
