/* The body and driver of the UTF-8 -> UTF-16 / UTF-32 kernels (generic_utf8_transcode.h
 * says how it works), included there once per form: G_U8_LONG 0 for any
 * call, 1 for the long calls' kernels (V_UTF8_STRIDE: the fixed-stride
 * steps), G_U8_BODY and G_U8_DRIVER the form's names. The form is a literal, not a
 * parameter, so the short form's code is exactly what it is without the
 * long one (any count of general blocks in a shared loop, even one that
 * folds away, changed gcc's code for the short kernels:
 * docs/perf-decisions.md, 'UTF-8 -> UTF-16 / UTF-32'). */

/* From pos->i on, with the constants of the steps made (and pinned). */
UTFXI_INLINE utfx_result G_U8_BODY(const unsigned char *s, size_t n, void *dst, size_t cap,
                                   unsigned flags, enum utfxi_target t, struct g_u8_pos pos) {
  struct utfxi_u8state st = {0, 0, 0};
  struct g_utf8_check_k ck;
  struct v_utf8_units_k uk;
  struct g_u8_bytes kb;
  int status = 0;
#if G_U8_LONG
  /* General blocks in a row (a run or an ASCII block between resets it; a
   * block of 2-byte characters does not), and how many make an
   * entry into the fixed-stride steps: 1 at first (a 1 KiB call of mixed
   * text is only 16 blocks), then 3 after an entry that took fewer than 3
   * blocks, doubled (up to 48) after each further such entry, 3 again
   * after a longer one. CJK text alternates one to five general blocks
   * with runs of 3-byte characters, and each entry that leaves soon costs
   * about a step (Japanese: 103 entries, all of 0 or 1 block, where 2 are
   * left). */
  int gen = 0, need = 1;
#endif
  V_CONST8(kb.c0, 0xC0);
  V_CONST8(kb.c2, 0xC2);
  V_CONST8(kb.e0, 0xE0);
  V_CONST8(kb.f0, 0xF0);
#ifdef V_UTF8_PIN_CHECK
  g_utf8_check_k_init(&ck);
  g_utf8_check_k_pin(&ck);
#else
  G_UTF8_CHECK_K_MAKE(&ck, V_CONST8);
  G_UTF8_CHECK_K_HOLD(&ck, V_LOADED);
#endif
  v_utf8_units_k_init(&uk, t);
  while (n - pos.i >= V_BYTES && cap - pos.w >= V_BYTES) {
#ifdef V32_SPREAD3_READS
    if (pos.try3) {
      /* runs of 3-byte characters (CJK): G_RUN3_BYTES a step while they last */
      size_t from = pos.i;
      pos.try3 = 0;
      while (n - pos.i >= V_BYTES && cap - pos.w >= V_BYTES &&
             g_utf8_put_run3(s + pos.i, dst, pos.w, t)) {
        pos.i += G_RUN3_BYTES;
        pos.w += G_RUN3_CHARS;
      }
#if G_U8_LONG
      if (pos.i != from) gen = 0;
#endif
      if (pos.i != from) continue;
    }
    if (pos.try4) {
      /* runs of 4-byte characters (emoji): V_BYTES a step, checked in their
       * lanes, while they last */
      size_t from = pos.i, u;
      pos.try4 = 0;
      while (n - pos.i >= V_BYTES && cap - pos.w >= V_BYTES &&
             (u = g_utf8_put_run4_checked(s + pos.i, dst, pos.w, t)) != 0) {
        pos.i += V_BYTES;
        pos.w += u;
      }
#if G_U8_LONG
      if (pos.i != from) gen = 0;
#endif
      if (pos.i != from) continue;
    }
#endif
#if G_U8_LONG
    {
      /* after `need` general blocks in a row, with no run between them */
      if (gen >= need && pos.i - pos.clean >= 4) {
        size_t from = pos.i;
        gen = 0;
        status = g_u8_stride(s, n, dst, cap, flags, t, &kb, &ck, &uk, &st, &pos);
        if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
        need = pos.i - from > 2 * V_BYTES ? 3 : need < 3 ? 3 : need < 48 ? 2 * need : 48;
        if (pos.i != from) continue;
      }
      /* the step counts a general block (one it takes through the lookup
       * check: a byte of a 3- or 4-byte character) in its own test */
      status = g_utf8_transcode_step(s, n, dst, cap, flags, t, &kb, &ck, &uk, &st, &pos, 0, &gen);
      if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
      /* (the 2-byte check's constant in a register through the loop: gcc
       * left it in a stack slot) */
      V_PIN(kb.c2);
    }
#else
    status = g_utf8_transcode_step(s, n, dst, cap, flags, t, &kb, &ck, &uk, &st, &pos, 0, NULL);
    if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
#endif
  }
#ifdef V_MASKED_TAIL
  /* A last step for 8 bytes or more: fewer cost the scalar steps less (on
   * mixed-script text a block costs what 8 of its bytes do there) */
  if (n - pos.i >= 8 && n - pos.i < V_BYTES && cap - pos.w >= n - pos.i) {
    status = g_utf8_transcode_step(s, n, dst, cap, flags, t, &kb, &ck, &uk, &st, &pos, 1, NULL);
    if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
  }
  st.i = pos.i;
  st.w = pos.w;
  status = utfxi_utf8_steps(s, n, n, &st, dst, cap, flags, t);
  return utfxi_result(status ? (utfx_status)status : UTFX_OK, st.i, st.w, st.replaced);
#else
  st.i = pos.i;
  st.w = pos.w;
  return utfxi_utf8_rest((const char *)s, n, &st, dst, cap, flags, t);
#endif
}

/* The kernel: ASCII from the start, then the body. */
UTFXI_INLINE utfx_result G_U8_DRIVER(const char *src, size_t n, void *dst, size_t cap,
                                     unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  struct g_u8_pos pos = {0, 0, 0, 0, 0};
  /* ASCII from the start (short inputs often are), before the other steps'
   * constants are made: made at the call's entry, they cost short ASCII
   * calls much (docs/perf-decisions.md, 'UTF-8 -> UTF-16/UTF-32'). */
  while (n - pos.i >= V_BYTES && cap - pos.w >= V_BYTES) {
    vu8 v = v_load(s + pos.i);
    if (v_high_bits(v)) return G_U8_BODY(s, n, dst, cap, flags, t, pos);
    g_u8_ascii(s, n, dst, cap, t, &pos, v);
  }
#if G_U8_LONG
  /* The rest, shorter than a block: the kernel of any call (called, not
   * inlined: a copy of its body here moved this kernel's registers, and
   * blocks of 2-byte characters lost). */
  if (pos.i == n) return utfxi_result(UTFX_OK, n, pos.w, 0);
#ifdef V_MASKED_TAIL
  /* an ASCII rest in one masked step, as the short kernel's driver does
   * (a call for it cost short ASCII calls a measurable share:
   * docs/perf-decisions.md, 'The fixed-stride steps' masks from compares') */
  if (n - pos.i >= 8 && cap - pos.w >= n - pos.i) {
    vu8 v = v_load_tail(s + pos.i, n - pos.i);
    if (!v_high_bits(v)) {
      v_put_ascii_tail(dst, pos.w, v, n - pos.i, t);
      return utfxi_result(UTFX_OK, n, pos.w + (n - pos.i), 0);
    }
  }
#endif
  {
    utfx_result r =
        t == UTFXI_T_UTF32
            ? G_NAME(convert_utf8_to_utf32)(src + pos.i, n - pos.i, (char32_t *)dst + pos.w,
                                            cap - pos.w, flags)
        : t == UTFXI_T_UTF16BE
            ? G_NAME(convert_utf8_to_utf16be)(src + pos.i, n - pos.i, (char16_t *)dst + pos.w,
                                              cap - pos.w, flags)
            : G_NAME(convert_utf8_to_utf16le)(src + pos.i, n - pos.i, (char16_t *)dst + pos.w,
                                              cap - pos.w, flags);
    r.read += pos.i;
    r.written += pos.w;
    return r;
  }
#else
#ifdef V_MASKED_TAIL
  if (n - pos.i >= 8 && cap - pos.w >= n - pos.i) {
    vu8 v = v_load_tail(s + pos.i, n - pos.i);
    if (v_high_bits(v)) return g_utf8_transcode_body(s, n, dst, cap, flags, t, pos);
    v_put_ascii_tail(dst, pos.w, v, n - pos.i, t);
    return utfxi_result(UTFX_OK, n, pos.w + (n - pos.i), 0);
  }
#endif
  if (pos.i == n) return utfxi_result(UTFX_OK, n, pos.w, 0);
  return g_utf8_transcode_body(s, n, dst, cap, flags, t, pos);
#endif
}

#undef G_U8_LONG
#undef G_U8_BODY
#undef G_U8_DRIVER
