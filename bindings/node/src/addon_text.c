/* utfx Node.js addon: TextDecoder / TextEncoder (WHATWG Encoding), N-API,
 * utfx's public API only. text.js is the module that uses these; it checks
 * every argument (handing anything unusual to Node's own TextDecoder /
 * TextEncoder, so errors are Node's) and calls:
 *
 *   textSetup(args, maxStringLength)
 *                         args: a Float64Array of 4 shared with text.js
 *   textDecode(u8)        -> string: TextDecoder.decode(u8) of a whole
 *                         Uint8Array (text.js wraps other views in one),
 *                         no state; args[0] = utfx encoding (UTF8,
 *                         UTF16LE, UTF16BE), args[1] = UTFX_WHATWG_* flags,
 *                         args[2] >= 0: u8 is the last call's view (text.js
 *                         kept it), args[2] its length now; else -1.
 *                         undefined: fatal mode met an error.
 *   textDecodeStream(state, u8)
 *                         -> string: decode(u8, {stream}) on the decoder in
 *                         state (an ArrayBuffer of textStateSize bytes,
 *                         owned by one TextDecoder: garbage collected with
 *                         it, nothing to finalize; its memory costs less to
 *                         reach than a view's);
 *                         args[2] bit 1: initialize it first (args[0],
 *                         args[1] as above), bit 2: end the stream after this
 *                         chunk (stream: false), bit 4: state is the last
 *                         call's, still attached. undefined: fatal error (the
 *                         decoder is then reset, as TextDecoder is).
 *                         args[3] = 1 when the decoder then holds nothing
 *                         (text.js may then decode a plain chunk itself).
 *   textEncode(str), textEncodeLatin1(str)
 *                         -> a new ArrayBuffer holding exactly the UTF-8 of
 *                         str (text.js makes the Uint8Array over it);
 *                         args[0] = its length; Latin1: str has no character
 *                         above U+00FF, and args[1] is its last character
 *
 * Strings are made as V8 would keep them: one byte a character when every
 * character fits (ASCII input goes to V8 as it is), else UTF-16. */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utfx.h>

#include "scratch.h"

typedef struct {
  char16_t *u16; /* scratch: decoded UTF-16 */
  size_t u16_cap;
  char *u8; /* scratch: one-byte output, strings read */
  size_t u8_cap;
  char *out; /* scratch: encode's UTF-8 */
  size_t out_cap;
  double *args;
  napi_ref args_ref;
  void *state; /* the memory of the last stream state (text.js keeps its ArrayBuffer) */
  const char *in; /* the memory of textDecode's last view (text.js keeps the view) */
  double max_string; /* v8::String::kMaxLength */
} text_data;

#define KEEP ((size_t)1 << 20) /* scratch units kept between calls */
/* Below these sizes a string is made in one pass to UTF-16 (measured:
 * bench.js --suite text). */
#define SHORT_UTF8 ((size_t)64) /* bytes */
#define SHORT_UTF16 ((size_t)64) /* units */
#define PRESCAN ((size_t)16) /* units of a longer result looked at before the Latin-1 kernel */
/* encode (docs/perf-decisions.md, 'Node TextEncoder.encode: allocation and
 * copies'): results from UNINIT_MIN bytes are allocated without zeroing
 * when a slow writer fills them (V8's copy of a long one-byte string, the
 * UTF-16 kernel in place); one-byte strings that long that begin with PROBE
 * ASCII characters are read straight into the result; two-byte strings of
 * up to SCRATCH_UNITS are converted in the scratch and copied. */
#define UNINIT_MIN ((size_t)16 << 10) /* bytes */
#define SCRATCH_UNITS ((size_t)16 << 10)
#define PROBE ((size_t)4096)

static int host_le(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

static void shrink(text_data *t) {
  scratch_trim((void **)&t->u16, &t->u16_cap, KEEP);
  scratch_trim((void **)&t->u8, &t->u8_cap, KEEP);
}

static text_data *get(napi_env env, napi_callback_info info, napi_value *argv, size_t n) {
  void *data = NULL;
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) return NULL;
  return data;
}

/* The bytes of a Uint8Array (text.js makes one of any other view). */
static int view_data(napi_env env, napi_value v, const char **p, size_t *n) {
  void *d = NULL;
  if (scratch_u8_data(env, v, &d, n)) return -1;
  *p = d;
  return 0;
}

/* The string as an external one (a copy of s), or NULL (then the caller
 * copies into V8's heap). */
static napi_value external_string(napi_env env, const void *s, size_t n, size_t unit) {
  void *copy;
  if (!scratch_external_ok(n, unit) || !(copy = scratch_block(n * unit))) return NULL;
  memcpy(copy, s, n * unit);
  return scratch_external_string(env, copy, n, unit);
}

static napi_value latin1_string(napi_env env, const text_data *t, const char *s, size_t n) {
  napi_value v = NULL;
  if ((double)n > t->max_string) return scratch_throw_too_long(env, t->max_string);
  if ((v = external_string(env, s, n, 1)) != NULL) return v;
  napi_create_string_latin1(env, n ? s : "", n, &v);
  return v;
}

static napi_value utf16_string(napi_env env, const text_data *t, const char16_t *s, size_t n) {
  static const char16_t empty[1] = {0};
  napi_value v = NULL;
  if ((double)n > t->max_string) return scratch_throw_too_long(env, t->max_string);
  if ((v = external_string(env, s, n, 2)) != NULL) return v;
  napi_create_string_utf16(env, n ? s : empty, n, &v);
  return v;
}

/* n decoded units in the UTF-16 scratch: one byte a character if all fit
 * (V8's own check does that for short strings at less cost than ours).
 * lat: a leading run known to fit, whose next unit does not (0: unknown). */
static napi_value u16_result(napi_env env, text_data *t, size_t n, size_t lat) {
  utfx_result r;
  if (n <= SHORT_UTF16 || lat) return utf16_string(env, t, t->u16, n);
  /* Most text that does not fit shows it early (mixed text: a CJK or
   * emoji in its first words): a look at the first units spares the
   * kernel's call and its scalar end. */
  for (size_t i = 0; i < PRESCAN; i++)
    if (t->u16[i] > 0xFF) return utf16_string(env, t, t->u16, n);
  if (scratch_grow((void **)&t->u8, &t->u8_cap, n, 1)) return scratch_throw_oom(env);
  r = host_le() ? utfx_convert_utf16le_to_latin1(t->u16, n, t->u8, n, UTFX_STRICT)
                : utfx_convert_utf16be_to_latin1(t->u16, n, t->u8, n, UTFX_STRICT);
  if (r.status == UTFX_OK) return latin1_string(env, t, t->u8, n);
  return utf16_string(env, t, t->u16, n);
}

static napi_value undefined(napi_env env) {
  napi_value v = NULL;
  napi_get_undefined(env, &v);
  return v;
}

/* One-shot UTF-8: the BOM test, then ASCII as it is, else Latin-1 output
 * while every character fits, else UTF-16 from where that stopped. Short
 * text takes one pass to UTF-16 instead: V8 makes a one-byte string of it
 * when every unit fits (String::NewFromTwoByte checks), which costs less
 * than our passes at this size. */
static napi_value decode_utf8(napi_env env, text_data *t, unsigned flags, const char *s, size_t n) {
  utfx_result r;
  size_t done, lat, from;
  const char *run; /* the Latin-1 of the first lat characters */
  if (n <= SHORT_UTF8) {
    r = utfx_validate_ascii(s, n);
    if (r.status == UTFX_OK) return latin1_string(env, t, s, n); /* (no BOM: not ASCII) */
    if (scratch_grow((void **)&t->u16, &t->u16_cap, n, sizeof(char16_t))) return scratch_throw_oom(env);
    r = utfx_whatwg_decode(UTFX_UTF8, flags, s, n, t->u16, t->u16_cap);
    if (r.status != UTFX_OK) return undefined(env); /* fatal */
    return utf16_string(env, t, t->u16, r.written);
  }
  if (!(flags & UTFX_WHATWG_IGNORE_BOM) && n >= 3 && (unsigned char)s[0] == 0xEF &&
      (unsigned char)s[1] == 0xBB && (unsigned char)s[2] == 0xBF) {
    s += 3;
    n -= 3;
  }
  r = utfx_validate_ascii(s, n);
  if (r.status == UTFX_OK) return latin1_string(env, t, s, n);
  done = r.read;
  if ((unsigned char)s[done] > 0xC3) {
    /* A lead byte above C3 starts a character above U+00FF (CJK, emoji:
     * mixed text's first non-ASCII character, most often): there is no
     * Latin-1 run to look for, and the ASCII before it is widened from the
     * input itself. */
    lat = from = done;
    run = s;
  } else {
    if (scratch_grow((void **)&t->u8, &t->u8_cap, n, 1)) return scratch_throw_oom(env);
    memcpy(t->u8, s, done);
    r = utfx_convert_utf8_to_latin1(s + done, n - done, t->u8 + done, n - done, UTFX_STRICT);
    lat = done + r.written;
    if (r.status == UTFX_OK) return latin1_string(env, t, t->u8, lat);
    /* A character above U+00FF or an ill-formed sequence at s + from. */
    from = done + r.read;
    run = t->u8;
  }
  if (scratch_grow((void **)&t->u16, &t->u16_cap, lat + utfx_whatwg_max_length(UTFX_UTF8, n - from),
           sizeof(char16_t)))
    return scratch_throw_oom(env);
  r = host_le() ? utfx_convert_latin1_to_utf16le(run, lat, t->u16, lat, UTFX_STRICT)
                : utfx_convert_latin1_to_utf16be(run, lat, t->u16, lat, UTFX_STRICT);
  r = utfx_whatwg_decode(UTFX_UTF8, flags | UTFX_WHATWG_IGNORE_BOM, s + from, n - from,
                         t->u16 + lat, t->u16_cap - lat);
  if (r.status != UTFX_OK) return undefined(env); /* fatal */
  return utf16_string(env, t, t->u16, lat + r.written);
}

/* Whether w[from..units) in the host's order is well-formed (the units
 * before it are known to be); then *out is the input w[0..units) as the
 * string less a BOM to remove (V8 copies it from there, with no copy of
 * ours before), or NULL with an exception pending. */
static int host_utf16_string(napi_env env, text_data *t, const char16_t *w, size_t units,
                             size_t from, unsigned flags, napi_value *out) {
  size_t bom;
  if ((host_le() ? utfx_validate_utf16le(w + from, units - from)
                 : utfx_validate_utf16be(w + from, units - from)).status != UTFX_OK)
    return 0;
  bom = w[0] == 0xFEFF && !(flags & UTFX_WHATWG_IGNORE_BOM);
  *out = utf16_string(env, t, w + bom, units - bom);
  return 1;
}

/* The index of the first of the 8 units at w (in the host's order) above
 * 0xFF, or 8: two loads for the high bytes (in the host's order a unit's
 * high byte is the 0xFF00 of its lane whatever the byte order), then a look
 * at each. */
static size_t first_wide8(const char16_t *w) {
  uint64_t a, b;
  memcpy(&a, w, 8);
  memcpy(&b, w + 4, 8);
  if (!((a | b) & 0xFF00FF00FF00FF00u)) return 8;
  for (size_t i = 0; i < 8; i++)
    if (w[i] > 0xFF) return i;
  return 8;
}

/* One-shot UTF-16 (n bytes at s, enc UTF16LE / UTF16BE). Units below
 * 0x100 are their own Latin-1, and no BOM or surrogate is among them
 * (nothing to remove or replace): the leading run of them is narrowed
 * straight from the input. All of it: that is the string, without the
 * decode's copy and a second pass to narrow it. Else, in the host's order
 * and well-formed, the input is the string; else the run is widened back (a
 * fast kernel) and the rest decoded after it. Odd or unaligned input
 * decodes the usual way. */
static napi_value decode_utf16(napi_env env, text_data *t, utfx_encoding enc, unsigned flags,
                               const char *s, size_t n) {
  size_t units = n / 2, lat = 0;
  utfx_result r;
  /* Short, in the host's order and well-formed: the input is the string,
   * as for the long input below after its run; V8 makes it one byte a
   * character when every unit fits. */
  if (!(n & 1) && !((uintptr_t)s & 1) && units <= SHORT_UTF16 && units &&
      (enc == UTFX_UTF16LE) == host_le()) {
    napi_value out;
    if (host_utf16_string(env, t, (const char16_t *)(const void *)s, units, 0, flags, &out))
      return out;
  }
  if (!(n & 1) && !((uintptr_t)s & 1) && units > SHORT_UTF16) {
    const char16_t *w = (const char16_t *)(const void *)s;
    napi_value out;
    /* A first unit above 0xFF (CJK, emoji) ends the run before it starts:
     * no kernel call for nothing. */
    unsigned first = enc == UTFX_UTF16LE ? (unsigned)(unsigned char)s[0] | (unsigned)(unsigned char)s[1] << 8
                                         : (unsigned)(unsigned char)s[0] << 8 | (unsigned)(unsigned char)s[1];
    int host = (enc == UTFX_UTF16LE) == host_le();
    size_t wide = first <= 0xFF && host ? first_wide8(w) : 8;
    if (wide < 8) {
      /* Mixed text: a unit above 0xFF among the first 8 ends the run
       * there, no narrowing kernel's call for so few (it stops at once). */
      if (host_utf16_string(env, t, w, units, wide, flags, &out)) return out;
      /* (ill-formed: decoded whole below, lat 0) */
    } else if (first <= 0xFF) {
      if (scratch_grow((void **)&t->u8, &t->u8_cap, units, 1)) return scratch_throw_oom(env);
      r = enc == UTFX_UTF16LE ? utfx_convert_utf16le_to_latin1(w, units, t->u8, units, UTFX_STRICT)
                              : utfx_convert_utf16be_to_latin1(w, units, t->u8, units, UTFX_STRICT);
      if (r.status == UTFX_OK) return latin1_string(env, t, t->u8, units);
      lat = r.written;
    }
    /* In the host's order and well-formed after the run, the input is the
     * string itself (a BOM ends the run at unit 0). */
    if (wide == 8 && host && host_utf16_string(env, t, w, units, lat, flags, &out))
      return out;
  }
  if (scratch_grow((void **)&t->u16, &t->u16_cap, lat + utfx_whatwg_max_length(enc, n - 2 * lat),
                   sizeof(char16_t)))
    return scratch_throw_oom(env);
  if (lat)
    r = host_le() ? utfx_convert_latin1_to_utf16le(t->u8, lat, t->u16, lat, UTFX_STRICT)
                  : utfx_convert_latin1_to_utf16be(t->u8, lat, t->u16, lat, UTFX_STRICT);
  /* (after a run, not the stream's start: a U+FEFF there is a character) */
  r = utfx_whatwg_decode(enc, lat ? flags | UTFX_WHATWG_IGNORE_BOM : flags, s + 2 * lat,
                         n - 2 * lat, t->u16 + lat, t->u16_cap - lat);
  return r.status == UTFX_OK ? u16_result(env, t, lat + r.written, lat) : undefined(env);
}

static napi_value js_text_decode(napi_env env, napi_callback_info info) {
  napi_value argv[1], out;
  const char *s;
  size_t n;
  utfx_encoding enc;
  unsigned flags;
  text_data *t = get(env, info, argv, 1);
  if (!t) {
    napi_throw_type_error(env, NULL, "utfx: bad textDecode call");
    return NULL;
  }
  /* The last call's view again: its memory is where it was (the first
   * call's lookup moved one kept in V8's heap out of it; detached, its
   * length is 0; a resizable buffer does not move), and the lookup
   * (napi_get_typedarray_info: GetBuffer, Data, ByteOffset) was a fifth
   * of a 64-byte decode (docs/perf-decisions.md, 'Node session 35'). */
  if (t->args[2] >= 0 && t->in) {
    s = t->in;
    n = (size_t)t->args[2];
  } else if (view_data(env, argv[0], &s, &n)) {
    t->in = NULL;
    napi_throw_type_error(env, NULL, "utfx: bad textDecode call");
    return NULL;
  } else {
    t->in = n ? s : NULL; /* (an empty view's memory is a stand-in) */
  }
  enc = (utfx_encoding)t->args[0];
  flags = (unsigned)t->args[1];
  out = enc == UTFX_UTF8 ? decode_utf8(env, t, flags, s, n) : decode_utf16(env, t, enc, flags, s, n);
  shrink(t);
  return out;
}

static napi_value js_text_decode_stream(napi_env env, napi_callback_info info) {
  napi_value argv[2], out;
  const char *s;
  size_t n, len, need;
  void *p = NULL;
  size_t size = 0;
  utfx_decoder *d;
  utfx_result r;
  unsigned mode;
  text_data *t = get(env, info, argv, 2);
  if (!t) {
    napi_throw_type_error(env, NULL, "utfx: bad textDecodeStream call");
    return NULL;
  }
  mode = (unsigned)t->args[2];
  /* Bit 4: the state of the last call again, which text.js still holds and
   * has seen attached: its memory is where it was, and asking V8 for it
   * was 5 % of a 1 KiB chunk (docs/perf-decisions.md, 'Node text streams,
   * base64 calls, and what allocation leaves of 3x'). */
  if ((mode & 4) && t->state) {
    p = t->state;
    size = sizeof(utfx_decoder);
  } else if (napi_get_arraybuffer_info(env, argv[0], &p, &size) != napi_ok) {
    p = NULL;
  }
  if (!p || size < sizeof(utfx_decoder) || ((uintptr_t)p & 7) ||
      view_data(env, argv[1], &s, &n)) {
    t->state = NULL;
    napi_throw_type_error(env, NULL, "utfx: bad textDecodeStream call");
    return NULL;
  }
  t->state = p;
  d = p;
  if ((mode & 1) && utfx_decoder_init_whatwg(d, (utfx_encoding)t->args[0], (unsigned)t->args[1])) {
    napi_throw_type_error(env, NULL, "utfx: bad TextDecoder state");
    return NULL;
  }
  /* Room for this write and the end's U+FFFD: no DST_FULL to handle. */
  need = utfx_decoder_max_length(d, n) + 2;
  if (scratch_grow((void **)&t->u16, &t->u16_cap, need, sizeof(char16_t))) return scratch_throw_oom(env);
  r = utfx_decoder_write(d, s, n, t->u16, t->u16_cap);
  len = r.written;
  if (r.status == UTFX_OK && (mode & 2)) {
    r = utfx_decoder_end(d, t->u16 + len, t->u16_cap - len);
    len += r.written;
  }
  out = r.status == UTFX_OK ? u16_result(env, t, len, 0) : undefined(env);
  t->args[3] = utfx_decoder_max_length(d, 0) == 0; /* nothing held (end would write nothing) */
  shrink(t);
  return out;
}

/* Copies string v (args[0] units long) into a scratch: one byte a unit
 * (latin1: V8 hands a one-byte string over as it is) or UTF-16. */
static int read_string(napi_env env, text_data *t, napi_value v, int latin1, size_t *n) {
  double len = t->args[0];
  size_t want = len > 0 && len == len ? (size_t)len : 0;
  napi_status st;
  if (latin1) {
    if (scratch_grow((void **)&t->u8, &t->u8_cap, want + 1, 1)) return -1;
    st = napi_get_value_string_latin1(env, v, t->u8, want + 1, n);
  } else {
    if (scratch_grow((void **)&t->u16, &t->u16_cap, want + 1, sizeof(char16_t))) return -1;
    st = napi_get_value_string_utf16(env, v, t->u16, want + 1, n);
  }
  return st == napi_ok ? 0 : -1;
}

/* A new ArrayBuffer of size bytes for encode's result (text.js wraps it in
 * a Uint8Array: that costs less there than napi_create_typedarray), its
 * memory in *data. With uninit (and from UNINIT_MIN bytes) it is the one
 * napi_create_buffer makes, whose memory is not zeroed first, as Node's
 * encode does not zero its own (the caller writes every byte); the Buffer
 * object itself is left to the garbage collector. (The fast writers, memcpy
 * and the Latin-1 kernel, fill zeroed memory faster: calloc leaves it in
 * cache. Measured.)
 * NULL: Node threw (out of memory). */
static napi_value new_result(napi_env env, size_t size, void **data, int uninit) {
  napi_value buf, ab = NULL;
  if (uninit && size >= UNINIT_MIN) {
    if (napi_create_buffer(env, size, data, &buf) != napi_ok ||
        napi_get_typedarray_info(env, buf, NULL, NULL, NULL, &ab, NULL) != napi_ok)
      return NULL;
    return ab;
  }
  if (napi_create_arraybuffer(env, size, data, &ab) != napi_ok) return NULL;
  return ab;
}

static napi_value bad_string(napi_env env) {
  napi_throw_type_error(env, NULL, "utfx: bad textEncode call");
  return NULL;
}

/* A long one-byte string whose first PROBE characters are ASCII, read
 * straight into the result, taken to be ASCII (its UTF-8 then): one copy
 * instead of two. args[1] is its last character, which
 * napi_get_value_string_latin1 leaves out to write its NUL there. If a
 * later character is not ASCII, the bytes read are the source of the
 * conversion into the real result (the first ArrayBuffer, never seen, is
 * left to the garbage collector). NULL: the probe found a character that
 * is not ASCII (the caller converts as for any string), or Node threw. */
static napi_value encode_long_latin1(napi_env env, text_data *t, napi_value v, size_t n,
                                     int *latin) {
  napi_value ab, out;
  unsigned char *p = NULL, *q = NULL;
  size_t got = 0, ascii, size;
  utfx_result r;
  if (scratch_grow((void **)&t->u8, &t->u8_cap, PROBE + 1, 1)) return scratch_throw_oom(env);
  if (napi_get_value_string_latin1(env, v, t->u8, PROBE + 1, &got) != napi_ok) return bad_string(env);
  if (utfx_validate_ascii(t->u8, got).status != UTFX_OK) {
    *latin = 1;
    return NULL;
  }
  if (!(ab = new_result(env, n, (void **)&p, 1))) return NULL;
  if (napi_get_value_string_latin1(env, v, (char *)p, n, &got) != napi_ok || got != n - 1)
    return bad_string(env); /* (args[0] is its length: not reached) */
  p[n - 1] = (unsigned char)t->args[1];
  r = utfx_validate_ascii((const char *)p, n);
  if (r.status == UTFX_OK) return ab;
  ascii = r.read;
  size = ascii + utfx_utf8_length_from_latin1((const char *)p + ascii, n - ascii);
  if (!(out = new_result(env, size, (void **)&q, 0))) return NULL;
  memcpy(q, p, ascii);
  r = utfx_convert_latin1_to_utf8((const char *)p + ascii, n - ascii, (char *)q + ascii,
                                  size - ascii, UTFX_REPLACE);
  (void)r; /* size is exact */
  return out;
}

/* encode: a two-byte string of up to SCRATCH_UNITS units is converted in
 * the scratch (where the kernel needs no bound checks) and copied, which
 * costs less than the length pass that the others get before they are
 * converted in place. */
static napi_value text_encode(napi_env env, napi_callback_info info, int latin1) {
  napi_value argv[1], ab = NULL;
  size_t len, size, want;
  void *data = NULL;
  utfx_result r;
  text_data *t = get(env, info, argv, 1);
  if (!t) return scratch_throw_oom(env);
  want = t->args[0] > 0 ? (size_t)t->args[0] : 0;
  if (latin1 && want >= UNINIT_MIN) {
    int latin = 0;
    if ((ab = encode_long_latin1(env, t, argv[0], want, &latin)) != NULL || !latin) return ab;
  }
  if (read_string(env, t, argv[0], latin1, &len)) return scratch_throw_oom(env);
  if (!latin1 && len <= SCRATCH_UNITS) {
    if (scratch_grow((void **)&t->out, &t->out_cap, 3 * len, 1)) return scratch_throw_oom(env);
    r = host_le() ? utfx_convert_utf16le_to_utf8(t->u16, len, t->out, 3 * len, UTFX_REPLACE)
                  : utfx_convert_utf16be_to_utf8(t->u16, len, t->out, 3 * len, UTFX_REPLACE);
    if (!(ab = new_result(env, r.written, &data, 0))) return NULL;
    memcpy(data, t->out, r.written);
    return ab;
  }
  if (latin1) {
    size = utfx_utf8_length_from_latin1(t->u8, len);
  } else {
    size = host_le() ? utfx_utf8_length_from_utf16le(t->u16, len)
                     : utfx_utf8_length_from_utf16be(t->u16, len);
  }
  if (!(ab = new_result(env, size, &data, !latin1))) return NULL;
  if (latin1)
    r = utfx_convert_latin1_to_utf8(t->u8, len, data, size, UTFX_REPLACE);
  else
    r = host_le() ? utfx_convert_utf16le_to_utf8(t->u16, len, data, size, UTFX_REPLACE)
                  : utfx_convert_utf16be_to_utf8(t->u16, len, data, size, UTFX_REPLACE);
  /* size is exact; were it not, no unwritten byte is ever seen */
  if (r.written < size) memset((char *)data + r.written, 0, size - r.written);
  shrink(t);
  return ab;
}

static napi_value js_text_encode(napi_env env, napi_callback_info info) {
  return text_encode(env, info, 0);
}

static napi_value js_text_encode_latin1(napi_env env, napi_callback_info info) {
  return text_encode(env, info, 1);
}

static napi_value js_text_setup(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  void *p = NULL;
  size_t count = 0;
  napi_typedarray_type type;
  text_data *t = get(env, info, argv, 2);
  if (!t || napi_get_typedarray_info(env, argv[0], &type, &count, &p, NULL, NULL) != napi_ok ||
      type != napi_float64_array || count < 4) {
    napi_throw_type_error(env, NULL, "utfx: textSetup wants a Float64Array of 4");
    return NULL;
  }
  if (t->args_ref) napi_delete_reference(env, t->args_ref);
  napi_create_reference(env, argv[0], 1, &t->args_ref); /* keeps p alive */
  t->args = p;
  t->state = NULL; /* (a text.js of its own: its stream states) */
  napi_get_value_double(env, argv[1], &t->max_string);
  return NULL;
}

static void text_free(void *data) {
  text_data *t = data;
  free(t->u16);
  free(t->u8);
  free(t->out);
  free(t);
}

/* Called by addon.c's init: adds these functions to exports. 0 on success. */
int utfx_node_text_init(napi_env env, napi_value exports);
int utfx_node_text_init(napi_env env, napi_value exports) {
  static const struct {
    const char *name;
    napi_callback cb;
  } fns[] = {
      {"textSetup", js_text_setup},
      {"textDecode", js_text_decode},
      {"textDecodeStream", js_text_decode_stream},
      {"textEncode", js_text_encode},
      {"textEncodeLatin1", js_text_encode_latin1},
  };
  napi_value v;
  text_data *t = calloc(1, sizeof *t);
  if (!t || napi_add_env_cleanup_hook(env, text_free, t) != napi_ok) {
    free(t);
    return -1;
  }
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    if (napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].cb, t, &v) != napi_ok ||
        napi_set_named_property(env, exports, fns[i].name, v) != napi_ok)
      return -1;
  }
  if (napi_create_uint32(env, (uint32_t)((sizeof(utfx_decoder) + 7) & ~(size_t)7), &v) != napi_ok ||
      napi_set_named_property(env, exports, "textStateSize", v) != napi_ok)
    return -1;
  return 0;
}
