/* Prototypes of every x86 kernel entry point. Each kernel file includes this,
 * so the compiler checks its definitions against the declarations that the
 * tier tables (x86_kernels.h, included by x86_entries.h only) are built from. */
#ifndef UTFX_X86_PROTOTYPES_H
#define UTFX_X86_PROTOTYPES_H

#include "../internal.h"

/* utfxi_<op>_avx2 and utfxi_<op>_avx512 for every operation (each tier
 * defines the ones x86_kernels.h names). */
#define UTFXI_DECL_TIER_NAME avx2
#include "../tier_declarations.h"
#define UTFXI_DECL_TIER_NAME avx512
#include "../tier_declarations.h"

/* ---- The tier tables dispatch.c selects (avx2/avx2_entries.c, avx512/avx512_entries.c) ---- */
#include "x86_tiers.h"

/* ---- Streaming decoder helpers (src/decoder.c) ---- */
#include "avx2/decoder_avx2.h"

#endif
