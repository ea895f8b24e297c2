'use strict';
// The tests' random numbers: xorshift32, seeded from --seed N (reproducible)
// or the clock, and printed as a TAP comment. { seed, rand(n) -> 0..n-1,
// pick(array) }.

function seeded(argv) {
  const at = argv.indexOf('--seed');
  let state = at >= 0 ? Number(argv[at + 1]) : (Date.now() % 0x7fffffff) | 1;
  const seed = state;
  // Printed first as well as at the end: a run that dies (a signal, an
  // error outside a check) still says which seed repeats it.
  console.log(`# seed ${seed} (--seed ${seed} repeats this run)`);
  function next() {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  }
  const rand = (n) => Math.floor(next() * n);
  return { seed, rand, pick: (a) => a[rand(a.length)] };
}

module.exports = { seeded };
