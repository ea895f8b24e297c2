#!/bin/sh
# The Node.js binding (bindings/node/) against Node's own StringDecoder,
# Buffer#write / toString / from, TextEncoder#encodeInto and
# Buffer.byteLength: bindings/node/test/test.js, which prints TAP, on every
# kernel tier this CPU runs; then its register entry (test/register.js: the
# decoders of streams, readline and child process pipes), test/base64.js
# (the base64 functions) and TextDecoder / TextEncoder (test/text.js), as
# subtests. The addon comes from `make test-build` ($BUILD/node/utfx.node).
# In the
# sanitizer build (UTFX_SANITIZED=1) the addon is instrumented and node is
# not, so the sanitizer runtime is preloaded into node and the test runs with
# its smaller counts (--quick).
BUILD=${BUILD:-build}
ADDON=$BUILD/node/utfx.node
NODE=${NODE:-node}
if ! command -v "$NODE" >/dev/null 2>&1; then
  echo "1..1"
  echo "not ok 1 - node is not installed (the binding's tests need it)"
  exit 1
fi
if [ ! -f "$ADDON" ]; then
  echo "1..1"
  echo "not ok 1 - $ADDON is missing (make test-build builds it when node's headers are installed:" \
    "node_api.h, Debian package libnode-dev)"
  exit 1
fi
UTFX_NODE_ADDON=$(cd "$(dirname "$ADDON")" && pwd)/$(basename "$ADDON")
export UTFX_NODE_ADDON
if [ -n "$UTFX_SANITIZED" ]; then
  case "${CC:-cc}" in
    *clang*) rt=$(${CC} -print-file-name=libclang_rt.asan-$(uname -m).so) ;;
    *) rt=$(${CC:-cc} -print-file-name=libasan.so) ;;
  esac
  if [ ! -f "$rt" ]; then
    echo "1..1"
    echo "not ok 1 - no ASan runtime to preload into node (${CC:-cc} -print-file-name gave '$rt')"
    exit 1
  fi
  # V8 keeps its heap alive at exit: leak reports would only be noise.
  export LD_PRELOAD=$rt ASAN_OPTIONS=detect_leaks=0
  quick=--quick
fi
# test.js's TAP, with register.js as its last test (an indented subtest).
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$NODE" bindings/node/test/test.js $quick >"$out"
status=$?
sed '/^1\.\.[0-9]*$/d' "$out"
n=$(($(grep -c '^\(not \)\?ok ' "$out") + 1))
"$NODE" bindings/node/test/register.js >"$out"
reg=$?
sed 's/^/    /' "$out"
if [ $reg -eq 0 ]; then echo "ok $n - register (test/register.js)"; else echo "not ok $n - register (test/register.js)"; fi
n=$((n + 1))
"$NODE" bindings/node/test/base64.js $quick >"$out"
b64=$?
sed 's/^/    /' "$out"
if [ $b64 -eq 0 ]; then echo "ok $n - base64 (test/base64.js)"; else echo "not ok $n - base64 (test/base64.js)"; fi
# TextDecoder / TextEncoder (test/text.js), a subtest too.
n=$((n + 1))
"$NODE" bindings/node/test/text.js $quick >"$out"
text=$?
sed 's/^/    /' "$out"
if [ $text -eq 0 ]; then echo "ok $n - TextDecoder, TextEncoder (test/text.js)"; else echo "not ok $n - TextDecoder, TextEncoder (test/text.js)"; fi
# The benchmarks (make bench runs them): every script of bench/ parses.
n=$((n + 1))
parse=0
for f in bindings/node/bench/*.js; do
  "$NODE" --check "$f" >"$out" 2>&1 || { parse=1; sed -n '1,10s/^/# /p' "$out"; }
done
if [ $parse -eq 0 ]; then echo "ok $n - bench/*.js parse"; else echo "not ok $n - bench/*.js parse"; fi
echo "1..$n"
[ $status -eq 0 ] && [ $reg -eq 0 ] && [ $b64 -eq 0 ] && [ $text -eq 0 ] && [ $parse -eq 0 ]
