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

// base64_to_binary's result: the bytes written, or 0 on an error.
size_t written_or_0(simdutf::result r) {
  return r.error == simdutf::error_code::SUCCESS ? r.count : 0;
}

// utfx's flagged length: the length plus 1 when the input has a lone surrogate.
template <class F>
size_t length_with_lone_flag(simdutf::result r, F has_lone) {
  return r.count + (r.error == simdutf::error_code::SURROGATE && has_lone() ? 1 : 0);
}

// utfx_detect_encodings's bits (the same values as simdutf::encoding_type).
unsigned all_encodings(const impl_t *impl, const char *src, size_t n) {
  unsigned set = static_cast<unsigned>(impl->detect_encodings(src, n));
  if (n % 2 == 0 && impl->validate_utf16be(reinterpret_cast<const char16_t *>(src), n / 2))
    set |= simdutf::encoding_type::UTF16_BE;
  if (n % 4 == 0) {
    char32_t buf[512];
    size_t units = n / 4, i = 0;
    bool ok = true;
    while (ok && i < units) {
      size_t k = units - i < 512 ? units - i : 512;
      std::memcpy(buf, src + 4 * i, 4 * k);
      for (size_t j = 0; j < k; j++) buf[j] = __builtin_bswap32(buf[j]);
      ok = impl->validate_utf32(buf, k);
      i += k;
    }
    if (ok) set |= simdutf::encoding_type::UTF32_BE;
  }
  return set;
}

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
    // Issue 35's functions. The byte swap is the row of utf16le -> utf16be.
    SU_OP("swap_bytes_utf16", (im(st)->change_endianness_utf16(c16(src), n, d16(dst)), n)),
    // simdutf's _with_errors validations: the offset (count) of the error and
    // its kind, as utfx's _detail forms.
    SU_OP("validate_utf8_detail", im(st)->validate_utf8_with_errors(c8(src), n).count),
    SU_OP("validate_utf16le_detail", im(st)->validate_utf16le_with_errors(c16(src), n).count),
    SU_OP("validate_utf16be_detail", im(st)->validate_utf16be_with_errors(c16(src), n).count),
    SU_OP("validate_utf32_detail", im(st)->validate_utf32_with_errors(c32(src), n).count),
    // A boolean: the rows run on ASCII text only (bench_simdutf_op).
    SU_OP("validate_ascii_utf16le", im(st)->validate_utf16le_as_ascii(c16(src), n) ? n : 0),
    SU_OP("validate_ascii_utf16be", im(st)->validate_utf16be_as_ascii(c16(src), n) ? n : 0),
    // utf8_length_from_utf16*_with_replacement flags any surrogate, paired or
    // not (SURROGATE "does not indicate an error"): whether one is lone takes
    // simdutf's validation after it, the same question utfx's flag answers.
    SU_OP("utf8_length_from_utf16le_with_surrogates",
          length_with_lone_flag(im(st)->utf8_length_from_utf16le_with_replacement(c16(src), n),
                                [&] { return !im(st)->validate_utf16le(c16(src), n); })),
    SU_OP("utf8_length_from_utf16be_with_surrogates",
          length_with_lone_flag(im(st)->utf8_length_from_utf16be_with_replacement(c16(src), n),
                                [&] { return !im(st)->validate_utf16be(c16(src), n); })),
    // simdutf's detect_encodings answers for UTF-8, UTF-16LE and UTF-32LE in
    // one pass; utfx's also for UTF-16BE and UTF-32BE. The same answer from
    // simdutf takes its validation of UTF-16BE too, and of UTF-32BE through a
    // byte-swapped copy in chunks (it has no big-endian UTF-32 validator).
    SU_OP("detect_encodings", all_encodings(im(st), c8(src), n)),
    SU_OP("detect_encoding", im(st)->autodetect_encoding(c8(src), n)),
    // O(1): they look at the end of the input (simdutf's free functions).
    SU_OP("trim_partial_utf8", simdutf::trim_partial_utf8(c8(src), n)),
    SU_OP("trim_partial_utf16le", simdutf::trim_partial_utf16le(c16(src), n)),
    SU_OP("trim_partial_utf16be", simdutf::trim_partial_utf16be(c16(src), n)),
    // The base64 suite: each kernel's unbounded forms (dst has room for all).
    SU_OP("base64_encode", im(st)->binary_to_base64(c8(src), n, d8(dst), simdutf::base64_default)),
    SU_OP("base64_encode_url", im(st)->binary_to_base64(c8(src), n, d8(dst), simdutf::base64_url)),
    SU_OP("base64_encode_lines", im(st)->binary_to_base64_with_lines(c8(src), n, d8(dst), 76,
                                                                     simdutf::base64_default)),
    SU_OP("base64_decode", written_or_0(im(st)->base64_to_binary(c8(src), n, d8(dst),
                                                                  simdutf::base64_default))),
    SU_OP("base64_decode_url",
          written_or_0(im(st)->base64_to_binary(c8(src), n, d8(dst), simdutf::base64_url))),
    SU_OP("base64_decode_utf16", written_or_0(im(st)->base64_to_binary(
                                     c16(src), n, d8(dst), simdutf::base64_default))),
    SU_OP("binary_length_from_base64", im(st)->binary_length_from_base64(c8(src), n)),
};

// The rows that take a boolean answer run where the answer is "yes": on other
// input utfx reports where the first non-ASCII unit is and simdutf cannot.
bool same_job(const impl_t *impl, const char *op, const bench_call *call) {
  if (std::strcmp(op, "validate_ascii_utf16le") == 0)
    return impl->validate_utf16le_as_ascii(c16(call->src), call->n);
  if (std::strcmp(op, "validate_ascii_utf16be") == 0)
    return impl->validate_utf16be_as_ascii(c16(call->src), call->n);
  return true;
}

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
      if (!same_job(impls()[impl], op, call)) return -1;
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

// The base64 suite's bounded decoding (base64_to_binary_safe: cap bytes of
// room, as utfx_base64_decode has), through simdutf's best kernel.
template <class C>
size_t decode_safe(const void *src, size_t n, void *dst, size_t cap,
                   simdutf::base64_options options) {
  size_t outlen = cap;
  simdutf::result r = simdutf::base64_to_binary_safe(static_cast<const C *>(src), n, d8(dst),
                                                     outlen, options);
  return r.error == simdutf::error_code::SUCCESS ? outlen : 0;
}

extern "C" int bench_simdutf_safe_op(const char *op, bench_call *call) {
  call->state = nullptr;
  if (std::strcmp(op, "base64_decode") == 0)
    call->fn = [](const void *, const void *src, size_t n, void *dst, size_t cap) -> size_t {
      return decode_safe<char>(src, n, dst, cap, simdutf::base64_default);
    };
  else if (std::strcmp(op, "base64_decode_url") == 0)
    call->fn = [](const void *, const void *src, size_t n, void *dst, size_t cap) -> size_t {
      return decode_safe<char>(src, n, dst, cap, simdutf::base64_url);
    };
  else if (std::strcmp(op, "base64_decode_utf16") == 0)
    call->fn = [](const void *, const void *src, size_t n, void *dst, size_t cap) -> size_t {
      return decode_safe<char16_t>(src, n, dst, cap, simdutf::base64_default);
    };
  else
    return -1;
  return 0;
}
