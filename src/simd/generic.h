/* The generic kernel layer: algorithms that are the same at every vector
 * width, written once (src/simd/generic_*.h) over a small vector vocabulary
 * that each ISA provides in one header:
 *   src/x86/avx2/vec_avx2.h (32 bytes), src/x86/avx512/vec_avx512.h (64 bytes),
 *   src/arm/neon/vec_neon.h (16 bytes).
 * A tier's kernel file includes its vocabulary header, then the generic
 * headers it instantiates; each generic kernel is named utfxi_OP_TIER after
 * the vocabulary's V_TIER, and declared by tier_declarations.h (included
 * with UTFXI_DECL_TIER_NAME set to the tier).
 *
 * The vocabulary (all static inline; v = one vector of V_BYTES bytes):
 *   types     vu8 (bytes), vu16 (16-bit lanes; may be the same type);
 *             vm8, vm16, vm32: compare results on bytes, 16- and 32-bit
 *             lanes (vectors of 0x00 / 0xFF on AVX2 and NEON, mask
 *             registers on AVX-512); only the mask operations take them
 *   V_BYTES   bytes per vector; V_TIER the tier name (a bare word)
 *   v_load(p) v_zero() v_splat(byte) v_or v_and v_xor v_subs (unsigned,
 *             saturating)
 *   v_or_and(a, b, m)           (a | b) & m (one VPTERNLOG on AVX-512, with a
 *                               as its destination: as two operations gcc
 *                               made m the destination, and the copies of m
 *                               spilled the UTF-8 lengths' registers)
 *   v_shr4(v, nib)              each byte >> 4 (nib = v_splat(0x0F), for
 *                               ISAs that shift 16-bit lanes and mask)
 *   V_TABLE16(16 signed chars)  a 16-entry table, in every 16-byte lane
 *   v_lookup16(table, idx)      table[idx] per byte, idx < 16
 *   v_add(a, b)                 bytewise a + b, modulo 256
 *   v_sum_bytes(acc, v)         acc + the sums of v's bytes, in 64-bit lanes
 *                               (a vector of counts, v_zero() to start)
 *   v_sum_lanes(acc)            the total of those 64-bit lanes
 *   v_prev(prev, cur, k)        cur shifted k bytes later, the last k bytes
 *                               of prev shifted in (k = 1..3, a constant)
 *   v_store(p, v)
 *   v_any(v)                    some byte is nonzero
 *   v_any_high(v)               some byte is >= 0x80
 *   v_first_high(v)             index of the first byte >= 0x80 (v_any_high)
 *   v_bits(m)                   a byte mask of a compare result: V_BYTE_BITS
 *                               bits per byte, as uint64_t
 *   v_is_cont(v) v_ge(v, byte) v_nonzero(v)   byte compares (0x00 / 0xFF)
 *   v16_load(p, be)             V_BYTES / 2 units as host-order values
 *   v16_load_raw(p)             the same units, bytes as in memory
 *   v16_bswap(v)                each unit's two bytes swapped
 *   v16_store(p, v)             V_BYTES / 2 units to p, bytes as they are
 *   v16_top_eq(v, mask, value)  lanes with (unit & mask) == value
 *   v16_or v16_and v16_xor v16_any(v)   on 16-bit lanes (compare results)
 *   v16_below(v, c)             lanes below c (a power of two)
 *   v16_or_units v16_xor_units  a | b, a ^ b on the units as values (not compare results)
 *   v16_any_bits(v, mask)       whether some unit of v has a bit of mask set
 *   v16_any_top_eq4(a, b, c, d, mask, value)   whether some unit of the four
 *                               vectors has (unit & mask) == value
 *   v16_max_bytes(a, b)         the bytewise maximum of two vectors of units
 *   v16_any_byte_at_least(v, byte, c)   whether some unit of v has its byte
 *                               `byte` (0xFF00 or 0x00FF of the unit as
 *                               loaded) at least c
 *   v16_pair_starts(hi, lo, be) a vector of bytes whose sum is how many
 *                               units of hi are a high surrogate with a low
 *                               one in the same lane of lo (raw units)
 *   v16_short_forms_bytes(a, b, be)   a vector of bytes (each 0..2) whose
 *                               sum is how many units of a and b (raw; be:
 *                               UTF-16BE) are below 0x80 plus how many are
 *                               below 0x800 (no compare results: AMD Zen 4
 *                               issues few compares and mask moves a cycle)
 *   v16_count2(a, b)            how many units the two compare results set
 *   v16_bits2(a, b)             a unit mask of two compare results: units of
 *                               a then b, V16_UNIT_BITS bits per unit, as
 *                               uint64_t (at most 64 bits)
 *   V32_LANES, vu32, v32_load(p), v32_or,   32-bit lanes (UTF-32 values):
 *   v32_ge(v, c), v32_in_range(v, lo, len)  unsigned compares,
 *   v32_top_eq(v, mask, value)              (v & mask) == value, and
 *   v32_any(m), v32_count(m)                whether and how many lanes they set
 *   v32_count_in_range(acc, v, lo, len)     acc plus 1 in the lanes with
 *                               lo <= v < lo + len (a vector of counts)
 *   v32_sum(acc)                the total of such a vector's lanes
 *   v32_umax(a, b) v32_umin(a, b)           unsigned maximum, minimum
 *   v32_sub(v, c)                           v - c, modulo 2^32
 *   v32_add(a, b) v32_and_values(a, b) v32_at_least(a, b)   on vector
 *                               operands (constants pinned by the caller)
 *   v32_splat(c) v32_shl(v, k) v32_shr(v, k) v32_or_values(a, b) v32_store(p, v)
 *   v32_any_bits(v, mask)       whether some value has a bit of mask set
 * Widening and narrowing (Latin-1 <-> UTF-16 / UTF-32, generic_latin1.h):
 *   v16_widen(p) v32_widen(p)   V16_UNITS / V32_LANES bytes at p, zero-extended
 *   v16_pack_bytes(a, b)        the units of a then b (each <= 0xFF) as bytes
 *   v32_pack_bytes(a, b, c, e)  the same for four vectors of values
 *   v32_store_bytes(p, v)       the V32_LANES values of v as bytes at p
 * UTF-32 to UTF-16 (generic_utf32.h; where V32_UTF16_ROOM is defined):
 *   v32_pack_units(a, b)        the values of a then b (< 0x10000) as units
 *   v32_store_units16(p, v, be) the V32_LANES values of v as units at p
 *   v32_select(m, a, b)         lanes of a where m is set, of b elsewhere
 *   v32_store_utf16(d, units, astral, be)   each lane's unit, or its pair
 *                               where astral is set, packed at d (a table
 *                               compress or VPCOMPRESSW); returns the count;
 *                               needs V32_UTF16_ROOM units of room
 * Latin-1 to UTF-8 (generic_latin1.h):
 *   vforms8                     the UTF-8 forms of V16_UNITS bytes and what
 *                               their store needs (a layout of each ISA's)
 *   v_utf8_forms(v, &h0, &h1)   the forms of v's first and second halves
 *   v_store_utf8(d, h, exact)   them packed at d (a table shuffle or
 *                               VPCOMPRESSB); returns the count; writes
 *                               V_BYTES bytes unless exact, then the count
 * UTF-8 to Latin-1 (generic_latin1.h; a tier that keeps its own kernel
 * defines G_OWN_UTF8_TO_LATIN1):
 *   v_latin1_of_utf8(v, prev)   each byte of v, plus 0x40 where it has bit 7
 *                               set and the byte before it (prev: v loaded
 *                               one byte back) bit 0
 *   v_store_without(d, v, drop, exact)   the bytes of v but those the
 *                               compare result drop sets, packed at d;
 *                               returns the count; may write V_BYTES bytes
 *                               unless exact, then the count
 * UTF-32 to UTF-8 (generic_utf32.h; where V32_UTF8_ROOM is defined):
 *   struct v32_utf8_k, v32_utf8_k_init(&k)   the words' constants, built
 *                               once per call
 *   v32_store_utf8_below800(d, a, b, &k, spill)   the UTF-8 of the values
 *                               of a then b (each < 0x800) at d
 *   v32_store_utf8_bmp(d, a, b, &k, spill)   the same for BMP values that
 *                               are not surrogates
 *   v32_store_utf8(d, v, &k)    the same for one vector of scalar values
 *                               each returns the bytes made; nothing after
 *                               them changes (V32_UTF8_ROOM bytes of room),
 *                               but where spill says the next word, of the
 *                               same kind, overwrites them
 *   v32_store_utf8_tail(d, v, m, room, &k)   (V_MASKED_TAIL) the first m
 *                               values, if their UTF-8 fits in room; else 0
 * Widening stores (UTF-8 transcoders; UTF-16 to UTF-32,
 * generic_utf16_to_utf32.h):
 *   v_put_ascii(dst, w, v, t)   the V_BYTES ASCII bytes of v as units at unit
 *                               w of dst in the form t (UTF-16LE/BE, UTF-32)
 *   v16_store_utf32(d, v)       the V16_UNITS units of v as values at d
 *   v16_store_utf32_paired(d, v, nx, high, keep, offset, exact)   the same,
 *                               but a unit where high is set makes a pair's
 *                               code point with the unit in its lane of nx
 *                               (high << 10) + low + offset, and only the
 *                               units keep sets (V16_UNIT_BITS each) are
 *                               stored, packed; returns the count; needs
 *                               V16_UTF32_ROOM values of room, or with exact
 *                               (V_MASKED_TAIL) writes just the count
 *   v16_store_utf32_wide(d, v)  v16_store_utf32_paired_own(d, v, high, keep,
 *                               offset)   (G1632_LONG) the same by whole-vector
 *                               stores; the paired store with nx = v's units
 *                               one on (v's last unit: keep drops it)
 *   v16_as_v32(v)               the units as 32-bit lanes (two a lane)
 *   v16_splat(c) v16_top_eq_k(v, mask, value) v32_eq(a, b)   compares on
 *                               constants made once by the caller
 *   v16_splat2(c0, c1)          units c0, c1, c0, c1, ... (a pair per lane)
 * Optional, where the ISA loads and stores under a lane mask without
 * touching memory outside it (V_MASKED_TAIL defined): the generic kernels
 * then finish a tail in vector registers instead of calling the scalar
 * kernel. k may exceed the vector (then the whole vector is loaded):
 *   v_load_tail(p, k)  v16_load_tail(p, k, be)  v16_load_tail_raw(p, k)
 *   v32_load_tail(p, k)   the first k lanes at p, zeros after them
 *   v16_store_tail(p, k, v)   the first k (<= V16_UNITS) lanes of v to p
 *   v32_store_tail(p, k, v)   the same for values
 *   v16_widen_tail(p, k) v32_widen_tail(p, k)   the first k bytes at p, widened
 *   v16_store_bytes_tail(p, k, v) v32_store_bytes_tail(p, k, v)   the first k
 *                             units / values of v as bytes at p
 *   v_store_utf8_tail(d, k, h)   the forms of h's first k lanes, exactly
 *   v_put_ascii_tail(dst, w, v, k, t) v16_store_utf32_tail(d, k, v)   the
 *                             first k bytes / units of v, widened
 * Optional: V_MASK_REGISTERS defined where compare results are mask
 * registers (AVX-512), whose bits (v16_bits2) cost one move a vector; the
 * vocabulary then also has
 *   v16_surrogate_bits2(a, b, be, &hi, &lo)   unit masks of the high and of
 *                             the low surrogates of the block (a, b) of raw
 *                             units (be: UTF-16BE)
 *   v16_any_top_eq4_k(a, b, c, d, m, x)   v16_any_top_eq4 on the splats m, x
 *                             of mask and value, made once by the caller;
 *                             without it, instead
 *   v16_swapped_pair_faults(sw, nx, be)   units (of sw: raw units swapped;
 *                             nx: the raw units one on) with a bit of 0xFFFE
 *                             set where a high surrogate is not followed by a
 *                             low one or the other way round
 * Optional: V16_UNIT_CLASSES defined where a class byte per unit serves
 * the UTF-8 length's count, ASCII test and surrogate screen at once (AVX2:
 * fewer operations than the units' byte maxima); the vocabulary then has
 *   v16_unit_classes(a, b, be)   a vector of class bytes of the units of a
 *                             and b (raw; be: UTF-16BE), in any order: 0
 *                             exactly for a unit below 0x80, V16_CLASS_HIGH
 *                             up for every unit from 0xD800 up
 *   v16_class_short_forms(cls)   v16_short_forms_bytes of those units
 * Kernels that use what only one ISA has (VPCOMPRESSB and VPERMB
 * transcoders, PSHUFB tables) stay in that ISA's own files, unless the
 * difference fits in a vocabulary word (v32_store_utf16, v_store_utf8,
 * v_utf8_put_units; the UTF-8 transcoders' words are listed in
 * generic_utf8_transcode.h). */
#ifndef UTFX_SIMD_GENERIC_H
#define UTFX_SIMD_GENERIC_H

#if !defined(V_BYTES) || !defined(V_TIER) || !defined(V16_UNIT_BITS) || !defined(V_BYTE_BITS)
#error "include the tier's vocabulary header (vec_*.h) before the generic kernels"
#endif

#include "../internal.h"
#include "../scalar/unicode.h"

/* V_SEQUENCE(v): a point v must be computed by, for a vocabulary whose ISA
 * has few registers (AVX2: 16); elsewhere nothing. */
#ifndef V_SEQUENCE
#define V_SEQUENCE(v) ((void)0)
#endif

/* V_LOADED(v): v, just loaded or a constant built before a loop, is kept in
 * a register, for a vocabulary whose compiler would otherwise fold the load
 * into each instruction that uses v (gcc on x86: a load-bound loop then
 * reads every vector twice) or rebuild the constant inside the loop (gcc
 * on AVX-512: a GPR move + VPBROADCAST each time); elsewhere nothing. */
#ifndef V_LOADED
#define V_LOADED(v) ((void)0)
#endif

/* v16_load_seq(p) / v32_load_seq(p): v16_load_raw / v32_load, loaded in
 * program order with the other such loads, for the read loops, where a
 * vocabulary's compiler would order them otherwise (V_LOAD_SEQ, AVX-512). */
#ifdef V_LOAD_SEQ
#define v16_load_seq(p) ((vu16)V_LOAD_SEQ(p))
#define v32_load_seq(p) ((vu32)V_LOAD_SEQ(p))
#else
#define v16_load_seq(p) v16_load_raw(p)
#define v32_load_seq(p) v32_load(p)
#endif

/* V_CONST8(v, c): v = v_splat(c) for a constant c, kept in a register as
 * with V_LOADED; a vocabulary may build it more cheaply (AVX2: one
 * broadcast from memory). */
#ifndef V_CONST8
#define V_CONST8(v, c)   \
  do {                   \
    (v) = v_splat(c);    \
    V_LOADED(v);         \
  } while (0)
#endif

/* V_CONST32(v, c): v = v32_splat(c) for a constant c, kept in a register as
 * with V_LOADED; a vocabulary may build it more cheaply (AVX-512: one
 * broadcast from memory, A512_CONST64). */
#ifndef V_CONST32
#define V_CONST32(v, c)   \
  do {                    \
    (v) = v32_splat(c);   \
    V_LOADED(v);          \
  } while (0)
#endif

/* V_PIN(v): v, a constant made before a loop, stays in a register, for a
 * vocabulary whose compiler would otherwise make it again inside the loop
 * (gcc with AVX-512: a move to a general register and a broadcast, on the
 * port the permutes need); elsewhere nothing. */
#ifndef V_PIN
#define V_PIN(v) ((void)0)
#endif

/* v16_store_copy(p, v): v16_store in the copy loops bound by their stores
 * (the UTF-16 byte swap and repair), where a vocabulary may store otherwise
 * (AVX-512: two 256-bit stores). */
#ifndef V16_STORE_COPY
#define v16_store_copy(p, v) v16_store(p, v)
#endif

/* utfxi_OP_TIER */
#define G_CAT_(a, b) a##b
#define G_CAT(a, b) G_CAT_(a, b)
#define G_NAME(op) G_CAT(utfxi_##op##_, V_TIER)

/* Units of UTF-16 per vector and per two-vector block. */
#define V16_UNITS (V_BYTES / 2)
#define V16_BLOCK (2 * V16_UNITS)

/* Whether some raw unit of v (loaded without a swap) is not ASCII: a bit
 * of 0xFF80 set, wherever the byte order puts it. */
UTFXI_INLINE int g16_any_non_ascii(vu16 raw, int be) {
  return v16_any_bits(raw, be ? 0x80FF : 0xFF80);
}

static inline unsigned g_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (unsigned)__builtin_ctzll(x);
#else
  unsigned k = 0;
  while (!(x & 1)) x >>= 1, k++;
  return k;
#endif
}

static inline unsigned g_popcnt64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (unsigned)__builtin_popcountll(x);
#else
  unsigned k = 0;
  for (; x; x &= x - 1) k++;
  return k;
#endif
}

/* Copies blocks of four vectors of ASCII from s to d while they last, up to
 * k bytes; returns how many it copied (a multiple of 4 * V_BYTES). For
 * byte-to-byte kernels after an ASCII block: one test per four vectors, in
 * a loop of its own (testing every 64 bytes among the general step's bounds
 * checks was slower: docs/perf-decisions.md, 'UTF-8 -> Latin-1'). */
static inline size_t g_copy_ascii_x4(const unsigned char *s, size_t k, unsigned char *d) {
  size_t j = 0;
  for (; k - j >= 4 * V_BYTES; j += 4 * V_BYTES) {
    vu8 a = v_load(s + j), b = v_load(s + j + V_BYTES);
    vu8 c = v_load(s + j + 2 * V_BYTES), e = v_load(s + j + 3 * V_BYTES);
    if (v_any_high(v_or(v_or(a, b), v_or(c, e)))) break;
    v_store(d + j, a);
    v_store(d + j + V_BYTES, b);
    v_store(d + j + 2 * V_BYTES, c);
    v_store(d + j + 3 * V_BYTES, e);
  }
  return j;
}

#endif
