// The growing output of the decoder oracles (decoder_oracle.js,
// whatwg_oracle.js): little-endian records appended to one Buffer, written
// to a file at the end.
'use strict';
const fs = require('fs');

class OutBuffer {
  constructor() {
    this.buf = Buffer.allocUnsafe(1 << 20);
    this.used = 0;
  }

  reserve(n) {
    if (this.used + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.used + n) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.buf.copy(bigger, 0, 0, this.used);
    this.buf = bigger;
  }

  u8(v) {
    this.reserve(1);
    this.buf[this.used++] = v;
  }

  // u32le count + that many u16le code units of the string.
  units(str) {
    this.reserve(4 + 2 * str.length);
    this.buf.writeUInt32LE(str.length, this.used);
    this.used += 4;
    for (let i = 0; i < str.length; i++, this.used += 2)
      this.buf.writeUInt16LE(str.charCodeAt(i), this.used);
  }

  // u32le count + the bytes.
  bytes(b) {
    this.reserve(4 + b.length);
    this.buf.writeUInt32LE(b.length, this.used);
    b.copy(this.buf, this.used + 4);
    this.used += 4 + b.length;
  }

  writeFile(path) {
    fs.writeFileSync(path, this.buf.subarray(0, this.used));
  }
}

module.exports = { OutBuffer };
