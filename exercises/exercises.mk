# exercises/exercises.mk: the exercise loop (`make exercise-N`), the process sandbox every
# test runs in (build/harness/sandbox, shared with the grader), and the `exercises` suite
# of `make test`.
#
# A chapter's exercise is a folder exercises/N/ (the student's *.c and *.h, a README.md
# handout, tests/ with one driver *.c and its data files) mirrored by solutions/N/.
# `exercise-%` is a pattern rule, so a new chapter adds folders, not Makefile code.
#
#   make exercise-165               your code (exercises/165/*.c) against the public tests
#   make exercise-165 SOLUTION=1    the reference (solutions/165/*.c) against the same tests
#   make exercise-165 TEST=parse_row.one_blank   only the tests whose name starts so
#
# Every run recompiles the student's files (with the sanitizers on) and links them with
# the test driver's objects; each test then runs in its own process under the sandbox,
# with EX_TIMEOUT seconds of wall-clock time (generous: a sanitizer report takes a while
# to symbolize on a busy machine), EX_JOBS at a time. The verdicts go to $(EX_OUT)/results.tsv.
# EX_SRC / EX_OUT / EX_ARGS (extra arguments for the test binary, e.g. --fixtures DIR)
# let the test suite run the same loop on temporary copies.

EX_HARNESS := exercises/harness
EX_EMPTY   :=
EX_SPACE   := $(EX_EMPTY) $(EX_EMPTY)
EX_COMMA   := ,
EX_SANDBOX := $(BUILD)/harness/sandbox
EX_TIMEOUT ?= 3
EX_DETAILS ?= 2
EX_JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
EX_CMOCKA   = $(shell pkg-config --cflags --libs cmocka 2>/dev/null || echo -lcmocka)
# Students get warnings, not -Werror (a half-written function should still run); our
# own code (SOLUTION=1, the suite) is built with $(CWARN).
EX_WARN     = $(if $(SOLUTION),$(CWARN),-std=c11 -Wall -Wextra)
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

# The test drivers (exercises/N/tests/*.c) are our code: built once, with -Werror and the
# sanitizers, into $(BUILD)/exercise-driver/N/tests/*.o (FIXTURES_DIR = their folder).
# Each `make exercise-N` then compiles only the student's files and links.
EX_DRIVER_DIR := $(BUILD)/exercise-driver
EX_DRIVER_OBJ  = $(patsubst exercises/%.c,$(EX_DRIVER_DIR)/%.o,$(wildcard exercises/$(1)/tests/*.c))

$(EX_DRIVER_DIR)/%.o: exercises/%.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(SANITIZE) -g -O0 -MMD -MP -I$(<D)/.. -DFIXTURES_DIR='"$(<D)"' \
	  $(shell pkg-config --cflags cmocka 2>/dev/null) -c -o $@ $<

-include $(patsubst exercises/%.c,$(EX_DRIVER_DIR)/%.d,$(wildcard exercises/*/tests/*.c))

# Build errors are shown as the compiler's own words, after a line that says so.
exercise-%: setup $(EX_SANDBOX)
	@test -d exercises/$*/tests || { echo "There is no exercise $* (no exercises/$*/tests)."; exit 2; }
	@$(MAKE) --no-print-directory -s $(call EX_DRIVER_OBJ,$*)
	@mkdir -p $(EX_OUT)
	@echo "Building $(EX_SRC)/*.c with the public tests of exercises/$*/tests ..."
	@if ! $(CC) $(EX_WARN) $(SANITIZE) -g -O0 -I$(EX_SRC) -o $(EX_OUT)/tests \
	       $(wildcard $(EX_SRC)/*.c) $(call EX_DRIVER_OBJ,$*) $(EX_CMOCKA) -lm \
	       > $(EX_OUT)/build.log 2>&1; then \
	  echo; echo "Your code does not compile yet, so no test could run. The compiler says:"; echo; \
	  sed 's/^/    /' $(EX_OUT)/build.log; echo; \
	  echo "Fix the first error first: later ones are often caused by it."; exit 1; \
	fi
	@if [ -s $(EX_OUT)/build.log ]; then \
	  echo "The compiler warns (warnings often point at real bugs):"; sed 's/^/    /' $(EX_OUT)/build.log; fi
	@$(LUA) $(EX_HARNESS)/run_exercise.lua --sandbox $(EX_SANDBOX) --binary $(EX_OUT)/tests \
	  --handout exercises/$*/README.md --sources $(subst $(EX_SPACE),$(EX_COMMA),$(notdir $(wildcard $(EX_SRC)/*.c))) \
	  --state $(EX_OUT)/hint-state --timeout $(EX_TIMEOUT) --details $(EX_DETAILS) \
	  --jobs $(EX_JOBS) --tsv $(EX_OUT)/results.tsv --chapter $* \
	  --title "exercise $* ($(EX_SRC))" $(if $(TEST),--only $(TEST)) $(if $(EX_ARGS),-- $(EX_ARGS))

EX_CHAPTERS := $(patsubst exercises/%/tests,%,$(wildcard exercises/*/tests))
HELP += $(foreach n,$(EX_CHAPTERS),"exercise-$(n)     build exercises/$(n) with its public tests and run each test alone (SOLUTION=1: the reference; TEST=name: one test)")

# ------------------------------------------------------------------ the test suite

EX_VICTIMS := $(BUILD)/harness/victims $(BUILD)/harness/victims-asan

$(BUILD)/harness/victims: $(EX_HARNESS)/tests/victims.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O0 -g -o $@ $<

$(BUILD)/harness/victims-asan: $(EX_HARNESS)/tests/victims.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(SANITIZE) -O0 -g -o $@ $<

TEST_SUITES += exercises
HELP += "test-exercises   the exercise loop's own tests: sandbox, runner, reference passes, stubs fail"

.PHONY: test-exercises
test-exercises: setup $(EX_SANDBOX) $(EX_VICTIMS)
	@mkdir -p $(TEST_RESULTS)
	@$(LUA) $(EX_HARNESS)/tests/suite.lua --result $(TEST_RESULTS)/exercises.result
