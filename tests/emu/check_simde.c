/* `make check-avx512-emu-simde`: tests/emu/avx512_emu.h against SIMDe, an
 * independent portable implementation of the same intrinsics, on random
 * and edge-biased inputs (every intrinsic of simde_ops.h); and its
 * cvtepu32_ps against the CPU's own conversion (vcvtdq2ps, equal for
 * values below 2^31). Needs libsimde-dev. Prints one line per mismatching
 * intrinsic (bounded) and exits nonzero if any. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARGS                                                                             \
  const uint8_t *a, const uint8_t *b, const uint8_t *c, uint64_t K, int IMM, unsigned SH, \
      uint8_t *out
typedef void op_fn(ARGS);
#define V(n, e) op_fn emu_##n, simde_##n;
#define M V
#include "simde_ops.h"
#undef V
#undef M

static const struct {
  const char *name;
  op_fn *emu, *simde;
} ops[] = {
#define V(n, e) {#n, emu_##n, simde_##n},
#define M V
#include "simde_ops.h"
};
#define NOPS (sizeof ops / sizeof ops[0])
#define ROUNDS 100000

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
/* Bytes biased to 00, FF, 80, 7F and small values: saturation, sign and
 * index-bit edges. */
static void fill(uint8_t *v) {
  int j;
  for (j = 0; j < 64; j++) {
    uint64_t x = next();
    v[j] = (uint8_t)(x % 5 == 0 ? 0 : x % 7 == 0 ? 0xFF : x % 11 == 0 ? 0x80 : x % 13 == 0 ? 0x7F
                   : x % 3 == 0 ? (x >> 20) % 72 : x >> 24);
  }
}

int main(void) {
  static long fails[NOPS];
  long total = 0, hw_fails = 0;
  size_t i;
  int r;
  for (r = 0; r < ROUNDS; r++) {
    uint8_t a[64], b[64], c[64], x[64], y[64];
    uint64_t k = next();
    int imm = (int)(next() & 0xFF);
    unsigned sh = (unsigned)(next() % 20);
    fill(a);
    fill(b);
    fill(c);
    for (i = 0; i < NOPS; i++) {
      int cvt = strcmp(ops[i].name, "cvtepu32_ps") == 0;
      ops[i].emu(a, b, c, k, imm, sh, x);
      if (cvt) { /* the CPU's conversion, for the lanes below 2^31 */
        int j;
        for (j = 0; j < 16; j++) {
          uint32_t in, got, want;
          __m128 f;
          memcpy(&in, a + 4 * j, 4);
          if (in >> 31) continue;
          f = _mm_cvtsi32_ss(_mm_setzero_ps(), (int)in);
          memcpy(&want, &f, 4);
          memcpy(&got, x + 4 * j, 4);
          if (got != want && hw_fails++ < 5)
            printf("cvtepu32_ps %08x: emulated %08x, CPU %08x\n", in, got, want);
        }
        continue;
      }
      ops[i].simde(a, b, c, k, imm, sh, y);
      if (memcmp(x, y, strstr(ops[i].name, "_lo32") ? 32 : 64) != 0 && fails[i]++ < 1)
        printf("%s differs (k %016llx imm %d sh %u)\n", ops[i].name, (unsigned long long)k, imm,
               sh);
    }
  }
  for (i = 0; i < NOPS; i++) total += fails[i];
  printf("%zu intrinsics x %d inputs against SIMDe: %ld mismatches; cvtepu32_ps against the "
         "CPU: %ld\n",
         NOPS, ROUNDS, total, hw_fails);
  return total || hw_fails ? 1 : 0;
}
