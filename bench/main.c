/* utfx-bench: the benchmark harness as a program (see bench/README.md). The
 * CLI's `utfx bench` calls the same engine through utfx_bench_main. */
#include "engine.h"

void bench_install_kernel_probe(void);

int main(int argc, char **argv) {
  bench_install_kernel_probe();
  bench_register_standard_suites();
  return utfx_bench_main(argc, argv);
}
