#!/usr/bin/env bash
# Tests of the utfx command-line tool (TAP, run by prove from the repo root
# with BUILD in the environment; the binary is $BUILD/utfx).
#
# Golden cases: tests/cli/golden/NAME.txt holds a command, its stdout, stderr
# and exit status. Re-record them all with
#     UTFX_CLI_RECORD=1 BUILD=build tests/test_cli.sh
# and review the diff. Property tests below check invariants directly:
# chunking (UTFX_CLI_CHUNK) never changes a result, atomic output, signals,
# SIGPIPE, progress only on a terminal.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
UTFX=$BUILD/utfx
GOLDEN=$ROOT/tests/cli/golden
RECORD=${UTFX_CLI_RECORD:-}
unset UTFX_CLI_CHUNK UTFX_IMPL

T=$(mktemp -d "${TMPDIR:-/tmp}/utfx-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin" "$T/w"
ln -s "$UTFX" "$T/bin/utfx"
export PATH="$T/bin:$PATH" LC_ALL=C
umask 022

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
  n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift
  for line in "$@"; do echo "#   $line"; done
}
check() { # DESCRIPTION COMMAND...: ok when the command succeeds
  local desc=$1; shift
  if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
check_bad() { # DESCRIPTION [HOW MANY]: ok when the array bad is empty, else list its first ones
  if [ ${#bad[@]} -eq 0 ]; then ok "$1"; else not_ok "$1" "${bad[@]:0:${2:-10}}"; fi
}

if [ ! -x "$UTFX" ]; then
  echo "1..1"; echo "not ok 1 - $UTFX not built"; exit 1
fi

# ---------------------------------------------------------------- fixtures
cd "$T/w"
printf 'h\303\251llo w\303\266rld\nzweite Zeile\n' > ok.txt
{ printf 'Ru: \320\277\321\200\320\270\320\262\320\265\321\202\n'
  printf 'Zh: \344\270\255\346\226\207\nEmoji: \360\237\230\200\360\237\232\200\n'; } > multi.txt
: > empty.txt
printf 'line one\nab\340\200cd\n' > bad-e080.txt
printf 'end\360\237\230' > truncated.txt
printf '\300\257 a \377 b \342\202A \364\220\200\200\n\200x\355\240\200\n' > many-bad.txt
printf 'price: 5 \342\202\254\n' > euro.txt
printf 'caf\351\n' > latin1.txt
printf '\357\273\277bom\n' > utf8-bom.txt
printf '\377\376h\000i\000\n\000' > utf16le-bom.txt
printf '\376\377\000h\000i\000\n' > utf16be-bom.txt
printf 'A\000\000\330B\000' > utf16-lone.txt
printf 'A\000B' > utf16-odd.txt
printf 'A\000\000\000\000\000\021\000\000\330\000\000' > utf32-bad.txt
printf '\000\000\376\377\000\000\000h\000\001\366\000' > utf32be-bom.txt

# ---------------------------------------------------------------- golden
section() { # FILE: its bytes, with a marker when the last line has no LF
  cat "$1"
  if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')" != "0a" ]; then
    printf '\n(no newline at end)\n'
  fi
}

golden() { # NAME 'COMMAND' (bash, run in the fixture directory)
  local name=$1 cmd=$2 rc file=$GOLDEN/$1.txt
  (cd "$T/w" && bash -o pipefail -c "$cmd" > "$T/out" 2> "$T/err")
  rc=$?
  {
    printf '$ %s\n--- stdout\n' "$cmd"
    section "$T/out"
    printf -- '--- stderr\n'
    section "$T/err"
    printf -- '--- exit %d\n' "$rc"
  } > "$T/actual"
  if [ -n "$RECORD" ]; then
    mkdir -p "$GOLDEN"
    cp "$T/actual" "$file"
    ok "golden $name (recorded)"
  elif [ ! -f "$file" ]; then
    not_ok "golden $name" "missing $file (record with UTFX_CLI_RECORD=1)"
  elif cmp -s "$T/actual" "$file"; then
    ok "golden $name"
  else
    local diffs=()
    while IFS= read -r line; do diffs+=("$line"); done < <(diff "$file" "$T/actual" | head -20)
    not_ok "golden $name" "${diffs[@]}"
  fi
}
hex='od -An -tx1 -v'

golden help 'utfx --help'
golden help-convert 'utfx convert --help'
golden help-validate 'utfx help validate'
golden help-count 'utfx count -h'
golden help-info 'utfx info --help'
golden help-bench 'utfx bench --help'
golden help-base64 'utfx base64 --help'
golden version 'utfx --version'
golden no-arguments 'utfx'
golden unknown-command 'utfx frobnicate'
golden unknown-top-option 'utfx --frob'

golden convert-utf16le "utfx convert -t utf-16le ok.txt | $hex"
golden convert-aliases "utfx convert -f UTF8 -t UTF_16BE < ok.txt | $hex"
golden convert-utf32be "utfx convert -t utf-32be multi.txt | $hex"
golden convert-utf32le-to-utf8 'utfx convert -t utf-32le multi.txt | utfx convert -f UTF-32LE'
golden convert-from-latin1 'utfx convert -f ISO-8859-1 latin1.txt'
golden convert-to-latin1 "utfx convert -t latin1 ok.txt | $hex"
golden convert-unencodable-latin1 "utfx convert -t latin1 euro.txt | $hex"
golden convert-unencodable-replace "utfx convert -r -t l1 euro.txt | $hex"
golden convert-strict-e080 'utfx convert bad-e080.txt'
golden convert-strict-truncated 'utfx convert truncated.txt'
golden convert-replace "utfx convert --replace -t utf-16le many-bad.txt | $hex"
golden convert-replace-utf8 "utfx convert -r many-bad.txt | $hex"
golden convert-replace-quiet "utfx convert -r -q many-bad.txt | wc -c"
golden convert-utf16-lone 'utfx convert -f utf-16le utf16-lone.txt'
golden convert-utf16-lone-replace "utfx convert -r -f utf-16le utf16-lone.txt | $hex"
golden convert-utf16-odd 'utfx convert -f utf-16le utf16-odd.txt'
golden convert-utf32-invalid 'utfx convert -f utf-32le utf32-bad.txt'
golden convert-utf32-invalid-replace "utfx convert -r -f utf-32le utf32-bad.txt | $hex"
golden convert-detect-utf16le 'utfx convert utf16le-bom.txt'
golden convert-detect-utf16be 'utfx convert -f utf-16 utf16be-bom.txt'
golden convert-detect-utf32be "utfx convert utf32be-bom.txt | $hex"
golden convert-detect-utf8 "utfx convert -t utf-16le utf8-bom.txt | $hex"
golden convert-explicit-keeps-bom "utfx convert -f utf-8 -t utf-16le utf8-bom.txt | $hex"
golden convert-strip-bom "utfx convert -f utf-8 --strip-bom utf8-bom.txt | $hex"
golden convert-to-generic-utf16 "utfx convert -t utf-16 ok.txt | $hex"
golden convert-bom "utfx convert --bom -f utf-8 utf8-bom.txt ok.txt | $hex"
golden convert-several-files 'utfx convert -f latin1 latin1.txt - latin1.txt < latin1.txt'
golden convert-empty "utfx convert -t utf-16le empty.txt | $hex; utfx convert < /dev/null | wc -c"
golden convert-missing-file 'utfx convert ok.txt missing.txt'
golden convert-directory 'utfx convert .'
golden convert-unknown-encoding 'utfx convert -f ebcdic ok.txt'
golden convert-unknown-option 'utfx convert --frob ok.txt'
golden convert-missing-argument 'utfx convert ok.txt -t'
golden convert-bom-contradiction 'utfx convert --bom --strip-bom ok.txt'
golden convert-latin1-bom 'utfx convert --bom -t latin1 ok.txt'
golden convert-in-place-stdin 'utfx convert -i'
golden convert-disk-full 'utfx convert ok.txt > /dev/full'
golden convert-output-directory 'utfx convert -o . ok.txt'
golden convert-bad-threads 'utfx convert -j x ok.txt; utfx validate --threads=-1 ok.txt'

golden validate-valid \
  'utfx validate ok.txt multi.txt empty.txt && utfx validate -f latin1 latin1.txt < /dev/null'
golden validate-invalid 'utfx validate ok.txt bad-e080.txt truncated.txt many-bad.txt'
golden validate-all 'utfx validate --all many-bad.txt bad-e080.txt'
golden validate-quiet 'utfx validate -q many-bad.txt ok.txt'
golden validate-utf16 'utfx validate -f utf-16le utf16-lone.txt utf16-odd.txt'
golden validate-utf32 'utfx validate --all -f utf-32le utf32-bad.txt'
golden validate-stdin 'utfx validate < bad-e080.txt'
golden validate-stdin-offset '{ dd bs=1 count=9 of=/dev/null status=none; utfx validate; } < bad-e080.txt'
golden validate-pipe 'cat ok.txt bad-e080.txt | utfx validate'
golden validate-missing 'utfx validate bad-e080.txt missing.txt ok.txt'
golden validate-latin1-always 'utfx validate -f latin1 many-bad.txt'

golden count 'utfx count ok.txt multi.txt many-bad.txt empty.txt'
golden count-stdin 'utfx count < multi.txt'
golden count-select 'utfx count -l -c ok.txt multi.txt'
golden count-utf16 'utfx count utf16le-bom.txt utf32be-bom.txt utf16-odd.txt'
golden count-missing 'utfx count ok.txt missing.txt'
golden base64-encode 'utfx base64 multi.txt'
golden base64-encode-wrap 'utfx base64 -w 10 ok.txt; utfx base64 -w 0 ok.txt; echo; utfx base64 < empty.txt | wc -c'
golden base64-encode-url "printf '\\373\\377\\277\\373' | utfx base64 --url; printf '\\373\\377' | utfx base64"
golden base64-decode 'utfx base64 multi.txt | utfx base64 -d'
golden base64-decode-concatenated "printf 'YQ==Yg==\\nYw' | utfx base64 -d | $hex"
golden base64-decode-invalid "printf 'YWJj\\nYW Jj' | utfx base64 -d"
golden base64-decode-garbage "printf 'YW*Jj\\r\\nYQ=*=' | utfx base64 -d -i"
golden base64-decode-url "printf -- '-_-_+/' | utfx base64 -d --url | $hex"
golden base64-bad-wrap 'utfx base64 -w x ok.txt'
golden base64-extra-operand 'utfx base64 ok.txt multi.txt'
golden info-argument 'utfx info extra'
golden bench-bad-impl 'utfx bench --impl nonsense'

# ---------------------------------------------------------------- help fits a screen
for cmd in "" convert validate count base64 info bench; do
  utfx $cmd --help > help.out
  check "'utfx $cmd --help' fits 24x80" \
    awk 'length($0) > 80 { bad = 1 } END { exit bad || NR > 24 }' help.out
done

# ---------------------------------------------------------------- chunking
# The result of any chunking equals the one-shot conversion (the default
# chunk is far larger than these files), for every pair of encodings, in both
# modes, with invalid sequences at every place relative to chunk boundaries.
{ cat multi.txt many-bad.txt ok.txt bad-e080.txt multi.txt; printf '\360\237\230'; } > mix.utf8
encs="utf-8 utf-16le utf-16be utf-32le utf-32be latin1"
for e in $encs; do
  utfx convert -r -q -t "$e" mix.utf8 > "mix.$e" 2> /dev/null
done
# Bad UTF-16/32 too: a lone surrogate and an odd trailing byte.
printf '\000\330A\000\000\334' >> mix.utf-16le
printf '\330\000\000A\334\000' >> mix.utf-16be
printf '\000\330\000\000\377\377\021\000' >> mix.utf-32le
# The one-shot results (the default chunk holds the whole file), then the
# same runs with small chunks.
for f in $encs; do
  for t in $encs; do
    for mode in strict replace; do
      utfx convert --$mode -f "$f" -t "$t" "mix.$f" > "one.$f.$t.$mode" 2>&1
      echo $? >> "one.$f.$t.$mode"
    done
  done
  utfx validate --all -f "$f" "mix.$f" > "one.$f.validate" 2>&1
  utfx count -f "$f" "mix.$f" > "one.$f.count" 2>&1
done
for c in 4 5 7 11 64; do
  bad=()
  for f in $encs; do
    for t in $encs; do
      for mode in strict replace; do
        UTFX_CLI_CHUNK=$c utfx convert --$mode -f "$f" -t "$t" "mix.$f" > chunk.out 2>&1
        echo $? >> chunk.out
        cmp -s "one.$f.$t.$mode" chunk.out || bad+=("$mode $f -> $t")
      done
    done
    UTFX_CLI_CHUNK=$c utfx validate --all -f "$f" "mix.$f" > chunk.out 2>&1
    cmp -s "one.$f.validate" chunk.out || bad+=("validate $f")
    UTFX_CLI_CHUNK=$c utfx count -f "$f" "mix.$f" > chunk.out 2>&1
    cmp -s "one.$f.count" chunk.out || bad+=("count $f")
  done
  check_bad "chunk size $c: every pair and mode equals one-shot"
done

# Strict messages: a pipe (positions kept while reading) says the same as a
# regular file (positions found by re-reading after the error).
bad=()
for f in $encs; do
  for t in utf-8 latin1; do
    cat "mix.$f" | UTFX_CLI_CHUNK=5 utfx convert -f "$f" -t "$t" > chunk.out 2>&1
    echo $? >> chunk.out
    sed "s/<stdin>:/mix.$f:/" chunk.out | cmp -s "one.$f.$t.strict" - || bad+=("convert $f -> $t")
  done
  utfx validate -f "$f" "mix.$f" > one.err 2>&1
  cat "mix.$f" | UTFX_CLI_CHUNK=6 utfx validate -f "$f" > chunk.out 2>&1
  sed "s/<stdin>:/mix.$f:/" chunk.out | cmp -s one.err - || bad+=("validate $f")
done
check_bad "error positions from a pipe equal those from a file" ${#bad[@]}

# Every ill-formed sequence at every offset from a chunk boundary.
bad=()
for seq in '\340\200' '\360\237\230' '\355\240\200' '\302' '\364\220\200\200'; do
  for k in 0 1 2 3 4 5 6 7 8 9; do
    { head -c "$k" /dev/zero | tr '\0' a; printf "$seq"; printf 'b\n\303\251'; } > split.txt
    for mode in --strict --replace; do
      utfx convert $mode -t utf-16le split.txt > one.out 2> one.err
      for c in 4 5 7; do
        UTFX_CLI_CHUNK=$c utfx convert $mode -t utf-16le split.txt > chunk.out 2> chunk.err
        cmp -s one.out chunk.out && cmp -s one.err chunk.err || bad+=("$seq at $k chunk $c $mode")
      done
    done
  done
done
check_bad "sequences split across the chunk boundary"

# Against Node's decoder (WHATWG replacement), when node is installed.
if command -v node > /dev/null 2>&1; then
  node -e 'const s = require("fs").readFileSync(process.argv[1]).toString("utf8");
           process.stdout.write(Buffer.from(s, "utf16le"));' mix.utf8 > node.out
  UTFX_CLI_CHUNK=5 utfx convert -r -q -t utf-16le mix.utf8 > chunk.out
  check "--replace output equals Node's Buffer.toString('utf8')" cmp -s node.out chunk.out
else
  ok "# SKIP node not installed"
fi

# base64: against coreutils' base64 (output and exit status), both ways,
# for files (cut into pieces of UTFX_CLI_SPLIT bytes, worked on in parallel)
# and pipes (read in chunks of UTFX_CLI_CHUNK): every size gives the same
# bytes, with groups, lines, garbage and errors across the boundaries.
head -c 3000 /dev/urandom > rand.bin
if command -v base64 > /dev/null; then
  base64 rand.bin > rand.b64
  { printf 'x*'; base64 rand.bin | head -c 700; printf ' \r\n=!'; } > garbage.b64
  # Lines of changing length (pieces cut at a multiple of 4 lines of the
  # first line's length start inside a group) and a CRLF copy (-i only).
  base64 -w 0 rand.bin | fold -w 60 | awk 'NR % 7 == 3 { printf "%s", $0; next } { print }' \
    > irregular.b64
  sed 's/$/\r/' rand.b64 > crlf.b64
  # Padding in the middle: the encodings of 1, 2 and 3000 bytes one after another.
  { printf a | base64; printf bc | base64 -w 7; base64 -w 64 rand.bin; } > concat.b64
  # Bad bytes in the middle of a long input, after a line feed and inside a group.
  { head -c 1500 rand.b64; printf ' '; tail -c +1501 rand.b64; } > space.b64
  { head -c 2001 rand.b64; printf '*'; tail -c +2002 rand.b64; } > star.b64
  { head -c 1000 rand.b64; printf 'QQ==QQ'; tail -c +1001 rand.b64; } > midpad.b64
  cases=("-w 50::rand.bin" "::rand.bin" "-w 1::rand.bin" "-w 4::rand.bin" "-w 0::rand.bin"
         "-w 75::rand.bin" "-w 3::rand.bin" "-w 64::rand.bin" "-w 1000::rand.bin"
         "::empty.txt" "-d::rand.b64" "-d::irregular.b64" "-d::crlf.b64"
         "-d -i::crlf.b64" "-d::concat.b64" "-d::space.b64" "-d -i::space.b64" "-d::star.b64"
         "-d -i::star.b64" "-d::midpad.b64" "-d::garbage.b64" "-d -i::garbage.b64")
  bad=()
  for cs in "${cases[@]}"; do
    opts=${cs%%::*} f=${cs#*::}
    # shellcheck disable=SC2086
    { base64 $opts "$f" 2> /dev/null; echo "rc $?"; } > want.out
    for c in 4 5 7 64 78 1000 100000; do
      # shellcheck disable=SC2086
      { UTFX_CLI_SPLIT=$c utfx base64 $opts "$f" 2> /dev/null; echo "rc $?"; } > got.out
      cmp -s want.out got.out || bad+=("base64 $opts $f: file, pieces of $c")
      # shellcheck disable=SC2086
      { cat "$f" | UTFX_CLI_CHUNK=$c utfx base64 $opts 2> /dev/null; echo "rc $?"; } > got.out
      cmp -s want.out got.out || bad+=("base64 $opts $f: pipe, chunks of $c")
    done
  done
  check_bad "base64: files in pieces and pipes in chunks of any size give coreutils' output and status"
  # More than one default piece (1 MiB) and read chunk: 3 MB both ways.
  head -c 3000000 /dev/urandom > big.bin
  base64 big.bin > big.b64
  bad=()
  utfx base64 big.bin | cmp -s - big.b64 || bad+=("encode file")
  cat big.bin | utfx base64 | cmp -s - big.b64 || bad+=("encode pipe")
  utfx base64 -d big.b64 | cmp -s - big.bin || bad+=("decode file")
  cat big.b64 | utfx base64 -d | cmp -s - big.bin || bad+=("decode pipe")
  utfx base64 -w 0 big.bin | utfx base64 -d | cmp -s - big.bin || bad+=("-w 0 round trip")
  # Standard input a regular file read partly before: from its offset on.
  { head -c 7 > /dev/null; UTFX_CLI_SPLIT=100000 utfx base64; } < big.bin |
    cmp -s - <(tail -c +8 big.bin | base64) || bad+=("encode stdin at an offset")
  { head -c 77 > /dev/null; UTFX_CLI_SPLIT=100000 utfx base64 -d; } < big.b64 |
    cmp -s - <(tail -c +78 big.b64 | base64 -d) || bad+=("decode stdin at an offset")
  check_bad "base64: 3 MB, more than one piece or chunk, files and pipes"
  # The thread count of a mapped file (-j) never changes the bytes: one
  # thread, and more threads than cores over small pieces, against
  # coreutils with -w, -d and -d -i (CR LF lines: every piece by the
  # byte-at-a-time decoder).
  bad=()
  base64 -w 50 big.bin > big50.b64
  sed 's/$/\r/' big50.b64 > bigcrlf.b64
  for j in 1 3; do
    utfx base64 -j $j big.bin | cmp -s - big.b64 || bad+=("-j $j encode")
    UTFX_CLI_SPLIT=65536 utfx base64 -j $j -w 50 big.bin | cmp -s - big50.b64 ||
      bad+=("-j $j -w 50 encode")
    UTFX_CLI_SPLIT=65536 utfx base64 -j $j -d big50.b64 | cmp -s - big.bin ||
      bad+=("-j $j -d")
    UTFX_CLI_SPLIT=65536 utfx base64 -j $j -d -i bigcrlf.b64 | cmp -s - big.bin ||
      bad+=("-j $j -d -i")
  done
  utfx base64 -j x big.bin > /dev/null 2>&1
  [ $? -eq 2 ] || bad+=("-j x is not a usage error")
  check_bad "base64: -j 1 and -j 3 give coreutils' bytes (-w, -d, -d -i)"
  rm -f big.bin big.b64 big50.b64 bigcrlf.b64
else
  ok "# SKIP coreutils base64 not installed"
  ok "# SKIP coreutils base64 not installed"
  ok "# SKIP coreutils base64 not installed"
fi

# ---------------------------------------------------------------- large input
# Larger than the default 1 MiB chunk: compare with iconv, and wc.
yes "$(cat multi.txt ok.txt)" | head -n 150000 > big.txt
printf 'x\n' >> big.txt
utfx convert -t utf-16le big.txt > big.16
check "large file: validate" utfx validate big.txt
if command -v iconv > /dev/null 2>&1; then
  iconv -f UTF-8 -t UTF-16LE big.txt > big.iconv
  check "large file: utf-16le equals iconv's" cmp -s big.16 big.iconv
else
  ok "# SKIP iconv not installed"
fi
utfx convert -f utf-16le -t utf-8 big.16 > big.back
check "large file: round trip through utf-16le" cmp -s big.txt big.back
lines=$(wc -l < big.txt)
bytes=$(wc -c < big.txt)
check "large file: count lines and bytes agree with wc" \
  test "$(utfx count -l -c big.txt)" = "$(printf '%*d %d big.txt' ${#bytes} "$lines" "$bytes")"

# ---------------------------------------------------------------- mapped, parallel
# A regular file is mapped and cut into pieces converted on several threads
# (UTFX_CLI_SPLIT forces tiny pieces, -j the thread count); a pipe is read in
# chunks by one thread. Both must give the same bytes, messages and status
# for every pair and mode, with characters and errors across every cut (a
# split size of 1 cuts before every byte where a cut is allowed).
from_pipe() { # FILE ARGS...: utfx ARGS reading FILE through a pipe, as if named FILE
  local f=$1; shift
  cat "$f" | utfx "$@" 2>&1 | sed "s/<stdin>:/$f:/"
  echo "${PIPESTATUS[1]}"
}
mapped() { # SPLIT THREADS FILE ARGS...: utfx ARGS FILE with that split and -j
  local split=$1 threads=$2 f=$3; shift 3
  UTFX_CLI_SPLIT=$split utfx "$@" -j "$threads" "$f" 2>&1
  echo $?
}
for f in $encs; do
  for t in $encs; do
    for mode in strict replace; do
      from_pipe "mix.$f" convert --$mode -f "$f" -t "$t" > "pipe.$f.$t.$mode"
    done
  done
  from_pipe "mix.$f" validate --all -f "$f" > "pipe.$f.validate-all"
  from_pipe "mix.$f" validate -f "$f" > "pipe.$f.validate"
done
bad=()
for f in $encs; do
  for t in $encs; do
    for mode in strict replace; do
      cmp -s "one.$f.$t.$mode" "pipe.$f.$t.$mode" || bad+=("$mode $f -> $t")
    done
  done
done
check_bad "mapped file, one piece: equals the pipe for every pair and mode"
for st in 1:7 2:2 3:3 5:4 13:3; do
  split=${st%:*} threads=${st#*:}
  bad=()
  for f in $encs; do
    for t in $encs; do
      for mode in strict replace; do
        mapped "$split" "$threads" "mix.$f" convert --$mode -f "$f" -t "$t" > par.out
        cmp -s "pipe.$f.$t.$mode" par.out || bad+=("$mode $f -> $t")
      done
    done
    mapped "$split" "$threads" "mix.$f" validate --all -f "$f" > par.out
    cmp -s "pipe.$f.validate-all" par.out || bad+=("validate --all $f")
    mapped "$split" "$threads" "mix.$f" validate -f "$f" > par.out
    cmp -s "pipe.$f.validate" par.out || bad+=("validate $f")
  done
  check_bad "split $split, $threads threads: every pair and mode equals the pipe"
done

# Each ill-formed sequence (and a 4-byte character, a pair in UTF-16) at
# every offset from a cut, after valid text, in both modes: pieces of 1 to 6
# bytes over the sequences at offsets 0 to 5 from a multiple of 6.
for k in 0 1 2 3 4 5; do
  for seq in '\340\200' '\360\237\230' '\355\240\200' '\302' '\364\220\200\200' \
             '\200\200\200\200\200' '\360\237\230\200' '\342\202A' '\341\200\200\200'; do
    head -c "$k" /dev/zero | tr '\0' a; printf "$seq"; head -c $((6 - k)) /dev/zero | tr '\0' b
  done
done > split.utf-8
printf "\360\237\230" >> split.utf-8
utfx convert -r -q -t utf-16le split.utf-8 > split.utf-16le
printf '\000\330\000\330\000\334A\000\000\334' >> split.utf-16le # lone, paired, lone
bad=()
for f in utf-8 utf-16le; do
  for mode in --strict --replace; do
    for t in utf-16le utf-8 latin1; do
      from_pipe split.$f convert $mode -f $f -t $t > pipe.out
      for split in 1 2 3 4 5 6; do
        mapped $split 3 split.$f convert $mode -f $f -t $t > par.out
        cmp -s pipe.out par.out || bad+=("$f split $split $mode -t $t")
      done
    done
  done
done
check_bad "sequences across every cut: mapped pieces equal the pipe"

# Several MiB with errors spread out, the default piece size and thread count.
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  head -c $((300007 * i)) big.txt
  cat many-bad.txt
done > spread.txt
for args in "-r -t utf-16le" "-r -t latin1" "-r -t utf-8" "--strict -t utf-32be"; do
  from_pipe spread.txt convert $args > pipe.out
  utfx convert $args spread.txt > par.out 2>&1; echo $? >> par.out
  utfx convert $args -j 1 spread.txt > one.out 2>&1; echo $? >> one.out
  check "$(wc -c < spread.txt) bytes, default pieces: convert $args equals the pipe and -j 1" \
    eval 'cmp -s pipe.out par.out && cmp -s pipe.out one.out'
done

# The first error in the file is the one reported, however the threads race:
# an error in every piece.
{ for i in $(seq 1 200); do printf 'abc\n\303\251\340\200x'; done; } > everywhere.txt
from_pipe everywhere.txt convert -t utf-16le > pipe.out
bad=0
for i in 1 2 3 4 5; do
  mapped 16 4 everywhere.txt convert -t utf-16le > par.out
  cmp -s pipe.out par.out || bad=1
done
check "an error in every piece: the first one is reported, after exactly its prefix" test $bad = 0

# Atomic -o from the parallel path: an error in the last piece leaves OUT and
# no temporary file; success writes what stdout gets.
printf 'original\n' > out.txt
{ head -c 100000 big.txt; printf '\355\240\200'; } > late-error.txt
UTFX_CLI_SPLIT=1000 utfx convert -j 3 -t utf-16le -o out.txt late-error.txt 2> late.err
rc=$?
check "-o, parallel: an error in the last piece leaves OUT untouched (exit 1)" \
  test $rc = 1 -a "$(cat out.txt)" = original -a -z "$(ls -A | grep utfx-)"
check "-o, parallel: the message names the first error" \
  grep -q '^late-error.txt:.*: invalid UTF-8 sequence ED A0 80 (encoded surrogate) at byte offset 100000$' late.err
UTFX_CLI_SPLIT=1000 utfx convert -j 3 -r -q -t utf-16le -o out.txt late-error.txt
utfx convert -j 1 -r -q -t utf-16le late-error.txt > expect.txt
check "-o, parallel: success writes what one thread writes to stdout" cmp -s out.txt expect.txt

# A mapped file that shrinks under us: a read error, not a crash. One thread,
# so the first piece is done and blocked in its write to the full pipe when
# the file is truncated; a later one touches the lost pages.
truncated_while_mapped() { # DESCRIPTION FILE COMMAND...
  local desc=$1 file=$2 pid rc
  shift 2
  rm -f fifo
  mkfifo fifo
  "$@" > fifo 2> shrink.err &
  pid=$!
  exec 4< fifo
  head -c 10 <&4 > /dev/null
  truncate -s 0 "$file"
  cat <&4 > /dev/null
  wait $pid
  rc=$?
  exec 4<&-
  rm -f fifo "$file"
  check "$desc: exit 3 (status $rc) and one line" \
    test $rc = 3 -a "$(cat shrink.err)" = "utfx: $file: read error: file shrank while being read"
}
head -c 4000000 big.txt > shrink.txt
truncated_while_mapped "a file truncated while mapped" shrink.txt \
  utfx convert -j 1 -t utf-16le shrink.txt
# base64 -d decodes from the map too (a 64 KiB pipe: its first piece's
# output fills it).
head -c 3000000 /dev/urandom | utfx base64 > shrink.b64
truncated_while_mapped "base64 -d of a file truncated while mapped" shrink.b64 \
  env UTFX_CLI_PIPE=0 utfx base64 -d -j 1 shrink.b64

# Standard input that is a regular file is mapped too, from its offset, and
# is left consumed as a read would leave it.
{ dd bs=1 count=9 of=/dev/null status=none; UTFX_CLI_SPLIT=3 utfx convert -j 2 -r -t utf-16le; } \
  < mix.utf8 > par.out 2> /dev/null
tail -c +10 mix.utf8 | utfx convert -r -t utf-16le > pipe.out 2> /dev/null
check "stdin at an offset of a regular file: mapped from there" cmp -s pipe.out par.out
check "stdin: left at its end after a mapped conversion" \
  test -z "$({ utfx convert -j 2 > /dev/null; cat; } < ok.txt)"

# ---------------------------------------------------------------- atomic output
printf 'original\n' > out.txt
chmod 640 out.txt
utfx convert bad-e080.txt -o out.txt 2> /dev/null
rc=$?
check "-o: an invalid input leaves OUT untouched (exit 1)" \
  test $rc = 1 -a "$(cat out.txt)" = original
utfx convert ok.txt missing.txt -o out.txt 2> /dev/null
rc=$?
check "-o: a missing input leaves OUT untouched (exit 3)" \
  test $rc = 3 -a "$(cat out.txt)" = original
check "-o: no temporary file left behind" test -z "$(ls -A | grep utfx-)"
utfx convert -t utf-16le ok.txt -o out.txt
utfx convert -t utf-16le ok.txt > expect.txt
check "-o: success replaces OUT" cmp -s out.txt expect.txt
check "-o: OUT keeps its mode" test "$(stat -c %a out.txt)" = 640
utfx convert ok.txt -o new.txt
check "-o: a new OUT gets 0666 & ~umask" test "$(stat -c %a new.txt)" = 644

printf 'original\n' > out.txt
printf 'YWJj*' | utfx base64 -d -o out.txt 2> /dev/null
rc=$?
check "base64 -o: invalid input leaves OUT untouched (exit 1)" \
  test $rc = 1 -a "$(cat out.txt)" = original
utfx base64 ok.txt -o out.txt && utfx base64 -d out.txt -o out2.txt
check "base64 -o: success writes OUT" cmp -s out2.txt ok.txt

printf 'target\n' > target.txt
ln -s target.txt link.txt
utfx convert ok.txt -o link.txt
check "-o through a symbolic link replaces its target, keeps the link" \
  test -L link.txt -a "$(cat target.txt)" = "$(cat ok.txt)"

cp ok.txt inplace.txt
chmod 600 inplace.txt
utfx convert -i -t utf-16le inplace.txt
check "--in-place converts and keeps the mode" \
  test "$(cmp -s inplace.txt expect.txt && stat -c %a inplace.txt)" = 600
cp bad-e080.txt inplace.txt
utfx convert -i -t utf-16le inplace.txt 2> /dev/null
check "--in-place leaves an invalid file untouched" cmp -s inplace.txt bad-e080.txt

# ---------------------------------------------------------------- output kinds
# Into a regular file the large writes are fallocate()d first (not in append
# mode), and a pipe on stdout is grown: neither may change a byte, the file's
# size, or what a shell's >> and 1<> do.
UTFX_CLI_PREALLOC=0 utfx convert -r -q -t utf-16le spread.txt > plain.out
utfx convert -r -q -t utf-16le spread.txt > file.out
check "a regular stdout: the same bytes with and without preallocation" cmp -s plain.out file.out
read -r blocks bsize size < <(stat -c '%b %B %s' file.out)
check "a regular stdout: no blocks allocated past its end ($blocks x $bsize for $size)" \
  test $((blocks * bsize)) -le $(((size + 65535) / 65536 * 65536))
utfx convert -r -q -t utf-16le -o o.out spread.txt
check "-o: the same bytes as stdout" cmp -s plain.out o.out
printf 'head\n' > append.out
utfx convert -r -q -t utf-16le spread.txt >> append.out
check "stdout opened with >>: appended after what was there" \
  eval 'cmp -s <(printf "head\n"; cat plain.out) append.out'
{ cat plain.out; printf 'tail\n'; } | tr '\000-\377' 'x' > over.out
utfx convert -r -q -t utf-16le spread.txt 1<> over.out
check "stdout opened with 1<>: overwritten from the start, the rest kept" \
  eval 'cmp -s <(cat plain.out; printf "xxxxx") over.out'
bad=()
for pipe in "" 0 4096 65536; do
  UTFX_CLI_PIPE=$pipe utfx convert -r -q -t utf-16le spread.txt | cat > piped.out
  cmp -s plain.out piped.out || bad+=("UTFX_CLI_PIPE=$pipe")
done
check_bad "into a pipe (grown or not): the same bytes as into a file"
# Into a pipe, pieces of a mapped file go over by vmsplice from per-slot
# rings (io.c), whose pages must never be written again once handed over:
# with rings of one piece or a few (UTFX_CLI_RING=1: started over at every
# piece that does not fit), small pieces, and a reader that lets the pipe
# fill first, the bytes read must be the ones written, for convert and
# base64 both ways.
bad=()
base64 big.16 > big16.b64
for ring in "" 1; do
  for j in 1 3; do
    env UTFX_CLI_RING=$ring UTFX_CLI_SPLIT=16384 utfx convert -j $j -t utf-16le big.txt |
      { sleep 0.2; cat; } | cmp -s - big.16 || bad+=("convert ring=$ring -j $j")
    env UTFX_CLI_RING=$ring UTFX_CLI_SPLIT=16383 utfx base64 -j $j big.16 |
      { sleep 0.2; cat; } | cmp -s - big16.b64 || bad+=("base64 ring=$ring -j $j")
    env UTFX_CLI_RING=$ring UTFX_CLI_SPLIT=16384 utfx base64 -d -j $j big16.b64 |
      { sleep 0.2; cat; } | cmp -s - big.16 || bad+=("base64 -d ring=$ring -j $j")
  done
done
check_bad "into a pipe by vmsplice from rings, a slow reader: the bytes written"
# A ring whose pages come in 4 KiB (UTFX_CLI_RING_HUGE=0 asks for that; so
# does a kernel out of huge pages) is not used: the slot converts into its
# own buffer and the pipe gets it by write(), the same bytes. strace, when
# present, shows which way they went (vmsplice only with huge pages, and
# only when the kernel hands them to madvise regions).
bad=()
for huge in 0 1; do
  env UTFX_CLI_RING_HUGE=$huge utfx convert -t utf-16le big.txt | { sleep 0.2; cat; } |
    cmp -s - big.16 || bad+=("convert huge=$huge")
  env UTFX_CLI_RING_HUGE=$huge utfx base64 big.16 | { sleep 0.2; cat; } |
    cmp -s - big16.b64 || bad+=("base64 huge=$huge")
  env UTFX_CLI_RING_HUGE=$huge utfx base64 -d big16.b64 | { sleep 0.2; cat; } |
    cmp -s - big.16 || bad+=("base64 -d huge=$huge")
done
check_bad "into a pipe, rings on 4 KiB pages left for write(): the bytes written"
if command -v strace > /dev/null 2>&1 && strace -f -qq -e trace=none true 2> /dev/null &&
  grep -q -e '\[always\]' -e '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2> /dev/null; then
  bad=()
  for huge in 0 1; do
    # (LeakSanitizer cannot run under ptrace: off for the sanitizer build)
    env UTFX_CLI_RING_HUGE=$huge ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -e trace=vmsplice -o strace.out \
      "$UTFX" convert -t utf-16le big.txt | cat > /dev/null
    calls=$(grep -c vmsplice strace.out || true)
    if [ $huge = 0 ] && [ "$calls" != 0 ]; then bad+=("huge=0: $calls vmsplice calls"); fi
    if [ $huge = 1 ] && [ "$calls" = 0 ]; then bad+=("huge=1: no vmsplice"); fi
  done
  check_bad "into a pipe: vmsplice from huge-page rings only"
else
  ok "into a pipe: vmsplice from huge-page rings only # skip: no strace, or no THP for madvise"
fi

# Kill the process while it writes (it has written two chunks to the
# temporary file and waits for more input): OUT must be untouched. (Not
# SIGINT: a background job of a non-interactive shell ignores it, and utfx
# keeps an inherited "ignore". For the same reason a signal this shell
# ignores, as SIGHUP under nohup, is left out: the process would not die.)
sig_ignored() { # NAME: this shell ignores the signal (SigIgn of /proc/PID/status)
  local mask
  mask=$(awk '/^SigIgn:/ { print $2 }' "/proc/$$/status" 2> /dev/null)
  [ -n "$mask" ] && [ $(((0x$mask >> ($(kill -l "$1") - 1)) & 1)) = 1 ]
}
for sig in TERM HUP KILL; do
  if [ "$sig" != KILL ] && sig_ignored "$sig"; then
    ok "killed by SIG$sig mid-write # skip: this shell ignores SIG$sig, and so would utfx"
    ok "killed by SIG$sig: temporary files # skip: this shell ignores SIG$sig"
    continue
  fi
  printf 'original\n' > out.txt
  rm -f fifo .out.txt.utfx-*
  mkfifo fifo
  UTFX_CLI_CHUNK=4 utfx convert -t utf-16le -o out.txt < fifo &
  pid=$!
  exec 3> fifo
  printf 'abcdefghij' >&3
  tries=0
  while [ "$(cat .out.txt.utfx-* 2> /dev/null | wc -c)" -lt 16 ] && [ $tries -lt 200 ]; do
    sleep 0.05; tries=$((tries + 1))
  done
  written=$(cat .out.txt.utfx-* 2> /dev/null | wc -c)
  kill -s $sig $pid
  wait $pid 2> /dev/null
  rc=$?
  exec 3>&-
  left=$(ls -A | grep -c 'out.txt.utfx-')
  if [ "$sig" = KILL ]; then want_left=1; else want_left=0; fi
  check "killed by SIG$sig mid-write ($written bytes in the temp file): OUT untouched" \
    test "$(cat out.txt)" = original -a "$written" -ge 16 -a "$rc" -gt 128
  check "killed by SIG$sig: temporary files left: $left (expected $want_left)" \
    test "$left" = "$want_left"
  rm -f fifo .out.txt.utfx-*
done

# ---------------------------------------------------------------- SIGPIPE
utfx convert -t utf-16le big.txt 2> pipe.err | head -c 100 > /dev/null
rc=${PIPESTATUS[0]}
check "closed pipe: killed by SIGPIPE (status $rc), nothing on stderr" \
  test "$rc" = 141 -a ! -s pipe.err

# ---------------------------------------------------------------- read error
if [ -r /proc/self/mem ]; then
  utfx validate /proc/self/mem 2> readerr.txt
  rc=$?
  check "read error: one line, exit 3" \
    test $rc = 3 -a "$(wc -l < readerr.txt)" = 1 -a -n "$(grep 'read error' readerr.txt)"
fi

# ---------------------------------------------------------------- progress
truncate -s 70M zeros.bin
utfx validate zeros.bin 2> progress.err
check "no progress line when stderr is not a terminal" test ! -s progress.err
if command -v script > /dev/null 2>&1 && script -qec true /dev/null > /dev/null 2>&1; then
  script -qec "utfx validate zeros.bin" /dev/null > progress.tty 2>&1
  check "progress line on a terminal for a 70 MiB input" grep -q 'of 70.0 MiB' progress.tty
else
  ok "# SKIP script(1) not available"
fi
rm -f zeros.bin

# ---------------------------------------------------------------- -f auto
# The guess of utfx_detect_encoding (rule in utfx.h) when no BOM names the
# form: UTF-8 if valid, then UTF-32LE, UTF-32BE, then UTF-16; from a file (the
# whole of it) and from a pipe (its first chunk: UTFX_CLI_CHUNK small here,
# so the chunk ends inside a character and the guess must look before it).
printf 'h\000\351\000 \000\254\040\n\000' > auto16le.txt     # "hé €\n"
printf '\000h\000\351\000 \040\254\000\n' > auto16be.txt
printf '\351\000\000\000h\000\000\000' > auto32le.txt     # é is not UTF-8 alone
printf '\000\000\000\351\000\000\000h' > auto32be.txt
printf 'h\303\251 \342\202\254\n' > auto8.txt
printf 'h\303\251 \342\202\254\n' > auto.expect
printf '\303\251h' > auto32.expect
bad=()
for f in auto16le auto16be auto8; do
  utfx convert -f auto "$f.txt" > "$f.out" 2>&1 && cmp -s "$f.out" auto.expect || bad+=("$f: file")
  cat "$f.txt" | utfx convert -f auto > "$f.pipe" 2>&1 && cmp -s "$f.pipe" auto.expect \
    || bad+=("$f: pipe")
done
for f in auto32le auto32be; do
  utfx convert -f auto "$f.txt" > "$f.out" 2>&1 && cmp -s "$f.out" auto32.expect || bad+=("$f: file")
done
check_bad "-f auto: UTF-8, UTF-16LE/BE and UTF-32LE/BE without a BOM, from a file and a pipe"
for i in $(seq 1 200); do printf '\344\270\255\346\226\207 '; done > autocjk8.txt
utfx convert -t utf-16le autocjk8.txt > autocjk16.txt
bad=()
for c in 21 22 23 25 26 27 29 30 31 33; do
  cat autocjk8.txt | UTFX_CLI_CHUNK=$c utfx convert -f auto > autocjk.out 2>&1 \
    && cmp -s autocjk.out autocjk8.txt || bad+=("UTF-8, chunk $c")
  cat autocjk16.txt | UTFX_CLI_CHUNK=$c utfx convert -f auto > autocjk.out 2>&1 \
    && cmp -s autocjk.out autocjk8.txt || bad+=("UTF-16LE, chunk $c")
done
check_bad "-f auto from a pipe: a first chunk cut inside a character still guesses right"
utfx convert -f auto -t utf-8 utf16be-bom.txt > auto.bom 2>&1
check "-f auto: a BOM names the form" test "$(cat auto.bom)" = hi
utfx validate -f auto auto16le.txt > auto.val 2>&1
check "validate -f auto accepts UTF-16LE without a BOM" test $? = 0 -a ! -s auto.val
utfx convert -t auto ok.txt > auto.t 2>&1
check "-t auto is a usage error (exit 2)" test $? = 2 -a -n "$(grep 'input encoding' auto.t)"

# ---------------------------------------------------------------- info, bench
utfx info > info.out
check "info lists the implementations and the selected one" \
  test -n "$(grep '^implementations:.* scalar' info.out)" -a -n "$(grep '^selected: ' info.out)"
check "UTFX_IMPL=scalar selects scalar" \
  test -n "$(UTFX_IMPL=scalar utfx info | grep '^selected: *scalar')"
utfx bench -r 1 --func 'validate_utf8,convert_utf8_to_utf16le' > bench.out 2>&1
rc=$?
tiers_ok=yes
for t in $(utfx info | sed -n 's/^implementations: *//p' | tr -d ',()*' ); do
  if UTFX_IMPL=$t utfx info | grep -q "^selected: *$t"; then
    grep -q "utfx-$t" bench.out || tiers_ok=no
  fi
done
check "bench: the engine times every supported implementation (self-checked first)" \
  test $rc = 0 -a $tiers_ok = yes -a -n "$(grep '^HEADLINE' bench.out)"

echo "1..$n"
[ $failed -eq 0 ]
