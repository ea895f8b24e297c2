# The library's sources and per-file flags: the one list that the Makefile
# (include sources.mk), CMakeLists.txt and the amalgamation (make amalgamate)
# all build from, so the three cannot drift. CMake reads this file itself:
# keep to `NAME := words` lines (`\` continues a line; no make functions or
# variable references). Sources are globs, resolved by make's $(wildcard) and
# CMake's file(GLOB): a new file in these directories joins every build.

# Portable C: every platform.
UTFX_SRC := src/*.c src/scalar/*.c
# x86-64 only, one file per kernel family and tier. Each tier's files are
# compiled with exactly the features dispatch checks for it (src/cpu.h).
UTFX_SRC_AVX2 := src/x86/avx2/*.c
UTFX_SRC_AVX512 := src/x86/avx512/*.c
# -falign-*: kernel entry points on 64-byte and loops on 32-byte boundaries.
# Without them, where the linker happened to place a kernel moved its speed
# between two builds of unchanged code (docs/perf-decisions.md, 'Code
# alignment'); they are speed only and not an ISA feature, so the
# amalgamation ignores them. The portable files get them too
# (UTFX_CODE_FLAGS): short inputs run their scalar kernels on every tier.
UTFX_CODE_FLAGS := -falign-functions=64 -falign-loops=32
UTFX_AVX2_FLAGS := -mavx2 -mbmi -mbmi2 -mlzcnt -mpopcnt -falign-functions=64 -falign-loops=32
UTFX_AVX512_FLAGS := -mavx2 -mbmi -mbmi2 -mlzcnt -mpopcnt -falign-functions=64 -falign-loops=32 \
                     -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mavx512cd
# AArch64 only (little-endian): the neon tier. NEON is baseline there, so
# its files need no flags.
UTFX_SRC_NEON := src/arm/neon/*.c
# Tier tables start from the scalar entries and override some (designated
# initializers given twice on purpose).
UTFX_DISPATCH_FLAGS := -Wno-override-init

# The utfx command, and the benchmark engine its `utfx bench` links.
UTFX_CLI_SRC := cli/*.c
# The engine: registry, timing, statistics, reporting, the limit, comparison,
# timing in several processes and options; the front end (bench/main.c,
# cli/bench.c) registers the suites.
UTFX_BENCH_ENGINE_SRC := bench/registry.c bench/timing.c bench/stats.c bench/report.c bench/limit.c \
                         bench/compare.c bench/processes.c bench/options.c bench/suite_*.c \
                         bench/baselines_none.c

# Warnings for the library, the CLI and the bench (C11).
UTFX_WARN := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wcast-qual -Wstrict-prototypes \
             -Wmissing-prototypes -Wundef -Wpointer-arith -Wvla -Wformat=2 -Wwrite-strings
