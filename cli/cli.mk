# The utfx command. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
# The utfx command (cli/*.c): sees only include/ (no -Isrc), links the static
# library, same warnings as the library. POSIX functions are allowed there;
# it converts large files on every core (cli/parallel.c): -pthread.
CLI_SRC := $(wildcard $(UTFX_CLI_SRC))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
CLI_BIN := $(BUILD)/utfx

$(BUILD)/obj/cli/%.o: cli/%.c Makefile cli/cli.mk
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -pthread -c $< -o $@

# `utfx bench` runs the benchmark engine of bench/ (BENCH_ENGINE_OBJ, below).
$(CLI_BIN): $(CLI_OBJ) $(STATIC_LIB)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BENCH_ENGINE_OBJ) \
	    $(STATIC_LIB) -lm -pthread
$(BUILD)/obj/cli/bench.o: ALL_CFLAGS += -DUTFX_BENCH_SRC_DIR='"$(CURDIR)/bench"'

cli: $(CLI_BIN) ## build the utfx command-line tool
