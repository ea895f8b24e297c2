// Node's answers for tests/test_api_parity_node.c (issue 35's functions).
// Usage: node parity_oracle.js IN OUT
// IN: records of a u32 (little-endian) byte length, then that many bytes.
// OUT, per record, u32 little-endian values:
//   isAscii(bytes), isUtf8(bytes), then for an even length (the bytes read
//   as UTF-16LE, Node's 'utf16le' keeps lone surrogates as they are):
//   the swap16 bytes (as many as the input), the index of the first unit
//   above U+007F (the unit count if none), Buffer.byteLength(string,
//   'utf8') (3 per lone surrogate), and string.isWellFormed().
'use strict';
const fs = require('fs');
const buffer = require('buffer');

const input = fs.readFileSync(process.argv[2]);
const out = [];
const u32 = (v) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  out.push(b);
};
for (let pos = 0; pos < input.length; ) {
  const len = input.readUInt32LE(pos);
  const bytes = Buffer.from(input.subarray(pos + 4, pos + 4 + len));
  pos += 4 + len;
  u32(buffer.isAscii(bytes) ? 1 : 0);
  u32(buffer.isUtf8(bytes) ? 1 : 0);
  if (len % 2 === 0) {
    const str = bytes.toString('utf16le');
    out.push(Buffer.from(bytes).swap16());
    const at = str.search(/[^\x00-\x7f]/);
    u32(at < 0 ? str.length : at);
    u32(Buffer.byteLength(str, 'utf8'));
    u32(str.isWellFormed() ? 1 : 0);
  }
}
fs.writeFileSync(process.argv[3], Buffer.concat(out));
