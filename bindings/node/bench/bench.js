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
//   overhead  the cost of one N-API call, and where the JS fallbacks pay.
// Usage: node bench/bench.js [--suite decoder,write,rpc,overhead] [--runs N]
//        [--batch-ms X] [--filter REGEX] [--quick]
// Rates are operations per second of CPU time (process.cpuUsage: the machine
// is shared; time spent descheduled does not count), one rate per run.

const path = require('path');
const { spawn } = require('child_process');
const fs = require('fs');
const builtin = require('string_decoder');
const utfx = require('..');
const { compare, mean } = require('./stats');

const opts = { suites: ['decoder', 'write', 'rpc', 'overhead'], runs: 10, batchMs: 10,
  filter: null, quick: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--suite') opts.suites = process.argv[++i].split(',');
  else if (a === '--runs') opts.runs = Number(process.argv[++i]);
  else if (a === '--batch-ms') opts.batchMs = Number(process.argv[++i]);
  else if (a === '--filter') opts.filter = new RegExp(process.argv[++i]);
  else if (a === '--quick') opts.quick = true;
  else if (a === '--child') opts.child = process.argv[++i];
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

// Iterations so that one batch of `fn` takes about batchMs.
function calibrate(fn) {
  let iters = 1;
  for (;;) {
    const t0 = cpuNs();
    sink += fn(iters);
    const t = cpuNs() - t0;
    if (t >= opts.batchMs * 1e6 * 0.5 || iters > 1e9) {
      return Math.max(1, Math.round(iters * (opts.batchMs * 1e6) / Math.max(t, 1)));
    }
    iters *= t > 0 ? Math.min(16, Math.max(2, (opts.batchMs * 1e6) / t)) : 16;
    iters = Math.ceil(iters);
  }
}

// Rate (ops/s) of one batch.
function rate(fn, iters) {
  const t0 = cpuNs();
  sink += fn(iters);
  const t = cpuNs() - t0;
  return iters / (Math.max(t, 1) / 1e9);
}

// cells: [{ name, builtin: fn(iters), utfx: fn(iters) }]. Interleaved: every
// run times every cell, both implementations, in alternating order.
function runGrid(title, cells) {
  cells = cells.filter((c) => !opts.filter || opts.filter.test(c.name));
  if (!cells.length) return [];
  process.stderr.write(`${title}: ${cells.length} cells x ${opts.runs} runs\n`);
  for (const c of cells) {
    c.builtin(3); // warm both up (and let V8 optimize) before calibrating
    c.utfx(3);
    c.iters = { builtin: calibrate(c.builtin), utfx: calibrate(c.utfx) };
    c.rates = { builtin: [], utfx: [] };
  }
  for (let r = 0; r < opts.runs; r++) {
    for (const c of cells) {
      const order = r % 2 ? ['utfx', 'builtin'] : ['builtin', 'utfx'];
      for (const impl of order) c.rates[impl].push(rate(c[impl], c.iters[impl]));
    }
  }
  const rows = cells.map((c) => ({ name: c.name, ...compare(c.rates.builtin, c.rates.utfx),
    nsBuiltin: 1e9 / mean(c.rates.builtin), nsUtfx: 1e9 / mean(c.rates.utfx) }));
  printTable(title, rows);
  return rows;
}

function pad(s, n, right) {
  s = String(s);
  return right ? s.padEnd(n) : s.padStart(n);
}

function printTable(title, rows) {
  const w = Math.max(...rows.map((r) => r.name.length), 10);
  console.log(`\n## ${title}: builtin (old) vs utfx (new), ${opts.runs} runs each, interleaved`);
  console.log(`${pad('', w, true)}  ${pad('builtin ns', 11)} ${pad('utfx ns', 10)} ${pad('speedup', 8)}` +
    `  confidence improvement accuracy (*)   (**)  (***)`);
  for (const r of rows) {
    const acc = r.accuracy.map((a) => pad(`±${a.toFixed(2)}%`, 8));
    console.log(`${pad(r.name, w, true)}  ${pad(r.nsBuiltin.toFixed(1), 11)} ` +
      `${pad(r.nsUtfx.toFixed(1), 10)} ${pad(`${r.ratio.toFixed(2)}x`, 8)}  ${pad(r.stars, 10)} ` +
      `${pad(`${r.improvement.toFixed(2)} %`, 11)} ${acc.join(' ')}`);
  }
  const ratios = rows.map((r) => r.ratio);
  const geo = Math.exp(mean(ratios.map(Math.log)));
  console.log(`${pad('geometric mean of speedups', w, true)}  ${pad('', 11)} ${pad('', 10)} ` +
    `${pad(`${geo.toFixed(2)}x`, 8)}  (min ${Math.min(...ratios).toFixed(2)}x, ` +
    `max ${Math.max(...ratios).toFixed(2)}x)`);
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
  const make = (Decoder) => {
    const sd = new Decoder(enc);
    return (iters) => {
      let acc = 0;
      for (let i = 0; i < iters; i++) {
        for (let j = 0; j < chunks.length; j++) acc += sd.write(chunks[j]).length;
        if (withEnd) acc += sd.end().length;
      }
      return acc;
    };
  };
  return { name, builtin: make(builtin.StringDecoder), utfx: make(utfx.StringDecoder) };
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
        cells.push({
          name: `chars=${chars} len=${len} dst=${dst}`,
          builtin: (iters) => {
            let acc = 0;
            for (let i = 0; i < iters; i++) acc += a.write(s, 0, 'utf8');
            return acc;
          },
          utfx: (iters) => {
            let acc = 0;
            for (let i = 0; i < iters; i++) acc += utfx.write(b, s, 0);
            return acc;
          },
        });
      }
    }
  }
  return runGrid('buffer-write-string-utf8 (buf.write(string, 0, \'utf8\'))', cells);
}

// ------------------------------------------------------------ overhead

function overhead() {
  const { addon, thresholds } = utfx._bench;
  const empty = Buffer.alloc(0);
  const sd = new utfx.StringDecoder('utf8');
  const state = sd[Object.getOwnPropertySymbols(sd)[0]];
  const st = state[Object.getOwnPropertySymbols(state)[0]]; // the addon's handle
  const jsNop = new Function('return undefined'); // eslint-disable-line no-new-func
  const loop = (f) => (iters) => {
    let acc = 0;
    for (let i = 0; i < iters; i++) acc += f() === undefined ? 1 : 0;
    return acc;
  };
  const cells = [
    { name: 'call: empty JS function (baseline)', fn: loop(jsNop) },
    { name: 'call: N-API function that does nothing', fn: loop(() => addon.nop()) },
    { name: 'call: decoderWrite(state, empty Buffer)', fn: loop(() => addon.decoderWrite(st, empty)) },
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
  const each = (f) => (iters) => {
    let acc = 0;
    for (let i = 0; i < iters; i++) acc += f();
    return acc;
  };
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
      const a = new builtin.StringDecoder(e);
      const b = new utfx.StringDecoder(e);
      xcells.push({ name: `n=${n} StringDecoder#write ${what}`, builtin: each(() => a.write(input).length),
        utfx: each(() => b.write(input).length) });
    }
    xcells.push(
      { name: `n=${n} decode (toString utf8) text`, builtin: each(() => bytes.toString('utf8').length),
        utfx: each(() => utfx.decode(bytes).length) },
      { name: `n=${n} write (buf.write utf8)`, builtin: each(() => dst.write(str, 0, 'utf8')),
        utfx: each(() => utfx.write(dst, str, 0)) },
      { name: `n=${n} encodeInto`, builtin: each(() => enc.encodeInto(str, u8).written),
        utfx: each(() => utfx.encodeInto(str, u8).written) },
      { name: `n=${n} byteLength`, builtin: each(() => Buffer.byteLength(str, 'utf8')),
        utfx: each(() => utfx.byteLength(str)) });
  }
  const rows = runGrid('crossover: the addon path forced (no JS fallback) vs the builtin, by size',
    xcells);
  thresholds(...old);
  return rows.concat(externalStrings());
}

// decode() with its output copied into V8's heap (napi_create_string_*, the
// default) and as an external string that V8 keeps (Node's experimental
// node_api_create_external_string_*), each against Buffer#toString.
function externalStrings() {
  const { addon } = utfx._bench;
  if (!addon.setExternalMin(Infinity)) {
    console.log('\n## external strings: this Node has no node_api_create_external_string_*');
    return [];
  }
  const sizes = opts.quick ? [1024, 65536] : [256, 1024, 4096, 16384, 65536, 1 << 20];
  const texts = [['latin1 text', 'Bl\u00e5b\u00e6rsyltet\u00f8y '],
    ['CJK', '\u65e5\u672c\u8a9e\u306e\u6587 ']];
  const grid = (mode, min) => {
    const cells = [];
    for (const n of sizes) {
      for (const [what, unit] of texts) {
        const b = Buffer.from(unit.repeat(Math.ceil(n / Buffer.byteLength(unit)) + 1));
        const bytes = b.subarray(0, b.lastIndexOf(0x20, n) + 1); // about n bytes, whole characters
        cells.push({ name: `${mode} n=${n} ${what}`,
          builtin: (iters) => {
            let acc = 0;
            for (let i = 0; i < iters; i++) acc += bytes.toString('utf8').length;
            return acc;
          },
          utfx: (iters) => {
            addon.setExternalMin(min);
            let acc = 0;
            for (let i = 0; i < iters; i++) acc += utfx.decode(bytes).length;
            addon.setExternalMin(Infinity);
            return acc;
          } });
      }
    }
    return cells;
  };
  return runGrid('decode: output copied into V8 (napi_create_string_*) vs the builtin',
    grid('copy', Infinity))
    .concat(runGrid('decode: output as an external string vs the builtin', grid('external', 0)));
}

// ------------------------------------------------------------ rpc

// A JSON-RPC peer over stdio: newline-delimited JSON, decoded with a
// StringDecoder, encoded either as strings (builtin) or with utfx.write.
function peer(impl, input, output, onMessage) {
  const Decoder = impl === 'utfx' ? utfx.StringDecoder : builtin.StringDecoder;
  const sd = new Decoder('utf8');
  let pending = '';
  input.on('data', (chunk) => {
    let text = sd.write(chunk);
    let nl = text.indexOf('\n');
    if (nl < 0) {
      pending += text;
      return;
    }
    let line = pending + text.slice(0, nl);
    for (;;) {
      onMessage(JSON.parse(line));
      text = text.slice(nl + 1);
      nl = text.indexOf('\n');
      if (nl < 0) break;
      line = text.slice(0, nl);
    }
    pending = text;
  });
  return function send(message) {
    const json = JSON.stringify(message);
    if (impl === 'utfx') {
      const n = utfx.byteLength(json);
      const buf = Buffer.allocUnsafe(n + 1);
      utfx.write(buf, json, 0, n);
      buf[n] = 0x0a;
      output.write(buf);
    } else {
      output.write(`${json}\n`);
    }
  };
}

function rpcPayload() {
  const dir = path.join(__dirname, '..', '..', '..', 'bench', 'data');
  const parts = [];
  let size = 0;
  for (const f of ['Chinese', 'Arabic', 'Hindi', 'Japanese', 'Korean', 'Hebrew', 'Emoji']) {
    const text = fs.readFileSync(path.join(dir, `${f}-Lipsum.utf8.txt`), 'utf8');
    const words = text.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length && size < 64 * 1024; i += 7) {
      const item = { lang: f, i, text: words.slice(i, i + 7).join(' ') };
      size += Buffer.byteLength(JSON.stringify(item)) + 1;
      parts.push(item);
    }
  }
  return { items: parts };
}

function childMain(impl) {
  const send = peer(impl, process.stdin, process.stdout, (msg) => {
    send({ jsonrpc: '2.0', id: msg.id, result: msg.params });
  });
}

async function rpc() {
  const payload = rpcPayload();
  const bytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo',
    params: payload }));
  const configs = [
    { name: 'builtin both ends', parent: 'builtin', child: 'builtin' },
    { name: 'utfx parent only', parent: 'utfx', child: 'builtin' },
    { name: 'utfx both ends', parent: 'utfx', child: 'utfx' },
  ];
  const children = {};
  for (const impl of ['builtin', 'utfx']) {
    const cp = spawn(process.execPath, [__filename, '--child', impl],
      { stdio: ['pipe', 'pipe', 'inherit'] });
    children[impl] = cp;
  }
  for (const c of configs) {
    const cp = children[c.child];
    let resolve = null;
    c.send = null;
    c.attach = () => {
      cp.stdout.removeAllListeners('data');
      c.send = peer(c.parent, cp.stdout, cp.stdin, (msg) => resolve(msg));
    };
    c.call = (id) => new Promise((res) => {
      resolve = res;
      c.send({ jsonrpc: '2.0', id, method: 'echo', params: payload });
    });
    c.ms = [];
  }
  const perRun = opts.quick ? 10 : 40;
  let id = 0;
  // Warm-up, and a check that the echo is exact.
  for (const c of configs) {
    c.attach();
    for (let i = 0; i < 10; i++) {
      const reply = await c.call(++id);
      if (JSON.stringify(reply.result) !== JSON.stringify(payload)) throw new Error('bad echo');
    }
  }
  const runs = opts.runs;
  for (let r = 0; r < runs; r++) {
    for (const c of (r % 2 ? [...configs].reverse() : configs)) {
      c.attach();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < perRun; i++) await c.call(++id);
      c.ms.push(Number(process.hrtime.bigint() - t0) / 1e6 / perRun);
    }
  }
  for (const cp of Object.values(children)) cp.stdin.end();
  console.log(`\n## rpc: JSON-RPC echo round trip with a child over stdio, ${bytes} bytes of ` +
    `non-ASCII JSON each way; wall ms per round trip, ${runs} runs x ${perRun}`);
  const base = configs[0];
  for (const c of configs) {
    const st = compare(base.ms.map((x) => 1 / x), c.ms.map((x) => 1 / x));
    console.log(`${c.name.padEnd(20)} ${mean(c.ms).toFixed(3).padStart(8)} ms  ` +
      `${(mean(c.ms) / mean(base.ms)).toFixed(3)}x builtin's time  ${st.stars.padEnd(3)} ` +
      `±${st.accuracy[0].toFixed(2)}% (95%)`);
  }
}

async function main() {
  if (opts.child) return childMain(opts.child);
  console.log(`# utfx ${utfx.implementation()} kernels, node ${process.version}, ` +
    `${require('os').cpus()[0].model}`);
  if (opts.suites.includes('overhead')) overhead();
  if (opts.suites.includes('decoder')) decoderGrid();
  if (opts.suites.includes('write')) writeGrid();
  if (opts.suites.includes('rpc')) await rpc();
  if (sink === -1) console.log('impossible');
}

main();
