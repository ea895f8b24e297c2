/* utfx info: what this machine and build offer: the version, the CPU
 * features the library looks at, its kernel sets and the one in use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx info\n"
    "Print the version, the CPU features detected, the implementations (kernel\n"
    "sets) compiled in, which of them this CPU can run, and the one selected\n"
    "(the best one, or the one the UTFX_IMPL environment variable names).\n";

int cli_info_main(int argc, char **argv) {
  char features[256];
  size_t i, n = utfx_implementation_count();
  const char *env = getenv("UTFX_IMPL");
  if (argc > 1) {
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
      fputs(usage, stdout);
      return cli_flush_stdout();
    }
    cli_error("info takes no arguments (see utfx info --help)");
    return CLI_EXIT_USAGE;
  }
  utfx_cpu_features(features, sizeof features);
  printf("utfx:            %s (library %s)\n", UTFX_VERSION_STRING, utfx_version());
  printf("cpu features:    %s\n", features[0] ? features : "(none)");
  printf("implementations:");
  for (i = 0; i < n; i++) {
    const char *name = utfx_implementation_name(i);
    printf(" %s%s", name, utfx_implementation_supported(name) ? "" : " (unsupported)");
  }
  printf("\nselected:        %s", utfx_implementation());
  if (env && *env) printf(" (UTFX_IMPL=%s)", env);
  printf("\n");
  return cli_flush_stdout();
}
