'use strict';
// utfx for Node.js: a drop-in StringDecoder and UTF-8 string functions on
// utfx (src/addon.c). This file keeps Node's JavaScript-level behaviour:
// argument checks, encoding names, legacy properties. Anything unusual (a
// wrong type, an unknown encoding, a foreign `this`) is handed to Node's own
// builtin, so errors are Node's own, same code, name and message. Inputs so
// short that the N-API call would cost more than the work go to Node's own
// code too (the thresholds are measured: bench/README.md in this directory).

const path = require('path');
const { Buffer } = require('buffer');
const { isUint8Array } = require('util').types;
const builtin = require('string_decoder');

function loadAddon() {
  const tried = [];
  const candidates = process.env.UTFX_NODE_ADDON ? [process.env.UTFX_NODE_ADDON] : [
    path.join(__dirname, '..', '..', 'build', 'node', 'utfx.node'), // make node
  ];
  for (const file of candidates) {
    try {
      return require(file);
    } catch (err) {
      if (err.code !== 'MODULE_NOT_FOUND' && !/cannot open shared object/.test(err.message))
        throw err;
      tried.push(file);
    }
  }
  throw new Error(`utfx: the addon is not built (tried ${tried.join(', ')}); run \`make node\`` +
    ' in the utfx directory, or set UTFX_NODE_ADDON');
}

const addon = loadAddon();
// Numbers go to the addon through `args` and come back through `results`.
const args = new Float64Array(4);
const results = new Float64Array(4);
addon.setup(args, results, require('buffer').constants.MAX_STRING_LENGTH);

// Below these lengths Node's own code is faster than one N-API call
// (measured with bench.js --crossover on this machine; see README.md).
let SMALL_DECODE = 16; // bytes, decode()
let SMALL_STRING = 48; // UTF-16 units, write()
let SMALL_ENCODE_INTO = 128; // UTF-16 units, encodeInto() (its result object costs)
let SMALL_BYTE_LENGTH = 32; // UTF-16 units, byteLength()

// ------------------------------------------------------------ StringDecoder

const kNativeDecoder = Symbol('kNativeDecoder'); // the same description as Node's
const kHandle = Symbol('kHandle');
const BuiltinDecoder = builtin.StringDecoder;
const builtinProto = BuiltinDecoder.prototype;

// utfx_encoding values (include/utfx.h) of Node's decoder encodings.
const ENC = { __proto__: null, utf8: 0, utf16le: 1, latin1: 4, ascii: 5, base64: 6,
  base64url: 7, hex: 8 };
// The same as constants for the hot paths (a __proto__: null literal is a
// dictionary-mode object: each property read there cost ~10 ns in write).
const E_UTF8 = 0;
const E_UTF16LE = 1;
const E_LATIN1 = 4;
const E_ASCII = 5;
const E_BASE64 = 6;
const E_BASE64URL = 7;
const E_HEX = 8;
// The state Buffer: Node's layout (kMissingBytes 4, kBufferedBytes 5), then
// the utfx decoder (addon.c).
const MISSING = 4;
const BUFFERED = 5;
const ENCODING = 6;

// Encoding name -> Node's normalized name, as Node answered it.
const names = new Map();
function normalizeEncoding(enc) {
  if (enc == null || enc === 'utf8' || enc === 'utf-8') return 'utf8';
  const known = typeof enc === 'string' ? names.get(enc) : undefined;
  if (known !== undefined) return known;
  // Node's own answer (or its ERR_UNKNOWN_ENCODING), including what a
  // monkey-patched Buffer.isEncoding allows.
  const norm = new BuiltinDecoder(enc).encoding;
  if (typeof enc === 'string' && ENC[norm] !== undefined && names.size < 256) names.set(enc, norm);
  return norm;
}

// StringDecoder#write of a chunk below these sizes (bytes, by utfx encoding;
// latin1, ascii and base64 are tested first, in write) goes to Node's own
// decoder (nodeDecoders) when ours holds nothing before and Node's would
// hold nothing after:
// Node's path then costs less than the N-API call. latin1, ascii and utf16le
// are a copy either way (V8 makes the string), so Node's path always wins.
// (A dense array: indices 2 and 3, UTF-16BE and UTF-32, are never used.)
const smallWrite = [0, 0, 0, 0, 0, 0, 0, 0, 0];
smallWrite[E_UTF8] = 32;
smallWrite[E_UTF16LE] = Infinity;
smallWrite[E_LATIN1] = Infinity;
smallWrite[E_ASCII] = Infinity;
smallWrite[E_BASE64] = Infinity; // utfx is faster only above ~4 KiB
smallWrite[E_BASE64URL] = Infinity;
smallWrite[E_HEX] = 64;

// Would Node's utf8 decoder, holding nothing, hold nothing after this chunk?
// (Its rule, src/string_decoder.cc: it keeps a final lead byte with fewer
// continuation bytes than it announces.)
function utf8KeepsNothing(buf, n) {
  for (let i = n - 1, k = 1; ; i--, k++) {
    const c = buf[i];
    if (c < 0x80) return true;
    if ((c & 0xC0) === 0x80) {
      if (k >= 4 || i === 0) return true;
      continue;
    }
    const need = (c & 0xE0) === 0xC0 ? 2 : (c & 0xF0) === 0xE0 ? 3 : (c & 0xF8) === 0xF0 ? 4 : 0;
    return k >= need;
  }
}

// One of Node's decoders per encoding, which never holds anything: it is
// given only chunks after which it holds nothing (then its write is
// Node's own one-shot decode, and cheaper than an N-API call).
const nodeDecoders = [];
for (const name of Object.keys(ENC)) nodeDecoders[ENC[name]] = new BuiltinDecoder(name);

// Would Node's decoder, holding nothing, hold nothing after these n > 0 bytes?
// (latin1, ascii and hex never hold anything.)
function keepsNothing(enc, buf, n) {
  if (enc === E_UTF8) return utf8KeepsNothing(buf, n);
  if (enc === E_UTF16LE) return n % 2 === 0 && (buf[n - 1] & 0xFC) !== 0xD8; // odd byte, high surrogate
  return (enc !== E_BASE64 && enc !== E_BASE64URL) || n % 3 === 0;
}

// The state Buffer of one of our decoders, else undefined.
function stateOf(self) {
  return self == null ? undefined : self[kNativeDecoder];
}

function StringDecoder(encoding) {
  this.encoding = normalizeEncoding(encoding);
  // The state in C memory, seen from here through a Buffer over it; the
  // addon takes the handle (cheaper to unwrap than a Buffer).
  let handle = addon.decoderNew();
  const memory = addon.decoderMemory(handle);
  const state = memory === undefined ? Buffer.alloc(addon.stateSize) : Buffer.from(memory);
  if (memory === undefined) handle = state;
  // An encoding only a monkey-patched Buffer.isEncoding knows: Node's field
  // gets undefined, which its C++ decoder reads as 0, ASCII.
  addon.decoderInit(handle, ENC[this.encoding] ?? ENC.ascii);
  Object.defineProperty(state, kHandle, { __proto__: null, value: handle });
  this[kNativeDecoder] = state;
}

StringDecoder.prototype.write = function write(buf) {
  if (typeof buf === 'string')
    return buf;
  const state = this == null ? undefined : this[kNativeDecoder];
  if (state !== undefined && buf instanceof Uint8Array) {
    const enc = state[ENCODING];
    if (enc >= E_LATIN1 && enc !== E_HEX) { // latin1, ascii, base64, base64url
      if (buf.length < smallWrite[enc] &&
          (enc <= E_ASCII || (state[BUFFERED] === 0 && buf.length % 3 === 0)))
        return nodeDecoders[enc].write(buf);
    } else {
      const n = buf.length;
      if (n < smallWrite[enc] && state[BUFFERED] === 0) {
        if (n === 0) return '';
        if (keepsNothing(enc, buf, n)) return nodeDecoders[enc].write(buf);
      }
    }
    return addon.decoderWrite(state[kHandle], buf);
  }
  if (state === undefined || !ArrayBuffer.isView(buf))
    return builtinProto.write.call(this, buf); // Node's errors
  return addon.decoderWrite(state[kHandle], buf);
};

StringDecoder.prototype.end = function end(buf) {
  const state = stateOf(this);
  if (state === undefined)
    return builtinProto.end.call(this, buf);
  let ret = '';
  if (buf !== undefined)
    ret = this.write(buf);
  if (state[BUFFERED] > 0)
    ret += addon.decoderFlush(state[kHandle]);
  return ret;
};

StringDecoder.prototype.text = function text(buf, offset) {
  const state = stateOf(this);
  if (state === undefined)
    return builtinProto.text.call(this, buf, offset);
  // Node forgets what it held but keeps the stale lastChar bytes.
  const last = state.readUInt32LE(0);
  addon.decoderInit(state[kHandle], state[ENCODING]);
  state.writeUInt32LE(last, 0);
  return this.write(buf.slice(offset));
};

// The legacy getters: Node's state bytes, or Node's own getter (and error)
// for a foreign `this`.
function legacyProperty(name, read) {
  const builtinGet = Object.getOwnPropertyDescriptor(builtinProto, name).get;
  return {
    __proto__: null,
    configurable: true,
    enumerable: true,
    get() {
      const state = stateOf(this);
      return state === undefined ? builtinGet.call(this) : read(state);
    },
  };
}

Object.defineProperties(StringDecoder.prototype, {
  lastChar: legacyProperty('lastChar', (state) => state.subarray(0, 4)), // a live view, as Node's
  lastNeed: legacyProperty('lastNeed', (state) => state[MISSING]),
  lastTotal: legacyProperty('lastTotal', (state) => state[BUFFERED] + state[MISSING]),
});

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

function isOffset(x, max) {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= max;
}

// buf.write(string, offset, length, 'utf8')
function write(buf, string, offset, length) {
  if (!(buf instanceof Buffer) || typeof string !== 'string' || buf.write !== Buffer.prototype.write)
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
  if (string.length < SMALL_STRING)
    return buf.utf8Write(string, offset, length);
  args[0] = offset;
  args[1] = length;
  return addon.utf8Write(buf, string);
}

const encoder = new TextEncoder();

// new TextEncoder().encodeInto(string, u8)
function encodeInto(string, u8) {
  if (typeof string !== 'string' || !isUint8Array(u8) || string.length < SMALL_ENCODE_INTO)
    return encoder.encodeInto(string, u8);
  const written = addon.encodeInto(string, u8);
  return { read: results[0], written };
}

// Would V8 store this string with two bytes a character? Surely when its
// first, middle or last unit is above U+00FF (three probes: a loop over more
// cost more than Node's whole count of a short one-byte string). One-byte
// strings go to Node: V8 counts their UTF-8 bytes in place, while N-API would
// first widen them into a copy.
function looksTwoByte(string) {
  const n = string.length;
  return string.charCodeAt(0) > 0xFF || string.charCodeAt(n >> 1) > 0xFF ||
    string.charCodeAt(n - 1) > 0xFF;
}

// Buffer.byteLength(string, 'utf8')
function byteLength(string) {
  if (typeof string !== 'string' || string.length < SMALL_BYTE_LENGTH ||
      (SMALL_BYTE_LENGTH > 0 && !looksTwoByte(string))) // (0: the tests' "every call to C")
    return Buffer.byteLength(string, 'utf8');
  return addon.byteLength(string);
}

module.exports = {
  StringDecoder,
  decode,
  write,
  encodeInto,
  byteLength,
  // The utfx kernel set in use ("avx2", "scalar", ...; env UTFX_IMPL selects),
  // the ones this CPU runs, and a switch for tests and benchmarks.
  implementation: addon.implementation,
  implementations: addon.implementations,
  setImplementation: addon.setImplementation,
};

// For bench/bench.js (not enumerable, not API): the raw addon and the
// fallback thresholds, to measure where the fallbacks pay.
Object.defineProperty(module.exports, '_bench', {
  __proto__: null,
  enumerable: false,
  value: {
    addon,
    // (decode, [write, encodeInto, byteLength], StringDecoder#write by encoding)
    thresholds(decode, string, write) {
      const old = [SMALL_DECODE, [SMALL_STRING, SMALL_ENCODE_INTO, SMALL_BYTE_LENGTH],
        smallWrite.slice()];
      if (decode !== undefined) SMALL_DECODE = decode;
      if (string !== undefined) {
        [SMALL_STRING, SMALL_ENCODE_INTO, SMALL_BYTE_LENGTH] =
          typeof string === 'number' ? [string, string, string] : string;
      }
      if (write !== undefined) {
        for (let i = 0; i < smallWrite.length; i++)
          if (smallWrite[i] !== undefined) smallWrite[i] = typeof write === 'number' ? write : write[i];
      }
      return old;
    },
  },
});
