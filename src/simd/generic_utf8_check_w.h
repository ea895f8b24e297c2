/* The check with its count of units (generic_utf8_check.h), included once
 * per form: G_UTF8_NIB 0 (generic_utf8_check.h: validation and the lengths'
 * short calls), 1 (generic_utf8_length.h, long calls on a vocabulary with
 * V_LOOKUP_NIBBLES: the lookups index by the bytes, no nibble masks);
 * G_UTF8_KW and G_UTF8_ERRORS4_W the form's names, declared by the includer.
 * The form is a literal, not a parameter, so the first form's code is what it
 * is without the second (a flag folded after inlining moved the short
 * kernel's registers: docs/perf-decisions.md, 'UTF-8 lengths'). */

/* Nonzero bytes mark the bytes of cur that end an ill-formed pair or break
 * the continuation count, given the three bytes before each. With w (not
 * NULL): bit 7 of each byte of *w is set where that byte of cur adds no
 * unit to a count of characters (its other bits mean nothing). UTF-32: the
 * continuation bytes (bit 7 of the current-byte lookup, UTFXI_LK_TWO_CONTS,
 * is set exactly for them). UTF-16 (utf16): the continuation bytes but the
 * last of a 4-byte character (there the byte three back is >= F0: bit 7 of
 * `fourth`), so that a 4-byte character counts its two units at its lead
 * and its last byte. */
UTFXI_INLINE vu8 G_UTF8_KW(const struct g_utf8_check_k *k, vu8 cur, vu8 prev1, vu8 prev2,
                           vu8 prev3, int utf16, vu8 *w) {
#if G_UTF8_NIB
  vu8 a = v_lookup_hi4(k->prev_hi, prev1);
  vu8 b = v_lookup_lo4(k->prev_lo, prev1);
  vu8 c = v_lookup_hi4(k->cur_hi, cur);
#else
  vu8 a = v_lookup16(k->prev_hi, v_shr4(prev1, k->nibble));
  vu8 b = v_lookup16(k->prev_lo, v_and(prev1, k->nibble));
  vu8 c = v_lookup16(k->cur_hi, v_shr4(cur, k->nibble));
#endif
  vu8 special = v_and(v_and(a, b), c);
  /* 0x80 where the byte two back is >= E0 or the byte three back >= F0
   * (saturating subtraction leaves bit 7 set exactly then): there a
   * continuation after a continuation is expected, so XOR flips it. */
  vu8 third = v_subs(prev2, k->third);
  vu8 fourth = v_subs(prev3, k->fourth);
  if (w) *w = utf16 ? v_xor(c, fourth) : c;
  return v_xor(special, v_or_and(third, fourth, k->top));
}

/* g_utf8_errors4_k, and in *none how many bytes of the four vectors add no
 * unit (G_UTF8_KW), from the masks of their bit 7 (v_high_bits). */
UTFXI_INLINE vu8 G_UTF8_ERRORS4_W(const struct g_utf8_check_k *k, const unsigned char *p, vu8 v0,
                                  vu8 v1, vu8 v2, vu8 v3, int utf16, size_t *none) {
  vu8 w;
  size_t c;
  vu8 err = G_UTF8_KW(k, v0, v_load(p - 1), v_load(p - 2), v_load(p - 3), utf16, &w);
  c = g_popcnt64(v_high_bits(w));
  V_SEQUENCE(err);
  err = v_or(err, G_UTF8_KW(k, v1, v_load(p + V_BYTES - 1), v_load(p + V_BYTES - 2),
                            v_load(p + V_BYTES - 3), utf16, &w));
  c += g_popcnt64(v_high_bits(w));
  V_SEQUENCE(err);
  err = v_or(err, G_UTF8_KW(k, v2, v_load(p + 2 * V_BYTES - 1), v_load(p + 2 * V_BYTES - 2),
                            v_load(p + 2 * V_BYTES - 3), utf16, &w));
  c += g_popcnt64(v_high_bits(w));
  V_SEQUENCE(err);
  err = v_or(err, G_UTF8_KW(k, v3, v_load(p + 3 * V_BYTES - 1), v_load(p + 3 * V_BYTES - 2),
                            v_load(p + 3 * V_BYTES - 3), utf16, &w));
  *none = c + g_popcnt64(v_high_bits(w));
  return err;
}

#undef G_UTF8_NIB
#undef G_UTF8_KW
#undef G_UTF8_ERRORS4_W
