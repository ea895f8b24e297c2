'use strict';
// TAP for the package's tests: check(desc, fn) runs fn and prints
// "ok N - desc (time)" or "not ok N - desc" with the first lines of the
// error; done() prints the plan and sets the exit code.

let count = 0;
let failed = 0;

function check(desc, fn) {
  count++;
  const t0 = Date.now();
  try {
    fn();
    console.log(`ok ${count} - ${desc} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed++;
    console.log(`not ok ${count} - ${desc}`);
    const text = String(err && err.stack || err).split('\n').slice(0, 30)
      .map((line) => (line.length > 400 ? `${line.slice(0, 400)}...` : line)).join('\n');
    console.log(text.replace(/^/gm, '# '));
  }
}

function done() {
  console.log(`1..${count}`);
  process.exitCode = failed ? 1 : 0;
}

// The bytes of a view as hex, for messages.
const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

module.exports = { check, done, hex };
