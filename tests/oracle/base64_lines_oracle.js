'use strict';
// Oracle side of tests/test_base64_lines.c: `node base64_lines_oracle.js DIR W...`.
// For every DIR/N.bin and width W, writes DIR/N.W.node: buf.toString('base64'),
// then a line, then buf.toString('base64url'), each cut into lines of W
// characters, every line ended by '\n' (coreutils' layout); and DIR/N.W.crlf,
// the same with every line ended by '\r\n' (MIME's).
const fs = require('fs');

const [dir, ...widths] = process.argv.slice(2);
if (!dir || widths.length === 0) {
  process.stderr.write('usage: node base64_lines_oracle.js DIR W...\n');
  process.exit(2);
}
function wrap(s, w, eol = '\n') {
  let out = '';
  for (let i = 0; i < s.length; i += w) out += s.slice(i, i + w) + eol;
  return out;
}
for (const name of fs.readdirSync(dir)) {
  if (!name.endsWith('.bin')) continue;
  const buf = fs.readFileSync(`${dir}/${name}`);
  for (const w of widths.map(Number)) {
    const text = wrap(buf.toString('base64'), w) + '--\n' + wrap(buf.toString('base64url'), w);
    fs.writeFileSync(`${dir}/${name.slice(0, -4)}.${w}.node`, text, 'latin1');
    const crlf = wrap(buf.toString('base64'), w, '\r\n') + '--\r\n' +
                 wrap(buf.toString('base64url'), w, '\r\n');
    fs.writeFileSync(`${dir}/${name.slice(0, -4)}.${w}.crlf`, crlf, 'latin1');
  }
}
