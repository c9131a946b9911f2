# vm/prof/prof.mk -- the profiler: build/dripprof, its test suite and its bench.
# Included by the top-level Makefile; paths are relative to the repo root.
#
# dripprof is our code only: `dripprof top`, `files` and `rows` get the answers of a
# chapter's exercise functions from that chapter's checker (--with CHECKER), which they run
# under the sandbox (build/harness/sandbox, exercises/exercises.mk) at run time. So nothing
# here depends on a chapter, and `make` never fails on a student's code. It links the C
# that the VM shares with it (vm/lib: the comma formatter, the interning table, the
# whole-file reader).

PROF_DIR      := vm/prof
PROF_OBJ      := $(BUILD)/obj/prof
PROF_SHARED   := vm/lib
PROF_CFLAGS   := $(CWARN) -O2 -g -I$(PROF_DIR) -I$(PROF_SHARED)
PROF_LIB      := folded callgrind fold trie flame flame_script costs top annotate diff \
                 tsv decimal message checker
PROF_SHARED_C := $(wildcard $(PROF_SHARED)/*.c)
PROF_OBJS     := $(PROF_LIB:%=$(PROF_OBJ)/%.o) $(PROF_SHARED_C:$(PROF_SHARED)/%.c=$(PROF_OBJ)/lib/%.o)
PROF_HEADERS  := $(wildcard $(PROF_DIR)/*.h $(PROF_SHARED)/*.h)
PROF_TESTBIN  := $(BUILD)/prof-tests/test_prof
PROF_TESTS    := $(wildcard $(PROF_DIR)/tests/*.c)
PROF_DATA     := $(PROF_DIR)/tests/data

all: $(BUILD)/dripprof

$(BUILD)/dripprof: $(PROF_OBJ)/dripprof.o $(PROF_OBJS)
	$(CC) $(PROF_CFLAGS) -o $@ $^ -lm

$(PROF_OBJ)/%.o: $(PROF_DIR)/%.c $(PROF_HEADERS) vm/prof/prof.mk
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) -c -o $@ $<

$(PROF_OBJ)/lib/%.o: $(PROF_SHARED)/%.c $(PROF_HEADERS) vm/prof/prof.mk
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) -c -o $@ $<

# ---- tests ---------------------------------------------------------------------
# One cmocka binary, built with the sanitizers, that writes "PASSED FAILED" itself (the
# readers, fold, the differential graph, damaged input); then tests/run_cases.lua runs
# the command-line cases of tests/cases/*.txt on build/dripprof-asan, dripprof built with
# the sanitizers too; then the headless-browser check of the flame graph adds one pass or
# one failure (or prints that it was skipped when chromium is missing: neither).
# The cases of top, files and rows run tests/fake_checker.sh, which answers from files the
# cases name and computes nothing: vm/ holds no implementation of an exercise function,
# not even in its tests (the student edition ships vm/).

PROF_LIB_SRCS := $(PROF_LIB:%=$(PROF_DIR)/%.c) $(PROF_SHARED_C)
PROF_ASAN     := $(BUILD)/dripprof-asan

# Beside build/dripprof, so that it finds build/harness/sandbox as dripprof does.
$(PROF_ASAN): $(PROF_DIR)/dripprof.c $(PROF_LIB_SRCS) $(PROF_HEADERS) vm/prof/prof.mk
	$(CC) $(CWARN) -O1 -g $(SANITIZE) -I$(PROF_DIR) -I$(PROF_SHARED) -o $@ $(PROF_DIR)/dripprof.c \
	  $(PROF_LIB_SRCS) -lm

$(PROF_TESTBIN): $(PROF_TESTS) $(PROF_LIB_SRCS) $(PROF_HEADERS) $(wildcard $(PROF_DIR)/tests/*.h) \
                 vm/prof/prof.mk
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O1 -g $(SANITIZE) -I$(PROF_DIR) -I$(PROF_SHARED) \
	  -DPROF_DATA_DIR='"$(PROF_DATA)"' -DPROF_DRIPPROF='"$(PROF_ASAN)"' \
	  $(shell pkg-config --cflags cmocka) -o $@ $(PROF_TESTS) $(PROF_LIB_SRCS) \
	  $(shell pkg-config --libs cmocka) -lm

# build/drip is a prerequisite so that the fold invariants are always checked on
# a fresh callgrind profile of our own VM too (the committed fixtures are small C
# programs); only a machine without valgrind skips that part. The sandbox is what
# dripprof runs a checker in; gen_folded, what cases/bench.txt runs the bench script with.
TEST_SUITES += prof
.PHONY: test-prof
test-prof: $(PROF_TESTBIN) $(BUILD)/dripprof $(PROF_ASAN) $(BUILD)/harness/sandbox $(BUILD)/drip \
           $(BUILD)/prof-tests/gen_folded
	@mkdir -p $(TEST_RESULTS)
	@bash $(PROF_DIR)/tests/test_prof.sh $(PROF_TESTBIN) $(BUILD)/dripprof $(PROF_ASAN) $(BUILD)/drip \
	  $(BUILD)/prof-tests $(TEST_RESULTS)/prof.result

HELP += "test-prof        test the profiler tools (readers, fold invariants, SVG, checkers, browser check)"

# ---- bench ----------------------------------------------------------------------
# bench/bench_prof.sh: dripprof fold and top against callgrind_annotate on callgrind
# profiles of cc1 and python3 made on this machine, and dripprof flame on gen_folded's
# synthetic files, CPU and peak memory side by side; every total must agree. The
# inputs are made once and kept in build/bench-prof.

PROF_BENCH_DIR := $(BUILD)/bench-prof

$(BUILD)/prof-tests/gen_folded: $(PROF_DIR)/bench/gen_folded.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O2 -o $@ $<

BENCH_TARGETS += bench-prof
.PHONY: bench-prof
bench-prof: $(BUILD)/dripprof $(BUILD)/prof-tests/gen_folded
	@bash $(PROF_DIR)/bench/bench_prof.sh $(BUILD)/dripprof $(BUILD)/prof-tests/gen_folded \
	  $(PROF_BENCH_DIR)

HELP += "bench-prof       dripprof vs callgrind_annotate on cc1/python3 profiles, flame on 1M lines"

# ---- fuzzing (not part of make test) ------------------------------------------
# libFuzzer, with ASan+UBSan, on each reader (fuzz/fuzz_prof.c, built once per reader),
# FUZZ_SECONDS each (vm.mk's default), one after another, seeded with the test data of
# its kind. What they found is in tests/cases/fuzz.txt, run by make test.

PROF_FUZZ        := callgrind folded annotate
PROF_FUZZ_DIR    := $(BUILD)/fuzz-prof
PROF_SEEDS_callgrind := $(wildcard $(PROF_DATA)/*grind.out)
PROF_SEEDS_folded    := $(wildcard $(PROF_DATA)/*.folded $(PROF_DATA)/expected/fold-*.txt)
PROF_SEEDS_annotate  := $(wildcard $(PROF_DATA)/*.annotate.txt $(PROF_DATA)/expected/rows-*.txt)
HELP += "fuzz-prof        libFuzzer on dripprof's three readers, FUZZ_SECONDS each (needs clang)"

$(PROF_FUZZ_DIR)/fuzz-%: $(PROF_DIR)/fuzz/fuzz_prof.c $(PROF_LIB_SRCS) $(PROF_HEADERS) vm/prof/prof.mk
	@mkdir -p $(@D)
	$(VM_FUZZ_CC) $(CWARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -DFUZZ_READER=FUZZ_$(shell echo $* | tr a-z A-Z) -I$(PROF_DIR) -I$(PROF_SHARED) -o $@ \
	  $(PROF_DIR)/fuzz/fuzz_prof.c $(PROF_LIB_SRCS) -lm

.PHONY: fuzz-prof
fuzz-prof: $(PROF_FUZZ:%=$(PROF_FUZZ_DIR)/fuzz-%)
	@status=0; $(foreach t,$(PROF_FUZZ), \
	  mkdir -p $(PROF_FUZZ_DIR)/$t/corpus $(PROF_FUZZ_DIR)/$t/crashes; \
	  cp $(PROF_SEEDS_$t) $(PROF_FUZZ_DIR)/$t/corpus/; \
	  echo "fuzz-prof: $t for $(FUZZ_SECONDS) s"; \
	  $(PROF_FUZZ_DIR)/fuzz-$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=65536 -dict=$(PROF_DIR)/fuzz/$t.dict -print_final_stats=1 \
	    -artifact_prefix=$(PROF_FUZZ_DIR)/$t/crashes/ $(PROF_FUZZ_DIR)/$t/corpus || status=1;) \
	exit $$status
