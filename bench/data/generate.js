#!/usr/bin/env node
// Generates the three synthetic corpus texts of bench/data (the others are
// copied lorem-ipsum files, see README.md). Deterministic: the same bytes on
// every run (a fixed-seed xorshift generator), about 64 KiB each.
//   ASCII.utf8.txt   English-like prose, ASCII only (the common case of
//                    source code, logs, JSON);
//   Latin1.utf8.txt  French / German / Spanish prose: every character fits
//                    Latin-1 (V8's one-byte strings; the Latin-1 functions);
//   Mixed.utf8.txt   sentences that switch script every few words: ASCII,
//                    accented Latin, Cyrillic, Greek, Arabic, Devanagari,
//                    CJK, Hangul and emoji (a multilingual chat or web page).
// Usage: node bench/data/generate.js [output directory, default: this one]
'use strict';

const fs = require('fs');
const path = require('path');

const words = {
  english: 'the of and to in is you that it he was for on are as with his they at be this ' +
    'have from or one had by word but not what all were we when your can said there use an ' +
    'each which she do how their if will up other about out many then them these so some ' +
    'her would make like him into time has look two more write go see number no way could',
  french: 'le la et \u00e9t\u00e9 gar\u00e7on tr\u00e8s d\u00e9j\u00e0 o\u00f9 fa\u00e7on ' +
    '\u00e9l\u00e8ve cr\u00e8me fen\u00eatre ch\u00e2teau na\u00efve fran\u00e7ais bient\u00f4t',
  german: 'der die und Stra\u00dfe Gr\u00f6\u00dfe sch\u00f6n B\u00e4r M\u00e4dchen \u00fcber ' +
    'Gr\u00fc\u00dfe Fu\u00dfball m\u00fcde K\u00e4se',
  spanish: 'el la y ni\u00f1o se\u00f1or a\u00f1o ma\u00f1ana coraz\u00f3n canci\u00f3n ' +
    'jam\u00e1s ping\u00fcino',
  russian: '\u043f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440 \u043a\u043d\u0438\u0433' +
    '\u0430 \u044f\u0437\u044b\u043a \u0432\u0440\u0435\u043c\u044f \u0433\u043e\u0440\u043e' +
    '\u0434 \u0440\u0430\u0431\u043e\u0442\u0430 \u0432\u043e\u043f\u0440\u043e\u0441',
  greek: '\u03ba\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03ba\u03cc\u03c3\u03bc\u03bf' +
    '\u03c2 \u03b3\u03bb\u03ce\u03c3\u03c3\u03b1 \u03b8\u03ac\u03bb\u03b1\u03c3\u03c3\u03b1 ' +
    '\u03ae\u03bb\u03b9\u03bf\u03c2 \u03c6\u03af\u03bb\u03bf\u03c2',
  arabic: '\u0645\u0631\u062d\u0628\u0627 \u0627\u0644\u0639\u0627\u0644\u0645 \u0643\u062a' +
    '\u0627\u0628 \u0644\u063a\u0629 \u0645\u062f\u064a\u0646\u0629 \u0648\u0642\u062a',
  hindi: '\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e \u0915' +
    '\u093f\u0924\u093e\u092c \u092d\u093e\u0937\u093e \u0936\u0939\u0930 \u0938\u092e\u092f',
  chinese: '\u4f60\u597d \u4e16\u754c \u4e66 \u8bed\u8a00 \u57ce\u5e02 \u65f6\u95f4 \u95ee' +
    '\u9898 \u7b54\u6848',
  japanese: '\u3053\u3093\u306b\u3061\u306f \u4e16\u754c \u672c \u8a00\u8449 \u6771\u4eac ' +
    '\u6642\u9593 \u30ab\u30bf\u30ab\u30ca',
  korean: '\uc548\ub155\ud558\uc138\uc694 \uc138\uacc4 \ucc45 \uc5b8\uc5b4 \ub3c4\uc2dc ' +
    '\uc2dc\uac04',
  emoji: '\u{1f600} \u{1f680} \u{1f44d}\u{1f3fd} \u{1f389} \u2764\ufe0f \u{1f1eb}\u{1f1f7} ' +
    '\u{1f469}\u200d\u{1f4bb}',
};
const lists = Object.fromEntries(Object.entries(words).map(([k, v]) => [k, v.split(' ')]));

let state = 0x9e3779b9;
function random(n) { // xorshift32, then a value in [0, n)
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
}

// Sentences of 6 to 17 words; `pick` chooses each word's language.
function text(size, pick) {
  let out = '';
  while (Buffer.byteLength(out) < size) {
    const count = 6 + random(12);
    const sentence = [];
    for (let i = 0; i < count; i++) {
      const list = lists[pick(i)];
      sentence.push(list[random(list.length)]);
    }
    let s = sentence.join(' ');
    s = s[0].toUpperCase() + s.slice(1);
    out += s + (random(5) === 0 ? '.\n' : '. ');
  }
  // Cut to size at a character boundary.
  const buf = Buffer.from(out);
  let end = size;
  while ((buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end);
}

const dir = process.argv[2] || __dirname;
const size = 65536;
fs.writeFileSync(path.join(dir, 'ASCII.utf8.txt'), text(size, () => 'english'));
const latin = ['french', 'german', 'spanish'];
let latinRun = 0;
fs.writeFileSync(path.join(dir, 'Latin1.utf8.txt'), text(size, (i) => {
  if (i === 0) latinRun = random(latin.length);
  return random(3) === 0 ? 'english' : latin[latinRun];
}));
const scripts = Object.keys(lists);
let script = 'english';
fs.writeFileSync(path.join(dir, 'Mixed.utf8.txt'), text(size, () => {
  if (random(4) === 0) script = scripts[random(scripts.length)];
  return script;
}));
