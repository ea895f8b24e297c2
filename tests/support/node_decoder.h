/* Node's StringDecoder as an oracle for the decoder tests: one node process
 * (tests/oracle/decoder_oracle.js) runs every case of a case file and records
 * what each write() and end() returned, in the UTF-16 and the UTF-8 form.
 *
 * Case records (see decoder_oracle.js): u8 utfx_encoding, u32le chunk count,
 * then per chunk u32le length + bytes. Result records, per case, for each
 * write and then end: u32le count + u16le units, u32le count + UTF-8 bytes. */
#ifndef UTFX_TESTS_NODE_DECODER_H
#define UTFX_TESTS_NODE_DECODER_H

#include <stddef.h>
#include <stdint.h>

/* A growable byte string (abort on allocation failure). */
typedef struct {
  unsigned char *p;
  size_t n, cap;
} bytes;

void bytes_put(bytes *b, const void *src, size_t n);
void bytes_put_u32(bytes *b, uint32_t v);
uint32_t bytes_get_u32(const unsigned char *p);

/* Runs the oracle on `cases` and appends its output to `results`. Returns
 * NULL on success, else why it could not run (node missing, ...). */
const char *node_decoder_oracle(const bytes *cases, bytes *results);
/* The same with another script of tests/oracle/ (its own record formats). */
const char *node_run_oracle(const char *script, const bytes *cases, bytes *results);

#endif
