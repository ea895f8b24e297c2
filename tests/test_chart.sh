#!/bin/sh
# utfx-chart (bench/chart.c), the charts of `make bench`, on a made-up
# results.csv: one SVG per suite in the file (kernels with simdutf, ICU,
# iconv, memcpy; decode with Node's StringDecoder), none for a suite that did
# not run (a stale one is removed), one bar per row, implementations in
# their fixed order, the CPU model in the title (the file's cpu column, else
# /proc/cpuinfo), columns found by name (an unknown extra column is fine),
# a clear error for a file that is not a results.csv, and the limit's two
# timings drawn as one "limit" bar at the limit_gbps column. Speaks TAP.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
chart=$BUILD/utfx-chart
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..7"

head='suite,name,impl,bytes,chars,samples,iters,median_ns,mad_ns,min_ns,max_ns,gbps,chars_per_ns,spread_pct,utfx_version'
{
  echo "$head,compiler,cpu"
  for t in ASCII Arabic Emoji; do
    for i in utfx-avx2 utfx-scalar memcpy icu iconv simdutf; do
      echo "kernels,convert_utf8_to_utf16le/$t,$i,65536,65536,15,100,10000,100,9000,11000,6.5,6.5,1,0.1.0,gcc 12.2.0,Test CPU <9000> & co"
    done
    echo "kernels,validate_utf8/$t,utfx-avx2,65536,65536,15,100,1000,10,900,1100,65.5,65.5,1,0.1.0,gcc 12.2.0,Test CPU <9000> & co"
  done
  for c in 16 64; do
    for i in utfx-avx2 utfx-scalar node-StringDecoder; do
      echo "decode,utf8/in=1024/chunk=$c,$i,1024,1024,15,100,500,5,450,550,2,2,1,0.1.0,gcc 12.2.0,Test CPU <9000> & co"
    done
  done
} > "$tmp/results.csv"
mkdir "$tmp/out"
echo '<svg/>' > "$tmp/out/encode.svg"
if "$chart" "$tmp/results.csv" "$tmp/out" > "$tmp/log" 2>&1 && [ -s "$tmp/out/kernels.svg" ] &&
    [ -s "$tmp/out/decode.svg" ] && [ ! -e "$tmp/out/encode.svg" ]; then
  echo "ok 1 - kernels.svg and decode.svg written, the stale encode.svg removed"
else
  echo "not ok 1 - kernels.svg and decode.svg written, the stale encode.svg removed"
  sed 's/^/#   /' "$tmp/log"
fi

bars() { grep -c '<rect x=.*<title>' "$1"; }
k=$(bars "$tmp/out/kernels.svg")
d=$(bars "$tmp/out/decode.svg")
if [ "$k" = 21 ] && [ "$d" = 6 ] && head -n 1 "$tmp/out/kernels.svg" | grep -q '^<svg ' &&
    [ "$(tail -n 1 "$tmp/out/kernels.svg")" = '</svg>' ]; then
  echo "ok 2 - one bar per result row (21 kernels, 6 decode), a complete SVG"
else
  echo "not ok 2 - one bar per result row: kernels $k (want 21), decode $d (want 6)"
fi

legend=$(grep -o '<text x="[0-9]*" y="[0-9]*">[a-zA-Z0-9-]*</text>' "$tmp/out/kernels.svg" |
  sed 's/<[^>]*>//g' | tr '\n' ' ')
if [ "$legend" = "utfx-avx2 utfx-scalar simdutf icu iconv memcpy " ]; then
  echo "ok 3 - implementations in order: $legend"
else
  echo "not ok 3 - implementations in order: got '$legend'"
fi

if grep -q 'CPU: Test CPU &lt;9000&gt; &amp; co' "$tmp/out/kernels.svg"; then
  echo "ok 4 - the cpu column names the CPU in the title (XML-escaped)"
else
  echo "not ok 4 - the cpu column names the CPU in the title"
  grep 'CPU:' "$tmp/out/kernels.svg" | sed 's/^/#   /'
fi

# Without a cpu column: /proc/cpuinfo (or uname).
cut -d, -f1-15 "$tmp/results.csv" > "$tmp/plain.csv"
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2> /dev/null | head -n 1)
mkdir "$tmp/plain"
if "$chart" "$tmp/plain.csv" "$tmp/plain" > "$tmp/log" 2>&1 &&
    title=$(grep -o 'CPU: [^<]*' "$tmp/plain/kernels.svg") && [ "$title" != "CPU: " ] &&
    { [ -z "$model" ] || printf '%s\n' "$title" | grep -qF "$model"; }; then
  echo "ok 5 - without a cpu column the title says $title"
else
  echo "not ok 5 - without a cpu column the title names this CPU ($model)"
  sed 's/^/#   /' "$tmp/log"
fi

printf 'a,b\n1,2\n' > "$tmp/bad.csv"
if "$chart" "$tmp/bad.csv" "$tmp/out" > "$tmp/log" 2>&1; then
  echo "not ok 6 - a file without the result columns is an error"
elif grep -q 'no suite,name,impl,bytes,median_ns columns' "$tmp/log" &&
    ! "$chart" "$tmp/missing.csv" "$tmp/out" > /dev/null 2>&1; then
  echo "ok 6 - a file without the result columns, or none, is an error with a message"
else
  echo "not ok 6 - a clear error for a bad file"
  sed 's/^/#   /' "$tmp/log"
fi

# The limit: limit-read and limit-write rows become one bar, at limit_gbps.
{
  echo "$head,cpu,compiler,limit_gbps,of_limit"
  for i in utfx-avx2 limit-read limit-write; do
    echo "kernels,convert_utf8_to_utf16le/Arabic,$i,65536,65536,15,100,10000,100,9000,11000,6.5,6.5,1,0.1.0,Test CPU,gcc,3.2768,0.5"
  done
} > "$tmp/limit.csv"
mkdir "$tmp/limit"
if "$chart" "$tmp/limit.csv" "$tmp/limit" > "$tmp/log" 2>&1 &&
    [ "$(bars "$tmp/limit/kernels.svg")" = 2 ] &&
    grep -q '<title>convert_utf8_to_utf16le/Arabic limit: 3.28 GB/s' "$tmp/limit/kernels.svg" &&
    ! grep -q 'limit-' "$tmp/limit/kernels.svg"; then
  echo "ok 7 - the limit's two timings are one bar at limit_gbps"
else
  echo "not ok 7 - the limit's two timings are one bar at limit_gbps"
  grep -o '<title>[^<]*' "$tmp/limit/kernels.svg" 2>/dev/null | head -n 5 | sed 's/^/#   /'
fi
