/* placeholder */
#include "cli.h"
int utfx_cli_bench(int argc, char **argv) { (void)argc; (void)argv; return 0; }
