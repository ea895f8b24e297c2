'use strict';
// TextDecoder and TextEncoder (WHATWG Encoding) on utfx (src/addon_text.c):
// drop-ins for Node's globals. A decoder of utf-8, utf-16le or utf-16be is
// ours; any other label gets Node's own TextDecoder (the constructor returns
// it). Anything unusual (a wrong `this`, input or options type) is handed to
// a Node builtin in the same state, so errors are Node's own: name, code and
// message. Short inputs are decoded here in JavaScript when they are plain
// (ASCII; UTF-16 without surrogates), and short strings encoded in
// JavaScript into a new Uint8Array, which V8 keeps in its heap (Node's
// encode makes an ArrayBuffer with a backing store of its own, which costs
// more than the work): both cost less than an N-API call (thresholds:
// bench.js --suite text).

const { isAnyArrayBuffer, isUint8Array } = require('util').types;
const { inspect } = require('util');

const BuiltinDecoder = globalThis.TextDecoder;
const BuiltinEncoder = globalThis.TextEncoder;
const builtinDecode = BuiltinDecoder.prototype.decode;

// utfx encoding numbers (include/utfx.h) and TextDecoder#encoding names.
const UTF8 = 0;
const UTF16LE = 1;
const UTF16BE = 2;
const NAMES = ['utf-8', 'utf-16le', 'utf-16be'];
const FATAL = 1; // UTFX_WHATWG_FATAL
const IGNORE_BOM = 2; // UTFX_WHATWG_IGNORE_BOM

// Every label of the three (Encoding Standard, "Encodings" table).
const LABELS = new Map([
  ...['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']
    .map((l) => [l, UTF8]),
  ...['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le']
    .map((l) => [l, UTF16LE]),
  ...['unicodefffe', 'utf-16be'].map((l) => [l, UTF16BE]),
]);
const ASCII_SPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
const ASCII_UPPER = /[A-Z]/g;
const lower = (c) => String.fromCharCode(c.charCodeAt(0) + 32);
// "get an encoding": ASCII whitespace trimmed, ASCII case-insensitive.
function encodingOf(label) {
  const e = LABELS.get(label);
  if (e !== undefined) return e;
  return LABELS.get(label.replace(ASCII_SPACE, '').replace(ASCII_UPPER, lower));
}

// The addon's functions, read once: its exports object is a dictionary
// (26 properties added from C), whose every property read is an IC call.
let textDecode = null;
let textDecodeStream = null;
let textEncode = null;
let textEncodeLatin1 = null;
let textStateSize = 0;
// Well-formed input decoded in JavaScript below these sizes (bytes), by encoding
// (utf-8, utf-16le, utf-16be); strings of up to HEAP_ENCODE UTF-16 units
// whose UTF-8 fits in ON_HEAP bytes encoded in JavaScript (V8 keeps a
// typed array that small inside its object, where a larger one costs a
// backing store: 200-300 ns, the most of Node's encode too, and then the
// addon's one call costs less than two passes here), and (tests) any
// shorter than SMALL_ENCODE units; from INTO_ENCODE units through Node's
// encodeInto (encodeVia, below).
let SMALL_DECODE = [17, 17, 17];
let SMALL_ENCODE = 48;
let HEAP_ENCODE = 64;
const ON_HEAP = 64;
const INTO_ENCODE = 20; // units: from here up to HEAP_ENCODE, encodeVia (below)
const builtinEncodeInto = BuiltinEncoder.prototype.encodeInto;
const viaEncoder = new BuiltinEncoder();
const viaScratch = new Uint8Array(3 * ON_HEAP); // (3 bytes a unit at most)
const LATIN1_ENCODE = 2048; // units: longer strings are asked whether they fit Latin-1
const args = new Float64Array(4); // shared with addon_text.c (textSetup)

const kEnc = Symbol('kEnc'); // UTF8, UTF16LE, UTF16BE
const kFlags = Symbol('kFlags'); // FATAL | IGNORE_BOM
const kState = Symbol('kState'); // the utfx_decoder (an ArrayBuffer of its own), or null
const kStreaming = Symbol('kStreaming'); // within a stream (a {stream: true} call seen)
// Within a stream: the C decoder holds nothing (1), and no output yet (2:
// a BOM may still come), so that a plain short chunk can be decoded here.
const kClean = Symbol('kClean');
const kNodeFast = Symbol('kNodeFast'); // utf-8 never streamed: Node's argument checks differ

// Builtins whose errors are Node's: a utf-8 decoder never used with
// {stream: true} checks arguments as Node's UTF-8 fast path does (only the
// input); the others as Node's converter path (options, then input).
let fastChecker = null;
let icuChecker = null;
function throwNodeError(self, input, options) {
  if (self[kNodeFast]) {
    if (fastChecker === null) fastChecker = new BuiltinDecoder('utf-8');
    builtinDecode.call(fastChecker, input);
  } else {
    if (icuChecker === null) icuChecker = new BuiltinDecoder('utf-16le');
    builtinDecode.call(icuChecker, input, options);
  }
  throw new Error('utfx: Node accepted what utfx refused'); // not reached
}

// The TypeError Node throws for ill-formed input in fatal mode.
const BAD = [[0xFF], [0x00, 0xD8], [0xD8, 0x00]];
function fatalError(enc) {
  try {
    builtinDecode.call(new BuiltinDecoder(NAMES[enc], { fatal: true }), new Uint8Array(BAD[enc]));
  } catch (err) {
    if (err && err.code === 'ERR_ENCODING_INVALID_ENCODED_DATA') return err;
  }
  // This Node has no such decoder (utf-16be without ICU): Node's error, by hand.
  const err = new TypeError(`The encoded data was not valid for encoding ${NAMES[enc]}`);
  err.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
  return err;
}

const isObjectLike = (x) => x === null || typeof x === 'object' || typeof x === 'function';

// Well-formed short input decoded in JavaScript, into `pad` (at most
// SHORT_UNITS UTF-16 units; undefined for anything else: ill-formed or cut
// input, a BOM at the start, more units: the addon's). Then one
// String.fromCharCode with exactly that many arguments makes the flat
// string at once (a character at a time costs a concatenation each; apply
// or a longer call and a slice cost more).
const SHORT_UNITS = 16;
const pad = new Uint16Array(SHORT_UNITS);
const fcc = String.fromCharCode;
function padString(k) {
  const p = pad;
  switch (k) {
    case 0: return '';
    case 1: return fcc(p[0]);
    case 2: return fcc(p[0], p[1]);
    case 3: return fcc(p[0], p[1], p[2]);
    case 4: return fcc(p[0], p[1], p[2], p[3]);
    case 5: return fcc(p[0], p[1], p[2], p[3], p[4]);
    case 6: return fcc(p[0], p[1], p[2], p[3], p[4], p[5]);
    case 7: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    case 8: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    case 9: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]);
    case 10: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]);
    case 11: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10]);
    case 12: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11]);
    case 13: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
      p[12]);
    case 14: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
      p[12], p[13]);
    case 15: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
      p[12], p[13], p[14]);
    default: return fcc(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
      p[12], p[13], p[14], p[15]);
  }
}

// UTF-8: the Encoding Standard's decoder on well-formed input (the byte
// ranges of its table: no overlong form, surrogate or value above U+10FFFF).
function utf8Short(b, n) {
  // ASCII first, in a loop of its own (most short text is, or starts so).
  const m = n < SHORT_UNITS ? n : SHORT_UNITS;
  let i = 0;
  for (; i < m; i++) {
    const c = b[i];
    if (c >= 0x80) break;
    pad[i] = c;
  }
  if (i === n) return padString(n);
  let k = i;
  while (i < n) {
    if (k === SHORT_UNITS) return undefined;
    const c = b[i];
    if (c < 0x80) {
      pad[k++] = c;
      i++;
    } else if (c < 0xE0) {
      if (c < 0xC2 || i + 1 >= n) return undefined;
      const c1 = b[i + 1] ^ 0x80;
      if (c1 > 0x3F) return undefined;
      pad[k++] = ((c & 0x1F) << 6) | c1;
      i += 2;
    } else if (c < 0xF0) {
      if (i + 2 >= n) return undefined;
      const c1 = b[i + 1] ^ 0x80;
      const c2 = b[i + 2] ^ 0x80;
      if ((c1 | c2) > 0x3F) return undefined;
      const u = ((c & 0xF) << 12) | (c1 << 6) | c2;
      // Overlong, a surrogate, or a BOM to remove (the addon's).
      if (u < 0x800 || (u & 0xF800) === 0xD800 || (u === 0xFEFF && i === 0)) return undefined;
      pad[k++] = u;
      i += 3;
    } else {
      if (c > 0xF4 || i + 3 >= n || k + 1 === SHORT_UNITS) return undefined;
      const c1 = b[i + 1] ^ 0x80;
      const c2 = b[i + 2] ^ 0x80;
      const c3 = b[i + 3] ^ 0x80;
      if ((c1 | c2 | c3) > 0x3F) return undefined;
      const u = ((c & 0x7) << 18) | (c1 << 12) | (c2 << 6) | c3;
      if (u < 0x10000 || u > 0x10FFFF) return undefined;
      pad[k++] = 0xD7C0 + (u >> 10); // (u - 0x10000 >> 10) + 0xD800
      pad[k++] = 0xDC00 | (u & 0x3FF);
      i += 4;
    }
  }
  return padString(k);
}

// UTF-16: whole pairs, no lone surrogate, no BOM at the start.
function utf16Short(b, n, be) {
  if ((n & 1) || n > 2 * SHORT_UNITS) return undefined;
  const hi = be ? 0 : 1;
  let k = 0;
  for (let i = 0; i < n; i += 2) {
    const c = (b[i + hi] << 8) | b[i + 1 - hi];
    if ((c & 0xF800) === 0xD800) {
      if (c >= 0xDC00 || i + 2 >= n) return undefined;
      const d = (b[i + 2 + hi] << 8) | b[i + 3 - hi];
      if ((d & 0xFC00) !== 0xDC00) return undefined;
      pad[k++] = c;
      pad[k++] = d;
      i += 2;
    } else {
      if (c === 0xFEFF && i === 0) return undefined;
      pad[k++] = c;
    }
  }
  return padString(k);
}

// Short input in JavaScript, else undefined (then the addon decodes it).
// The BOM is left to the addon, in a stream too (the caller knows whether
// it is behind); ignoreBOM would keep it, and that is rare.
// A view of a detached buffer reads undefined: the addon's then (Node 20's V8
// optimized code was seen to keep such a view's old length).
function decodeShort(u8, enc) {
  const n = u8.length;
  if (n !== 0 && u8[n - 1] === undefined) return undefined;
  return enc === UTF8 ? utf8Short(u8, n) : utf16Short(u8, n, enc === UTF16BE);
}

class TextDecoder {
  constructor(encoding = 'utf-8', options = undefined) {
    const label = `${encoding}`;
    const enc = options === undefined || isObjectLike(options) ? encodingOf(label) : undefined;
    // Other encodings, and Node's errors for bad options or labels.
    if (enc === undefined) return new BuiltinDecoder(label, options);
    let flags = 0;
    if (options != null) { // read once each, in the standard's (dictionary) order
      if (options.fatal) flags |= FATAL;
      if (options.ignoreBOM) flags |= IGNORE_BOM;
    }
    this[kEnc] = enc;
    this[kFlags] = flags;
    this[kState] = null;
    this[kStreaming] = false;
    this[kClean] = 3;
    this[kNodeFast] = enc === UTF8;
  }

  decode(input = undefined, options = undefined) {
    const enc = this == null ? undefined : this[kEnc];
    if (enc === undefined) return builtinDecode.call(this, input, options); // ERR_INVALID_THIS
    // The common call first: one Uint8Array (or Buffer), no options, no
    // stream going on. (Its tag is a getter V8 inlines, and so is .length,
    // where a view's byteLength getter is a call.)
    if (options === undefined && isUint8Array(input) && !this[kStreaming]) {
      const flags = this[kFlags];
      if (input.length < SMALL_DECODE[enc]) {
        const out = decodeShort(input, enc);
        if (out !== undefined) return out;
      }
      args[0] = enc;
      args[1] = flags;
      // (A view detached since: Node 20's optimized code was seen to keep
      // its old length here, where its last element reads undefined; then
      // the addon asks V8, as for a new view.)
      const n = input.length;
      if (input === lastDecode && (n === 0 || input[n - 1] !== undefined)) args[2] = n;
      else {
        args[2] = -1;
        lastDecode = n <= KEEP_DECODE ? input : null;
      }
      const out = textDecode(input);
      if (out === undefined) throw fatalError(enc);
      return out;
    }
    return decodeSlow(this, input, options, enc);
  }

  get encoding() {
    const enc = this == null ? undefined : this[kEnc];
    return enc === undefined ? builtinGetter('encoding').call(this) : NAMES[enc];
  }

  get fatal() {
    const enc = this == null ? undefined : this[kEnc];
    return enc === undefined ? builtinGetter('fatal').call(this) : (this[kFlags] & FATAL) !== 0;
  }

  get ignoreBOM() {
    const enc = this == null ? undefined : this[kEnc];
    return enc === undefined ? builtinGetter('ignoreBOM').call(this)
      : (this[kFlags] & IGNORE_BOM) !== 0;
  }

  // util.inspect shows what it shows for Node's.
  [inspect.custom](depth, opts) {
    if (this == null || this[kEnc] === undefined) return builtinInspect(BuiltinDecoder).call(this, depth, opts);
    if (typeof depth === 'number' && depth < 0) return this;
    const ctor = this.constructor || TextDecoder;
    const obj = { __proto__: { constructor: ctor } };
    obj.encoding = this.encoding;
    obj.fatal = this.fatal;
    obj.ignoreBOM = this.ignoreBOM;
    return `${ctor.name} ${inspect(obj)}`;
  }
}
const EMPTY = new Uint8Array(0);
const builtinGetter = (name) => Object.getOwnPropertyDescriptor(BuiltinDecoder.prototype, name).get;
const builtinInspect = (C) => C.prototype[inspect.custom];

let lastState = null; // the state of the last textDecodeStream call
// The last view textDecode read, when at most KEEP_DECODE bytes: the addon
// kept its memory, and a view decoded again (a buffer read into and
// decoded whole, again and again) skips V8's lookup of it (addon_text.c,
// js_text_decode). The longer ones are not kept: the lookup is nothing
// beside their work, and the view keeps its buffer alive.
let lastDecode = null;
const KEEP_DECODE = 4096;
// decode() for everything but the common call: options, streams, other
// input types, and bad arguments (Node's errors).
function decodeSlow(self, input, options, enc) {
  const stream = options != null && !!options.stream;
  if (stream) self[kNodeFast] = false;
  if (!self[kNodeFast] && !isObjectLike(options) && options !== undefined)
    throwNodeError(self, input, options);
  // A Uint8Array of the bytes of a view, undefined or an ArrayBuffer (the
  // addon reads Uint8Arrays).
  let view;
  if (isUint8Array(input)) view = input;
  else if (ArrayBuffer.isView(input)) {
    const buf = input.buffer;
    view = buf.byteLength ? new Uint8Array(buf, input.byteOffset, input.byteLength) : EMPTY; // (or detached)
  } else if (input === undefined) view = EMPTY;
  else if (isAnyArrayBuffer(input)) view = input.byteLength ? new Uint8Array(input) : EMPTY; // (or detached)
  else throwNodeError(self, input, options);
  const flags = self[kFlags];
  let out;
  if (!stream && !self[kStreaming]) { // one-shot: no state
    if (view.length < SMALL_DECODE[enc]) {
      out = decodeShort(view, enc);
      if (out !== undefined) return out;
    }
    args[0] = enc;
    args[1] = flags;
    args[2] = -1; // (the addon looks the view up)
    lastDecode = null;
    out = textDecode(view);
  } else {
    let clean = self[kStreaming] ? self[kClean] : 3;
    // A plain short chunk while the decoder holds nothing: its characters
    // here; the next chunk to C starts a stream with the BOM behind it.
    if (clean !== 0 && view.length < SMALL_DECODE[enc]) {
      out = decodeShort(view, enc);
      if (out !== undefined) {
        self[kStreaming] = stream;
        self[kClean] = out.length ? 1 : clean;
        return out;
      }
    }
    let state = self[kState];
    let mode = stream ? 0 : 2; // bit 2: end the stream
    if (clean !== 0) { // (re)start: a new stream, or one whose BOM is behind
      if (state === null) state = self[kState] = new ArrayBuffer(textStateSize);
      mode |= 1;
      args[0] = enc;
      args[1] = clean === 1 ? flags | IGNORE_BOM : flags;
    }
    // (bit 4: the state of the last call, still attached: the addon has its memory)
    args[2] = state === lastState && state.byteLength !== 0 ? mode | 4 : mode;
    lastState = state;
    self[kStreaming] = stream;
    out = textDecodeStream(state, view);
    if (out === undefined) self[kStreaming] = false; // the decoder was reset
    // C holds nothing now: clean, and past the BOM once anything came out.
    else self[kClean] = args[3] === 1 ? (out.length || clean === 1 ? 1 : 0) : 0;
  }
  if (out === undefined) throw fatalError(enc);
  return out;
}

// A TextEncoder is Node's (its constructor, encoding getter, inspect and
// errors) with utfx's encode and encodeInto.
let encodeInto = null; // index.js's: Node's for short strings and bad arguments
const kMine = Symbol('kMine');
const encoderGetter = Object.getOwnPropertyDescriptor(BuiltinEncoder.prototype, 'encoding').get;
class TextEncoder extends BuiltinEncoder {
  constructor() {
    super();
    this[kMine] = true;
  }

  get encoding() {
    return encoderGetter.call(this); // Node's (and its error for a foreign this)
  }

  encode(input = '') {
    if (typeof input !== 'string' || this == null || this[kMine] !== true)
      return super.encode(input); // Node's conversion of input, its errors
    const n = input.length;
    // A result of more than ON_HEAP bytes costs a backing store either
    // way, and then the addon's one call costs less than two passes here.
    // (Nor is it looked at from 25 units when its first, middle and last
    // units are of 3 UTF-8 bytes or a pair: CJK or emoji text, most likely
    // past ON_HEAP; a wrong guess costs the addon's call, still below the
    // global's.)
    if ((n <= HEAP_ENCODE || n < SMALL_ENCODE) && (n <= 24 || input.charCodeAt(0) < 0x800 ||
        input.charCodeAt(n >> 1) < 0x800 || input.charCodeAt(n - 1) < 0x800)) {
      const out = encodeShort(input, n > HEAP_ENCODE ? Infinity : ON_HEAP);
      if (out !== undefined) return out;
    }
    args[0] = n;
    // Shorter strings are read as UTF-16 whatever V8 holds: that costs less
    // than asking (docs/perf-decisions.md, 'Node TextEncoder.encode: ...').
    if (n > LATIN1_ENCODE && isLatin1(input)) {
      args[1] = input.charCodeAt(n - 1); // (for a long one, read in place)
      return new Uint8Array(textEncodeLatin1(input));
    }
    return new Uint8Array(textEncode(input));
  }

  encodeInto(src, dest) {
    if (this == null || this[kMine] !== true) return super.encodeInto(src, dest);
    return encodeInto(src, dest);
  }

  [inspect.custom](depth, opts) {
    return builtinInspect(BuiltinEncoder).call(this, depth, opts);
  }
}

// UTF-8 of a string of at most 64 units in a new Uint8Array of its own: V8's
// writer (Node's encodeInto) into a scratch, then a copy (V8 keeps a result
// of up to ON_HEAP bytes inside its object). From INTO_ENCODE units that
// costs less than encodeShort's two passes of charCodeAt (about 2 ns a
// unit here): docs/perf-decisions.md, 'Node session 33'. (A Uint8Array made
// from a view takes no species: the result is a plain Uint8Array.)
function encodeVia(s) {
  const w = builtinEncodeInto.call(viaEncoder, s, viaScratch).written;
  return new Uint8Array(new Uint8Array(viaScratch.buffer, 0, w));
}

// UTF-8 of a short string (lone surrogates as EF BF BD) in a new Uint8Array,
// or undefined when that would be longer than limit bytes (from INTO_ENCODE
// units, encodeVia's, whatever its length).
function encodeShort(s, limit) {
  const n = s.length;
  // (Here, not in encode, which its callers inline: there the test slowed
  // the shorter strings' path; docs/perf-decisions.md, 'Node session 33'.)
  if (n >= INTO_ENCODE && n <= HEAP_ENCODE && n <= ON_HEAP) return encodeVia(s);
  let size = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if ((c & 0xFC00) === 0xD800 && i + 1 < n && (s.charCodeAt(i + 1) & 0xFC00) === 0xDC00) {
      size += 2; // a pair: 4 bytes for 2 units
      i++;
    } else size += 2;
    if (size > limit) return undefined; // (as soon as it is known)
  }
  const out = new Uint8Array(size);
  if (size === n) { // ASCII
    for (let i = 0; i < n; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  let p = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xC0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3F);
    } else {
      if ((c & 0xF800) === 0xD800) {
        const d = c < 0xDC00 && i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if ((d & 0xFC00) === 0xDC00) {
          c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
          out[p++] = 0xF0 | (c >> 18);
          out[p++] = 0x80 | ((c >> 12) & 0x3F);
          out[p++] = 0x80 | ((c >> 6) & 0x3F);
          out[p++] = 0x80 | (c & 0x3F);
          i++;
          continue;
        }
        c = 0xFFFD; // a lone surrogate
      }
      out[p++] = 0xE0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3F);
      out[p++] = 0x80 | (c & 0x3F);
    }
  }
  return out;
}

// Node's prototypes list their members in this order, all enumerable.
// The classes declare them in Node's order; here their attributes and the
// missing ones (no delete: that would leave the prototype a slow dictionary).
function likeNode(C, Builtin) {
  for (const k of Reflect.ownKeys(Builtin.prototype)) {
    if (k === 'constructor') continue;
    const theirs = Object.getOwnPropertyDescriptor(Builtin.prototype, k);
    const desc = Object.getOwnPropertyDescriptor(C.prototype, k) || theirs;
    desc.enumerable = theirs.enumerable;
    Object.defineProperty(C.prototype, k, desc);
  }
}
likeNode(TextDecoder, BuiltinDecoder);
likeNode(TextEncoder, BuiltinEncoder);

let isLatin1 = null;
// index.js gives the addon and the helpers it shares.
function init(addon, shared) {
  ({ textDecode, textDecodeStream, textEncode, textEncodeLatin1, textStateSize } = addon);
  addon.textSetup(args, require('buffer').constants.MAX_STRING_LENGTH);
  ({ isLatin1, encodeInto } = shared);
}

// bench.js and the tests: [decode (a number or one per encoding), encode,
// heap encode (default: encode, at most 64)]
// thresholds (0: every call to the addon); returns the old ones.
function thresholds(t) {
  const old = [SMALL_DECODE.slice(), SMALL_ENCODE, HEAP_ENCODE];
  if (t !== undefined) {
    SMALL_DECODE = typeof t[0] === 'number' ? [t[0], t[0], t[0]] : t[0].slice();
    SMALL_ENCODE = t[1];
    HEAP_ENCODE = t.length > 2 ? t[2] : Math.min(t[1], 64);
  }
  return old;
}

module.exports = { TextDecoder, TextEncoder, init, thresholds };
