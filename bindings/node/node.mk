# The Node.js addon. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
# The Node.js addon (bindings/node/): bindings/node/src/addon*.c, N-API, linked
# with the static library into $(BUILD)/node/utfx.node, which
# bindings/node/index.js loads. Headers come from the installed Node
# (NODE_INCLUDE, default: the include/node next to node's bin/); nothing is
# downloaded. `npm install` in bindings/node runs `make node` here.
NODE ?= node
ifndef NODE_INCLUDE
NODE_INCLUDE := $(shell $(NODE) -p "require('path').join(process.execPath, '../../include/node')" \
                  2>/dev/null)
endif
NODE_ADDON := $(BUILD)/node/utfx.node
NODE_ADDON_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bindings/node/src/addon*.c))

$(NODE_ADDON_OBJ): $(BUILD)/obj/bindings/node/src/%.o: bindings/node/src/%.c Makefile \
                   bindings/node/node.mk
	@test -f $(NODE_INCLUDE)/node_api.h || { echo "node: no node_api.h in '$(NODE_INCLUDE)'" \
	    "(install Node.js with its headers, or set NODE_INCLUDE)"; exit 1; }
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -isystem $(NODE_INCLUDE) -DNODE_GYP_MODULE_NAME=utfx -fPIC \
	    -fvisibility=hidden -c $< -o $@

$(NODE_ADDON): $(NODE_ADDON_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -shared -o $@ $^

.PHONY: node bench-node
node: $(NODE_ADDON) ## build the Node.js addon $(BUILD)/node/utfx.node (bindings/node)

# tests/test_node_binding.sh runs bindings/node/test/test.js against it (and
# fails, saying why, when node's headers are missing and it could not be built).
ifneq ($(wildcard $(NODE_INCLUDE)/node_api.h),)
test-build: $(NODE_ADDON)
endif

# Node's string_decoder and buffer-write-string-utf8 grids, builtin vs utfx
# in one process, compare.R statistics, a JSON-RPC round trip with a child
# process, and the base64 functions against Buffer's
# (bindings/node/bench/bench.js). E.g.
#   make bench-node BENCH_NODE_ARGS="--suite decoder --filter utf8 --runs 20"
#   make bench-node BENCH_NODE_ARGS="--suite base64 --runs 8"
BENCH_NODE_ARGS ?=
bench-node: $(NODE_ADDON) ## run the Node.js binding's benchmarks (BENCH_NODE_ARGS="...")
	UTFX_NODE_ADDON=$(CURDIR)/$(NODE_ADDON) $(NODE) bindings/node/bench/bench.js $(BENCH_NODE_ARGS)
