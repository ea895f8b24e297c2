#!/usr/bin/env node
// The node suite of utfx-bench: the decode and encode grids of
// bench/suite_decode.c and bench/suite_encode.c, run on Node's own
// StringDecoder, Buffer.write and TextEncoder.encodeInto, with the same
// inputs and row names. Method as in bench/engine.c: warm up while sizing a
// batch to last at least --batch-ms, then time --samples batches.
// Output, one line per benchmark (utfx-bench parses it):
//   suite,name,impl,bytes,chars,ns;ns;...   (ns per call of each batch)
// Usage: node bench/node_bench.js [--samples N] [--batch-ms X] [--warmup-ms X]
//        [--tiny] [--func GLOBS] [--input GLOBS]
'use strict';

const { StringDecoder } = require('string_decoder');

const opts = { samples: 15, batchMs: 2, warmupMs: 20, tiny: false, func: null, input: null,
  wall: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--samples') opts.samples = Number(process.argv[++i]);
  else if (a === '--batch-ms') opts.batchMs = Number(process.argv[++i]);
  else if (a === '--warmup-ms') opts.warmupMs = Number(process.argv[++i]);
  else if (a === '--tiny') opts.tiny = true;
  else if (a === '--clock') opts.wall = process.argv[++i] === 'wall';
  else if (a === '--func') opts.func = process.argv[++i];
  else if (a === '--input') opts.input = process.argv[++i];
  else {
    process.stderr.write(`node_bench.js: unknown option ${a}\n`);
    process.exit(2);
  }
}
if (opts.tiny) Object.assign(opts, { samples: 1, batchMs: 0.05, warmupMs: 0 });

// Comma-separated globs (* and ?), as the engine's --func / --input.
function globList(list) {
  if (!list) return () => true;
  const res = list.split(',').map((g) => new RegExp('^' + g.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*').replace(/\?/g, '.') + '$'));
  return (s) => res.some((r) => r.test(s));
}
const wantFunc = globList(opts.func);
const wantInput = globList(opts.input);

let sink = 0;

// CPU time of the process by default (microsecond resolution, far below a
// batch), as the engine uses CPU time; wall time with --clock wall.
function now() {
  if (opts.wall) return Number(process.hrtime.bigint());
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

function measure(fn) {
  const batchNs = opts.batchMs * 1e6;
  let iters = 1;
  const start = now();
  for (;;) {
    const t0 = now();
    sink += fn(iters);
    const t = now() - t0;
    if (t < batchNs) {
      const grow = t > 0 ? (batchNs / t) * 1.2 : 16;
      iters = Math.floor(iters * Math.min(16, Math.max(2, grow)));
      continue;
    }
    if (now() - start >= opts.warmupMs * 1e6) break;
  }
  const samples = [];
  for (let s = 0; s < opts.samples; s++) {
    const t0 = now();
    sink += fn(iters);
    samples.push((now() - t0) / iters);
  }
  return samples;
}

function report(suite, name, impl, bytes, chars, samples) {
  process.stdout.write(`${suite},${name},${impl},${bytes},${chars},` +
    samples.map((v) => v.toFixed(3)).join(';') + '\n');
}

function codePoints(s) {
  let n = 0;
  for (const _ of s) n++; // eslint-disable-line no-unused-vars
  return n;
}

// ---- decode: must match bench/suite_decode.c -------------------------------
const decodeInputs = [
  { name: 'ascii', sample: 'The quick brown fox jumps over the lazy dog. ', enc: 'ascii' },
  { name: 'utf8', sample: 'na\u00efve caf\u00e9, se\u00f1or r\u00e9sum\u00e9 ', enc: 'utf8' },
  { name: 'utf16le', sample: 'na\u00efve caf\u00e9, se\u00f1or r\u00e9sum\u00e9 ',
    enc: 'utf16le', utf16: true },
  { name: 'base64', sample: 'The quick brown fox jumps over the lazy dog. ', enc: 'base64' },
  { name: 'utf8-cjk', sample: '\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3068\u4e2d\u6587\u3002',
    enc: 'utf8' },
  { name: 'utf8-emoji', sample: '\u{1F600}\u{1F680} ok \u{1F44D}\u{1F3FD}\u{1F389} ',
    enc: 'utf8' },
];

function decodeRows() {
  const rows = [];
  const nodeIn = [32, 128, 1024, 4096];
  const nodeChunk = [16, 64, 256, 1024];
  for (let e = 0; e < 4; e++) {
    for (const n of nodeIn) {
      for (const c of nodeChunk) if (!opts.tiny || n <= 128) rows.push([e, n, c]);
    }
  }
  for (let e = 4; e < 6; e++) {
    for (const n of [1024, 4096]) for (const c of nodeChunk) if (!opts.tiny) rows.push([e, n, c]);
  }
  for (let e = 0; e < 6; e++) {
    const name = decodeInputs[e].name;
    if (name === 'ascii' || name === 'base64') continue;
    for (const c of [7, 61, 255]) rows.push([e, opts.tiny ? 128 : 4096, c]);
  }
  return rows;
}

function runDecode() {
  for (const [e, n, chunkLen] of decodeRows()) {
    const input = decodeInputs[e];
    const inputName = `in=${n}/chunk=${chunkLen}`;
    if (!wantFunc(input.name) || !wantInput(inputName)) continue;
    const pattern = Buffer.from(input.sample, input.utf16 ? 'utf16le' : 'utf8');
    const src = Buffer.alloc(n);
    for (let i = 0; i < n; i++) src[i] = pattern[i % pattern.length];
    const chunks = [];
    for (let off = 0; off < n; off += chunkLen) chunks.push(src.subarray(off, off + chunkLen));
    const sd = new StringDecoder(input.enc);
    let out = '';
    for (const c of chunks) out += sd.write(c);
    out += sd.end();
    const samples = measure((iters) => {
      let acc = 0;
      for (let i = 0; i < iters; i++) {
        for (let j = 0; j < chunks.length; j++) acc += sd.write(chunks[j]).length;
        acc += sd.end().length;
      }
      return acc;
    });
    report('decode', `${input.name}/${inputName}`, 'node-StringDecoder', n, codePoints(out),
      samples);
  }
}

// ---- encode: must match bench/suite_encode.c -------------------------------
const encodeKinds = [
  { name: 'latin1', pattern: 'a\u00e9' },
  { name: 'bmp', pattern: 'a\u00e9\u20ac\u65e5' },
  { name: 'astral', pattern: 'a\u00e9\u20ac\u65e5\u{1F600}' },
  { name: 'lone', pattern: 'a\u00e9\u20ac\u65e5', lone: true },
];

function buildString(kind, len) {
  const p = kind.pattern;
  let s = p.repeat(Math.floor(len / p.length)) + p.slice(0, len % p.length);
  if (kind.lone) s = s.slice(0, len - 2) + '\ud800' + s.slice(len - 1);
  return s;
}

function runEncode() {
  const encoder = new TextEncoder();
  for (const kind of encodeKinds) {
    if (!wantFunc(kind.name)) continue;
    for (const len of [16, 256, 2048, 65536]) {
      if (opts.tiny && len > 256) continue;
      const str = buildString(kind, len);
      const exact = Buffer.byteLength(str, 'utf8');
      for (const [dstName, cap] of [['exact', exact], ['short', exact - 1], ['3x', 3 * len]]) {
        const inputName = `len=${len}/dst=${dstName}`;
        if (!wantInput(inputName)) continue;
        const name = `${kind.name}/${inputName}`;
        const buf = Buffer.alloc(cap);
        const chars = codePoints(str);
        report('encode', name, 'node-write', 2 * len, chars, measure((iters) => {
          let acc = 0;
          for (let i = 0; i < iters; i++) acc += buf.write(str, 'utf8');
          return acc;
        }));
        report('encode', name, 'node-encodeInto', 2 * len, chars, measure((iters) => {
          let acc = 0;
          for (let i = 0; i < iters; i++) acc += encoder.encodeInto(str, buf).written;
          return acc;
        }));
      }
    }
  }
}

runDecode();
runEncode();
if (sink === -1) process.stderr.write('impossible\n'); // keeps the results alive
