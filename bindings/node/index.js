'use strict';
// utfx for Node.js: a drop-in StringDecoder and UTF-8 string functions on
// utfx (src/addon.c). This file keeps Node's JavaScript-level behaviour:
// argument checks, encoding names, legacy properties. Anything unusual (a
// wrong type, an unknown encoding, a foreign `this`) is handed to Node's own
// builtin, so errors are Node's own, same code, name and message. Inputs so
// short that the N-API call would cost more than the work go to Node's own
// code too (the thresholds are measured: bench/README.md in this directory).

const fs = require('fs');
const path = require('path');
const { Buffer } = require('buffer');
const { isUint8Array } = require('util').types;
const builtin = require('string_decoder');

// The addon: UTFX_NODE_ADDON, else the prebuilt binary for this platform
// and architecture (prebuilds/PLATFORM-ARCH/, the layout prebuildify and
// node-gyp-build use), else one built from source at install
// (build/utfx.node, scripts/build.js), else the repository's `make node`.
function loadAddon() {
  if (process.env.UTFX_NODE_ADDON) return require(process.env.UTFX_NODE_ADDON);
  const candidates = [
    path.join(__dirname, 'prebuilds', `${process.platform}-${process.arch}`, 'utfx.node'),
    path.join(__dirname, 'build', 'utfx.node'),
    path.join(__dirname, '..', '..', 'build', 'node', 'utfx.node'),
  ];
  const errors = [];
  for (const file of candidates) {
    if (!fs.existsSync(file)) continue;
    try {
      return require(file);
    } catch (err) { // e.g. a prebuilt binary this system's libc cannot load
      errors.push(`${file}: ${err.message}`);
    }
  }
  throw new Error(`utfx: no usable addon for ${process.platform}-${process.arch}` +
    (errors.length ? ` (${errors.join('; ')})` : '') +
    '; build it from source with `npm rebuild utfx` (needs a C compiler and Node\'s headers)');
}

const addon = loadAddon();
// Numbers go to the addon through `args` and come back through `results`.
const args = new Float64Array(4);
const results = new Float64Array(4);
addon.setup(args, results, require('buffer').constants.MAX_STRING_LENGTH);

// Below these lengths Node's own code is faster than one N-API call
// (measured with bench.js --suite overhead; see README.md).
let SMALL_DECODE = 16; // bytes, decode()
let SMALL_STRING = 32; // UTF-16 units, write()
const LARGE_ASCII = 16384; // units, write(): from here a string that looks ASCII is Node's
// UTF-16 units, write() in JavaScript (writeShort): V8 keeps such short
// strings flat (no cons or sliced string), where charCodeAt is cheapest.
let SMALL_JS_STRING = 12;
let SMALL_ENCODE_INTO = 128; // UTF-16 units, encodeInto() (its result object costs)
let SMALL_BYTE_LENGTH = 32; // UTF-16 units, byteLength()
let SMALL_ENCODE = 64; // UTF-16 units, encode()

// ------------------------------------------------------------ StringDecoder
//
// A utfx StringDecoder is Node's own: Node's constructor, state bytes, end(),
// text() and legacy getters, with a write() that gives long chunks to utfx.
// Node's state (7 bytes: held bytes, missing, buffered, encoding) lives in
// C memory that both Node's native decoder and the addon read and update,
// so short chunks can go to Node's write (cheaper than an N-API call) and
// long ones to utfx in any order. Decoders of the encodings utfx does not
// accelerate use Node's write as is (copyProto below).

const BuiltinDecoder = builtin.StringDecoder;
const builtinProto = BuiltinDecoder.prototype;
const builtinWrite = builtinProto.write;
// Node's own symbol for its state (this[kNativeDecoder]), so that Node's
// functions find our state.
const kNativeDecoder = Object.getOwnPropertySymbols(new BuiltinDecoder('utf8'))
  .find((sym) => sym.description === 'kNativeDecoder');
if (kNativeDecoder === undefined) throw new Error('utfx: this Node\'s StringDecoder is unknown');
// On the state Buffer: the addon's handle and the smallest chunk it takes.
const kHandle = Symbol('kHandle');
const kMin = Symbol('kMin');
const ENCODING = 6; // Node's encoding number in the state (node.h)
const NODE_STATE_BYTES = 7; // Node's kSize

// Smallest chunk (bytes) the addon decodes, by Node's encoding number:
// utf8 and hex. The others are always Node's: latin1, ascii and utf16le
// are a copy into V8 whoever does it, and Node's base64 encoder is as fast
// as ours (bench.js --suite overhead).
const smallWrite = [];
smallWrite[1] = 16; // utf8
smallWrite[5] = 64; // hex
// Chunks from which a decoder Node made (after register) is adopted.
let adoptMin = 16;

// Moves a Node decoder state into C memory the addon can reach cheaply (an
// external; or, where external ArrayBuffers are not allowed, the Buffer
// itself) and marks it with the threshold. Returns the state to use.
function adopt(self, st) {
  const min = smallWrite[st[ENCODING]];
  if (min === undefined) {
    st[kMin] = Infinity;
    return st;
  }
  const handle = addon.decoderNew();
  const memory = addon.decoderMemory(handle);
  if (memory === undefined) {
    st[kHandle] = st;
  } else {
    const mine = Buffer.from(memory, 0, st.length);
    mine.set(st);
    mine[kHandle] = handle;
    st = mine;
    self[kNativeDecoder] = st;
  }
  st[kMin] = min;
  return st;
}

function StringDecoder(encoding) {
  BuiltinDecoder.call(this, encoding); // Node's names, state and errors
  const st = adopt(this, this[kNativeDecoder]);
  if (st[kMin] === Infinity && new.target === StringDecoder) ObjectSetPrototypeOf(this, copyProto);
}
const ObjectSetPrototypeOf = Object.setPrototypeOf;

// StringDecoder#write. Also Node's own StringDecoder's, after register():
// a Node-made decoder is adopted at its first long chunk.
const decoderWrite = function write(buf) {
  if (buf instanceof Uint8Array && this != null) {
    let st = this[kNativeDecoder];
    if (st != null) {
      const min = st[kMin];
      const n = buf.length;
      if (n >= min) return addon.decoderWrite(st[kHandle], buf);
      if (min === undefined && n >= adoptMin && isUint8Array(st) && st.length === NODE_STATE_BYTES) {
        st = adopt(this, st);
        if (n >= st[kMin]) return addon.decoderWrite(st[kHandle], buf);
      }
    }
  }
  return builtinWrite.call(this, buf); // short chunks, other views, Node's errors
};

// Node's prototype, in Node's order, with our write.
for (const k of Reflect.ownKeys(builtinProto)) {
  if (k === 'constructor') continue;
  const desc = Object.getOwnPropertyDescriptor(builtinProto, k);
  Object.defineProperty(StringDecoder.prototype, k, k === 'write' ? { ...desc, value: decoderWrite } : desc);
}
// The prototype of the decoders of the other encodings: Node's write itself.
const copyProto = Object.create(StringDecoder.prototype);
Object.defineProperty(copyProto, 'write', Object.getOwnPropertyDescriptor(builtinProto, 'write'));

// require('utfx/register'): Node's own StringDecoder (streams' setEncoding,
// readline, ...) decodes long utf8 and hex chunks with utfx, and
// require('string_decoder').StringDecoder is ours.
let registered = false;
function register() {
  if (registered) return;
  registered = true;
  Object.defineProperty(builtinProto, 'write', {
    ...Object.getOwnPropertyDescriptor(builtinProto, 'write'), value: decoderWrite });
  builtin.StringDecoder = StringDecoder;
}

// ------------------------------------------------------------ UTF-8 functions

// buf.toString('utf8', start, end)
function decode(buf, start, end) {
  if (!(buf instanceof Buffer) || buf.toString !== Buffer.prototype.toString)
    return buf.toString('utf8', start, end);
  const len = buf.length;
  // Buffer#toString's own argument rules (lib/buffer.js).
  if (start <= 0)
    start = 0;
  else if (start >= len)
    return '';
  else
    start = Math.trunc(start) || 0;
  if (end === undefined || end > len)
    end = len;
  else
    end = Math.trunc(end) || 0;
  if (end <= start)
    return '';
  if (end - start < SMALL_DECODE)
    return buf.utf8Slice(start, end);
  if (start === 0 && end === len) {
    args[2] = 0;
  } else {
    args[0] = start;
    args[1] = end;
    args[2] = 1;
  }
  return addon.utf8Slice(buf);
}

// An offset or length Buffer#write takes as it is: an integer 0..max
// (x >>> 0 === x is the cheapest integer test; larger ones go to Node).
function isOffset(x, max) {
  return (x >>> 0) === x && x <= max;
}
const bufferWrite = Buffer.prototype.write;
// Has the string no character above U+00FF, so that V8 can hand it over
// as Latin-1 bytes, without widening? Three probes answer most two-byte
// strings; the regular expression is immediate on V8's one-byte strings
// (no character there can match) and stops at the first such character of
// a two-byte one.
const ABOVE_LATIN1 = /[^\x00-\xff]/;
function isLatin1(string) {
  const n = string.length;
  if (string.charCodeAt(0) > 0xFF || string.charCodeAt(n >> 1) > 0xFF ||
      string.charCodeAt(n - 1) > 0xFF)
    return false;
  return !ABOVE_LATIN1.test(string);
}

// Are 8 units spread over the string (n >= 64 units) ASCII? The step is odd
// so that text repeating a short pattern ('a\u00e9'...) shows its other units.
function looksAscii(string, n) {
  const step = Math.floor(n / 9) | 1;
  for (let k = 0, p = step; k < 8; k++, p += step) {
    if (string.charCodeAt(p) >= 0x80) return false;
  }
  return true;
}

// UTF-8 of a short string into buf[offset, offset + length), whole
// characters only, lone surrogates as U+FFFD: what buf.utf8Write does, in
// JavaScript, which for a few characters costs less than any native call.
// Returns the bytes written; writeRead is the UTF-16 units read.
let writeRead = 0;
function writeShort(buf, s, offset, length) {
  const n = s.length;
  const end = offset + length;
  let i = 0;
  for (const ascii = n < length ? n : length; i < ascii; i++) { // the ASCII prefix
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    buf[offset + i] = c;
  }
  let p = offset + i;
  for (; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      if (p === end) break;
      buf[p++] = c;
      continue;
    }
    if (c < 0x800) {
      if (end - p < 2) break;
      buf[p++] = 0xC0 | (c >> 6);
      buf[p++] = 0x80 | (c & 0x3F);
      continue;
    }
    if ((c & 0xF800) === 0xD800) {
      const d = c < 0xDC00 && i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if ((d & 0xFC00) === 0xDC00) {
        if (end - p < 4) break;
        c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
        buf[p++] = 0xF0 | (c >> 18);
        buf[p++] = 0x80 | ((c >> 12) & 0x3F);
        buf[p++] = 0x80 | ((c >> 6) & 0x3F);
        buf[p++] = 0x80 | (c & 0x3F);
        i++;
        continue;
      }
      c = 0xFFFD; // a lone surrogate
    }
    if (end - p < 3) break;
    buf[p++] = 0xE0 | (c >> 12);
    buf[p++] = 0x80 | ((c >> 6) & 0x3F);
    buf[p++] = 0x80 | (c & 0x3F);
  }
  writeRead = i;
  return p - offset;
}

// buf.write(string, offset, length, 'utf8')
function write(buf, string, offset, length) {
  if (typeof string !== 'string' || !(buf instanceof Buffer) || buf.write !== bufferWrite)
    return buf.write(string, offset, length, 'utf8');
  const len = buf.length;
  if (offset === undefined) {
    offset = 0;
    length = len;
  } else if (isOffset(offset, len) && (length === undefined || isOffset(length, len))) {
    if (length === undefined || length > len - offset) length = len - offset;
  } else {
    return buf.write(string, offset, length, 'utf8'); // Node's checks and errors
  }
  const n = string.length;
  if (n < SMALL_STRING) {
    if (n <= SMALL_JS_STRING) return writeShort(buf, string, offset, length);
    return buf.utf8Write(string, offset, length);
  }
  if (!isLatin1(string)) {
    args[0] = offset;
    args[1] = length;
    args[2] = n;
    return addon.utf8Write(buf, string);
  }
  // A long string that looks ASCII (8 probes) is Node's: V8 copies its
  // ASCII runs straight into buf, where N-API could only hand over a copy
  // to convert. Either way the result is exact.
  if (n >= LARGE_ASCII && looksAscii(string, n))
    return buf.utf8Write(string, offset, length);
  args[0] = offset;
  args[1] = length;
  args[2] = n;
  return addon.utf8WriteLatin1(buf, string);
}

const encoder = new TextEncoder();

// new TextEncoder().encodeInto(string, u8): in JavaScript below
// SMALL_JS_INTO units (Node's call into C++ costs more than the loop, and
// a wrapper around it is slower than Node's own; V8 makes no sliced or
// cons string under 13 units, so these are flat, where charCodeAt is
// cheapest; sliced ones of 14-15 units already lose on CJK text:
// docs/perf-decisions.md, 'Node session 27'), Node's up to
// SMALL_ENCODE_INTO into a new destination (the addon's into the last
// call's: below), then the addon; and the addon from WIDE_INTO units
// when the middle unit is U+0800 or above (CJK, emoji: V8's UTF-8 writer
// takes 1.3 ns and more a unit there, the addon's call 65-130 ns whatever
// the text; docs/perf-decisions.md, 'Node session 25').
const SMALL_JS_INTO = 13;
const WIDE_INTO = 48;
const LATIN1_INTO = 768;
// Text over LATIN1_INTO units without a character above U+00FF goes to the
// addon as bytes, not widened to UTF-16 (V8 copies a one-byte string
// straight into the destination, whose ASCII is then done). Below, the
// question (isLatin1: 12-25 ns) costs more than it saves (ASCII 512 units
// gains, Latin 512 loses); above, two-byte text pays it for nothing (mixed
// 1024 units -5 %: docs/perf-decisions.md, 'Node session 28').
// One result object, made at the one return. When each path returned its
// own (Node's included), Node's calls here cost 3-10 ns more than the
// global's once any call had taken the addon's path: most likely V8 then
// had to make the object the paths merge, where it drops one that does not
// escape a caller that inlines this and reads a field (docs/perf-decisions.md,
// 'Node session 26').
// (The addon's exports object is a dictionary: its functions read once.)
const addonEncodeInto = addon.encodeInto;
const addonEncodeIntoLatin1 = addon.encodeIntoLatin1;
const addonEncodeIntoShort = addon.encodeIntoShort;
let lastInto = null; // the last destination the addon wrote, if at most KEEP_INTO bytes
let seenInto = null; // the last destination Node's call wrote (kept as lastInto)
const KEEP_INTO = 1 << 20;
// A destination used again goes to the addon: with its memory kept (below)
// the addon's call costs less than Node's from SMALL_JS_INTO units, with a
// new destination each call more, so a new one goes to Node's call first
// (docs/perf-decisions.md, 'Node session 29'). Up to LATIN1_INTO units the
// last call's destination is tested first and goes to the addon's short
// entry (only the string to read: 'Node session 34').
// The destination kept (lastInto) and still attached: Node 20's optimized
// code was seen to read a transferred view's old length (a view made with
// an offset and no length), where its last element reads undefined; then
// it is a new destination, which the addon asks V8 for (a written 0).
function keptInto(u8) {
  const n = u8.length;
  return u8 === lastInto && (n === 0 || u8[n - 1] !== undefined);
}

function encodeInto(string, u8) {
  if (typeof string !== 'string' || !isUint8Array(u8)) return encoder.encodeInto(string, u8); // (throws)
  const n = string.length;
  let read;
  let written;
  if (n < SMALL_JS_INTO && n < SMALL_ENCODE_INTO) {
    written = writeShort(u8, string, 0, u8.length); // (length 0 if detached)
    read = writeRead;
  } else if (n <= LATIN1_INTO && keptInto(u8)) {
    args[2] = n;
    args[3] = u8.length;
    addonEncodeIntoShort(string, u8);
    read = results[0] | 0;
    written = results[1] | 0;
  } else if (n < SMALL_ENCODE_INTO && (n < WIDE_INTO || string.charCodeAt(n >> 1) < 0x800) &&
      u8 !== seenInto) {
    seenInto = u8.length <= KEEP_INTO ? u8 : null;
    const r = encoder.encodeInto(string, u8);
    read = r.read;
    written = r.written;
  } else {
    args[2] = n;
    // The same destination as the last call: its length, and the addon
    // uses the memory it found then (addon.c, encode_into). (One is kept
    // alive until the next call here: not a long one, where the call's
    // cost is nothing beside the work.)
    if (keptInto(u8)) args[3] = u8.length;
    else {
      args[3] = -1;
      lastInto = u8.length <= KEEP_INTO ? u8 : null;
    }
    if (n > LATIN1_INTO && isLatin1(string)) addonEncodeIntoLatin1(string, u8);
    else addonEncodeInto(string, u8);
    // (| 0: a small integer, not the double a Float64Array gives: V8 shares
    // this object's map with Node's own encodeInto results, and a double
    // field there made Node's encodeInto call sites compiled later up to 6x
    // slower: docs/perf-decisions.md, 'Node session 25')
    read = results[0] | 0;
    written = results[1] | 0;
  }
  return { read, written };
}

// Buffer.byteLength(string, 'utf8'). A string without characters above
// U+00FF goes to Node: V8 counts a one-byte string in place, where N-API
// could only copy it first.
function byteLength(string) {
  if (typeof string !== 'string' || string.length < SMALL_BYTE_LENGTH ||
      (SMALL_BYTE_LENGTH > 0 && isLatin1(string))) // (0: the tests' "every call to C")
    return Buffer.byteLength(string, 'utf8');
  args[2] = string.length;
  return addon.byteLength(string);
}

// Buffer.from(value, 'utf8'), which for a string is its UTF-8 bytes (lone
// surrogates as EF BF BD) in a new Buffer; anything else is Node's. Like
// Node, short results are slices of a shared pool (a new ArrayBuffer costs
// more than converting a few hundred characters); long ones get an exact
// Buffer of their own, made by the addon.
const POOL_SIZE = 64 * 1024;
const POOL_MAX = 8192; // bytes of worst-case output that use the pool
let pool = null;
let poolUsed = POOL_SIZE;
function encode(value) {
  if (typeof value !== 'string' || value.length < SMALL_ENCODE) return Buffer.from(value, 'utf8');
  const n = value.length;
  args[2] = n;
  const latin1 = isLatin1(value);
  const most = latin1 ? 2 * n : 3 * n;
  if (most > POOL_MAX) return latin1 ? addon.encodeLatin1(value) : addon.encode(value);
  if (POOL_SIZE - poolUsed < most) {
    pool = Buffer.allocUnsafeSlow(POOL_SIZE);
    poolUsed = 0;
  }
  args[0] = poolUsed;
  args[1] = most;
  const written = latin1 ? addon.utf8WriteLatin1(pool, value) : addon.utf8Write(pool, value);
  const out = pool.subarray(poolUsed, poolUsed + written);
  poolUsed = (poolUsed + written + 7) & ~7; // 8-byte aligned slices, as Node's pool
  return out;
}

const base64 = require('./base64')(addon); // toBase64, fromBase64, ... (base64.js)
// TextDecoder, TextEncoder (text.js)
const text = require('./text.js');
text.init(addon, { isLatin1, encodeInto });

module.exports = {
  StringDecoder,
  decode,
  write,
  encode,
  encodeInto,
  byteLength,
  TextDecoder: text.TextDecoder,
  TextEncoder: text.TextEncoder,
  // The utfx kernel set in use ("avx2", "scalar", ...; env UTFX_IMPL selects),
  // the ones this CPU runs, and a switch for tests and benchmarks.
  implementation: addon.implementation,
  implementations: addon.implementations,
  setImplementation(name) {
    const ok = addon.setImplementation(name);
    if (ok) base64.tune(addon.implementation()); // (its thresholds follow the kernels)
    return ok;
  },
  ...base64.exports,
};

// For register.js, bench/bench.js and the tests (not enumerable, not API):
// the raw addon and the fallback thresholds, to measure where they pay.
Object.defineProperty(module.exports, '_internal', {
  __proto__: null,
  enumerable: false,
  value: {
    addon,
    register,
    base64Thresholds: base64.thresholds, // (toBase64, from/setFromBase64, base64Encode, base64Decode)
    base64Chunk: base64.chunk,
    textThresholds: text.thresholds, // ([decode, encode, heap encode]) of text.js
    // (decode, [write, encodeInto, byteLength, encode], StringDecoder#write
    // by Node's encoding number)
    thresholds(decode, string, decoder) {
      const old = [SMALL_DECODE,
        [SMALL_STRING, SMALL_ENCODE_INTO, SMALL_BYTE_LENGTH, SMALL_ENCODE], smallWrite.slice()];
      if (decode !== undefined) SMALL_DECODE = decode;
      if (string !== undefined) {
        [SMALL_STRING, SMALL_ENCODE_INTO, SMALL_BYTE_LENGTH, SMALL_ENCODE] =
          typeof string === 'number' ? [string, string, string, string] : string;
      }
      if (decoder !== undefined) {
        for (let i = 0; i < smallWrite.length; i++)
          if (smallWrite[i] !== undefined) smallWrite[i] = typeof decoder === 'number' ? decoder : decoder[i];
        adoptMin = Math.min(...smallWrite.filter((x) => x !== undefined));
      }
      return old;
    },
  },
});
