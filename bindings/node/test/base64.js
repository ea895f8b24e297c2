'use strict';
// The package's base64 functions against independent oracles:
//   toBase64 / fromBase64 / setFromBase64: a JavaScript transcription of the
//     TC39 proposal's algorithms (FromBase64, DecodeBase64Chunk, RFC 4648
//     encoding) below, written from the spec text; the argument and option
//     rules the spec gives (TypeErrors, Get order, detached and out-of-bounds
//     buffers) as hand cases of the kinds test262 checks; atob/btoa (WHATWG
//     forgiving-base64 = lastChunkHandling 'loose'); Uint8Array.fromBase64
//     itself where this Node has it.
//   base64Encode / base64Decode: Buffer's toString / from, both alphabets.
// Random inputs with whitespace and bad characters at every offset of a
// block, every target size for setFromBase64, SharedArrayBuffer targets;
// each on every kernel set, with the addon forced, with JavaScript forced and
// with the measured thresholds. Prints TAP.
//   node test/base64.js [--quick] [--seed N]

const assert = require('assert');
const utfx = require('..');

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const { seed: firstSeed, rand, pick } = require('./random').seeded(argv);

const { check, done, hex } = require('./tap');

const show = (s) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}...(${s.length})` : s);

// ------------------------------------------------------------ the TC39 reference

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ASCII_WHITESPACE = ['\t', '\n', '\f', '\r', ' '];

function skipAsciiWhitespace(string, index) {
  while (index < string.length && ASCII_WHITESPACE.includes(string[index])) index++;
  return index;
}

class ExtraBits extends Error {}

// DecodeBase64Chunk: chunk of 2, 3 or 4 standard-alphabet characters.
function decodeBase64Chunk(chunk, throwOnExtraBits) {
  const chunkLength = chunk.length;
  const padded = chunkLength === 2 ? `${chunk}AA` : chunkLength === 3 ? `${chunk}A` : chunk;
  let bits = 0;
  for (const ch of padded) bits = bits * 64 + STANDARD.indexOf(ch);
  const bytes = [Math.floor(bits / 65536) % 256, Math.floor(bits / 256) % 256, bits % 256];
  if (chunkLength === 2) {
    if (throwOnExtraBits && bytes[1] !== 0) throw new ExtraBits();
    return [bytes[0]];
  }
  if (chunkLength === 3) {
    if (throwOnExtraBits && bytes[2] !== 0) throw new ExtraBits();
    return [bytes[0], bytes[1]];
  }
  return bytes;
}

// FromBase64 -> { read, bytes, error }.
function refFromBase64(string, alphabet, lastChunkHandling, maxLength = 2 ** 53 - 1) {
  if (maxLength === 0) return { read: 0, bytes: [], error: false };
  let read = 0;
  const bytes = [];
  let chunk = '';
  let index = 0;
  const length = string.length;
  const fail = () => ({ read, bytes, error: true });
  for (;;) {
    index = skipAsciiWhitespace(string, index);
    if (index === length) {
      if (chunk.length > 0) {
        if (lastChunkHandling === 'stop-before-partial') return { read, bytes, error: false };
        if (lastChunkHandling === 'loose') {
          if (chunk.length === 1) return fail();
          bytes.push(...decodeBase64Chunk(chunk, false));
        } else {
          return fail();
        }
      }
      return { read: length, bytes, error: false };
    }
    let char = string[index];
    index++;
    if (char === '=') {
      if (chunk.length < 2) return fail();
      index = skipAsciiWhitespace(string, index);
      if (chunk.length === 2) {
        if (index === length) {
          if (lastChunkHandling === 'stop-before-partial') return { read, bytes, error: false };
          return fail();
        }
        if (string[index] === '=') index = skipAsciiWhitespace(string, index + 1);
      }
      if (index < length) return fail();
      try {
        bytes.push(...decodeBase64Chunk(chunk, lastChunkHandling === 'strict'));
      } catch (e) {
        if (!(e instanceof ExtraBits)) throw e;
        return fail();
      }
      return { read: length, bytes, error: false };
    }
    if (alphabet === 'base64url') {
      if (char === '+' || char === '/') return fail();
      if (char === '-') char = '+';
      else if (char === '_') char = '/';
    }
    if (!STANDARD.includes(char)) return fail();
    const remaining = maxLength - bytes.length;
    if ((remaining === 1 && chunk.length === 2) || (remaining === 2 && chunk.length === 3))
      return { read, bytes, error: false };
    chunk += char;
    if (chunk.length === 4) {
      bytes.push(...decodeBase64Chunk(chunk));
      chunk = '';
      read = index;
      if (bytes.length === maxLength) return { read, bytes, error: false };
    }
  }
}

// RFC 4648 sections 4 and 5, six bits at a time.
function refToBase64(bytes, alphabet, omitPadding) {
  const abc = alphabet === 'base64url' ? `${STANDARD.slice(0, 62)}-_` : STANDARD;
  let out = '';
  let bits = 0;
  let have = 0;
  for (const b of bytes) {
    bits = (bits << 8) | b;
    have += 8;
    while (have >= 6) {
      have -= 6;
      out += abc[(bits >> have) & 63];
    }
    bits &= (1 << have) - 1;
  }
  if (have > 0) out += abc[(bits << (6 - have)) & 63];
  if (!omitPadding) while (out.length % 4) out += '=';
  return out;
}

// ------------------------------------------------------------ comparing

const ALPHABETS = ['base64', 'base64url'];
const LAST = ['loose', 'strict', 'stop-before-partial'];
const native = typeof Uint8Array.fromBase64 === 'function'; // this Node's own, when it has them

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (err) {
    return { error: err };
  }
}

// fromBase64 and setFromBase64 (every target size 0..needed+1, a
// SharedArrayBuffer target, an offset view) against the reference.
function checkDecode(s, alphabet, last, allCaps) {
  const options = { alphabet, lastChunkHandling: last };
  const want = refFromBase64(s, alphabet, last);
  const got = outcome(() => utfx.fromBase64(s, options));
  if (want.error) {
    if (!(got.error instanceof SyntaxError))
      throw new Error(`fromBase64(${show(s)}, ${alphabet}, ${last}): want a SyntaxError, got ${got.error || hex(got.value)}`);
  } else {
    if (got.error) throw new Error(`fromBase64(${show(s)}, ${alphabet}, ${last}) threw ${got.error}`);
    const u8 = got.value;
    if (Object.getPrototypeOf(u8) !== Uint8Array.prototype || u8.byteOffset !== 0 ||
        u8.buffer.byteLength !== u8.length)
      throw new Error(`fromBase64(${show(s)}): not a Uint8Array of its own buffer`);
    if (hex(u8) !== Buffer.from(want.bytes).toString('hex'))
      throw new Error(`fromBase64(${show(s)}, ${alphabet}, ${last}): ${hex(u8)}, want ${Buffer.from(want.bytes).toString('hex')}`);
  }
  if (native) {
    const theirs = outcome(() => Uint8Array.fromBase64(s, options));
    assert.strictEqual(!!theirs.error, want.error, `Uint8Array.fromBase64(${show(s)}) disagrees with the reference`);
  }
  const full = want.bytes.length;
  const caps = allCaps ? [] : [0, 1, 2, 3, full - 1, full, full + 1, rand(full + 2)];
  if (allCaps) for (let c = 0; c <= full + 1; c++) caps.push(c);
  for (const cap of caps) {
    if (cap < 0) continue;
    const ref = refFromBase64(s, alphabet, last, cap);
    const kind = cap % 3;
    const backing = kind === 1 ? new SharedArrayBuffer(cap + 4) : new ArrayBuffer(cap + 4);
    const all = new Uint8Array(backing).fill(0xA5);
    const into = new Uint8Array(backing, kind === 2 ? 3 : 0, cap);
    const r = outcome(() => utfx.setFromBase64(into, s, options));
    const what = `setFromBase64(u8[${cap}]${kind === 1 ? ' shared' : ''}, ${show(s)}, ${alphabet}, ${last})`;
    if (ref.error) {
      if (!(r.error instanceof SyntaxError)) throw new Error(`${what}: want a SyntaxError, got ${r.error || JSON.stringify(r.value)}`);
    } else {
      if (r.error) throw new Error(`${what} threw ${r.error}`);
      const v = r.value;
      if (Object.keys(v).join() !== 'read,written' || v.read !== ref.read || v.written !== ref.bytes.length)
        throw new Error(`${what}: ${JSON.stringify(v)}, want read ${ref.read} written ${ref.bytes.length}`);
    }
    // The bytes decoded (before an error too) are in the target; nothing else changed.
    const expect = Buffer.alloc(cap + 4, 0xA5);
    Buffer.from(ref.bytes).copy(expect, kind === 2 ? 3 : 0);
    if (hex(all) !== expect.toString('hex'))
      throw new Error(`${what}: memory ${hex(all)}, want ${expect.toString('hex')}`);
  }
}

function checkEncode(bytes) {
  for (const alphabet of ALPHABETS) {
    for (const omitPadding of [false, true]) {
      const want = refToBase64(bytes, alphabet, omitPadding);
      const got = utfx.toBase64(bytes, { alphabet, omitPadding });
      if (got !== want) throw new Error(`toBase64(${hex(bytes).slice(0, 200)}, ${alphabet}, ${omitPadding}): ${show(got)}, want ${show(want)}`);
    }
  }
  assert.strictEqual(utfx.toBase64(bytes), refToBase64(bytes, 'base64', false));
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (const enc of ['base64', 'base64url']) {
    const got = utfx.base64Encode(buf, enc);
    if (got !== buf.toString(enc)) throw new Error(`base64Encode(${hex(buf).slice(0, 200)}, ${enc})`);
  }
  assert.strictEqual(utfx.base64Encode(bytes), buf.toString('base64'));
}

// Bytes as hex for a message, cut short (long texts are tested too).
function showBytes(b) {
  const h = hex(b);
  return h.length > 240 ? `${h.slice(0, 240)}...(${b.length} bytes)` : h;
}

function checkNodeDecode(s) {
  for (const enc of ['base64', 'base64url']) {
    const got = utfx.base64Decode(s, enc);
    const want = Buffer.from(s, enc);
    if (!Buffer.isBuffer(got) || !got.equals(want))
      throw new Error(`base64Decode(${show(s)}, ${enc}): ${showBytes(got)}, want ${showBytes(want)}`);
  }
  if (!utfx.base64Decode(s).equals(Buffer.from(s, 'base64'))) throw new Error(`base64Decode(${show(s)})`);
}

// atob is WHATWG forgiving-base64 decode: lastChunkHandling 'loose'.
function checkAtob(s) {
  const a = outcome(() => atob(s));
  const b = outcome(() => utfx.fromBase64(s));
  if (!!a.error !== !!b.error || (!a.error && Buffer.from(a.value, 'latin1').toString('hex') !== hex(b.value)))
    throw new Error(`atob(${show(s)}): ${a.error ? a.error.name : a.value} vs ${b.error ? b.error.name : hex(b.value)}`);
}

// ------------------------------------------------------------ inputs

function randBytes(n) {
  const b = new Uint8Array(n);
  const mode = rand(3);
  for (let i = 0; i < n; i++) b[i] = mode === 0 ? rand(256) : mode === 1 ? pick([0, 0xFF, 0xFB, 0x3E, 0x3F]) : rand(4);
  return b;
}

// Characters that are whitespace, outside an alphabet or in the other
// one, '=', and units the spec never accepts (Latin-1 and above).
const ODD = [' ', '\t', '\n', '\f', '\r', '\v', '\0', '=', '+', '/', '-', '_', '*', '.', '\x80',
  '\xA0', '\xFF', '\u0100', '\u0141', '\u2028', '\uFEFF', '\uD800', 'A', 'z'];

// A base64 text of random bytes, in the alphabet, padded or not.
function randText(n, alphabet) {
  let s = refToBase64(randBytes(n), alphabet, rand(3) === 0);
  if (rand(4) === 0) s = s.replace(/=+$/, (m) => m.slice(0, rand(m.length + 1)));
  return s;
}

function sprinkle(s, count) {
  for (let k = 0; k < count; k++) {
    const at = rand(s.length + 1);
    s = s.slice(0, at) + (rand(4) ? pick(ASCII_WHITESPACE).repeat(1 + rand(3)) : pick(ODD)) + s.slice(at);
  }
  return s;
}

// ------------------------------------------------------------ hand cases

function throwsType(fn, what) {
  assert.throws(fn, (e) => e instanceof TypeError, what);
}

function apiChecks() {
  check('TC39 arguments: Uint8Array only (Buffer counts), strings only, options objects, ' +
    'alphabet / lastChunkHandling values, TypeErrors', () => {
    const u8 = new Uint8Array([1, 2, 3]);
    for (const bad of [[1, 2], new Uint8ClampedArray(3), new Int8Array(3), new DataView(new ArrayBuffer(3)),
      new ArrayBuffer(3), 'abc', null, undefined, 5]) {
      throwsType(() => utfx.toBase64(bad), `toBase64(${Object.prototype.toString.call(bad)})`);
      throwsType(() => utfx.setFromBase64(bad, 'AAAA'), `setFromBase64(${Object.prototype.toString.call(bad)})`);
    }
    assert.strictEqual(utfx.toBase64(Buffer.from([1, 2, 3])), 'AQID');
    for (const bad of [new String('AAAA'), 5, null, undefined, ['AAAA'], { toString: () => 'AAAA' }]) {
      throwsType(() => utfx.fromBase64(bad), `fromBase64(${typeof bad})`);
      throwsType(() => utfx.setFromBase64(u8, bad), `setFromBase64(u8, ${typeof bad})`);
    }
    for (const bad of [null, 'base64', 1, true, Symbol('x'), 1n]) {
      throwsType(() => utfx.toBase64(u8, bad), 'toBase64 options');
      throwsType(() => utfx.fromBase64('AAAA', bad), 'fromBase64 options');
      throwsType(() => utfx.setFromBase64(u8, 'AAAA', bad), 'setFromBase64 options');
    }
    // A function is an object; its properties are read.
    const f = () => {};
    f.alphabet = 'base64url';
    assert.strictEqual(utfx.toBase64(new Uint8Array([0xFB, 0xFF]), f), '-_8=');
    for (const alphabet of ['BASE64', 'base64 ', 'url', new String('base64'), { toString: () => 'base64' },
      null, 0, 'other']) {
      throwsType(() => utfx.toBase64(u8, { alphabet }), `alphabet ${String(alphabet)}`);
      throwsType(() => utfx.fromBase64('AAAA', { alphabet }), `alphabet ${String(alphabet)}`);
      throwsType(() => utfx.setFromBase64(u8, 'AAAA', { alphabet }), `alphabet ${String(alphabet)}`);
    }
    for (const lastChunkHandling of ['Loose', 'stop', 'stop-before-partial ', new String('strict'), null, 0]) {
      throwsType(() => utfx.fromBase64('AAAA', { lastChunkHandling }), `lastChunkHandling ${String(lastChunkHandling)}`);
      throwsType(() => utfx.setFromBase64(u8, 'AAAA', { lastChunkHandling }), 'lastChunkHandling');
    }
    // omitPadding is ToBoolean'd.
    assert.strictEqual(utfx.toBase64(new Uint8Array([1]), { omitPadding: 'false' }), 'AQ');
    assert.strictEqual(utfx.toBase64(new Uint8Array([1]), { omitPadding: 0 }), 'AQ==');
    assert.strictEqual(utfx.toBase64(new Uint8Array([1]), { omitPadding: {} }), 'AQ');
    // Inherited options count.
    assert.strictEqual(utfx.toBase64(new Uint8Array([0xFB]), Object.create({ alphabet: 'base64url' })), '-w==');
    // The bad string is found before the options are read.
    let reads = 0;
    const counting = { get alphabet() { reads++; return 'base64'; } };
    throwsType(() => utfx.fromBase64(1, counting));
    throwsType(() => utfx.setFromBase64(u8, 1, counting));
    throwsType(() => utfx.setFromBase64([], 'AA', counting));
    assert.strictEqual(reads, 0, 'options read before the argument checks');
  });

  check('TC39 options: read once each, in the spec\'s order, through getters and proxies; ' +
    'a throwing getter propagates; a bad alphabet stops before lastChunkHandling', () => {
    const log = [];
    const proxy = (values) => new Proxy(values, {
      get(t, k) { log.push(String(k)); return t[k]; },
      has(t, k) { log.push(`has ${String(k)}`); return k in t; },
    });
    utfx.toBase64(new Uint8Array(5), proxy({}));
    assert.deepStrictEqual(log.splice(0), ['alphabet', 'omitPadding']);
    utfx.toBase64(new Uint8Array(500), proxy({ alphabet: 'base64url', omitPadding: true }));
    assert.deepStrictEqual(log.splice(0), ['alphabet', 'omitPadding']);
    utfx.fromBase64('AAAA', proxy({}));
    assert.deepStrictEqual(log.splice(0), ['alphabet', 'lastChunkHandling']);
    utfx.setFromBase64(new Uint8Array(3), 'AAAA'.repeat(50), proxy({ lastChunkHandling: 'strict' }));
    assert.deepStrictEqual(log.splice(0), ['alphabet', 'lastChunkHandling']);
    throwsType(() => utfx.fromBase64('AAAA', proxy({ alphabet: 'x', lastChunkHandling: 'strict' })));
    assert.deepStrictEqual(log.splice(0), ['alphabet']);
    throwsType(() => utfx.toBase64(new Uint8Array(1), proxy({ alphabet: 'x' })));
    assert.deepStrictEqual(log.splice(0), ['alphabet']);
    class Mine extends Error {}
    const throwing = { get lastChunkHandling() { throw new Mine(); } };
    assert.throws(() => utfx.fromBase64('AAAA', throwing), Mine);
    assert.throws(() => utfx.setFromBase64(new Uint8Array(3), 'AAAA', throwing), Mine);
    assert.throws(() => utfx.toBase64(new Uint8Array(3), { get omitPadding() { throw new Mine(); } }), Mine);
    // An invalid string: the options were valid, the error is a SyntaxError.
    assert.throws(() => utfx.fromBase64('A', proxy({})), SyntaxError);
    assert.deepStrictEqual(log.splice(0), ['alphabet', 'lastChunkHandling']);
  });

  check('TC39 buffers: detached (before the call and by an option getter) and out-of-bounds ' +
    'views are TypeErrors; zero-length views are fine; subarrays and SharedArrayBuffers', () => {
    const detach = (ab) => structuredClone(ab, { transfer: [ab] });
    for (const n of [0, 3, 300]) {
      const a = new Uint8Array(n);
      detach(a.buffer);
      throwsType(() => utfx.toBase64(a), `toBase64 detached ${n}`);
      throwsType(() => utfx.setFromBase64(a, 'AAAA'), `setFromBase64 detached ${n}`);
      throwsType(() => utfx.setFromBase64(a, ''), `setFromBase64 detached ${n}, empty string`);
      const b = new Uint8Array(n);
      throwsType(() => utfx.toBase64(b, { get alphabet() { detach(b.buffer); return 'base64'; } }),
        `toBase64, detached by a getter ${n}`);
      const c = new Uint8Array(n);
      throwsType(() => utfx.setFromBase64(c, 'AAAA'.repeat(40), { get lastChunkHandling() { detach(c.buffer); } }),
        `setFromBase64, detached by a getter ${n}`);
    }
    assert.strictEqual(utfx.toBase64(new Uint8Array(0)), '');
    assert.deepStrictEqual(utfx.setFromBase64(new Uint8Array(0), 'AAAA'), { read: 0, written: 0 });
    assert.deepStrictEqual(utfx.setFromBase64(new Uint8Array(0), '*** not base64'), { read: 0, written: 0 });
    let ab;
    try {
      ab = new ArrayBuffer(8, { maxByteLength: 16 });
    } catch { ab = null; }
    if (ab && typeof ab.resize === 'function') {
      const fixed = new Uint8Array(ab, 4, 4);
      const tracking = new Uint8Array(ab, 4);
      assert.strictEqual(utfx.toBase64(fixed), 'AAAAAA==');
      ab.resize(6);
      throwsType(() => utfx.toBase64(fixed), 'out of bounds');
      throwsType(() => utfx.setFromBase64(fixed, 'AAAA'), 'out of bounds');
      assert.strictEqual(utfx.toBase64(tracking), 'AAA=');
      ab.resize(3);
      throwsType(() => utfx.toBase64(tracking), 'tracking, out of bounds');
      ab.resize(4);
      assert.strictEqual(utfx.toBase64(tracking), '');
      ab.resize(16);
      assert.deepStrictEqual(utfx.setFromBase64(tracking, '/////////////////'), { read: 16, written: 12 });
      assert.strictEqual(hex(new Uint8Array(ab)), `00000000${'ff'.repeat(12)}`);
    }
    const big = new Uint8Array(new SharedArrayBuffer(400));
    assert.deepStrictEqual(utfx.setFromBase64(big.subarray(7, 307), Buffer.alloc(300, 0xFF).toString('base64')),
      { read: 400, written: 300 });
    assert.strictEqual(hex(big), '00'.repeat(7) + 'ff'.repeat(300) + '00'.repeat(93));
    assert.strictEqual(utfx.toBase64(big.subarray(5, 10)), 'AAD///8=');
    const u = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4);
    assert.strictEqual(utfx.toBase64(u), 'AQID');
  });

  check('TC39 results: the kinds of test262\'s cases (alphabets, padding, whitespace, illegal and ' +
    'late characters, last chunks, small targets), exact values', () => {
    const hexOf = (s, o) => hex(utfx.fromBase64(s, o));
    assert.strictEqual(hexOf('Zm9vYmFy'), '666f6f626172');
    assert.strictEqual(hexOf(' Z m\t9\nv\fY\rg = = '), '666f6f62');
    assert.strictEqual(hexOf('Zm9vYh=='), '666f6f62'); // loose: extra bits ignored
    assert.throws(() => utfx.fromBase64('Zm9vYh==', { lastChunkHandling: 'strict' }), SyntaxError);
    assert.throws(() => utfx.fromBase64('Zm9vYg', { lastChunkHandling: 'strict' }), SyntaxError);
    assert.strictEqual(hexOf('Zm9vYg', { lastChunkHandling: 'stop-before-partial' }), '666f6f');
    assert.strictEqual(hexOf('Zm9vYg=', { lastChunkHandling: 'stop-before-partial' }), '666f6f');
    assert.throws(() => utfx.fromBase64('Zm9vY', { lastChunkHandling: 'loose' }), SyntaxError);
    assert.throws(() => utfx.fromBase64('Zm9vYg==Zm9v'), SyntaxError);
    assert.throws(() => utfx.fromBase64('Zm9v\vYmFy'), SyntaxError); // VT is not ASCII whitespace
    assert.throws(() => utfx.fromBase64('Zm9v\u00a0YmFy'), SyntaxError);
    assert.throws(() => utfx.fromBase64('-_-_'), SyntaxError);
    assert.throws(() => utfx.fromBase64('+/+/', { alphabet: 'base64url' }), SyntaxError);
    assert.strictEqual(hexOf('-_-_', { alphabet: 'base64url' }), 'fbffbf');
    assert.strictEqual(hexOf(''), '');
    const t = new Uint8Array(4);
    assert.deepStrictEqual(utfx.setFromBase64(t, 'Zm9vYmFy'), { read: 4, written: 3 });
    assert.deepStrictEqual(utfx.setFromBase64(new Uint8Array(3), 'Zm9v  '), { read: 4, written: 3 });
    assert.deepStrictEqual(utfx.setFromBase64(new Uint8Array(4), 'Zm9vYg=='), { read: 8, written: 4 });
    assert.deepStrictEqual(utfx.setFromBase64(new Uint8Array(3), 'Zm9vYmFy*'), { read: 4, written: 3 });
    const e = new Uint8Array(9);
    assert.throws(() => utfx.setFromBase64(e, 'Zm9vYmFy*Zm9v'), SyntaxError);
    assert.strictEqual(hex(e), '666f6f626172000000'); // what came before the error is written
    // A full target: what follows is not read.
    assert.deepStrictEqual(utfx.setFromBase64(new Uint8Array(6), 'Zm9vYmFy*Zm9v'), { read: 8, written: 6 });
    assert.strictEqual(utfx.toBase64(new Uint8Array([0xFB, 0xFF]), { alphabet: 'base64url', omitPadding: true }), '-_8');
  });

  check('Node functions: the encoding argument (any case; others ERR_UNKNOWN_ENCODING), views of ' +
    'any kind, non-views a TypeError, base64Decode of a non-string is Buffer.from\'s', () => {
    const b = Buffer.from([0xFB, 0xFF, 0xBF, 0x01]);
    assert.strictEqual(utfx.base64Encode(b, 'BASE64URL'), b.toString('base64url'));
    assert.strictEqual(utfx.base64Encode(b, 'Base64'), b.toString('base64'));
    for (const enc of ['hex', 'utf8', 'base-64', null, 1]) {
      assert.throws(() => utfx.base64Encode(b, enc), (e) => e instanceof TypeError && e.code === 'ERR_UNKNOWN_ENCODING');
      assert.throws(() => utfx.base64Decode('AAAA', enc), (e) => e instanceof TypeError && e.code === 'ERR_UNKNOWN_ENCODING');
    }
    const u16 = new Uint16Array([0x1234, 0xFFFF]);
    assert.strictEqual(utfx.base64Encode(u16), Buffer.from(u16.buffer).toString('base64'));
    assert.strictEqual(utfx.base64Encode(new DataView(b.buffer, b.byteOffset + 1, 2)), b.subarray(1, 3).toString('base64'));
    for (const bad of [null, undefined, 'AAAA', [1, 2], new ArrayBuffer(4)])
      assert.throws(() => utfx.base64Encode(bad), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE');
    assert.deepStrictEqual(utfx.base64Decode([1, 2, 3]), Buffer.from([1, 2, 3], 'base64'));
    for (const bad of [null, undefined, 5])
      assert.throws(() => utfx.base64Decode(bad), (e) => e.code === outcome(() => Buffer.from(bad, 'base64')).error.code);
  });

  check('WHATWG forgiving-base64 (atob) cases and btoa', () => {
    const cases = ['', 'abcd', ' abcd', 'abcd ', ' abcd===', 'abcd=== ', 'abcd ===', 'a', 'ab', 'abc',
      'abcde', '\u{1D400}', '\uD800', 'ab=', 'ab==', 'abc=', 'a===', 'ab===', 'abc==', 'abcd=',
      'ab=c', 'ab==c', 'ab\tcd', 'ab\ncd', 'ab\fcd', 'ab\rcd', 'ab\vcd', 'ab cd', 'ab\u00a0cd', 'ab\tc\nd\f\r ',
      '=', '==', '===', '====', '=====', 'ab=  =', 'a=b=', 'YQ', 'YR', 'YQ==', 'YR==', 'YWI', 'YWJ',
      'YWI=', 'YWJ=', 'YWJj', '////', '-_-_', '+/+/', 'ab*c', 'ab.c', 'abc\u0100', '\u00ff\u00ff'];
    for (const s of cases) checkAtob(s);
    for (let r = 0; r < 300; r++) {
      const b = randBytes(rand(40));
      const latin1 = Buffer.from(b).toString('latin1');
      assert.strictEqual(utfx.toBase64(b), btoa(latin1));
    }
  });
}

// ------------------------------------------------------------ random

function randomChecks(label, scale) {
  check(`[${label}] toBase64 and base64Encode: random bytes of 0..200 and long ones, every option, ` +
    'against the reference and Buffer', () => {
    for (let n = 0; n <= 200; n++) checkEncode(randBytes(n));
    for (let r = 0; r < 20 * scale; r++) {
      const b = randBytes(rand(r % 4 ? 2000 : 70000));
      const off = rand(4);
      checkEncode(Buffer.concat([Buffer.alloc(off), b]).subarray(off));
    }
  });

  // Blocks of 4 characters (a group: every target size) and of 64 (a
  // vector: AVX-512's, twice AVX2's and NEON's).
  check(`[${label}] texts of about 1 MB and more (Node's external strings): toBase64 and ` +
    'base64Encode against Buffer, every option, twice (the reused buffer)', () => {
    const sizes = [773934, 773935, 773936, 1 << 20];
    if (scale > 1) sizes.push(3 << 20);
    for (const n of sizes) {
      const b = Buffer.from(randBytes(n));
      for (let k = 0; k < 2; k++) {
        assert.strictEqual(utfx.base64Encode(b), b.toString('base64'), `base64Encode ${n}`);
        assert.strictEqual(utfx.base64Encode(b, 'base64url'), b.toString('base64url'), `base64url ${n}`);
        const padded = b.toString('base64');
        assert.strictEqual(utfx.toBase64(b), padded, `toBase64 ${n}`);
        assert.strictEqual(utfx.toBase64(b, { omitPadding: true }), padded.replace(/=+$/, ''));
        assert.strictEqual(utfx.toBase64(b, { alphabet: 'base64url' }),
          b.toString('base64url') + '='.repeat((3 - n % 3) % 3));
      }
    }
  });

  // Node's decoder takes base64Decode's long texts (NODE_DECODE characters,
  // about 512 Ki): texts around that and of Node's external size, clean,
  // with whitespace, garbage, '=' inside and units above 0xFF, against
  // Buffer.from.
  check(`[${label}] base64Decode of texts of 0.5-1.4 M characters (Node's decoder), clean and ` +
    'with odd characters, both encodings, against Buffer.from', () => {
    const sizes = [(1 << 19) - 1, 1 << 19, (1 << 19) + 1, 1031913, 1400000];
    for (let k = 0; k < sizes.length; k++) {
      const n = sizes[k];
      let s = Buffer.from(randBytes(Math.ceil(n * 3 / 4))).toString(k % 2 ? 'base64url' : 'base64').slice(0, n);
      checkNodeDecode(s);
      const at = rand(n);
      const odd = pick(ODD.concat(['\u0141', '\u4E00', '==']));
      s = s.slice(0, at) + odd + s.slice(at + 1);
      checkNodeDecode(s);
    }
  });

  check(`[${label}] whitespace and bad characters at every offset of 1-4 blocks of 4 and 64 ` +
    'characters: fromBase64 and setFromBase64 (target sizes), both alphabets, every ' +
    'lastChunkHandling, base64Decode, atob', () => {
    for (const [unit, runs] of [[4, 12 * scale], [64, scale]]) {
      for (let blocks = 1; blocks <= 4; blocks++) {
        for (let r = 0; r < runs; r++) {
          const alphabet = ALPHABETS[r % 2];
          const bytes = (blocks * unit / 4) * 3 - rand(3);
          const base = randText(bytes, alphabet);
          for (let at = 0; at <= base.length; at++) {
            const c = r % 3 === 0 ? pick(ASCII_WHITESPACE) : pick(ODD);
            const s = base.slice(0, at) + c + base.slice(at);
            for (const last of LAST) checkDecode(s, alphabet, last, unit === 4);
            checkNodeDecode(s);
            checkAtob(s);
          }
        }
      }
    }
  });

  check(`[${label}] every count of 0-9 alphabet characters then 0-5 '=' (with and without ` +
    'whitespace between), every mode and target size', () => {
    for (let k = 0; k <= 9; k++) {
      for (let m = 0; m <= 5; m++) {
        const data = 'QUJDREVGR0'.slice(0, k);
        for (const s of [data + '='.repeat(m), data + ' ='.repeat(m), `${data}\n${'='.repeat(m)} `]) {
          for (const alphabet of ALPHABETS) for (const last of LAST) checkDecode(s, alphabet, last, true);
          checkNodeDecode(s);
        }
      }
    }
  });

  check(`[${label}] texts whose groups fill the result before whitespace and a stray '=' or a ` +
    'partial group, in every mode', () => {
    for (const body of ['AAAA', 'QUJDRA', 'QUJDREVGR0hJ'.repeat(3)]) {
      for (const tail of [' =', '\n==', ' \t', ' A', ' AB', ' AB=', ' ABC', ' ABC=', '  ==  ', '=']) {
        for (const alphabet of ALPHABETS) for (const last of LAST) checkDecode(body + tail, alphabet, last, true);
      }
    }
  });

  check(`[${label}] setFromBase64 into the same target again (the addon keeps its memory): small ` +
    'ones V8 keeps in its heap (collections between), other calls between, detached, a resizable ' +
    'buffer resized, bytes past written untouched', () => {
    require('v8').setFlagsFromString('--expose-gc'); // (full collections: V8 moves what it keeps in its heap)
    const gc = require('vm').runInNewContext('gc');
    // The target and the 2 bytes after it (as far as its buffer goes) as hex.
    const room = (a) => Math.min(a.length + 2, a.buffer.byteLength - a.byteOffset);
    const hexAt = (a, n) => (n > 0 ? Buffer.from(a.buffer, a.byteOffset, n).toString('hex') : '');
    const same = (s, a, what) => {
      const n = room(a);
      const want = Buffer.from(new Uint8Array(a.buffer, a.byteOffset, Math.max(n, 0))); // (a copy)
      const ref = refFromBase64(s, 'base64', 'loose', a.length);
      let got;
      try {
        got = utfx.setFromBase64(a, s);
      } catch (e) {
        got = { error: e.name };
      }
      if (ref.error) {
        if (got.error !== 'SyntaxError') throw new Error(`setFromBase64 (${what}) of ${show(s)} into ${a.length}: no error`);
        return;
      }
      want.set(ref.bytes.slice(0, Math.min(ref.bytes.length, n)));
      if (got.read !== ref.read || got.written !== ref.bytes.length || hexAt(a, n) !== want.toString('hex'))
        throw new Error(`setFromBase64 (${what}) of ${show(s)} into ${a.length}: ` +
          `utfx ${JSON.stringify(got)} ${hexAt(a, n)}, reference read ${ref.read} ${want.toString('hex')}`);
    };
    const text = () => randText(rand(3) ? 15 + rand(60) : rand(3000), 'base64');
    for (let r = 0; r < 30 * scale; r++) {
      const size = r % 3 === 0 ? 1 + rand(64) : rand(4000); // (up to 64 bytes: in V8's heap at first)
      const ab = r % 3 === 0 ? null : new ArrayBuffer(size + 8);
      const a = ab ? new Uint8Array(ab, rand(4), size) : new Uint8Array(size);
      for (let k = 0; k < 20; k++) {
        same(text(), a, 'again');
        if (k % 5 === 1) gc();
        if (k % 7 === 3) same(text(), new Uint8Array(size + 1), 'another between');
        if (k % 7 === 5) {
          const t = text();
          assert.deepStrictEqual(utfx.base64Decode(t), Buffer.from(t, 'base64'));
          const ref = refFromBase64(t, 'base64', 'loose');
          if (ref.error) assert.throws(() => utfx.fromBase64(t), SyntaxError);
          else assert.strictEqual(hex(utfx.fromBase64(t)), hex(Uint8Array.from(ref.bytes)));
        }
      }
      if (ab) {
        structuredClone(ab, { transfer: [ab] }); // detached: length 0
        for (let k = 0; k < 3; k++) assert.throws(() => utfx.setFromBase64(a, text()), TypeError);
      }
    }
    const rab = new ArrayBuffer(16, { maxByteLength: 8192 });
    const t = new Uint8Array(rab); // (its length follows the buffer's)
    for (let r = 0; r < 60; r++) {
      rab.resize(rand(8193));
      new Uint8Array(rab).fill(0xAA);
      for (let k = 0; k < 3; k++) same(text(), t, 'resized');
    }
  });

  check(`[${label}] random texts with whitespace and bad characters, short and long (to 40000 ` +
    'characters): fromBase64, setFromBase64, base64Decode, atob', () => {
    for (let r = 0; r < 150 * scale; r++) {
      const alphabet = ALPHABETS[r % 2];
      const long = r % 10 === 0;
      let s = randText(long ? rand(30000) : rand(100), alphabet);
      const mode = r % 5;
      if (mode === 1) s = sprinkle(s, 1 + rand(long ? 200 : 6));
      else if (mode === 2) s = sprinkle(s, 1);
      else if (mode === 3) s = s.replace(/./g, (m) => (rand(8) ? m : m + pick(ASCII_WHITESPACE)));
      for (const last of LAST) checkDecode(s, alphabet, last, !long && r % 3 === 0);
      checkNodeDecode(s);
      if (!long || r % 30 === 0) checkAtob(s);
    }
    // Node's rules: garbage anywhere, '=' inside, units above 0xFF (their
    // low byte), both alphabets mixed.
    for (let r = 0; r < 200 * scale; r++) {
      let s = '';
      const len = r % 20 === 0 ? rand(20000) : rand(120);
      for (let i = 0; i < len; i++) {
        s += rand(5) ? STANDARD[rand(64)] : pick(ODD.concat(['\u0141', '\u012B', '\u4E00', '%', '=']));
      }
      checkNodeDecode(s);
    }
  });
}

// Node keeps a text of about 1 MB and more that it made (Buffer's toString
// from 1031913 characters) as an external string, which Node's own decoder
// reads in place and N-API copies; JSON.parse makes the same text a
// sequential string. TC39 decodes of such texts go a piece at a time
// (base64.js, decodeTC39). Both kinds of a 1.4 M-character text, clean or with
// one odd character at a piece's first or last character, or one above 0xFF
// anywhere; both alphabets, a mode each: fromBase64 and setFromBase64 (the text's bytes
// fit exactly, and a random target size) against the reference.
function longTextChecks(label) {
  check(`[${label}] fromBase64 and setFromBase64 of 1.4 M-character texts: Node's external strings and ` +
    'sequential ones, clean, with an odd character at a piece\'s edge or one above 0xFF; both alphabets', () => {
    const piece = utfx._internal.base64Chunk();
    let mode = rand(LAST.length);
    for (const alphabet of ALPHABETS) {
      const clean = Buffer.from(randBytes(1 << 20)).toString(alphabet);
      const texts = [clean];
      // (the second a unit above 0xFF: the text is then read as UTF-16)
      for (const [at, c] of [[piece * (1 + rand(3)) - rand(2), pick(ODD.concat(['==']))],
        [rand(clean.length), pick(ODD.filter((u) => u > '\xFF'))]])
        texts.push(clean.slice(0, at) + c + clean.slice(at + c.length));
      for (const t of texts) {
        const last = LAST[mode++ % LAST.length];
        const options = { alphabet, lastChunkHandling: last };
        const want = refFromBase64(t, alphabet, last);
        const full = want.bytes.length;
        const caps = [full, rand(full)].map((cap) => [cap, refFromBase64(t, alphabet, last, cap)]);
        // (external: one-byte, or two-byte with a unit above 0xFF)
        const external = /[^\x00-\xff]/.test(t) ? Buffer.from(t, 'utf16le').toString('utf16le')
          : Buffer.from(t, 'latin1').toString('latin1');
        for (const [kind, s] of [['external', external], ['sequential', JSON.parse(JSON.stringify(t))]]) {
          const what = `${kind} ${show(t)}, ${alphabet}, ${last}`;
          const got = outcome(() => utfx.fromBase64(s, options));
          if (want.error) {
            if (!(got.error instanceof SyntaxError)) throw new Error(`fromBase64(${what}): want a SyntaxError`);
          } else if (got.error || Buffer.compare(got.value, Buffer.from(want.bytes)) !== 0) {
            throw new Error(`fromBase64(${what}): ${got.error || `${got.value.length} bytes, not the reference's`}`);
          }
          for (const [cap, ref] of caps) {
            const all = new Uint8Array(cap + 4).fill(0xA5);
            const r = outcome(() => utfx.setFromBase64(all.subarray(0, cap), s, options));
            if (ref.error ? !(r.error instanceof SyntaxError)
              : r.error || r.value.read !== ref.read || r.value.written !== ref.bytes.length)
              throw new Error(`setFromBase64(u8[${cap}], ${what}): ${r.error || JSON.stringify(r.value)}, ` +
                `want ${ref.error ? 'a SyntaxError' : `read ${ref.read} written ${ref.bytes.length}`}`);
            const expect = Buffer.alloc(cap + 4, 0xA5);
            Buffer.from(ref.bytes).copy(expect);
            if (Buffer.compare(all, expect) !== 0) throw new Error(`setFromBase64(u8[${cap}], ${what}): memory`);
          }
        }
      }
    }
  });
}

// ------------------------------------------------------------ run

apiChecks();
const { base64Thresholds } = utfx._internal;
const tiers = utfx.implementations();
const best = utfx.implementation();
// avx512's short calls are one masked block, the other sets' scalar steps:
// each has its thresholds (base64.js, TUNED), set at load (UTFX_IMPL) and by
// setImplementation.
check('the base64 thresholds follow the kernel set: at load and on setImplementation', () => {
  const per = {};
  for (const tier of tiers) {
    assert.ok(utfx.setImplementation(tier), tier);
    per[tier] = JSON.stringify(base64Thresholds());
    const atLoad = require('child_process').execFileSync(process.execPath, ['-e',
      'process.stdout.write(JSON.stringify(require(process.argv[1])._internal.base64Thresholds()))',
      require.resolve('..')], { env: { ...process.env, UTFX_IMPL: tier }, encoding: 'utf8' });
    assert.strictEqual(atLoad, per[tier], `${tier}: at load`);
  }
  assert.ok(utfx.setImplementation(best));
  assert.strictEqual(JSON.stringify(base64Thresholds()), per[best]);
  if (per.avx512 && per.scalar) assert.notStrictEqual(per.avx512, per.scalar);
  if (per.avx2 && per.scalar) assert.notStrictEqual(per.avx2, per.scalar);
});
const saved = base64Thresholds();
for (const tier of tiers) {
  assert.ok(utfx.setImplementation(tier), tier);
  base64Thresholds(0, 0, 0, [0, Infinity]); // every call to the addon
  randomChecks(`${tier}, addon`, !quick && tier === best ? 4 : 1);
}
utfx.setImplementation(best);
const { base64Chunk } = utfx._internal;
for (const size of [5, 64]) { // long texts a few characters per call
  base64Thresholds(0, 0, 0, [0, Infinity]);
  const old = base64Chunk(size);
  randomChecks(`${best}, addon, pieces of ${size} characters`, 1);
  base64Chunk(old);
}
base64Thresholds(0, [0, 0, 64], 0, 0); // short fromBase64 results: the addon, then a slice
randomChecks(`${best}, addon, short results sliced`, 1);
base64Thresholds(0, 0, 0, 0, [0, Infinity]); // every fromBase64 result of one call made by the addon
randomChecks(`${best}, addon, fromBase64 results made by the addon`, 1);
base64Thresholds(0, 0, 0, 0, [Infinity, 0]); // none
randomChecks(`${best}, addon, fromBase64 results made in JavaScript`, 1);
base64Thresholds(0, 0, 0, [0, 0]); // base64Decode: Node's decoder for every text
randomChecks(`${best}, addon, base64Decode by Node's decoder`, 1);
base64Thresholds(Infinity, Infinity, Infinity, Infinity); // every call in JavaScript or Node
randomChecks('JavaScript and Node only', 1);
base64Thresholds(...saved);
randomChecks(`${best}, measured thresholds`, 1);
longTextChecks(`${best}, measured thresholds`);
apiChecks();

console.log(`# seed ${firstSeed} (--seed ${firstSeed} repeats this run); kernels: ${utfx.implementation()}`);
done();
