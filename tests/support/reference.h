/* A deliberately naive reference for the tests, written from the text of the
 * specifications and sharing no code with src/:
 *   - UTF-8 decoding is the WHATWG Encoding Standard "UTF-8 decoder" state
 *     machine (bytes needed / bytes seen / lower and upper boundary), one byte
 *     at a time, including its "restore the byte to the queue" rule;
 *   - UTF-16 / UTF-32 / Latin-1 decoding and all encoders are the textbook
 *     definitions, one unit at a time.
 * On top of that, ref_convert states the conversion contract of design.md
 * section 2 (STRICT / REPLACE, bounded destination, Latin-1 targets) as
 * plainly as possible. It is slow on purpose; the tests compare the library
 * against it.
 *
 * Data is handled as the bytes in memory: a UTF-16LE array is bytes
 * lo,hi,lo,hi...; UTF-16BE hi,lo...; UTF-32 is host order. Lengths, offsets
 * and capacities are in code units of the encoding, as in the library. */
#ifndef UTFX_TESTS_REFERENCE_H
#define UTFX_TESTS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "utfx.h"

enum ref_enc { REF_UTF8, REF_UTF16LE, REF_UTF16BE, REF_UTF32, REF_LATIN1, REF_ENC_COUNT };

/* Bytes per code unit: 1, 2, 2, 4, 1. */
size_t ref_unit_size(enum ref_enc e);
const char *ref_enc_name(enum ref_enc e);

/* One decoded character: its code point (U+FFFD when bad), the offset and
 * length of its source units, and whether it was an ill-formed sequence. */
typedef struct {
  uint32_t cp;
  size_t start, len;
  int bad;
} ref_char;

/* Decodes n units of src. out has room for n entries (every character spans
 * at least one unit). Returns the number of characters. */
size_t ref_decode(enum ref_enc e, const void *src, size_t n, ref_char *out);

/* The WHATWG UTF-8 decoder: code points (with U+FFFD) into cps (room for n),
 * returns their number; *first_error = byte offset of the first byte of the
 * first ill-formed maximal subpart, or n when the input is valid. */
size_t ref_utf8_decode(const unsigned char *s, size_t n, uint32_t *cps, size_t *first_error);

/* Offset of the first ill-formed unit, n when valid (ASCII: first byte >= 0x80). */
size_t ref_validate(enum ref_enc e, const void *src, size_t n);
size_t ref_validate_ascii(const void *src, size_t n);

/* Writes scalar value cp in encoding e at dst (room for 4 units); returns the
 * number of units. Latin-1 stores the low byte (callers check cp <= 0xFF). */
size_t ref_encode(enum ref_enc e, uint32_t cp, void *dst);
/* Units cp takes in encoding e. */
size_t ref_encoded_units(enum ref_enc e, uint32_t cp);

/* The conversion contract: result and output of converting n units of src
 * from `from` to `to` into dst (cap units; dst may be NULL when cap == 0). */
utfx_result ref_convert(enum ref_enc from, const void *src, size_t n, enum ref_enc to,
                        void *dst, size_t cap, unsigned flags);

/* The same, for input already decoded by ref_decode (count characters of an
 * input of n units): for sweeps that check several targets per input. */
utfx_result ref_convert_chars(const ref_char *chars, size_t count, size_t n, enum ref_enc to,
                              void *dst, size_t cap, unsigned flags);

/* Units written by the REPLACE conversion of all of src (for a Latin-1 target:
 * the number of characters after replacement). */
size_t ref_length(enum ref_enc to, enum ref_enc from, const void *src, size_t n);

/* Stores / loads one code unit of encoding e at unit index i of buf (UTF-16:
 * 16 bits in the byte order of e; UTF-32: host order). For building inputs. */
void ref_put_unit(enum ref_enc e, void *buf, size_t i, uint32_t unit);
uint32_t ref_get_unit(enum ref_enc e, const void *buf, size_t i);

#endif
