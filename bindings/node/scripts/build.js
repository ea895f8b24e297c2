'use strict';
// Builds the addon from source: src/addon*.c and the library as one file
// (deps/utfx.c, the amalgamation), with a C compiler and the headers of the
// Node that runs this script. Nothing is downloaded: node-gyp would fetch
// Node's headers even when they are installed, and needs Python and make.
//   node scripts/build.js [--out FILE] [--cc COMPILER] [--node-include DIR] [--cflags "..."]
// Environment: CC, CFLAGS, UTFX_NODE_INCLUDE (npm_config_nodedir/include/node
// also counts). Default output: build/utfx.node.

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.join(__dirname, '..');

// Where node_api.h is: the include/node beside this node's bin/, or the
// directories package managers and version managers use.
function nodeInclude(given) {
  const candidates = given ? [given] : [
    process.env.npm_config_nodedir && path.join(process.env.npm_config_nodedir, 'include', 'node'),
    path.join(path.dirname(process.execPath), '..', 'include', 'node'),
    '/usr/include/node',
    '/usr/local/include/node',
  ].filter(Boolean);
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'node_api.h')));
  if (!found) {
    throw new Error(`no node_api.h in ${candidates.join(', ')}: install Node's headers ` +
      '(Debian: libnode-dev; they come with the official Node.js builds), or set UTFX_NODE_INCLUDE');
  }
  return found;
}

// opts: out, cc, nodeInclude, cflags (a string); each defaults as above.
function build(opts = {}) {
  const out = path.resolve(opts.out || path.join(root, 'build', 'utfx.node'));
  const env = process.env;
  const lib = path.join(root, 'deps', 'utfx.c');
  if (!fs.existsSync(lib))
    throw new Error(`${lib} is missing (npm pack puts it there; in the repository run \`make node\`)`);
  const flags = [
    '-O2', '-fPIC', '-shared', '-fvisibility=hidden', '-std=c11',
    '-DNODE_GYP_MODULE_NAME=utfx',
    '-I', path.join(root, 'deps'), '-isystem', nodeInclude(opts.nodeInclude || env.UTFX_NODE_INCLUDE),
    ...(opts.cflags || env.CFLAGS || '').split(/\s+/).filter(Boolean),
    path.join(root, 'src', 'addon.c'), path.join(root, 'src', 'addon_base64.c'),
    path.join(root, 'src', 'addon_text.c'), lib, '-o', out,
  ];
  if (process.platform === 'darwin') flags.push('-undefined', 'dynamic_lookup');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tried = [];
  const cc1 = opts.cc || env.CC;
  for (const cc of cc1 ? [cc1] : ['cc', 'gcc', 'clang']) {
    const r = spawnSync(cc, flags, { stdio: 'inherit' });
    if (r.error && r.error.code === 'ENOENT') {
      tried.push(`${cc} (not found)`);
      continue;
    }
    if (r.status === 0) return out;
    throw new Error(`${cc} failed (exit ${r.status})`);
  }
  throw new Error(`no C compiler: tried ${tried.join(', ')}; set CC`);
}

module.exports = { build };

if (require.main === module) {
  const opts = {};
  const names = { '--out': 'out', '--cc': 'cc', '--node-include': 'nodeInclude', '--cflags': 'cflags' };
  for (let i = 2; i < process.argv.length; i += 2) {
    const key = names[process.argv[i]];
    if (key === undefined || i + 1 >= process.argv.length) {
      console.error(`usage: node scripts/build.js [${Object.keys(names).join(' X] [')} X]`);
      process.exit(2);
    }
    opts[key] = process.argv[i + 1];
  }
  try {
    console.log(`utfx: built ${build(opts)}`);
  } catch (err) {
    console.error(`utfx: ${err.message}`);
    process.exit(1);
  }
}
