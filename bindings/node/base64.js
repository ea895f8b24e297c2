'use strict';
// Base64 for utfx's Node package (index.js exports these):
//   toBase64(bytes, {alphabet, omitPadding})             Uint8Array.prototype.toBase64
//   fromBase64(string, {alphabet, lastChunkHandling})    Uint8Array.fromBase64
//   setFromBase64(u8, string, options) -> {read, written}  Uint8Array.prototype.setFromBase64
// with the semantics of the ES2026 proposal (TC39): its TypeErrors and
// SyntaxErrors, options read in its order, detached targets; and
//   base64Encode(buf[, 'base64url'])    buf.toString('base64' | 'base64url')
//   base64Decode(string[, 'base64url']) Buffer.from(string, 'base64' | 'base64url')
// with Node's (lenient) rules. Long inputs go to the addon (src/addon_base64.c,
// utfx_base64_*); short ones stay in JavaScript or Node's own code, which
// cost less than an N-API call (thresholds measured: bench.js --suite
// base64-overhead).

const { Buffer } = require('buffer');

// utfx.h's flags.
const URL = 0x01;
const NO_PADDING = 0x04;
const STRICT = 0x08;
const STOP_BEFORE_PARTIAL = 0x10;
const NODE = 0x20;
// utfx_status
const INVALID = 1;
const DST_FULL = 2;

// Below these lengths JavaScript or Node's own code is faster than the
// addon (bench.js --suite base64-overhead; README.md), set per kernel set
// by tune(): the call costs what the kernel's short path does. avx512
// encodes from 4 bytes and decodes from 6 characters as one masked block:
// its call (54-65 ns) is ahead of Node's encoder (67-76) on every length,
// and of the JavaScript decoder (about 2 ns a character over 30-60 ns)
// from 24 characters, where a sliced string's charCodeAt costs the
// decoder more than a flat one's (docs/perf-decisions.md, 'Node session
// 31'). The other sets go scalar below 28 bytes / 32 characters (avx2) or
// always. avx2's encoder call, scalar steps and all, is not behind Node's
// encoder at any length (docs/perf-decisions.md, 'Node session 32'):
// always the addon too; the others use Node's encoder below 64 bytes. Both use the JavaScript decoder below 32 characters
// (setFromBase64) and 28 (fromBase64, whose results of up to 64 bytes V8
// keeps inside the Uint8Array object: the addon decodes those into a
// reused array, sliced off after); Buffer.from costs more than the addon on every length (its
// pool and byteLength).
const TUNED = {
  // [toBase64, setFromBase64, fromBase64, base64Encode]
  avx512: [0, 24, 24, 0],
  avx2: [0, 32, 28, 0],
  other: [64, 32, 28, 64],
};
let SMALL_TO = 64; // bytes, toBase64
let SMALL_SET = 32; // characters, setFromBase64
let SMALL_FROM = 28; // characters, fromBase64
let SMALL_FROM_BYTES = 64; // bytes of fromBase64's result (V8's on-heap typed arrays)
let SMALL_ENCODE = 64; // bytes, base64Encode
let SMALL_DECODE = 0; // characters, base64Decode
function tune(impl) {
  [SMALL_TO, SMALL_SET, SMALL_FROM, SMALL_ENCODE] = TUNED[impl] || TUNED.other;
}
// From this many characters on base64Decode calls Node's decoder itself
// (Buffer#base64Write into the same result): it reads the string where V8
// keeps it (in place for an external string, Node's texts of about 1 MB and
// more), where N-API copies it out in pieces, and the copy then costs more
// than Node's whole decode (docs/perf-decisions.md, 'Node session 27').
let NODE_DECODE = 1 << 19;
let CHUNK = 65536; // characters of a long text decoded per call (decodeTC39)
// fromBase64's results below this many bytes are a zeroed new Uint8Array:
// V8's own allocation of one object costs less there than Node's
// uninitialized one (allocUnsafeSlow: a Buffer, then a view of its buffer).
const ZEROED_FROM = 2048;
// fromBase64's results of NEW_FROM[0]..NEW_FROM[1] bytes (from one call's
// text, CHUNK characters at most) are made by the addon: its ArrayBuffer of
// exactly the bytes written (base64DecodeNew) costs less there than the
// uninitialized one above and the view's query; longer ones fill theirs
// faster than calloc and a copy (docs/perf-decisions.md, 'Node session 25').
let NEW_FROM = [ZEROED_FROM, 4096];

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
const typedArrayFill = TypedArrayPrototype.fill;
const typedArraySlice = TypedArrayPrototype.slice;
// [[TypedArrayName]] (undefined for anything else): a V8 builtin, cheaper
// than util.types.isUint8Array's call into C++.
const typedArrayName = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const isUint8Array = (value) => typedArrayName.call(value) === 'Uint8Array';
const { base64Slice, base64urlSlice, base64Write, base64urlWrite } = Buffer.prototype;

// The length of a Uint8Array whose buffer is attached and which lies within
// it (TC39's IsTypedArrayOutOfBounds); a TypeError otherwise. V8 reports 0
// for those, so only a 0 needs the check (%TypedArray%.prototype.fill
// validates the view, and fills nothing here).
function liveLength(u8) {
  const n = typedArrayLength.call(u8);
  if (n === 0) {
    try {
      typedArrayFill.call(u8, 0);
    } catch {
      throw new TypeError('The Uint8Array\'s buffer is detached or the Uint8Array is out of bounds');
    }
  }
  return n;
}

function checkUint8Array(u8, what) {
  if (!isUint8Array(u8)) throw new TypeError(`${what} must be a Uint8Array`);
}

// GetOptionsObject, then Get(opts, "alphabet"): the URL flag.
function alphabetOf(options) {
  if (options === undefined) return 0;
  if ((typeof options !== 'object' && typeof options !== 'function') || options === null)
    throw new TypeError('The options must be an object');
  const alphabet = options.alphabet;
  if (alphabet === undefined || alphabet === 'base64') return 0;
  if (alphabet === 'base64url') return URL;
  throw new TypeError('The alphabet option must be "base64" or "base64url"');
}

// Get(opts, "lastChunkHandling") (options already checked by alphabetOf).
function lastChunkOf(options) {
  if (options === undefined) return 0;
  const last = options.lastChunkHandling;
  if (last === undefined || last === 'loose') return 0;
  if (last === 'strict') return STRICT;
  if (last === 'stop-before-partial') return STOP_BEFORE_PARTIAL;
  throw new TypeError('The lastChunkHandling option must be "loose", "strict" or "stop-before-partial"');
}

function invalid() {
  return new SyntaxError('The string is not valid base64');
}

module.exports = function base64(addon) {
  const args = new Float64Array(8);
  const results = new Float64Array(8);
  // fromBase64's results of up to SMALL_FROM_BYTES, before they are sliced
  // off: the addon keeps its memory (MEM_SHORT).
  const shortOut = new Uint8Array(new ArrayBuffer(128));
  addon.base64Setup(args, results, shortOut);
  tune(addon.implementation());
  // Read once: the addon's exports object is a dictionary, whose every
  // property read costs a lookup (text.js does the same).
  const {
    base64Encode: addonEncode, base64DecodeInto: addonDecodeInto, base64DecodeNew: addonDecodeNew,
  } = addon;

  // ---------------------------------------------------------- encoding

  // Node's encoder (its base64 output, or base64url's unpadded one), made
  // to TC39's alphabet and padding: for short inputs.
  function encodeSmall(u8, n, flags) {
    const pad = (3 - n % 3) % 3;
    if (flags & URL) {
      const s = base64urlSlice.call(u8, 0, n);
      return pad === 0 || (flags & NO_PADDING) ? s : s + (pad === 1 ? '=' : '==');
    }
    const s = base64Slice.call(u8, 0, n);
    return pad === 0 || !(flags & NO_PADDING) ? s : s.slice(0, s.length - pad);
  }

  function toBase64(bytes, options) {
    checkUint8Array(bytes, 'The value');
    let flags = alphabetOf(options);
    if (options !== undefined && options.omitPadding) flags |= NO_PADDING;
    const n = liveLength(bytes);
    if (n < SMALL_TO) return encodeSmall(bytes, n, flags);
    args[0] = flags;
    return addonEncode(bytes);
  }

  // Node's encoding argument: 'base64' (the default) or 'base64url', any case.
  function nodeUrl(encoding, what) {
    if (encoding === undefined || encoding === 'base64') return false;
    if (encoding === 'base64url') return true;
    const e = typeof encoding === 'string' ? encoding.toLowerCase() : encoding;
    if (e === 'base64') return false;
    if (e === 'base64url') return true;
    const err = new TypeError(`${what}: the encoding must be 'base64' or 'base64url'; got ${String(encoding)}`);
    err.code = 'ERR_UNKNOWN_ENCODING';
    throw err;
  }

  // buf.toString('base64' | 'base64url'); other views: their bytes.
  function base64Encode(buf, encoding) {
    const url = nodeUrl(encoding, 'base64Encode');
    if (!isUint8Array(buf)) {
      if (!ArrayBuffer.isView(buf)) {
        const err = new TypeError('The "buf" argument must be an instance of Buffer, TypedArray, or DataView.');
        err.code = 'ERR_INVALID_ARG_TYPE';
        throw err;
      }
      buf = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    const n = typedArrayLength.call(buf);
    if (n < SMALL_ENCODE) return url ? base64urlSlice.call(buf, 0, n) : base64Slice.call(buf, 0, n);
    args[0] = url ? URL | NO_PADDING : 0;
    return addonEncode(buf);
  }

  // ---------------------------------------------------------- decoding

  // Character -> 6-bit value (-1: not in the alphabet), ASCII only.
  const tables = [0, URL].map((flags) => {
    const t = new Int8Array(128).fill(-1);
    const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789' +
      (flags & URL ? '-_' : '+/');
    for (let i = 0; i < 64; i++) t[abc.charCodeAt(i)] = i;
    return t;
  });

  // TC39's FromBase64 for short strings: decodes s into out[0, max) and
  // returns the bytes written; smallRead gets [[Read]]; smallError whether
  // there is an error (the bytes before it are written, as setFromBase64
  // leaves them).
  let smallRead = 0;
  let smallError = false;
  function decodeSmall(s, flags, out, max) {
    const table = tables[flags & URL];
    const n = s.length;
    let i = 0;
    let w = 0;
    let acc = 0;
    let k = 0; // characters in the chunk
    smallError = false;
    smallRead = 0;
    if (max === 0) return 0;
    for (;;) {
      // Whole groups of 4 alphabet characters while 3 bytes fit: most of
      // the text; anything else goes a character at a time below.
      if (k === 0) {
        const start = i;
        while (i + 4 <= n && max - w >= 3) {
          const c0 = s.charCodeAt(i);
          const c1 = s.charCodeAt(i + 1);
          const c2 = s.charCodeAt(i + 2);
          const c3 = s.charCodeAt(i + 3);
          if ((c0 | c1 | c2 | c3) >= 128) break;
          const v0 = table[c0];
          const v1 = table[c1];
          const v2 = table[c2];
          const v3 = table[c3];
          if ((v0 | v1 | v2 | v3) < 0) break;
          const x = (v0 << 18) | (v1 << 12) | (v2 << 6) | v3;
          out[w] = x >> 16;
          out[w + 1] = (x >> 8) & 0xFF;
          out[w + 2] = x & 0xFF;
          w += 3;
          i += 4;
          if (w === max) break;
        }
        // (set once here, not a context store a group)
        if (i !== start) smallRead = i;
        if (w === max) return w;
      }
      let c = 0;
      while (i < n && ((c = s.charCodeAt(i)) === 0x20 || c === 0x0A || c === 0x09 || c === 0x0D ||
                       c === 0x0C)) i++;
      if (i === n) {
        if (k > 0) {
          if (flags & STOP_BEFORE_PARTIAL) return w;
          if (k === 1 || (flags & STRICT)) {
            smallError = true;
            return w;
          }
          w = partial(out, w, acc, k);
        }
        smallRead = n;
        return w;
      }
      i++;
      if (c === 0x3D) { // '='
        if (k < 2) {
          smallError = true;
          return w;
        }
        while (i < n && ((c = s.charCodeAt(i)) === 0x20 || c === 0x0A || c === 0x09 || c === 0x0D ||
                         c === 0x0C)) i++;
        if (k === 2) {
          if (i === n) {
            if (!(flags & STOP_BEFORE_PARTIAL)) smallError = true;
            return w;
          }
          if (c === 0x3D) {
            i++;
            while (i < n && ((c = s.charCodeAt(i)) === 0x20 || c === 0x0A || c === 0x09 ||
                             c === 0x0D || c === 0x0C)) i++;
          }
        }
        if (i < n || ((flags & STRICT) && (acc & (k === 2 ? 0xF : 0x3)) !== 0)) {
          smallError = true;
          return w;
        }
        w = partial(out, w, acc, k);
        smallRead = n;
        return w;
      }
      const v = c < 128 ? table[c] : -1;
      if (v < 0) {
        smallError = true;
        return w;
      }
      if ((k === 2 && max - w === 1) || (k === 3 && max - w === 2)) return w;
      acc = (acc << 6) | v;
      if (++k === 4) {
        out[w++] = acc >> 16;
        out[w++] = (acc >> 8) & 0xFF;
        out[w++] = acc & 0xFF;
        acc = 0;
        k = 0;
        smallRead = i;
        if (w === max) return w;
      }
    }
  }

  // The bytes of a last chunk of k = 2 or 3 characters (acc: their bits).
  function partial(out, w, acc, k) {
    if (k === 2) {
      out[w++] = acc >> 4;
    } else {
      out[w++] = acc >> 10;
      out[w++] = (acc >> 2) & 0xFF;
    }
    return w;
  }

  const NOTHING = new Uint8Array(0); // (for a rest that must decode to no bytes)

  // Has the string no unit above 0xFF (then the addon reads it as bytes,
  // as V8 holds it)? Immediate on V8's one-byte strings, but a regular
  // expression call costs 20-60 ns: shorter strings are read as UTF-16.
  const ABOVE_LATIN1 = /[^\x00-\xff]/;
  const LATIN1_READ = 1024;
  const isLatin1 = (string, n) => n >= LATIN1_READ && !ABOVE_LATIN1.test(string);

  // The view's memory (args[4]): asked of V8 (MEM_ASK), asked and
  // remembered (MEM_KEEP: setFromBase64's target, lastSet), the remembered
  // one's (its length: the same view as last time) or shortOut's.
  const MEM_ASK = -2;
  const MEM_KEEP = -1;
  const MEM_SHORT = -3;
  let lastSet = null; // setFromBase64's last target that reached the addon, if at most KEEP_SET bytes
  const KEEP_SET = 1 << 20;

  // The addon's decode of string (n units) into view from byte `at` on:
  // the bytes written; results[0] = status, results[1] = read.
  function decodeInto(view, string, n, flags, latin1, at = 0, mem = MEM_ASK) {
    args[0] = flags;
    args[1] = latin1 ? 1 : 0;
    args[2] = n;
    args[3] = at;
    args[4] = mem;
    addonDecodeInto(view, string);
    return results[2];
  }

  // TC39 decoding of a long string into view, a piece of CHUNK characters
  // at a time (a slice of a flat string is a view of it, no copy): N-API
  // can only copy a string out, and the copy of a piece stays in cache for
  // the decode, where that of a whole long text goes to memory and back
  // (about 3x at 1 MiB). A piece is decoded with stop-before-partial, the
  // next starting at the group it left. Padding only the whole text can
  // judge (strict's unused bits, text after it): decoded in a piece, a
  // padded group would be written where the whole text may not write it.
  // It can only end a piece that decodes without error (a '=' followed by
  // anything but whitespace is an error either way), so from a piece whose
  // last character other than whitespace is '=' on, and when a piece made
  // no progress, the rest is one call with the caller's flags.
  // Returns the bytes written; results[0] = status, results[1] = read, as
  // one call over the whole string would.
  function decodeTC39(view, string, n, flags, latin1, mem = MEM_ASK) {
    if (n <= CHUNK) return decodeInto(view, string, n, flags, latin1, 0, mem);
    const pieceFlags = (flags & ~STRICT) | STOP_BEFORE_PARTIAL;
    const cap = typedArrayLength.call(view);
    let pos = 0;
    let w = 0;
    for (;;) {
      const end = n - pos > CHUNK ? pos + CHUNK : n;
      if (end === n) break;
      let last = end;
      let c;
      while (last > pos && ((c = string.charCodeAt(last - 1)) === 0x20 || c === 0x0A ||
                            c === 0x09 || c === 0x0D || c === 0x0C)) last--;
      if (last > pos && c === 0x3D) break; // the piece may end in padding: the rest in one go
      const got = decodeInto(view, string.slice(pos, end), end - pos, pieceFlags, latin1, w, mem);
      const read = results[1];
      if (read === 0) break; // no whole group: the rest in one go
      if (results[0] !== 0) { // an error, or the target is full (DST_FULL)
        results[1] = resumeAt(string, pos, read);
        return w + got;
      }
      if (w + got === cap) { // full after a whole group: nothing more is read
        results[1] = pos + read;
        return w + got;
      }
      w += got;
      pos += read;
    }
    const got = decodeInto(view, pos === 0 ? string : string.slice(pos), n - pos, flags, latin1, w, mem);
    if (results[0] !== INVALID) results[1] = resumeAt(string, pos, results[1]);
    return w + got;
  }

  // The offset of a stop at `read` in the piece from pos: a stop at the
  // piece's start is TC39's offset after the last group, before the
  // whitespace the previous piece read on over.
  function resumeAt(string, pos, read) {
    if (read > 0 || pos === 0) return pos + read;
    let c;
    while (pos > 0 && ((c = string.charCodeAt(pos - 1)) === 0x20 || c === 0x0A || c === 0x09 ||
                       c === 0x0D || c === 0x0C)) pos--;
    return pos;
  }

  // The bytes of `data` base64 characters: the most that a string of that
  // many characters other than its trailing '=' decodes to.
  function maxBytes(data) {
    return Math.floor(data / 4) * 3 + ((data % 4) * 3 >> 2);
  }

  // Trailing '=' (at most 2): not data.
  function trailingPads(s, n) {
    if (n === 0 || s.charCodeAt(n - 1) !== 0x3D) return 0;
    return n > 1 && s.charCodeAt(n - 2) === 0x3D ? 2 : 1;
  }

  function fromBase64(string, options) {
    if (typeof string !== 'string') throw new TypeError('The value must be a string');
    const flags = alphabetOf(options) | lastChunkOf(options);
    const n = string.length;
    const max = maxBytes(n - trailingPads(string, n));
    let out;
    let written;
    if (n < SMALL_FROM || max === 0) {
      out = new Uint8Array(max);
      written = decodeSmall(string, flags, out, Infinity);
      if (smallError) throw invalid();
    } else if (max <= SMALL_FROM_BYTES && max < shortOut.length) {
      // V8 keeps a short Uint8Array's bytes inside the object, where the
      // addon cannot write without first giving it an ArrayBuffer (costlier
      // than the decode): decoded into a reused array, then sliced, which
      // makes such an array of the exact length.
      written = decodeInto(shortOut, string, n, flags, isLatin1(string, n), 0, MEM_SHORT);
      if (results[0] !== 0) throw invalid(); // (max bounds all, DST_FULL is not possible)
      return typedArraySlice.call(shortOut, 0, written);
    } else if (max >= NEW_FROM[0] && max <= NEW_FROM[1] && n <= CHUNK) {
      // One call decodes into the addon's scratch and makes an ArrayBuffer
      // of exactly the bytes written (a rest, as below, writes nothing).
      args[0] = flags;
      args[1] = isLatin1(string, n) ? 1 : 0;
      args[2] = n;
      args[3] = max;
      const ab = addonDecodeNew(string);
      if (results[0] === INVALID) throw invalid();
      if (results[0] === DST_FULL || results[1] < n) {
        decodeSmall(string.slice(results[1]), flags, NOTHING, Infinity);
        if (smallError) throw invalid();
      }
      return new Uint8Array(ab);
    } else {
      // Uninitialized memory (Node's allocUnsafeSlow) from ZEROED_FROM
      // bytes, all of it written when the string has no whitespace, else
      // copied to an exact one.
      // max bounds what any prefix of the string decodes to, so the addon
      // stops for a full target (DST_FULL, or OK short of the end when a
      // piece filled it) only with at most one base64 character left, and
      // whitespace and '=': the JavaScript decoder says whether that rest
      // is an error (nothing fits any more). So does it for the partial
      // group stop-before-partial leaves.
      out = max < ZEROED_FROM ? new Uint8Array(max)
        : new Uint8Array(Buffer.allocUnsafeSlow(max).buffer, 0, max);
      written = decodeTC39(out, string, n, flags, isLatin1(string, n));
      if (results[0] === INVALID) throw invalid();
      if (results[0] === DST_FULL || results[1] < n) { // (or a piece filled it: decodeTC39)
        decodeSmall(string.slice(results[1]), flags, out.subarray(written), Infinity);
        if (smallError) throw invalid();
      }
    }
    return written === max ? out : out.slice(0, written);
  }

  function setFromBase64(into, string, options) {
    checkUint8Array(into, 'The target');
    if (typeof string !== 'string') throw new TypeError('The value must be a string');
    const flags = alphabetOf(options) | lastChunkOf(options);
    const cap = liveLength(into);
    const n = string.length;
    if (n < SMALL_SET || cap === 0) {
      const written = decodeSmall(string, flags, into, cap);
      if (smallError) throw invalid();
      return { read: smallRead, written };
    }
    // The same target as the last call's: its length, and the addon uses
    // the memory it found then (addon_base64.c, js_decode_into). (One is
    // kept alive until the next call here.)
    let mem = cap;
    if (into !== lastSet) {
      lastSet = cap <= KEEP_SET ? into : null;
      mem = lastSet ? MEM_KEEP : MEM_ASK;
    }
    const written = decodeTC39(into, string, n, flags, isLatin1(string, n), mem);
    const status = results[0];
    if (status === INVALID) throw invalid();
    let read = results[1];
    // utfx reads on over whitespace after the group that filled the target
    // (status OK); TC39 reports the offset just after that group.
    if (status !== DST_FULL && written === cap && written % 3 === 0) {
      let c;
      while (read > 0 && ((c = string.charCodeAt(read - 1)) === 0x20 || c === 0x0A ||
                          c === 0x09 || c === 0x0D || c === 0x0C)) read--;
    }
    return { read: read | 0, written: written | 0 }; // (small integers: index.js's encodeInto says why)
  }

  // Node's lenient decode of string (n units, each unit's low byte, as
  // Node reads them) into buf; returns the bytes written. A long text goes
  // a piece of CHUNK characters (rounded down to whole groups) at a time,
  // for decodeTC39's reason (a copy that stays in cache), while each piece
  // is clean: it then decodes to exactly 3 bytes a group, which no piece
  // with a '=' or a skipped character does, so the next piece starts a
  // group. The rest, from the first piece that is not, is one call.
  function decodeNode(buf, string, n) {
    const piece = CHUNK > 4 ? CHUNK - (CHUNK & 3) : 4;
    const whole = (piece >> 2) * 3;
    let pos = 0;
    let w = 0;
    while (n - pos > piece) {
      if (decodeInto(buf, string.slice(pos, pos + piece), piece, NODE, true, w) !== whole) break;
      w += whole;
      pos += piece;
    }
    return w + decodeInto(buf, pos === 0 ? string : string.slice(pos), n - pos, NODE, true, w);
  }

  // Buffer.from(string, 'base64' | 'base64url'): Node's lenient rules
  // (UTFX_BASE64_NODE); Node's own code for short strings and other values,
  // and Node's decoder for long ones.
  function base64Decode(string, encoding) {
    const url = nodeUrl(encoding, 'base64Decode');
    if (typeof string !== 'string' || string.length < SMALL_DECODE)
      return Buffer.from(string, url ? 'base64url' : 'base64');
    const n = string.length;
    // Node's size (lib/buffer.js base64ByteLength): exact without
    // whitespace or garbage, never short.
    const size = Math.floor((n - trailingPads(string, n)) * 3 / 4);
    const buf = Buffer.allocUnsafe(size);
    const written = n < NODE_DECODE ? decodeNode(buf, string, n)
      : (url ? base64urlWrite : base64Write).call(buf, string, 0, size);
    if (written === size) return buf;
    return size >= 4096 ? Buffer.from(buf.subarray(0, written)) : buf.subarray(0, written);
  }

  return {
    exports: { toBase64, fromBase64, setFromBase64, base64Encode, base64Decode },
    tune, // (the kernel set's name: index.js's setImplementation)
    // (toBase64, [setFromBase64 characters, fromBase64 characters, fromBase64
    // bytes], base64Encode, [base64Decode: Node's code below, Node's decoder
    // from], fromNew); a number for the second sets all three, one for the
    // fourth only the first of its two.
    // The piece size of long TC39 decodes (tests: tiny pieces); returns the old one.
    chunk(size) {
      const old = CHUNK;
      if (size !== undefined) CHUNK = size;
      return old;
    },
    // fromNew: [least, most] bytes of the fromBase64 results base64DecodeNew makes.
    thresholds(to, from, encode, decode, fromNew) {
      const old = [SMALL_TO, [SMALL_SET, SMALL_FROM, SMALL_FROM_BYTES], SMALL_ENCODE,
        [SMALL_DECODE, NODE_DECODE], NEW_FROM.slice()];
      if (to !== undefined) SMALL_TO = to;
      if (from !== undefined)
        [SMALL_SET, SMALL_FROM, SMALL_FROM_BYTES] = typeof from === 'number' ? [from, from, from] : from;
      if (encode !== undefined) SMALL_ENCODE = encode;
      if (decode !== undefined)
        [SMALL_DECODE, NODE_DECODE] = typeof decode === 'number' ? [decode, NODE_DECODE] : decode;
      if (fromNew !== undefined) NEW_FROM = fromNew.slice();
      return old;
    },
  };
};
