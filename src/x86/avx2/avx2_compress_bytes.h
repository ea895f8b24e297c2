/* Byte compression for the AVX2 kernels (which lack VPCOMPRESSB): the bytes
 * of a 16-byte vector picked by a 16-bit mask, moved to the front in order,
 * with two PSHUFBs: one that compresses each 8-byte half
 * (simd/compress8_table.h), one that moves the second half's bytes up to
 * just after the first's. */
#ifndef UTFX_X86_AVX2_COMPRESS_BYTES_H
#define UTFX_X86_AVX2_COMPRESS_BYTES_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../internal.h"
#include "../../simd/compress8_table.h"

/* PSHUFB controls at variable offsets: iota (from byte k: bytes k..k+15, a
 * shift down by k), and (from byte 16 - k) one that moves bytes 8..15 up to
 * k..k+7 and zeroes the rest. */
static const unsigned char utfxi_avx2_iota[32] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
static const unsigned char utfxi_avx2_bytes_up[32] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

/* Compresses the bytes of the 16-byte x whose bit is set in the 16-bit m to
 * the front (zeros after them); *count = how many. */
UTFXI_INLINE __m128i utfxi_avx2_compress_bytes16(__m128i x, unsigned m, size_t *count) {
  unsigned c0 = (unsigned)_mm_popcnt_u32(m & 0xFF);
  __m128i ctl = _mm_unpacklo_epi64(
      _mm_loadl_epi64((const __m128i *)(const void *)utfxi_compress8[m & 0xFF]),
      _mm_add_epi8(_mm_loadl_epi64((const __m128i *)(const void *)utfxi_compress8[m >> 8]),
                   _mm_set1_epi8(8))); /* 0x80 + 8 still zeroes */
  __m128i u = _mm_shuffle_epi8(x, ctl); /* [low group, zeros | high group, zeros] */
  __m128i up = _mm_loadu_si128((const __m128i *)(const void *)(utfxi_avx2_bytes_up + 16 - c0));
  *count = c0 + (size_t)_mm_popcnt_u32(m >> 8);
  return _mm_or_si128(_mm_move_epi64(u), _mm_shuffle_epi8(u, up));
}


#endif
