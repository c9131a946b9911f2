# vm/prof/prof.mk -- the profiler: build/dripprof, its test suite, its bench and
# `make profile-165`. Included by the top-level Makefile; paths are relative to
# the repo root.
#
# `dripprof top` and `dripprof files` run two functions of the chapter's
# exercise, inclusive() and parse_row() (profile.h). Where they come from is one
# choice, PROFILE_IMPL (a folder with profile.c and profile.h):
#
#   solutions/165   the chapter's reference; the default where it exists (the
#                   instructor's workbook), so the tables and the grader share
#                   one definition of "inclusive";
#   exercises/165   the student's own code; the default in the student edition,
#                   which has no solutions/: the profiler a student uses is the
#                   one they wrote. `make PROFILE_IMPL=exercises/165` does the
#                   same in the instructor's workbook.
#
# That file is compiled on its own, with $(STUDENT_WARN) (the Makefile): warnings but
# without -Werror, so a half-written function still links. When it does not compile at all,
# dripprof is linked without it: exercise.c's stand-ins then answer like the
# shipped stubs and top/files/rows say what is missing, so `make` never fails on the
# exercise. The profiler's own tests (test-prof) use the implementation only
# when it is the reference: a student's code is tested by `make exercise-165`,
# never by `make test`; tests that need the functions are skipped without it.

PROFILE_IMPL ?= $(if $(wildcard solutions/165/profile.c),solutions/165,exercises/165)
HELP += "PROFILE_IMPL=dir where dripprof top/files/rows get parse_row, inclusive (here: $(PROFILE_IMPL))"

PROF_DIR      := vm/prof
PROF_OBJ      := $(BUILD)/obj/prof
PROF_CFLAGS   := $(CWARN) -O2 -g -I$(PROF_DIR) -I$(PROFILE_IMPL)
PROF_LIB      := folded intern callgrind fold trie flame flame_script top annotate exercise diff \
                 u128 tsv
PROF_OBJS     := $(PROF_LIB:%=$(PROF_OBJ)/%.o)
PROF_IMPL_OBJ := $(PROF_OBJ)/impl/profile.o
PROF_TEST_IMPL := $(filter solutions/%,$(PROFILE_IMPL))
PROF_TESTBIN  := $(BUILD)/prof-tests/test_prof
PROF_TESTS    := $(wildcard $(PROF_DIR)/tests/*.c)
PROF_DATA     := $(PROF_DIR)/tests/data
# dripprof linked without any implementation, and with one that passes the readiness
# probe and then crashes, loops or breaks the contract (the tests of exercise.c).
PROF_UNWRITTEN := $(BUILD)/prof-tests/dripprof-unwritten
PROF_BROKEN    := $(BUILD)/prof-tests/dripprof-broken

all: $(BUILD)/dripprof

$(BUILD)/dripprof: $(PROF_OBJ)/dripprof.o $(PROF_OBJS) $(PROF_IMPL_OBJ)
	$(CC) $(PROF_CFLAGS) -o $@ $^ -lm

$(PROF_OBJ)/%.o: $(PROF_DIR)/%.c $(wildcard $(PROF_DIR)/*.h) $(PROFILE_IMPL)/profile.h vm/prof/prof.mk
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) $(PROF_DEFINES) -c -o $@ $<

# The choice is remembered in a file that changes only when the choice does, so
# switching PROFILE_IMPL rebuilds what depends on it, and nothing else.
PROF_CHOICE := $(PROF_OBJ)/profile-impl.txt
$(PROF_CHOICE): prof-choice-check
	@mkdir -p $(@D); [ "$$(cat $@ 2>/dev/null)" = "$(PROFILE_IMPL)" ] || echo "$(PROFILE_IMPL)" > $@
.PHONY: prof-choice-check
prof-choice-check:

# exercise.c names the file in its messages (and checks whether it changed since).
$(PROF_OBJ)/exercise.o: $(PROF_CHOICE)
$(PROF_OBJ)/exercise.o: PROF_DEFINES = -DPROFILE_IMPL_FILE='"$(PROFILE_IMPL)/profile.c"' \
                                       -DPROFILE_IMPL_PATH='"$(abspath $(PROFILE_IMPL))/profile.c"'

$(PROF_IMPL_OBJ): $(PROFILE_IMPL)/profile.c $(PROFILE_IMPL)/profile.h $(PROF_CHOICE)
	@mkdir -p $(@D)
	@if ! $(CC) $(STUDENT_WARN) -O2 -g -I$(PROFILE_IMPL) -c -o $@ $<; then \
	  echo "prof: $< does not compile, so build/dripprof is built without it:" \
	       "dripprof top, files and rows will say what is missing (make exercise-165 shows why)."; \
	  $(CC) -x c -c -o $@ /dev/null; fi

$(PROF_UNWRITTEN): $(PROF_OBJ)/dripprof.o $(PROF_OBJS)
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) -o $@ $^ -lm

$(PROF_BROKEN): $(PROF_OBJ)/dripprof.o $(PROF_OBJS) $(PROF_DIR)/tests/broken/impl.c
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) -O0 -o $@ $^ -lm

# ---- tests ---------------------------------------------------------------------
# One cmocka binary, built with the sanitizers, that writes "PASSED FAILED" itself;
# then the headless-browser check of the flame graph adds one pass or one failure
# (or prints that it was skipped when chromium is missing: a skip counts as neither).

PROF_LIB_SRCS := $(PROF_LIB:%=$(PROF_DIR)/%.c) $(PROF_TEST_IMPL:%=%/profile.c)
# The CLI tests run the dripprof that has the same implementation as the test binary.
PROF_TEST_DRIPPROF := $(if $(PROF_TEST_IMPL),$(BUILD)/dripprof,$(PROF_UNWRITTEN))

$(PROF_TESTBIN): $(PROF_TESTS) $(PROF_LIB_SRCS) $(wildcard $(PROF_DIR)/*.h $(PROF_DIR)/tests/*.h) \
                 vm/prof/prof.mk $(PROF_CHOICE)
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O1 -g $(SANITIZE) -I$(PROF_DIR) -I$(PROFILE_IMPL) \
	  -DPROF_DATA_DIR='"$(PROF_DATA)"' -DPROF_DRIPPROF='"$(PROF_TEST_DRIPPROF)"' \
	  -DPROF_UNWRITTEN='"$(PROF_UNWRITTEN)"' -DPROF_BROKEN='"$(PROF_BROKEN)"' \
	  -DPROF_WITH_EXERCISE=$(if $(PROF_TEST_IMPL),1,0) \
	  -DPROFILE_IMPL_FILE='"$(PROFILE_IMPL)/profile.c"' \
	  $(shell pkg-config --cflags cmocka) -o $@ $(PROF_TESTS) $(PROF_LIB_SRCS) \
	  $(shell pkg-config --libs cmocka) -lm

# build/drip is a prerequisite so that the fold invariants are always checked on
# a fresh callgrind profile of our own VM too (the committed fixtures are small C
# programs); only a machine without valgrind skips that part.
TEST_SUITES += prof
.PHONY: test-prof
test-prof: $(PROF_TESTBIN) $(BUILD)/dripprof $(PROF_UNWRITTEN) $(PROF_BROKEN) $(BUILD)/drip
	@mkdir -p $(TEST_RESULTS)
	@bash $(PROF_DIR)/tests/test_prof.sh $(PROF_TESTBIN) $(BUILD)/dripprof $(BUILD)/drip \
	  $(BUILD)/prof-tests $(TEST_RESULTS)/prof.result

HELP += "test-prof        test the profiler tools (readers, fold invariants, SVG, browser check)"

# ---- bench ----------------------------------------------------------------------
# A million folded lines (a made-up but deterministic call tree), then the time of
# `dripprof flame` on them, and flamegraph.pl's when it is installed.

PROF_BENCH_DIR := $(BUILD)/bench-prof

$(BUILD)/prof-tests/gen_folded: $(PROF_DIR)/bench/gen_folded.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O2 -o $@ $<

BENCH_TARGETS += bench-prof
.PHONY: bench-prof
bench-prof: $(BUILD)/dripprof $(BUILD)/prof-tests/gen_folded
	@mkdir -p $(PROF_BENCH_DIR)
	@$(BUILD)/prof-tests/gen_folded 1000000 > $(PROF_BENCH_DIR)/million.folded
	@echo "bench-prof: $$(wc -l < $(PROF_BENCH_DIR)/million.folded) folded lines," \
	  "$$(wc -c < $(PROF_BENCH_DIR)/million.folded) bytes"
	@bash $(PROF_DIR)/bench/time_flame.sh $(BUILD)/dripprof $(PROF_BENCH_DIR)

HELP += "bench-prof       time dripprof flame on 1,000,000 folded lines"
