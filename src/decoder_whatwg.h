/* The WHATWG mode of the streaming decoder (src/decoder_whatwg.c), as the
 * public utfx_decoder_* entry points of src/decoder.c dispatch to it. */
#ifndef UTFX_DECODER_WHATWG_H
#define UTFX_DECODER_WHATWG_H

#include "internal.h"

/* utfx_decoder.enc_: Node's encodings are their utfx_encoding (0..8), a
 * refused decoder is 0xFF, and the WHATWG mode sets this bit on top of its
 * encoding (UTF-8, UTF-16LE, UTF-16BE). */
#define UTFXI_DECODER_UNUSABLE 0xFFu
#define UTFXI_DECODER_WHATWG 0x80u

static inline int utfxi_decoder_is_whatwg(const utfx_decoder *d) {
  return d->enc_ != UTFXI_DECODER_UNUSABLE && (d->enc_ & UTFXI_DECODER_WHATWG);
}

/* dst is char16_t * (u8 = 0) or char * (u8 = 1), cap in its units. */
utfx_result utfxi_whatwg_write(utfx_decoder *d, const unsigned char *src, size_t n, void *dst,
                               size_t cap, int u8);
utfx_result utfxi_whatwg_end(utfx_decoder *d, void *dst, size_t cap, int u8);
size_t utfxi_whatwg_bound(const utfx_decoder *d, size_t n, int u8);

#endif
