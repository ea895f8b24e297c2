/* The neon tier's 'ascii' block kernel of the streaming decoder (the kernel
 * table's ascii_blocks; src/decoder.c writes the rest): each byte with its
 * top bit cleared, widened to a host-order UTF-16 unit, 16 bytes a step.
 * (Hex stays with the scalar tier's word-at-a-time kernel.) */
#include <arm_neon.h>

#define UTFXI_DECL_TIER_NAME neon
#include "../tier_declarations.h"

size_t utfxi_ascii_blocks_neon(const unsigned char *p, size_t n, char16_t *d) {
  size_t i = 0;
  for (; n - i >= 16; i += 16) {
    uint8x16_t v = vandq_u8(vld1q_u8(p + i), vdupq_n_u8(0x7F));
    vst1q_u16((uint16_t *)(void *)(d + i), vmovl_u8(vget_low_u8(v)));
    vst1q_u16((uint16_t *)(void *)(d + i + 8), vmovl_high_u8(v));
  }
  return i;
}
