'use strict';
// Oracle side of tests/test_oracle_node.c: `node node_oracle.js IN OUT`.
// Reads the cases the C test wrote to IN and writes to OUT what Node.js's own
// Buffer and TextEncoder return for each, in the same order. All integers are
// u32 little-endian; UTF-16 text is UTF-16LE bytes (any unit, lone surrogates
// included: Buffer#toString('utf16le') keeps them).
//
// IN  = record*          record = kind:u8 len:u32 payload[len]
// kind 1 UTF8_DECODE     payload = bytes
//   OUT: n:u32, Buffer.from(bytes).toString('utf8') as UTF-16LE [n bytes]
// kind 2 LATIN1_DECODE   payload = bytes
//   OUT: n:u32, toString('latin1') as UTF-16LE [n bytes]
// kind 3 UTF16_ENCODE    payload = cap:u32, UTF-16LE text
//   OUT: n:u32, Buffer.from(str, 'utf8') [n bytes];
//        read:u32, written:u32, bytes of TextEncoder#encodeInto(str, new Uint8Array(cap));
//        latin1: n:u32 + Buffer.from(str, 'latin1') if every unit is <= 0xFF, else 0xFFFFFFFF
// kind 4 ENCODE_SWEEP    payload = UTF-16LE text
//   OUT: need:u32 (Buffer.byteLength(str, 'utf8')), then for cap = 0 .. need + 1:
//        read:u32, written:u32, the written bytes of encodeInto with that cap
// kind 5 BUFFER_WRITE    payload = offset:u32, length:u32, total:u32, UTF-16LE text
//   OUT: ret:u32 = buf.write(str, offset, length, 'utf8') on a Buffer of `total`
//        bytes filled with pattern(i) = (i * 37 + 11) & 0xFF, then the whole buffer
const fs = require('fs');

if (process.argv.length !== 4) {
  process.stderr.write('usage: node node_oracle.js IN OUT\n');
  process.exit(2);
}
const input = fs.readFileSync(process.argv[2]);
const fd = fs.openSync(process.argv[3], 'w');
let out = Buffer.allocUnsafe(1 << 22);
let pos = 0;

function reserve(n) {
  if (pos + n <= out.length) return;
  fs.writeSync(fd, out, 0, pos);
  pos = 0;
  if (n > out.length) out = Buffer.allocUnsafe(n);
}
function putU32(v) {
  reserve(4);
  out.writeUInt32LE(v >>> 0, pos);
  pos += 4;
}
function putBytes(b) {
  reserve(b.length);
  out.set(b, pos);
  pos += b.length;
}
function putString16(str) {
  const b = Buffer.from(str, 'utf16le');
  putU32(b.length);
  putBytes(b);
}

const encoder = new TextEncoder();
function putEncodeInto(str, cap) {
  const u8 = new Uint8Array(cap);
  const { read, written } = encoder.encodeInto(str, u8);
  putU32(read);
  putU32(written);
  putBytes(u8.subarray(0, written));
}

let p = 0;
let cases = 0;
while (p < input.length) {
  const kind = input[p];
  const len = input.readUInt32LE(p + 1);
  const start = p + 5;
  const end = start + len;
  p = end;
  cases++;
  switch (kind) {
    case 1:
      putString16(input.toString('utf8', start, end));
      break;
    case 2:
      putString16(input.toString('latin1', start, end));
      break;
    case 3: {
      const cap = input.readUInt32LE(start);
      const str = input.toString('utf16le', start + 4, end);
      const utf8 = Buffer.from(str, 'utf8');
      putU32(utf8.length);
      putBytes(utf8);
      putEncodeInto(str, cap);
      if (/^[\x00-\xFF]*$/.test(str)) {
        const l1 = Buffer.from(str, 'latin1');
        putU32(l1.length);
        putBytes(l1);
      } else {
        putU32(0xFFFFFFFF);
      }
      break;
    }
    case 4: {
      const str = input.toString('utf16le', start, end);
      const need = Buffer.byteLength(str, 'utf8');
      putU32(need);
      for (let cap = 0; cap <= need + 1; cap++) putEncodeInto(str, cap);
      break;
    }
    case 5: {
      const offset = input.readUInt32LE(start);
      const length = input.readUInt32LE(start + 4);
      const total = input.readUInt32LE(start + 8);
      const str = input.toString('utf16le', start + 12, end);
      const buf = Buffer.allocUnsafe(total);
      for (let i = 0; i < total; i++) buf[i] = (i * 37 + 11) & 0xFF;
      putU32(buf.write(str, offset, length, 'utf8'));
      putBytes(buf);
      break;
    }
    default:
      process.stderr.write(`node_oracle.js: unknown case kind ${kind} at byte ${start - 5}\n`);
      process.exit(1);
  }
}
fs.writeSync(fd, out, 0, pos);
fs.closeSync(fd);
process.stderr.write(`node_oracle.js: ${cases} cases, node ${process.version}\n`);
