/* Every public function returns with the upper vector state clean, on every
 * tier this CPU runs: right after each validate / convert / length / repair
 * call and each streaming-decoder call, XINUSE (XGETBV with ECX = 1) has
 * bit 2 (upper halves of YMM0-15) and bit 6 (upper halves of ZMM0-15) clear.
 * Otherwise the caller's next legacy-SSE instruction pays a state transition
 * on Intel (design.md section 3, issue 11).
 *
 * The calls cover the kernels' exits: ASCII, mixed-script (with 4-byte
 * characters and surrogate pairs) and ill-formed text, lengths around the
 * 32-byte vector and the short path, STRICT and REPLACE, room for everything,
 * a destination that fills up, and none. A first group proves that the probe
 * sees a dirty upper state when there is one. Skipped (with a message) where
 * XGETBV with ECX = 1 does not exist: non-x86 hosts, CPUs without it; and
 * for the emulated avx512 tier (`make test-avx512-emu`), whose machine code
 * is not the real kernels'. */
#include <string.h>

#include "internal.h"
#include "support/emulated.h"
#include "tap.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

#define XINUSE_UPPER 0x44u /* bit 2: YMM_Hi128, bit 6: ZMM_Hi256 */

static int have_avx;

static int have_xinuse(void) {
  unsigned a, b, c, d, max_leaf;
  if (!__get_cpuid(0, &max_leaf, &b, &c, &d) || max_leaf < 0xD) return 0;
  __cpuid_count(1, 0, a, b, c, d);
  if (!(c & (1u << 27))) return 0; /* OSXSAVE: XGETBV is usable */
  have_avx = (c >> 28) & 1;
  __cpuid_count(0xD, 1, a, b, c, d);
  return (a >> 2) & 1; /* XGETBV with ECX = 1 */
}

/* A legacy-SSE instruction first: Zen 4 can report the upper state clean
 * right after a return without VZEROUPPER and set the bit only at the next
 * legacy-SSE instruction, the one that pays on Intel. */
static unsigned xinuse(void) {
  unsigned lo, hi;
  __asm__ volatile("pxor %%xmm15, %%xmm15\n\txgetbv" : "=a"(lo), "=d"(hi) : "c"(1) : "xmm15");
  return lo;
}

/* XINUSE right after a 256-bit write (one asm statement: a compiler that
 * knew of the write would clean up after it, as it should). AVX only. */
static unsigned xinuse_after_ymm_write(void) {
  unsigned lo, hi;
  __asm__ volatile("vpcmpeqb %%ymm15, %%ymm15, %%ymm15\n\txgetbv"
                   : "=a"(lo), "=d"(hi)
                   : "c"(1)
                   : "xmm15");
  return lo;
}
static void clean_upper(void) { __asm__ volatile("vzeroupper"); }

/* ---- inputs --------------------------------------------------------------- */

#define MAX_N 1100
enum { T_ASCII, T_MIXED, T_LATIN1, T_BAD, TEXTS };
static const char *const text_name[TEXTS] = {"ascii", "mixed", "latin1", "ill-formed"};

/* One text in every source form. */
static struct {
  char utf8[MAX_N], latin1[MAX_N];
  char16_t utf16le[MAX_N], utf16be[MAX_N];
  char32_t utf32[MAX_N];
  size_t n_utf8, n_latin1, n_utf16le, n_utf16be, n_utf32;
} text[TEXTS];
#define n_ascii n_utf8
#define ascii utf8

static union {
  char c[4 * MAX_N + 64];
  char16_t u16[2 * MAX_N + 32];
  char32_t u32[MAX_N + 16];
} out;

static volatile size_t sink; /* results are not checked here, only the state */

static char16_t swap16(char16_t u) { return (char16_t)((u >> 8 | u << 8) & 0xFFFF); }

static void make_texts(void) {
  static const char mixed[] = "a\xC3\xA9\xE2\x82\xAC\xE6\x97\xA5\xF0\x9F\x98\x80 Lorem ";
  size_t t, i;
  (void)utfx_set_implementation("scalar");
  for (t = 0; t < TEXTS; t++) {
    char *u8 = text[t].utf8;
    size_t n = 0;
    while (n + 16 < MAX_N / 4) {
      if (t == T_ASCII)
        u8[n] = (char)(' ' + n % 90), n++;
      else if (t == T_LATIN1)
        memcpy(u8 + n, n % 5 ? "ab" : "\xC3\xA9", 2), n += 2;
      else
        memcpy(u8 + n, mixed, sizeof mixed - 1), n += sizeof mixed - 1;
    }
    text[t].n_utf8 = n;
    text[t].n_utf16le =
        utfx_convert_utf8_to_utf16le(u8, n, text[t].utf16le, MAX_N, UTFX_STRICT).written;
    text[t].n_utf16be =
        utfx_convert_utf8_to_utf16be(u8, n, text[t].utf16be, MAX_N, UTFX_STRICT).written;
    text[t].n_utf32 = utfx_convert_utf8_to_utf32(u8, n, text[t].utf32, MAX_N, UTFX_STRICT).written;
    text[t].n_latin1 =
        utfx_convert_utf8_to_latin1(u8, n, text[t].latin1, MAX_N, UTFX_STRICT).written;
  }
  /* Errors in the middle: a byte no UTF-8 has, a lone surrogate, a value
   * above U+10FFFF (Latin-1 has no ill-formed input; it stays a prefix). */
  i = 40;
  text[T_BAD].utf8[i] = (char)0xFF;
  text[T_BAD].utf8[i + 70] = (char)0xED;
  text[T_BAD].utf16le[i] = 0xD800;
  text[T_BAD].utf16be[i] = swap16(0xDC00);
  text[T_BAD].utf32[i] = 0x110000;
}

/* Source lengths: the short path, one vector and around, several, long. */
static const size_t lengths[] = {1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 200, 257, 1000};
/* Capacities, as multiples of n: none, a destination that fills, room. */
static const size_t cap_num[] = {0, 1, 4};
static const size_t cap_den[] = {1, 2, 1};

#define CHECK_CLEAN(what, n)                                                            \
  do {                                                                                  \
    unsigned x_ = xinuse();                                                             \
    CHECK(!(x_ & XINUSE_UPPER), "%s on %s text, n=%zu: XINUSE=%#x", what, text_name[t], \
          (size_t)(n), x_);                                                             \
  } while (0)

static void all_functions(void) {
  size_t t, l, c;
  unsigned f;
  for (t = 0; t < TEXTS; t++)
    for (l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      size_t want = lengths[l];
#define V(enc, S)                                                    \
  if (want <= text[t].n_##enc) {                                     \
    sink = utfx_validate_##enc(text[t].enc, want).read;                    \
    CHECK_CLEAN("utfx_validate_" #enc, want);                        \
  }
      UTFXI_VALIDATIONS(V)
#undef V
#define L(to, from, S)                                                       \
  if (want <= text[t].n_##from) {                                            \
    sink = utfx_##to##_length_from_##from(text[t].from, want);                \
    CHECK_CLEAN("utfx_" #to "_length_from_" #from, want);                    \
  }
      UTFXI_LENGTHS(L)
#undef L
      /* the UTF-16 maps (swap, repair), checks and flagged lengths (operations.h) */
      if (want <= text[t].n_utf16le && want <= MAX_N) {
        int flag;
#define SCAN_MAP(op)                                  \
  utfx_##op(text[t].utf16le, want, out.u16);          \
  CHECK_CLEAN("utfx_" #op, want);
#define SCAN_CHECK(op)                                \
  sink = utfx_##op(text[t].utf16le, want).read;       \
  CHECK_CLEAN("utfx_" #op, want);
#define SCAN_FLAGGED(op)                              \
  sink = utfx_##op(text[t].utf16le, want, &flag);     \
  CHECK_CLEAN("utfx_" #op, want);
        UTFXI_UTF16_MAPS(SCAN_MAP)
        UTFXI_UTF16_CHECKS(SCAN_CHECK)
        UTFXI_UTF16_FLAGGED_LENGTHS(SCAN_FLAGGED)
#undef SCAN_MAP
#undef SCAN_CHECK
#undef SCAN_FLAGGED
      }
      for (c = 0; c < sizeof cap_num / sizeof cap_num[0]; c++)
        for (f = 0; f <= UTFX_REPLACE; f++) {
          size_t cap = want * cap_num[c] / cap_den[c];
#define C(from, S, to, T)                                                                   \
  if (want <= text[t].n_##from) {                                                          \
    size_t room = sizeof out / sizeof(T);                                                  \
    sink = utfx_convert_##from##_to_##to(text[t].from, want, (T *)(void *)out.c,           \
                                         cap < room ? cap : room, f).written;              \
    CHECK_CLEAN("utfx_convert_" #from "_to_" #to, want);                                   \
  }
          UTFXI_CONVERSIONS(C)
#undef C
        }
    }
}

static void decoder_calls(void) {
  static const utfx_encoding encs[] = {UTFX_UTF8,  UTFX_UTF16LE, UTFX_LATIN1,   UTFX_ASCII,
                                       UTFX_BASE64, UTFX_BASE64URL, UTFX_HEX};
  static const size_t chunks[] = {1, 3, 16, 33, 64, 257, 1000};
  size_t t, e, c;
  for (t = 0; t < TEXTS; t++)
    for (e = 0; e < sizeof encs / sizeof encs[0]; e++)
      for (c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        const char *src = text[t].utf8;
        size_t n = text[t].n_utf8, i, step = chunks[c];
        int u8;
        for (u8 = 0; u8 < 2; u8++) {
          utfx_decoder d;
          if (utfx_decoder_init(&d, encs[e]) != 0) {
            CHECK(0, "utfx_decoder_init(%d) failed", (int)encs[e]);
            continue;
          }
          CHECK_CLEAN("utfx_decoder_init", 0);
          for (i = 0; i < n; i += step) {
            size_t k = n - i < step ? n - i : step;
            if (u8)
              sink = utfx_decoder_write_utf8(&d, src + i, k, out.c, sizeof out.c).written;
            else
              sink = utfx_decoder_write(&d, src + i, k, out.u16, sizeof out.u16 / 2).written;
            CHECK_CLEAN(u8 ? "utfx_decoder_write_utf8" : "utfx_decoder_write", k);
            /* A destination that fills up: the bounded exits. */
            if (u8)
              sink = utfx_decoder_write_utf8(&d, src + i, 0, out.c, 0).written;
          }
          if (u8)
            sink = utfx_decoder_end_utf8(&d, out.c, sizeof out.c).written;
          else
            sink = utfx_decoder_end(&d, out.u16, sizeof out.u16 / 2).written;
          CHECK_CLEAN(u8 ? "utfx_decoder_end_utf8" : "utfx_decoder_end", 0);
        }
        {
          utfx_decoder d;
          if (utfx_decoder_init(&d, encs[e]) == 0) {
            sink = utfx_decoder_write(&d, src, n, out.u16, step).written;
            CHECK_CLEAN("utfx_decoder_write (small cap)", n);
          }
        }
      }
}

/* The WHATWG mode and its one-shot call, on the same texts (UTF-8, and the
 * UTF-16LE/BE texts as bytes), replacing and fatal. */
static void whatwg_calls(void) {
  static const size_t chunks[] = {1, 3, 64, 1000};
  size_t t, e, c;
  unsigned flags;
  int u8;
  for (t = 0; t < TEXTS; t++)
    for (e = 0; e < 3; e++)
      for (flags = 0; flags <= UTFX_WHATWG_FATAL; flags++)
        for (u8 = 0; u8 < 2; u8++) {
          const utfx_encoding enc = e == 0 ? UTFX_UTF8 : e == 1 ? UTFX_UTF16LE : UTFX_UTF16BE;
          const char *src = e == 0   ? text[t].utf8
                            : e == 1 ? (const char *)text[t].utf16le
                                     : (const char *)text[t].utf16be;
          size_t n = e == 0 ? text[t].n_utf8 : 2 * text[t].n_utf16le, i;
          if (u8)
            sink = utfx_whatwg_decode_utf8(enc, flags, src, n, out.c, sizeof out.c).written;
          else
            sink = utfx_whatwg_decode(enc, flags, src, n, out.u16, sizeof out.u16 / 2).written;
          CHECK_CLEAN(u8 ? "utfx_whatwg_decode_utf8" : "utfx_whatwg_decode", n);
          for (c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            utfx_decoder d;
            if (utfx_decoder_init_whatwg(&d, enc, flags) != 0) {
              CHECK(0, "utfx_decoder_init_whatwg(%d) failed", (int)enc);
              continue;
            }
            for (i = 0; i < n; i += chunks[c]) {
              size_t k = n - i < chunks[c] ? n - i : chunks[c];
              if (u8)
                sink = utfx_decoder_write_utf8(&d, src + i, k, out.c, sizeof out.c).written;
              else
                sink = utfx_decoder_write(&d, src + i, k, out.u16, sizeof out.u16 / 2).written;
              CHECK_CLEAN(u8 ? "whatwg utfx_decoder_write_utf8" : "whatwg utfx_decoder_write", k);
            }
            if (u8)
              sink = utfx_decoder_end_utf8(&d, out.c, sizeof out.c).written;
            else
              sink = utfx_decoder_end(&d, out.u16, sizeof out.u16 / 2).written;
            CHECK_CLEAN(u8 ? "whatwg utfx_decoder_end_utf8" : "whatwg utfx_decoder_end", 0);
          }
        }
}

/* Base64 both ways, every decode flavour: clean text, text with line
 * breaks, and a bad character, as bytes and as UTF-16; a dst too small;
 * the lengths. */
static void base64_calls(void) {
  static char b64[2 * MAX_N], wrapped[3 * MAX_N];
  static char16_t b64_16[3 * MAX_N];
  static const unsigned modes[] = {0, UTFX_BASE64_STRICT, UTFX_BASE64_URL, UTFX_BASE64_NODE};
  size_t t = T_ASCII, l, m, i, n, k;
  for (l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
    size_t want = lengths[l] < MAX_N ? lengths[l] : MAX_N;
    n = utfx_base64_encode((const unsigned char *)text[t].utf8, want, b64, sizeof b64, 0).written;
    CHECK_CLEAN("utfx_base64_encode", want);
    sink = utfx_base64_encode((const unsigned char *)text[t].utf8, want, b64, n / 2, 0).written;
    CHECK_CLEAN("utfx_base64_encode (dst too small)", want);
    sink = utfx_base64_decode(b64, n, (unsigned char *)out.c, want / 2, 0).written;
    CHECK_CLEAN("utfx_base64_decode (dst too small)", n);
    if (utfx_base64_encode_lines((const unsigned char *)text[t].utf8, want, wrapped,
                                 sizeof wrapped, 0, 76, NULL).status != UTFX_OK)
      CHECK(0, "utfx_base64_encode_lines");
    CHECK_CLEAN("utfx_base64_encode_lines", want);
    for (i = k = 0; i < n; i++) {
      wrapped[k++] = b64[i];
      if (i % 76 == 75) wrapped[k++] = '\n';
    }
    if (k > 10) wrapped[k / 2] = '*';
    for (i = 0; i < k; i++) b64_16[i] = (unsigned char)wrapped[i];
    for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
      sink = utfx_base64_decode(b64, n, (unsigned char *)out.c, sizeof out, modes[m]).written;
      CHECK_CLEAN("utfx_base64_decode", n);
      sink = utfx_base64_decode(wrapped, k, (unsigned char *)out.c, sizeof out, modes[m]).written;
      CHECK_CLEAN("utfx_base64_decode (lines, a bad character)", k);
      sink = utfx_base64_decode_utf16(b64_16, k, (unsigned char *)out.c, n / 2, modes[m]).written;
      CHECK_CLEAN("utfx_base64_decode_utf16", k);
      sink = utfx_binary_length_from_base64(b64, n, modes[m]);
      CHECK_CLEAN("utfx_binary_length_from_base64", n);
      sink = utfx_binary_length_from_base64_utf16(b64_16, k, modes[m]);
      CHECK_CLEAN("utfx_binary_length_from_base64_utf16", k);
    }
  }
}

static void suite(void) {
  if (test_emulated() && strcmp(utfx_implementation(), "avx512") == 0) {
    /* The emulated tier's machine code is the compiler's AVX2 code for
     * tests/emu's plain-C intrinsics: where it puts VZEROUPPER says nothing
     * of the real kernels, which the native run checks on AVX-512 CPUs. */
    printf("# skipping avx512 here: emulated, not the real kernels' exits\n");
    return;
  }
  base64_calls();
  tap_group("base64 calls return with clean upper YMM/ZMM state");
  all_functions();
  tap_group("validate / convert / length / repair return with clean upper YMM/ZMM state");
  decoder_calls();
  tap_group("decoder calls return with clean upper YMM/ZMM state");
  whatwg_calls();
  tap_group("WHATWG decoder calls return with clean upper YMM/ZMM state");
}

int main(void) {
  if (!have_xinuse()) {
    printf("1..0 # SKIP this CPU has no XGETBV with ECX=1 (XINUSE)\n");
    return 0;
  }
  make_texts();
  if (!have_avx) {
    printf("# no AVX: nothing can leave the upper state dirty; the calls are still checked\n");
  } else {
    unsigned clean_x, dirty_x;
    clean_upper();
    clean_x = xinuse();
    dirty_x = xinuse_after_ymm_write();
    clean_upper();
    CHECK(!(clean_x & 4u) && (dirty_x & 4u), "XINUSE after vzeroupper %#x, after a YMM write %#x",
          clean_x, dirty_x);
    tap_group("the XINUSE probe sees a dirty upper YMM state");
  }
  tap_for_each_impl(suite);
  return tap_done();
}
#else
int main(void) {
  printf("1..0 # SKIP no XGETBV with ECX=1 (XINUSE) on this host\n");
  return 0;
}
#endif
