# vm/vm.mk -- the Drip VM: build/drip and its test, fuzz and bench builds.
# Included by the top-level Makefile; paths are relative to the repo root.

VM_SRC_DIR := vm/src
# vm/lib holds the C that the VM and the profiler share (one comma formatter, one
# interning table, one whole-file reader); both link it.
VM_SHARED_DIR := vm/lib
VM_SOURCES := $(wildcard $(VM_SRC_DIR)/*.c) $(wildcard $(VM_SHARED_DIR)/*.c)
VM_HEADERS := $(wildcard $(VM_SRC_DIR)/*.h) $(wildcard $(VM_SHARED_DIR)/*.h)
# -fno-crossjumping keeps one indirect jump per opcode (see vm/PERFORMANCE.md);
# gcc has it, clang does not, so it is probed for. Likewise clang's
# -fdebug-default-version=4: valgrind 3.19 cannot read the DWARF 5 that clang 14
# writes for -g (gcc's it reads). -g stays a separate word, so a build without
# debug information is $(filter-out -g,$(VM_CFLAGS)).
# A probe runs the compiler, so it runs when a recipe first needs its answer (then the
# variable keeps it), not on every make that reads this file.
VM_PROBE = $(shell echo 'int x;' | $(CC) $(1) -Werror -x c -c -o /dev/null - 2>/dev/null && echo $(1))
VM_NO_CROSSJUMP = $(eval VM_NO_CROSSJUMP := $(call VM_PROBE,-fno-crossjumping))$(VM_NO_CROSSJUMP)
VM_DWARF4       = $(eval VM_DWARF4 := $(call VM_PROBE,-fdebug-default-version=4))$(VM_DWARF4)
VM_CFLAGS  = $(CWARN) -I$(VM_SHARED_DIR) -O2 -g $(VM_NO_CROSSJUMP) $(VM_DWARF4)
VM_DEBUG   = $(CWARN) -I$(VM_SHARED_DIR) -O1 -g $(VM_DWARF4) -fno-omit-frame-pointer -DDRIP_CHECK_STACK

all: $(BUILD)/drip

# One binary per build flavour, each compiled from all sources in one command:
# the VM is small enough (a second or two) that per-object rules would buy
# nothing, and each flavour needs its own objects anyway.
$(BUILD)/drip: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) -o $@ $(VM_SOURCES)

# The other flavours: the release or the debug flags, plus their own.
# Instrumentation compiled out: the reference for "free when off".
VM_FLAGS_noinstr  = $(VM_CFLAGS) -DDRIP_NO_INSTRUMENT
# The load-time pass that writes superinstructions (vm/src/fuse.h) left out: the
# plain loop runs the compiler's bytecode, as the counting loop does. The
# reference for what the superinstructions save (make bench's unfused Ir).
VM_FLAGS_nofuse   = $(VM_CFLAGS) -DDRIP_NO_FUSE
# Every OP_CALL through an out-of-line callValue(), as in clox: callgrind then
# counts one C call per Drip call (fib's calls + 2 for clock()), which the
# chapter's profile checks. Slower; for profiling the call path only.
VM_FLAGS_outline  = $(VM_CFLAGS) -DDRIP_OUTLINE_CALLS
# A switch instead of computed goto, to check the portable path still works.
VM_FLAGS_switch   = $(VM_CFLAGS) -DDRIP_NO_COMPUTED_GOTO
VM_FLAGS_gcstress = $(VM_DEBUG) -DDRIP_STRESS_GC
VM_FLAGS_asan     = $(VM_DEBUG) $(SANITIZE)
VM_FLAVOURS := $(addprefix $(BUILD)/drip-,noinstr nofuse outline switch gcstress asan)

$(VM_FLAVOURS): $(BUILD)/drip-%: $(VM_SOURCES) $(VM_HEADERS) vm/vm.mk
	@mkdir -p $(@D)
	$(CC) $(VM_FLAGS_$*) -o $@ $(VM_SOURCES)

.PHONY: vm-builds
vm-builds: $(BUILD)/drip $(VM_FLAVOURS)

# ---- tests ------------------------------------------------------------------
# Our own Drip programs (vm/tests/*/*.drip, expectations in comments) run in
# the release, GC-stress and ASan+UBSan builds; a subset runs under valgrind
# memcheck (errors or leaks fail); cli_spec.lua checks flags and exit codes;
# differential.lua runs the tests and the benchmarks in the plain loop (with
# its superinstructions) and the counting loop and requires the same output.
VM_TEST_DIRS     := vm/tests/language vm/tests/errors vm/tests/limits vm/tests/instrument vm/tests/gc \
                    vm/tests/disassembly
VM_MEMCHECK      := vm/tests/gc vm/tests/language/closures.drip vm/tests/language/classes.drip \
                    vm/tests/language/inheritance.drip vm/tests/language/strings.drip \
                    vm/tests/errors/stack_trace.drip vm/tests/errors/stack_overflow.drip \
                    vm/tests/errors/compile_multiple.drip vm/tests/errors/nesting_absurd.drip \
                    vm/tests/instrument/fib5_folded.drip vm/tests/instrument/methods_profile.drip
VM_VALGRIND      := valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
                    --errors-for-leak-kinds=all
VM_SAN_ENV       := env ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=99

TEST_SUITES += vm
HELP += "vm-builds        build every VM variant: release, noinstr, nofuse, outline, switch, GC-stress, ASan+UBSan"
HELP += "test-vm          the VM's own tests: release (+outline, switch builds), GC-stress, ASan+UBSan, memcheck, CLI, plain loop = counting loop"

.PHONY: test-vm
# vm/tests/test_vm.sh runs the parts, two at a time.
test-vm: $(BUILD)/drip $(BUILD)/drip-gcstress $(BUILD)/drip-asan $(BUILD)/drip-outline $(BUILD)/drip-switch
	@mkdir -p $(TEST_RESULTS)
	@BUILD=$(BUILD) TEST_DIRS="$(VM_TEST_DIRS)" BENCH_DIR=vm/bench MEMCHECK="$(VM_MEMCHECK)" VALGRIND="$(VM_VALGRIND)" \
	  SAN_ENV="$(VM_SAN_ENV)" LUA=$(LUA) bash vm/tests/test_vm.sh $(TEST_RESULTS)/vm.result

# ---- fuzzing (not part of make test) ------------------------------------------
# libFuzzer over compile-and-run, with ASan+UBSan and the stack-height check,
# seeded with every Drip program in the repository. vm/fuzz/regressions holds
# inputs that once failed (kept minimized); they are rerun first.
VM_FUZZ_CC      ?= clang
FUZZ_SECONDS    ?= 60
VM_LIB_SOURCES  := $(filter-out $(VM_SRC_DIR)/main.c,$(VM_SOURCES))
VM_FUZZ_CORPUS  := $(BUILD)/fuzz/corpus
HELP += "fuzz             libFuzzer on the VM for FUZZ_SECONDS (default 60; needs clang)"

$(BUILD)/drip-fuzz: $(VM_LIB_SOURCES) $(VM_HEADERS) vm/fuzz/fuzz_drip.c vm/vm.mk
	@mkdir -p $(@D)
	$(VM_FUZZ_CC) $(CWARN) -I$(VM_SHARED_DIR) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -DDRIP_CHECK_STACK -DDRIP_STEP_LIMIT=100000 -DDRIP_MAX_STRING_LENGTH=4096 \
	  -o $@ $(VM_LIB_SOURCES) vm/fuzz/fuzz_drip.c

.PHONY: fuzz
fuzz: $(BUILD)/drip-fuzz
	@mkdir -p $(VM_FUZZ_CORPUS) $(BUILD)/fuzz/crashes
	@find vm/tests vm/bench vm/fuzz/regressions -name '*.drip' -exec cp {} $(VM_FUZZ_CORPUS)/ \;
	@for f in vm/fuzz/regressions/*.drip; do $(BUILD)/drip-fuzz -runs=1 $$f >/dev/null 2>&1 || \
	  { echo "fuzz: regression input $$f fails again"; exit 1; }; done
	$(BUILD)/drip-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	  -max_len=8192 -close_fd_mask=3 -dict=vm/fuzz/drip.dict \
	  -artifact_prefix=$(BUILD)/fuzz/crashes/ $(VM_FUZZ_CORPUS)

# ---- benchmarks ---------------------------------------------------------------
# BENCH_REPEAT rounds per program and twin (Drip, Lua 5.4 and LuaJIT -joff in
# turn; medians of CPU time and of per-round ratios); BENCH_CALLGRIND names the
# programs measured under callgrind, with and without superinstructions
# (build/drip-nofuse): "all" (default, about five minutes), "fib,zoo" or "none".
BENCH_REPEAT    ?= 5
BENCH_CALLGRIND ?= all
BENCH_TARGETS += bench-vm
HELP += "bench-vm         VM benchmarks: CPU time and peak memory beside Lua 5.4 and LuaJIT -joff; Ir fused and unfused"

.PHONY: bench-vm
bench-vm: $(BUILD)/drip $(BUILD)/drip-nofuse
	@$(LUA) vm/bench/bench.lua --unfused $(BUILD)/drip-nofuse $(BUILD)/drip vm/bench $(BENCH_REPEAT) \
	  $(BENCH_CALLGRIND)
