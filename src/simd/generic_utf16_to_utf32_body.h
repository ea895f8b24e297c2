/* The body of the UTF-16 -> UTF-32 kernels (generic_utf16_to_utf32.h says
 * how it works), included there once per form: G1632_L 0 for any call, 1
 * for long calls (G1632_LONG), G1632_BODY and G1632_KERNEL the form's names. The form is a
 * literal, not a parameter, so the short form's code is exactly what it is
 * without the long one (a parameter folded after inlining moved its
 * registers). */

UTFXI_INLINE utfx_result G1632_BODY(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                    unsigned flags, int be) {
  size_t i = 0, w = 0, replaced = 0, screen_from = 0, backoff = G1632_BACKOFF_MIN, start;
  uint64_t carry = 0; /* G16_UNIT: unit i is the low half of a pair already written */
  const int raw = G1632_R; /* big-endian units as they lie in memory */
  utfx_result r;
  struct g1632_k c;
#if G1632_R
  struct v16_widen_be wbe_, *wbe = &wbe_;
#define G1632_PUT_PAIRS(d_, x_) \
  (raw ? g1632_put_pairs_raw(d_, x_, &c) : g1632_put_pairs(d_, x_, &c))
  if (raw) v16_widen_be_init(wbe);
  g1632_k_init(&c, raw);
#else
  const void *wbe = 0;
#define G1632_PUT_PAIRS(d_, x_) g1632_put_pairs(d_, x_, &c)
  g1632_k_init(&c, 0);
#endif
#if G1632_L
  /* Long calls: one two-vector run, then steps of one vector. A step with
   * surrogates writes its first V16_UNITS - 1 units (the last one starts the
   * next step, which drops it where it is the low half of a pair written
   * here: carry), so each of its pairs is whole inside the vector (paired by
   * VALIGND, one load a step; the pair test one XOR of the masks, as
   * simdutf's icelake kernel does), and every step advances by a constant:
   * the next load's address does not wait for this step's masks (an advance
   * of V16_UNITS - 1 only where the last unit is a high half, by an add with
   * carry, made mixed text slower: perf-decisions.md). Whole-vector stores
   * (g1632_store_wide) where the steps find no surrogate. */
  if (n >= 2 * V16_UNITS && cap >= 2 * V16_UNITS) {
    const char16_t *p = s, *last = p + ((n < cap ? n : cap) - 2 * V16_UNITS);
    char32_t *q = d;
    do {
      vu16 a = v16_load_raw(p), b = v16_load_raw(p + V16_UNITS);
      if (g16_any_surrogate_x2(a, b, be)) break;
      g1632_store(q, be && !raw ? v16_bswap(a) : a, raw, wbe);
      g1632_store(q + V16_UNITS, be && !raw ? v16_bswap(b) : b, raw, wbe);
      p += 2 * V16_UNITS;
      q += 2 * V16_UNITS;
    } while (p <= last);
    i = (size_t)(p - s);
    w = (size_t)(q - d);
  }
  (void)screen_from;
  (void)backoff;
  while (n - i >= V16_UNITS && cap - w >= V16_UTF32_ROOM) {
    vu16 v = g1632_load(s + i, be, raw);
    vm16 high;
    uint64_t m, hi, lo;
    if (!v16_any(v16_top_eq_k(v, c.f800, c.d800))) { /* (so no carry either) */
      g1632_store_wide(d + w, v, raw, wbe);
      i += V16_UNITS;
      w += V16_UNITS;
      continue;
    }
    if (G1632_PUT_PAIRS(d + w, v16_as_v32(v))) { /* emoji text (never with a carry) */
      do {
        i += V16_UNITS;
        w += V16_UNITS / 2;
      } while (n - i >= V16_UNITS && cap - w >= V16_UTF32_ROOM &&
               G1632_PUT_PAIRS(d + w, v16_as_v32(g1632_load(s + i, be, raw))));
      continue;
    }
    high = v16_top_eq_k(v, c.fc00, c.d800);
    m = v16_bits2(high, v16_top_eq_k(v, c.fc00, c.dc00));
    hi = m & G1632_ALL;
    lo = m >> G1632_BITS;
    if (lo ^ ((hi << V16_UNIT_BITS | carry) & G1632_ALL)) { /* a lone surrogate */
      if (g1632_scalar_vector(s, n, &i, V16_UNITS, carry, d, cap, &w, flags, be, &replaced, &r))
        return r;
      carry = 0;
      continue;
    }
    w += g1632_store_paired_own(d + w, v, high, ~lo & (G1632_ALL >> V16_UNIT_BITS), c.offset,
                                raw, wbe);
    carry = (hi >> (V16_UNITS - 2) * V16_UNIT_BITS) & G16_UNIT;
    i += V16_UNITS - 1;
  }
#else
  while (n - i >= V16_UNITS && cap - w >= V16_UNITS) {
    vu16 v, nx;
    vm16 high;
    uint64_t m, hi, lo, bad;
    if (!carry && i >= screen_from && n - i >= 2 * V16_UNITS && cap - w >= 2 * V16_UNITS) {
      start = i;
      do {
        vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
        if (g16_any_surrogate_x2(a, b, be)) break;
        g1632_store(d + w, be && !raw ? v16_bswap(a) : a, raw, wbe);
        g1632_store(d + w + V16_UNITS, be && !raw ? v16_bswap(b) : b, raw, wbe);
        i += 2 * V16_UNITS;
        w += 2 * V16_UNITS;
      } while (n - i >= 2 * V16_UNITS && cap - w >= 2 * V16_UNITS);
      if (i != start) backoff = G1632_BACKOFF_MIN;
      screen_from = i + backoff;
      if (backoff < G1632_BACKOFF_MAX) backoff *= 2;
      continue;
    }
    v = g1632_load(s + i, be, raw);
    if (!carry && !v16_any(v16_top_eq_k(v, c.f800, c.d800))) {
      g1632_store(d + w, v, raw, wbe);
      i += V16_UNITS;
      w += V16_UNITS;
      continue;
    }
    if (n - i == V16_UNITS || cap - w < V16_UTF32_ROOM) break; /* (nx would be past the end) */
    nx = g1632_load(s + i + 1, be, raw);
    if (G1632_PUT_PAIRS(d + w, v16_as_v32(carry ? nx : v))) {
      /* Emoji text: vectors of pairs follow one another, each with the
       * same carry; a loop of their own keeps the rest of the body out of
       * the way */
      const size_t on = carry ? 1 : 0;
      do {
        i += V16_UNITS;
        w += V16_UNITS / 2;
      } while (n - i >= V16_UNITS + 1 && cap - w >= V16_UTF32_ROOM &&
               G1632_PUT_PAIRS(d + w, v16_as_v32(g1632_load(s + i + on, be, raw))));
      continue;
    }
    high = v16_top_eq_k(v, c.fc00, c.d800);
    m = v16_bits2(high, v16_top_eq_k(v, c.fc00, c.dc00));
    hi = m & G1632_ALL;
    lo = m >> G1632_BITS;
    bad = (hi & ~(lo >> V16_UNIT_BITS | (g16_is_low(s, i + V16_UNITS, be) ? G1632_LAST : 0))) |
          (lo & ~(hi << V16_UNIT_BITS | carry));
    if (bad) {
      if (g1632_scalar_vector(s, n, &i, V16_UNITS, carry, d, cap, &w, flags, be, &replaced, &r))
        return r;
      carry = 0;
      continue;
    }
    w += g1632_store_paired(d + w, v, nx, high, ~lo & G1632_ALL, c.offset, 0, raw, wbe);
    carry = hi & G1632_LAST ? G16_UNIT : 0;
    i += V16_UNITS;
  }
#endif
#ifdef V_MASKED_TAIL
  while (i < n) { /* the tail, or where the room is short: exact steps */
    size_t k = n - i < V16_UNITS ? n - i : V16_UNITS, count;
    uint64_t last = G16_UNIT << ((k - 1) * V16_UNIT_BITS), m, hi, lo, bad;
    vu16 v = raw ? v16_load_tail_raw(s + i, k) : v16_load_tail(s + i, k, be), nx;
    /* (zeros after the k units: no surrogates) */
    vm16 high;
    if (!carry && !v16_any(v16_top_eq_k(v, c.f800, c.d800))) {
      if (cap - w < k) break;
      v16_store_utf32_tail(d + w, k, raw ? v16_bswap(v) : v);
      i += k;
      w += k;
      continue;
    }
    nx = raw ? v16_load_tail_raw(s + i + 1, n - i - 1) : v16_load_tail(s + i + 1, n - i - 1, be);
    high = v16_top_eq_k(v, c.fc00, c.d800);
    m = v16_bits2(high, v16_top_eq_k(v, c.fc00, c.dc00));
    hi = m & G1632_ALL;
    lo = m >> G1632_BITS;
    bad = (hi & ~(lo >> V16_UNIT_BITS | (n - i > k && g16_is_low(s, i + k, be) ? last : 0))) |
          (lo & ~(hi << V16_UNIT_BITS | carry));
    if (bad) {
      if (g1632_scalar_vector(s, n, &i, k, carry, d, cap, &w, flags, be, &replaced, &r)) return r;
      carry = 0;
      continue;
    }
    count = k - G16_COUNT(lo);
    if (count > cap - w) break;
    g1632_store_paired(d + w, v, nx, high, ~lo & (last | (last - 1)), c.offset, 1, raw, wbe);
    carry = hi & last ? G16_UNIT : 0;
    i += k;
    w += count;
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, w, replaced);
  start = i + (carry ? 1 : 0);
  r = g1632_scalar(s + start, n - start, d + w, cap - w, flags, be);
  return utfxi_result_after(&r, start, w, replaced);
}

/* The body after a first vector without surrogates, for an input of one
 * vector (nothing more to do: the body's constants would cost it), and for
 * a long input, whose first step is then of fewer units where that makes
 * the destination vector-aligned (the run loop is store-bound, and a
 * store across two cache lines costs two); only here: realigning at every
 * run slowed avx2 on mixed text (docs/perf-decisions.md, 'UTF-16 ->
 * UTF-32'). */
UTFXI_INLINE utfx_result G1632_KERNEL(const char16_t *s, size_t n, char32_t *d, size_t cap,
                               unsigned flags, int be) {
  size_t k = 0;
  utfx_result r;
  if (cap >= V16_UNITS && (n == V16_UNITS || (UTFXI_ALIGN_HEAD(*s, n) && (uintptr_t)d % V_BYTES))) {
    vu16 v = v16_load(s, be);
    if (!v16_any(v16_top_eq(v, 0xF800, 0xD800))) {
      v16_store_utf32(d, v);
      if (n == V16_UNITS) return utfxi_result(UTFX_OK, n, n, 0);
      k = utfxi_aligning_step(d, 4, V_BYTES, 0, 1);
    }
  }
  r = G1632_BODY(s + k, n - k, d + k, cap - k, flags, be);
  return utfxi_result_after(&r, k, k, 0);
}

#undef G1632_PUT_PAIRS
#undef G1632_BODY
#undef G1632_KERNEL
#undef G1632_L
#undef G1632_R
