/* The avx512 tier's table (x86_entries.h), compiled with the avx512 tier's
 * flags. */
#define TIER avx512
#include "../x86_entries.h"
