/* AVX-512 Latin-1 to UTF-8 (to UTF-16 and UTF-32: simd/generic_latin1.h).
 *
 * 64 ASCII bytes are copied as they are (after ASCII, 256 at a
 * time); otherwise one shuffle and four vector operations make the 2-byte
 * forms of all 64 bytes in 16-bit lanes (latin1_forms) and vpcompressb
 * keeps the bytes used, one half of 32 input bytes per compression. The hot
 * loop stores plain vectors (it runs while the room is checked for them:
 * always when cap >= 2 * n); the last bytes, and a bounded call's last
 * blocks, go by masked stores exact to the byte, and the first half that
 * does not fit goes to the scalar kernel. Latin-1 is always valid; only the
 * destination can stop a conversion.
 * References: Clausecker & Lemire 2023 (see avx512_utf16_common.h). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include "avx512_utf16_common.h"
#include "vec_avx512.h"
#include "../../simd/generic.h"
#include "../x86_prototypes.h"

/* The constants of the 2-byte forms, kept in registers across the loop. */
typedef struct {
  __m512i interleave, c0, c00c2, cff00, cc001;
} latin1_consts;

static inline void latin1_consts_init(latin1_consts *c) {
  /* byte 2j <- byte j, byte 2j+1 <- byte 32 + j */
  c->interleave = _mm512_set_epi8(63, 31, 62, 30, 61, 29, 60, 28, 59, 27, 58, 26, 57, 25, 56, 24,
                                  55, 23, 54, 22, 53, 21, 52, 20, 51, 19, 50, 18, 49, 17, 48, 16,
                                  47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8, 39,
                                  7, 38, 6, 37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
  c->c0 = _mm512_set1_epi8((char)0xC0);
  c->c00c2 = _mm512_set1_epi16(0x00C2);
  c->cff00 = _mm512_set1_epi16((short)0xFF00);
  c->cc001 = _mm512_set1_epi16((short)0xC001);
  V_LOADED(c->interleave);
  V_LOADED(c->c0);
  V_LOADED(c->c00c2);
  V_LOADED(c->cff00);
  V_LOADED(c->cc001);
}

/* The UTF-8 of the 64 bytes v, as two vectors of 16-bit lanes: lane j of
 * *w0 (*w1) is the form of byte j (32 + j). One shuffle puts bytes j and
 * 32 + j in lane j; each half's lane becomes (byte << 8) | 0xC2, the form of
 * bytes 80..BF, and bytes C0..FF add 0xC001 (lead C3, continuation - 0x40).
 * An ASCII byte is its lane's high byte. */
static inline void latin1_forms(const latin1_consts *c, __m512i v, __m512i *w0, __m512i *w1) {
  __m512i x = _mm512_permutexvar_epi8(c->interleave, v);
  __mmask64 sixth = _mm512_cmpge_epu8_mask(v, c->c0);
  __m512i a = _mm512_or_si512(_mm512_slli_epi16(x, 8), c->c00c2);
  __m512i b = _mm512_ternarylogic_epi32(x, c->cff00, c->c00c2, 0xEA); /* x & ff00 | c2 */
  *w0 = _mm512_mask_add_epi16(a, (__mmask32)sixth, a, c->cc001);
  *w1 = _mm512_mask_add_epi16(b, (__mmask32)(sixth >> 32), b, c->cc001);
}

/* The bytes to keep of a half whose non-ASCII lanes are `high`: the high
 * byte of every lane, and the low one (the lead) of non-ASCII lanes. */
static inline __mmask64 latin1_keep(uint32_t high) {
  return 0xAAAAAAAAAAAAAAAAull | _pdep_u64(high, 0x5555555555555555ull);
}

UTFXI_INLINE utfx_result latin1_to_utf8_body(const unsigned char *s, size_t n, unsigned char *d,
                                          size_t cap, int bounded) {
  latin1_consts c;
  size_t i = 0, w = 0;
  latin1_consts_init(&c);
  /* The hot loop: plain stores only. A store spills past its output by at
   * most 32 bytes (a half makes 32 or more); the next store, or the next 32
   * input bytes (at least 32 output bytes), overwrite the spill, and the
   * room is checked. */
  while (n - i >= 96 && (!bounded || cap - w >= 192)) {
    __m512i v = _mm512_loadu_si512(s + i), w0, w1;
    __mmask64 high = _mm512_movepi8_mask(v);
    size_t len0, len1;
    if (!high) {
      _mm512_storeu_si512(d + w, v);
      i += 64;
      w += 64;
      { /* after ASCII, look for more by 256 bytes */
        size_t run = g_copy_ascii_x4(s + i, bounded && cap - w < n - i ? cap - w : n - i, d + w);
        i += run;
        w += run;
      }
      continue;
    }
    latin1_forms(&c, v, &w0, &w1);
    len0 = 32 + (size_t)_mm_popcnt_u32((uint32_t)high);
    len1 = 32 + (size_t)_mm_popcnt_u32((uint32_t)(high >> 32));
    _mm512_storeu_si512(d + w, _mm512_maskz_compress_epi8(latin1_keep((uint32_t)high), w0));
    _mm512_storeu_si512(d + w + len0,
                        _mm512_maskz_compress_epi8(latin1_keep((uint32_t)(high >> 32)), w1));
    i += 64;
    w += len0 + len1;
  }
  /* The rest, by halves of up to 32 bytes: masked loads and stores, exact
   * to the byte; in a bounded call the first half that does not fit goes to
   * the scalar kernel, which fills the destination to the last character. */
  while (i < n) {
    size_t k = n - i < 64 ? n - i : 64, h;
    __m512i v = a512_load8(s + i, k), wv[2];
    __mmask64 high = _mm512_movepi8_mask(v);
    latin1_forms(&c, v, &wv[0], &wv[1]);
    for (h = 0; h < k; h += 32) {
      size_t kh = k - h < 32 ? k - h : 32;
      uint32_t hh = (uint32_t)(high >> h);
      size_t len = kh + (size_t)_mm_popcnt_u32(hh);
      if (bounded && cap - w < len) goto finish;
      /* zero-filled bytes past the input are ASCII: only their high bytes,
       * past 2 * kh, are cut */
      _mm512_mask_storeu_epi8(
          d + w, a512_mask64(len),
          _mm512_maskz_compress_epi8(latin1_keep(hh) & a512_mask64(2 * kh), wv[h / 32]));
      w += len;
      i += kh;
    }
  }
finish:
  if (i < n) {
    utfx_result r =
        utfxi_convert_latin1_to_utf8_scalar((const char *)s + i, n - i, (char *)d + w, cap - w, 0);
    r.read += i;
    r.written += w;
    return r;
  }
  return utfxi_result(UTFX_OK, n, w, 0);
}

utfx_result utfxi_convert_latin1_to_utf8_avx512(const char *s, size_t n, char *d, size_t cap,
                                                unsigned flags) {
  (void)flags;
  if (cap / 2 >= n)
    return latin1_to_utf8_body((const unsigned char *)s, n, (unsigned char *)d, cap, 0);
  return latin1_to_utf8_body((const unsigned char *)s, n, (unsigned char *)d, cap, 1);
}
