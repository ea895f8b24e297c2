'use strict';
// Node's own benchmark grids, builtin against utfx in one process,
// interleaved run by run, with compare.R's statistics (bench/stats.js):
//   decoder   benchmark/string_decoder/string-decoder.js: encoding ascii, utf8,
//             base64-utf8, base64-ascii, utf16le x inLen 32..4096 (characters)
//             x chunkLen 16..1024 (characters), plus CJK and emoji text, and
//             CJK cut into byte chunks that end inside characters;
//   write     buffer-write-string-utf8: one-byte, two-byte, two-byte-astral,
//             two-byte-lone-surrogate x len 16..65536, destination that fits
//             and one byte short;
//   rpc       a JSON-RPC round trip with a child process over stdio (64 KiB of
//             non-ASCII JSON each way), builtin vs utfx in the parent only and
//             on both ends, ms per round trip;
//   overhead  the cost of one N-API call, and where the JS fallbacks pay;
//   base64    toBase64 / fromBase64 / setFromBase64 / base64Encode /
//             base64Decode against Buffer's base64 and base64url (toString,
//             from, write), 16 B .. 1 MiB of binary data;
//   base64-overhead  the same on 4..512 bytes with the addon forced and
//             with JavaScript forced: where the thresholds (base64.js) pay;
//   base64-bound  fromBase64 against the allocation of its result alone and
//             setFromBase64 against the copy of its text that N-API makes;
//   text      TextDecoder#decode (utf-8 and utf-16le, one-shot and in 1 KiB
//             chunks with {stream: true}) and TextEncoder#encode, the globals
//             against utfx's, on ASCII, Latin, CJK, emoji and mixed text, 1 B
//             .. 1 MiB; and (crossover) where the JavaScript paths pay;
//   text-bound  TextEncoder#encode (the global's and utfx's) against the
//             allocation of its result alone (new Uint8Array(length)).
// Usage: node bench/bench.js [--suite decoder,write,encode,rpc,overhead,base64,base64-bound,text,text-bound]
//        [--runs N]
//        [--batch-ms X] [--filter REGEX] [--quick] [--no-gc] [--seed N] [--old DIR]
// --old DIR: a second copy of the package (e.g. an older commit's
// bindings/node with its own build/utfx.node) timed as a third side in the
// text and base64 grids: builtin, old and new interleaved in one process.
// Every side of every cell is its own compiled loop (timed() below): a loop
// closure shared by all cells makes its call sites polymorphic, and two
// identical copies of the package then read 0.79-0.94 of each other.
// Rates are operations per second of CPU time (process.cpuUsage: the machine
// is shared; time spent descheduled does not count; the collector's threads
// count for both sides), one rate per run. Each run visits the cells in a
// new random order (a cell's neighbours change from run to run), and every
// batch starts after a full collection (--no-gc: not), so that no batch
// pays for the garbage of the one before it: an allocating cell next to
// another used to swing by 5-20 %.

const path = require('path');
const { spawn } = require('child_process');
const fs = require('fs');
const builtin = require('string_decoder');
const utfx = require('..');
const { compare, mean } = require('./stats');

const opts = { suites: ['decoder', 'write', 'encode', 'rpc', 'overhead', 'base64', 'text'], runs: 10,
  batchMs: 10,
  filter: null, quick: false, gc: true, seed: 1, old: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--suite') opts.suites = process.argv[++i].split(',');
  else if (a === '--runs') opts.runs = Number(process.argv[++i]);
  else if (a === '--batch-ms') opts.batchMs = Number(process.argv[++i]);
  else if (a === '--filter') opts.filter = new RegExp(process.argv[++i]);
  else if (a === '--quick') opts.quick = true;
  else if (a === '--no-gc') opts.gc = false;
  else if (a === '--seed') opts.seed = Number(process.argv[++i]);
  else if (a === '--old') opts.old = process.argv[++i];
  else {
    process.stderr.write(`bench.js: unknown option ${a}\n`);
    process.exit(2);
  }
}
if (opts.quick) Object.assign(opts, { runs: 3, batchMs: 3 });

function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

let sink = 0;
const oldPkg = opts.old ? require(path.resolve(opts.old)) : null;
// One addon file loads once per process: two packages on it would share its
// state (base64Setup's arrays: the last package's win, the other's calls
// read them), so each needs its own file.
if (oldPkg && oldPkg._internal && oldPkg._internal.addon === utfx._internal.addon) {
  console.error('bench.js: --old uses the same addon file as this package (UTFX_NODE_ADDON?): ' +
    'give it a copy of its own (its build/utfx.node)');
  process.exit(2);
}

// A timing loop of its own for one side of one cell: `code` is an
// expression whose value is summed over iters calls, or a block `{ ... }`
// that adds to acc; env's names are bound as variables. new Function gives
// every loop fresh code, hence its own type feedback: no call site is
// shared between cells or implementations (see the Usage note).
function timed(code, env = {}) {
  const names = Object.keys(env);
  const step = code.startsWith('{') ? code : `acc += ${code};`;
  // eslint-disable-next-line no-new-func
  return new Function(...names, `'use strict';
    return function (iters) { let acc = 0; for (let i = 0; i < iters; i++) ${step} return acc; };`)(
    ...names.map((k) => env[k]));
}

// A full collection before each timed batch (the flag set at run time, as
// node --expose-gc would).
require('v8').setFlagsFromString('--expose-gc');
const fullGc = opts.gc ? require('vm').runInNewContext('gc') : () => {};

// Cells in a new order each run: a small deterministic generator (--seed).
let seed = opts.seed >>> 0 || 1;
function random() {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}
function shuffled(a) {
  const b = a.slice();
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
}

// Iterations so that one batch of `fn` takes about batchMs. A batch that
// reaches half of it is timed twice more and the least time taken: the
// process's CPU time counts the compiler's and collector's threads, and a
// first batch of a few calls beside a 25-50 ms compilation used to fix
// iters at 1-30 for the whole grid, each batch then one to thirty cold
// calls after a full collection (a side read 2-400x slower, by seed).
function batchNs(fn, iters) {
  const t0 = cpuNs();
  sink += fn(iters);
  return cpuNs() - t0;
}
function calibrate(fn) {
  let iters = 1;
  for (;;) {
    let t = batchNs(fn, iters);
    if (t >= opts.batchMs * 1e6 * 0.5 || iters > 1e9) {
      t = Math.min(t, batchNs(fn, iters), batchNs(fn, iters));
      if (t >= opts.batchMs * 1e6 * 0.125 || iters > 1e9)
        return Math.max(1, Math.round(iters * (opts.batchMs * 1e6) / Math.max(t, 1)));
    }
    iters *= t > 0 ? Math.min(16, Math.max(2, (opts.batchMs * 1e6) / t)) : 16;
    iters = Math.ceil(iters);
  }
}

// Rate (ops/s) of one batch.
function rate(fn, iters) {
  fullGc();
  const t0 = cpuNs();
  sink += fn(iters);
  const t = cpuNs() - t0;
  return iters / (Math.max(t, 1) / 1e9);
}

// cells: [{ name, builtin: fn(iters), utfx: fn(iters) }], or instead of
// utfx `of: (pkg) => fn(iters)`, which --old also builds from the old copy.
// Interleaved: every run times every cell, all sides, in rotating order.
function runGrid(title, cells) {
  cells = cells.filter((c) => !opts.filter || opts.filter.test(c.name));
  if (!cells.length) return [];
  const withOld = oldPkg !== null && cells.every((c) => c.of);
  const impls = withOld ? ['builtin', 'old', 'utfx'] : ['builtin', 'utfx'];
  process.stderr.write(`${title}: ${cells.length} cells x ${opts.runs} runs\n`);
  for (const c of cells) {
    if (c.of) {
      if (withOld) c.old = c.of(oldPkg);
      c.utfx = c.of(utfx);
    }
    for (const impl of impls) c[impl](3); // warm up (and let V8 optimize) before calibrating
    c.iters = {};
    c.rates = {};
    for (const impl of impls) {
      c.iters[impl] = calibrate(c[impl]);
      c.rates[impl] = [];
    }
  }
  for (let r = 0; r < opts.runs; r++) {
    for (const c of shuffled(cells)) {
      const k = r % impls.length;
      const order = [...impls.slice(k), ...impls.slice(0, k)];
      if ((r / impls.length | 0) % 2) order.reverse();
      for (const impl of order) c.rates[impl].push(rate(c[impl], c.iters[impl]));
    }
  }
  const row = (c, a, b) => ({ name: c.name, ...compare(c.rates[a], c.rates[b]),
    nsBuiltin: 1e9 / mean(c.rates[a]), nsUtfx: 1e9 / mean(c.rates[b]),
    paired: median(c.rates[b].map((u, r) => u / c.rates[a][r])) });
  const rows = cells.map((c) => row(c, 'builtin', 'utfx'));
  printTable(title, rows);
  if (withOld) {
    printTable(`${title} [--old ${opts.old}]`, cells.map((c) => row(c, 'builtin', 'old')), 'builtin', 'old');
    printTable(`${title} [old vs new]`, cells.map((c) => row(c, 'old', 'utfx')), 'old', 'new');
  }
  return rows;
}

function median(a) {
  const b = a.slice().sort((x, y) => x - y);
  return b.length % 2 ? b[b.length >> 1] : (b[b.length / 2 - 1] + b[b.length / 2]) / 2;
}

function pad(s, n, right) {
  s = String(s);
  return right ? s.padEnd(n) : s.padStart(n);
}

function printTable(title, rows, a = 'builtin', b = 'utfx') {
  const w = Math.max(...rows.map((r) => r.name.length), 10);
  console.log(`\n## ${title}: ${a} vs ${b}, ${opts.runs} runs each, interleaved`);
  console.log(`${pad('', w, true)}  ${pad(`${a} ns`, 11)} ${pad(`${b} ns`, 10)} ${pad('speedup', 8)}` +
    `  confidence improvement accuracy (*)   (**)  (***)   paired`);
  for (const r of rows) {
    const acc = r.accuracy.map((a) => pad(`±${a.toFixed(2)}%`, 8));
    console.log(`${pad(r.name, w, true)}  ${pad(r.nsBuiltin.toFixed(1), 11)} ` +
      `${pad(r.nsUtfx.toFixed(1), 10)} ${pad(`${r.ratio.toFixed(2)}x`, 8)}  ${pad(r.stars, 10)} ` +
      `${pad(`${r.improvement.toFixed(2)} %`, 11)} ${acc.join(' ')} ${pad(`${r.paired.toFixed(2)}x`, 8)}`);
  }
  const ratios = rows.map((r) => r.ratio);
  const geo = Math.exp(mean(ratios.map(Math.log)));
  const paired = rows.map((r) => r.paired);
  console.log(`${pad('geometric mean of speedups', w, true)}  ${pad('', 11)} ${pad('', 10)} ` +
    `${pad(`${geo.toFixed(2)}x`, 8)}  (min ${Math.min(...ratios).toFixed(2)}x, ` +
    `max ${Math.max(...ratios).toFixed(2)}x; paired: min ${Math.min(...paired).toFixed(2)}x)`);
  console.log('(paired: the median over runs of the two rates of one run, a batch each side by side)');
}

// ------------------------------------------------------------ decoder grid

// The inputs of Node's benchmark/string_decoder/string-decoder.js (inLen and
// chunkLen count characters; chunks never split one), built the same way.
function nodeDecoderChunks(encoding, inLen, chunkLen) {
  const alphabets = { ascii: 'Blueberry jam', utf8: 'Blåbærsyltetøy',
    'utf8-cjk': '日本語の文章と中文。', 'utf8-emoji': '😀🚀 ok 👍🏽🎉 ' };
  const base64 = encoding.startsWith('base64-');
  const source = base64 ? encoding.slice(7) : encoding;
  const chunks = [];
  if (source === 'utf16le') {
    const units = Buffer.from('Blåbærsyltetøy', 'utf16le');
    let cur = [];
    for (let i = 0; i < inLen; i++) {
      if (i > 0 && i % chunkLen === 0) {
        chunks.push(Buffer.concat(cur));
        cur = [];
      }
      const start = i % 2 ? i + 1 : i; // Node's odd-index quirk, reproduced
      cur.push(units.subarray(start % units.length, (start + 2) % units.length));
    }
    if (cur.length) chunks.push(Buffer.concat(cur));
    return { chunks, enc: 'utf16le' };
  }
  const alpha = [...alphabets[source]]; // characters (emoji are pairs)
  let text = '';
  for (let i = 0; i < inLen; i++) {
    if (!base64 && i > 0 && i % chunkLen === 0) {
      chunks.push(Buffer.from(text, 'utf8'));
      text = '';
    }
    text += alpha[i % alpha.length];
  }
  if (base64) {
    const b64 = Buffer.from(text, 'utf8').toString('base64');
    for (let at = 0; at < b64.length; at += chunkLen)
      chunks.push(Buffer.from(b64.slice(at, at + chunkLen), 'utf8'));
    return { chunks, enc: 'base64' };
  }
  if (text.length) chunks.push(Buffer.from(text, 'utf8'));
  return { chunks, enc: source === 'ascii' ? 'ascii' : 'utf8' };
}

function decoderCell(name, chunks, enc, withEnd) {
  const code = `{ for (let j = 0; j < chunks.length; j++) acc += sd.write(chunks[j]).length;${
    withEnd ? ' acc += sd.end().length;' : ''} }`;
  return { name, builtin: timed(code, { sd: new builtin.StringDecoder(enc), chunks }),
    of: (P) => timed(code, { sd: new P.StringDecoder(enc), chunks }) };
}

function decoderGrid() {
  const cells = [];
  const lens = opts.quick ? [32, 1024] : [32, 128, 1024, 4096];
  const chunkLens = opts.quick ? [16, 1024] : [16, 64, 256, 1024];
  for (const encoding of ['ascii', 'utf8', 'base64-utf8', 'base64-ascii', 'utf16le']) {
    for (const inLen of lens) {
      for (const chunkLen of chunkLens) {
        const { chunks, enc } = nodeDecoderChunks(encoding, inLen, chunkLen);
        cells.push(decoderCell(`encoding=${encoding} inLen=${inLen} chunkLen=${chunkLen}`,
          chunks, enc, false));
      }
    }
  }
  for (const encoding of ['utf8-cjk', 'utf8-emoji']) {
    for (const inLen of [1024, 4096]) {
      for (const chunkLen of chunkLens) {
        const { chunks, enc } = nodeDecoderChunks(encoding, inLen, chunkLen);
        cells.push(decoderCell(`encoding=${encoding} inLen=${inLen} chunkLen=${chunkLen}`,
          chunks, enc, false));
      }
    }
  }
  // Byte chunks that end inside characters (Node's grid never does), + end().
  const cjk = Buffer.concat(nodeDecoderChunks('utf8-cjk', 4096, 4096).chunks);
  for (const bytes of [7, 61, 255, 1021]) {
    const chunks = [];
    for (let at = 0; at < cjk.length; at += bytes) chunks.push(cjk.subarray(at, at + bytes));
    cells.push(decoderCell(`encoding=utf8-cjk bytes=${cjk.length} byteChunk=${bytes} +end`, chunks,
      'utf8', true));
  }
  return runGrid('string_decoder (Node\'s benchmark/string_decoder/string-decoder.js grid)', cells);
}

// ------------------------------------------------------------ write grid

function makeWriteString(chars, len) {
  switch (chars) {
    case 'one-byte': return 'a\u00e9'.repeat(len / 2);
    case 'two-byte': return 'a\u00e9\u20ac\u65e5'.repeat(len / 4);
    case 'two-byte-astral': return 'a\u00e9\u20ac\u65e5\u{1F600}'.repeat(len / 6).padEnd(len, 'a');
    case 'two-byte-lone-surrogate': return `${'a\u00e9\u20ac\u65e5'.repeat(len / 4 - 1)}ab\ud800c`;
    default: throw new Error(chars);
  }
}

function writeGrid() {
  const cells = [];
  const lens = opts.quick ? [16, 65536] : [16, 256, 2048, 65536];
  for (const chars of ['one-byte', 'two-byte', 'two-byte-astral', 'two-byte-lone-surrogate']) {
    for (const len of lens) {
      const s = makeWriteString(chars, len);
      const need = Buffer.byteLength(s);
      for (const [dst, size] of [['fits', need], ['short', need - 1]]) {
        const a = Buffer.allocUnsafe(size);
        const b = Buffer.allocUnsafe(size);
        cells.push({ name: `chars=${chars} len=${len} dst=${dst}`,
          builtin: timed('a.write(s, 0, \'utf8\')', { a, s }), of: (P) => timed('P.write(b, s, 0)', { P, b, s }) });
      }
    }
  }
  // buffer-write-string.js: utf8, 'a' x 2048, without and with offset
  // and length; buffer-write-string-short.js: utf8, len 1..32.
  const a2048 = 'a'.repeat(2048);
  const wa = Buffer.allocUnsafe(2048);
  const wb = Buffer.allocUnsafe(2048);
  const env = { wa, wb, a2048 };
  const cell = (name, bcode, ucode, e) => ({ name, builtin: timed(bcode, e), of: (P) => timed(ucode, { P, ...e }) });
  cells.push(
    cell('buffer-write-string encoding=utf8 args= len=2048', 'wa.write(a2048, \'utf8\')', 'P.write(wb, a2048)', env),
    cell('buffer-write-string encoding=utf8 args=offset len=2048', 'wa.write(a2048, 0, \'utf8\')',
      'P.write(wb, a2048, 0)', env),
    cell('buffer-write-string encoding=utf8 args=offset+length len=2048', 'wa.write(a2048, 0, wa.length, \'utf8\')',
      'P.write(wb, a2048, 0, wb.length)', env));
  const a65536 = Buffer.from('a'.repeat(65536)).toString();
  const wl = Buffer.allocUnsafe(65536);
  const wm = Buffer.allocUnsafe(65536);
  cells.push(cell('buffer-write-string encoding=utf8 args=offset len=65536', 'wl.write(a65536, 0, \'utf8\')',
    'P.write(wm, a65536, 0)', { wl, wm, a65536 }));
  for (const len of [1, 8, 16, 32]) {
    const sa = Buffer.allocUnsafe(len);
    const sb = Buffer.allocUnsafe(len);
    const str = Buffer.from('a'.repeat(len)).toString();
    cells.push(cell(`buffer-write-string-short encoding=utf8 len=${len}`, 'sa.write(str, 0, \'utf8\')',
      'P.write(sb, str, 0)', { sa, sb, str }));
  }
  return runGrid('buffer-write-string-utf8 (buf.write(string, 0, \'utf8\')), buffer-write-string, ' +
    'buffer-write-string-short', cells);
}

// Buffer.from(string) against utfx.encode(string), on the write grid's
// strings and 'a' x 2048.
function encodeGrid() {
  const cells = [];
  const lens = opts.quick ? [16, 65536] : [16, 256, 2048, 65536];
  const strings = [];
  for (const chars of ['one-byte', 'two-byte', 'two-byte-astral', 'two-byte-lone-surrogate'])
    for (const len of lens) strings.push([`chars=${chars} len=${len}`, makeWriteString(chars, len)]);
  strings.push(['chars=ascii len=2048', 'a'.repeat(2048)]);
  for (const [name, s] of strings) {
    cells.push({ name, builtin: timed('Buffer.from(s).length', { s }),
      of: (P) => timed('P.encode(s).length', { P, s }) });
  }
  return runGrid('Buffer.from(string) vs encode(string)', cells);
}

// ------------------------------------------------------------ overhead

function overhead() {
  const { addon, thresholds } = utfx._internal;
  const empty = Buffer.alloc(0);
  const sd = new utfx.StringDecoder('utf8');
  const state = sd[Object.getOwnPropertySymbols(sd)[0]];
  const st = state[Object.getOwnPropertySymbols(state).find((k) => k.description === 'kHandle')];
  const jsNop = new Function('return undefined'); // eslint-disable-line no-new-func
  const env = { jsNop, addon, st, empty };
  const cells = [
    { name: 'call: empty JS function (baseline)', fn: timed('(jsNop() === undefined ? 1 : 0)', env) },
    { name: 'call: N-API function that does nothing', fn: timed('(addon.nop() === undefined ? 1 : 0)', env) },
    { name: 'call: decoderWrite(state, empty Buffer)',
      fn: timed('(addon.decoderWrite(st, empty) === undefined ? 1 : 0)', env) },
  ];
  console.log('\n## overhead: ns per call (median of runs)');
  for (const c of cells) {
    c.fn(1000);
    const iters = calibrate(c.fn);
    const ns = [];
    for (let r = 0; r < Math.max(opts.runs, 5); r++) ns.push(1e9 / rate(c.fn, iters));
    ns.sort((x, y) => x - y);
    console.log(`${c.name.padEnd(45)} ${ns[ns.length >> 1].toFixed(1).padStart(8)} ns`);
  }

  // Crossover: the addon path forced (thresholds 0) against the builtins,
  // by input size, for each function with a fallback.
  const old = thresholds(0, 0, 0);
  const sizes = opts.quick ? [4, 16, 64] : [4, 8, 16, 32, 48, 64, 128, 256, 1024, 4096];
  const xcells = [];
  const enc = new TextEncoder();
  for (const n of sizes) {
    const text = Buffer.from('Bl\u00e5b\u00e6rsyltet\u00f8y '.repeat(Math.ceil(n / 8)));
    const bytes = text.subarray(0, n - (text[n - 1] >= 0xc0 ? 1 : 0)); // no char cut
    const ascii = Buffer.from('Blueberry jam '.repeat(Math.ceil(n / 8))).subarray(0, n);
    const utf16 = Buffer.from('Bl\u00e5b\u00e6rsyltet\u00f8y '.repeat(n), 'utf16le').subarray(0, n & ~1);
    const str = 'na\u00efve caf\u00e9 \u20ac\u65e5 '.repeat(n).slice(0, n);
    const dst = Buffer.alloc(4 * n);
    const u8 = new Uint8Array(4 * n);
    for (const [what, e, input] of [['utf8 text', 'utf8', bytes], ['utf8 ascii', 'utf8', ascii],
      ['ascii', 'ascii', ascii], ['latin1', 'latin1', bytes], ['utf16le', 'utf16le', utf16],
      ['base64', 'base64', bytes.subarray(0, n - n % 3)], ['hex', 'hex', bytes]]) {
      xcells.push({ name: `n=${n} StringDecoder#write ${what}`,
        builtin: timed('d.write(input).length', { d: new builtin.StringDecoder(e), input }),
        utfx: timed('d.write(input).length', { d: new utfx.StringDecoder(e), input }) });
    }
    const env = { utfx, enc, bytes, dst, str, u8 };
    for (const [what, bcode, ucode] of [
      ['decode (toString utf8) text', 'bytes.toString(\'utf8\').length', 'utfx.decode(bytes).length'],
      ['write (buf.write utf8)', 'dst.write(str, 0, \'utf8\')', 'utfx.write(dst, str, 0)'],
      ['encodeInto', 'enc.encodeInto(str, u8).written', 'utfx.encodeInto(str, u8).written'],
      ['byteLength', 'Buffer.byteLength(str, \'utf8\')', 'utfx.byteLength(str)']])
      xcells.push({ name: `n=${n} ${what}`, builtin: timed(bcode, env), utfx: timed(ucode, env) });
  }
  const rows = runGrid('crossover: the addon path forced (no JS fallback) vs the builtin, by size',
    xcells);
  thresholds(...old);
  return rows;
}

// ------------------------------------------------------------ text

const TEXTS = {
  ascii: 'The quick brown fox jumps over the lazy dog; 0123456789. ',
  latin: 'Blåbærsyltetøy på brødskiva, s\'il vous plaît, ¿qué tal? Größe. ',
  cjk: '日本語のテキストと中文文本，한국어 텍스트。',
  emoji: '😀🎉👍🏽❤️🚀✨🙈 ',
  mixed: 'Hello, 世界! Ça va? 😀 The price is 42 €. ',
};

// UTF-8 of text repeated, cut to at most n bytes at a character boundary.
function textBytes(kind, n) {
  const b = Buffer.from(TEXTS[kind].repeat(Math.ceil(n / Buffer.byteLength(TEXTS[kind])) + 1));
  let end = Math.min(n, b.length);
  while (end > 0 && end < b.length && (b[end] & 0xC0) === 0x80) end--;
  return new Uint8Array(b.subarray(0, end)); // a plain Uint8Array, as web code has
}

function textGrid() {
  const sizes = opts.quick ? [1, 64, 4096, 1 << 20] : [1, 16, 64, 256, 1024, 16384, 1 << 20];
  const cells = [];
  for (const kind of Object.keys(TEXTS)) {
    for (const n of sizes) {
      const bytes = textBytes(kind, n);
      if (bytes.length === 0) continue; // (1 byte of CJK or emoji: no whole character)
      const str = new TextDecoder().decode(bytes);
      const name = `${kind} ${bytes.length} B`;
      cells.push({ name: `decode utf-8 ${name}`,
        builtin: timed('d.decode(bytes).length', { d: new TextDecoder(), bytes }),
        of: (P) => timed('d.decode(bytes).length', { d: new P.TextDecoder(), bytes }) });
      const chunks = [];
      for (let at = 0; at < bytes.length; at += 1024) chunks.push(bytes.subarray(at, at + 1024));
      const stream = '{ for (let j = 0; j < chunks.length; j++) acc += d.decode(chunks[j], opt).length; ' +
        'acc += d.decode().length; }';
      if (n >= 1024 || n === sizes[0]) {
        cells.push({ name: `decode utf-8 stream 1 KiB chunks ${name}`,
          builtin: timed(stream, { d: new TextDecoder(), chunks, opt: { stream: true } }),
          of: (P) => timed(stream, { d: new P.TextDecoder(), chunks, opt: { stream: true } }) });
      }
      if (n >= 64) {
        const u16 = new Uint8Array(Buffer.from(str, 'utf16le'));
        cells.push({ name: `decode utf-16le ${kind} ${u16.length} B`,
          builtin: timed('d.decode(u16).length', { d: new TextDecoder('utf-16le'), u16 }),
          of: (P) => timed('d.decode(u16).length', { d: new P.TextDecoder('utf-16le'), u16 }) });
      }
      cells.push({ name: `encode ${kind} ${str.length} units`,
        builtin: timed('e.encode(str).length', { e: new TextEncoder(), str }),
        of: (P) => timed('e.encode(str).length', { e: new P.TextEncoder(), str }) });
    }
    // encodeInto a Uint8Array with room, 12..1024 units (a form field, a
    // line, a message).
    for (const units of opts.quick ? [12, 64] : [12, 24, 48, 64, 96, 127, 256, 1024]) {
      const str = TEXTS[kind].repeat(Math.ceil(units / TEXTS[kind].length) + 1).slice(0, units)
        .replace(/[\ud800-\udbff]$/, 'x'); // no lone surrogate at the cut
      const dst = new Uint8Array(3 * units);
      cells.push({ name: `encodeInto ${kind} ${units} units`,
        builtin: timed('e.encodeInto(str, dst).written', { e: new TextEncoder(), str, dst }),
        of: (P) => timed('e.encodeInto(str, dst).written', { e: new P.TextEncoder(), str, dst }) });
    }
  }
  const rows = runGrid('TextDecoder / TextEncoder: the globals vs utfx\'s', cells);

  // Crossover: the addon forced (thresholds 0) against the JavaScript paths
  // (decode: plain short input; encode: Node's) by size.
  const { textThresholds } = utfx._internal;
  const xcells = [];
  for (const n of opts.quick ? [4, 16] : [1, 4, 8, 12, 16, 24, 32, 48, 64, 96]) {
    const ascii = textBytes('ascii', n);
    const latin = textBytes('latin', n);
    const u16 = new Uint8Array(Buffer.from(TEXTS.latin.repeat(n).slice(0, n >> 1), 'utf16le'));
    const str = TEXTS.mixed.repeat(n).slice(0, n);
    const forced = (f) => (iters) => {
      const old = textThresholds([0, 0]);
      try { return f(iters); } finally { textThresholds(old); }
    };
    for (const [what, code, env] of [
      [`decode utf-8 ascii ${ascii.length} B`, 'd.decode(ascii).length', () => ({ d: new utfx.TextDecoder(), ascii })],
      [`decode utf-8 latin ${latin.length} B`, 'd.decode(latin).length', () => ({ d: new utfx.TextDecoder(), latin })],
      [`decode utf-16le latin ${u16.length} B`, 'd.decode(u16).length',
        () => ({ d: new utfx.TextDecoder('utf-16le'), u16 })],
      [`encode mixed ${str.length} units`, 'e.encode(str).length', () => ({ e: new utfx.TextEncoder(), str })]]) {
      xcells.push({ name: `crossover ${what}`, builtin: timed(code, env()), utfx: forced(timed(code, env())) });
    }
  }
  rows.push(...runGrid('crossover: utfx\'s TextDecoder/TextEncoder with the JavaScript paths (old) vs ' +
    'every call to the addon (new)', xcells));
  return rows;
}

// What binds TextEncoder.encode: the result's own ArrayBuffer, which the
// global pays too. Each text and size: the global's encode and utfx's
// against `new Uint8Array(bytes)` alone (speedup = encode / allocation):
// the first is the most any encode returning a fresh Uint8Array of that
// length could gain over the global, the second how much of utfx's call
// is the allocation.
function textBoundGrid() {
  const sizes = opts.quick ? [1024] : [256, 1024, 4096, 16384];
  const cells = [];
  for (const kind of Object.keys(TEXTS)) {
    for (const n of sizes) {
      const str = new TextDecoder().decode(textBytes(kind, n));
      const size = Buffer.byteLength(str);
      const alloc = 'new Uint8Array(size).length';
      cells.push({ name: `bound encode ${kind} ${str.length} units: global / allocation alone`,
        builtin: timed('e.encode(str).length', { e: new TextEncoder(), str }), utfx: timed(alloc, { size }) });
      cells.push({ name: `bound encode ${kind} ${str.length} units: utfx / allocation alone`,
        builtin: timed('e.encode(str).length', { e: new utfx.TextEncoder(), str }), utfx: timed(alloc, { size }) });
    }
  }
  return runGrid('TextEncoder.encode against new Uint8Array(its length) alone (speedup: encode / allocation)',
    cells);
}

// ------------------------------------------------------------ base64

// Cells of the base64 functions against Buffer's, at these sizes (bytes).
function base64Cells(sizes) {
  const cells = [];
  // A cell: the builtin's expression and utfx's (P: the package), on env.
  const cell = (name, bcode, ucode, env) => ({ name, builtin: timed(bcode, env),
    of: (P) => timed(ucode, { P, ...env }) });
  for (const n of sizes) {
    const bytes = require('crypto').randomBytes(n);
    const u8 = new Uint8Array(bytes.buffer, bytes.byteOffset, n);
    const b64 = bytes.toString('base64');
    const url = bytes.toString('base64url');
    const padded = (s) => s.padEnd(Math.ceil(s.length / 4) * 4, '=');
    const urlPadded = padded(url);
    const into = Buffer.alloc(n);
    const into2 = new Uint8Array(n);
    const opt = { alphabet: 'base64url' };
    const env = { bytes, u8, b64, url, urlPadded, into, into2, opt };
    cells.push(
      cell(`n=${n} encode base64: toString / base64Encode`,
        'bytes.toString(\'base64\').length', 'P.base64Encode(bytes).length', env),
      cell(`n=${n} encode base64url: toString / base64Encode`,
        'bytes.toString(\'base64url\').length', 'P.base64Encode(bytes, \'base64url\').length', env),
      cell(`n=${n} decode base64: Buffer.from / base64Decode`,
        'Buffer.from(b64, \'base64\').length', 'P.base64Decode(b64).length', env),
      cell(`n=${n} decode base64url: Buffer.from / base64Decode`,
        'Buffer.from(url, \'base64url\').length', 'P.base64Decode(url, \'base64url\').length', env),
      cell(`n=${n} TC39 toBase64 / toString base64`,
        'bytes.toString(\'base64\').length', 'P.toBase64(u8).length', env),
      cell(`n=${n} TC39 fromBase64 / Buffer.from base64`,
        'Buffer.from(b64, \'base64\').length', 'P.fromBase64(b64).length', env),
      // TC39's result has an ArrayBuffer of its own, where Buffer.from
      // slices Node's pool (below 4 KiB; the cell above: not a result of
      // that kind). The comparator of issue 32's goal is Node's decoder
      // making one of exactly the result's length, as Buffer.from does from
      // half the pool's size on (Buffer.poolSize 0 here: its C++
      // createFromString, an uninitialized store); then the copy a
      // program would make of Buffer.from's, and the runtime's own
      // Uint8Array.fromBase64 where it has one (not Node 20).
      cell(`n=${n} TC39 fromBase64 / Buffer.from, pool off (own buffer: the goal's)`,
        '{ Buffer.poolSize = 0; acc += Buffer.from(b64, \'base64\').length; Buffer.poolSize = pool; }',
        'P.fromBase64(b64).length', { ...env, pool: Buffer.poolSize }),
      cell(`n=${n} TC39 fromBase64 / new Uint8Array(Buffer.from) (own buffer, a copy)`,
        'new Uint8Array(Buffer.from(b64, \'base64\')).length', 'P.fromBase64(b64).length', env),
      ...(typeof Uint8Array.fromBase64 === 'function' ? [cell(`n=${n} TC39 fromBase64 / Uint8Array.fromBase64`,
        'Uint8Array.fromBase64(b64).length', 'P.fromBase64(b64).length', env)] : []),
      cell(`n=${n} TC39 fromBase64 url padded / Buffer.from`,
        'Buffer.from(urlPadded, \'base64url\').length', 'P.fromBase64(urlPadded, opt).length', env),
      cell(`n=${n} TC39 setFromBase64 / buf.write base64`,
        'into.write(b64, \'base64\')', 'P.setFromBase64(into2, b64).written', env));
    // StringDecoder#write in base64 mode, n + 1 bytes a chunk (a byte held
    // from one write to the next, as in a stream). utfx's is Node's write
    // (README.md, Base64: the addon's measured no faster on long chunks).
    const chunk = require('crypto').randomBytes(n + 1);
    cells.push({ name: `n=${n} StringDecoder base64 write`,
      builtin: timed('sd.write(chunk).length', { sd: new builtin.StringDecoder('base64'), chunk }),
      of: (P) => timed('sd.write(chunk).length', { sd: new P.StringDecoder('base64'), chunk }) });
    // Node makes the text of more than 1 MB an external string, which its
    // decoder reads in place (N-API can only copy): the same text as
    // JSON.parse makes it (a sequential string) too.
    if (n >= 65536) {
      const parsed = JSON.parse(JSON.stringify(b64));
      cells.push(cell(`n=${n} decode base64, JSON.parse'd text: Buffer.from / base64Decode`,
        'Buffer.from(parsed, \'base64\').length', 'P.base64Decode(parsed).length', { parsed }));
    }
  }
  return cells;
}

function base64Grid() {
  const sizes = opts.quick ? [16, 4096, 1 << 20] : [16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20];
  return runGrid('base64: Buffer\'s (toString, from, write) vs utfx\'s base64 functions', base64Cells(sizes));
}

// What binds the TC39 decodes, each against a step it cannot skip (speedup:
// the call / that step alone). fromBase64: the allocation of its result, a
// Uint8Array over an ArrayBuffer of its own (new Uint8Array(n)), where
// Buffer.from slices Node's 8 KiB pool for texts under 4096 characters (its
// cell here says how far under that allocation it runs). setFromBase64: the copy of
// the text that N-API makes (one-byte text: Buffer#latin1Write, the same
// V8 copy, in base64.js's pieces into one scratch), where buf.write reads an
// external string (Node's texts from about 1 MB) in place.
function base64BoundGrid() {
  const sizes = opts.quick ? [256, 1 << 20] : [64, 256, 1024, 4096, 65536, 262144, 1 << 20];
  const cells = [];
  const bound = (name, code, env, step, stepEnv) => cells.push({ name, builtin: timed(code, env),
    utfx: timed(step, stepEnv) });
  const piece = utfx._internal.base64Chunk();
  for (const n of sizes) {
    const bytes = require('crypto').randomBytes(n);
    const b64 = bytes.toString('base64');
    const alloc = 'new Uint8Array(n).length';
    bound(`bound n=${n} fromBase64: Buffer.from / allocation alone`,
      'Buffer.from(b64, \'base64\').length', { b64 }, alloc, { n });
    bound(`bound n=${n} fromBase64: utfx / allocation alone`,
      'P.fromBase64(b64).length', { P: utfx, b64 }, alloc, { n });
    if (b64.length <= piece) continue;
    const copy = '{ for (let p = 0; p < b64.length; p += piece) acc += scratch.latin1Write(b64.slice(p, p + piece)); }';
    const copyEnv = { b64, piece, scratch: Buffer.alloc(piece) };
    // (Node's own texts of about 1 MB and more are external strings; the
    // same text as JSON.parse makes it is not.)
    const texts = [['', b64]];
    if (b64.length >= 1 << 20) texts.push([', JSON.parse\'d text', JSON.parse(JSON.stringify(b64))]);
    for (const [what, text] of texts) {
      bound(`bound n=${n} setFromBase64${what}: buf.write / the text's copy alone`,
        'into.write(text, \'base64\')', { into: Buffer.alloc(n), text }, copy, { ...copyEnv, b64: text });
      bound(`bound n=${n} setFromBase64${what}: utfx / the text's copy alone`,
        'P.setFromBase64(into, text).written', { P: utfx, into: new Uint8Array(n), text }, copy,
        { ...copyEnv, b64: text });
    }
  }
  return runGrid('TC39 decodes against the step each cannot skip (speedup: the call / that step alone)', cells);
}

// Where the JavaScript fallbacks pay: the addon forced, then JavaScript
// (or Node's own code) forced, against the builtins.
function base64Overhead() {
  // (--old: the old copy's thresholds are forced the same way)
  const pkgs = oldPkg ? [utfx, oldPkg] : [utfx];
  const set = (...t) => pkgs.map((P) => P._internal.base64Thresholds(...t));
  const sizes = opts.quick ? [8, 64] : [4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096, 16384];
  const old = set(0, 0, 0, 0);
  runGrid('base64 crossover: the addon forced vs the builtin', base64Cells(sizes));
  set(Infinity, Infinity, Infinity, Infinity);
  runGrid('base64 crossover: JavaScript / Node\'s code forced vs the builtin', base64Cells(sizes));
  pkgs.forEach((P, i) => P._internal.base64Thresholds(...old[i]));
}

// ------------------------------------------------------------ rpc

// The round trip of bench/rpc.js (readline and stream.write on both ends,
// as Node programs are written), builtin against utfx (register + encode on
// both ends), each run a fresh parent and child, the two interleaved.
async function rpc() {
  const script = path.join(__dirname, 'rpc.js');
  const runOnce = (impl, payload) => new Promise((resolve, reject) => {
    const cp = spawn(process.execPath, [script, '--impl', impl, '--payload', payload,
      '--rounds', String(opts.quick ? 20 : 60)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    cp.stdout.on('data', (d) => { out += d; });
    cp.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`rpc.js ${impl} exited ${code}`))));
  });
  const runs = Math.max(opts.runs, 4);
  for (const payload of ['text', 'lsp']) {
    const ms = { builtin: [], utfx: [] };
    let info;
    for (let r = 0; r < runs; r++) {
      for (const impl of r % 2 ? ['utfx', 'builtin'] : ['builtin', 'utfx']) {
        info = await runOnce(impl, payload);
        ms[impl].push(info.ms);
      }
    }
    const st = compare(ms.builtin.map((x) => 1 / x), ms.utfx.map((x) => 1 / x));
    const ratio = mean(ms.utfx) / mean(ms.builtin);
    console.log(`\n## rpc ${payload}: ${info.what}; round trip with a child over stdio, wall ms, ` +
      `${runs} process pairs each, interleaved`);
    console.log(`builtin both ends  ${mean(ms.builtin).toFixed(3).padStart(8)} ms`);
    console.log(`utfx both ends     ${mean(ms.utfx).toFixed(3).padStart(8)} ms  ` +
      `${ratio.toFixed(3)}x builtin's time  ${st.stars.padEnd(3)} ±${st.accuracy[0].toFixed(2)}% (95%)`);
  }
}

async function main() {
  console.log(`# utfx ${utfx.implementation()} kernels, node ${process.version}, ` +
    `${require('os').cpus()[0].model}`);
  if (opts.suites.includes('overhead')) overhead();
  if (opts.suites.includes('decoder')) decoderGrid();
  if (opts.suites.includes('write')) writeGrid();
  if (opts.suites.includes('encode')) encodeGrid();
  if (opts.suites.includes('text')) textGrid();
  if (opts.suites.includes('text-bound')) textBoundGrid();
  if (opts.suites.includes('rpc')) await rpc();
  if (opts.suites.includes('base64')) base64Grid();
  if (opts.suites.includes('base64-overhead')) base64Overhead();
  if (opts.suites.includes('base64-bound')) base64BoundGrid();
  if (sink === -1) console.log('impossible');
}

main();
