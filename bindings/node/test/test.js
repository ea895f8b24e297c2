'use strict';
// The utfx Node.js binding against Node's builtins, which are the
// specification: StringDecoder under random chunkings (every write, end and
// legacy property after every call), every error, the property surface,
// every ArrayBufferView kind, and write / encodeInto / byteLength / decode on
// random strings and bytes at every destination size and offset. Prints TAP.
//   node test/test.js [--quick] [--seed N]
// UTFX_IMPL=scalar (etc.) selects the library's kernel set.

const assert = require('assert');
const util = require('util');
const builtin = require('string_decoder');
const utfx = require('..');

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const { seed: firstSeed, rand, pick } = require('./random').seeded(argv);

const { check, done, hex } = require('./tap');


// ------------------------------------------------------------ inputs

// Bytes biased to what decoders find hard: lead bytes, continuations, bytes
// Node treats specially (C0, C1, F5-F7, E0 80, ED A0), surrogate halves.
const SPECIAL = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
  0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xf7, 0xf8, 0xfb, 0xfe, 0xff, 0xd8, 0xdb,
  0xdc, 0xdf, 0x3d, 0x4d];
const TEXT = Buffer.from('a\u00e9\u20ac\u65e5\u{1F600}z \u00ff\u0100\u{10FFFF}');
function randBytes(n) {
  const b = Buffer.allocUnsafe(n);
  const mode = rand(4);
  for (let i = 0; i < n; i++) {
    if (mode === 0) b[i] = rand(256);
    else if (mode === 1) b[i] = pick(SPECIAL);
    else if (mode === 2) b[i] = TEXT[(i + rand(2)) % TEXT.length];
    else b[i] = rand(3) ? 0x20 + rand(0x5f) : pick(SPECIAL);
  }
  return b;
}

// Every ArrayBufferView kind over a copy of bytes, at an aligned offset.
const VIEWS = [Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array,
  Int32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView];
function randView(bytes) {
  const n = bytes.length;
  const kind = rand(4);
  if (kind === 0) return bytes; // a Buffer (often a slice of a larger one)
  if (kind === 1) { // a Buffer slice with an offset into a larger pool
    const big = Buffer.allocUnsafe(n + 17);
    const off = rand(17);
    bytes.copy(big, off);
    return big.subarray(off, off + n);
  }
  const fits = VIEWS.filter((T) => n % (T.BYTES_PER_ELEMENT || 1) === 0);
  const T = pick(fits);
  const size = T.BYTES_PER_ELEMENT || 1;
  const off = size * rand(3);
  const ab = new ArrayBuffer(off + n + size);
  new Uint8Array(ab, off, n).set(bytes);
  return new T(ab, off, n / size);
}

// Strings: ASCII, Latin-1, BMP, astral pairs and lone surrogates.
function randString(len, loneAt) {
  const units = [];
  while (units.length < len) {
    const k = rand(10);
    if (k < 3) units.push(0x20 + rand(0x5f));
    else if (k < 5) units.push(0x80 + rand(0x80));
    else if (k < 7) units.push(0x100 + rand(0xd700));
    else if (k < 8) units.push(0xe000 + rand(0x2000));
    else if (k < 9) {
      const cp = 0x10000 + rand(0x100000);
      units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else units.push(pick([0xd800, 0xdbff, 0xdc00, 0xdfff]));
  }
  if (loneAt !== undefined && units.length) {
    const i = loneAt === 'start' ? 0 : loneAt === 'end' ? units.length - 1 : rand(units.length);
    units[i] = pick([0xd800, 0xdbff, 0xdc00, 0xdfff]);
  }
  return String.fromCharCode(...units.slice(0, Math.max(len, 0)));
}
function oneByteString(len) {
  let s = '';
  for (let i = 0; i < len; i++) s += String.fromCharCode(rand(3) ? 0x20 + rand(0x5f) : 0x80 + rand(0x80));
  return s;
}

// ------------------------------------------------------------ errors

// What a call did, small enough to print: long strings are summarized.
function outcome(fn) {
  try {
    const v = fn();
    if (typeof v === 'string' && v.length > 200) {
      const digest = require('crypto').createHash('sha1').update(v, 'utf16le').digest('hex');
      return { value: `${v.length} units, sha1 ${digest}` };
    }
    return { value: v };
  } catch (err) {
    if (!(err instanceof Error)) return { thrown: err };
    return { error: { ctor: err.constructor.name, name: err.name, code: err.code,
      message: err.message, keys: Object.keys(err) } };
  }
}
function sameOutcome(desc, mine, theirs) {
  const a = outcome(mine);
  const b = outcome(theirs);
  if (b.value !== undefined && Buffer.isBuffer(b.value)) {
    assert.ok(Buffer.isBuffer(a.value), desc);
    assert.strictEqual(hex(a.value), hex(b.value), desc);
    return;
  }
  assert.deepStrictEqual(a, b, desc);
}

// ------------------------------------------------------------ tests

const ENCODINGS = ['utf8', 'utf16le', 'latin1', 'ascii', 'base64', 'base64url', 'hex'];

check('Node\'s tests\' basics: default encoding, call without new, lastChar', () => {
  const d = new utfx.StringDecoder();
  assert.strictEqual(d.encoding, 'utf8');
  const o = {};
  utfx.StringDecoder.call(o, 'hex');
  assert.strictEqual(o.encoding, 'hex');
  assert.strictEqual(utfx.StringDecoder.prototype.write.call(o, Buffer.from([1, 255])), '01ff');
  assert.strictEqual(d.write(Buffer.from('E1', 'hex')), '');
  assert.ok(d.lastChar.equals(new Uint8Array([0xe1, 0, 0, 0])));
  assert.strictEqual(d.lastNeed, 2);
  assert.strictEqual(d.lastTotal, 3);
  assert.strictEqual(d.end(), '\ufffd');
  assert.strictEqual(d.text(Buffer.from([0x41]), 2), '');
});

check('encoding names and aliases, any case, like Node', () => {
  const names = ['utf8', 'utf-8', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le', 'latin1', 'binary',
    'base64', 'base64url', 'hex', 'ascii'];
  const cases = [undefined, null, '', 0, false, 'buffer', 'utf16', 'utf-16', 'utf32', 'u8',
    'UTF_8', 'utf 8', ' utf8', 'latin-1', 'iso-8859-1', {}, [], ['utf8'], 1, 'base-64',
    { toString() { return 'hex'; } }, { length: 3, toString() { return 'hex'; } }];
  for (const n of names) {
    cases.push(n, n.toUpperCase());
    for (let k = 0; k < 6; k++)
      cases.push([...n].map((c) => (rand(2) ? c.toUpperCase() : c)).join(''));
  }
  for (const enc of cases) {
    sameOutcome(`new StringDecoder(${util.inspect(enc)}).encoding`,
      () => new utfx.StringDecoder(enc).encoding, () => new builtin.StringDecoder(enc).encoding);
  }
});

check('property surface equals Node\'s', () => {
  const P = utfx.StringDecoder;
  const Q = builtin.StringDecoder;
  assert.strictEqual(P.name, Q.name);
  assert.strictEqual(P.length, Q.length);
  assert.deepStrictEqual(Object.getOwnPropertyNames(P.prototype),
    Object.getOwnPropertyNames(Q.prototype));
  const shape = (d) => d && { enumerable: d.enumerable, configurable: d.configurable,
    writable: d.writable, get: typeof d.get, set: typeof d.set, value: typeof d.value,
    name: (d.value || d.get).name, length: (d.value || d.get).length };
  for (const k of Object.getOwnPropertyNames(Q.prototype)) {
    assert.deepStrictEqual(shape(Object.getOwnPropertyDescriptor(P.prototype, k)),
      shape(Object.getOwnPropertyDescriptor(Q.prototype, k)), k);
  }
  for (const enc of ENCODINGS) {
    const a = new P(enc);
    const b = new Q(enc);
    assert.deepStrictEqual(Object.keys(a), Object.keys(b));
    assert.deepStrictEqual(Object.getOwnPropertySymbols(a).map(String),
      Object.getOwnPropertySymbols(b).map(String));
    assert.strictEqual(a.encoding, b.encoding);
    assert.strictEqual(a instanceof P, true);
    assert.ok(Buffer.isBuffer(a.lastChar) && a.lastChar.length === 4);
    assert.strictEqual(a.lastNeed, b.lastNeed);
    assert.strictEqual(a.lastTotal, b.lastTotal);
    assert.strictEqual(a.write('a string'), b.write('a string'));
  }
  assert.deepStrictEqual(Object.keys(utfx).sort(),
    ['StringDecoder', 'TextDecoder', 'TextEncoder', 'base64Decode', 'base64Encode', 'byteLength',
      'decode', 'encode', 'encodeInto', 'fromBase64', 'implementation', 'implementations',
      'setFromBase64', 'setImplementation', 'toBase64', 'write']);
});

check('StringDecoder errors: same code, name and message as Node', () => {
  const P = utfx.StringDecoder.prototype;
  const Q = builtin.StringDecoder.prototype;
  const bad = [null, undefined, 5, {}, [], [1, 2], true, Symbol('x'), () => {}, new ArrayBuffer(4)];
  for (const v of bad) {
    sameOutcome(`write(${String(v && typeof v === 'symbol' ? 'symbol' : util.inspect(v))})`,
      () => new utfx.StringDecoder().write(v), () => new builtin.StringDecoder().write(v));
    if (v !== undefined) {
      sameOutcome('end(bad)', () => new utfx.StringDecoder().end(v),
        () => new builtin.StringDecoder().end(v));
    }
  }
  const thisValues = [{}, undefined, null, 5, Object.create(null), P, Q];
  for (const t of thisValues) {
    const d = `this=${util.inspect(t)}`;
    sameOutcome(`write ${d}`, () => P.write.call(t, Buffer.from('ab')),
      () => Q.write.call(t, Buffer.from('ab')));
    sameOutcome(`write string ${d}`, () => P.write.call(t, 'ab'), () => Q.write.call(t, 'ab'));
    sameOutcome(`end ${d}`, () => P.end.call(t), () => Q.end.call(t));
    sameOutcome(`end buf ${d}`, () => P.end.call(t, Buffer.from('ab')),
      () => Q.end.call(t, Buffer.from('ab')));
    sameOutcome(`text ${d}`, () => P.text.call(t, Buffer.from('ab'), 1),
      () => Q.text.call(t, Buffer.from('ab'), 1));
    for (const k of ['lastChar', 'lastNeed', 'lastTotal']) {
      const get = (proto) => Object.getOwnPropertyDescriptor(proto, k).get;
      sameOutcome(`${k} ${d}`, () => get(P).call(t), () => get(Q).call(t));
    }
  }
  sameOutcome('StringDecoder() without new', () => utfx.StringDecoder('utf8'),
    () => builtin.StringDecoder('utf8'));
  sameOutcome('StringDecoder("bad") without new', () => utfx.StringDecoder('bad'),
    () => builtin.StringDecoder('bad'));
  sameOutcome('text(DataView)', () => new utfx.StringDecoder().text(new DataView(new ArrayBuffer(2)), 1),
    () => new builtin.StringDecoder().text(new DataView(new ArrayBuffer(2)), 1));
  sameOutcome('text(string)', () => new utfx.StringDecoder().text('abcdef', 2),
    () => new builtin.StringDecoder().text('abcdef', 2));
});

check('encode(non-string) is Buffer.from(value, \'utf8\'), errors included', () => {
  const values = [undefined, null, 5, {}, [1, 2, 300], true, Symbol('x'), () => {},
    new ArrayBuffer(4), new Uint8Array([1, 2]), Buffer.from('ab'), { length: 2, 0: 65, 1: 66 },
    { valueOf() { return 'hi'; } }, new String('str')];
  for (const v of values) {
    sameOutcome(`encode(${typeof v === 'symbol' ? 'symbol' : util.inspect(v)})`,
      () => utfx.encode(v), () => Buffer.from(v, 'utf8'));
  }
});

check('ERR_STRING_TOO_LONG where Node raises it (every encoding; write, end, decode)', () => {
  const max = require('buffer').constants.MAX_STRING_LENGTH;
  // allocUnsafe of this size maps pages that are never touched: both refuse
  // utf8 before reading (Node's latin1, ascii, hex and base64 read or encode
  // everything first, seconds on this machine, so their error, which is the
  // same, is taken from utf8).
  let big = Buffer.allocUnsafe(max + 1);
  const expected = outcome(() => new builtin.StringDecoder('utf8').write(big));
  assert.strictEqual(expected.error.code, 'ERR_STRING_TOO_LONG');
  sameOutcome('utf8 end', () => new utfx.StringDecoder('utf8').end(big),
    () => new builtin.StringDecoder('utf8').end(big));
  sameOutcome('decode', () => utfx.decode(big), () => big.toString('utf8'));
  const sizes = { utf8: max + 1, latin1: max + 1, ascii: max + 1, hex: max / 2 + 1,
    base64: (max / 4 + 1) * 3, base64url: (max / 4 + 1) * 3 }; // n % 3 == 0: nothing held
  for (const enc of Object.keys(sizes)) {
    const view = big.subarray(0, sizes[enc]);
    assert.deepStrictEqual(outcome(() => new utfx.StringDecoder(enc).write(view)), expected, enc);
    assert.deepStrictEqual(outcome(() => new utfx.StringDecoder(enc).end(view)), expected, enc);
  }
  big = null;
});

check('one-shot functions: errors and odd arguments as Node', () => {
  const buf = Buffer.alloc(8, 0x61);
  const u8 = new Uint8Array(8);
  const args = [[], [5], ['abc', 5], ['abc', -1], ['abc', 1.5], ['abc', NaN], ['abc', '1'],
    ['abc', 'hex'], ['abc', 1, 10], ['abc', 1, -1], ['abc', 1, 'latin1'], ['abc', 8],
    ['abc', 9], ['abc', 0, 0], ['abc', undefined, 2], ['abc', null], ['abc', 2, null],
    ['abc', 7, 5], [null], [{}], ['\u00e9\u00e9\u00e9\u00e9', 3], ['a'.repeat(40), '1', 2],
    ['\u20ac'.repeat(40), 1, 7], ['\u20ac'.repeat(40), 2, 100], [Symbol('s')]];
  for (const a of args) {
    const d = `write(buf, ${a.map((x) => (typeof x === 'symbol' ? 'symbol' : util.inspect(x))).join(', ')})`;
    const b1 = Buffer.from(buf);
    const b2 = Buffer.from(buf);
    sameOutcome(d, () => utfx.write(b1, ...a), () => b2.write(a[0], a[1], a[2], 'utf8'));
    assert.strictEqual(hex(b1), hex(b2), d);
  }
  // (V8's message names the expression: `buf.write is not a function`.)
  for (const buf of [5, null, undefined, 'str', {}, new Uint8Array(4), new DataView(new ArrayBuffer(4))])
    sameOutcome(`write(${util.inspect(buf)}, 'ab')`, () => utfx.write(buf, 'ab'),
      () => buf.write('ab', undefined, undefined, 'utf8'));
  const dests = [5, null, undefined, [1, 2], new Uint16Array(2), new Int8Array(4),
    new DataView(new ArrayBuffer(2)), Buffer.alloc(3), new Uint8Array(0), u8];
  for (const src of ['', 'ab', 'x'.repeat(40), 5, null, undefined, {}, Symbol('t')]) {
    for (const dest of dests) {
      sameOutcome('encodeInto', () => utfx.encodeInto(src, dest),
        () => new TextEncoder().encodeInto(src, dest));
    }
  }
  for (const v of ['', 'abc', 'é'.repeat(30), 5, null, undefined, {}, Buffer.from('abc'),
    new ArrayBuffer(3), new Uint16Array(3), new DataView(new ArrayBuffer(5)), Symbol('b')]) {
    sameOutcome(`byteLength(${typeof v})`, () => utfx.byteLength(v),
      () => Buffer.byteLength(v, 'utf8'));
  }
  const starts = [undefined, null, 0, 1, -1, 3.7, '2', NaN, Infinity, -Infinity, 100, {}, [2]];
  const text = Buffer.from('h\u00e9llo w\u00f6rld \u20ac\u{1F600} and more text to decode');
  for (const s of starts) {
    for (const e of starts) {
      sameOutcome(`decode(buf, ${util.inspect(s)}, ${util.inspect(e)})`,
        () => utfx.decode(text, s, e), () => text.toString('utf8', s, e));
    }
  }
  for (const v of [5, null, undefined, new Uint8Array([0x61, 0x62]), 'str', {}])
    sameOutcome(`decode(${util.inspect(v)})`, () => utfx.decode(v), () => v.toString('utf8'));
});

// StringDecoder under random chunkings against Node's, per encoding.
function fuzzDecoder(enc, runs) {
  const both = () => [new utfx.StringDecoder(enc), new builtin.StringDecoder(enc)];
  let [a, b] = both();
  const log = [];
  const cmp = (what, x, y) => {
    if (x !== y || a.lastNeed !== b.lastNeed || a.lastTotal !== b.lastTotal ||
        !a.lastChar.equals(b.lastChar)) {
      throw new Error(`${enc}: ${what} differs after ${log.join(' ')}:\n` +
        `  utfx ${JSON.stringify(x)} need ${a.lastNeed} total ${a.lastTotal} last ${hex(a.lastChar)}\n` +
        `  node ${JSON.stringify(y)} need ${b.lastNeed} total ${b.lastTotal} last ${hex(b.lastChar)}`);
    }
  };
  for (let r = 0; r < runs; r++) {
    if (rand(4) === 0) [a, b] = both(); // else keep the pair: state carries over
    log.length = 0;
    // Mostly short inputs (every boundary case), some long (SIMD paths).
    const len = rand(20) === 0 ? rand(5000) : rand(40);
    const input = randBytes(len);
    let at = 0;
    while (at <= len) {
      const step = rand(6) === 0 ? 0 : 1 + rand(rand(2) ? 4 : len + 1);
      const chunk = input.subarray(at, Math.min(len, at + step));
      at += step;
      const op = rand(12);
      if (op === 0) {
        log.push(`end(${hex(chunk)})`);
        const v = randView(chunk);
        cmp('end(buf)', a.end(v), b.end(v));
      } else if (op === 1) {
        log.push('end()');
        cmp('end()', a.end(), b.end());
      } else if (op === 2 && rand(4) === 0) {
        const off = rand(chunk.length + 2);
        log.push(`text(${hex(chunk)}, ${off})`);
        cmp('text', a.text(chunk, off), b.text(chunk, off));
      } else {
        log.push(`write(${hex(chunk)})`);
        const v = randView(chunk);
        cmp('write', a.write(v), b.write(v));
      }
      if (at >= len) break;
    }
    log.push('end()');
    cmp('end', a.end(), b.end());
  }
}

function checkWrite(s, offsets, sizes) {
  const need = Buffer.byteLength(s);
  if (!sizes) {
    sizes = [];
    for (let size = 0; size <= need + 1; size++) sizes.push(size);
  }
  for (const size of sizes) {
    for (const off of offsets) {
      const a = Buffer.alloc(size + off + 3, 0xAA);
      const b = Buffer.alloc(size + off + 3, 0xAA);
      const ra = utfx.write(a, s, off, size);
      const rb = b.write(s, off, size, 'utf8');
      if (ra !== rb || !a.equals(b)) {
        throw new Error(`write ${JSON.stringify(s)} offset ${off} length ${size}: ` +
          `utfx ${ra} ${hex(a)}, node ${rb} ${hex(b)}`);
      }
    }
    // No length: up to the end of the buffer.
    const a = Buffer.alloc(size, 0xAA);
    const b = Buffer.alloc(size, 0xAA);
    assert.strictEqual(utfx.write(a, s), b.write(s));
    assert.ok(a.equals(b));
  }
}

// At every destination size 0..needed+1, or at these and needed, needed + 1.
function checkEncodeInto(s, sizes) {
  const need = Buffer.byteLength(s);
  const all = sizes ? sizes.concat(need, need + 1) : Array.from({ length: need + 2 }, (_, i) => i);
  for (const size of all) {
    const off = rand(4);
    const a = new Uint8Array(new ArrayBuffer(size + off + 2), off, size);
    const b = new Uint8Array(new ArrayBuffer(size + off + 2), off, size);
    new Uint8Array(a.buffer).fill(0xAA);
    new Uint8Array(b.buffer).fill(0xAA);
    const ra = utfx.encodeInto(s, a);
    const rb = new TextEncoder().encodeInto(s, b);
    if (ra.read !== rb.read || ra.written !== rb.written ||
        !Buffer.from(a.buffer).equals(Buffer.from(b.buffer))) {
      throw new Error(`encodeInto ${JSON.stringify(s)} size ${size}: utfx ${JSON.stringify(ra)}, ` +
        `node ${JSON.stringify(rb)}`);
    }
  }
}


// Everything that goes through the library, once per kernel set this CPU
// runs, with the JS fallbacks for short inputs off (every call reaches the
// addon): the full counts on the best one, a tenth on the others; then with
// the fallbacks on (a tenth), which tests when index.js may use them.
function tierChecks(tier, full, fallbacks) {
  const DECODER_RUNS = full ? 100000 : 10000;
  const STRING_RUNS = full ? 600 : 60;
  assert.ok(utfx.setImplementation(tier), tier);
  const saved = utfx._internal.thresholds();
  if (!fallbacks) utfx._internal.thresholds(0, 0, 0);
  tier = fallbacks ? `${tier}, JS fallbacks on` : tier;
  for (const enc of ENCODINGS) {
    check(`[${tier}] StringDecoder ${enc}: ${DECODER_RUNS} random chunkings equal Node's (writes, ends, ` +
      'text, lastChar/lastNeed/lastTotal, every view kind)', () => fuzzDecoder(enc, DECODER_RUNS));
  }

  // write(buf, s, offset, length) at every destination size and offsets.
  check(`[${tier}] write: ${STRING_RUNS} random strings (lone surrogates at start, middle, end), every ` +
    'length 0..needed+1 at offsets 0-3, every offset for some', () => {
    for (let r = 0; r < STRING_RUNS; r++) {
      const where = ['start', 'middle', 'end', undefined][r % 4];
      const s = r % 5 === 4 ? oneByteString(1 + rand(80)) : randString(rand(80), where);
      checkWrite(s, [0, 1, 2, 3]);
    }
    for (let r = 0; r < STRING_RUNS / 20; r++) {
      const s = randString(20 + rand(30), ['start', 'middle', 'end'][r % 3]);
      const offs = [];
      for (let o = 0; o <= Buffer.byteLength(s) + 1; o++) offs.push(o);
      checkWrite(s, offs);
    }
    // Long strings: the sizes around the end and some random ones.
    const ascii = (len) => Buffer.from('a'.repeat(len)).toString();
    for (const [len, make] of [[1000, randString], [5000, randString], [70000, randString],
      [20000, oneByteString], [20000, ascii], [70000, ascii]]) {
      const s = make(len, 'end');
      const need = Buffer.byteLength(s);
      const sizes = [0, 1, 2, 3, 4, 5];
      for (let k = 0; k < 40; k++) sizes.push(need - k, rand(need));
      checkWrite(s, [0, 1], sizes.filter((x) => x >= 0).concat(need + 1));
    }
  });

  check(`[${tier}] encode: ${STRING_RUNS * 5} random strings (two-byte, Latin-1 only, ASCII), ` +
    'short and long, equal Buffer.from(s, \'utf8\')', () => {
    for (let r = 0; r < STRING_RUNS * 5; r++) {
      const len = rand(10) === 0 ? rand(100000) : rand(300);
      const kind = r % 5;
      let s = kind === 4 ? oneByteString(len) : kind === 3 ? 'x'.repeat(len)
        : randString(len, ['start', 'middle', 'end', undefined][kind]);
      // A two-byte string whose probes (first, middle, last unit) are Latin-1.
      if (r % 7 === 6 && len > 10) s = 'a' + s.slice(1, -1).replace(/^./, 'b') + 'z';
      const a = utfx.encode(s);
      assert.ok(Buffer.isBuffer(a), 'a Buffer');
      if (!a.equals(Buffer.from(s, 'utf8'))) throw new Error(`encode ${JSON.stringify(s.slice(0, 100))}`);
    }
  });

  check(`[${tier}] encode: 3000 strings kept alive across pool refills still hold their bytes`, () => {
    const kept = [];
    for (let r = 0; r < 3000; r++) {
      const s = r % 3 ? randString(rand(1500)) : oneByteString(rand(1500));
      kept.push([s, utfx.encode(s)]);
    }
    for (const [s, b] of kept) {
      if (!b.equals(Buffer.from(s))) throw new Error(`encode ${JSON.stringify(s.slice(0, 80))}`);
    }
  });

  if (fallbacks) {
    check(`[${tier}] encodeInto of 40-140 units whose middle unit is or is not U+0800 or above ` +
      '(the addon or Node), lone surrogates there too, every destination size', () => {
      for (let r = 0; r < 200; r++) {
        const len = 40 + rand(101);
        const mid = ['\u4E2D', '\uD83D\uDE00', '\uD800', '\uDC00', '\u07FF', 'a'][r % 6];
        const half = len >> 1; // (the unit index.js looks at)
        checkEncodeInto(randString(half) + mid + randString(len - half - mid.length));
      }
    });
    check(`[${tier}] encodeInto from 128 units after runs of ASCII strings or not, and ` +
      'Latin-1 text over 768 units (read as bytes; one-byte and two-byte strings), sizes near the end', () => {
      const ascii = (len) => 'x'.repeat(len);
      const latin = (len) => oneByteString(len);
      const twoByteLatin = (len) => (oneByteString(len) + '\u0100').slice(0, len); // (a slice of a two-byte string)
      const withMiddle = (make, mid) => (len) => { // an ASCII middle unit, the rest random
        const half = len >> 1;
        return make(half) + mid + make(len - half - 1);
      };
      const kinds = [ascii, latin, twoByteLatin, withMiddle(randString, 'a'), withMiddle(latin, 'a'),
        withMiddle((len) => '\u4E2D'.repeat(len), 'a'), withMiddle(ascii, '\uD800'),
        withMiddle(ascii, '\u00E9'), withMiddle((len) => randString(len, 'end'), 'a'),
        (len) => ascii(len - 2) + '\u00E9\u00E9', (len) => latin(len - 1) + '\u00E9'];
      for (let r = 0; r < 60; r++) {
        if (r % 3 !== 2) { // ASCII strings first: a result must not depend on the calls before it
          checkEncodeInto(ascii(128 + rand(200)), [rand(400)]);
          checkEncodeInto(ascii(128 + rand(3000)), []);
        }
        const len = r % 4 === 3 ? 760 + rand(20) : r % 2 ? 128 + rand(700) : 769 + rand(3000);
        const s = kinds[r % kinds.length](len);
        const need = Buffer.byteLength(s);
        const sizes = [0, 1, 2, 3, 4, len, len + 1, len + 2]; // (from len + 1: V8 copies into the destination)
        for (let k = 0; k < 12; k++) sizes.push(need - k, rand(need));
        checkEncodeInto(s, sizes.filter((x) => x >= 0));
      }
    });
    check(`[${tier}] encodeInto into the same destination again (the addon keeps its memory; ` +
      'from 13 units a view Node wrote goes to the addon next time): every path, then that view detached, a resizable buffer resized, bytes past written untouched', () => {
      const kinds = [(len) => 'x'.repeat(len), oneByteString, (len) => randString(len),
        (len) => (oneByteString(len) + '\u0100').slice(0, len), // (a slice of a two-byte string)
        (len) => 'x'.repeat(len - 1) + '\u00E9', (len) => '\u00E9' + 'x'.repeat(len - 1)];
      const lens = () => pick([1, 12, 13, 20, 40, 64, 127, 128, 700, 767, 768, 769, 770, 1000, 3000]);
      // The destination and the 2 bytes after it (as far as its buffer
      // goes; nothing of a detached one) as hex, and a copy of them for the global.
      const room = (a) => Math.min(a.length + 2, a.buffer.byteLength - a.byteOffset);
      const hex = (a, n) => (n > 0 ? Buffer.from(a.buffer, a.byteOffset, n).toString('hex') : '');
      const same = (s, a, what) => {
        const n = room(a);
        const b = new Uint8Array(Math.max(n, a.length));
        if (n > 0) b.set(new Uint8Array(a.buffer, a.byteOffset, n));
        const ra = utfx.encodeInto(s, a);
        const rb = new TextEncoder().encodeInto(s, b.subarray(0, a.length));
        if (ra.read !== rb.read || ra.written !== rb.written || hex(a, n) !== hex(b, n))
          throw new Error(`encodeInto (${what}) of ${s.length} units into ${a.length}: ` +
            `utfx ${JSON.stringify(ra)}, node ${JSON.stringify(rb)}`);
      };
      for (let r = 0; r < 40; r++) {
        const size = rand(4000);
        const ab = new ArrayBuffer(size + 8);
        const a = new Uint8Array(ab, rand(4), size);
        new Uint8Array(ab).fill(0xAA);
        for (let k = 0; k < 30; k++) {
          same(pick(kinds)(lens()), a, 'again');
          if (k % 7 === 6) same(pick(kinds)(lens()), new Uint8Array(size + 1), 'another between');
        }
        structuredClone(ab, { transfer: [ab] }); // detached: length 0
        for (let k = 0; k < 5; k++) same(pick(kinds)(lens()), a, 'detached');
      }
      const rab = new ArrayBuffer(16, { maxByteLength: 8192 });
      const t = new Uint8Array(rab); // (its length follows the buffer's)
      for (let r = 0; r < 60; r++) {
        rab.resize(rand(8193));
        new Uint8Array(rab).fill(0xAA);
        for (let k = 0; k < 3; k++) same(pick(kinds)(lens()), t, 'resized');
      }
      // empty at its first call, then grown: its memory is only known then
      const rab0 = new ArrayBuffer(0, { maxByteLength: 8192 });
      const t0 = new Uint8Array(rab0);
      for (let k = 0; k < 3; k++) same(pick(kinds)(lens()), t0, 'empty, then grown');
      rab0.resize(8192);
      for (let k = 0; k < 5; k++) same(pick(kinds)(lens()), t0, 'empty, then grown');
    });
    check(`[${tier}] write of short strings (the JavaScript writer): 3000 strings of 0..20 units, ` +
      'every length 0..needed+1 at offsets 0-2', () => {
      for (let r = 0; r < 3000; r++) {
        const len = rand(21);
        const s = r % 4 === 3 ? oneByteString(len) : randString(len, [undefined, 'start', 'end'][r % 3]);
        checkWrite(s, [0, 1, 2]);
      }
    });
  }

  check(`[${tier}] encodeInto: ${STRING_RUNS} random strings, every destination size 0..needed+1`, () => {
    for (let r = 0; r < STRING_RUNS; r++) {
      const where = ['start', 'middle', 'end', undefined][r % 4];
      checkEncodeInto(r % 5 === 4 ? oneByteString(rand(80)) : randString(rand(80), where));
    }
    checkEncodeInto(randString(3000, 'middle'));
  });

  check(`[${tier}] byteLength: random strings, short and long, lone surrogates`, () => {
    for (let r = 0; r < STRING_RUNS * 5; r++) {
      const len = rand(10) === 0 ? rand(100000) : rand(100);
      const s = r % 5 === 4 ? oneByteString(len) : randString(len, ['start', 'middle', 'end'][r % 3]);
      assert.strictEqual(utfx.byteLength(s), Buffer.byteLength(s, 'utf8'), JSON.stringify(s));
    }
  });

  check(`[${tier}] decode: random bytes, every (start, end) for short buffers, random for long`, () => {
    for (let r = 0; r < STRING_RUNS; r++) {
      const buf = randBytes(rand(60));
      for (let s = -1; s <= buf.length + 1; s++) {
        for (let e = s - 1; e <= buf.length + 1; e++) {
          const x = utfx.decode(buf, s, e);
          const y = buf.toString('utf8', s, e);
          if (x !== y) throw new Error(`decode ${hex(buf)} ${s} ${e}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
        }
      }
      assert.strictEqual(utfx.decode(buf), buf.toString());
    }
    for (let r = 0; r < STRING_RUNS; r++) {
      const big = Buffer.from(randString(rand(20000)));
      const buf = rand(2) ? randBytes(rand(20000)) : big;
      const s = rand(buf.length + 1);
      const e = s + rand(buf.length + 1 - s);
      assert.strictEqual(utfx.decode(buf, s, e), buf.toString('utf8', s, e));
      assert.strictEqual(utfx.decode(buf), buf.toString('utf8'));
    }
  });

  utfx._internal.thresholds(...saved);
}

const tiers = utfx.implementations();
const best = utfx.implementation();
for (const tier of tiers) tierChecks(tier, !quick && tier === best, false);
tierChecks(best, false, true);
utfx.setImplementation(best);

console.log(`# seed ${firstSeed} (--seed ${firstSeed} repeats this run); kernels: ${utfx.implementation()}`);
done();
