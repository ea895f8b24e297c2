'use strict';
// A JSON-RPC round trip written as Node programs write it: parent and child
// each read lines with readline and reply with
// stream.write(JSON.stringify(message) + '\n'). The utfx variant only adds
// require('utfx/register') and stream.write(utfx.encode(...)) on both ends.
//   node bench/rpc.js --impl builtin|utfx --payload text|lsp [--rounds N]
// prints {"ms": wall ms per round trip, "what": the payload}. bench.js runs
// it, alternating the two variants, each run a fresh process pair.
//   text  64 KiB of non-ASCII text (lipsum in seven scripts) as JSON items
//   lsp   an LSP textDocument/didOpen of a 64 KiB C source file: ASCII code
//         with some non-ASCII comments and strings

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { spawn } = require('child_process');

const opts = { impl: 'builtin', payload: 'text', rounds: 60, child: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--impl') opts.impl = process.argv[++i];
  else if (a === '--payload') opts.payload = process.argv[++i];
  else if (a === '--rounds') opts.rounds = Number(process.argv[++i]);
  else if (a === '--child') opts.child = true;
  else {
    process.stderr.write(`rpc.js: unknown option ${a}\n`);
    process.exit(2);
  }
}

let send;
if (opts.impl === 'utfx') {
  require('../register');
  const { encode } = require('..');
  send = (stream, message) => stream.write(encode(`${JSON.stringify(message)}\n`));
} else {
  send = (stream, message) => stream.write(`${JSON.stringify(message)}\n`);
}

const repo = path.join(__dirname, '..', '..', '..');

function textPayload() {
  const items = [];
  let size = 0;
  for (const f of ['Chinese', 'Arabic', 'Hindi', 'Japanese', 'Korean', 'Hebrew', 'Emoji']) {
    const words = fs.readFileSync(path.join(repo, 'bench', 'data', `${f}-Lipsum.utf8.txt`), 'utf8')
      .split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length && size < 64 * 1024; i += 7) {
      const item = { lang: f, i, text: words.slice(i, i + 7).join(' ') };
      size += Buffer.byteLength(JSON.stringify(item)) + 1;
      items.push(item);
    }
  }
  return { method: 'echo', params: { items } };
}

// The library's own C sources, with a non-ASCII comment every 40 lines and a
// non-ASCII string now and then, cut to 64 KiB.
function lspPayload() {
  const dirs = ['src', 'src/scalar', 'src/x86/avx2', 'src/x86/avx512'];
  const files = dirs.flatMap((d) => fs.readdirSync(path.join(repo, d)).filter((f) => f.endsWith('.c'))
    .sort().map((f) => path.join(repo, d, f)));
  const src = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const extra = ['// R\u00e9sum\u00e9: na\u00efve caf\u00e9 \u2014 \u00fcber',
    '/* \u65e5\u672c\u8a9e\u306e\u30b3\u30e1\u30f3\u30c8 */', '// \u2713 \u03bb \u2192 \u221e',
    'static const char msg[] = "\u00bfQu\u00e9 tal? \ud83d\ude00";'];
  const lines = src.split('\n');
  let text = '';
  for (let i = 0; i < lines.length && text.length < 64 * 1024; i++) {
    if (i % 40 === 39) text += `${extra[(i / 40) % extra.length | 0]}\n`;
    text += `${lines[i]}\n`;
  }
  return { method: 'textDocument/didOpen',
    params: { textDocument: { uri: 'file:///work/utfx/src/all.c', languageId: 'c', version: 1, text } } };
}

if (opts.child) {
  // The server: echoes every request's params as its result.
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    const msg = JSON.parse(line);
    send(process.stdout, { jsonrpc: '2.0', id: msg.id, result: msg.params });
  });
} else {
  const { method, params } = opts.payload === 'lsp' ? lspPayload() : textPayload();
  const expected = JSON.stringify(params);
  const child = spawn(process.execPath, [__filename, '--child', '--impl', opts.impl],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const rl = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  let resolve = null;
  rl.on('line', (line) => resolve(JSON.parse(line)));
  let id = 0;
  const call = () => new Promise((res) => {
    resolve = res;
    send(child.stdin, { jsonrpc: '2.0', id: ++id, method, params });
  });
  (async () => {
    for (let i = 0; i < 10; i++) { // warm-up, and a check that the echo is exact
      const reply = await call();
      if (JSON.stringify(reply.result) !== expected) throw new Error('bad echo');
    }
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < opts.rounds; i++) await call();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6 / opts.rounds;
    child.stdin.end();
    const bytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const what = opts.payload === 'lsp'
      ? `LSP didOpen of a C source file, ${bytes} bytes of JSON each way`
      : `${bytes} bytes of non-ASCII JSON text each way`;
    process.stdout.write(JSON.stringify({ ms, what }));
  })();
}
