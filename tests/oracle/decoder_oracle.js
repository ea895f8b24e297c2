// Oracle for tests/test_decoder_node.c: runs Node's own StringDecoder on
// every case of a binary case file and writes what each write() and end()
// returned.
//
// usage: node decoder_oracle.js CASES OUT
// CASES: records of  u8 encoding (utfx_encoding value), u32le chunk count,
//        then per chunk u32le length + bytes.
// OUT:   per record, for each write and then end():
//        u32le count + that many u16le code units (the JS string), then
//        u32le count + bytes of the UTF-8 form: Buffer.from(s, 'utf8') of the
//        string, where a high surrogate that ends a result is carried over to
//        the next result (UTF-8 cannot carry half a pair; see utfx.h).
'use strict';
const fs = require('fs');
const { OutBuffer } = require('./out_buffer');
const { StringDecoder } = require('string_decoder');

const names = { 0: 'utf8', 1: 'utf16le', 4: 'latin1', 5: 'ascii', 6: 'base64',
                7: 'base64url', 8: 'hex' };
const [casesPath, outPath] = process.argv.slice(2);
const input = fs.readFileSync(casesPath);

const out = new OutBuffer();
function isHigh(c) { return c >= 0xD800 && c <= 0xDBFF; }

let pos = 0;
while (pos < input.length) {
  const enc = names[input[pos]];
  if (!enc) throw new Error('bad encoding byte ' + input[pos] + ' at ' + pos);
  const count = input.readUInt32LE(pos + 1);
  pos += 5;
  const dec = new StringDecoder(enc);
  let carry = '';
  for (let i = 0; i <= count; i++) {
    let s;
    if (i < count) {
      const len = input.readUInt32LE(pos);
      s = dec.write(input.subarray(pos + 4, pos + 4 + len));
      pos += 4 + len;
    } else {
      s = dec.end();
    }
    out.units(s);
    let t = carry + s;
    carry = '';
    if (i < count && t.length > 0 && isHigh(t.charCodeAt(t.length - 1))) {
      carry = t.slice(-1);
      t = t.slice(0, -1);
    }
    out.bytes(Buffer.from(t, 'utf8'));
  }
}
out.writeFile(outPath);
