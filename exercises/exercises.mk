# exercises/exercises.mk: the exercise loop (`make exercise-N`, `make watch-N`), the process
# sandbox every test runs in (build/harness/sandbox, shared with the grader), and the
# `exercises` suite of `make test`.
#
# A chapter's exercise is a folder exercises/N/ (the student's *.c and *.h, a README.md
# handout, tests/ with one driver *.c and its data files) mirrored by solutions/N/.
# `exercise-%` is a pattern rule, so a new chapter adds folders, not Makefile code.
#
#   make exercise-165               your code (exercises/165/*.c) against the public tests
#   make exercise-165 SOLUTION=1    the reference (solutions/165/*.c) against the same tests
#   make exercise-165 TEST=parse_row.one_blank   only the tests whose name starts so
#   make watch-165                  the same, again every time a file in exercises/165 is saved
#
# Every run recompiles the student's files (with the sanitizers on) and links them with
# the test driver's objects. The test binary then starts once, under the sandbox, and
# forks one child per test (exercises/harness/fork_tests.c), EX_JOBS at a time, each with
# EX_TIMEOUT seconds of CPU time (a busy machine cannot change a verdict) and EX_WALL
# seconds of wall clock as a backstop. The verdicts go to $(EX_OUT)/results.tsv.
# EX_SRC / EX_OUT / EX_ARGS (extra arguments for the test binary, e.g. --fixtures DIR)
# let the test suite run the same loop on temporary copies.

EX_HARNESS := exercises/harness
EX_EMPTY   :=
EX_SPACE   := $(EX_EMPTY) $(EX_EMPTY)
EX_COMMA   := ,
EX_SANDBOX := $(BUILD)/harness/sandbox
EX_TIMEOUT ?= 2
EX_WALL    ?= 60
EX_DETAILS ?= 2
EX_JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
EX_CMOCKA   = $(shell pkg-config --cflags --libs cmocka 2>/dev/null || echo -lcmocka)
# Students get warnings, not -Werror (a half-written function should still run), but for
# the two of $(STUDENT_WARN) that always end in a crash; our own code (SOLUTION=1, the
# suite) is built with $(CWARN).
EX_WARN     = $(if $(SOLUTION),$(CWARN),$(STUDENT_WARN))
# Where the code under test lives and where its build goes (the suite points these at
# temporary copies).
EX_SRC      = $(if $(SOLUTION),solutions,exercises)/$*
EX_OUT      = $(BUILD)/exercise/$*$(if $(SOLUTION),-solution)

# The sandbox is built without sanitizers: it must not be the thing that crashes.
$(EX_SANDBOX): $(EX_HARNESS)/sandbox.c $(EX_HARNESS)/sandbox_box.c $(EX_HARNESS)/sandbox_tree.c \
               $(EX_HARNESS)/sandbox.h
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O2 -o $@ $(filter %.c,$^) -lm

.PHONY: sandbox
sandbox: $(EX_SANDBOX)
HELP += "sandbox          build the process sandbox every test and check runs in (build/harness/sandbox)"

# The test drivers (exercises/N/tests/*.c) and the harness pieces they link (fork_tests.c,
# one forked child per test; alloc_fail.c, failing allocations) are our code: built once, with -Werror and the
# sanitizers, into $(BUILD)/exercise-driver/ (FIXTURES_DIR = the driver's folder). Each
# `make exercise-N` then compiles only the student's files and links.
EX_DRIVER_DIR := $(BUILD)/exercise-driver
EX_DRIVER_OBJ  = $(patsubst exercises/%.c,$(EX_DRIVER_DIR)/%.o,$(wildcard exercises/$(1)/tests/*.c) \
                   $(EX_HARNESS)/fork_tests.c $(EX_HARNESS)/alloc_fail.c)
# Every allocation call goes through alloc_fail.c, so a test can make them fail.
EX_WRAP       := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup

$(EX_DRIVER_DIR)/%.o: exercises/%.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(SANITIZE) -g -O0 -MMD -MP -I$(<D)/.. -I$(EX_HARNESS) -DFIXTURES_DIR='"$(<D)"' \
	  $(shell pkg-config --cflags cmocka 2>/dev/null) -c -o $@ $<

-include $(patsubst exercises/%.c,$(EX_DRIVER_DIR)/%.d,$(wildcard exercises/*/tests/*.c $(EX_HARNESS)/*.c))
# Kept between runs (make would delete them as intermediate files of exercise-N).
.PRECIOUS: $(EX_DRIVER_DIR)/%.o

# Build errors are shown as the compiler's own words, after a line that says so
# (build_exercise.sh). In watch mode (EX_BRIEF=1) the report starts with the progress
# line, the compiler's warnings come after it, and the exit status is 0 (the watch goes on).
# Code that does not compile runs no test, in either mode: the last good test binary is
# removed, so the old code's verdicts are never shown under the new code's errors.
.SECONDEXPANSION:
exercise-%: setup $(EX_SANDBOX) $$(call EX_DRIVER_OBJ,$$*)
	@test -d exercises/$*/tests || { echo "There is no exercise $* (no exercises/$*/tests)."; exit 2; }
	@mkdir -p $(EX_OUT)
	@echo "Building $(EX_SRC)/*.c with the public tests of exercises/$*/tests ..."
	@if ! bash $(EX_HARNESS)/build_exercise.sh $(EX_OUT) "$(EX_BRIEF)" -- $(CC) $(EX_WARN) $(SANITIZE) -g -O0 \
	  -I$(EX_SRC) $(wildcard $(EX_SRC)/*.c) $(call EX_DRIVER_OBJ,$*) $(EX_WRAP) $(EX_CMOCKA) -lm; then \
	  test -n "$(EX_BRIEF)"; exit; fi; \
	$(LUA) $(EX_HARNESS)/run_exercise.lua --sandbox $(EX_SANDBOX) --binary $(EX_OUT)/tests \
	  --handout exercises/$*/README.md --sources $(subst $(EX_SPACE),$(EX_COMMA),$(notdir $(wildcard $(EX_SRC)/*.c))) \
	  --state $(EX_OUT)/hint-state --timeout $(EX_TIMEOUT) --wall $(EX_WALL) --details $(EX_DETAILS) \
	  --jobs $(EX_JOBS) --tsv $(EX_OUT)/results.tsv --chapter $* \
	  --title "exercise $* ($(EX_SRC))" $(if $(TEST),--only $(TEST)) \
	  $(if $(EX_BRIEF),--brief yes --build-log $(EX_OUT)/build.log) $(if $(EX_ARGS),-- $(EX_ARGS))

# Watch mode: one run at once, then one run after every save in the exercise's folder
# (inotifywait, from inotify-tools, reports the saves; a save is often several events, so
# those that come within 0.2 s are taken together). Editors' temporary files do not count.
# Each run clears the screen and starts with the progress line. Ctrl-C ends it.
EX_WATCH_IGNORE := (\.sw[a-z]|~|/4913|/\.?\#[^/]*)$$

watch-%: setup $(EX_SANDBOX) $$(call EX_DRIVER_OBJ,$$*)
	@test -d exercises/$*/tests || { echo "There is no exercise $* (no exercises/$*/tests)."; exit 2; }
	@command -v inotifywait >/dev/null || { echo "make watch-$* needs inotifywait (Debian \
	  package inotify-tools); make setup installs it."; exit 2; }
	+@run() { printf '\033[H\033[2J'; \
	  $(MAKE) --no-print-directory -s exercise-$* EX_BRIEF=1; \
	  echo; echo "Watching $(EX_SRC) for saves; Ctrl-C ends."; }; \
	inotifywait -q -m -r -e close_write -e moved_to --exclude '$(EX_WATCH_IGNORE)' \
	  --format '%w%f' $(EX_SRC) | { run; while read -r saved; do \
	    while read -r -t 0.2 more; do :; done; run; done; }

# The student's loop, timed: save profile.c, then make exercise-N to its last line.
.PHONY: bench-loop
bench-loop: setup $(EX_SANDBOX)
	@for n in $(EX_CHAPTERS); do bash $(EX_HARNESS)/bench_loop.sh $$n 9; done
BENCH_TARGETS += bench-loop
HELP += "bench-loop       edit-to-verdict of make exercise-N (exercises/N and the reference): median wall and CPU time"

EX_CHAPTERS := $(patsubst exercises/%/tests,%,$(wildcard exercises/[0-9]*/tests))
HELP += $(foreach n,$(EX_CHAPTERS),"exercise-$(n)     build exercises/$(n) with its public tests and run each test alone (SOLUTION=1: the reference; TEST=name: one test)")
HELP += $(foreach n,$(EX_CHAPTERS),"watch-$(n)        make exercise-$(n) again every time a file in exercises/$(n) is saved (Ctrl-C ends)")

# ------------------------------------------------------------------ the test suite

EX_VICTIMS := $(BUILD)/harness/victims $(BUILD)/harness/victims-asan

EX_VICTIM_SRC := $(EX_HARNESS)/tests/victims.c $(EX_HARNESS)/fork_tests.c $(EX_HARNESS)/fork_tests.h

$(BUILD)/harness/victims: $(EX_VICTIM_SRC)
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O0 -g -I$(EX_HARNESS) -o $@ $(filter %.c,$^)

$(BUILD)/harness/victims-asan: $(EX_VICTIM_SRC)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(SANITIZE) -O0 -g -I$(EX_HARNESS) -o $@ $(filter %.c,$^)

TEST_SUITES += exercises
TEST_PREBUILD += $(EX_SANDBOX) $(EX_VICTIMS) $(foreach n,$(EX_CHAPTERS),$(call EX_DRIVER_OBJ,$(n)))
HELP += "test-exercises   the exercise loop's own tests: sandbox, fork runner, report, watch, planted faults (also beside busy loops), reference"

TEST_SLOW_SUITES += slow-exercises
HELP += "test-slow-exercises  the reference 3 times, planted faults on every test, with busy loops beside"

EX_SUITE_NEEDS := setup $(EX_SANDBOX) $(EX_VICTIMS) $(foreach n,$(EX_CHAPTERS),$(call EX_DRIVER_OBJ,$(n)))

.PHONY: test-exercises test-slow-exercises
# One busted spec; its #slow tests are the long version.
EX_SPEC := $(EX_HARNESS)/tests/harness_spec.lua
test-exercises: $(EX_SUITE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@bash vm/lib/busted.sh $(TEST_RESULTS)/exercises.result --exclude-tags=slow $(EX_SPEC)

test-slow-exercises: $(EX_SUITE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@bash vm/lib/busted.sh $(TEST_RESULTS)/slow-exercises.result --tags=slow $(EX_SPEC)
