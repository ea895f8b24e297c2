#!/bin/sh
# The npm package (bindings/node) as a user gets it: `npm pack` makes a
# tarball (its prepack puts in the amalgamation and the prebuilt binaries,
# linux-x64 and, where the cross compiler is installed, linux-arm64) that
# `npm install --offline` installs into a project outside the repository
# with only node, npm and sh on PATH (no compiler, make or Python); the
# installed package loads its prebuilt binary, passes its own `npm test`
# (quick counts) and its register entry's tests; without prebuilt binaries
# the install step builds the addon from source with a C compiler. Speaks
# TAP. Normal pass only: the sanitizer pass has nothing to add here.
NODE=${NODE:-node}
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
if [ -n "$UTFX_SANITIZED" ]; then
  echo "1..0 # SKIP packaging is checked in the normal pass"
  exit 0
fi
echo "1..7"
for tool in "$NODE" npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "not ok 1 - $tool is not installed (the package test needs node and npm)"
    exit 1
  fi
done
tmp=$(mktemp -d) || exit 1
# npm pack's prepack writes deps/ and prebuilds/ into bindings/node: removed
# afterwards unless they were there before (index.js loads a prebuilt binary
# ahead of the repository's build/node/utfx.node, which would go stale).
made=
for d in deps prebuilds; do [ -e "bindings/node/$d" ] || made="$made bindings/node/$d"; done
trap 'rm -rf "$tmp" $made' EXIT
export HOME="$tmp/home" npm_config_cache="$tmp/npm-cache" npm_config_update_notifier=false \
  npm_config_fund=false npm_config_audit=false
mkdir -p "$HOME"
fail=0
ok() { echo "ok $1 - $2"; }
# The log's first 40 lines that are not passing tests, on stderr as well:
# prove shows a failing test's stderr, not its TAP comments, and CI prints
# only prove's output.
notok() {
  echo "not ok $1 - $2"
  fail=1
  grep -v '^ok ' "$tmp/log" | sed -n '1,40s/^/# /p' >"$tmp/shown"
  cat "$tmp/shown"
  cat "$tmp/shown" >&2
}

# 1. npm pack, with every prebuilt binary this machine can build required.
required=linux-x64
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && required=$required,linux-arm64
if (cd bindings/node && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL UTFX_PREBUILDS_REQUIRED=$required \
    npm pack --pack-destination "$tmp" >"$tmp/log" 2>&1); then
  ok 1 "npm pack in bindings/node (prebuilds: $required)"
else
  notok 1 "npm pack in bindings/node"
  exit 1
fi
tgz=$(ls "$tmp"/utfx-*.tgz)

# 2. What the tarball holds.
tar tzf "$tgz" | sed 's|^package/||' | sort >"$tmp/files"
missing=
for f in index.js base64.js text.js index.d.ts register.js register.d.ts package.json src/addon.c \
    src/addon_base64.c src/addon_text.c src/scratch.h deps/utfx.c deps/utfx.h scripts/build.js scripts/install.js \
    test/test.js test/register.js test/base64.js test/text.js \
    $(echo "$required" | tr , '\n' | sed 's|.*|prebuilds/&/utfx.node|'); do
  grep -qx "$f" "$tmp/files" || missing="$missing $f"
done
if [ -z "$missing" ] && ! grep -q '^\.\./\|Makefile' "$tmp/files"; then
  ok 2 "the tarball has the module, types, amalgamation, sources, tests and prebuilds"
else
  cp "$tmp/files" "$tmp/log"
  notok 2 "the tarball lacks:$missing (or refers outside the package)"
fi

# 3. The arm64 binary: an AArch64 shared object needing only libc, whose
# undefined symbols are N-API's or libc's (qemu-user here cannot run an
# arm64 node, so it is not loaded).
if echo "$required" | grep -q arm64; then
  mkdir -p "$tmp/x" && tar xzf "$tgz" -C "$tmp/x" package/prebuilds/linux-arm64/utfx.node
  so=$tmp/x/package/prebuilds/linux-arm64/utfx.node
  if readelf -h "$so" | grep -q 'AArch64' && \
     [ "$(readelf -d "$so" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')" = "libc.so.6 " ] && \
     ! readelf --dyn-syms -W "$so" | awk '$7 == "UND" && $8 != "" {print $8}' | \
       grep -v '^napi_\|^node_api_\|@GLIBC_\|^__\|^_ITM\|^_Jv' | grep -q .; then
    ok 3 "prebuilds/linux-arm64/utfx.node: AArch64, libc only, N-API and libc symbols only"
  else
    { readelf -h "$so"; readelf -d "$so"; } >"$tmp/log" 2>&1
    notok 3 "prebuilds/linux-arm64/utfx.node is not a plain AArch64 N-API addon"
  fi
else
  echo "ok 3 # SKIP no aarch64-linux-gnu-gcc: the tarball has no linux-arm64 binary to check"
fi

# 4. Install in a fresh project with only node, npm and sh on PATH.
mkdir -p "$tmp/bin" "$tmp/proj"
ln -s "$(command -v "$NODE")" "$tmp/bin/node"
ln -s "$(command -v npm)" "$tmp/bin/npm"
ln -s "$(command -v sh)" "$tmp/bin/sh"
echo '{ "name": "consumer", "version": "1.0.0", "private": true }' >"$tmp/proj/package.json"
if (cd "$tmp/proj" && env -u CC PATH="$tmp/bin" npm install --offline "$tgz" >"$tmp/log" 2>&1) &&
   (cd "$tmp/proj" && PATH="$tmp/bin" node -e '
      const u = require("utfx");
      const s = "h\u00e9 \u20ac\ud83d\ude00\ud800";
      if (!u.encode(s).equals(Buffer.from(s))) throw new Error("encode");
      if (new u.StringDecoder().write(Buffer.from(s)) !== Buffer.from(s).toString()) throw new Error("decoder");
      if (!require.resolve("utfx").includes("node_modules")) throw new Error("resolved outside");
      require("utfx/register");' >"$tmp/log" 2>&1) &&
   [ ! -e "$tmp/proj/node_modules/utfx/build" ]; then
  ok 4 "npm install --offline of the tarball with only node, npm and sh on PATH; the prebuilt binary loads"
else
  notok 4 "npm install --offline of the tarball with only node, npm and sh on PATH"
fi

# 5. The installed package's own tests.
# (Each file's exit status in the log: one killed by a signal prints no
# 'not ok' line, only its seed, which random.js prints first.)
if (cd "$tmp/proj/node_modules/utfx" && : >"$tmp/log" &&
    for t in 'test.js --quick' register.js 'base64.js --quick' 'text.js --quick'; do
      PATH="$tmp/bin" node test/$t >>"$tmp/log" 2>&1
      status=$?
      [ $status -eq 0 ] || { echo "# node test/$t: exit status $status"; exit 1; } >>"$tmp/log"
    done); then
  ok 5 "the installed package's tests pass (test.js, register.js, base64.js, text.js)"
else
  notok 5 "the installed package's tests"
fi

# 6. No prebuilt binary for this platform: the install step builds one.
rm -rf "$tmp/proj/node_modules/utfx/prebuilds"
if (cd "$tmp/proj" && npm rebuild utfx --foreground-scripts >"$tmp/log" 2>&1) &&
   [ -f "$tmp/proj/node_modules/utfx/build/utfx.node" ] &&
   (cd "$tmp/proj" && node -e 'const u = require("utfx"); if (u.byteLength("\u00e9".repeat(40)) !== 80) throw 1' \
     >>"$tmp/log" 2>&1); then
  ok 6 "without a prebuilt binary, npm rebuild compiles the amalgamation with cc and loads it"
else
  notok 6 "build from source"
fi

# 7. TypeScript declarations: every export is declared.
if (cd "$tmp/proj/node_modules/utfx" && node -e '
    const fs = require("fs");
    const d = fs.readFileSync("index.d.ts", "utf8");
    const names = Object.keys(require("."));
    const missing = names.filter((n) => !new RegExp(`export declare (function|const) ${n}\\b`).test(d));
    if (missing.length) throw new Error("not declared: " + missing.join(", "));' >"$tmp/log" 2>&1); then
  ok 7 "index.d.ts declares every export"
else
  notok 7 "index.d.ts"
fi
exit $fail
