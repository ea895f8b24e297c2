#!/bin/sh
# The long fuzz campaign's run (`make fuzz-campaign` builds the targets, then
# calls this): two halves of targets at a time, one per core, each target
# for a number of executions; a summary of both in DIR/summary.txt.
#   fuzz/campaign.sh DIR MAX_LEN "HALF1" "HALF2" "NOTE"
# DIR: the campaign's build directory (DIR/fuzz/TARGET); HALF1, HALF2:
# NAME=RUNS lists (fuzz/run.sh); NOTE: what the build was (sanitizers,
# emulation), for the summary. Exits 1 if either half found something.
set -u
if [ $# -ne 5 ]; then
  echo "usage: $0 DIR MAX_LEN HALF1 HALF2 NOTE" >&2
  exit 2
fi
dir=$1 max_len=$2 half1=$3 half2=$4 note=$5
here=$(dirname "$0")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "fuzz-campaign: started $(date -u +%FT%TZ), runs $half1 $half2, -max_len=$max_len," \
  "$note, on $cpu" > "$dir/summary.txt"
export ASAN_OPTIONS=malloc_context_size=0
export FUZZ_FLAGS="-max_len=$max_len -entropic=0 -reduce_inputs=0 -timeout=60"
# shellcheck disable=SC2086 # the halves are lists of words
{ "$here/run.sh" "$dir" 0 $half1 > "$dir/half1.txt"; echo $? > "$dir/half1.rc"; } &
# shellcheck disable=SC2086
"$here/run.sh" "$dir" 0 $half2 > "$dir/half2.txt"
rc2=$?
wait
cat "$dir/half1.txt" "$dir/half2.txt" >> "$dir/summary.txt"
echo "fuzz-campaign: finished $(date -u +%FT%TZ)" >> "$dir/summary.txt"
cat "$dir/summary.txt"
[ "$rc2" -eq 0 ] && [ "$(cat "$dir/half1.rc")" -eq 0 ]
