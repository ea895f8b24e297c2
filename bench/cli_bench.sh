#!/usr/bin/env bash
# Wall and CPU time of the utfx command on one large file, next to the tools
# it replaces, with the output thrown away (/dev/null), read by a pipe
# (`| cat > /dev/null`) and written to a file (in the page cache):
#   text (default): validate and convert to UTF-16LE, against glibc iconv,
#                   ICU's uconv (when installed) and cat;
#   base64 (-m base64): encode and decode, against coreutils' base64.
# Rounds are interleaved (every command once per round) because the machine
# may be shared; the table gives the median and the spread (min..max) of the
# wall time, the median CPU time (user + sys, all threads and processes of the
# command), and wall-time ratios: against the tool it replaces and against
# cat moving the same output the same way (the cost of the output alone).
#
#   bench/cli_bench.sh [-n ROUNDS] [-s MIB] [-m text|base64] [-c cold|small] [FILE]
#
# How a file sits in the page cache changes what reading it costs every reader
# (cat included) by up to 2x on Linux 6.18 (docs/perf-decisions.md, "The CLI:
# the inputs' page cache"), so the inputs (FILE, and the expected output the
# cat rows and decoding read) are put in one state before every round, -c:
#   cold (default): written back, dropped from the page cache and read back
#                   in, as a file read from disk is held (readahead: large
#                   folios);
#   small: rewritten by 4 KiB writes, as a file just written by a program
#          writing small blocks is held (4 KiB folios).
# Both keep the contents; small rewrites FILE in place.
#
# FILE (default: a temporary file, removed at the end) is generated when it
# does not exist: SIZE MiB (default 512) of the multilingual corpus in
# bench/data (Arabic, Chinese, emoji, Hebrew, Hindi, Japanese, Korean, Latin,
# Russian and ASCII text, repeated), or of random bytes for base64. The file
# output goes beside FILE. UTFX names the binary (default: build/utfx);
# UTFX_OLD, when set, names a second one timed in the same rounds (rows
# "old ..."), for before / after tables. Not part of `make test`.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
UTFX=${UTFX:-$ROOT/build/utfx}
UTFX_OLD=${UTFX_OLD:-}
ROUNDS=5
MIB=512
MODE=text
CACHE=cold
while getopts n:s:m:c: opt; do
  case $opt in
    n) ROUNDS=$OPTARG ;;
    s) MIB=$OPTARG ;;
    m) MODE=$OPTARG ;;
    c) CACHE=$OPTARG ;;
    *) echo "usage: $0 [-n ROUNDS] [-s MIB] [-m text|base64] [-c cold|small] [FILE]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
case $MODE in text | base64) ;; *) echo "$0: -m text or base64" >&2; exit 2 ;; esac
case $CACHE in cold | small) ;; *) echo "$0: -c cold or small" >&2; exit 2 ;; esac
[ -x "$UTFX" ] || { echo "$0: $UTFX not built (make cli)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/utfx-cli-bench.XXXXXX")
FILE=${1:-$WORK/input.$MODE}
OUT=$(dirname "$FILE")/.utfx-cli-bench-out.$$
trap 'rm -rf "$WORK" "$OUT"' EXIT
if [ ! -e "$FILE" ] && [ "$MODE" = base64 ]; then
  echo "generating $MIB MiB of random bytes in $FILE" >&2
  head -c $((MIB << 20)) /dev/urandom > "$FILE"
elif [ ! -e "$FILE" ]; then
  echo "generating $MIB MiB of mixed scripts in $FILE" >&2
  cat "$ROOT"/bench/data/*.utf8.txt > "$WORK/corpus"
  reps=$(( (MIB << 20) / $(stat -c %s "$WORK/corpus") + 1 ))
  for ((i = 0; i < reps; i++)); do cat "$WORK/corpus"; done | head -c $((MIB << 20)) > "$FILE"
  # End on a whole character: drop a sequence the cut split.
  "$UTFX" convert -r -q "$FILE" > "$WORK/whole" && mv "$WORK/whole" "$FILE"
fi

# Rows: LABEL::REFERENCE::COMMAND. REFERENCE is the label of the row the
# "ref/it" column divides by this one (the tool replaced), or -. Each output
# kind has a cat row ("cat ...") that moves output of the same size the same
# way, the "it/cat" column's divisor.
if [ "$MODE" = text ]; then
  "$UTFX" validate "$FILE" || { echo "$0: $FILE is not valid UTF-8" >&2; exit 1; }
  # The same bytes from every converter, once; the output-sized file for cat.
  iconv -f UTF-8 -t UTF-16LE "$FILE" > "$WORK/expected"
  "$UTFX" convert -t utf-16le "$FILE" | cmp -s - "$WORK/expected" ||
    { echo "$0: utfx and iconv disagree on $FILE" >&2; exit 1; }
  SIZED=$WORK/expected
  INPUTS=("$FILE" "$SIZED")
  LARGEST=$SIZED # the largest output
  rows=(
    "cat::-::cat \"\$FILE\" > /dev/null"
    "utfx validate -j 1::cat::\"\$U\" validate -j 1 \"\$FILE\""
    "utfx validate::cat::\"\$U\" validate \"\$FILE\""
    "cat | utfx validate::cat::cat \"\$FILE\" | \"\$U\" validate"
    "cat out::-::cat \"\$SIZED\" > /dev/null"
    "iconv::-::iconv -f UTF-8 -t UTF-16LE \"\$FILE\" > /dev/null"
    "uconv::iconv::uconv -f UTF-8 -t UTF-16LE \"\$FILE\" > /dev/null"
    "utfx convert -j 1::iconv::\"\$U\" convert -j 1 -t utf-16le \"\$FILE\" > /dev/null"
    "utfx convert::iconv::\"\$U\" convert -t utf-16le \"\$FILE\" > /dev/null"
    "cat | utfx convert::iconv::cat \"\$FILE\" | \"\$U\" convert -t utf-16le > /dev/null"
    "cat out | cat::-::cat \"\$SIZED\" | cat > /dev/null"
    "iconv | cat::-::iconv -f UTF-8 -t UTF-16LE \"\$FILE\" | cat > /dev/null"
    "utfx convert | cat::iconv | cat::\"\$U\" convert -t utf-16le \"\$FILE\" | cat > /dev/null"
    "cat out > file::-::cat \"\$SIZED\" > \"\$OUT\""
    "iconv > file::-::iconv -f UTF-8 -t UTF-16LE \"\$FILE\" > \"\$OUT\""
    "uconv > file::iconv > file::uconv -f UTF-8 -t UTF-16LE \"\$FILE\" > \"\$OUT\""
    "utfx convert -j 1 > file::iconv > file::\"\$U\" convert -j 1 -t utf-16le \"\$FILE\" > \"\$OUT\""
    "utfx convert > file::iconv > file::\"\$U\" convert -t utf-16le \"\$FILE\" > \"\$OUT\""
  )
  command -v uconv > /dev/null || rows=("${rows[@]/uconv*/}")
else
  # The encoding by coreutils is both the expected output and the input of
  # the decoding rows.
  B64=$WORK/input.b64
  base64 "$FILE" > "$B64"
  "$UTFX" base64 "$FILE" | cmp -s - "$B64" || { echo "$0: utfx and base64 disagree" >&2; exit 1; }
  "$UTFX" base64 -d "$B64" | cmp -s - "$FILE" || { echo "$0: utfx base64 -d disagrees" >&2; exit 1; }
  INPUTS=("$FILE" "$B64")
  LARGEST=$B64
  rows=(
    "cat text::-::cat \"\$B64\" > /dev/null"
    "base64::-::base64 \"\$FILE\" > /dev/null"
    "utfx base64::base64::\"\$U\" base64 \"\$FILE\" > /dev/null"
    "cat text | cat::-::cat \"\$B64\" | cat > /dev/null"
    "base64 | cat::-::base64 \"\$FILE\" | cat > /dev/null"
    "utfx base64 | cat::base64 | cat::\"\$U\" base64 \"\$FILE\" | cat > /dev/null"
    "cat text > file::-::cat \"\$B64\" > \"\$OUT\""
    "base64 > file::-::base64 \"\$FILE\" > \"\$OUT\""
    "utfx base64 > file::base64 > file::\"\$U\" base64 \"\$FILE\" > \"\$OUT\""
    "cat bin::-::cat \"\$FILE\" > /dev/null"
    "base64 -d::-::base64 -d \"\$B64\" > /dev/null"
    "utfx base64 -d::base64 -d::\"\$U\" base64 -d \"\$B64\" > /dev/null"
    "cat | utfx base64 -d::base64 -d::cat \"\$B64\" | \"\$U\" base64 -d > /dev/null"
    "cat bin | cat::-::cat \"\$FILE\" | cat > /dev/null"
    "base64 -d | cat::-::base64 -d \"\$B64\" | cat > /dev/null"
    "utfx base64 -d | cat::base64 -d | cat::\"\$U\" base64 -d \"\$B64\" | cat > /dev/null"
    "cat bin > file::-::cat \"\$FILE\" > \"\$OUT\""
    "base64 -d > file::-::base64 -d \"\$B64\" > \"\$OUT\""
    "utfx base64 -d > file::base64 -d > file::\"\$U\" base64 -d \"\$B64\" > \"\$OUT\""
  )
fi
# With UTFX_OLD, every utfx row once more with the old binary.
cmds=()
for r in "${rows[@]}"; do
  [ -n "$r" ] || continue
  cmds+=("$r")
  if [ -n "$UTFX_OLD" ] && [[ ${r%%::*} == *utfx* ]]; then
    rest=${r#*::}
    cmds+=("old ${r%%::*}::${rest%%::*}::U=\$UTFX_OLD; ${rest#*::}")
  fi
done
# Puts file $1 in the page cache state $CACHE (see the top). Dropping needs
# the pages clean (sync FILE writes them back); dd's nocache with count=0
# drops the whole file's cache; the direct read leaves the cache alone, so
# the 4 KiB writes allocate its folios afresh.
cache_state() {
  sync "$1"
  dd if="$1" iflag=nocache count=0 status=none
  if [ "$CACHE" = small ]; then
    dd if="$1" iflag=direct bs=4M status=none |
      dd of="$1" bs=4k iflag=fullblock conv=notrunc status=none
    sync "$1"
  fi
  cat "$1" > /dev/null
}

TIMEFORMAT='%R %U %S'
for ((r = 1; r <= ROUNDS; r++)); do
  echo "round $r of $ROUNDS" >&2
  for f in "${INPUTS[@]}"; do cache_state "$f"; done
  for i in "${!cmds[@]}"; do
    U=$UTFX
    rest=${cmds[$i]#*::}
    # A row writing the file first finds one as large as its output there,
    # which its redirection truncates: the page cache pages this frees are
    # reused at once, as on a machine without free page reporting. Freed by
    # an rm seconds earlier, they would be handed back to this VM's host and
    # cost the next writer a host fault each, 2-4x its CPU time
    # (docs/perf-decisions.md, "The CLI: what binds the file row in this VM").
    if [[ ${rest#*::} == *'"$OUT"'* ]]; then cat "$LARGEST" > "$OUT"; else rm -f "$OUT"; fi
    { time { eval "${rest#*::}" 2> /dev/null; }; } 2>> "$WORK/t.$i"
  done
done

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
cpu_fm=$(awk -F': ' '/^cpu family/ { f = $2 } /^model[[:space:]]*:/ { m = $2 } END { print "family " f " model " m }' /proc/cpuinfo)
printf '%s (%s), %s online CPUs, load %s, %s MiB input (%s, page cache %s; file rows reuse pages), %d rounds\n' \
  "$cpu_model" "$cpu_fm" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
  "$(( $(stat -c %s "$FILE") >> 20 ))" "$FILE" "$CACHE" "$ROUNDS"
printf '%-28s %9s %17s %9s %9s %9s\n' command "wall s" "(min..max)" "CPU s" "ref/it" "it/cat"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
stat_of() { # INDEX -> "median min max cpu"
  local f=$WORK/t.$1
  echo "$(awk '{ print $1 }' "$f" | median) $(awk '{ print $1 }' "$f" | sort -g | head -1)" \
       "$(awk '{ print $1 }' "$f" | sort -g | tail -1) $(awk '{ print $2 + $3 }' "$f" | median)"
}
declare -A wall_of
for i in "${!cmds[@]}"; do
  read -r wall _ < <(stat_of "$i")
  wall_of[${cmds[$i]%%::*}]=$wall
done
cat_label="-"
for i in "${!cmds[@]}"; do
  read -r wall lo hi cpu < <(stat_of "$i")
  label=${cmds[$i]%%::*}
  rest=${cmds[$i]#*::}
  ref=${rest%%::*}
  # A cat row heads its output kind: the rows after it divide by it.
  [[ $label == cat* ]] && [ "$ref" = - ] && cat_label=$label
  printf '%-28s %9.3f %17s %9.3f %9s %9s\n' "$label" "$wall" "($lo..$hi)" "$cpu" \
    "$([ "$ref" != - ] && [ -n "${wall_of[$ref]:-}" ] && awk -v a="${wall_of[$ref]}" -v b="$wall" 'BEGIN { printf "%.1f", a / b }' || echo -)" \
    "$([ "$cat_label" != "$label" ] && awk -v a="$wall" -v b="${wall_of[$cat_label]}" 'BEGIN { printf "%.2f", a / b }' || echo -)"
done
