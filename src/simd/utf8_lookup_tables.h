/* The three 16-entry tables of lookup-based UTF-8 validation (Keiser and
 * Lemire, "Validating UTF-8 in less than one instruction per byte",
 * Software: Practice and Experience 51(5), 2021), written out from the
 * error classes the paper defines. For each pair of adjacent bytes
 * (prev, cur), the AND of
 *   PREV_HI[prev >> 4] & PREV_LO[prev & 15] & CUR_HI[cur >> 4]
 * (the UTFXI_LK_*_ARGS lists below) has a bit set for every error class that pair belongs to. Bit 7 marks
 * "continuation after continuation", which is correct exactly where the
 * byte two back is a 3/4-byte lead or the byte three back is a 4-byte lead;
 * the kernels XOR that expectation in. Plain data, no instructions. */
#ifndef UTFX_SIMD_UTF8_LOOKUP_TABLES_H
#define UTFX_SIMD_UTF8_LOOKUP_TABLES_H

#define UTFXI_LK_TOO_SHORT 0x01  /* lead followed by a non-continuation */
#define UTFXI_LK_TOO_LONG 0x02   /* ASCII followed by a continuation */
#define UTFXI_LK_OVERLONG3 0x04  /* E0 80..9F */
#define UTFXI_LK_TOO_LARGE 0x08  /* F4 90..BF, F5..FF 90..BF */
#define UTFXI_LK_SURROGATE 0x10  /* ED A0..BF */
#define UTFXI_LK_OVERLONG2 0x20  /* C0..C1 continuation */
#define UTFXI_LK_BIG_OR_OL4 0x40 /* F5..FF 80..8F, F0 80..8F */
#define UTFXI_LK_TWO_CONTS 0x80  /* continuation followed by continuation */
#define UTFXI_LK_CARRY (UTFXI_LK_TOO_SHORT | UTFXI_LK_TOO_LONG | UTFXI_LK_TWO_CONTS)

/* As 16 signed chars, the form _mm*_setr_epi8 takes. */
#define UTFXI_LK_PREV_HI_ARGS                                                               \
  UTFXI_LK_TOO_LONG, UTFXI_LK_TOO_LONG, UTFXI_LK_TOO_LONG, UTFXI_LK_TOO_LONG,               \
      UTFXI_LK_TOO_LONG, UTFXI_LK_TOO_LONG, UTFXI_LK_TOO_LONG, UTFXI_LK_TOO_LONG,           \
      (char)UTFXI_LK_TWO_CONTS, (char)UTFXI_LK_TWO_CONTS, (char)UTFXI_LK_TWO_CONTS,         \
      (char)UTFXI_LK_TWO_CONTS, UTFXI_LK_TOO_SHORT | UTFXI_LK_OVERLONG2, UTFXI_LK_TOO_SHORT, \
      UTFXI_LK_TOO_SHORT | UTFXI_LK_OVERLONG3 | UTFXI_LK_SURROGATE,                          \
      UTFXI_LK_TOO_SHORT | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4

#define UTFXI_LK_PREV_LO_ARGS                                                                 \
  (char)(UTFXI_LK_CARRY | UTFXI_LK_OVERLONG3 | UTFXI_LK_OVERLONG2 | UTFXI_LK_BIG_OR_OL4),     \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_OVERLONG2), (char)UTFXI_LK_CARRY, (char)UTFXI_LK_CARRY, \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE),                                            \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4 | UTFXI_LK_SURROGATE), \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4),                      \
      (char)(UTFXI_LK_CARRY | UTFXI_LK_TOO_LARGE | UTFXI_LK_BIG_OR_OL4)

#define UTFXI_LK_CONT_8 \
  (char)(UTFXI_LK_TOO_LONG | UTFXI_LK_OVERLONG2 | UTFXI_LK_TWO_CONTS | UTFXI_LK_OVERLONG3 | \
         UTFXI_LK_BIG_OR_OL4)
#define UTFXI_LK_CONT_9 \
  (char)(UTFXI_LK_TOO_LONG | UTFXI_LK_OVERLONG2 | UTFXI_LK_TWO_CONTS | UTFXI_LK_OVERLONG3 | \
         UTFXI_LK_TOO_LARGE)
#define UTFXI_LK_CONT_AB \
  (char)(UTFXI_LK_TOO_LONG | UTFXI_LK_OVERLONG2 | UTFXI_LK_TWO_CONTS | UTFXI_LK_SURROGATE | \
         UTFXI_LK_TOO_LARGE)
#define UTFXI_LK_CUR_HI_ARGS                                                                \
  UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT,            \
      UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT,        \
      UTFXI_LK_CONT_8, UTFXI_LK_CONT_9, UTFXI_LK_CONT_AB, UTFXI_LK_CONT_AB,                  \
      UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT, UTFXI_LK_TOO_SHORT

#endif
