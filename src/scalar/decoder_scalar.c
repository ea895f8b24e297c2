/* The scalar tier's block kernels of the streaming decoder (src/decoder.c
 * calls them through the kernel table, like the SIMD tiers' own): portable C,
 * word at a time, or in loops the compiler vectorizes. */
#include "decoder_text.h"
#include "unicode.h"

/* The scalar tier's base64 block kernel: it has no vector loop, so it takes
 * no blocks and base64_body's word-at-a-time loop encodes every group. */
size_t utfxi_base64_blocks_scalar(const unsigned char *p, size_t n, size_t blocks,
                                  unsigned char *d8, char16_t *d16, int url) {
  (void)p, (void)n, (void)blocks, (void)d8, (void)d16, (void)url;
  return 0;
}

size_t utfxi_hex_blocks_scalar(const unsigned char *p, size_t n, unsigned char *d8,
                               char16_t *d16) {
  size_t i, end = n - n % 16;
  for (i = 0; i < end; i += 4) {
    uint64_t v = utfxi_hex_digits(p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
                                  (uint32_t)p[i + 3] << 24);
    if (d8)
      utfxi_store8(d8, NULL, 2 * i, v, 1);
    else
      utfxi_store8(NULL, d16, 2 * i, v, 0);
  }
  return end;
}

size_t utfxi_ascii_blocks_scalar(const unsigned char *p, size_t n, char16_t *d) {
  return utfxi_ascii_blocks_portable(p, n, d);
}
