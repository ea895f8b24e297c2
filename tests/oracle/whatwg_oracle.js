// Oracle for tests/test_whatwg_node.c: runs Node's own TextDecoder (full
// ICU) on every case of a binary case file, as a stream: decode(chunk,
// {stream: true}) per chunk, then decode().
//
// usage: node whatwg_oracle.js CASES OUT
// CASES: records of  u8 encoding (0 utf-8, 1 utf-16le, 2 utf-16be),
//        u8 flags (1 fatal, 2 ignoreBOM), u32le chunk count,
//        then per chunk u32le length + bytes.
// OUT:   per record, for each decode call in order: u8 0 + u32le count +
//        that many u16le code units (the returned string), or u8 1 when the
//        call threw; a throw ends the record (its later calls are not made).
'use strict';
const fs = require('fs');
const { OutBuffer } = require('./out_buffer');

const labels = ['utf-8', 'utf-16le', 'utf-16be'];
const [casesPath, outPath] = process.argv.slice(2);
const input = fs.readFileSync(casesPath);

const out = new OutBuffer();

let pos = 0;
while (pos < input.length) {
  const label = labels[input[pos]];
  if (!label) throw new Error('bad encoding byte ' + input[pos] + ' at ' + pos);
  const flags = input[pos + 1];
  const count = input.readUInt32LE(pos + 2);
  pos += 6;
  const chunks = [];
  for (let i = 0; i < count; i++) {
    const len = input.readUInt32LE(pos);
    chunks.push(input.subarray(pos + 4, pos + 4 + len));
    pos += 4 + len;
  }
  const dec = new TextDecoder(label, { fatal: (flags & 1) !== 0, ignoreBOM: (flags & 2) !== 0 });
  for (let i = 0; i <= count; i++) {
    let s;
    try {
      s = i < count ? dec.decode(chunks[i], { stream: true }) : dec.decode();
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      out.u8(1);
      break;
    }
    out.u8(0);
    out.units(s);
  }
}
out.writeFile(outPath);
