/* The scalar base64 codec: the specification in code. Decoding follows TC39's
 * FromBase64 (Uint8Array.fromBase64 / setFromBase64) step by step, a group of
 * four characters at a time; the NODE mode follows Node's Buffer decoder.
 * The SIMD tiers call the same steps (base64.h) for everything but clean
 * blocks. */
#include "base64.h"

#include "base64_tables.h"

static const char utfxi_b64_chars[2][64] = {
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"};

/* ------------------------------------------------------------------ encode */

static void b64_encode_group(const unsigned char *s, size_t k, char *d, const char *abc) {
  uint32_t v = (uint32_t)s[0] << 16 | (k > 1 ? (uint32_t)s[1] << 8 : 0) | (k > 2 ? s[2] : 0u);
  d[0] = abc[v >> 18];
  d[1] = abc[v >> 12 & 63];
  if (k > 1) d[2] = abc[v >> 6 & 63];
  if (k > 2) d[3] = abc[v & 63];
}

utfx_result utfxi_base64_encode_scalar(const unsigned char *src, size_t n, char *dst, size_t cap,
                                       unsigned flags) {
  const char *abc = utfxi_b64_chars[(flags & UTFX_BASE64_URL) ? 1 : 0];
  int pad = !(flags & UTFX_BASE64_NO_PADDING);
  size_t i = 0, w = 0, tail = n % 3, out;
  for (; n - i >= 3 && cap - w >= 4; i += 3, w += 4) b64_encode_group(src + i, 3, dst + w, abc);
  if (n - i >= 3) return utfxi_result(UTFX_DST_FULL, i, w, 0);
  if (tail == 0) return utfxi_result(UTFX_OK, n, w, 0);
  out = pad ? 4 : tail + 1;
  if (cap - w < out) return utfxi_result(UTFX_DST_FULL, i, w, 0);
  b64_encode_group(src + i, tail, dst + w, abc);
  if (pad) {
    dst[w + 3] = '=';
    if (tail == 1) dst[w + 2] = '=';
  }
  return utfxi_result(UTFX_OK, n, w + out, 0);
}

/* In lines (utfx_base64_encode_lines; here 1 <= L <= SIZE_MAX / 4 and
 * column <= L): groups encoded a chunk at a time, then laid out a piece of
 * a line at a time, a line break before each line but the first. */
utfx_result utfxi_base64_encode_lines_scalar(const unsigned char *src, size_t n, char *dst,
                                             size_t cap, unsigned flags, size_t L,
                                             size_t *column) {
  char text[4 * 64];
  size_t c = *column, take, i = 0, w = 0, j, m, seg;
  (void)utfxi_b64_lines_plan(n, cap, flags, L, c, &take);
  while (i < take) {
    size_t part = take - i < 3 * 64 ? take - i : 3 * 64;
    m = utfxi_base64_encode_scalar(src + i, part, text, sizeof text, flags).written;
    for (j = 0; j < m; j += seg) {
      if (c == L) {
        if (flags & UTFX_BASE64_CRLF) dst[w++] = '\r';
        dst[w++] = '\n';
        c = 0;
      }
      seg = L - c < m - j ? L - c : m - j;
      memcpy(dst + w, text + j, seg);
      w += seg, c += seg;
    }
    i += part;
  }
  *column = c;
  return utfxi_result(take < n ? UTFX_DST_FULL : UTFX_OK, take, w, 0);
}

/* ------------------------------------------------------------------ decode */

/* The class of the unit at i (utfxi_b64_class; a UTF-16 unit above 0xFF is
 * outside every alphabet, except in NODE mode, which reads its low byte). */
UTFXI_INLINE unsigned b64_class(const void *src, size_t i, int wide, const uint8_t *cls,
                                int node) {
  unsigned c = wide ? ((const char16_t *)src)[i] : ((const unsigned char *)src)[i];
  if (c > 0xFF) {
    if (!node) return UTFXI_B64_BAD;
    c &= 0xFF;
  }
  return cls[c];
}

UTFXI_INLINE void b64_store(unsigned char *dst, size_t w, uint32_t group, unsigned bytes) {
  if (!dst) return;
  dst[w] = (unsigned char)(group >> 16);
  if (bytes > 1) dst[w + 1] = (unsigned char)(group >> 8);
  if (bytes > 2) dst[w + 2] = (unsigned char)group;
}

/* Whole groups of four alphabet characters while they last, up to offset
 * `pause`: the common case, without the state machine. Only while 4 bytes of
 * room remain, so dst never becomes full here: that group, and TC39's
 * return after it, are the state machine's. */
UTFXI_INLINE void b64_clean_groups(const void *src, size_t n, int wide, unsigned char *dst,
                                   size_t cap, const uint8_t *cls, int node, size_t pause,
                                   size_t *pi, size_t *pw) {
  size_t i = *pi, w = *pw;
  while (n - i >= 4 && (!dst || cap - w >= 4) && i < pause) {
    unsigned a = b64_class(src, i, wide, cls, node), b = b64_class(src, i + 1, wide, cls, node);
    unsigned c = b64_class(src, i + 2, wide, cls, node), d = b64_class(src, i + 3, wide, cls, node);
    if ((a | b | c | d) & 0x80) break;
    b64_store(dst, w, a << 18 | b << 12 | c << 6 | d, 3);
    i += 4;
    w += 3;
  }
  *pi = i;
  *pw = w;
}

/* The clean groups at a group start (k == 0), then the offset after the last
 * whole group in *read; at `pause` with input left, the call ends there to be
 * resumed (nonzero, with *at set). */
UTFXI_INLINE int b64_clean_or_pause(const void *src, size_t n, int wide, unsigned char *dst,
                                    size_t cap, const uint8_t *cls, int node, size_t pause,
                                    size_t *pi, size_t *pw, size_t *read,
                                    struct utfxi_b64_at *at) {
  b64_clean_groups(src, n, wide, dst, cap, cls, node, pause, pi, pw);
  *read = *pi;
  if (*pi >= pause && *pi < n) {
    at->i = *pi;
    at->w = *pw;
    return 1;
  }
  return 0;
}

UTFXI_INLINE size_t b64_skip_space(const void *src, size_t n, size_t i, int wide,
                                   const uint8_t *cls) {
  while (i < n && b64_class(src, i, wide, cls, 0) == UTFXI_B64_SPACE) i++;
  return i;
}

/* dst is full after the group ending at i: OK if only whitespace is left
 * (read = n), else DST_FULL at i (where TC39's setFromBase64 stops). */
UTFXI_INLINE utfx_result b64_full(const void *src, size_t n, size_t i, size_t w, int wide,
                                  const uint8_t *cls) {
  if (b64_skip_space(src, n, i, wide, cls) == n) return utfxi_result(UTFX_OK, n, w, 0);
  return utfxi_result(UTFX_DST_FULL, i, w, 0);
}

/* The input ended with k characters of a group pending (acc their bits),
 * `read` the offset after the last whole group. */
UTFXI_INLINE utfx_result b64_at_end(size_t n, size_t read, size_t w, unsigned char *dst,
                                    unsigned k, uint32_t acc, unsigned flags) {
  if (k == 0) return utfxi_result(UTFX_OK, n, w, 0);
  if (flags & UTFX_BASE64_STOP_BEFORE_PARTIAL) return utfxi_result(UTFX_OK, read, w, 0);
  if (k == 1 || (flags & UTFX_BASE64_STRICT)) return utfxi_result(UTFX_INVALID, n, w, 0);
  /* The capacity checks before the group's third and fourth characters
   * left room for these 1 or 2 bytes. */
  b64_store(dst, w, acc << (6 * (4 - k)), k - 1);
  return utfxi_result(UTFX_OK, n, w + k - 1, 0);
}

/* A '=' at offset i with k characters of a group pending. */
UTFXI_INLINE utfx_result b64_at_padding(const void *src, size_t n, size_t i, size_t read,
                                        size_t w, int wide, const uint8_t *cls,
                                        unsigned char *dst, unsigned k, uint32_t acc,
                                        unsigned flags) {
  size_t pad_at = i;
  uint32_t unused = k == 2 ? acc & 0xF : acc & 0x3;
  if (k < 2) return utfxi_result(UTFX_INVALID, i, w, 0);
  i = b64_skip_space(src, n, i + 1, wide, cls);
  if (k == 2) {
    if (i == n) {
      if (flags & UTFX_BASE64_STOP_BEFORE_PARTIAL) return utfxi_result(UTFX_OK, read, w, 0);
      return utfxi_result(UTFX_INVALID, n, w, 0);
    }
    if (b64_class(src, i, wide, cls, 0) != UTFXI_B64_PAD) return utfxi_result(UTFX_INVALID, i, w, 0);
    i = b64_skip_space(src, n, i + 1, wide, cls);
  }
  if (i < n) return utfxi_result(UTFX_INVALID, i, w, 0);
  if ((flags & UTFX_BASE64_STRICT) && unused) return utfxi_result(UTFX_INVALID, pad_at, w, 0);
  b64_store(dst, w, acc << (6 * (4 - k)), k - 1);
  return utfxi_result(UTFX_OK, n, w + k - 1, 0);
}

/* The end of a call: read and written in *at, the status returned as
 * utfxi_base64_decode_steps says (base64.h). */
UTFXI_INLINE int b64_over(struct utfxi_b64_at *at, utfx_result x) {
  at->i = x.read;
  at->w = x.written;
  return 1 + (int)x.status;
}

/* TC39's FromBase64: loose, strict or stop-before-partial. */
UTFXI_INLINE int b64_decode_tc39(const void *src, size_t n, int wide, unsigned char *dst,
                                 size_t cap, unsigned flags, size_t pause,
                                 struct utfxi_b64_at *at) {
  const uint8_t *cls = utfxi_b64_class[utfxi_b64_alphabet(flags)];
  size_t i = at->i, w = at->w, read = i;
  unsigned k = 0;
  uint32_t acc = 0;
  if (dst && w == cap && i < n) {
    return b64_over(at, b64_full(src, n, i, w, wide, cls));
  }
  for (;;) {
    unsigned v;
    if (k == 0 && b64_clean_or_pause(src, n, wide, dst, cap, cls, 0, pause, &i, &w, &read, at))
      return 0;
    i = b64_skip_space(src, n, i, wide, cls);
    if (i == n) {
      return b64_over(at, b64_at_end(n, read, w, dst, k, acc, flags));
    }
    v = b64_class(src, i, wide, cls, 0);
    if (v == UTFXI_B64_PAD) {
      return b64_over(at, b64_at_padding(src, n, i, read, w, wide, cls, dst, k, acc, flags));
    }
    if (v & 0x80) {
      return b64_over(at, utfxi_result(UTFX_INVALID, i, w, 0));
    }
    /* Room for exactly the bytes of the pending 2 or 3 characters: TC39
     * stops before the group rather than decode part of it. */
    if (dst && ((k == 2 && cap - w == 1) || (k == 3 && cap - w == 2))) {
      return b64_over(at, utfxi_result(UTFX_DST_FULL, read, w, 0));
    }
    acc = acc << 6 | v;
    i++;
    if (++k == 4) {
      b64_store(dst, w, acc, 3);
      w += 3;
      k = 0;
      acc = 0;
      read = i;
      if (dst && w == cap && i < n) {
        return b64_over(at, b64_full(src, n, i, w, wide, cls));
      }
    }
  }
}

/* Node's Buffer.from(s, 'base64'): alphabet characters of either alphabet
 * count, everything else is skipped, the first '=' ends the input. */
UTFXI_INLINE int b64_decode_node(const void *src, size_t n, int wide, unsigned char *dst,
                                 size_t cap, size_t pause, struct utfxi_b64_at *at) {
  const uint8_t *cls = utfxi_b64_class[2];
  size_t i = at->i, w = at->w, read = i;
  unsigned k = 0;
  uint32_t acc = 0;
  for (;;) {
    unsigned v = UTFXI_B64_BAD;
    if (k == 0 && b64_clean_or_pause(src, n, wide, dst, cap, cls, 1, pause, &i, &w, &read, at))
      return 0;
    for (; i < n; i++) {
      v = b64_class(src, i, wide, cls, 1);
      if (v < 64 || v == UTFXI_B64_PAD) break;
    }
    if (i == n || v == UTFXI_B64_PAD) break;
    acc = acc << 6 | v;
    i++;
    if (++k == 4) {
      if (dst && cap - w < 3) {
        return b64_over(at, utfxi_result(UTFX_DST_FULL, read, w, 0));
      }
      b64_store(dst, w, acc, 3);
      w += 3;
      k = 0;
      acc = 0;
      read = i;
    }
  }
  if (k >= 2) {
    if (dst && cap - w < k - 1) {
      return b64_over(at, utfxi_result(UTFX_DST_FULL, read, w, 0));
    }
    b64_store(dst, w, acc << (6 * (4 - k)), k - 1);
    w += k - 1;
  }
  return b64_over(at, utfxi_result(UTFX_OK, n, w, 0));
}

UTFXI_INLINE int b64_decode_steps(const void *src, size_t n, int wide, unsigned char *dst,
                                  size_t cap, unsigned flags, size_t pause,
                                  struct utfxi_b64_at *at) {
  if (flags & UTFX_BASE64_NODE) return b64_decode_node(src, n, wide, dst, cap, pause, at);
  if (flags & UTFX_BASE64_STRICT) flags &= ~UTFX_BASE64_STOP_BEFORE_PARTIAL;
  return b64_decode_tc39(src, n, wide, dst, cap, flags, pause, at);
}

/* One instance per source width and per writing / counting. */
int utfxi_base64_decode_steps(const void *src, size_t n, int wide, unsigned char *dst, size_t cap,
                              unsigned flags, size_t pause, struct utfxi_b64_at *at) {
  if (dst) {
    return wide ? b64_decode_steps(src, n, 1, dst, cap, flags, pause, at)
                : b64_decode_steps(src, n, 0, dst, cap, flags, pause, at);
  }
  return wide ? b64_decode_steps(src, n, 1, NULL, 0, flags, pause, at)
              : b64_decode_steps(src, n, 0, NULL, 0, flags, pause, at);
}

static utfx_result b64_decode_all(const void *src, size_t n, int wide, unsigned char *dst,
                                  size_t cap, unsigned flags) {
  struct utfxi_b64_at at = {0, 0};
  return utfxi_b64_result(utfxi_base64_decode_steps(src, n, wide, dst, cap, flags, SIZE_MAX, &at),
                          &at);
}

utfx_result utfxi_base64_decode_scalar(const char *src, size_t n, unsigned char *dst, size_t cap,
                                       unsigned flags) {
  return b64_decode_all(src, n, 0, dst, cap, flags);
}

utfx_result utfxi_base64_decode_utf16_scalar(const char16_t *src, size_t n, unsigned char *dst,
                                             size_t cap, unsigned flags) {
  return b64_decode_all(src, n, 1, dst, cap, flags);
}

size_t utfxi_binary_length_from_base64_scalar(const char *src, size_t n, unsigned flags) {
  return b64_decode_all(src, n, 0, NULL, 0, flags).written;
}

size_t utfxi_binary_length_from_base64_utf16_scalar(const char16_t *src, size_t n,
                                                    unsigned flags) {
  return b64_decode_all(src, n, 1, NULL, 0, flags).written;
}
