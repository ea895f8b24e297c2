/* The avx2 tier's table (x86_entries.h), compiled with the avx2 tier's
 * flags. */
#define TIER avx2
#include "../x86_entries.h"
