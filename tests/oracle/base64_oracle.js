'use strict';
// Oracle side of tests/test_base64.c: `node base64_oracle.js IN OUT`.
// IN has one case per line; OUT gets one answer line per case:
//   "d HEX"  HEX = a string as UTF-16LE bytes (any unit, lone surrogates too)
//            -> Buffer.from(s, 'base64'), Buffer.from(s, 'base64url') and
//               atob(s) (its bytes; '!' when it throws), all as hex
//   "e HEX"  HEX = bytes
//            -> buf.toString('base64'), buf.toString('base64url'),
//               btoa(the bytes as a Latin-1 string)
// Fields are separated by one space (an empty field is empty).
const fs = require('fs');

if (process.argv.length !== 4) {
  process.stderr.write('usage: node base64_oracle.js IN OUT\n');
  process.exit(2);
}
const lines = fs.readFileSync(process.argv[2], 'latin1').split('\n');
const out = [];
for (const line of lines) {
  if (line.length === 0) continue;
  const payload = Buffer.from(line.slice(2), 'hex');
  if (line[0] === 'd') {
    const s = payload.toString('utf16le');
    let a;
    try {
      a = Buffer.from(atob(s), 'latin1').toString('hex');
    } catch (e) {
      a = '!';
    }
    out.push([Buffer.from(s, 'base64').toString('hex'),
              Buffer.from(s, 'base64url').toString('hex'), a].join(' '));
  } else {
    out.push([payload.toString('base64'), payload.toString('base64url'),
              btoa(payload.toString('latin1'))].join(' '));
  }
}
fs.writeFileSync(process.argv[3], out.join('\n') + '\n');
