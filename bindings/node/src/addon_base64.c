/* utfx Node.js addon: base64 (N-API, C, utfx's public API only).
 *
 * base64.js does the argument checking and the options (TC39's order, Node's
 * names) and calls these only with arguments of the right types:
 *
 *   base64Setup(args, results, shortOut)  the Float64Arrays shared with
 *                               base64.js, and its Uint8Array for short
 *                               fromBase64 results
 *   base64Encode(view)          -> string: the view's bytes in base64, flags
 *                               (UTFX_BASE64_*) in args[0]
 *   base64DecodeInto(view, str) decodes into the view from byte
 *                               args[3] on (args[4]: the view's memory,
 *                               below): str (args[2] units long) decoded
 *                               with flags args[0]; read as Latin-1 bytes
 *                               when args[1] is 1 (a string without a unit
 *                               above 0xFF, or Node's rules, which take each
 *                               unit's low byte), else as UTF-16. results[0]
 *                               = utfx status, results[1] = read (the offset
 *                               of the error if INVALID), results[2] = bytes
 *                               written.
 *   base64DecodeNew(str)        -> ArrayBuffer: str decoded as by
 *                               base64DecodeInto (args[0..2]) into at most
 *                               args[3] bytes, exactly those written;
 *                               results as base64DecodeInto's.
 *
 * Errors of the input (INVALID) are reported, not thrown: base64.js throws
 * the SyntaxError TC39 specifies. Registered by addon.c's init through
 * utfx_node_base64_init; its own per-environment data (scratch, the shared
 * arrays) is freed with the environment. */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utfx.h>

#include "scratch.h"

napi_value utfx_node_base64_init(napi_env env, napi_value exports);

typedef struct {
  void *scratch; /* the string's copy (bytes or UTF-16 units), the encoded text */
  size_t cap;    /* bytes */
  unsigned char *into; /* the memory of the view base64.js remembers (setFromBase64's last target) */
  unsigned char *short_out; /* shortOut's memory, */
  size_t short_cap;         /* and its length */
  double *args, *results;
  napi_ref args_ref, results_ref, short_ref;
} b64_data;

/* Bytes kept between calls (more is freed): a 1 MiB input's text (1.4 MB) and
 * its copy fit, which otherwise cost fresh pages at every call (3x). */
#define SCRATCH_KEEP ((size_t)4 << 20)

static void *scratch(b64_data *d, size_t bytes) {
  if (bytes > d->cap) {
    void *p;
    if (bytes < 4096) bytes = 4096;
    p = malloc(bytes);
    if (!p) return NULL;
    free(d->scratch);
    d->scratch = p;
    d->cap = bytes;
  }
  return d->scratch;
}

static void shrink(b64_data *d) {
  scratch_trim((void **)&d->scratch, &d->cap, SCRATCH_KEEP);
}

static b64_data *get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n) {
  void *data = NULL;
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok || argc < n) return NULL;
  return data;
}

/* The bytes of a Uint8Array (base64.js passes nothing else): the typed
 * array call asks V8 less than napi_get_buffer_info, which checks the view
 * twice (addon_text.c's view_data), and less again without the type (a
 * chain of checks, 6 % of a 256-byte setFromBase64); were v another typed
 * array, its length in elements is within its bytes. */
static int view_data(napi_env env, napi_value v, unsigned char **p, size_t *n) {
  static unsigned char empty[1];
  void *d = NULL;
  if (napi_get_typedarray_info(env, v, NULL, n, &d, NULL, NULL) != napi_ok) return -1;
  *p = *n ? d : empty;
  return 0;
}

/* Flags from base64.js: only the bits utfx defines. */
static unsigned flags_of(const b64_data *d) {
  double f = d->args[0];
  return f >= 0 && f < 64 ? (unsigned)f : 0;
}

static napi_value js_encode(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  unsigned char *src;
  char *dst;
  size_t n, len;
  unsigned flags;
  utfx_result r;
  b64_data *d = get_args(env, info, argv, 1);
  if (!d || !d->args || view_data(env, argv[0], &src, &n)) {
    napi_throw_type_error(env, NULL, "utfx: bad base64Encode call");
    return NULL;
  }
  flags = flags_of(d) & (UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING);
  len = utfx_base64_length_from_binary(n, flags);
  if (len == SIZE_MAX) return scratch_throw_oom(env);
  /* A long text is encoded into a block of its own that becomes the
   * string: no copy, no large object in V8's heap (docs/perf-decisions.md,
   * 'Node session 23'). */
  if (scratch_external_ok(len, 1) && (dst = scratch_block(len)) != NULL) {
    r = utfx_base64_encode(src, n, dst, len, flags);
    if ((out = scratch_external_string(env, dst, r.written, 1)) != NULL) return out;
  }
  if (!(dst = scratch(d, len + 1))) return scratch_throw_oom(env);
  r = utfx_base64_encode(src, n, dst, len, flags);
  /* V8 refuses a string over its limit: N-API then fails with an
   * exception pending (Node's message differs; the limit is the same). */
  if (napi_create_string_latin1(env, dst, r.written, &out) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw_error(env, "ERR_STRING_TOO_LONG", "Cannot create a string this long");
    out = NULL;
  }
  shrink(d);
  return out;
}

/* Decodes string v (args[2] units; Latin-1 bytes when args[1] is 1, else
 * UTF-16) with flags args[0] into dst[0, cap), the string copied into the
 * scratch from byte `at` on (what lies before is the caller's). Sets results
 * (status, read, written) and *written; -1 when v could not be read, -2 when
 * out of memory (nothing set then). Only the fields are read back, not a
 * copy of the whole result: the kernel stores them one by one, and the
 * copy's 16-byte loads, each over two of those stores, cannot be forwarded
 * from them (they wait for the stores to reach the cache). */
static int decode_string(napi_env env, b64_data *d, napi_value v, size_t at, unsigned char *dst,
                         size_t cap, size_t *written) {
  unsigned flags = flags_of(d);
  double units = d->args[2];
  size_t len = 0, want = units > 0 && units < (double)(SIZE_MAX / 4) ? (size_t)units : 0;
  napi_status st;
  utfx_result r;
  if (d->args[1] == 1) {
    char *s = scratch(d, at + want + 1);
    if (!s) return -2;
    s += at;
    st = napi_get_value_string_latin1(env, v, s, want + 1, &len);
    r = utfx_base64_decode(s, st == napi_ok ? len : 0, dst, cap, flags);
  } else {
    /* (at is a multiple of 2: the units stay aligned) */
    char16_t *s = scratch(d, at + (want + 1) * sizeof(char16_t));
    if (!s) return -2;
    s = (char16_t *)((char *)s + at);
    st = napi_get_value_string_utf16(env, v, s, want + 1, &len);
    r = utfx_base64_decode_utf16(s, st == napi_ok ? len : 0, dst, cap, flags);
  }
  if (st != napi_ok) return -1;
  d->results[0] = (double)r.status;
  d->results[1] = (double)r.read;
  d->results[2] = (double)r.written; /* (a number made for the return costs more) */
  *written = r.written;
  return 0;
}

static napi_value js_decode_into(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  unsigned char *dst;
  size_t cap;
  size_t written;
  int e;
  double known;
  b64_data *d = get_args(env, info, argv, 2);
  if (!d || !d->args) {
    napi_throw_type_error(env, NULL, "utfx: bad base64DecodeInto call");
    return NULL;
  }
  /* args[4]: -2 ask V8 for the view's memory; -1 ask and remember it; -3
   * the view is base64.js's shortOut, whose memory setup kept; a length:
   * the view is the one remembered, still that long (base64.js saw
   * the same object), and its memory is where it was: the first call's
   * napi_get_typedarray_info moved one kept in V8's heap out of it, a
   * detached one has length 0, a resizable buffer keeps its reservation in
   * place (addon.c's encode_into does the same). Asking was about 10 % of a
   * 256-character setFromBase64. */
  known = d->args[4];
  if (known >= 0 && d->into) {
    dst = d->into;
    cap = (size_t)known;
  } else if (known == -3 && d->short_out) {
    dst = d->short_out;
    cap = d->short_cap;
  } else {
    if (known == -1) d->into = NULL;
    if (view_data(env, argv[0], &dst, &cap)) {
      napi_throw_type_error(env, NULL, "utfx: bad base64DecodeInto call");
      return NULL;
    }
    if (known == -1 && cap) d->into = dst; /* (an empty view's memory is a stand-in) */
  }
  if (d->args[3] > 0 && d->args[3] <= (double)cap) { /* base64.js keeps it in the view */
    size_t off = (size_t)d->args[3];
    dst += off;
    cap -= off;
  }
  if ((e = decode_string(env, d, argv[1], 0, dst, cap, &written)) != 0) {
    if (e == -2) return scratch_throw_oom(env);
    napi_throw_type_error(env, NULL, "utfx: bad base64DecodeInto call");
    return NULL;
  }
  shrink(d);
  return NULL;
}

/* fromBase64's result: str decoded (as base64DecodeInto, at most args[3]
 * bytes) into the scratch, then an ArrayBuffer of exactly the bytes written,
 * which base64.js views. For results of a few KiB that costs less than one
 * made in JavaScript and then found by the decode (napi_get_typedarray_info),
 * and never needs a second, exact copy (docs/perf-decisions.md, 'Node
 * session 25'). */
static napi_value js_decode_new(napi_env env, napi_callback_info info) {
  napi_value argv[1], ab = NULL;
  unsigned char *dst;
  void *data = NULL;
  size_t cap, at, want;
  size_t written;
  int e;
  b64_data *d = get_args(env, info, argv, 1);
  if (!d || !d->args || !(d->args[3] >= 0 && d->args[3] < (double)(SIZE_MAX / 8)) ||
      !(d->args[2] >= 0 && d->args[2] < (double)(SIZE_MAX / 8))) {
    napi_throw_type_error(env, NULL, "utfx: bad base64DecodeNew call");
    return NULL;
  }
  /* The bytes first, the string after them (2-byte aligned), in one
   * scratch that decode_string then does not move. */
  cap = (size_t)d->args[3];
  at = (cap + 1) & ~(size_t)1;
  want = (size_t)d->args[2];
  if (!(dst = scratch(d, at + (want + 1) * sizeof(char16_t)))) return scratch_throw_oom(env);
  if ((e = decode_string(env, d, argv[0], at, dst, cap, &written)) != 0) {
    if (e == -2) return scratch_throw_oom(env);
    napi_throw_type_error(env, NULL, "utfx: bad base64DecodeNew call");
    return NULL;
  }
  if (napi_create_arraybuffer(env, written, &data, &ab) != napi_ok) return NULL;
  if (written) memcpy(data, dst, written);
  shrink(d);
  return ab;
}

static napi_value js_setup(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  void *p[3];
  size_t count[3];
  napi_typedarray_type type;
  b64_data *d = get_args(env, info, argv, 3);
  for (int i = 0; i < 3; i++) {
    if (!d || napi_get_typedarray_info(env, argv[i], &type, &count[i], &p[i], NULL, NULL) != napi_ok ||
        type != (i < 2 ? napi_float64_array : napi_uint8_array) || count[i] < (i < 2 ? 8 : 1)) {
      napi_throw_type_error(env, NULL,
                            "utfx: base64Setup wants two Float64Arrays of 8 and a Uint8Array");
      return NULL;
    }
  }
  if (d->args_ref) napi_delete_reference(env, d->args_ref);
  if (d->results_ref) napi_delete_reference(env, d->results_ref);
  if (d->short_ref) napi_delete_reference(env, d->short_ref);
  /* keep them (and p) alive: typed arrays' memory does not move once
   * napi_get_typedarray_info has seen it (js_decode_into) */
  napi_create_reference(env, argv[0], 1, &d->args_ref);
  napi_create_reference(env, argv[1], 1, &d->results_ref);
  napi_create_reference(env, argv[2], 1, &d->short_ref);
  d->args = p[0];
  d->results = p[1];
  d->short_out = p[2];
  d->short_cap = count[2];
  return NULL;
}

static void b64_free(void *arg) {
  b64_data *d = arg;
  free(d->scratch);
  free(d);
}

/* Adds the functions above to exports; NULL (an exception pending) if not. */
napi_value utfx_node_base64_init(napi_env env, napi_value exports) {
  static const struct {
    const char *name;
    napi_callback cb;
  } fns[] = {
      {"base64Setup", js_setup},
      {"base64Encode", js_encode},
      {"base64DecodeInto", js_decode_into},
      {"base64DecodeNew", js_decode_new},
  };
  napi_value v;
  b64_data *d = calloc(1, sizeof *d);
  if (!d || napi_add_env_cleanup_hook(env, b64_free, d) != napi_ok) {
    free(d);
    return NULL;
  }
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    if (napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].cb, d, &v) != napi_ok ||
        napi_set_named_property(env, exports, fns[i].name, v) != napi_ok)
      return NULL;
  }
  return exports;
}
