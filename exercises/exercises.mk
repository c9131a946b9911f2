# exercises/exercises.mk: the exercise loop (`make exercise-N`, `make watch-N`), the process
# sandbox every case and check runs in (build/harness/sandbox, shared with the grader), and
# the `exercises` suite of `make test`.
#
# A chapter's exercise is a folder exercises/N/ with its module chapter.lua (what the engine
# needs to know: exercises/harness/chapter.lua), the student's files, the API header, the
# handout README.md and tests/ (the checker, the case files, the reference's answers). The
# rules are patterns, so a new chapter adds folders, not Makefile code.
#
#   make exercise-165               your code (exercises/165) against the public cases
#   make exercise-165 SOLUTION=1    the reference (solutions/165) against the same cases
#   make exercise-165 TEST=parse_row.one_blank   only the cases whose name starts so (a,b: both)
#   make watch-165                  the same, again every time a file in exercises/165 is saved
#   make exercise-165 V=1           the first run shows the sandbox's compiler command line
#   make exercise-165 HINT=inclusive  the next hint of inclusive() from the handout, no test run
#   make exercise-165 BUDGET=1      inclusive()'s instructions on the graded speed input, against
#                                   the handout's budget (BUDGET=STACKS: another published size)
#
# exercises/harness/exercise.lua does the work: it builds the checker with the code under
# test (exercises/harness/build.lua, the grader's build), starts it once under the sandbox and
# lets it fork one child per case (fork_tests.c), each with the chapter's limits (CPU time, so
# a busy machine cannot change a verdict), then compares the answers with the reference's and
# explains the failures.

EX_HARNESS := exercises/harness
EX_SANDBOX := $(BUILD)/harness/sandbox
# EX_FROM_DIR, EX_OUT, EX_CPU and EX_BRIEF (the folder of the code under test, where its build
# goes, CPU seconds per case, watch mode's report) let the suite run the loop on copies.
EX_FROM     = $(or $(EX_FROM_DIR),$(if $(SOLUTION),solutions,exercises)/$*)
EX_RUN      = $(LUA) $(EX_HARNESS)/exercise.lua --chapter $* --from $(EX_FROM) $(if $(TEST),--only $(TEST)) \
              $(if $(EX_OUT),--out $(EX_OUT)) $(if $(EX_CPU),--cpu $(EX_CPU)) $(if $(EX_BRIEF),--brief) \
              $(if $(BUDGET),--budget $(BUDGET))
EX_CHAPTERS := $(patsubst exercises/%/chapter.lua,%,$(wildcard exercises/[0-9]*/chapter.lua))

# The sandbox is built without sanitizers: it must not be the thing that crashes.
# It is what a student's first `make exercise-N` compiles (the rest of the build is
# build.lua's, which shows the compiler only when it complains): one line says so instead of
# the compiler's command line, which a beginner cannot tell from an error. V=1 shows the
# command instead. The compiler's own messages show either way.
EX_VERBOSE := $(filter 1,$(V))
$(EX_SANDBOX): $(EX_HARNESS)/sandbox.c $(EX_HARNESS)/sandbox_box.c $(EX_HARNESS)/sandbox_tree.c \
               $(EX_HARNESS)/status.c $(EX_HARNESS)/sandbox.h $(EX_HARNESS)/status.h \
               $(EX_HARNESS)/seccomp.h
	@mkdir -p $(@D)
	@$(if $(EX_VERBOSE),:,echo "Building the sandbox the tests run in (once)...")
	$(if $(EX_VERBOSE),,@)$(CC) $(CWARN) -O2 -o $@ $(filter %.c,$^) -lm

.PHONY: sandbox
sandbox: $(EX_SANDBOX)
HELP += "sandbox          build the process sandbox every case and check runs in (build/harness/sandbox)"

# BUDGET= counts instructions with valgrind, which the profiles' setup group has.
exercise-%: $(if $(BUDGET),setup-profile,setup-exercise) $(EX_SANDBOX)
	@$(EX_RUN) $(if $(HINT),--hint $(HINT))

# Watch mode: one run at once, then one run after every save in the exercise's folder
# (inotifywait, from inotify-tools, reports the saves; a save is often several events, so
# those that come within 0.2 s are taken together). Editors' temporary files do not count.
# Each run clears the screen and starts with the progress line. Ctrl-C ends it.
EX_WATCH_IGNORE := (\.sw[a-z]|~|/4913|/\.?\#[^/]*)$$

watch-%: setup-watch $(EX_SANDBOX)
	@test -f exercises/$*/chapter.lua || { echo "There is no exercise $* (no exercises/$*/chapter.lua)."; exit 2; }
	@command -v inotifywait >/dev/null || { echo "make watch-$* needs inotifywait (Debian \
	  package inotify-tools); make setup-watch installs it."; exit 2; }
	@run() { if [ -t 1 ]; then printf '\033[H\033[2J'; fi; $(EX_RUN) --brief; \
	  echo; echo "Watching $(EX_FROM) for saves; Ctrl-C ends."; }; \
	inotifywait -q -m -r -e close_write -e moved_to --exclude '$(EX_WATCH_IGNORE)' \
	  --format '%w%f' $(EX_FROM) | { run; while read -r saved; do \
	    while read -r -t 0.2 more; do :; done; run; done; }

# The student's loop, timed: save profile.c, then make exercise-N to its last line.
.PHONY: bench-loop
bench-loop: setup-bench $(EX_SANDBOX)
	@for n in $(EX_CHAPTERS); do bash $(EX_HARNESS)/bench_loop.sh $$n 9; done
BENCH_TARGETS += bench-loop
HELP += "bench-loop       edit-to-verdict of make exercise-N (exercises/N and the reference): median wall and CPU time"

HELP += $(foreach n,$(EX_CHAPTERS),"exercise-$(n)     build exercises/$(n) with its public cases and run each alone ($(if $(wildcard solutions/$(n)),SOLUTION=1: the reference; )TEST=name: some; HINT=function: its next hint$(if $(wildcard exercises/$(n)/tests/expected/speed.txt),; BUDGET=1: the speed budget))")
HELP += $(foreach n,$(EX_CHAPTERS),"watch-$(n)        make exercise-$(n) again every time a file in exercises/$(n) is saved (Ctrl-C ends)")

# ------------------------------------------------------------------ the test suite

EX_VICTIMS := $(BUILD)/harness/victims $(BUILD)/harness/victims-asan

EX_VICTIM_SRC := $(EX_HARNESS)/tests/victims.c $(EX_HARNESS)/fork_tests.c $(EX_HARNESS)/status.c \
                 $(EX_HARNESS)/seal.c $(EX_HARNESS)/fork_tests.h $(EX_HARNESS)/status.h \
                 $(EX_HARNESS)/seal.h $(EX_HARNESS)/seccomp.h

# The victims twice: as they are, and with the sanitizers (victims-asan).
$(EX_VICTIMS): $(EX_VICTIM_SRC)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(if $(filter %-asan,$@),$(SANITIZE) )-O0 -g -I$(EX_HARNESS) -o $@ $(filter %.c,$^)

TEST_SUITES += exercises
TEST_PREBUILD += $(EX_SANDBOX) $(EX_VICTIMS)
HELP += "test-exercises   the exercise loop's own tests: sandbox, fork runner, report, watch, planted faults (also beside busy loops), reference"

TEST_SLOW_SUITES += slow-exercises
HELP += "test-slow-exercises  the reference 3 times, planted faults on every test, with busy loops beside"

EX_SUITE_NEEDS := setup-test $(EX_SANDBOX) $(EX_VICTIMS)

.PHONY: test-exercises test-slow-exercises
# One busted spec; its #slow tests are the long version.
EX_SPEC := $(EX_HARNESS)/tests/harness_spec.lua
EX_TAGS_exercises := --exclude-tags=slow
EX_TAGS_slow-exercises := --tags=slow
test-exercises test-slow-exercises: test-%: $(EX_SUITE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@bash vm/lib/busted.sh $(TEST_RESULTS)/$*.result $(EX_TAGS_$*) $(EX_SPEC)
