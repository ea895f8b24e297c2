/* AVX-512 UTF-16LE <-> UTF-16BE (either way it is a byte swap of each unit).
 *
 * A block of 32 units is swapped with one VPSHUFB and stored as it is (one
 * output unit per input unit) when its surrogates are all in pairs. The
 * pairs are checked on the masks of high and low surrogates: every low one
 * must follow a high one, in this block or as the last unit of the previous
 * one (`carry`), and every high one precede a low one, in this block or as
 * the first unit of the next (read as one scalar unit). A block with a lone
 * surrogate goes to the scalar kernel as a bounded region that starts and
 * ends between pairs, so lone surrogates (U+FFFD or STRICT offsets) and full
 * destinations follow the scalar semantics; so does the tail of fewer than
 * 33 units. */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (Makefile AVX512_FLAGS)"
#endif

#include "avx512_utf16_common.h"
#include "x86_prototypes.h"

/* be: the source is UTF-16BE. */
A512_BODY utfx_result swap16(const char16_t *s, size_t n, char16_t *d, size_t cap,
                             unsigned flags, int be) {
  struct a512_u16_consts uc;
  size_t i = 0, replaced = 0;
  uint32_t carry = 0; /* the unit at i - 1 is a high surrogate whose low one is at i */
  utfx_result r;
  a512_u16_consts_init(&uc);
  if (n >= 256 && (uintptr_t)d % 2 == 0) {
    /* A scalar head puts the stores on a cache line (a store across two
     * lines costs two), taking a pair whole. */
    i = (size_t)(-(uintptr_t)d % 64) / 2;
    if (i && (utfxi_load16(s + i - 1, be) & 0xFC00) == 0xD800 &&
        (utfxi_load16(s + i, be) & 0xFC00) == 0xDC00)
      i++;
    r = utfxi_swap_utf16_scalar(s, i, d, cap, flags, be);
    if (r.status != UTFX_OK) return r;
    replaced = r.replaced;
  }
  while (n - i >= 33 && cap - i >= 33) { /* 33: room for the low half of a pair at 31 */
    __m512i raw = _mm512_loadu_si512(s + i), swapped = a512_bswap16(raw);
    __m512i v = be ? swapped : raw, top;
    uint32_t hi, lo, bad;
    size_t start, len;
    if (!a512_surrogates(v, &uc)) { /* (with a carry, unit 0 is a low surrogate) */
      _mm512_storeu_si512(d + i, swapped);
      i += 32;
      continue;
    }
    top = _mm512_and_si512(v, uc.fc00);
    hi = _mm512_cmpeq_epi16_mask(top, uc.d800);
    lo = _mm512_cmpeq_epi16_mask(top, uc.dc00);
    bad = (lo & ~(hi << 1 | carry)) | (hi & ~(lo >> 1));
    if (hi >> 31 && (utfxi_load16(s + i + 32, be) & 0xFC00) == 0xDC00) bad &= 0x7FFFFFFFu;
    if (!bad) {
      _mm512_storeu_si512(d + i, swapped);
      carry = hi >> 31;
      i += 32;
      continue;
    }
    /* From the pair's high half when the block starts inside a pair, to the
     * pair's low half when it ends inside one. */
    start = i - carry;
    len = i + 32 - start + ((hi >> 31) && !(bad >> 31));
    r = utfxi_swap_utf16_scalar(s + start, len, d + start, cap - start, flags, be);
    if (r.status != UTFX_OK) return utfxi_result_after(&r, start, start, replaced);
    replaced += r.replaced;
    i = start + len;
    carry = 0;
  }
  i -= carry;
  r = utfxi_swap_utf16_scalar(s + i, n - i, d + i, cap - i, flags, be);
  return utfxi_result_after(&r, i, i, replaced);
}

utfx_result utfxi_convert_utf16le_to_utf16be_avx512(const char16_t *s, size_t n, char16_t *d,
                                                    size_t cap, unsigned flags) {
  return swap16(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf16le_avx512(const char16_t *s, size_t n, char16_t *d,
                                                    size_t cap, unsigned flags) {
  return swap16(s, n, d, cap, flags, 1);
}
