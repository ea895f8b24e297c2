/*
 * utfx: Unicode validation and transcoding at memory speed, with the semantics
 * JavaScript engines and browsers use (WHATWG Encoding Standard).
 *
 * Units and lengths
 *   Every length and offset is a size_t count of code units of the pointer's
 *   type: bytes for UTF-8 and Latin-1 (const char *), 16-bit units for UTF-16
 *   (char16_t), 32-bit units for UTF-32 (char32_t).
 *   - utf16le / utf16be data is an array of 16-bit units whose *bytes in memory*
 *     are little- / big-endian, whatever the host is.
 *   - UTF-32 data is in host byte order.
 *
 * Preconditions (for every function)
 *   - src may be NULL when n == 0; dst may be NULL when cap == 0.
 *   - src and dst do not overlap (except utfx_to_well_formed_*, which accept
 *     dst == src).
 *   - flags is UTFX_STRICT or UTFX_REPLACE; other bits are reserved, must be 0,
 *     and are ignored today.
 *
 * Guarantees
 *   - No read outside [src, src + n), no write outside [dst, dst + cap), and
 *     nothing at or after dst + result.written is modified.
 *   - No allocation, no printing, no abort. Every function may be called from
 *     many threads at once; the only global state is the choice of kernel set
 *     (see utfx_implementation), made once and race-free.
 *
 * Results
 *   utfx_result.status:
 *     UTFX_OK        everything was converted; read == n.
 *     UTFX_INVALID   ill-formed input (STRICT), or a code point that the target
 *                    cannot hold (Latin-1, in both modes). read = offset of the
 *                    first unit of the offending sequence (for UTF-8: the first
 *                    byte of its maximal subpart), written = units written for
 *                    everything before it (that prefix is in dst).
 *     UTFX_DST_FULL  dst is too small. dst holds whole characters up to the last
 *                    one that fits (never part of one, never half a surrogate
 *                    pair); read / written say how far it got, exactly as
 *                    TextEncoder.encodeInto reports {read, written}.
 *   An ill-formed unit is checked before the capacity: if the valid prefix
 *   exactly fills cap and an ill-formed unit follows, STRICT returns INVALID.
 */
#ifndef UTFX_H
#define UTFX_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <uchar.h> /* char16_t, char32_t (built-in types in C++) */
#endif

#define UTFX_VERSION_MAJOR 0
#define UTFX_VERSION_MINOR 1
#define UTFX_VERSION_PATCH 0
#define UTFX_VERSION_NUMBER \
  (UTFX_VERSION_MAJOR * 10000 + UTFX_VERSION_MINOR * 100 + UTFX_VERSION_PATCH)
#define UTFX_STRINGIFY_(x) #x
#define UTFX_STRINGIFY(x) UTFX_STRINGIFY_(x)
#define UTFX_VERSION_STRING                                                     \
  UTFX_STRINGIFY(UTFX_VERSION_MAJOR) "." UTFX_STRINGIFY(UTFX_VERSION_MINOR) "." \
      UTFX_STRINGIFY(UTFX_VERSION_PATCH)

#if defined(_WIN32) && defined(UTFX_BUILDING_DLL)
#define UTFX_API __declspec(dllexport)
#elif defined(_WIN32) && defined(UTFX_DLL)
#define UTFX_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define UTFX_API __attribute__((visibility("default")))
#else
#define UTFX_API
#endif

#if defined(__cplusplus)
#define UTFX_RESTRICT __restrict
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define UTFX_RESTRICT restrict
#else
#define UTFX_RESTRICT
#endif

#if defined(__GNUC__) || defined(__clang__)
#define UTFX_NODISCARD __attribute__((warn_unused_result))
#else
#define UTFX_NODISCARD
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { UTFX_OK = 0, UTFX_INVALID = 1, UTFX_DST_FULL = 2 } utfx_status;

typedef struct {
  utfx_status status;
  size_t read;     /* source units consumed (or the error offset, see above) */
  size_t written;  /* destination units written */
  size_t replaced; /* U+FFFD substitutions made (UTFX_REPLACE); 0 otherwise */
} utfx_result;

#define UTFX_STRICT 0u  /* stop at the first ill-formed sequence */
#define UTFX_REPLACE 1u /* each maximal subpart / lone surrogate becomes U+FFFD */

typedef enum {
  UTFX_UTF8 = 0,
  UTFX_UTF16LE = 1,
  UTFX_UTF16BE = 2,
  UTFX_UTF32 = 3,
  UTFX_LATIN1 = 4,
  UTFX_ASCII = 5,
  UTFX_BASE64 = 6,
  UTFX_BASE64URL = 7,
  UTFX_HEX = 8
} utfx_encoding;

/* "OK", "invalid input", "destination full"; a static string. */
UTFX_API const char *utfx_status_string(utfx_status status);

/* Worst-case output sizes, in destination units, for n source units (any
 * input, any mode). The exact size is given by the length functions below. */
#define UTFX_UTF8_MAX_FROM_UTF16(n) ((n) * 3)
#define UTFX_UTF8_MAX_FROM_UTF32(n) ((n) * 4)
#define UTFX_UTF8_MAX_FROM_LATIN1(n) ((n) * 2)
#define UTFX_UTF16_MAX_FROM_UTF8(n) (n)
#define UTFX_UTF16_MAX_FROM_UTF32(n) ((n) * 2)
#define UTFX_UTF32_MAX_FROM_UTF8(n) (n)

/* ---------------------------------------------------------------------------
 * Validation. status is UTFX_OK or UTFX_INVALID; read is the offset of the
 * first ill-formed unit (n when valid); written is 0.
 *   UTF-8:   WHATWG well-formedness (no overlongs, surrogates or > U+10FFFF).
 *   UTF-16:  no lone surrogate; read is the offset of the lone one.
 *   UTF-32:  no surrogate, nothing above U+10FFFF.
 *   ASCII:   every byte < 0x80.
 */
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_utf8(const char *s, size_t n);
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_utf16le(const char16_t *s, size_t n);
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_utf16be(const char16_t *s, size_t n);
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_utf32(const char32_t *s, size_t n);
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_ascii(const char *s, size_t n);

/* ---------------------------------------------------------------------------
 * Conversion: utfx_convert_FROM_to_TO(src, n, dst, cap, flags).
 * n in source units, cap in destination units; see "Results" at the top.
 * UTFX_REPLACE writes U+FFFD for each maximal subpart of ill-formed UTF-8 and
 * for each lone surrogate (or UTF-32 value above U+10FFFF); the status is then
 * OK or DST_FULL. A Latin-1 target cannot hold a code point above U+00FF
 * (U+FFFD included): that is UTFX_INVALID at its offset in both modes.
 */
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf8_to_utf16le(
    const char *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf8_to_utf16be(
    const char *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf8_to_utf32(
    const char *UTFX_RESTRICT src, size_t n, char32_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf8_to_latin1(
    const char *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16le_to_utf8(
    const char16_t *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16le_to_utf16be(
    const char16_t *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16le_to_utf32(
    const char16_t *UTFX_RESTRICT src, size_t n, char32_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16le_to_latin1(
    const char16_t *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16be_to_utf8(
    const char16_t *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16be_to_utf16le(
    const char16_t *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16be_to_utf32(
    const char16_t *UTFX_RESTRICT src, size_t n, char32_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf16be_to_latin1(
    const char16_t *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf32_to_utf8(
    const char32_t *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf32_to_utf16le(
    const char32_t *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf32_to_utf16be(
    const char32_t *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_utf32_to_latin1(
    const char32_t *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_latin1_to_utf8(
    const char *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_latin1_to_utf16le(
    const char *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_latin1_to_utf16be(
    const char *UTFX_RESTRICT src, size_t n, char16_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_convert_latin1_to_utf32(
    const char *UTFX_RESTRICT src, size_t n, char32_t *UTFX_RESTRICT dst, size_t cap, unsigned flags);

/* ---------------------------------------------------------------------------
 * Exact lengths: utfx_TO_length_from_FROM(src, n) is the number of TO units
 * that the UTFX_REPLACE conversion of the whole of src writes, for any input
 * (valid or not). For a Latin-1 target it is the number of code points after
 * replacement (what the conversion writes when all are <= U+00FF). UTF-16
 * lengths are the same for LE and BE. A result above SIZE_MAX saturates.
 */
UTFX_API size_t utfx_utf8_length_from_utf16le(const char16_t *src, size_t n);
UTFX_API size_t utfx_utf8_length_from_utf16be(const char16_t *src, size_t n);
UTFX_API size_t utfx_utf8_length_from_utf32(const char32_t *src, size_t n);
UTFX_API size_t utfx_utf8_length_from_latin1(const char *src, size_t n);
UTFX_API size_t utfx_utf16_length_from_utf8(const char *src, size_t n);
UTFX_API size_t utfx_utf16_length_from_utf32(const char32_t *src, size_t n);
UTFX_API size_t utfx_utf16_length_from_latin1(const char *src, size_t n);
UTFX_API size_t utfx_utf32_length_from_utf8(const char *src, size_t n);
UTFX_API size_t utfx_utf32_length_from_utf16le(const char16_t *src, size_t n);
UTFX_API size_t utfx_utf32_length_from_utf16be(const char16_t *src, size_t n);
UTFX_API size_t utfx_utf32_length_from_latin1(const char *src, size_t n);
UTFX_API size_t utfx_latin1_length_from_utf8(const char *src, size_t n);
UTFX_API size_t utfx_latin1_length_from_utf16le(const char16_t *src, size_t n);
UTFX_API size_t utfx_latin1_length_from_utf16be(const char16_t *src, size_t n);
UTFX_API size_t utfx_latin1_length_from_utf32(const char32_t *src, size_t n);

/* ---------------------------------------------------------------------------
 * Repair (String.prototype.toWellFormed): copies n units from src to dst,
 * replacing every lone surrogate with U+FFFD. dst has room for n units and may
 * equal src (in-place repair); otherwise they must not overlap.
 */
UTFX_API void utfx_to_well_formed_utf16le(const char16_t *src, size_t n, char16_t *dst);
UTFX_API void utfx_to_well_formed_utf16be(const char16_t *src, size_t n, char16_t *dst);

/* ---------------------------------------------------------------------------
 * Base64 (RFC 4648 section 4 and 5), with the semantics of JavaScript's
 * Uint8Array.fromBase64 / setFromBase64 / toBase64 (TC39) and, by flag, of
 * Node.js's Buffer.from(string, 'base64'). Binary data is unsigned char;
 * text is ASCII as bytes (const char *) or as UTF-16 units (a JS string).
 *
 * Flags (OR them; 0 = standard alphabet, padded, TC39 'loose'):
 *   UTFX_BASE64_URL       the URL alphabet ('-' '_' for '+' '/'), encode and
 *                         decode (decoding it refuses '+' and '/').
 *   UTFX_BASE64_ANY_ALPHABET   decode: both alphabets ("+-" are 62, "/_" 63).
 *   UTFX_BASE64_NO_PADDING     encode: no '=' after a final partial group.
 *   Decoding, how the last chunk (a group of fewer than 4 characters) is
 *   handled, as TC39's lastChunkHandling:
 *   (default, 'loose')    a final group of 2 or 3 characters decodes with or
 *                         without its padding; its unused low bits are
 *                         ignored. = WHATWG forgiving-base64 decode (atob).
 *   UTFX_BASE64_STRICT    padding required, and the unused bits must be 0.
 *   UTFX_BASE64_STOP_BEFORE_PARTIAL
 *                         an unpadded final group (and "xx=" at the end) is
 *                         left undecoded: status OK with read at its start,
 *                         so that a stream can prepend it to the next chunk.
 *   UTFX_BASE64_CRLF      utfx_base64_encode_lines: CR LF between lines
 *                         (below).
 *   UTFX_BASE64_NODE      Buffer.from(s, 'base64' or 'base64url'): never
 *                         INVALID. Both alphabets; every other character
 *                         (whitespace and garbage alike) is skipped; the
 *                         first '=' ends the input; a final group of 2 or 3
 *                         characters gives 1 or 2 bytes, of 1 character none.
 *                         UTF-16 text: like Node, only each unit's low byte
 *                         counts (U+0141 reads as 'A').
 *   STRICT, STOP_BEFORE_PARTIAL and NODE exclude each other (with more than
 *   one, NODE wins, then STRICT). Other bits are reserved and must be 0.
 *
 * Decoding (utfx_base64_decode: text as bytes; _utf16: text as UTF-16 units)
 *   ASCII whitespace (TAB, LF, FF, CR, SPACE) is skipped anywhere, also
 *   between and after the '=' of the padding. Results:
 *   OK        read = n (STOP_BEFORE_PARTIAL: read may be less, see above).
 *   INVALID   read = the offset of the first character that no valid input
 *             can continue with (outside the alphabet, a unit above 0xFF, '='
 *             too early, anything after the padding; STRICT: the first '='
 *             of a group whose unused bits are not 0), or n when the input
 *             ends where it cannot (one character in the last group; STRICT:
 *             no padding; "xx=" without the second '='). written = the bytes
 *             of the whole groups before it (they are in dst).
 *   DST_FULL  dst holds the whole groups that fit: as setFromBase64, read is
 *             where to resume (the offset after the last group written) and
 *             a final partial group is written only when its 1 or 2 bytes fit.
 *             When dst is full and only whitespace is left, the status is OK
 *             and read = n (TC39 reports the offset after the last group; skip
 *             back over the whitespace to get it). With cap == 0 and input
 *             left, DST_FULL, read = 0.
 *   Like setFromBase64, decoding stops once dst is full, without reading on:
 *   an error after that point is reported by the next call.
 *
 * Encoding: DST_FULL stops after the last group of 3 bytes (4 characters)
 * that fits; the final partial group counts as a group (4 characters with
 * padding, 2 or 3 without). read / written say how far it got.
 *
 * Encoding in lines (MIME, PEM, coreutils `base64 -w`):
 *   utfx_base64_encode_lines(src, n, dst, cap, flags, line_len, column)
 *   writes utfx_base64_encode's text with a line feed ('\n') between lines
 *   of line_len characters (line_len 0: no line feeds). *column (column
 *   NULL: 0) counts the characters already on the current line, 0..line_len
 *   (line_len: that line is full and its line feed not yet written); on
 *   return it counts those on the line the output ends on. A line feed is
 *   written only just before a character: the output never starts with one
 *   when *column is 0 and never ends with one (coreutils ends its output with
 *   a line feed: append it). So text encoded in pieces of whole groups, each
 *   call given the column the last one left, is the text of one call; with
 *   column 0 it is simdutf's binary_to_base64_with_lines (line_len >= 4).
 *   DST_FULL stops after the last group that fits together with the line
 *   feeds before its characters; resume with src + read and *column.
 *   utfx_base64_length_from_binary_lines(n, flags, line_len, column): the
 *   bytes it writes for n bytes (line feeds included); saturates at SIZE_MAX.
 *   UTFX_BASE64_CRLF in flags: a CR LF ("\r\n", MIME's) instead of each line
 *   feed, everywhere above (the length counts its two bytes; DST_FULL stops
 *   before a group whose line break does not fit whole). Other encoders and
 *   the decoders ignore the flag (decoding skips CR as whitespace).
 *
 * Lengths
 *   utfx_base64_length_from_binary(n, flags): the characters utfx_base64_encode
 *     writes for n bytes (UTFX_BASE64_NO_PADDING counts); saturates at SIZE_MAX.
 *   utfx_binary_length_from_base64(src, n, flags) and its _utf16 twin: the bytes
 *     utfx_base64_decode writes for src with these flags and an unbounded dst:
 *     exact for valid input (whitespace, padding and STOP_BEFORE_PARTIAL
 *     included); for invalid input the bytes written before the error.
 *   UTFX_BINARY_MAX_FROM_BASE64(n) bounds it for any n characters and flags.
 */
#define UTFX_BASE64_URL 0x01u
#define UTFX_BASE64_ANY_ALPHABET 0x02u
#define UTFX_BASE64_NO_PADDING 0x04u
#define UTFX_BASE64_LOOSE 0x00u
#define UTFX_BASE64_STRICT 0x08u
#define UTFX_BASE64_STOP_BEFORE_PARTIAL 0x10u
#define UTFX_BASE64_NODE 0x20u
#define UTFX_BASE64_CRLF 0x40u
#define UTFX_BINARY_MAX_FROM_BASE64(n) ((n) / 4 * 3 + (n) % 4 * 3 / 4)

UTFX_API UTFX_NODISCARD utfx_result utfx_base64_encode(const unsigned char *UTFX_RESTRICT src,
                                                       size_t n, char *UTFX_RESTRICT dst,
                                                       size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_base64_decode(const char *UTFX_RESTRICT src, size_t n,
                                                       unsigned char *UTFX_RESTRICT dst,
                                                       size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_base64_decode_utf16(const char16_t *UTFX_RESTRICT src,
                                                             size_t n,
                                                             unsigned char *UTFX_RESTRICT dst,
                                                             size_t cap, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_base64_encode_lines(
    const unsigned char *UTFX_RESTRICT src, size_t n, char *UTFX_RESTRICT dst, size_t cap,
    unsigned flags, size_t line_len, size_t *column);
UTFX_API size_t utfx_base64_length_from_binary(size_t n, unsigned flags);
UTFX_API size_t utfx_base64_length_from_binary_lines(size_t n, unsigned flags, size_t line_len,
                                                     size_t column);
UTFX_API size_t utfx_binary_length_from_base64(const char *src, size_t n, unsigned flags);
UTFX_API size_t utfx_binary_length_from_base64_utf16(const char16_t *src, size_t n,
                                                     unsigned flags);

/* ---------------------------------------------------------------------------
 * UTF-16 utilities (issue 35).
 *
 * utfx_swap_bytes_utf16(src, n, dst): swaps the two bytes of each of the n
 *   units, with no validation (UTF-16LE <-> UTF-16BE as raw data; lone
 *   surrogates pass unchanged). dst has room for n units and may equal src.
 *   simdutf: change_endianness_utf16; Node: Buffer.swap16.
 *
 * utfx_validate_ascii_utf16le / _utf16be(src, n): OK if every unit is
 *   below 0x80, else INVALID with read = the offset of the first unit that
 *   is not (written is 0). simdutf: validate_utf16le_as_ascii.
 *
 * utfx_utf8_length_from_utf16le_with_surrogates / _utf16be(src, n, flag):
 *   utfx_utf8_length_from_utf16le / _utf16be (the exact UTF-8 length of the
 *   UTFX_REPLACE conversion: 3 bytes per lone surrogate), in the same pass
 *   setting *flag to 1 if src has a lone surrogate, else 0 (flag may be
 *   NULL). simdutf: utf8_length_from_utf16le_with_replacement.
 */
UTFX_API void utfx_swap_bytes_utf16(const char16_t *src, size_t n, char16_t *dst);
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_ascii_utf16le(const char16_t *src, size_t n);
UTFX_API UTFX_NODISCARD utfx_result utfx_validate_ascii_utf16be(const char16_t *src, size_t n);
UTFX_API size_t utfx_utf8_length_from_utf16le_with_surrogates(const char16_t *src, size_t n,
                                                              int *flag);
UTFX_API size_t utfx_utf8_length_from_utf16be_with_surrogates(const char16_t *src, size_t n,
                                                              int *flag);

/* ---------------------------------------------------------------------------
 * Incomplete input (issue 35): where a stream may be cut.
 * utfx_trim_partial_utf8(src, n) is the length of the longest prefix of src
 * that leaves out an incomplete character at its end: n minus the 1-3 bytes
 * of a trailing sequence that is a valid prefix of a UTF-8 character (C2..F4
 * with the right continuation bytes, e.g. F0 9F 98; not C0, F5 or E0 80,
 * which no byte can complete: ill-formed input is not "incomplete" and is
 * kept, for the validator to report). utfx_trim_partial_utf16le / _utf16be:
 * n - 1 when the last unit is a high surrogate, else n. O(1): they look at
 * the last 3 bytes / the last unit only, so the prefix need not be valid.
 * simdutf: trim_partial_utf8 / _utf16; .NET: OperationStatus.NeedMoreData.
 */
UTFX_API size_t utfx_trim_partial_utf8(const char *src, size_t n);
UTFX_API size_t utfx_trim_partial_utf16le(const char16_t *src, size_t n);
UTFX_API size_t utfx_trim_partial_utf16be(const char16_t *src, size_t n);

/* ---------------------------------------------------------------------------
 * Byte-order marks and encoding detection (issue 35). The forms are bits:
 */
#define UTFX_DETECT_UTF8 1u
#define UTFX_DETECT_UTF16LE 2u
#define UTFX_DETECT_UTF16BE 4u
#define UTFX_DETECT_UTF32LE 8u /* UTF-32 of that byte order in memory, whatever the host */
#define UTFX_DETECT_UTF32BE 16u
/* utfx_detect_bom(src, n, &form): the length of the BOM that src starts
 *   with (0, 2, 3 or 4 bytes) and its form in *form (0 if none; form may be
 *   NULL): EF BB BF UTF-8, FF FE UTF-16LE, FE FF UTF-16BE, FF FE 00 00
 *   UTF-32LE (tested before UTF-16LE), 00 00 FE FF UTF-32BE.
 * utfx_detect_encodings(src, n): the set of forms src is valid in, by the
 *   validators of this header (SIMD): UTF-16 needs an even n, UTF-32 n % 4
 *   == 0; a BOM counts as a character. simdutf: detect_encodings.
 * utfx_detect_encoding(src, n): one best guess (0: valid in none), by this
 *   rule: 1. a BOM names the form (even if the rest is not valid in it);
 *   2. UTF-8 if valid (so ASCII and empty input are UTF-8); 3. UTF-32LE,
 *   then UTF-32BE, if valid (text of another form almost never is); 4.
 *   UTF-16LE or UTF-16BE if valid in one; if valid in both, the one whose
 *   high bytes hold more of src's zero bytes (zeros at odd offsets: LE; LE
 *   on a tie). simdutf: autodetect_encoding.
 */
UTFX_API size_t utfx_detect_bom(const char *src, size_t n, unsigned *form);
UTFX_API unsigned utfx_detect_encodings(const char *src, size_t n);
UTFX_API unsigned utfx_detect_encoding(const char *src, size_t n);

/* ---------------------------------------------------------------------------
 * What an error is (issue 35), for validation and STRICT conversion.
 * utfx_FORM_error_at(src, n, offset) describes the ill-formed sequence at
 * offset (the read of an INVALID result): status INVALID, offset, its kind,
 * and length = the units of its maximal subpart (what one U+FFFD replaces in
 * UTFX_REPLACE; Rust's Utf8Error::error_len), or 0 when the input ends
 * inside a sequence that more input could complete (error_len None: keep
 * it for the next chunk, as utfx_trim_partial_* does). If src[offset..]
 * starts with a well-formed character, or offset >= n: status OK, kind
 * UTFX_ERROR_NONE. O(1): it reads at most 4 units.
 * utfx_validate_FORM_detail(src, n) is the validation and error_at in one
 * (valid input costs the validation alone).
 *   UTF-8  TOO_SHORT   a lead byte without its continuation bytes (E2 82 41)
 *          TOO_LONG    a continuation byte no lead byte expects (80)
 *          OVERLONG    C0, C1, E0 80..9F, F0 80..8F
 *          SURROGATE   ED A0..BF
 *          TOO_LARGE   F4 90..BF, F5..FF
 *   UTF-16 LONE_HIGH, LONE_LOW (a high surrogate last: LONE_HIGH, length 0)
 *   UTF-32 SURROGATE (D800..DFFF), TOO_LARGE (above 10FFFF)
 * simdutf: result.error (TOO_SHORT, TOO_LONG, OVERLONG, SURROGATE,
 * TOO_LARGE, HEADER_BITS); ICU: U_TRUNCATED_CHAR_FOUND /
 * U_ILLEGAL_CHAR_FOUND; .NET: OperationStatus.InvalidData.
 */
typedef enum {
  UTFX_ERROR_NONE = 0,
  UTFX_ERROR_TOO_SHORT = 1,
  UTFX_ERROR_TOO_LONG = 2,
  UTFX_ERROR_OVERLONG = 3,
  UTFX_ERROR_SURROGATE = 4,
  UTFX_ERROR_TOO_LARGE = 5,
  UTFX_ERROR_LONE_HIGH = 6,
  UTFX_ERROR_LONE_LOW = 7
} utfx_error_kind;

typedef struct {
  utfx_status status; /* UTFX_OK or UTFX_INVALID */
  size_t offset;      /* of the ill-formed sequence (n when the input is valid) */
  utfx_error_kind kind;
  size_t length; /* units of its maximal subpart; 0 if the input ends inside it */
} utfx_error;

UTFX_API utfx_error utfx_utf8_error_at(const char *src, size_t n, size_t offset);
UTFX_API utfx_error utfx_utf16le_error_at(const char16_t *src, size_t n, size_t offset);
UTFX_API utfx_error utfx_utf16be_error_at(const char16_t *src, size_t n, size_t offset);
UTFX_API utfx_error utfx_utf32_error_at(const char32_t *src, size_t n, size_t offset);
UTFX_API UTFX_NODISCARD utfx_error utfx_validate_utf8_detail(const char *src, size_t n);
UTFX_API UTFX_NODISCARD utfx_error utfx_validate_utf16le_detail(const char16_t *src, size_t n);
UTFX_API UTFX_NODISCARD utfx_error utfx_validate_utf16be_detail(const char16_t *src, size_t n);
UTFX_API UTFX_NODISCARD utfx_error utfx_validate_utf32_detail(const char32_t *src, size_t n);
/* A static English phrase for a kind ("overlong encoding", ...). */
UTFX_API const char *utfx_error_kind_string(utfx_error_kind kind);

/* ---------------------------------------------------------------------------
 * Streaming decoder: a drop-in for Node.js's StringDecoder (string_decoder).
 * For every input and every way of cutting it into chunks, each
 * utfx_decoder_write returns exactly what StringDecoder.write returns for that
 * chunk and utfx_decoder_end exactly what end() returns, Node's quirks
 * included:
 *   utf8      a chunk that ends inside a character (or on any byte Node
 *             takes for a lead byte: C0-F7, even C0/C1/F5-F7, and doomed
 *             starts such as E0 80) keeps up to 3 bytes for the next write;
 *             ill-formed input becomes U+FFFD per maximal subpart, so the
 *             concatenated output equals the one-shot UTFX_REPLACE conversion.
 *   utf16le   an odd chunk keeps its last byte; an even chunk ending in a
 *             high surrogate keeps it. A write may still end in a lone high
 *             surrogate whose low half comes in the next write (odd chunks);
 *             lone surrogates pass through unchanged, as in Node.
 *   latin1    bytes are U+0000-U+00FF.       ascii  each byte masked to 7 bits.
 *   base64    keeps n % 3 bytes; end() pads with '='. base64url never pads.
 *   hex       two lowercase digits per byte, no state.
 * UTF16BE and UTF32 are refused (Node has no such decoder).
 *
 * UTF-16 output is an array of char16_t code units in host byte order (on a
 * little-endian host that is UTF-16LE), i.e. the units of Node's string.
 *
 * No allocation: the caller owns the struct (on the stack, inside its own
 * structs, ...). One decoder must not be used by two threads at once.
 *
 *   utfx_decoder_init(d, enc)   0 on success, nonzero (d unusable) for an
 *                               encoding Node's StringDecoder does not have.
 *   utfx_decoder_write(d, src, n, dst, cap)
 *                               decodes the chunk src[0..n); returns OK with
 *                               read = n (what must wait for more input is
 *                               kept in d). If the output does not fit in cap
 *                               units: DST_FULL, dst holds a prefix of it that
 *                               ends at a character boundary (never half a
 *                               surrogate pair, a hex byte or a base64
 *                               quartet), written says how much, read how many
 *                               bytes of src it accounts for; call write again
 *                               with src + read, n - read to get the rest. A
 *                               cap of 4 or more always makes progress.
 *   utfx_decoder_end(d, dst, cap)
 *                               what end() returns: flushes what d holds and
 *                               resets d for reuse (read is 0). DST_FULL
 *                               keeps the rest, so calling end again continues.
 *   utfx_decoder_max_length(d, n)
 *                               units that always suffice for the next write
 *                               of n bytes (n = 0: for end) in d's state.
 *   result.replaced counts the U+FFFD written for ill-formed UTF-8 (and, in
 *   the UTF-8 form, for lone surrogates of utf16le input).
 *   A decoder that init refused returns INVALID from every call.
 *
 * UTF-8 output form (a streaming sanitizer: bytes in, well-formed UTF-8 out):
 * utfx_decoder_write_utf8 / utfx_decoder_end_utf8 / utfx_decoder_max_length_utf8
 * take the same decoder and cap in bytes, and write the UTF-8 encoding of
 * what the UTF-16 form writes, as Buffer.from(string, 'utf8') encodes it
 * (a lone surrogate becomes EF BF BD). UTF-8 cannot carry half a surrogate
 * pair, so where the UTF-16 form would end a write with a high surrogate
 * (the utf16le odd-chunk quirk) the UTF-8 form holds that surrogate and
 * writes it with the next write (as a 4-byte character when its low half
 * follows, else as EF BF BD), or at end. Concatenated, the UTF-8 outputs
 * equal Buffer.from(all UTF-16 outputs joined, 'utf8'). Use one form per
 * decoder between init and end.
 *
 * Example: decode a socket into UTF-8 text.
 *   utfx_decoder d; char in[4096], out[3 * 4096 + 16];
 *   utfx_decoder_init(&d, UTFX_UTF8);
 *   while ((n = read(fd, in, sizeof in)) > 0) {
 *     utfx_result r = utfx_decoder_write_utf8(&d, in, n, out, sizeof out);
 *     fwrite(out, 1, r.written, stdout);   (sizeof out >= max_length_utf8)
 *   }
 *   utfx_result r = utfx_decoder_end_utf8(&d, out, sizeof out);
 */
#define UTFX_DECODER 1

typedef struct utfx_decoder {
  /* Private: only the utfx_decoder_* functions read or write these. */
  unsigned char enc_;     /* utfx_encoding, or 0xFF when unusable */
  unsigned char held_;    /* bytes in buf_ */
  unsigned char missing_; /* bytes Node waits for to complete buf_; 0 while
                             held_ > 0: buf_ is complete, output not yet written */
  unsigned char flags_;   /* WHATWG mode: UTFX_WHATWG_* and "BOM seen" */
  unsigned char buf_[4];  /* held bytes: utf8 <= 3 (+1 on completion),
                             utf16le <= 4, base64 <= 2 (+1) */
  uint16_t high_;         /* utf16: a high surrogate waiting for the next unit */
  uint16_t pad_;
} utfx_decoder;

UTFX_API int utfx_decoder_init(utfx_decoder *d, utfx_encoding enc);
UTFX_API utfx_result utfx_decoder_write(utfx_decoder *d, const char *src, size_t n,
                                        char16_t *dst, size_t cap);
UTFX_API utfx_result utfx_decoder_end(utfx_decoder *d, char16_t *dst, size_t cap);
UTFX_API size_t utfx_decoder_max_length(const utfx_decoder *d, size_t n);
UTFX_API utfx_result utfx_decoder_write_utf8(utfx_decoder *d, const char *src, size_t n,
                                             char *dst, size_t cap);
UTFX_API utfx_result utfx_decoder_end_utf8(utfx_decoder *d, char *dst, size_t cap);
UTFX_API size_t utfx_decoder_max_length_utf8(const utfx_decoder *d, size_t n);

/* ---------------------------------------------------------------------------
 * WHATWG mode of the streaming decoder: TextDecoder (Encoding Standard,
 * "decode" with the UTF-8 decoder or the shared UTF-16 decoder). Each
 * utfx_decoder_write(_utf8) returns what decode(chunk, {stream: true})
 * returns, and utfx_decoder_end(_utf8) what the final decode() returns; a
 * decoder made by utfx_decoder_init_whatwg takes the same entry points
 * (write, end, max_length, and their _utf8 forms), which dispatch on its mode.
 *
 *   utfx_decoder_init_whatwg(d, enc, flags)
 *       enc is UTFX_UTF8, UTFX_UTF16LE or UTFX_UTF16BE; flags is 0 or these:
 *         UTFX_WHATWG_FATAL       an error stops the stream (TextDecoder's
 *                                 fatal: true), else each becomes U+FFFD;
 *         UTFX_WHATWG_IGNORE_BOM  keep a leading BOM (ignoreBOM: true).
 *       Returns 0, or nonzero (d unusable: every call returns INVALID) for
 *       another encoding or an unknown flag bit.
 *   Semantics, for every way of cutting the input into writes (the output,
 *   concatenated, is the one-shot result):
 *     - BOM: the encoding's BOM (EF BB BF; FF FE for UTF-16LE; FE FF for
 *       UTF-16BE) is removed if it is the stream's first code point, even
 *       when split over writes, unless UTFX_WHATWG_IGNORE_BOM. U+FEFF later
 *       on, or after an error's U+FFFD, stays.
 *     - Replacement: U+FFFD per maximal subpart of ill-formed UTF-8 (as
 *       UTFX_REPLACE), per lone surrogate of UTF-16, and at end for an
 *       unfinished sequence (UTF-8 prefix, odd byte, high surrogate: one
 *       U+FFFD for all that is held). A high surrogate ending a write waits
 *       for the next one, so output never splits a pair.
 *     - Fatal: write returns UTFX_INVALID, read = the offset in this write's
 *       src of the first byte of the ill-formed sequence (0 when it began in
 *       an earlier write), with everything before it in dst; end returns
 *       INVALID (read 0) when a sequence is unfinished. Either way the
 *       decoder is then reset, as TextDecoder is after it throws.
 *     - write consumes all n bytes (read = n, OK); the few bytes of an
 *       unfinished sequence wait in d. DST_FULL as in Node's mode: dst holds
 *       whole characters, read counts the bytes they account for, call again
 *       with src + read. max_length(d, n) bounds a write of n bytes (n = 0:
 *       end): n + held for UTF-8, ceil((n + held) / 2) (+1 with a held high
 *       surrogate) for UTF-16; x3 in the _utf8 form. A cap of 2 (UTF-16) or
 *       4 (UTF-8) always makes progress.
 *     - end writes the one U+FFFD of an unfinished sequence (or DST_FULL,
 *       call again) and resets d, BOM included: the next write starts a new
 *       stream.
 *     - result.replaced counts the U+FFFD written.
 *   The UTF-8 form writes the UTF-8 encoding of the same code points.
 *
 *   utfx_whatwg_decode(enc, flags, src, n, dst, cap) (and _utf8)
 *       one-shot: TextDecoder.decode(src) of a whole buffer, no state (the
 *       conversion kernel plus the BOM test). utfx_whatwg_max_length(enc, n)
 *       (and _utf8, 0 for another encoding) bounds the output: n units for
 *       UTF-8 input, ceil(n / 2) for UTF-16, x3 in bytes; the exact size for
 *       UTF-8 input is utfx_utf16_length_from_utf8 (minus 1 for a removed
 *       BOM). INVALID:
 *       read = offset of the error (an unfinished sequence at the end: of its
 *       first byte). DST_FULL: read counts the bytes whose output is in dst;
 *       continue with src + read and UTFX_WHATWG_IGNORE_BOM (the rest is not
 *       the stream's start). An encoding other than the three: INVALID, 0.
 */
#define UTFX_WHATWG 1
#define UTFX_WHATWG_FATAL 1u
#define UTFX_WHATWG_IGNORE_BOM 2u

UTFX_API int utfx_decoder_init_whatwg(utfx_decoder *d, utfx_encoding enc, unsigned flags);
UTFX_API UTFX_NODISCARD utfx_result utfx_whatwg_decode(utfx_encoding enc, unsigned flags,
                                                       const char *UTFX_RESTRICT src, size_t n,
                                                       char16_t *UTFX_RESTRICT dst, size_t cap);
UTFX_API UTFX_NODISCARD utfx_result utfx_whatwg_decode_utf8(utfx_encoding enc, unsigned flags,
                                                            const char *UTFX_RESTRICT src,
                                                            size_t n, char *UTFX_RESTRICT dst,
                                                            size_t cap);
UTFX_API size_t utfx_whatwg_max_length(utfx_encoding enc, size_t n);
UTFX_API size_t utfx_whatwg_max_length_utf8(utfx_encoding enc, size_t n);

/* ---------------------------------------------------------------------------
 * Dispatch. The library holds one kernel set per instruction-set tier
 * ("avx512", "avx2", "neon", "scalar") and uses the best one the CPU and OS
 * support, chosen at the first call (thread-safe, no lock). The environment
 * variable UTFX_IMPL, read at that first choice, forces a tier (an unknown or
 * unusable value is ignored). All tiers give byte-identical results.
 */
/* Name of the active kernel set; makes the first-use choice if none was made. */
UTFX_API const char *utfx_implementation(void);
/* Selects a kernel set by name: 0 on success; nonzero (and no change) for an
 * unknown name or one this CPU cannot run. "scalar" is always accepted. Safe
 * while other threads convert: each call uses the old or the new set. Meant
 * for tests and benchmarks: the choice is process-wide. */
UTFX_API int utfx_set_implementation(const char *name);
/* Number of kernel sets compiled in, and their names, best first ("scalar"
 * last). utfx_implementation_name returns NULL for i >= count. */
UTFX_API size_t utfx_implementation_count(void);
UTFX_API const char *utfx_implementation_name(size_t i);
/* 1 if this CPU and OS can run the named kernel set, else 0. */
UTFX_API int utfx_implementation_supported(const char *name);
/* Writes the detected CPU features that utfx cares about, space-separated and
 * NUL-terminated, into buf (truncated to cap - 1 characters); returns the
 * length of the full string. */
UTFX_API size_t utfx_cpu_features(char *buf, size_t cap);

/* Version of the library (compare with UTFX_VERSION_STRING of the header). */
UTFX_API const char *utfx_version(void);
UTFX_API unsigned utfx_version_number(void);

#ifdef __cplusplus
}
#endif

#endif /* UTFX_H */
