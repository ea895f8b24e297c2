/* AVX-512 UTF-8 to Latin-1: a kernel of its own, not the UTF-8 transcoders'
 * driver (simd/generic_utf8_transcode.h, whose variable step, from one
 * block's last character start to the next load, made this the slowest
 * conversion).
 *
 * UTF-8 that converts to Latin-1 holds only ASCII and the two-byte forms
 * C2 80..C2 BF (U+0080..U+00BF) and C3 80..C3 BF (U+00C0..U+00FF). Each
 * output byte is made at the byte where its character ends: ASCII is itself,
 * a continuation after C2 is itself, one after C3 is itself plus 0x40; leads
 * make nothing. So a block of 64 bytes is two compares into mask registers,
 * a few bit operations (the byte before each byte comes from a second load
 * one byte back) and one compression, at a fixed step of 64: nothing in the
 * loop waits on the previous block but one bit, whether its last byte was a
 * lead. A block is well-formed Latin-1
 * exactly when its continuations are the bytes after its leads (and after a
 * carried lead) and every lead is C2 or C3.
 *
 * Anything else (an error, a character above U+00FF, a destination that is
 * too small for a block) goes to the scalar kernel from the start of the
 * character the block was in, with nothing written for that character yet:
 * it reports the error, or fills the destination to the last whole character,
 * exactly as the scalar tier does. The last bytes are a masked block (zeros
 * past the input are ASCII, so a lead cut off by the end is caught as a lead
 * without its continuation). Stores are masked to the bytes made, but for
 * the first of the hot loop's two blocks, whose spill the second one's store
 * overwrites. */
#ifndef __AVX512VBMI2__
#error "avx512_ files must be built with the avx512 tier's flags"
#endif

#include "avx512_utf16_common.h"
#include "vec_avx512.h"
#include "../../simd/generic.h"
#include "../x86_prototypes.h"

typedef struct {
  __m512i c0, add_3e, two, x40, back1;
} u8l1_consts;

static inline void u8l1_consts_init(u8l1_consts *c) {
  c->c0 = _mm512_set1_epi8((char)0xC0);
  c->add_3e = _mm512_set1_epi8(0x3E); /* C2 -> 0, C3 -> 1 */
  c->two = _mm512_set1_epi8(2);
  c->x40 = _mm512_set1_epi8(0x40);
  c->back1 = _mm512_sub_epi8(a512_iota(), _mm512_set1_epi8(1));
  V_LOADED(c->c0);
  V_LOADED(c->add_3e);
  V_LOADED(c->two);
  V_LOADED(c->x40);
}

/* A block and what it carries into the next one. */
typedef struct {
  __m512i out;   /* the bytes made, compressed to the front */
  size_t made;   /* how many */
  uint64_t err;  /* nonzero: not well-formed Latin-1 */
  uint64_t lead; /* the block's last byte is a lead */
} u8l1_block;

/* The block v (zeros past the input); prev is the 64 bytes one before it,
 * lead_in whether the byte before it is a lead. */
static inline u8l1_block u8l1_convert(const u8l1_consts *c, __m512i v, __m512i prev,
                                      uint64_t lead_in) {
  u8l1_block b;
  uint64_t high = _mm512_movepi8_mask(v);
  __mmask64 leads_k = _mm512_cmpge_epu8_mask(v, c->c0);
  uint64_t leads = leads_k;
  uint64_t c2c3 = _mm512_cmplt_epu8_mask(_mm512_add_epi8(v, c->add_3e), c->two);
  /* A continuation after C3 gains 0x40: bit 0 of the byte before, moved to
   * bit 6 where the byte itself has bit 7 (a lead's output is dropped, and
   * an ASCII byte keeps bit 6 as it is). Shifts are of 16-bit lanes; 0x40
   * keeps the bit of each byte's own. */
  __m512i gain = _mm512_ternarylogic_epi64(_mm512_slli_epi16(prev, 6), _mm512_srli_epi16(v, 1),
                                           c->x40, 0x80); /* A & B & C */
  b.err = ((leads << 1 | lead_in) ^ (high ^ leads)) | (leads ^ c2c3);
  b.made = 64 - (size_t)_mm_popcnt_u64(leads);
  b.out = _mm512_maskz_compress_epi8((__mmask64)~leads, _mm512_or_si512(v, gain));
  b.lead = leads >> 63;
  return b;
}

/* The 64 bytes one before s + i (k <= 64 of them past it read): a load, or
 * for the first block a shift of v itself (nothing before src is read). */
static inline __m512i u8l1_prev(const u8l1_consts *c, const unsigned char *s, size_t i,
                                size_t k, __m512i v) {
  if (!i) return _mm512_maskz_permutexvar_epi8(~1ull, c->back1, v);
  return k == 64 ? _mm512_loadu_si512(s + i - 1) : a512_load8(s + i - 1, k + 1);
}

UTFXI_INLINE utfx_result utf8_to_latin1_body(const unsigned char *s, size_t n, unsigned char *d,
                                          size_t cap, unsigned flags) {
  u8l1_consts c;
  size_t i = 0, w = 0;
  uint64_t lead_in = 0; /* the byte before s + i is a lead */
  u8l1_consts_init(&c);
  /* The hot loop: two blocks per test. The first block's store is a plain
   * one: it spills at most 32 bytes past what it made (a block makes 32 or
   * more), and the second block's store, masked, overwrites them. */
  while (n - i >= 128 && cap - w >= 128) {
    __m512i v0 = _mm512_loadu_si512(s + i), v1 = _mm512_loadu_si512(s + i + 64);
    u8l1_block b0, b1;
    if (!(_mm512_movepi8_mask(_mm512_or_si512(v0, v1)) | lead_in)) {
      /* Before a long run the step advances only far enough to make the
       * destination 64-byte aligned: the run's stores then never straddle
       * cache lines. */
      size_t adv = utfxi_aligning_step(d + w, 1, 64, 128, n - i >= 320 && cap - w >= 320);
      _mm512_storeu_si512(d + w, v0);
      _mm512_storeu_si512(d + w + 64, v1);
      i += adv;
      w += adv;
      { /* after ASCII, look for more by 256 bytes */
        size_t run = g_copy_ascii_x4(s + i, cap - w < n - i ? cap - w : n - i, d + w);
        i += run;
        w += run;
      }
      continue;
    }
    b0 = u8l1_convert(&c, v0, u8l1_prev(&c, s, i, 64, v0), lead_in);
    b1 = u8l1_convert(&c, v1, _mm512_loadu_si512(s + i + 63), b0.lead);
    if (b0.err | b1.err) goto rest;
    _mm512_storeu_si512(d + w, b0.out);
    _mm512_mask_storeu_epi8(d + w + b0.made, a512_mask64(b1.made), b1.out);
    i += 128;
    w += b0.made + b1.made;
    lead_in = b1.lead;
  }
  while (n - i >= 64) {
    __m512i v = _mm512_loadu_si512(s + i);
    u8l1_block b = u8l1_convert(&c, v, u8l1_prev(&c, s, i, 64, v), lead_in);
    if (b.err || b.made > cap - w) goto rest;
    _mm512_mask_storeu_epi8(d + w, a512_mask64(b.made), b.out);
    i += 64;
    w += b.made;
    lead_in = b.lead;
  }
  if (i < n) {
    __m512i v = a512_load8(s + i, n - i);
    u8l1_block b = u8l1_convert(&c, v, u8l1_prev(&c, s, i, n - i, v), lead_in);
    /* made counts the zeros past the input too */
    size_t made = b.made - (64 - (n - i));
    if (b.err || made > cap - w) goto rest;
    _mm512_mask_storeu_epi8(d + w, a512_mask64(made), b.out);
    w += made;
    i = n;
    lead_in = 0;
  }
  if (!lead_in) return utfxi_result(UTFX_OK, n, w, 0);
rest : {
  /* from the start of the character that s + i is in */
  size_t at = i - (size_t)lead_in;
  utfx_result r = utfxi_convert_utf8_to_latin1_scalar((const char *)s + at, n - at, (char *)d + w,
                                                      cap - w, flags);
  r.read += at;
  r.written += w;
  return r;
}
}

utfx_result utfxi_convert_utf8_to_latin1_avx512(const char *s, size_t n, char *d, size_t cap,
                                                unsigned flags) {
  return utf8_to_latin1_body((const unsigned char *)s, n, (unsigned char *)d, cap, flags);
}
