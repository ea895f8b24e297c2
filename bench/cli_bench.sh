#!/usr/bin/env bash
# Wall and CPU time of the utfx command on one large file, next to glibc
# iconv, ICU's uconv (when installed) and cat: validate and convert to
# UTF-16LE, output to /dev/null and to a file, the file in the page cache.
# Rounds are interleaved (every command once per round) because the machine
# may be shared; the table gives the median and the spread (min..max) of the
# wall time and the median CPU time (user + sys, all threads).
#
#   bench/cli_bench.sh [-n ROUNDS] [-s MIB] [FILE]
#
# FILE (default: a temporary file, removed at the end) is generated when it
# does not exist: SIZE MiB (default 512) of the multilingual corpus in
# bench/data (Arabic, Chinese, emoji, Hebrew, Hindi, Japanese, Korean, Latin,
# Russian and ASCII text, repeated). The file output goes beside FILE.
# UTFX names the binary (default: build/utfx). Not part of `make test`.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
UTFX=${UTFX:-$ROOT/build/utfx}
ROUNDS=5
MIB=512
while getopts n:s: opt; do
  case $opt in
    n) ROUNDS=$OPTARG ;;
    s) MIB=$OPTARG ;;
    *) echo "usage: $0 [-n ROUNDS] [-s MIB] [FILE]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -x "$UTFX" ] || { echo "$0: $UTFX not built (make cli)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/utfx-cli-bench.XXXXXX")
FILE=${1:-$WORK/input.txt}
OUT=$(dirname "$FILE")/.utfx-cli-bench-out.$$
trap 'rm -rf "$WORK" "$OUT"' EXIT
if [ ! -e "$FILE" ]; then
  echo "generating $MIB MiB of mixed scripts in $FILE" >&2
  cat "$ROOT"/bench/data/*.utf8.txt > "$WORK/corpus"
  reps=$(( (MIB << 20) / $(stat -c %s "$WORK/corpus") + 1 ))
  for ((i = 0; i < reps; i++)); do cat "$WORK/corpus"; done | head -c $((MIB << 20)) > "$FILE"
  # End on a whole character: drop a sequence the cut split.
  "$UTFX" convert -r -q "$FILE" > "$WORK/whole" && mv "$WORK/whole" "$FILE"
fi
"$UTFX" validate "$FILE" || { echo "$0: $FILE is not valid UTF-8" >&2; exit 1; }

cmds=(
  "cat::cat \"\$FILE\" > /dev/null"
  "utfx validate -j 1::\"\$UTFX\" validate -j 1 \"\$FILE\""
  "utfx validate::\"\$UTFX\" validate \"\$FILE\""
  "cat | utfx validate::cat \"\$FILE\" | \"\$UTFX\" validate"
  "iconv -t UTF-16LE::iconv -f UTF-8 -t UTF-16LE \"\$FILE\" > /dev/null"
  "uconv -t UTF-16LE::uconv -f UTF-8 -t UTF-16LE \"\$FILE\" > /dev/null"
  "utfx convert -j 1::\"\$UTFX\" convert -j 1 -t utf-16le \"\$FILE\" > /dev/null"
  "utfx convert::\"\$UTFX\" convert -t utf-16le \"\$FILE\" > /dev/null"
  "cat | utfx convert::cat \"\$FILE\" | \"\$UTFX\" convert -t utf-16le > /dev/null"
  "cat > file::cat \"\$FILE\" > \"\$OUT\""
  "iconv > file::iconv -f UTF-8 -t UTF-16LE \"\$FILE\" > \"\$OUT\""
  "uconv > file::uconv -f UTF-8 -t UTF-16LE \"\$FILE\" > \"\$OUT\""
  "utfx convert -j 1 > file::\"\$UTFX\" convert -j 1 -t utf-16le \"\$FILE\" > \"\$OUT\""
  "utfx convert > file::\"\$UTFX\" convert -t utf-16le \"\$FILE\" > \"\$OUT\""
)
command -v uconv > /dev/null || cmds=("${cmds[@]/uconv*/}")

# The same bytes from every converter, once.
"$UTFX" convert -t utf-16le "$FILE" | cmp -s - <(iconv -f UTF-8 -t UTF-16LE "$FILE") ||
  { echo "$0: utfx and iconv disagree on $FILE" >&2; exit 1; }
cat "$FILE" "$FILE" > /dev/null # into the page cache

TIMEFORMAT='%R %U %S'
for ((r = 1; r <= ROUNDS; r++)); do
  echo "round $r of $ROUNDS" >&2
  for i in "${!cmds[@]}"; do
    [ -n "${cmds[$i]}" ] || continue
    rm -f "$OUT"
    { time { eval "${cmds[$i]#*::}" 2> /dev/null; }; } 2>> "$WORK/t.$i"
  done
done

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
printf '%s, %s online CPUs, %s MiB input (%s), %d rounds\n' "$cpu_model" "$(nproc)" \
  "$(( $(stat -c %s "$FILE") >> 20 ))" "$FILE" "$ROUNDS"
printf '%-26s %9s %17s %9s %9s %9s\n' command "wall s" "(min..max)" "CPU s" "iconv/it" "it/cat"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
stat_of() { # INDEX -> "median min max cpu"
  local f=$WORK/t.$1
  echo "$(awk '{ print $1 }' "$f" | median) $(awk '{ print $1 }' "$f" | sort -g | head -1)" \
       "$(awk '{ print $1 }' "$f" | sort -g | tail -1) $(awk '{ print $2 + $3 }' "$f" | median)"
}
declare -A wall_of
for i in "${!cmds[@]}"; do
  [ -n "${cmds[$i]}" ] || continue
  read -r wall _ < <(stat_of "$i")
  wall_of[${cmds[$i]%%::*}]=$wall
done
for i in "${!cmds[@]}"; do
  [ -n "${cmds[$i]}" ] || continue
  read -r wall lo hi cpu < <(stat_of "$i")
  label=${cmds[$i]%%::*}
  case $label in # compare with the same kind of output
    *"> file") iconv=${wall_of["iconv > file"]} cat=${wall_of["cat > file"]} ;;
    *) iconv=${wall_of["iconv -t UTF-16LE"]} cat=${wall_of[cat]} ;;
  esac
  printf '%-26s %9.3f %17s %9.3f %9s %9.2f\n' "$label" "$wall" "($lo..$hi)" "$cpu" \
    "$(case $label in *conv*) awk -v a="$iconv" -v b="$wall" 'BEGIN { printf "%.1f", a / b }' ;; *) echo - ;; esac)" \
    "$(awk -v a="$wall" -v b="$cat" 'BEGIN { print a / b }')"
done
