/* utfx Node.js addon (N-API, C, utfx's public API only).
 *
 * index.js is the module users require: it does argument checking (handing
 * anything unusual to Node's own builtins, so errors are Node's, bit for
 * bit) and calls these functions only with arguments of the right types:
 *
 *   decoderNew()                -> a handle (external) of a state in C memory
 *   decoderMemory(handle)       -> an ArrayBuffer over that state
 *   decoderWrite(state, view)   -> string, what StringDecoder#write returns;
 *                               state: the handle, or a Buffer of stateSize
 *                               bytes (owned by one StringDecoder)
 *   utf8Slice(view)             -> string, Buffer#toString('utf8') of the view,
 *                               [args[0], args[1]) when args[2] == 1
 *   utf8Write(buf, str)         -> bytes written at args[0], at most args[1]
 *   utf8WriteLatin1(buf, str)   the same for a string without a character
 *                               above U+00FF (read as Latin-1: no widening)
 *   encodeInto(str, u8)         results[0] = UTF-16 units read, results[1] =
 *                               bytes written
 *   encodeIntoLatin1(str, u8)   the same for a string without a character
 *                               above U+00FF
 *   encodeIntoShort(str, u8)    encodeInto of under 1024 units into the last
 *                               call's destination (args[3] its length)
 *   byteLength(str)             -> UTF-8 length
 *   encode(str), encodeLatin1(str)
 *                               -> a new Buffer, Buffer.from(str, 'utf8')
 *
 * `args` and `results` are Float64Arrays shared with index.js (setup()):
 * numbers pass through them instead of N-API value calls, which cost as much
 * as a short conversion. Nothing here calls back into JavaScript.
 *
 * A decoder's state is Node's own 7 bytes (src/string_decoder.h: 4 bytes of
 * incomplete character, missing, buffered, Node's encoding number), kept
 * exactly as Node keeps them, so that Node's own native decoder, its end()
 * and its legacy getters work on the same memory: index.js gives short
 * chunks to Node's write and long ones to decoderWrite, in any order. The
 * utfx_decoder of a write is rebuilt from those bytes (the held bytes fed to
 * a fresh one), so nothing else needs to persist. Node's bookkeeping
 * (node_track below) also tells when a utf8 write starts with nothing held:
 * then the body is decoded in one shot (latin1 output when it fits, as V8
 * would store it) and only the tail is held. */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdbool.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utfx.h>

#include "scratch.h"

_Atomic(void *) scratch_blocks[SCRATCH_BLOCKS]; /* (scratch.h) */

/* N-API strings are UTF-16 in host order: the LE or BE functions. */
static int host_le(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1; /* a constant to the compiler */
}
#define HOST16(name, ...) (host_le() ? name##le(__VA_ARGS__) : name##be(__VA_ARGS__))

static utfx_result host16_to_utf8(const char16_t *s, size_t n, char *dst, size_t cap) {
  return host_le() ? utfx_convert_utf16le_to_utf8(s, n, dst, cap, UTFX_REPLACE)
                   : utfx_convert_utf16be_to_utf8(s, n, dst, cap, UTFX_REPLACE);
}
static utfx_result host16_to_latin1(const char16_t *s, size_t n, char *dst, size_t cap) {
  return host_le() ? utfx_convert_utf16le_to_latin1(s, n, dst, cap, UTFX_STRICT)
                   : utfx_convert_utf16be_to_latin1(s, n, dst, cap, UTFX_STRICT);
}
static size_t host16_utf8_length(const char16_t *s, size_t n) {
  return host_le() ? utfx_utf8_length_from_utf16le(s, n) : utfx_utf8_length_from_utf16be(s, n);
}

/* Node's state layout (string_decoder.h), which lastChar & co. expose. */
enum { ST_INCOMPLETE = 0, ST_MISSING = 4, ST_BUFFERED = 5, ST_ENC = 6, STATE_SIZE = 8 };
/* Node's encoding numbers (enum encoding, node.h) in ST_ENC. */
enum { NODE_ASCII = 0, NODE_UTF8 = 1, NODE_BASE64 = 2, NODE_UCS2 = 3, NODE_LATIN1 = 4,
       NODE_HEX = 5, NODE_BASE64URL = 7 };

/* Per-environment data (one per Node.js environment: main thread, workers). */
typedef struct {
  char16_t *u16; /* scratch: UTF-16 strings read or decoded */
  size_t u16_cap;
  char *u8; /* scratch: one-byte output */
  size_t u8_cap;
  double *args, *results; /* shared with index.js */
  napi_ref args_ref, results_ref;
  double max_string; /* v8::String::kMaxLength */
  char *into; /* the memory of the last encodeInto's destination (index.js keeps the view) */
} addon;

#define SCRATCH_KEEP ((size_t)1 << 20) /* units kept between calls; more is freed */

static void shrink(addon *a) {
  scratch_trim((void **)&a->u16, &a->u16_cap, SCRATCH_KEEP);
  scratch_trim((void **)&a->u8, &a->u8_cap, SCRATCH_KEEP);
}

/* The arguments (at most 2) and the addon data. */
static addon *get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n) {
  void *data = NULL;
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) return NULL;
  return data;
}

static int view_data(napi_env env, napi_value v, char **p, size_t *n) {
  static char empty[1];
  void *d;
  /* napi_get_buffer_info takes every ArrayBufferView (Node: IsArrayBufferView). */
  if (napi_get_buffer_info(env, v, &d, n) != napi_ok) return -1;
  *p = *n ? d : empty;
  return 0;
}

static napi_value make_latin1(napi_env env, const char *s, size_t n) {
  napi_value v = NULL;
  napi_create_string_latin1(env, n ? s : "", n, &v);
  return v;
}

static napi_value make_utf16(napi_env env, const char16_t *s, size_t n) {
  static const char16_t empty[1] = {0};
  napi_value v = NULL;
  napi_create_string_utf16(env, n ? s : empty, n, &v);
  return v;
}

/* Buffer#toString('utf8') of n bytes: ASCII goes to V8 as is; otherwise
 * Latin-1 output when every character fits (a one-byte string, as V8 would
 * make), else UTF-16, resuming where the Latin-1 attempt stopped. (Measured:
 * as fast as UTF-16 output narrowed by utfx, faster than V8 narrowing it.) */
static napi_value utf8_string(napi_env env, addon *a, const char *s, size_t n) {
  utfx_result r;
  size_t done;
  r = utfx_validate_ascii(s, n);
  if (r.status == UTFX_OK) return make_latin1(env, s, n);
  if (scratch_grow((void **)&a->u8, &a->u8_cap, n, 1)) return scratch_throw_oom(env);
  memcpy(a->u8, s, r.read);
  done = r.read;
  r = utfx_convert_utf8_to_latin1(s + done, n - done, a->u8 + done, n - done, UTFX_REPLACE);
  if (r.status == UTFX_OK) return make_latin1(env, a->u8, done + r.written);
  /* A code point above U+00FF at s + done + r.read: widen what was made. */
  if (scratch_grow((void **)&a->u16, &a->u16_cap, n, sizeof(char16_t))) return scratch_throw_oom(env);
  {
    size_t lat = done + r.written, from = done + r.read;
    utfx_result w = HOST16(utfx_convert_latin1_to_utf16, a->u8, lat, a->u16, lat, UTFX_REPLACE);
    utfx_result t = HOST16(utfx_convert_utf8_to_utf16, s + from, n - from, a->u16 + w.written,
                                                 a->u16_cap - w.written, UTFX_REPLACE);
    return make_utf16(env, a->u16, w.written + t.written);
  }
}

/* ------------------------------------------------------------ decoder */

/* Node's DecodeData bookkeeping (src/string_decoder.cc), byte for byte, on
 * the 7 state bytes. Returns the bytes at the start of the chunk that went
 * to complete the held character (which the decoder then outputs, if whole);
 * *tail gets the bytes Node keeps at the end. The body is what lies between. */
static size_t node_track(unsigned char *st, unsigned enc, const unsigned char *p, size_t n,
                         size_t *tail) {
  size_t head = 0;
  *tail = 0;
  if (enc != UTFX_UTF8 && enc != UTFX_UTF16LE && enc != UTFX_BASE64 && enc != UTFX_BASE64URL)
    return 0;
  if (st[ST_MISSING] > 0) {
    size_t found;
    if (enc == UTFX_UTF8) {
      for (size_t i = 0; i < n && i < st[ST_MISSING]; i++) {
        if ((p[i] & 0xC0) != 0x80) { /* not a continuation: the held char ends here */
          st[ST_MISSING] = 0;
          memcpy(st + ST_INCOMPLETE + st[ST_BUFFERED], p, i);
          st[ST_BUFFERED] = (unsigned char)(st[ST_BUFFERED] + i);
          head = i;
          break;
        }
      }
    }
    found = n - head < st[ST_MISSING] ? n - head : st[ST_MISSING];
    memcpy(st + ST_INCOMPLETE + st[ST_BUFFERED], p + head, found);
    head += found;
    st[ST_MISSING] = (unsigned char)(st[ST_MISSING] - found);
    st[ST_BUFFERED] = (unsigned char)(st[ST_BUFFERED] + found);
    if (st[ST_MISSING] == 0) { /* whole: decoded now (by the decoder), no longer held */
      st[ST_BUFFERED] = 0;
    }
  }
  if (head == n) return head;
  /* Only reached with nothing missing (see string_decoder.cc). */
  {
    const unsigned char *d = p + head;
    size_t m = n - head;
    unsigned buffered = 0, missing = 0;
    if (enc == UTFX_UTF8 && (d[m - 1] & 0x80)) {
      for (size_t i = m - 1;; i--) {
        buffered++;
        if ((d[i] & 0xC0) == 0x80) {
          if (buffered >= 4 || i == 0) {
            buffered = 0;
            break;
          }
        } else {
          if ((d[i] & 0xE0) == 0xC0) missing = 2;
          else if ((d[i] & 0xF0) == 0xE0) missing = 3;
          else if ((d[i] & 0xF8) == 0xF0) missing = 4;
          else {
            buffered = 0;
            break;
          }
          if (buffered >= missing) missing = buffered = 0;
          missing -= buffered;
          break;
        }
      }
    } else if (enc == UTFX_UTF16LE) {
      if (m % 2 == 1) buffered = missing = 1;
      else if ((d[m - 1] & 0xFC) == 0xD8) buffered = missing = 2;
    } else if (enc == UTFX_BASE64 || enc == UTFX_BASE64URL) {
      buffered = (unsigned)(m % 3);
      if (buffered) missing = 3 - buffered;
    }
    if (buffered) memcpy(st + ST_INCOMPLETE, d + m - buffered, buffered);
    st[ST_MISSING] = (unsigned char)missing; /* both were 0 */
    st[ST_BUFFERED] = (unsigned char)buffered;
    *tail = buffered;
  }
  return head;
}

/* Output length of Node's MakeString for n bytes of the encoding, to raise
 * ERR_STRING_TOO_LONG where Node does (before decoding). */
static double node_string_length(unsigned enc, size_t n) {
  double d = (double)n;
  switch (enc) {
  case UTFX_UTF16LE: return (double)(n / 2);
  case UTFX_HEX: return 2 * d;
  case UTFX_BASE64: return (double)((n + 2) / 3 * 4);
  case UTFX_BASE64URL: return (double)((n * 4 + 2) / 3);
  default: return d; /* utf8 (checked on bytes), latin1, ascii */
  }
}

/* Writes through the streaming decoder into the UTF-16 scratch. */
static int decoder_to_u16(addon *a, utfx_decoder *d, const char *s, size_t n, size_t *len) {
  size_t need = utfx_decoder_max_length(d, n);
  utfx_result r;
  if (scratch_grow((void **)&a->u16, &a->u16_cap, need, sizeof(char16_t))) return -1;
  r = utfx_decoder_write(d, s, n, a->u16, a->u16_cap);
  *len = r.written;
  return 0;
}

/* The same, in the UTF-8 output form, into the one-byte scratch. */
static int decoder_to_u8(addon *a, utfx_decoder *d, const char *s, size_t n, size_t *len) {
  size_t need = utfx_decoder_max_length_utf8(d, n);
  utfx_result r;
  if (scratch_grow((void **)&a->u8, &a->u8_cap, need, 1)) return -1;
  r = utfx_decoder_write_utf8(d, s, n, a->u8, a->u8_cap);
  *len = r.written;
  return 0;
}

/* The UTF-16 scratch as a string: Latin-1 (one byte a character, as V8
 * would store it) when try_one_byte and every unit fits. */
static napi_value u16_string(napi_env env, addon *a, size_t n, int try_one_byte) {
  if (try_one_byte) {
    if (scratch_grow((void **)&a->u8, &a->u8_cap, n, 1)) return scratch_throw_oom(env);
    if (host16_to_latin1(a->u16, n, a->u8, n).status == UTFX_OK)
      return make_latin1(env, a->u8, n);
  }
  return make_utf16(env, a->u16, n);
}

/* A decoder's state in C memory, shared by an external (the handle the
 * calls take: the cheapest N-API value to unwrap) and an external
 * ArrayBuffer (JavaScript's view, for the legacy getters); freed when both
 * are collected. Where external ArrayBuffers are not allowed, index.js uses
 * a Buffer of stateSize bytes as both. */
typedef struct {
  _Atomic int refs;
  unsigned char state[STATE_SIZE];
} state_block;

static void state_release(napi_env env, void *data, void *hint) {
  state_block *b = hint ? hint : data;
  (void)env;
  if (--b->refs == 0) free(b);
}

static int state_of(napi_env env, napi_value v, unsigned char **st) {
  void *p;
  size_t n;
  if (napi_get_value_external(env, v, &p) == napi_ok && p) {
    *st = ((state_block *)p)->state;
    return 0;
  }
  if (napi_get_buffer_info(env, v, &p, &n) != napi_ok || n < STATE_SIZE) return -1;
  *st = p;
  return 0;
}

/* decoderNew() -> the handle of a zeroed state. */
static napi_value js_decoder_new(napi_env env, napi_callback_info info) {
  napi_value v = NULL;
  state_block *b = calloc(1, sizeof *b);
  (void)info;
  if (!b) return scratch_throw_oom(env);
  b->refs = 1;
  if (napi_create_external(env, b, state_release, NULL, &v) != napi_ok) {
    free(b);
    return scratch_throw_oom(env);
  }
  return v;
}

/* decoderMemory(handle) -> an ArrayBuffer over the state, or undefined. */
static napi_value js_decoder_memory(napi_env env, napi_callback_info info) {
  napi_value argv[1], v = NULL;
  void *p = NULL;
  state_block *b;
  get_args(env, info, argv, 1);
  if (napi_get_value_external(env, argv[0], &p) != napi_ok || !p) return NULL;
  b = p;
  b->refs++;
  if (napi_create_external_arraybuffer(env, b->state, STATE_SIZE, state_release, b, &v) !=
      napi_ok) {
    b->refs--;
    return NULL;
  }
  return v;
}

/* The utfx encoding of Node's encoding number, or -1 for those index.js
 * leaves to Node (ascii, latin1, utf16le: a copy into V8 either way). */
static int utfx_encoding_of(unsigned node_enc) {
  switch (node_enc) {
  case NODE_UTF8: return UTFX_UTF8;
  case NODE_BASE64: return UTFX_BASE64;
  case NODE_BASE64URL: return UTFX_BASE64URL;
  case NODE_HEX: return UTFX_HEX;
  default: return -1;
  }
}

/* A decoder in the state Node's bytes describe: the held bytes of an
 * unfinished character (utf8) or group (base64) fed to a fresh one, which
 * holds them as Node does and writes nothing. */
static void decoder_from_node(utfx_decoder *d, utfx_encoding enc, const unsigned char *st) {
  char16_t none[4];
  utfx_decoder_init(d, enc);
  if (st[ST_BUFFERED] > 0 && st[ST_BUFFERED] <= 4)
    (void)utfx_decoder_write(d, (const char *)st + ST_INCOMPLETE, st[ST_BUFFERED], none, 4);
}

static napi_value js_decoder_write(napi_env env, napi_callback_info info) {
  napi_value argv[2], out;
  unsigned char *st;
  char *s;
  size_t n, head, tail, len;
  int enc, clean;
  utfx_decoder d;
  addon *a = get_args(env, info, argv, 2);
  if (!a || state_of(env, argv[0], &st) || view_data(env, argv[1], &s, &n) ||
      (enc = utfx_encoding_of(st[ST_ENC])) < 0) {
    napi_throw_type_error(env, NULL, "utfx: bad decoderWrite call");
    return NULL;
  }
  decoder_from_node(&d, (utfx_encoding)enc, st);
  clean = st[ST_MISSING] == 0 && st[ST_BUFFERED] == 0;
  head = node_track(st, (unsigned)enc, (const unsigned char *)s, n, &tail);
  if (node_string_length((unsigned)enc, n - head - tail) > a->max_string)
    return scratch_throw_too_long(env, a->max_string); /* as Node, after its bookkeeping */
  if (enc != UTFX_UTF8) {
    /* hex, base64: ASCII output, one byte a character, which is what the
     * UTF-8 output form writes. */
    if (decoder_to_u8(a, &d, s, n, &len)) return scratch_throw_oom(env);
    out = make_latin1(env, a->u8, len);
  } else if (clean) {
    /* Nothing held: the body is a one-shot decode, the tail is held. */
    out = utf8_string(env, a, s, n - tail);
  } else {
    if (decoder_to_u16(a, &d, s, n, &len)) return scratch_throw_oom(env);
    out = u16_string(env, a, len, 1);
  }
  shrink(a);
  return out;
}

/* ------------------------------------------------------------ one-shot */

static napi_value js_utf8_slice(napi_env env, napi_callback_info info) {
  napi_value argv[1], out;
  char *s;
  size_t n;
  addon *a = get_args(env, info, argv, 1);
  if (!a || view_data(env, argv[0], &s, &n)) {
    napi_throw_type_error(env, NULL, "utfx: bad utf8Slice call");
    return NULL;
  }
  if (a->args[2] == 1) { /* index.js checked 0 <= start < end <= n */
    size_t start = (size_t)a->args[0], end = (size_t)a->args[1];
    s += start;
    n = end - start;
  }
  if ((double)n > a->max_string) return scratch_throw_too_long(env, a->max_string);
  out = utf8_string(env, a, s, n);
  shrink(a);
  return out;
}

/* Copies the first min(len, limit) units of string v (len units long,
 * index.js passes string.length in args[2]) to the UTF-16 scratch, or with
 * latin1 to the one-byte scratch (V8 writes a one-byte string's bytes as
 * they are: no widening); the rest cannot reach the destination. *n gets
 * the units copied, *src where they are. With a destination dst, the UTF-16
 * copy starts 2 KiB from it modulo 4 KiB: where the two shared their
 * addresses' low 12 bits, the kernel's loads waited on its stores to the
 * destination (4K aliasing: encodeInto of 256 ASCII units 85-89 ns instead
 * of 47-50 at one destination offset in eight, by process). */
#define AWAY ((size_t)2048) /* bytes */
static int read_string(napi_env env, addon *a, napi_value v, int latin1, size_t limit,
                       const char *dst, const void **src, size_t *n) {
  double len = a->args[2];
  size_t want = len < 0 || len != len ? 0 : len < (double)limit ? (size_t)len : limit;
  napi_status st;
  if (want >= SIZE_MAX - 2 * AWAY) return -1;
  if (latin1) {
    if (scratch_grow((void **)&a->u8, &a->u8_cap, want + 1, 1)) return -1;
    st = napi_get_value_string_latin1(env, v, a->u8, want + 1, n);
    *src = a->u8;
  } else {
    char16_t *at;
    if (scratch_grow((void **)&a->u16, &a->u16_cap, want + 1 + 2 * AWAY / sizeof(char16_t),
                     sizeof(char16_t)))
      return -1;
    at = a->u16;
    if (dst) at += (((uintptr_t)dst + AWAY - (uintptr_t)at) & (2 * AWAY - 1)) / sizeof(char16_t);
    st = napi_get_value_string_utf16(env, v, at, want + 1, n);
    *src = at;
  }
  return st == napi_ok ? 0 : -1;
}

static napi_value number(napi_env env, double x) {
  napi_value v = NULL;
  napi_create_double(env, x, &v);
  return v;
}

/* utf8Write / utf8WriteLatin1 (buf, str): str at buf + args[0], at most
 * args[1] bytes, whole characters only; returns the bytes written. */
static napi_value utf8_write(napi_env env, napi_callback_info info, int latin1) {
  const void *src = NULL;
  napi_value argv[2];
  char *s;
  size_t n, len, offset, cap;
  utfx_result r;
  addon *a = get_args(env, info, argv, 2);
  if (!a || view_data(env, argv[0], &s, &n)) {
    napi_throw_type_error(env, NULL, "utfx: bad utf8Write call");
    return NULL;
  }
  offset = (size_t)a->args[0]; /* index.js checked offset + cap <= n */
  cap = (size_t)a->args[1];
  /* A unit is at least one byte: cap + 1 units decide a cut pair. */
  if (read_string(env, a, argv[1], latin1, cap + 1, s + offset, &src, &len))
    return scratch_throw_oom(env);
  r = latin1 ? utfx_convert_latin1_to_utf8(src, len, s + offset, cap, UTFX_REPLACE)
             : host16_to_utf8(src, len, s + offset, cap);
  shrink(a);
  return number(env, (double)r.written);
}

static napi_value js_utf8_write(napi_env env, napi_callback_info info) {
  return utf8_write(env, info, 0);
}

static napi_value js_utf8_write_latin1(napi_env env, napi_callback_info info) {
  return utf8_write(env, info, 1);
}

/* encode / encodeLatin1 (str): Buffer.from(str, 'utf8'), sized exactly by
 * the length kernel over the copy (in cache), then converted into it. */
static napi_value encode(napi_env env, napi_callback_info info, int latin1) {
  const void *src = NULL;
  napi_value argv[1], out = NULL;
  size_t len, size;
  void *data;
  addon *a = get_args(env, info, argv, 1);
  if (!a || read_string(env, a, argv[0], latin1, SIZE_MAX - 1, NULL, &src, &len))
    return scratch_throw_oom(env);
  size = latin1 ? utfx_utf8_length_from_latin1(src, len) : host16_utf8_length(src, len);
  if (napi_create_buffer(env, size, &data, &out) != napi_ok) return NULL; /* Node threw */
  utfx_result r = latin1 ? utfx_convert_latin1_to_utf8(src, len, data, size, UTFX_REPLACE)
                         : host16_to_utf8(src, len, data, size);
  (void)r; /* size is exact: all of it fits */
  shrink(a);
  return out;
}

static napi_value js_encode(napi_env env, napi_callback_info info) {
  return encode(env, info, 0);
}

static napi_value js_encode_latin1(napi_env env, napi_callback_info info) {
  return encode(env, info, 1);
}

/* encodeIntoLatin1 of len units into cap > len bytes at s: V8 copies the
 * one-byte string straight into the destination, whose ASCII prefix is then
 * its UTF-8 already (one copy, no second pass); from the first other byte,
 * the rest is copied out and converted back into place. The NUL V8 writes
 * after the text lands on s[len]: restored unless the output covers it
 * (with a byte to spare, the output reaches len at least, so nothing else
 * past `written` is touched). 0, or -1 (out of memory: nothing written). */
static int encode_into_latin1_direct(napi_env env, addon *a, napi_value v, char *s, size_t len,
                                     size_t cap, utfx_result *out) {
  const char keep = s[len];
  size_t got = 0, k;
  utfx_result r;
  if (scratch_grow((void **)&a->u8, &a->u8_cap, len, 1)) return -1;
  if (napi_get_value_string_latin1(env, v, s, len + 1, &got) != napi_ok) {
    out->read = out->written = 0; /* (index.js passed a string: not reached) */
    return 0;
  }
  r = utfx_validate_ascii(s, got);
  if (r.status == UTFX_OK) {
    s[got] = keep;
    out->read = out->written = got;
    return 0;
  }
  k = r.read;
  memcpy(a->u8, s + k, got - k);
  r = utfx_convert_latin1_to_utf8(a->u8, got - k, s + k, cap - k, UTFX_REPLACE);
  out->read = k + r.read;
  out->written = k + r.written;
  if (out->written <= len) s[len] = keep;
  return 0;
}

/* encodeInto / encodeIntoLatin1 (str, u8): a unit is at least one byte, so
 * n + 1 units decide what fits in u8's n bytes. */
static napi_value encode_into(napi_env env, napi_callback_info info, int latin1) {
  void *d = NULL;
  const void *src = NULL;
  napi_value argv[2];
  char *s;
  size_t n, len;
  utfx_result r;
  addon *a = get_args(env, info, argv, 2);
  if (!a) {
    napi_throw_type_error(env, NULL, "utfx: bad encodeInto call");
    return NULL;
  }
  /* args[3] >= 0: the destination is the last call's, still that long
   * (index.js saw the same view): its memory is where it was (the first
   * call's napi_get_typedarray_info moved one kept in V8's heap out of
   * it, and detached, its length is 0), and asking V8 for it was 15 % of a
   * 256-unit call. */
  if (a->args[3] >= 0 && a->into) {
    s = a->into;
    n = (size_t)a->args[3];
  } else if (scratch_u8_data(env, argv[1], &d, &n)) { /* (index.js checked: a Uint8Array) */
    a->into = NULL;
    napi_throw_type_error(env, NULL, "utfx: bad encodeInto call");
    return NULL;
  } else {
    s = d;
    a->into = n ? s : NULL; /* (an empty view's memory is a stand-in: a resizable one grows elsewhere) */
  }
  len = a->args[2] > 0 ? (size_t)a->args[2] : 0;
  if (latin1 && len && len < n) {
    if (encode_into_latin1_direct(env, a, argv[0], s, len, n, &r)) return scratch_throw_oom(env);
  } else {
    if (read_string(env, a, argv[0], latin1, n + 1, s, &src, &len)) return scratch_throw_oom(env);
    r = latin1 ? utfx_convert_latin1_to_utf8(src, len, s, n, UTFX_REPLACE)
               : host16_to_utf8(src, len, s, n);
  }
  a->results[0] = (double)r.read;
  a->results[1] = (double)r.written; /* (no number made for the return) */
  shrink(a);
  return NULL;
}

/* encodeIntoShort (str, u8): encodeInto of fewer than SHORT_INTO units into
 * the last call's destination (index.js: u8 is the view it kept, args[3] its
 * length, args[2] the string's), as a form field or a message encoded into
 * one buffer again and again. The same work as encode_into (the UTF-16 copy
 * 2 KiB from the destination modulo 4 KiB, then the kernel into it) with
 * nothing else asked: its checks and choices were a measurable part of the
 * call (docs/perf-decisions.md, 'Node session 34'). Anything else goes there. */
#define SHORT_INTO 1024 /* units (with the 2 KiB offset, within scratch_grow's least block) */
static napi_value js_encode_into_short(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  size_t argc = 2, n, want, got = 0;
  double len, cap;
  addon *a = NULL;
  char16_t *at;
  utfx_result r;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&a) != napi_ok || !a) return NULL;
  len = a->args[2];
  cap = a->args[3];
  if (!a->into || !(len >= 0 && len < SHORT_INTO && cap >= 0 && cap <= (double)SIZE_MAX / 2))
    return encode_into(env, info, 0);
  n = (size_t)cap;
  want = (size_t)len <= n ? (size_t)len : n + 1; /* (n + 1 units decide what fits) */
  if (scratch_grow((void **)&a->u16, &a->u16_cap, SHORT_INTO + 1 + 2 * AWAY / sizeof(char16_t),
                   sizeof(char16_t)))
    return scratch_throw_oom(env);
  at = a->u16 + (((uintptr_t)a->into + AWAY - (uintptr_t)a->u16) & (2 * AWAY - 1)) /
                    sizeof(char16_t);
  if (napi_get_value_string_utf16(env, argv[0], at, want + 1, &got) != napi_ok) got = 0;
  r = host16_to_utf8(at, got, a->into, n);
  a->results[0] = (double)r.read;
  a->results[1] = (double)r.written;
  return NULL;
}

static napi_value js_encode_into(napi_env env, napi_callback_info info) {
  return encode_into(env, info, 0);
}

static napi_value js_encode_into_latin1(napi_env env, napi_callback_info info) {
  return encode_into(env, info, 1);
}

static napi_value js_byte_length(napi_env env, napi_callback_info info) {
  const void *src = NULL;
  napi_value argv[1];
  size_t len;
  double out;
  addon *a = get_args(env, info, argv, 1);
  if (!a || read_string(env, a, argv[0], 0, SIZE_MAX - 1, NULL, &src, &len))
    return scratch_throw_oom(env);
  out = (double)host16_utf8_length(src, len);
  shrink(a);
  return number(env, out);
}

/* setup(args, results, maxStringLength): the shared Float64Arrays. */
static napi_value js_setup(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  void *p[2];
  size_t count;
  napi_typedarray_type type;
  addon *a = NULL;
  size_t argc = 3;
  napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&a);
  for (int i = 0; i < 2; i++) {
    if (napi_get_typedarray_info(env, argv[i], &type, &count, &p[i], NULL, NULL) != napi_ok ||
        type != napi_float64_array || count < 4) {
      napi_throw_type_error(env, NULL, "utfx: setup wants two Float64Arrays of 4");
      return NULL;
    }
  }
  if (a->args_ref) napi_delete_reference(env, a->args_ref);
  if (a->results_ref) napi_delete_reference(env, a->results_ref);
  napi_create_reference(env, argv[0], 1, &a->args_ref); /* keep them (and p) alive */
  napi_create_reference(env, argv[1], 1, &a->results_ref);
  a->args = p[0];
  a->results = p[1];
  napi_get_value_double(env, argv[2], &a->max_string);
  return NULL;
}

static void addon_free(napi_env env, void *data, void *hint) {
  addon *a = data;
  (void)env;
  (void)hint;
  free(a->u16);
  free(a->u8);
  free(a);
}

static napi_value js_implementation(napi_env env, napi_callback_info info) {
  const char *name = utfx_implementation();
  napi_value v = NULL;
  (void)info;
  napi_create_string_latin1(env, name, strlen(name), &v);
  return v;
}

/* Does nothing: bench/bench.js times it as the cost of one N-API call. */
static napi_value js_nop(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  return NULL;
}

/* Names of the kernel sets this CPU runs, best first. */
static napi_value js_implementations(napi_env env, napi_callback_info info) {
  napi_value list = NULL, v;
  uint32_t k = 0;
  (void)info;
  napi_create_array(env, &list);
  for (size_t i = 0; i < utfx_implementation_count(); i++) {
    const char *name = utfx_implementation_name(i);
    if (!utfx_implementation_supported(name)) continue;
    napi_create_string_latin1(env, name, strlen(name), &v);
    napi_set_element(env, list, k++, v);
  }
  return list;
}

/* setImplementation(name) -> true if that kernel set is now in use. */
static napi_value js_set_implementation(napi_env env, napi_callback_info info) {
  napi_value argv[1], v = NULL;
  char name[32];
  size_t len = 0;
  napi_get_cb_info(env, info, &(size_t){1}, argv, NULL, NULL);
  if (napi_get_value_string_latin1(env, argv[0], name, sizeof name, &len) != napi_ok) len = 0;
  name[len] = '\0';
  napi_get_boolean(env, len > 0 && utfx_set_implementation(name) == 0, &v);
  return v;
}

napi_value utfx_node_base64_init(napi_env env, napi_value exports); /* addon_base64.c */
int utfx_node_text_init(napi_env env, napi_value exports); /* addon_text.c */

static napi_value init(napi_env env, napi_value exports) {
  static const struct {
    const char *name;
    napi_callback cb;
  } fns[] = {
      {"setup", js_setup},
      {"decoderNew", js_decoder_new},
      {"decoderMemory", js_decoder_memory},
      {"decoderWrite", js_decoder_write},
      {"utf8Slice", js_utf8_slice},
      {"utf8Write", js_utf8_write},
      {"utf8WriteLatin1", js_utf8_write_latin1},
      {"encode", js_encode},
      {"encodeLatin1", js_encode_latin1},
      {"encodeInto", js_encode_into},
      {"encodeIntoLatin1", js_encode_into_latin1},
      {"encodeIntoShort", js_encode_into_short},
      {"byteLength", js_byte_length},
      {"implementation", js_implementation},
      {"implementations", js_implementations},
      {"setImplementation", js_set_implementation},
      {"nop", js_nop},
  };
  napi_value v;
  addon *a = calloc(1, sizeof *a);
  if (!a || napi_set_instance_data(env, a, addon_free, NULL) != napi_ok) return NULL;
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    if (napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].cb, a, &v) != napi_ok ||
        napi_set_named_property(env, exports, fns[i].name, v) != napi_ok)
      return NULL;
  }
  napi_create_uint32(env, (uint32_t)STATE_SIZE, &v);
  napi_set_named_property(env, exports, "stateSize", v);
  if (utfx_node_text_init(env, exports)) return NULL; /* TextDecoder, TextEncoder */
  return utfx_node_base64_init(env, exports);
}

/* The macro defines exported functions that have no prototype elsewhere. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-prototypes"
#endif
NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
