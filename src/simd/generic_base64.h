/* Base64 kernels over a tier's block steps, the same at every vector width:
 * blocks of G64_CHARS characters (G64_BYTES bytes) in vector code while
 * they are clean, everything else in the scalar steps (scalar/base64.h), so
 * the decoding rules live in one place.
 *
 * The tier defines, before including this file:
 *   struct g64_alphabet, g64_alphabet_of(flags)
 *       its constants for the alphabet the flags decode (standard, url, both);
 *   size_t g64_decode_block(const void *src, size_t i, int wide, unsigned char *d,
 *                           const struct g64_alphabet *a, size_t *bytes)
 *       decodes whole groups from the G64_CHARS characters at src + i (bytes,
 *       or UTF-16 units when wide), all of them when all are in the
 *       alphabet; a tier may also take blocks with whitespace between the
 *       groups. Writes the bytes to d (unless d is NULL), their count to
 *       *bytes, and returns the characters used, which end with a group's
 *       last character (where TC39's `read` would be); 0 when it takes
 *       nothing (then it writes nothing); or, defining G64_OWN_BLOCKS,
 *   void g64_decode_blocks(src, n, wide, dst, cap, a, struct utfxi_b64_at *at,
 *                          const int count)
 *       the loop over blocks itself: from *at on, leaving *at after the last
 *       group it wrote (with nothing written past it); `count` (a constant:
 *       the length functions, dst NULL) lets it take a counting loop that
 *       the decoders do not carry;
 *   size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks,
 *                            char *d, int url)
 *       at most `blocks` whole blocks of s[0..n) to G64_CHARS characters each;
 *       returns the bytes consumed (it may leave the last blocks to scalar
 *       code when its loads need more than the block), a multiple of 3. d
 *       has room for the characters of every whole group of s[0..n) (n is
 *       cut to what fits), so a tier may also take the groups after the
 *       blocks.
 * optionally (G64_ENCODE_ALL), a whole encode without the scalar code:
 *   void g64_encode_all(const unsigned char *s, size_t n, char *d, size_t out, int url)
 *       all of s[0..n) as the out characters at d (out: with the padding
 *       the flags ask for, or without; d has room for them);
 * optionally (G64_DECODE_END), to end a decode without the scalar steps:
 *   int g64_decode_end(const void *src, size_t n, int wide, unsigned char *dst, size_t cap,
 *                      unsigned flags, const struct g64_alphabet *a, struct utfxi_b64_at *at)
 *       the last n - at->i <= G64_CHARS characters (from a group start) when
 *       they decode to UTFX_OK (the scalar steps' result) and take no scalar
 *       rule: decoded to dst, *at moved to the end (or, for
 *       stop-before-partial, to the unread last group), 1; else
 *       0, having decoded at most whole groups of alphabet characters
 *       that leave room to spare in dst (*at moved past them);
 * optionally (G64_CLEAN_RUN):
 *   size_t g64_clean_run(const void *src, size_t i, int wide, unsigned char *d,
 *                        size_t blocks, const struct g64_alphabet *a, const int count)
 *       up to `blocks` clean blocks from src + i to d, returns how many (it
 *       may write past a block's bytes only where the next block's go);
 *       `count` (a constant): only checks them, d unused;
 * optionally (G64_CLEAN_VALUES), for lines of one shape decoded in place:
 *   int g64_clean_values(const void *src, size_t i, int wide,
 *                        const struct g64_alphabet *a, vu8 *v)
 *       whether the G64_CHARS characters at src + i are all in the
 *       alphabet, and then their values in *v;
 *   void g64_store_values(unsigned char *d, vu8 v)
 *       the G64_BYTES bytes of those values to d (nothing past them);
 *   (v's type is G64_VALUES, vu8 unless the tier says otherwise);
 * and, for encoding in lines straight to dst, optionally (G64_ENCODE_VEC):
 *   struct g64_enc, g64_enc_of(url)   the encoder's constants;
 *   vu8 g64_encode_vec(const unsigned char *s, const struct g64_enc *k)
 *       the V_BYTES characters of s[0..G64_BYTES), reading G64_ENCODE_READ
 *       bytes;
 *   void g64_store_break(char *o, vu8 v, size_t q)
 *       v's first q < V_BYTES characters, a line feed, the rest: o[0..V_BYTES];
 *   and for CR LF breaks, optionally (G64_ENCODE_VEC_CRLF):
 *   void g64_store_crlf(char *o, vu8 v, size_t q)
 *       v's first q < V_BYTES characters, CR LF, the rest: o[0..V_BYTES + 1];
 * for decoding lines of 76 characters from bytes, optionally (G64_DECODE_LINES76):
 *   size_t g64_decode_lines76(const void *src, size_t n, unsigned char *dst, size_t cap,
 *                             const struct g64_alphabet *a, size_t S, unsigned sep,
 *                             size_t p, size_t *w)
 *       from p, a line start, whole lines of 76 alphabet characters each
 *       followed by the S separator bytes sep (little-endian), decoded to
 *       dst + *w (nothing written past the bytes it reports; dst NULL:
 *       counted) while dst keeps room to spare; returns where it stopped (a
 *       line start), *w moved on;
 * and for lines of 76 characters, optionally (G64_ENCODE_LINES76):
 *   size_t g64_lines76(const unsigned char *s, size_t take, int url, size_t sep,
 *                      char **o)
 *       whole lines of 57 bytes from a line start, each with its separator
 *       (1: LF, 2: CR LF), while more text follows; at least one when
 *       take >= G64_LINES76_READ; returns the bytes encoded, *o moved on. */
#ifndef UTFX_SIMD_GENERIC_BASE64_H
#define UTFX_SIMD_GENERIC_BASE64_H

#include "../scalar/base64.h"
#include "generic.h"

/* Characters and bytes per block: one vector of characters, unless the tier
 * says otherwise (neon: 64, its LD4 / ST3 blocks). */
#ifndef G64_CHARS
#define G64_CHARS V_BYTES
#define G64_BYTES (V_BYTES / 4 * 3)
#endif

#ifdef G64_CLEAN_VALUES
#ifndef G64_VALUES
#define G64_VALUES vu8
#endif
/* Lines of one length and separator (MIME's 76 and CR LF, PEM's 64,
 * coreutils' 76 and LF), decoded straight from the text: each line as the
 * blocks at 0, G64_CHARS, ... and the last one at L - G64_CHARS, whose groups
 * coincide where they overlap (L is a multiple of 4), so their bytes are
 * stored overlapping too. No compaction: the separator is compared where
 * it must be. The first line of another shape (the last line, a blank
 * line, other whitespace) is left to the general path. */
#define G64_LINE_BLOCKS 4
struct g64_lines {
  size_t L, S; /* G64_CHARS <= L <= G64_LINE_BLOCKS * G64_CHARS; S 1 or 2 */
  unsigned sep0, sep1;
};

UTFXI_INLINE unsigned g64_unit(const void *src, size_t k, int wide) {
  return wide ? ((const char16_t *)src)[k] : ((const unsigned char *)src)[k];
}

UTFXI_INLINE int g64_space(unsigned u) {
  return u == ' ' || u == '\t' || u == '\n' || u == '\f' || u == '\r';
}

/* Where block b of nb starts in a segment of len >= G64_CHARS characters. */
#define G64_SEG_AT(b, nb, len) ((b) + 1 < (nb) ? (b) * G64_CHARS : (len) - G64_CHARS)

/* The len characters at src + p (G64_CHARS <= len, a multiple of 4, at
 * most nb blocks), when all are in the alphabet: their values in v. */
UTFXI_INLINE int g64_segment(const void *src, size_t p, size_t len, size_t nb, int wide,
                             const struct g64_alphabet *a, G64_VALUES *v) {
  size_t b;
#pragma GCC unroll 4
  for (b = 0; b < nb; b++)
    if (!g64_clean_values(src, p + G64_SEG_AT(b, nb, len), wide, a, &v[b])) return 0;
  return 1;
}

UTFXI_INLINE void g64_segment_store(unsigned char *d, size_t len, size_t nb,
                                    const G64_VALUES *v) {
  size_t b;
#pragma GCC unroll 4
  for (b = 0; b < nb; b++) g64_store_values(d + G64_SEG_AT(b, nb, len) / 4 * 3, v[b]);
}

/* From p, a line start, the lines of shape ln (nb blocks each, a constant
 * at each call); returns how many, *pi after the last one's last character. */
UTFXI_INLINE size_t g64_lines_nb(const void *src, size_t n, int wide, unsigned char *dst,
                                 size_t cap, const struct g64_alphabet *a,
                                 const struct g64_lines *ln, const size_t nb, size_t p,
                                 size_t *pi, size_t *pw) {
  const size_t L = ln->L, S = ln->S, step = L + S, bytes = L / 4 * 3;
  size_t w = *pw, lines = 0;
  while (n - p >= step && (!dst || cap - w > bytes)) {
    G64_VALUES v[G64_LINE_BLOCKS];
    if (g64_unit(src, p + L, wide) != ln->sep0 ||
        (S == 2 && g64_unit(src, p + L + 1, wide) != ln->sep1) ||
        !g64_segment(src, p, L, nb, wide, a, v))
      break;
    if (dst) g64_segment_store(dst + w, L, nb, v);
    w += bytes;
    p += step;
    lines++;
  }
  if (lines) {
    *pi = p - S;
    *pw = w;
  }
  return lines;
}

/* The first whitespace unit of src[k..end), or end. Bytes go eight at a
 * time: a byte below 0x21 sets its top bit in `low` (the lowest such byte
 * exactly; bits above it may be borrows), and that byte is then checked.
 * (Unit by unit, the two scans of a line took ~8 % of a 4 KiB decode of
 * lines on avx2: docs/perf-decisions.md, 'Base64 decode of lines: the
 * shape found a word at a time, the next block after'.) */
UTFXI_INLINE size_t g64_next_space(const void *src, size_t k, size_t end, int wide) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ /* (the lowest byte first) */
  if (!wide) {
    const unsigned char *s = (const unsigned char *)src;
    while (end - k >= 8) {
      uint64_t x, low;
      memcpy(&x, s + k, 8);
      low = (x - 0x2121212121212121ull) & ~x & 0x8080808080808080ull;
      if (!low) {
        k += 8;
        continue;
      }
      k += g_ctz64(low) / 8;
      if (g64_space(s[k])) return k;
      k++;
    }
  }
#endif
  while (k < end && !g64_space(g64_unit(src, k, wide))) k++;
  return k;
}

/* At i (a group boundary, after a block with whitespace): whether the text
 * looks like lines of one shape, the first whitespace at or after i ending
 * the line i is on (at *ws, a multiple of 4 characters on). Verified line by
 * line after. */
UTFXI_INLINE int g64_lines_shape(const void *src, size_t n, int wide, size_t i,
                                 struct g64_lines *ln, size_t *ws) {
  const size_t most = G64_LINE_BLOCKS * G64_CHARS;
  size_t k, p, S;
  if (n - i < 2 * most + 4) return 0;
  k = g64_next_space(src, i, i + most + 1, wide);
  if ((k - i) % 4) return 0;
  S = g64_space(g64_unit(src, k + 1, wide)) ? 2 : 1;
  p = k + S;
  if (g64_space(g64_unit(src, p, wide))) return 0;
  ln->L = g64_next_space(src, p, p + most + 1, wide) - p;
  if (ln->L % 4 || ln->L < G64_CHARS || ln->L > most) return 0;
  ln->S = S;
  ln->sep0 = g64_unit(src, k, wide);
  ln->sep1 = g64_unit(src, k + 1, wide);
  *ws = k;
  return 1;
}

/* Lines of one shape from i on: the rest of the line i is on (or a block
 * ending where it ends, over characters this call decoded), then whole lines
 * while they keep the shape. Returns whether it decoded a whole line (then
 * the next block with whitespace may start another run). */
UTFXI_INLINE int g64_fixed_lines(const void *src, size_t n, int wide, unsigned char *dst,
                                 size_t cap, const struct g64_alphabet *a, size_t from,
                                 size_t *pi, size_t *pw) {
  struct g64_lines ln;
  G64_VALUES v[G64_LINE_BLOCKS];
  size_t ws, q, seg, nb, i = *pi, w;
  if (!g64_lines_shape(src, n, wide, i, &ln, &ws)) return 0;
  q = ws - i;
  seg = q < G64_CHARS ? G64_CHARS : q; /* the segment ending at ws */
  if (q && (ws - from < seg || (dst && cap - *pw <= q / 4 * 3))) return 0;
  nb = (seg + G64_CHARS - 1) / G64_CHARS;
  if (q && !g64_segment(src, ws - seg, seg, nb, wide, a, v)) return 0;
  w = *pw + q / 4 * 3;
  if (q && dst) g64_segment_store(dst + w - seg / 4 * 3, seg, nb, v);
  *pi = ws;
  *pw = w;
  {
    size_t p = ws + ln.S, lines = 0;
#ifdef G64_DECODE_LINES76
    /* the tier's own way for lines of 76 first, then the last ones here
     * (not when counting: in binary_length_from_base64 the extra code
     * slowed the clean blocks' loop by its placement) */
    if (ln.L == 76 && !wide && dst) {
      size_t p2 = g64_decode_lines76(src, n, dst, cap, a, ln.S, ln.sep0 | ln.sep1 << 8, p, pw);
      lines = p2 != p;
      if (lines) *pi = p2 - ln.S;
      p = p2;
    }
#endif
    switch ((ln.L + G64_CHARS - 1) / G64_CHARS) {
      case 1: lines += g64_lines_nb(src, n, wide, dst, cap, a, &ln, 1, p, pi, pw); break;
      case 2: lines += g64_lines_nb(src, n, wide, dst, cap, a, &ln, 2, p, pi, pw); break;
      case 3: lines += g64_lines_nb(src, n, wide, dst, cap, a, &ln, 3, p, pi, pw); break;
      default: lines += g64_lines_nb(src, n, wide, dst, cap, a, &ln, 4, p, pi, pw); break;
    }
    /* *pi is at the separator before the line that ended the run (most
     * often the last, shorter line): its first block, when clean, goes
     * here, which the general loop would take as a block with whitespace */
    p = *pi + ln.S;
    if (lines && n - p >= G64_CHARS && (!dst || cap - *pw > G64_BYTES) &&
        g64_clean_values(src, p, wide, a, v)) {
      if (dst) g64_store_values(dst + *pw, v[0]);
      *pi = p + G64_CHARS;
      *pw += G64_BYTES;
    }
    return lines != 0;
  }
}
#endif

/* Clean blocks from *at on, while a block's bytes leave room to spare: TC39
 * stops when dst becomes full, and that last group is the scalar steps'.
 * After the first block with whitespace, lines of one shape go the direct
 * way (G64_CLEAN_VALUES; again after each such run).
 * (A tier may loop over its blocks itself: G64_OWN_BLOCKS.) */
#ifndef G64_OWN_BLOCKS
UTFXI_INLINE void g64_decode_blocks(const void *src, size_t n, int wide, unsigned char *dst,
                                    size_t cap, const struct g64_alphabet *a,
                                    struct utfxi_b64_at *at, const int count) {
  size_t i = at->i, w = at->w;
  (void)count; /* (a tier without G64_CLEAN_RUN or G64_CLEAN_VALUES) */
#ifdef G64_CLEAN_VALUES
  const size_t from = at->i;
  int shapes = 1;
#endif
#ifdef G64_CLEAN_VALUES
  /* A long text starts with a block at i and goes on from the next vector
   * boundary, when that is a whole number of groups on (the two blocks
   * overlap): then no load of the blocks after spans two cache lines. */
  if ((count || dst) && n - i >= 1024 && (count || cap - w > 2 * G64_BYTES)) {
    const size_t unit = wide ? 2 : 1;
    const size_t off = (uintptr_t)((const char *)src + unit * i) % V_BYTES;
    const size_t head = off ? (V_BYTES - off) / unit : 0;
    G64_VALUES v;
    if (head && head % 4 == 0 && off % unit == 0 && g64_clean_values(src, i, wide, a, &v)) {
      if (!count) g64_store_values(dst + w, v);
      i += head;
      w += head / 4 * 3;
    }
  }
#endif
  while (n - i >= G64_CHARS && (!dst || cap - w > G64_BYTES)) {
    size_t bytes, used;
#ifdef G64_CLEAN_RUN
    if (dst) {
      size_t blocks = (n - i) / G64_CHARS, room = (cap - w - 1) / G64_BYTES, done;
      done = g64_clean_run(src, i, wide, dst + w, room < blocks ? room : blocks, a, 0);
      i += G64_CHARS * done;
      w += G64_BYTES * done;
      if (n - i < G64_CHARS || cap - w <= G64_BYTES) break;
    } else if (count) { /* the same runs, only checked */
      size_t done = g64_clean_run(src, i, wide, NULL, (n - i) / G64_CHARS, a, 1);
      i += G64_CHARS * done;
      w += G64_BYTES * done;
      if (n - i < G64_CHARS) break;
    }
#endif
    used = g64_decode_block(src, i, wide, dst ? dst + w : NULL, a, &bytes);
    if (!used) {
#ifdef G64_CLEAN_VALUES
      /* a tier whose blocks take no whitespace: lines of one shape may
       * start in this block */
      size_t at_i = i;
      if (shapes) shapes = g64_fixed_lines(src, n, wide, dst, cap, a, from, &i, &w);
      if (i != at_i) continue;
#endif
      break;
    }
    i += used;
    w += bytes;
#ifdef G64_CLEAN_VALUES
    if (bytes != G64_BYTES && shapes)
      shapes = g64_fixed_lines(src, n, wide, dst, cap, a, from, &i, &w);
#endif
  }
  at->i = i;
  at->w = w;
}
#endif

/* Blocks in vector code, and from the first unusual one the scalar steps up
 * to the group boundary after it; then blocks again. dst NULL: counts
 * (`count`: the length functions, whose dst is always NULL). */
UTFXI_INLINE utfx_result g64_decode(const void *src, size_t n, int wide, unsigned char *dst,
                                    size_t cap, unsigned flags, const int count) {
  const struct g64_alphabet a = g64_alphabet_of(flags);
  struct utfxi_b64_at at = {0, 0};
  for (;;) {
    int over;
    g64_decode_blocks(src, n, wide, dst, cap, &a, &at, count);
#ifdef G64_DECODE_END
    if (!count && dst && n - at.i <= G64_CHARS &&
        g64_decode_end(src, n, wide, dst, cap, flags, &a, &at))
      return utfxi_result(UTFX_OK, at.i, at.w, 0);
#endif
    over = utfxi_base64_decode_steps(src, n, wide, dst, cap, flags, at.i + G64_CHARS, &at);
    if (over) return utfxi_b64_result(over, &at);
  }
}

utfx_result G_NAME(base64_decode)(const char *src, size_t n, unsigned char *dst, size_t cap,
                                  unsigned flags) {
  return g64_decode(src, n, 0, dst, cap, flags, 0);
}

utfx_result G_NAME(base64_decode_utf16)(const char16_t *src, size_t n, unsigned char *dst,
                                        size_t cap, unsigned flags) {
  return g64_decode(src, n, 1, dst, cap, flags, 0);
}

size_t G_NAME(binary_length_from_base64)(const char *src, size_t n, unsigned flags) {
  return g64_decode(src, n, 0, NULL, 0, flags, 1).written;
}

size_t G_NAME(binary_length_from_base64_utf16)(const char16_t *src, size_t n, unsigned flags) {
  return g64_decode(src, n, 1, NULL, 0, flags, 1).written;
}

/* Whole blocks that fit in vector code, the rest in scalar code. With
 * G64_ENCODE_ALL this is only the path of a dst too small for the whole
 * output, out of line, so that the whole encode's path carries none of its
 * values, and cold, so that it moves no other kernel (first in the
 * object, it had moved every decoder: docs/perf-decisions.md, 'Base64
 * avx512 encode: the call around the loop'). */
#ifdef G64_ENCODE_ALL
__attribute__((noinline)) UTFXI_COLD
#endif
static utfx_result g64_encode(const unsigned char *src, size_t n, char *dst, size_t cap,
                              unsigned flags) {
  size_t blocks = n / G64_BYTES < cap / G64_CHARS ? n / G64_BYTES : cap / G64_CHARS;
  size_t fit = n < cap / 4 * 3 ? n : cap / 4 * 3; /* the bytes whose groups fit in dst */
  size_t i = g64_encode_blocks(src, fit, blocks, dst, (flags & UTFX_BASE64_URL) != 0);
  size_t w = i / 3 * 4;
  utfx_result r = utfxi_base64_encode_scalar(src + i, n - i, dst + w, cap - w, flags);
  return utfxi_result_after(&r, i, w, 0);
}

utfx_result G_NAME(base64_encode)(const unsigned char *src, size_t n, char *dst, size_t cap,
                                  unsigned flags) {
#ifdef G64_ENCODE_ALL
  size_t tail = n % 3, out = n / 3 * 4;
  if (tail) out += (flags & UTFX_BASE64_NO_PADDING) ? tail + 1 : 4;
  if (out <= cap && n <= SIZE_MAX / 4) {
    g64_encode_all(src, n, dst, out, (flags & UTFX_BASE64_URL) != 0);
    return utfxi_result(UTFX_OK, n, out, 0);
  }
#endif
  return g64_encode(src, n, dst, cap, flags);
}

/* In lines (utfx_base64_encode_lines; 1 <= L <= SIZE_MAX / 4, column <= L):
 * chunks of groups encoded by the kernel above into a buffer in L1, then
 * laid out from there with vector copies and the line feeds between. The
 * copies are loads and stores only. Lines of a vector or more go straight
 * from the registers where the tier can (G64_ENCODE_VEC): reading back the
 * text just stored waits for the stores (docs/perf-decisions.md, 'Base64
 * lines: encode straight from the registers'). */
#define G64_LINE_TEXT 4096

/* t[0..k) to o, k >= 1; nothing written at or after `end`; a short copy may
 * write past o + k below `end` (the text after it is written later) and read
 * past t + k (the buffer has V_BYTES to spare). */
UTFXI_INLINE void g64_copy(char *o, const char *t, size_t k, const char *end) {
  if (k >= V_BYTES) {
    size_t j;
    for (j = 0; j + V_BYTES < k; j += V_BYTES) v_store(o + j, v_load(t + j));
    v_store(o + k - V_BYTES, v_load(t + k - V_BYTES));
  } else if ((size_t)(end - o) >= V_BYTES) {
    v_store(o, v_load(t));
  } else {
    memcpy(o, t, k);
  }
}

#ifdef G64_ENCODE_VEC
#ifdef G64_ENCODE_VEC_CRLF
#define G64_STORE_CRLF(o, v, q) g64_store_crlf(o, v, q)
#else /* not reached: the tier has no direct CR LF path */
#define G64_STORE_CRLF(o, v, q) ((void)(o), (void)(v), (void)(q))
#endif
/* Lines of at least a vector: whole blocks encoded in registers and stored
 * in place, a block with a line break inside with g64_store_break (sep 1,
 * LF) or g64_store_crlf (sep 2; at most one per block), while the reads stay
 * within src[0..take). Returns the bytes encoded. */
UTFXI_INLINE size_t g64_lines_direct(const unsigned char *src, size_t take, int url, size_t L,
                                     const size_t sep, char **po, size_t *pc) {
  const struct g64_enc k = g64_enc_of(url);
  const int ahead = take >= UTFXI_B64_AHEAD_FROM; /* (utfxi_b64_ahead) */
  size_t i = 0, c = *pc;
  char *o = *po;
  for (; take - i >= G64_ENCODE_READ; i += G64_BYTES) {
    vu8 v = g64_encode_vec(src + i, &k);
    if (ahead) utfxi_b64_ahead(o);
    if (L - c < V_BYTES) {
      if (sep == 2)
        G64_STORE_CRLF(o, v, L - c);
      else
        g64_store_break(o, v, L - c);
      o += V_BYTES + sep;
      c = V_BYTES - (L - c);
    } else {
      v_store(o, v);
      o += V_BYTES;
      c += V_BYTES;
    }
  }
  *po = o;
  *pc = c;
  return i;
}
#endif

utfx_result G_NAME(base64_encode_lines)(const unsigned char *src, size_t n, char *dst, size_t cap,
                                        unsigned flags, size_t L, size_t *column) {
  char text[G64_LINE_TEXT + V_BYTES];
  size_t c = *column, take, i = 0;
  const int crlf = (flags & UTFX_BASE64_CRLF) != 0;
  size_t chars = utfxi_b64_lines_plan(n, cap, flags, L, c, &take);
  char *o = dst, *end = dst + chars + utfxi_b64_feeds(c, chars, L) * (crlf ? 2 : 1);
  memset(text + G64_LINE_TEXT, 0, V_BYTES);
#ifdef G64_ENCODE_LINES76
  /* from a line start, the tier's own lines of 76 (its separators written
   * as each line ends: more text follows) */
  if (L == 76 && (c == 0 || c == L) && take >= G64_LINES76_READ) {
    if (c == L) {
      if (crlf) *o++ = '\r';
      *o++ = '\n';
      c = 0;
    }
    i = g64_lines76(src, take, (flags & UTFX_BASE64_URL) != 0, crlf ? 2 : 1, &o);
  }
#endif
#ifdef G64_ENCODE_VEC
  if (L >= V_BYTES && take - i >= G64_ENCODE_READ && !crlf)
    i += g64_lines_direct(src + i, take - i, (flags & UTFX_BASE64_URL) != 0, L, 1, &o, &c);
#endif
#ifdef G64_ENCODE_VEC_CRLF
  if (L >= V_BYTES && take - i >= G64_ENCODE_READ && crlf)
    i += g64_lines_direct(src + i, take - i, (flags & UTFX_BASE64_URL) != 0, L, 2, &o, &c);
#endif
  while (i < take) {
    size_t part = take - i < G64_LINE_TEXT / 4 * 3 ? take - i : G64_LINE_TEXT / 4 * 3;
    size_t m = G_NAME(base64_encode)(src + i, part, text, G64_LINE_TEXT, flags).written, p = 0;
    while (p < m) {
      size_t seg;
      if (c == L) {
        if (crlf) *o++ = '\r';
        *o++ = '\n';
        c = 0;
      }
      seg = L - c < m - p ? L - c : m - p;
      g64_copy(o, text + p, seg, end);
      o += seg, p += seg, c += seg;
    }
    i += part;
  }
  *column = c;
  return utfxi_result(take < n ? UTFX_DST_FULL : UTFX_OK, take, (size_t)(o - dst), 0);
}

#endif
