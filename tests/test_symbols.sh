#!/bin/sh
# The shared library exports only utfx_* symbols, and every function the
# public header declares; the static library defines no global symbol outside
# the utfx_ / utfxi_ namespaces. Speaks TAP.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
so=$BUILD/libutfx.so
echo "1..3"

if [ ! -e "$so" ]; then
  echo "not ok 1 - $so exists"; echo "not ok 2 - $so exists"; echo "not ok 3 - $so exists"; exit 1
fi

exported=$(nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sort)
bad=$(printf '%s\n' "$exported" | grep -v '^utfx_' | grep -v '^$')
if [ -z "$bad" ]; then
  echo "ok 1 - $so exports only utfx_* ($(printf '%s\n' "$exported" | wc -l) symbols)"
else
  echo "not ok 1 - $so exports symbols outside utfx_*"
  printf '%s\n' "$bad" | sed 's/^/#   /'
fi

declared=$(sed -n 's/^UTFX_API .*[ *]\(utfx_[a-z0-9_]*\)(.*/\1/p' include/utfx.h | sort -u)
missing=$(printf '%s\n' "$declared" | while read -r f; do
  printf '%s\n' "$exported" | grep -qx "$f" || echo "$f"
done)
if [ -n "$declared" ] && [ -z "$missing" ]; then
  echo "ok 2 - every function declared in utfx.h is exported ($(printf '%s\n' "$declared" | wc -l))"
else
  echo "not ok 2 - functions declared in utfx.h but not exported"
  printf '%s\n' "$missing" | sed 's/^/#   /'
fi

globals=$(nm -g --defined-only "$BUILD/libutfx.a" 2>/dev/null | awk 'NF >= 3 { print $3 }' |
  grep -v '^utfxi\{0,1\}_' | grep -v '^$' | sort -u)
if [ -z "$globals" ]; then
  echo "ok 3 - libutfx.a defines globals only in the utfx_ / utfxi_ namespaces"
else
  echo "not ok 3 - libutfx.a defines other globals"
  printf '%s\n' "$globals" | sed 's/^/#   /'
fi
