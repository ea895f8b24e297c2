// Baseline: simdutf, built only when the user names a simdutf build with
// SIMDUTF_DIR=... (it is not a dependency of utfx and never part of this
// repository). Each of simdutf's kernels that this CPU runs ("icelake",
// "haswell", ...) is measured on its own through its implementation object.
// simdutf's functions validate (convert_* returns 0 on ill-formed input) but
// its length functions assume valid input, unlike utfx's: its rows for the
// length functions of UTF-8, UTF-16 and UTF-32 input are its validation plus
// its length (what an untrusted input needs; issue 11). utf16le <-> utf16be uses
// change_endianness_utf16, which does not validate.
#include <simdutf.h>

#include <cstring>
#include <vector>

extern "C" {
#include "suites.h"
}

namespace {

using impl_t = simdutf::implementation;

std::vector<const impl_t *> &impls() {
  static std::vector<const impl_t *> list;
  static bool done = false;
  if (!done) {
    done = true;
    for (auto impl : simdutf::get_available_implementations())
      if (impl->supported_by_runtime_system()) list.push_back(impl);
  }
  return list;
}

const impl_t *im(const void *st) { return static_cast<const impl_t *>(st); }
const char *c8(const void *p) { return static_cast<const char *>(p); }
const char16_t *c16(const void *p) { return static_cast<const char16_t *>(p); }
const char32_t *c32(const void *p) { return static_cast<const char32_t *>(p); }
char *d8(void *p) { return static_cast<char *>(p); }
char16_t *d16(void *p) { return static_cast<char16_t *>(p); }
char32_t *d32(void *p) { return static_cast<char32_t *>(p); }

struct op_entry {
  const char *name;
  bench_kernel fn;
};

#define SU_OP(name, expr)                                                               \
  {name, [](const void *st, const void *src, size_t n, void *dst, size_t cap) -> size_t { \
     (void)st, (void)src, (void)n, (void)dst, (void)cap;                                 \
     return static_cast<size_t>(expr);                                                  \
   }}

// simdutf's validation of the input, then its length function.
#define SU_CHECKED_LENGTH(name, enc, length, cast) \
  SU_OP(name, im(st)->validate_##enc(cast(src), n) ? im(st)->length(cast(src), n) : 0)
const op_entry ops[] = {
    SU_OP("validate_utf8", im(st)->validate_utf8(c8(src), n) ? n : 0),
    SU_OP("validate_utf16le", im(st)->validate_utf16le(c16(src), n) ? n : 0),
    SU_OP("validate_utf16be", im(st)->validate_utf16be(c16(src), n) ? n : 0),
    SU_OP("validate_utf32", im(st)->validate_utf32(c32(src), n) ? n : 0),
    SU_OP("validate_ascii", im(st)->validate_ascii(c8(src), n) ? n : 0),
    SU_OP("convert_utf8_to_utf16le", im(st)->convert_utf8_to_utf16le(c8(src), n, d16(dst))),
    SU_OP("convert_utf8_to_utf16be", im(st)->convert_utf8_to_utf16be(c8(src), n, d16(dst))),
    SU_OP("convert_utf8_to_utf32", im(st)->convert_utf8_to_utf32(c8(src), n, d32(dst))),
    SU_OP("convert_utf8_to_latin1", im(st)->convert_utf8_to_latin1(c8(src), n, d8(dst))),
    SU_OP("convert_utf16le_to_utf8", im(st)->convert_utf16le_to_utf8(c16(src), n, d8(dst))),
    SU_OP("convert_utf16le_to_utf16be",
          (im(st)->change_endianness_utf16(c16(src), n, d16(dst)), n)),
    SU_OP("convert_utf16le_to_utf32", im(st)->convert_utf16le_to_utf32(c16(src), n, d32(dst))),
    SU_OP("convert_utf16le_to_latin1", im(st)->convert_utf16le_to_latin1(c16(src), n, d8(dst))),
    SU_OP("convert_utf16be_to_utf8", im(st)->convert_utf16be_to_utf8(c16(src), n, d8(dst))),
    SU_OP("convert_utf16be_to_utf16le",
          (im(st)->change_endianness_utf16(c16(src), n, d16(dst)), n)),
    SU_OP("convert_utf16be_to_utf32", im(st)->convert_utf16be_to_utf32(c16(src), n, d32(dst))),
    SU_OP("convert_utf16be_to_latin1", im(st)->convert_utf16be_to_latin1(c16(src), n, d8(dst))),
    SU_OP("convert_utf32_to_utf8", im(st)->convert_utf32_to_utf8(c32(src), n, d8(dst))),
    SU_OP("convert_utf32_to_utf16le", im(st)->convert_utf32_to_utf16le(c32(src), n, d16(dst))),
    SU_OP("convert_utf32_to_utf16be", im(st)->convert_utf32_to_utf16be(c32(src), n, d16(dst))),
    SU_OP("convert_utf32_to_latin1", im(st)->convert_utf32_to_latin1(c32(src), n, d8(dst))),
    SU_OP("convert_latin1_to_utf8", im(st)->convert_latin1_to_utf8(c8(src), n, d8(dst))),
    SU_OP("convert_latin1_to_utf16le", im(st)->convert_latin1_to_utf16le(c8(src), n, d16(dst))),
    SU_OP("convert_latin1_to_utf16be", im(st)->convert_latin1_to_utf16be(c8(src), n, d16(dst))),
    SU_OP("convert_latin1_to_utf32", im(st)->convert_latin1_to_utf32(c8(src), n, d32(dst))),
    // Length functions: utfx's are exact for any input, simdutf's trust it, so
    // the job an untrusted input needs is simdutf's validation plus its length.
    SU_CHECKED_LENGTH("utf8_length_from_utf16le", utf16le, utf8_length_from_utf16le, c16),
    SU_CHECKED_LENGTH("utf8_length_from_utf16be", utf16be, utf8_length_from_utf16be, c16),
    SU_CHECKED_LENGTH("utf8_length_from_utf32", utf32, utf8_length_from_utf32, c32),
    SU_OP("utf8_length_from_latin1", im(st)->utf8_length_from_latin1(c8(src), n)),
    SU_CHECKED_LENGTH("utf16_length_from_utf8", utf8, utf16_length_from_utf8, c8),
    SU_CHECKED_LENGTH("utf16_length_from_utf32", utf32, utf16_length_from_utf32, c32),
    SU_OP("utf16_length_from_latin1", im(st)->utf16_length_from_latin1(n)),
    SU_CHECKED_LENGTH("utf32_length_from_utf8", utf8, utf32_length_from_utf8, c8),
    SU_CHECKED_LENGTH("utf32_length_from_utf16le", utf16le, utf32_length_from_utf16le, c16),
    SU_CHECKED_LENGTH("utf32_length_from_utf16be", utf16be, utf32_length_from_utf16be, c16),
    SU_OP("utf32_length_from_latin1", im(st)->utf32_length_from_latin1(n)),
    SU_CHECKED_LENGTH("latin1_length_from_utf8", utf8, latin1_length_from_utf8, c8),
    SU_OP("latin1_length_from_utf16le", im(st)->latin1_length_from_utf16(n)),
    SU_OP("latin1_length_from_utf16be", im(st)->latin1_length_from_utf16(n)),
    SU_OP("latin1_length_from_utf32", im(st)->latin1_length_from_utf32(n)),
    SU_OP("to_well_formed_utf16le", (im(st)->to_well_formed_utf16le(c16(src), n, d16(dst)), n)),
    SU_OP("to_well_formed_utf16be", (im(st)->to_well_formed_utf16be(c16(src), n, d16(dst)), n)),
};

}  // namespace

extern "C" size_t bench_simdutf_count(void) { return impls().size(); }

extern "C" const char *bench_simdutf_name(size_t i) {
  // name() views a string literal, so data() is NUL-terminated.
  return i < impls().size() ? impls()[i]->name().data() : nullptr;
}

extern "C" int bench_simdutf_op(size_t impl, const char *op, bench_call *call) {
  if (impl >= impls().size()) return -1;
  for (const op_entry &e : ops) {
    if (std::strcmp(e.name, op) == 0) {
      call->fn = e.fn;
      call->state = impls()[impl];
      return 0;
    }
  }
  return -1;
}

// The encode suite's UTF-16 -> UTF-8 calls, through simdutf's best kernel
// (its free functions): the bounded (_safe) variants when the destination
// may be short, with_replacement for input with a lone surrogate.
extern "C" size_t bench_simdutf_utf16le_to_utf8(const void *st, const void *src, size_t n,
                                                 void *dst, size_t cap) {
  (void)st, (void)cap;
  return simdutf::convert_utf16le_to_utf8(c16(src), n, d8(dst));
}

extern "C" size_t bench_simdutf_utf16le_to_utf8_safe(const void *st, const void *src,
                                                      size_t n, void *dst, size_t cap) {
  (void)st;
  return simdutf::convert_utf16_to_utf8_safe(c16(src), n, d8(dst), cap);
}

extern "C" size_t bench_simdutf_utf16le_to_utf8_replacing(const void *st, const void *src,
                                                           size_t n, void *dst, size_t cap) {
  (void)st, (void)cap;
  return simdutf::get_active_implementation()->convert_utf16le_to_utf8_with_replacement(
      c16(src), n, d8(dst));
}

extern "C" size_t bench_simdutf_latin1_to_utf8(const void *st, const void *src, size_t n,
                                                void *dst, size_t cap) {
  (void)st, (void)cap;
  return simdutf::convert_latin1_to_utf8(c8(src), n, d8(dst));
}

extern "C" size_t bench_simdutf_latin1_to_utf8_safe(const void *st, const void *src, size_t n,
                                                     void *dst, size_t cap) {
  (void)st;
  return simdutf::convert_latin1_to_utf8_safe(c8(src), n, d8(dst), cap);
}
