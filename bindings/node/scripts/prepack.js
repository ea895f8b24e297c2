'use strict';
// `npm pack` / `npm publish` in bindings/node (the repository): puts the
// library in the package as one file (deps/, from `make amalgamate`) and
// builds the prebuilt binaries (prebuilds/PLATFORM-ARCH/utfx.node) for
// linux-x64 and linux-arm64, natively or with the cross compiler.
// A target whose compiler is missing is left out with a message; set
// UTFX_PREBUILDS_REQUIRED=linux-x64,linux-arm64 to make that an error.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { build } = require('./build');

const root = path.join(__dirname, '..');
const repo = path.join(root, '..', '..');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}

function has(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

run('make', ['-C', repo, '--no-print-directory', 'amalgamate']);
fs.mkdirSync(path.join(root, 'deps'), { recursive: true });
for (const f of ['utfx.c', 'utfx.h'])
  fs.copyFileSync(path.join(repo, 'dist', f), path.join(root, 'deps', f));

const required = (process.env.UTFX_PREBUILDS_REQUIRED || '').split(',').filter(Boolean);
const targets = [
  { dir: 'linux-x64', arch: 'x64', cross: 'x86_64-linux-gnu-gcc' },
  { dir: 'linux-arm64', arch: 'arm64', cross: 'aarch64-linux-gnu-gcc' },
];
fs.rmSync(path.join(root, 'prebuilds'), { recursive: true, force: true });
for (const t of targets) {
  const native = os.platform() === 'linux' && process.arch === t.arch;
  const cc = native ? (process.env.CC || 'cc') : t.cross;
  if (!has(cc)) {
    const msg = `prebuilds/${t.dir}: left out (no ${cc})`;
    if (required.includes(t.dir)) throw new Error(msg);
    console.warn(`utfx: ${msg}`);
    continue;
  }
  const out = path.join(root, 'prebuilds', t.dir, 'utfx.node');
  // -s: no symbol table in what is shipped. N-API's headers are the same for
  // every architecture, so the host's serve the cross build.
  build({ cc, out, cflags: '-s' });
  console.log(`utfx: built ${path.relative(root, out)} with ${cc}`);
}
