/* The body of the UTF-16 / UTF-32 counts of UTF-8 (generic_utf8_length.h
 * says how they work), included there once per form: G8_COUNT_UTF8 the
 * form's name, G8_ERRORS4_W the check it runs in the four-vector steps
 * (generic_utf8_check_w.h: with or without the nibble masks), G8_FORM_MODE
 * how it counts (G8_MODE, or G8_BITS for both counts). */

UTFXI_INLINE size_t G8_COUNT_UTF8(const char *src, size_t n, int utf16) {
  const unsigned char *s = (const unsigned char *)src;
  const size_t step = 4 * V_BYTES;
  size_t i = 0, count = 0;
  int fresh = 1; /* at a boundary, no context usable */
  vu8 pending = v_zero(), err, v;
  for (;;) {
    if (fresh) {
      if (n - i < V_BYTES) break;
      size_t adv;
      v = v_load(s + i);
      if (!v_any_high(v)) { /* ASCII: nothing to check */
        adv = i ? V_BYTES : g8_first_step(s, n, v, &pending);
        count += adv;
        i += adv;
        pending = v_zero();
        fresh = 0;
        continue;
      }
      err = g_utf8_errors_alone(v);
      if (v_any(err)) {
        size_t q = i; /* locals whose address is taken live in memory: not i, count */
        count += utfxi_utf8_count_steps(s, n, i + g8_first_error(err) + 1, &q, utf16);
        i = q;
        continue;
      }
      if (i) {
        adv = V_BYTES;
        pending = g_utf8_ends_inside(v);
      } else {
        adv = g8_first_step(s, n, v, &pending);
      }
      count += g8_block_count(v, g8_live(adv), utf16);
      i += adv;
      fresh = 0;
    } else if (n - i >= step) {
      /* The steps of four vectors, in a loop of their own: its constants
       * made once and pinned, the UTF-16 tally in a register (in the outer
       * loop, which calls the scalar steps, gcc rebuilt the constants and
       * kept the tally on the stack every step). */
      struct g_utf8_check_k k;
      /* UTF-16 units as byte weights by high nibble (G8_AFTER):
       * one lookup replaces two compares and their mask counts. */
      vu8 weights = V_TABLE16(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 2);
      vu8 tally = v_zero(); /* UTF-16 units (G8_AFTER) */
      size_t none = 0;      /* bytes that add no unit (G8_BITS) */
      int why = 0;          /* 1: ASCII after an unfinished character, 2: an error */
      /* One pointer counts the steps (with i and count advanced too, gcc
       * kept copies of both and spent scalar operations a step on them);
       * with G8_BITS, the count is the bytes passed less the bytes that
       * add no unit. */
      const unsigned char *p = s + i, *const last = s + n - step, *const start = p;
      g_utf8_check_k_init(&k);
      g_utf8_check_k_pin(&k);
      if (G8_FORM_MODE(utf16) == G8_AFTER) V_PIN(weights);
      do {
        vu8 v0 = v_load(p), v1 = v_load(p + V_BYTES);
        vu8 v2 = v_load(p + 2 * V_BYTES), v3 = v_load(p + 3 * V_BYTES);
        if (!v_any_high(v_or(v_or(v0, v1), v_or(v2, v3)))) {
          /* whether the step before ends inside a character: from its
           * last vector, loaded again (kept from step to step, it took a
           * register, and avx2 then kept it and the tally on the stack) */
          if (p != start) pending = g_utf8_ends_inside(v_load(p - V_BYTES));
          if (v_any(pending)) {
            why = 1;
            break;
          }
          if (G8_FORM_MODE(utf16) == G8_AFTER) count += step;
          p += step;
          continue;
        }
        if (G8_FORM_MODE(utf16) == G8_BITS) {
          size_t c;
          if (v_any(G8_ERRORS4_W(&k, p, v0, v1, v2, v3, utf16, &c))) {
            why = 2;
            break;
          }
          none += c;
        } else {
          if (v_any(g_utf8_errors4_k(&k, p, v0, v1, v2, v3))) {
            why = 2;
            break;
          }
          if (utf16)
            tally = g8_utf16_count4(&k, weights, tally, v0, v1, v2, v3);
          else
            count += g8_block_count(v0, G8_ALL, 0) + g8_block_count(v1, G8_ALL, 0) +
                     g8_block_count(v2, G8_ALL, 0) + g8_block_count(v3, G8_ALL, 0);
        }
        p += step;
      } while (p <= last);
      if (!why && p != start) pending = g_utf8_ends_inside(v_load(p - V_BYTES));
      if (G8_FORM_MODE(utf16) != G8_AFTER) {
        count += (size_t)(p - s) - i - none;
        if (utf16) count += g8_lead4s_before(p) - g8_lead4s_before(start);
      } else if (utf16) {
        count += v_sum_lanes(tally);
      }
      i = (size_t)(p - s);
      if (why) {
        size_t c = count;
        i = why == 1 ? utfxi_utf8_recount(s, n, i, i + step, &c, utf16)
                     : g8_count_error_step(s, n, i, &c, utf16);
        count = c;
        fresh = 1;
      }
    } else if (n - i >= V_BYTES) {
      v = v_load(s + i);
      if (!v_any_high(v) && !v_any(pending)) {
        count += V_BYTES; /* ASCII after a complete character */
        i += V_BYTES;
        continue;
      }
      pending = g_utf8_ends_inside(v);
      err = g_utf8_block_errors(s + i, v);
      if (v_any(err)) {
        size_t c = count;
        i = g8_count_through_error(s, n, i, v, g8_first_error(err), &c, utf16);
        count = c;
        fresh = 1;
        continue;
      }
      count += g8_block_count(v, G8_ALL, utf16);
      i += V_BYTES;
    } else {
      break;
    }
  }
#ifdef V_MASKED_TAIL
  { /* n - i < V_BYTES bytes left, zero-padded: the zeros expose an
     * unfinished character */
    size_t r = n - i;
    v = v_load_tail(s + i, r);
    if (fresh) {
      if (v_any(g_utf8_errors_alone(v)))
        return count + utfxi_utf8_count_steps(s, n, n, &i, utf16);
    } else {
      err = g_utf8_error_bytes(v, v_load_tail(s + i - 1, r + 1), v_load_tail(s + i - 2, r + 2),
                               v_load_tail(s + i - 3, r + 3));
      if (v_any(err)) {
        utfxi_utf8_recount(s, n, i, n, &count, utf16);
        return count;
      }
    }
    return count + g8_block_count(v, g8_live(r), utf16);
  }
#else
  /* n - i < V_BYTES bytes left: the scalar kernel, from the end of the
   * character that straddles i (unless fresh: i is a character boundary). */
  if (!fresh) {
    if (!v_any(pending)) { /* i is a boundary: ASCII here, no call */
      size_t a = i;
      while (n - i >= 8 && !(utfxi_load64(s + i) & 0x8080808080808080ull)) i += 8;
      count += i - a;
      if (i == n) return count;
    } else {
      i = utfxi_utf8_recount(s, n, i, i, &count, utf16);
    }
  }
  return count + (utf16 ? utfxi_utf16_length_from_utf8_scalar((const char *)s + i, n - i)
                        : utfxi_utf32_length_from_utf8_scalar((const char *)s + i, n - i));
#endif
}

#undef G8_COUNT_UTF8
#undef G8_ERRORS4_W
#undef G8_FORM_MODE
