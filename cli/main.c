/* utfx: the command-line tool. Subcommand dispatch, the top-level --help
 * and --version; each subcommand parses its own options with getopt_long. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx COMMAND [OPTION]... [FILE]...\n"
    "Validate, convert and count Unicode text at memory speed.\n"
    "\n"
    "Commands:\n"
    "  convert   convert between UTF-8, UTF-16, UTF-32 and Latin-1\n"
    "  validate  check that files are well-formed; report where not\n"
    "  count     count lines, code points, UTF-16 units and bytes\n"
    "  base64    base64 encode or decode, as coreutils' base64\n"
    "  bench     measure conversion speed of each implementation\n"
    "  info      CPU features, implementations, version\n"
    "\n"
    "  -h, --help     show this help (utfx COMMAND --help: that command's)\n"
    "  -V, --version  show the version\n"
    "\n"
    "FILE '-' or no FILE means standard input. See utfx(1) for details.\n"
    "Exit status: 0 ok, 1 invalid input, 2 usage error, 3 I/O error.\n";

static const struct {
  const char *name;
  int (*main)(int, char **);
} commands[] = {{"convert", cli_convert_main}, {"validate", cli_validate_main},
                {"count", cli_count_main},     {"base64", cli_base64_main},
                {"bench", utfx_cli_bench},
                {"info", cli_info_main}};

int cli_bad_option(const char *cmd, char **argv, int missing_argument) {
  const char *arg = argv[optind - 1];
  if (arg[0] == '-' && arg[1] == '-') {
    size_t len = strcspn(arg, "=");
    cli_error("%s option '%.*s' (see utfx %s --help)",
              missing_argument ? "missing argument for" : "unknown", (int)len, arg, cmd);
  } else {
    cli_error("%s option '-%c' (see utfx %s --help)",
              missing_argument ? "missing argument for" : "unknown", optopt, cmd);
  }
  return CLI_EXIT_USAGE;
}

static int version(void) {
  printf("utfx %s\n", UTFX_VERSION_STRING);
  return cli_flush_stdout();
}

int main(int argc, char **argv) {
  size_t i;
  const char *cmd;
  cli_io_init();
  if (argc < 2) {
    fputs(usage, stderr);
    return CLI_EXIT_USAGE;
  }
  cmd = argv[1];
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
    fputs(usage, stdout);
    return cli_flush_stdout();
  }
  if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0)
    return version();
  if (strcmp(cmd, "help") == 0) {
    if (argc < 3) {
      fputs(usage, stdout);
      return cli_flush_stdout();
    }
    cmd = argv[2];
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
      if (strcmp(cmd, commands[i].name) == 0) {
        char help[] = "--help";
        char *sub[] = {argv[2], help, NULL};
        return commands[i].main(2, sub);
      }
    }
  } else {
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
      if (strcmp(cmd, commands[i].name) == 0) return commands[i].main(argc - 1, argv + 1);
  }
  if (cmd[0] == '-')
    cli_error("unknown option '%s' (see utfx --help)", cmd);
  else
    cli_error("unknown command '%s' (see utfx --help)", cmd);
  return CLI_EXIT_USAGE;
}
