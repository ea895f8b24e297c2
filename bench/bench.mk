# The benchmark harness. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
# utfx-bench, the benchmark harness (bench/README.md): always -O2, linked with
# the static library, ICU, glibc iconv and, when SIMDUTF_DIR names a simdutf
# tree with a release build (SIMDUTF_DIR/include and a libsimdutf.a under
# SIMDUTF_DIR/build), simdutf. simdutf is never a dependency: without
# SIMDUTF_DIR its column is simply absent. `make bench` runs the default
# selection (well under 3 minutes), prints the tables and writes
# $(BUILD)/bench/results.csv, samples.csv, kernels.tsv and, with gnuplot,
# kernels.png. BENCH_ARGS replaces the default selection, e.g.
#   make bench BENCH_ARGS="--suite kernels --func 'convert_utf8_*' --impl utfx,icu"
# BENCH_LIB / BENCH_INCLUDE / BENCH_INTERNAL let bench/compare.sh link the
# same harness against another revision's library (this tree's include/ comes
# last: utfx_operations.h for revisions from before it).
# The engine and suites of sources.mk (what `utfx bench` links too), with
# the ICU / iconv baselines instead of baselines_none.c, the kernel probe and
# main.
BENCH_SRC := $(filter-out bench/baselines_none.c,$(wildcard $(UTFX_BENCH_ENGINE_SRC))) \
             bench/baselines_icu_iconv.c bench/kernel_probe.c bench/main.c
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_LIB ?= $(STATIC_LIB)
BENCH_INCLUDE ?= include
BENCH_INTERNAL ?= src
BENCH_BIN := $(BUILD)/utfx-bench
BENCH_CFLAGS = -std=c11 $(WARN) $(WERROR) -I$(BENCH_INCLUDE) -O2 -g $(EXTRA_FLAGS) \
               -DUTFX_BENCH_SRC_DIR='"$(CURDIR)/bench"' $(BENCH_SIMDUTF_DEF)
BENCH_LINK := $(CC)
ifneq ($(SIMDUTF_DIR),)
SIMDUTF_LIB := $(firstword $(wildcard $(SIMDUTF_DIR)/build/src/libsimdutf.a \
                 $(SIMDUTF_DIR)/build/libsimdutf.a $(SIMDUTF_DIR)/lib/libsimdutf.a \
                 $(SIMDUTF_DIR)/libsimdutf.a))
ifeq ($(SIMDUTF_LIB),)
$(error SIMDUTF_DIR=$(SIMDUTF_DIR) has no libsimdutf.a under build/, build/src/ or lib/)
endif
BENCH_SIMDUTF_DEF := -DUTFX_BENCH_SIMDUTF
BENCH_OBJ += $(BUILD)/obj/bench/baseline_simdutf.o
BENCH_LINK := $(CXX)
endif
# bench/compare.sh links ONE harness with each side's library: `make
# bench-bundle` makes every harness object but the kernel probe (it reads a
# library's internals) one relocatable object whose code and data start on
# page boundaries (bench/bundle.ld), and BENCH_BUNDLE=that file links it, the
# probe and BENCH_LIB, so the harness sits at the same offsets within its
# pages whichever library it is linked with.
BENCH_BUNDLE_OBJ := $(BUILD)/obj/bench/bundle.o
LD ?= ld
OBJCOPY ?= objcopy
$(BENCH_BUNDLE_OBJ): $(filter-out %/kernel_probe.o,$(BENCH_OBJ)) bench/bundle.ld
	$(LD) -r --force-group-allocation -T bench/bundle.ld -o $@ $(filter %.o,$^)
	$(OBJCOPY) $(foreach s,text rodata data.rel.ro data bss,\
	    --set-section-alignment .$(s).utfx_bench=4096) $@
.PHONY: bench-bundle
bench-bundle: $(BENCH_BUNDLE_OBJ)
ifneq ($(BENCH_BUNDLE),)
BENCH_OBJ := $(BENCH_BUNDLE) $(BUILD)/obj/bench/kernel_probe.o
endif
# The bench objects (which `utfx bench` links too) are built with or without
# simdutf: a stamp that changes with that choice rebuilds them, so a plain
# `make` after `make bench SIMDUTF_DIR=...` does not link stale objects.
BENCH_CONFIG := $(BUILD)/obj/bench/config
$(shell mkdir -p $(BUILD)/obj/bench && { echo '$(BENCH_SIMDUTF_DEF)' | cmp -s - $(BENCH_CONFIG) \
    || echo '$(BENCH_SIMDUTF_DEF)' > $(BENCH_CONFIG); })
# Default selection: Node's hot paths in the kernel suite (Buffer.toString,
# Buffer.write and byteLength, one-byte strings), all of the decode, encode
# and node grids.
BENCH_FUNCS := validate_utf8,convert_utf8_to_utf16le,convert_utf16le_to_utf8
BENCH_FUNCS := $(BENCH_FUNCS),utf16_length_from_utf8,convert_latin1_to_utf8
BENCH_FUNCS := $(BENCH_FUNCS),ascii,utf8,utf8-*,utf16le,base64,latin1,bmp,astral,lone
BENCH_ARGS ?= --func '$(BENCH_FUNCS)'

.PHONY: bench-build bench-chart
$(BUILD)/obj/bench/%.o: bench/%.c Makefile bench/bench.mk $(BENCH_CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $(DEPFLAGS) -I$(BENCH_INTERNAL) -Iinclude -c $< -o $@

$(BUILD)/obj/bench/baseline_simdutf.o: bench/baseline_simdutf.cpp Makefile bench/bench.mk
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra $(DEPFLAGS) $(EXTRA_FLAGS) -I$(SIMDUTF_DIR)/include \
	    -c $< -o $@

# BENCH_PAD: objects linked between the harness and the library, to move the
# library's code and data (bench/compare.sh -k, its code layouts).
$(BENCH_BIN): $(BENCH_OBJ) $(BENCH_PAD) $(BENCH_LIB)
	$(BENCH_LINK) -O2 $(EXTRA_FLAGS) -o $@ $^ $(SIMDUTF_LIB) $(ICU_LIBS) -lm

# The CLI's `utfx bench` links the same engine: these objects plus the static
# library (no main, no internal kernel probe, no ICU: baselines_none.c).
BENCH_ENGINE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard $(UTFX_BENCH_ENGINE_SRC)))

$(CLI_BIN): $(BENCH_ENGINE_OBJ)

bench-build: $(BENCH_BIN) $(BENCH_ENGINE_OBJ) ## build $(BUILD)/utfx-bench only

# tests/test_bench_smoke.sh runs the harness once per suite on tiny inputs.
test-build: $(BENCH_BIN) $(BENCH_ENGINE_OBJ)

bench: $(BENCH_BIN) ## run the benchmarks: default selection, or BENCH_ARGS="..."
	@mkdir -p $(BUILD)/bench
	$(BENCH_BIN) $(BENCH_ARGS) --csv $(BUILD)/bench/results.csv \
	    --raw $(BUILD)/bench/samples.csv --plot-data $(BUILD)/bench/kernels.tsv
	@echo "results: $(BUILD)/bench/results.csv (every batch: $(BUILD)/bench/samples.csv)"
	@$(MAKE) --no-print-directory bench-chart || echo "chart: not drawn (see above)"
	@if command -v $(NODE) >/dev/null 2>&1 && [ -f "$(NODE_INCLUDE)/node_api.h" ]; then \
	  $(MAKE) --no-print-directory bench-node; \
	else \
	  echo "bench-node: skipped (needs node and its headers, node_api.h; NODE_INCLUDE=$(NODE_INCLUDE))"; \
	fi

# The charts: utfx-chart (bench/chart.c, no dependency) writes kernels.svg,
# decode.svg and encode.svg from results.csv, for the suites that ran; with
# gnuplot installed, bench/plot.gp also draws kernels.png.
CHART_BIN := $(BUILD)/utfx-chart
$(CHART_BIN): bench/chart.c Makefile bench/bench.mk sources.mk
	$(CC) -std=c11 $(WARN) $(WERROR) -O2 -g $(EXTRA_FLAGS) -o $@ bench/chart.c -lm
bench: $(CHART_BIN)
test-build: $(CHART_BIN)

bench-chart: $(CHART_BIN) ## draw the charts of the last run: $(BUILD)/bench/*.svg
	@$(CHART_BIN) $(BUILD)/bench/results.csv $(BUILD)/bench
	@if command -v gnuplot >/dev/null 2>&1 && [ -s $(BUILD)/bench/kernels.tsv ]; then \
	  gnuplot -e "datafile='$(BUILD)/bench/kernels.tsv'; outfile='$(BUILD)/bench/kernels.png'" \
	      bench/plot.gp 2>$(BUILD)/bench/gnuplot.log \
	    && echo "chart: $(BUILD)/bench/kernels.png" \
	    || { cat $(BUILD)/bench/gnuplot.log; exit 1; }; \
	fi
