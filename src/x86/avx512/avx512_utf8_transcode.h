/* AVX-512 UTF-8 to UTF-16LE/BE and UTF-32: the kernel body shared by
 * avx512_utf8_to_utf16.c and avx512_utf8_to_utf32.c (static inline, with the
 * target form a compile-time constant in each wrapper).
 *
 * Algorithm (in the spirit of Clausecker and Lemire, "Transcoding Unicode
 * characters with AVX-512 instructions", SPE 2023): each step loads 64
 * bytes that start at a character boundary.
 *  - All ASCII: widen and store 64 units.
 *  - Otherwise check the bytes (lookup validation, generic_utf8_check.h). A
 *    block with an error goes to the scalar steps, which convert through the
 *    error and return at a character boundary.
 *  - Well-formed: the characters that end before the block's last character
 *    start (or all 64 bytes when the last byte is ASCII) are converted, all in
 *    the byte domain: at the last byte of each character, the bytes one and
 *    two back (masked permutes, zero where they belong to another character)
 *    give the low and the high byte of its code point with a few shifts and
 *    bit selects. A 4-byte character writes its high surrogate at its third
 *    byte and its low surrogate at its fourth (UTF-16), or a third byte of
 *    code point at its fourth (UTF-32). VPCOMPRESSB keeps the bytes of the
 *    positions that write a unit; byte permutes interleave them into 16- or
 *    32-bit units. (Latin-1 output has a kernel of its own,
 *    avx512_utf8_to_latin1.c.)
 *  - A block of sixteen 4-byte characters (emoji) is decoded in its 32-bit
 *    lanes; after a block of 3-byte characters only (CJK), 48 bytes a step
 *    go the same way while they last (generic_utf8_runs.h).
 *  - Stores are masked to the units produced, so nothing past dst + written
 *    is ever written.
 * Bounds: a step needs 64 readable bytes and room for 64 units (it writes at
 * most one unit per input byte), so `cap` is checked once per step. The last
 * bytes of the input (8 to 63) are one more step, loaded zero-padded, when
 * there is room for a unit each; fewer, and the end of a destination that is
 * too small, are done by the scalar steps, which stop at a character
 * boundary. */
#ifndef UTFX_X86_AVX512_UTF8_TRANSCODE_H
#define UTFX_X86_AVX512_UTF8_TRANSCODE_H

#include "avx512_utf8_common.h"
#include "../../simd/generic_utf8_runs.h"

/* Constants of the step below, made once per call and pinned in registers
 * (left as constants, gcc made each again in the loop: a move to a general
 * register and a broadcast on port 5, which the permutes and compresses
 * need; docs/perf-decisions.md, 'AVX-512 vocabulary'). */
struct utfxi_avx512_u8consts {
  __m512i iota, one, idx16_a, idx16_b, k_e0, k_c0, k_c2, k_7f, k_0f, k_f0;
  __m512i idx32[4]; /* UTF-32: the interleaving index of each quarter */
  struct g_utf8_check_k check;
};

/* One step of utfxi_avx512_from_utf8 at *pi: a block of 64 bytes (with room
 * for 64 units), or with `last` the input's last r = n - *pi < 64 bytes, with
 * room for r units, as one zero-padded block (a zero after them exposes an
 * unfinished character; the scalar steps would take far longer:
 * docs/perf-decisions.md, 'UTF-8 -> UTF-16/UTF-32').
 * Forced inline twice, so that the loop's copy has no test of `last`.
 * Advances *pi and *pw; returns 0, or the status to stop with (st then holds
 * the result). Bytes [*pclean, *pi) are whole characters already checked: the
 * look-behind of the block may read them and nothing before them (issue 10:
 * an ASCII step that advanced 1-2 bytes must not let the next block load
 * from before src). */
UTFXI_INLINE int utfxi_avx512_utf8_step(const unsigned char *s, size_t n, void *dst, size_t cap,
                                        unsigned flags, enum utfxi_target t,
                                        const struct utfxi_avx512_u8consts *kc,
                                        struct utfxi_u8state *st, size_t *pi, size_t *pw,
                                        size_t *pclean, int *try3, int last) {
  const int utf16 = t == UTFXI_T_UTF16LE || t == UTFXI_T_UTF16BE;
  char16_t *d16 = (char16_t *)dst;
  char32_t *d32 = (char32_t *)dst;
  size_t i = *pi, w = *pw;
  const unsigned char *p = s + i;
  const size_t r = last ? n - i : 64;
  __m512i v, prev1, prev2, prev3, p1z, p2z, lo, hi, b2 = _mm512_setzero_si512(), clo, chi;
  __mmask64 high, err, cont, lead3, ends, keep, lead4 = 0;
  size_t e, k;
  int status;
  v = last ? _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)r), (const void *)p)
           : _mm512_loadu_si512((const void *)p);
  high = _mm512_movepi8_mask(v);
  if (!high && last) {
    v_put_ascii_tail(dst, w, v, r, t);
    *pi = i + r;
    *pw = w + r;
    return 0;
  }
  if (!high) {
    /* All 64 units are stored (each is output that the call writes in any
     * case), but before a run of the loop below the step advances only far
     * enough to make the destination 64-byte aligned if it is not: the
     * run's stores then never straddle cache lines. (Not for a shorter
     * input: what the step leaves costs a step more, more than the
     * alignment saves, and far more in the scalar steps, where it once
     * went: docs/perf-decisions.md, 'UTF-8 -> UTF-16/UTF-32'.) */
    size_t unit = t == UTFXI_T_UTF32 ? 4 : 2;
    size_t adv = utfxi_aligning_step((unsigned char *)dst + w * unit, unit, 64, 64,
                                     n - i >= 320 && cap - w >= 320);
    v_put_ascii_tail(dst, w, v, 64, t);
    i += adv;
    w += adv;
    /* ASCII runs: 256 bytes per test while they last. */
    while (n - i >= 256 && cap - w >= 256) {
      const unsigned char *q = s + i;
      __m512i v0 = _mm512_loadu_si512((const void *)q);
      __m512i v1 = _mm512_loadu_si512((const void *)(q + 64));
      __m512i v2 = _mm512_loadu_si512((const void *)(q + 128));
      __m512i v3 = _mm512_loadu_si512((const void *)(q + 192));
      if (_mm512_movepi8_mask(_mm512_ternarylogic_epi64(v0, v1, _mm512_or_si512(v2, v3), 0xFE)))
        break;
      v_put_ascii(dst, w, v0, t);
      v_put_ascii(dst, w + 64, v1, t);
      v_put_ascii(dst, w + 128, v2, t);
      v_put_ascii(dst, w + 192, v3, t);
      i += 256;
      w += 256;
    }
    *pi = i;
    *pw = w;
    return 0;
  }
  cont = utfxi_avx512_continuations(v, kc->k_c0);
  lead3 = _mm512_cmpge_epu8_mask(v, kc->k_e0);
  if (!lead3) {
    /* Only ASCII and 2-byte characters: well-formed exactly when every
     * continuation follows a lead, every lead is followed by kc->one, and no
     * lead is C0/C1 (a lead in the last byte is the next block's). The
     * byte before each continuation is then in the block. */
    __mmask64 leads = high & ~cont;
    err = ((leads << 1) ^ cont) | _mm512_mask_cmplt_epu8_mask(leads, v, kc->k_c2);
    p1z = utfxi_avx512_back(cont, v, 1);
    p2z = _mm512_setzero_si512();
    prev1 = prev2 = prev3 = p2z; /* unused on this path */
  } else {
    /* The block starts at a character boundary, after i - clean bytes
     * of checked whole characters (none at the start, or after the scalar
     * steps went through an error: ill-formed bytes before the block
     * could hide kc->one in it; and the last block's loads of them would read
     * past the input). */
    struct utfxi_avx512_context c = utfxi_avx512_lookbehind(p, last ? 0 : i - *pclean, v);
    prev1 = c.prev1;
    prev2 = c.prev2;
    prev3 = c.prev3;
    err = utfxi_avx512_utf8_errors(&kc->check, v, prev1, prev2, prev3);
    p1z = _mm512_maskz_mov_epi8(cont, prev1);
    p2z = _mm512_maskz_mov_epi8(cont & cont << 1, prev2);
  }
  if (err) {
    st->i = i;
    st->w = w;
    status = utfxi_utf8_steps(s, n, i + (size_t)_tzcnt_u64(err) + 1, st, dst, cap, flags, t);
    *pi = *pclean = st->i;
    *pw = st->w;
    return status;
  }
  if (lead3 && !last) {
    __mmask64 f0 = _mm512_cmpge_epu8_mask(v, kc->k_f0);
    if (f0 == 0x1111111111111111ull) {
      /* sixteen 4-byte characters (emoji runs), all whole: the block is
       * well-formed with a 4-byte lead at every fourth byte */
      *pw = w + g_utf8_put_run4(v, dst, w, t);
      *pi = i + 64;
      return 0;
    }
    /* A lead at every third byte, the rest continuations: 3-byte
     * characters only, and the next bytes may be more of them. */
    *try3 = !f0 && cont == 0x6DB6DB6DB6DB6DB6ull;
  }
  /* Where the next step starts: after the block if its last byte is ASCII,
   * else at the last character start (among the last four bytes, as the
   * block is well-formed). Computed from memory with scalar operations,
   * which keeps the chain from kc->one step's load to the next kc->one's short. */
  if (last) {
    e = r; /* no error: the block ends with a whole character */
  } else {
    uint32_t tail;
    memcpy(&tail, p + 60, 4);
    /* 1 when the last byte is ASCII: the block then ends with a whole
     * character (and that byte is the last start), so e becomes 64. */
    e = (size_t)(~tail >> 31);
    tail = (tail & 0xC0C0C0C0u) ^ 0x80808080u; /* nonzero bytes start characters */
    e += 60 + (31 - (size_t)_lzcnt_u32(tail)) / 8;
  }
  /* The last byte of a character is followed by a non-continuation. */
  ends = (~cont >> 1 | (uint64_t)(e == 64) << 63) & _bzhi_u64(~0ull, (unsigned)e);
  /* Low byte: 6 bits of the last byte (7 for ASCII: a continuation has
   * bit 6 clear), 2 from the byte before. High byte: 4 bits of the byte
   * before, 4 of the kc->one before that. Shifts are on 16-bit lanes; the
   * masks drop what crosses into the neighbouring byte. */
  lo = _mm512_ternarylogic_epi64(
      v, _mm512_and_si512(_mm512_slli_epi16(p1z, 6), kc->k_c0),
      kc->k_7f, 0xEC); /* (A & C) | B */
  hi = _mm512_ternarylogic_epi64(_mm512_srli_epi16(p1z, 2), _mm512_slli_epi16(p2z, 4),
                                 kc->k_0f, 0xE4); /* C ? A : B */
  if (lead3)
    lead4 = _mm512_cmpge_epu8_mask(v, kc->k_f0) & _bzhi_u64(~0ull, (unsigned)e);
  keep = ends;
  if (lead4) {
    __mmask64 third = lead4 << 2, fourth = lead4 << 3;
    if (utf16) {
      /* Third byte: high surrogate 0xD7C0 + (cp >> 10), where cp >> 10 is
       * (lead & 7) << 8 | (byte2 & 0x3F) << 2 | byte3 >> 4 & 3. */
      __m512i u_lo = _mm512_ternarylogic_epi64(_mm512_slli_epi16(prev1, 2),
                                               _mm512_srli_epi16(v, 4),
                                               utfxi_avx512_bytes(0xFC), 0xE4);
      __m512i hs_lo = _mm512_sub_epi8(u_lo, utfxi_avx512_bytes(0x40));
      __mmask64 borrow = _mm512_cmplt_epu8_mask(u_lo, utfxi_avx512_bytes(0x40));
      __m512i hs_hi = _mm512_add_epi8(_mm512_and_si512(prev2, utfxi_avx512_bytes(7)),
                                      utfxi_avx512_bytes(0xD8));
      hs_hi = _mm512_mask_sub_epi8(hs_hi, borrow, hs_hi, kc->one);
      lo = _mm512_mask_mov_epi8(lo, third, hs_lo);
      hi = _mm512_mask_mov_epi8(hi, third, hs_hi);
      /* Fourth byte: low surrogate 0xDC00 | (cp & 0x3FF); lo is right. */
      hi = _mm512_mask_mov_epi8(
          hi, fourth,
          _mm512_ternarylogic_epi64(_mm512_srli_epi16(prev1, 2), utfxi_avx512_bytes(3),
                                    utfxi_avx512_bytes(0xDC), 0xEA)); /* (A & B) | C */
      keep |= third;
    } else {
      /* Fourth byte: bits 16..20 = (lead & 7) << 2 | byte2 >> 4 & 3. */
      b2 = _mm512_maskz_mov_epi8(
          fourth, _mm512_ternarylogic_epi64(_mm512_slli_epi16(prev3, 2),
                                            _mm512_srli_epi16(prev2, 4),
                                            utfxi_avx512_bytes(0x1C), 0xE4));
      b2 = _mm512_and_si512(b2, utfxi_avx512_bytes(0x1F));
    }
  }
  k = (size_t)_mm_popcnt_u64(keep);
  clo = _mm512_maskz_compress_epi8(keep, lo);
  if (utf16) {
    chi = _mm512_maskz_compress_epi8(keep, hi);
    _mm512_mask_storeu_epi16(d16 + w, _bzhi_u32(~0u, (unsigned)k),
                             _mm512_permutex2var_epi8(clo, kc->idx16_a, chi));
    /* No branch on k (it varies from block to block): a zero mask stores
     * nothing. */
    _mm512_mask_storeu_epi16(d16 + w + 32, (__mmask32)(_bzhi_u64(~0ull, (unsigned)k) >> 32),
                             _mm512_permutex2var_epi8(clo, kc->idx16_b, chi));
  } else {
    __mmask64 live = _bzhi_u64(~0ull, (unsigned)k);
    __m512i cb2 = b2;
    chi = _mm512_maskz_compress_epi8(keep, hi);
    /* Four quarters of 16 units, no branch on k: zero masks store nothing.
     * The third byte of the code points is nonzero only with 4-byte
     * characters. */
#define UTFXI_PUT32(q, with_b2)                                                                \
do {                                                                                         \
  __m512i idx = kc->idx32[(q) / 16];                                                         \
  __m512i u = _mm512_maskz_permutex2var_epi8(0x3333333333333333ull, clo, idx, chi);          \
  if (with_b2)                                                                               \
    u = _mm512_or_si512(u, _mm512_maskz_permutexvar_epi8(0x4444444444444444ull, idx, cb2));  \
  _mm512_mask_storeu_epi32(d32 + w + (q), (__mmask16)(live >> (q)), u);                      \
} while (0)
    if (lead4) {
      cb2 = _mm512_maskz_compress_epi8(keep, b2);
      UTFXI_PUT32(0, 1);
      UTFXI_PUT32(16, 1);
      if (k > 32) { /* rare with 4-byte characters: at most 48 units */
        UTFXI_PUT32(32, 1);
        UTFXI_PUT32(48, 1);
      }
    } else {
      UTFXI_PUT32(0, 0);
      UTFXI_PUT32(16, 0);
      UTFXI_PUT32(32, 0);
      UTFXI_PUT32(48, 0);
    }
#undef UTFXI_PUT32
  }
  *pi = i + e;
  *pw = w + k;
  return 0;
}

UTFXI_INLINE utfx_result utfxi_avx512_from_utf8(const char *src, size_t n, void *dst,
                                               size_t cap, unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  const int be = t == UTFXI_T_UTF16BE;
  struct utfxi_u8state st = {0, 0, 0};
  struct utfxi_avx512_u8consts kc;
  __m512i word_j, odd64, from_hi16, dword_j;
  /* The loop keeps its offsets in locals (st is for the scalar steps,
   * whose pointer argument would otherwise keep them in memory). */
  size_t i = 0, w = 0, clean = 0;
  int status = 0, try3 = 0;
  kc.iota = utfxi_avx512_iota();
  kc.one = utfxi_avx512_bytes(1);
  /* Interleaving indexes. UTF-16 unit j of a half: bytes (lo[j], hi[j])
   * (swapped for BE), from two 64-byte sources (index bit 6 picks hi).
   * UTF-32 unit j of a quarter: (lo[j], hi[j], b2[j], 0). */
  word_j = _mm512_and_si512(_mm512_srli_epi16(kc.iota, 1), utfxi_avx512_bytes(0x3F));
  odd64 = _mm512_slli_epi16(_mm512_and_si512(kc.iota, kc.one), 6);
  from_hi16 = be ? _mm512_xor_si512(odd64, utfxi_avx512_bytes(64)) : odd64;
  kc.idx16_a = _mm512_or_si512(word_j, from_hi16);
  kc.idx16_b = _mm512_add_epi8(kc.idx16_a, utfxi_avx512_bytes(32));
  dword_j = _mm512_and_si512(_mm512_srli_epi16(kc.iota, 2), utfxi_avx512_bytes(0x0F));
  kc.idx32[0] = _mm512_or_si512(dword_j, odd64);
  kc.idx32[1] = _mm512_add_epi8(kc.idx32[0], utfxi_avx512_bytes(16));
  kc.idx32[2] = _mm512_add_epi8(kc.idx32[0], utfxi_avx512_bytes(32));
  kc.idx32[3] = _mm512_add_epi8(kc.idx32[0], utfxi_avx512_bytes(48));
  kc.k_e0 = utfxi_avx512_bytes(0xE0);
  kc.k_c0 = utfxi_avx512_bytes(0xC0);
  kc.k_c2 = utfxi_avx512_bytes(0xC2);
  kc.k_7f = utfxi_avx512_bytes(0x7F);
  kc.k_0f = utfxi_avx512_bytes(0x0F);
  kc.k_f0 = utfxi_avx512_bytes(0xF0);
  g_utf8_check_k_init(&kc.check);
  V_PIN(kc.iota);
  V_PIN(kc.one);
  V_PIN(kc.idx16_a);
  V_PIN(kc.idx16_b);
  V_PIN(kc.idx32[0]);
  V_PIN(kc.idx32[1]);
  V_PIN(kc.idx32[2]);
  V_PIN(kc.idx32[3]);
  V_PIN(kc.k_e0);
  V_PIN(kc.k_c0);
  V_PIN(kc.k_c2);
  V_PIN(kc.k_7f);
  V_PIN(kc.k_0f);
  V_PIN(kc.k_f0);
  g_utf8_check_k_pin(&kc.check);
  while (!status && n - i >= 64 && cap - w >= 64) {
    if (try3) {
      /* runs of 3-byte characters (CJK): G_RUN3_BYTES a step while they last */
      size_t from = i;
      try3 = 0;
      while (n - i >= 64 && cap - w >= 64 && g_utf8_put_run3(s + i, dst, w, t)) {
        i += G_RUN3_BYTES;
        w += G_RUN3_CHARS;
      }
      if (i != from) continue;
    }
    status =
        utfxi_avx512_utf8_step(s, n, dst, cap, flags, t, &kc, &st, &i, &w, &clean, &try3, 0);
  }
  /* A last step for 8 bytes or more: fewer cost the scalar steps less (on
   * mixed-script text a block costs what 8 of its bytes do there) */
  if (!status && n - i >= 8 && n - i < 64 && cap - w >= n - i)
    status =
        utfxi_avx512_utf8_step(s, n, dst, cap, flags, t, &kc, &st, &i, &w, &clean, &try3, 1);
  if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
  st.i = i;
  st.w = w;
  status = utfxi_utf8_steps(s, n, n, &st, dst, cap, flags, t);
  return utfxi_result(status ? (utfx_status)status : UTFX_OK, st.i, st.w, st.replaced);
}

#endif
