/* Every conversion, length and validation of the operation lists
 * (utfx_operations.h) against ICU's converters, on every kernel tier. The
 * table is generated from the lists: a new row is tested here with no line
 * of its own; a new encoding needs its ICU converter name and input
 * generator below (ENC_<name>; the build fails until it has them).
 *
 * ICU decodes the input with the source encoding's converter and a callback
 * that substitutes U+FFFD (per maximal subpart of UTF-8, per lone surrogate,
 * per invalid UTF-32 value, per non-ASCII byte for US-ASCII: the rule utfx's
 * REPLACE follows) and notes where; the offsets ICU reports for each output
 * unit give the source offset of an error. ICU then encodes the result with
 * the target's converter. From that:
 *   - REPLACE writes ICU's output and replaces as often as ICU substituted;
 *   - STRICT stops at the first substitution, having written ICU's output
 *     for what comes before it;
 *   - a Latin-1 target stops, in both modes, at the first character above
 *     U+00FF (U+FFFD included);
 *   - a length is the units of ICU's output (code points for Latin-1);
 *   - a validation stops where ICU substitutes first.
 * test_oracle_icu.c checks the UTF-8 / UTF-16 / UTF-32 paths in more depth
 * (and against iconv); this test makes sure no operation of the lists is left
 * without an independent oracle. */
#include <string.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/ucnv_err.h>
#include <unicode/ustring.h>

#include "oracle/gen.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"
#include "utfx_operations.h"

#define CASES 3000     /* random inputs per operation and tier (a tenth under emulation) */
#define MAX_UNITS 320  /* longest input, in source units */
#define MAX_UCHARS (2 * MAX_UNITS)
#define OUT_BYTES (4 * MAX_UCHARS + 64)
#define CANARY 0xA5

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ICU_UTF32 "UTF-32BE"
#else
#define ICU_UTF32 "UTF-32LE"
#endif

/* ---------------------------------------------------------------- inputs */

typedef size_t (*gen_fn)(test_rng *r, void *d); /* fills d, returns the units */

static size_t gen_bytes8(test_rng *r, void *d) { return gen_utf8(r, d, MAX_UNITS); }
static size_t gen_latin1(test_rng *r, void *d) {
  unsigned char *b = d;
  size_t n = (size_t)rng_below(r, rng_below(r, 4) ? 40 : MAX_UNITS), i;
  for (i = 0; i < n; i++) b[i] = (unsigned char)(rng_below(r, 3) ? rng_next(r) : 'a' + i % 26);
  return n;
}
/* UTF-16 in a given memory byte order, from host-order units. */
static size_t gen_utf16_order(test_rng *r, void *d, int be) {
  uint16_t u[MAX_UNITS];
  unsigned char *b = d;
  size_t n = gen_utf16(r, u, MAX_UNITS), i;
  for (i = 0; i < n; i++) {
    b[2 * i + be] = (unsigned char)(u[i] & 0xFF);
    b[2 * i + !be] = (unsigned char)(u[i] >> 8);
  }
  return n;
}
static size_t gen_utf16le_in(test_rng *r, void *d) { return gen_utf16_order(r, d, 0); }
static size_t gen_utf16be_in(test_rng *r, void *d) { return gen_utf16_order(r, d, 1); }
static size_t gen_utf32_in(test_rng *r, void *d) { return gen_utf32(r, d, MAX_UNITS); }

/* Each encoding of the lists: its ICU converter, its unit size in memory and
 * its input generator. (utf16 names the UTF-16 target of the lengths.) */
struct enc {
  const char *icu;
  size_t unit;
  gen_fn gen;
  int latin1; /* a target that holds U+0000-U+00FF only */
};
#define ENC_utf8 {"UTF-8", 1, gen_bytes8, 0}
#define ENC_ascii {"US-ASCII", 1, gen_bytes8, 0}
#define ENC_utf16le {"UTF-16LE", 2, gen_utf16le_in, 0}
#define ENC_utf16be {"UTF-16BE", 2, gen_utf16be_in, 0}
#define ENC_utf16 {"UTF-16LE", 2, gen_utf16le_in, 0}
#define ENC_utf32 {ICU_UTF32, 4, gen_utf32_in, 0}
#define ENC_latin1 {"ISO-8859-1", 1, gen_latin1, 1}

/* ---------------------------------------------------------------- the table */

typedef utfx_result (*convert_fn)(const void *, size_t, void *, size_t, unsigned);
typedef size_t (*length_fn)(const void *, size_t);
typedef utfx_result (*validate_fn)(const void *, size_t);

#define WRAP_CONVERT(from, S, to, T)                                                       \
  static utfx_result c_##from##_to_##to(const void *s, size_t n, void *d, size_t cap,     \
                                        unsigned flags) {                                 \
    return utfx_convert_##from##_to_##to((const S *)s, n, (T *)d, cap, flags);             \
  }
#define WRAP_LENGTH(to, from, S)                                       \
  static size_t l_##to##_from_##from(const void *s, size_t n) {        \
    return utfx_##to##_length_from_##from((const S *)s, n);            \
  }
#define WRAP_VALIDATE(enc, S)                                          \
  static utfx_result v_##enc(const void *s, size_t n) {                \
    return utfx_validate_##enc((const S *)s, n);                       \
  }
UTFX_CONVERSIONS(WRAP_CONVERT)
UTFX_LENGTHS(WRAP_LENGTH)
UTFX_VALIDATIONS(WRAP_VALIDATE)

struct op {
  const char *name;
  struct enc from, to; /* a validation has no target (to.icu NULL) */
  convert_fn convert;
  length_fn length;
  validate_fn validate;
};

#define ROW_CONVERT(from, S, to, T) \
  {"utfx_convert_" #from "_to_" #to, ENC_##from, ENC_##to, c_##from##_to_##to, NULL, NULL},
#define ROW_LENGTH(to, from, S) \
  {"utfx_" #to "_length_from_" #from, ENC_##from, ENC_##to, NULL, l_##to##_from_##from, NULL},
#define ROW_VALIDATE(enc, S) \
  {"utfx_validate_" #enc, ENC_##enc, {NULL, 1, NULL, 0}, NULL, NULL, v_##enc},
static const struct op ops[] = {UTFX_CONVERSIONS(ROW_CONVERT) UTFX_LENGTHS(ROW_LENGTH)
                                    UTFX_VALIDATIONS(ROW_VALIDATE)};
#define OP_COUNT (sizeof ops / sizeof ops[0])

/* ---------------------------------------------------------------- ICU */

static struct {
  const char *name;
  UConverter *cnv;
} converters[8];

static UConverter *icu(const char *name) {
  size_t i;
  UErrorCode err = U_ZERO_ERROR;
  for (i = 0; i < 8 && converters[i].name; i++)
    if (strcmp(converters[i].name, name) == 0) return converters[i].cnv;
  if (i == 8) return NULL;
  converters[i].cnv = ucnv_open(name, &err);
  if (U_FAILURE(err)) return NULL;
  converters[i].name = name;
  return converters[i].cnv;
}

/* ICU's decoding of one input: the UTF-16, each unit's source offset in
 * bytes, the substitutions and the index of the first. */
struct decoded {
  UChar u[MAX_UCHARS + 8];
  int32_t offs[MAX_UCHARS + 8];
  size_t len, subs;
  long first_sub; /* index in u, -1 if none */
};

struct sub_note {
  struct decoded *d;
};

static void note_sub(const void *ctx, UConverterToUnicodeArgs *args, const char *units,
                     int32_t length, UConverterCallbackReason reason, UErrorCode *err) {
  struct decoded *d = ((const struct sub_note *)ctx)->d;
  static const UChar fffd = 0xFFFD;
  (void)units, (void)length;
  if (reason > UCNV_IRREGULAR) return; /* reset, close, clone */
  if (d->first_sub < 0) d->first_sub = (long)(args->target - d->u);
  d->subs++;
  *err = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &fffd, 1, 0, err);
}

static int icu_decode(const char *name, const void *src, size_t bytes, struct decoded *d) {
  static struct sub_note note;
  UConverter *cnv = icu(name);
  UErrorCode err = U_ZERO_ERROR;
  UChar *target = d->u;
  const char *source = src;
  if (!cnv) return 0;
  note.d = d;
  d->subs = 0;
  d->first_sub = -1;
  ucnv_reset(cnv);
  ucnv_setToUCallBack(cnv, note_sub, &note, NULL, NULL, &err);
  ucnv_toUnicode(cnv, &target, d->u + MAX_UCHARS + 8, &source, source + bytes, d->offs, 1, &err);
  d->len = (size_t)(target - d->u);
  return U_SUCCESS(err);
}

/* ICU's encoding of u[0..len) in bytes, or -1. */
static long icu_encode(const char *name, const UChar *u, size_t len, unsigned char *out) {
  UConverter *cnv = icu(name);
  UErrorCode err = U_ZERO_ERROR;
  int32_t n;
  if (!cnv) return -1;
  ucnv_reset(cnv);
  n = ucnv_fromUChars(cnv, (char *)out, OUT_BYTES, u, (int32_t)len, &err);
  return U_SUCCESS(err) ? n : -1;
}

/* ---------------------------------------------------------------- checks */

static unsigned char in[MAX_UNITS * 4 + 16], out[OUT_BYTES], want[OUT_BYTES];
static unsigned long n_invalid_inputs;

/* The expected result of a conversion of d (n source units) in `flags`:
 * the index in d->u where it stops (d->len if it does not). */
static size_t stop_index(const struct op *op, const struct decoded *d, unsigned flags) {
  size_t j, stop = d->len;
  if (flags == UTFX_STRICT && d->first_sub >= 0) stop = (size_t)d->first_sub;
  if (op->to.latin1)
    for (j = 0; j < stop; j++)
      if (d->u[j] > 0xFF) return j;
  return stop;
}

static void check_convert(const struct op *op, size_t n, const struct decoded *d, unsigned long k) {
  unsigned flags;
  for (flags = UTFX_STRICT; flags <= UTFX_REPLACE; flags++) {
    size_t stop = stop_index(op, d, flags), cap, wbytes;
    long bytes = icu_encode(op->to.icu, d->u, stop, want);
    utfx_result r;
    CHECK(bytes >= 0, "%s case %lu: ICU cannot encode to %s", op->name, k, op->to.icu);
    if (bytes < 0) return;
    cap = (size_t)bytes / op->to.unit + 8; /* room enough: only an error stops it */
    memset(out, CANARY, sizeof out);
    r = op->convert(in, n, out, cap, flags);
    wbytes = r.written * op->to.unit;
    if (stop == d->len) {
      CHECK(r.status == UTFX_OK && r.read == n &&
                r.replaced == (flags == UTFX_REPLACE ? d->subs : 0),
            "%s case %lu flags %u: status %d read %zu replaced %zu; ICU: OK, %zu units, %zu "
            "substitutions",
            op->name, k, flags, (int)r.status, r.read, r.replaced, n, d->subs);
    } else {
      size_t at = (size_t)d->offs[stop] / op->from.unit;
      CHECK(r.status == UTFX_INVALID && r.read == at && r.replaced == 0,
            "%s case %lu flags %u: status %d read %zu replaced %zu; ICU: stop at unit %zu", op->name,
            k, flags, (int)r.status, r.read, r.replaced, at);
    }
    CHECK(wbytes == (size_t)bytes && memcmp(out, want, wbytes) == 0,
          "%s case %lu flags %u: wrote %zu bytes, ICU %ld (or different bytes)", op->name, k,
          flags, wbytes, bytes);
    CHECK(wbytes >= sizeof out || out[wbytes] == CANARY, "%s case %lu: wrote past `written`",
          op->name, k);
  }
}

static void check_length(const struct op *op, size_t n, const struct decoded *d, unsigned long k) {
  size_t len = op->length(in, n), expect;
  if (op->to.latin1) {
    expect = (size_t)u_countChar32(d->u, (int32_t)d->len);
  } else {
    long bytes = icu_encode(op->to.icu, d->u, d->len, want);
    CHECK(bytes >= 0, "%s case %lu: ICU cannot encode to %s", op->name, k, op->to.icu);
    expect = bytes < 0 ? 0 : (size_t)bytes / op->to.unit;
  }
  CHECK(len == expect, "%s case %lu: %zu, ICU %zu", op->name, k, len, expect);
}

static void check_validate(const struct op *op, size_t n, const struct decoded *d,
                           unsigned long k) {
  utfx_result r = op->validate(in, n);
  if (d->first_sub < 0) {
    CHECK(r.status == UTFX_OK && r.read == n, "%s case %lu: status %d read %zu; ICU: valid",
          op->name, k, (int)r.status, r.read);
  } else {
    size_t at = (size_t)d->offs[d->first_sub] / op->from.unit;
    CHECK(r.status == UTFX_INVALID && r.read == at,
          "%s case %lu: status %d read %zu; ICU: first error at %zu", op->name, k, (int)r.status,
          r.read, at);
  }
}

static void suite(void) {
  static struct decoded d;
  unsigned long cases = CASES / test_share(10), k;
  size_t i;
  for (i = 0; i < OP_COUNT; i++) {
    const struct op *op = &ops[i];
    test_rng rng;
    rng_seed(&rng, 3100 + i);
    for (k = 0; k < cases; k++) {
      size_t n = op->from.gen(&rng, in);
      if (!icu_decode(op->from.icu, in, n * op->from.unit, &d)) {
        CHECK(0, "%s case %lu: ICU cannot decode %s", op->name, k, op->from.icu);
        break;
      }
      n_invalid_inputs += d.subs != 0;
      if (op->convert) check_convert(op, n, &d, k);
      if (op->length) check_length(op, n, &d, k);
      if (op->validate) check_validate(op, n, &d, k);
    }
    tap_group(op->name);
  }
}

int main(void) {
  size_t i;
  printf("# %zu operations from the lists, %lu inputs each per tier\n", OP_COUNT,
         (unsigned long)(CASES / test_share(10)));
  tap_for_each_impl(suite);
  printf("# inputs ICU found ill-formed: %lu\n", n_invalid_inputs);
  for (i = 0; i < 8 && converters[i].name; i++) ucnv_close(converters[i].cnv);
  return tap_done();
}
