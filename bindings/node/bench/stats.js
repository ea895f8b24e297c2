'use strict';
// Statistics as Node's benchmark/compare.R reports them: Welch's two-sample
// t-test on the per-run rates, the improvement of the means, and the
// half-width of the confidence interval of the difference at 95, 99 and
// 99.9 %, in percent of the old mean.

function mean(a) {
  let s = 0;
  for (const x of a) s += x;
  return s / a.length;
}

function variance(a) {
  const m = mean(a);
  let s = 0;
  for (const x of a) s += (x - m) * (x - m);
  return a.length > 1 ? s / (a.length - 1) : 0;
}

function logGamma(x) { // Lanczos, g = 7
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61503916999185, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

// Regularized incomplete beta I_x(a, b), continued fraction (Lentz).
function betaInc(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - betaInc(1 - x, b, a);
  const front = Math.exp(Math.log(x) * a + Math.log(1 - x) * b -
    (logGamma(a) + logGamma(b) - logGamma(a + b))) / a;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 300; i++) {
    const m = i >> 1;
    let num;
    if (i === 0) num = 1;
    else if (i % 2 === 0) num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    if (Math.abs(d) < 1e-30) d = 1e-30;
    d = 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < 1e-30) c = 1e-30;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-12) break;
  }
  return front * (f - 1);
}

// Two-sided p-value of Student's t with df degrees of freedom.
function tPValue(t, df) {
  return betaInc(df / (df + t * t), df / 2, 0.5);
}

// t such that the two-sided p-value is alpha (bisection).
function tQuantile(alpha, df) {
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (tPValue(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

// old, new: arrays of rates (higher is better).
function compare(oldRates, newRates) {
  const mo = mean(oldRates);
  const mn = mean(newRates);
  const vo = variance(oldRates) / oldRates.length;
  const vn = variance(newRates) / newRates.length;
  const se = Math.sqrt(vo + vn);
  const df = se > 0 ? (vo + vn) ** 2 /
    ((vo * vo) / Math.max(oldRates.length - 1, 1) + (vn * vn) / Math.max(newRates.length - 1, 1)) : 1;
  const t = se > 0 ? (mn - mo) / se : (mn === mo ? 0 : Infinity);
  const p = se > 0 ? tPValue(Math.abs(t), df) : (mn === mo ? 1 : 0);
  const ci = (level) => (se > 0 ? (tQuantile(level, df) * se) / mo * 100 : 0);
  return {
    oldMean: mo,
    newMean: mn,
    improvement: (mn - mo) / mo * 100,
    ratio: mn / mo,
    p,
    stars: p < 0.001 ? '***' : p < 0.01 ? '**' : p < 0.05 ? '*' : '',
    accuracy: [ci(0.05), ci(0.01), ci(0.001)],
  };
}

module.exports = { mean, variance, compare, tPValue, tQuantile };
