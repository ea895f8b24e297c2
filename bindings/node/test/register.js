'use strict';
// require('utfx/register') against Node's own results: the decoders Node's
// modules make (a stream's setEncoding, readline, a child process's pipe)
// and require('string_decoder').StringDecoder decode with utfx afterwards,
// and give exactly what they gave before. Prints TAP.
//   node test/register.js [--seed N]

const assert = require('assert');
const { PassThrough } = require('stream');
const readline = require('readline');
const { spawnSync, spawn } = require('child_process');
const sdModule = require('string_decoder');
const utfx = require('..');

const NodeDecoder = sdModule.StringDecoder;
const nodeWrite = NodeDecoder.prototype.write;
const { seed: firstSeed, rand } = require('./random').seeded(process.argv);

let count = 0;
let failed = 0;
async function check(desc, fn) {
  count++;
  try {
    await fn();
    console.log(`ok ${count} - ${desc}`);
  } catch (err) {
    failed++;
    console.log(`not ok ${count} - ${desc}`);
    console.log(String(err && err.stack || err).split('\n').slice(0, 20).map((l) => `# ${l.slice(0, 300)}`).join('\n'));
  }
}

// Text with every UTF-8 length, lone surrogates' replacements and some bad
// bytes, cut into chunks of 1 to 300 bytes (so that both Node's path and
// utfx's are taken), and lines for readline.
const TEXT = 'plain ascii, caf\u00e9 na\u00efve, \u20ac \u65e5\u672c\u8a9e, \ud83d\ude00\ud83c\udf89 ';
function randomBytes() {
  const parts = [];
  const n = 1 + rand(40);
  for (let i = 0; i < n; i++) {
    const k = rand(10);
    if (k < 7) parts.push(Buffer.from(TEXT.slice(rand(TEXT.length)).repeat(1 + rand(8))));
    else if (k < 8) parts.push(Buffer.from([0xe2, 0x82, 0xf0, 0x9f, 0xc0, 0x80, 0xed, 0xa0, 0x80].slice(rand(9))));
    else parts.push(Buffer.from('\n'.repeat(1 + rand(2))));
  }
  return Buffer.concat(parts);
}
function cut(buf) {
  const chunks = [];
  for (let i = 0; i < buf.length;) {
    const n = Math.min(buf.length - i, rand(4) === 0 ? 1 + rand(8) : 1 + rand(300));
    chunks.push(buf.subarray(i, i + n));
    i += n;
  }
  return chunks;
}

// What Node's own decoder gives for a chunking, computed before register.
function nodeDecode(enc, chunks) {
  const d = new NodeDecoder(enc);
  return chunks.map((c) => d.write(c)).concat(d.end());
}

const ENCODINGS = ['utf8', 'base64', 'base64url', 'hex', 'utf16le', 'latin1', 'ascii'];
const cases = [];
for (let r = 0; r < 300; r++) {
  const enc = ENCODINGS[r % ENCODINGS.length];
  const chunks = cut(randomBytes());
  cases.push({ enc, chunks, expected: nodeDecode(enc, chunks) });
}
// Decoders Node made before register, each holding part of a character.
const early = [];
for (let r = 0; r < 50; r++) {
  const bytes = Buffer.from('\u20ac\ud83d\ude00\u00e9'.repeat(100));
  const split = 1 + rand(6);
  const d = new NodeDecoder('utf8');
  const first = d.write(bytes.subarray(0, split));
  const rest = cut(bytes.subarray(split));
  early.push({ d, first, rest, expected: nodeDecode('utf8', [bytes.subarray(0, split), ...rest]) });
}
// Lines as readline gives them over a stream, before register.
async function lines(chunks) {
  const input = new PassThrough();
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  const got = [];
  rl.on('line', (l) => got.push(l));
  const done = new Promise((resolve) => rl.on('close', resolve));
  for (const c of chunks) input.write(c);
  input.end();
  await done;
  return got;
}
// A stream with setEncoding: what 'data' events carry, joined.
async function streamText(enc, chunks) {
  const s = new PassThrough();
  s.setEncoding(enc);
  let text = '';
  s.on('data', (t) => { text += t; });
  const done = new Promise((resolve) => s.on('end', resolve));
  for (const c of chunks) s.write(c);
  s.end();
  await done;
  return text;
}

// Counts the chunks utfx decodes.
let addonWrites = 0;
const addon = utfx._internal.addon;
const realWrite = addon.decoderWrite;
addon.decoderWrite = function decoderWrite(...a) {
  addonWrites++;
  return realWrite.apply(this, a);
};

(async () => {
  const lineCases = [];
  for (let r = 0; r < 40; r++) {
    const chunks = cut(randomBytes());
    lineCases.push({ chunks, expected: await lines(chunks) });
  }
  const streamCases = [];
  for (let r = 0; r < 40; r++) {
    const enc = ENCODINGS[r % ENCODINGS.length];
    const chunks = cut(randomBytes());
    streamCases.push({ enc, chunks, expected: await streamText(enc, chunks) });
  }

  require('../register');
  require('../register'); // twice is once

  await check('require("string_decoder").StringDecoder is utfx\'s; Node\'s prototype write is utfx\'s', () => {
    assert.strictEqual(require('string_decoder').StringDecoder, utfx.StringDecoder);
    assert.notStrictEqual(NodeDecoder.prototype.write, nodeWrite);
    assert.strictEqual(NodeDecoder.prototype.write, utfx.StringDecoder.prototype.write);
  });

  await check('300 random chunkings, 7 encodings: the exported decoder and Node-made ones equal Node\'s', () => {
    const before = addonWrites;
    for (const { enc, chunks, expected } of cases) {
      for (const Ctor of [require('string_decoder').StringDecoder, NodeDecoder]) {
        const d = new Ctor(enc);
        const got = chunks.map((c) => d.write(c)).concat(d.end());
        assert.deepStrictEqual(got, expected, `${enc} ${chunks.map((c) => c.toString('hex')).join('|')}`);
      }
    }
    assert.ok(addonWrites > before, 'utfx decoded nothing');
  });

  await check('decoders Node made before register, holding half a character, continue exactly', () => {
    for (const { d, first, rest, expected } of early) {
      const got = [first, ...rest.map((c) => d.write(c)), d.end()];
      assert.deepStrictEqual(got, expected);
    }
  });

  await check('readline over a stream: the same lines, through utfx', async () => {
    const before = addonWrites;
    for (const { chunks, expected } of lineCases) assert.deepStrictEqual(await lines(chunks), expected);
    assert.ok(addonWrites > before, 'readline did not reach utfx');
  });

  await check('stream.setEncoding (7 encodings): the same text, through utfx', async () => {
    const before = addonWrites;
    for (const { enc, chunks, expected } of streamCases)
      assert.strictEqual(await streamText(enc, chunks), expected, enc);
    assert.ok(addonWrites > before, 'setEncoding did not reach utfx');
  });

  await check('a child process\'s stdout with setEncoding(\'utf8\'): the same text, through utfx', async () => {
    const script = `process.stdout.write(Buffer.from(${JSON.stringify(TEXT)}.repeat(3000)))`;
    const expected = spawnSync(process.execPath, ['-e', script]).stdout.toString('utf8');
    const before = addonWrites;
    const child = spawn(process.execPath, ['-e', script]);
    child.stdout.setEncoding('utf8');
    let text = '';
    child.stdout.on('data', (t) => { text += t; });
    await new Promise((resolve) => child.on('close', resolve));
    assert.strictEqual(text, expected);
    assert.ok(addonWrites > before, 'the pipe did not reach utfx');
  });

  console.log(`# seed ${firstSeed} (--seed ${firstSeed} repeats this run)`);
  console.log(`1..${count}`);
  process.exitCode = failed ? 1 : 0;
})();
