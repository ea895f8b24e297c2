/* One side of check_simde.c, compiled twice: with -DEMU over
 * tests/emu/avx512_emu.h (emu_<name>), without over SIMDe (simde_<name>).
 * Each function applies one intrinsic of simde_ops.h to 64-byte buffers. */
#include <stdint.h>
#include <string.h>

#ifdef EMU
#include "avx512_emu.h"
#define P(x) _mm512_##x
typedef __m512i vec;
#define FN(n) emu_##n
#else
#include <simde/x86/avx512.h>
#define P(x) simde_mm512_##x
typedef simde__m512i vec;
#define FN(n) simde_##n
#endif

#define ARGS                                                                             \
  const uint8_t *a, const uint8_t *b, const uint8_t *c, uint64_t K, int IMM, unsigned SH, \
      uint8_t *out
#define PROLOGUE                \
  vec A, B, C;                  \
  memcpy(&A, a, 64);            \
  memcpy(&B, b, 64);            \
  memcpy(&C, c, 64);            \
  (void)B, (void)C, (void)K, (void)IMM, (void)SH
#define V(n, e)               \
  void FN(n)(ARGS);           \
  void FN(n)(ARGS) {          \
    vec r;                    \
    PROLOGUE;                 \
    r = e;                    \
    memcpy(out, &r, 64);      \
  }
#define M(n, e)                 \
  void FN(n)(ARGS);             \
  void FN(n)(ARGS) {            \
    uint64_t r;                 \
    PROLOGUE;                   \
    r = (uint64_t)(e);          \
    memset(out, 0, 64);         \
    memcpy(out, &r, 8);         \
  }
#include "simde_ops.h"
