# grader/grader.mk: `make grade` and the instructor's targets around it.
#
# The grader is Lua 5.4 (grader/*.lua, the engine; grader/N/, one folder per chapter with
# its grading plan, rubric, fixtures, known-wrong implementations and attacks). These rules
# only pass variables through; grader/README.md documents them. Every command works on each
# chapter on its own, or on CHAPTER=N alone.
#
#   make grade [SUBMISSION=dir] [SEED=n]    one submission (default exercises/N)
#   make grade SUBMISSIONS=dir/             every folder in dir/, in parallel
#   make similarity SUBMISSIONS=dir/        the pairs of dir/ most alike (BASE=dir: past ones)
#   make expected [FIXTURES=dir]            the reference's answers: public cases, speed budget,
#                                           fixtures (FIXTURES=dir: that folder's alone)
#   make fixtures                           regenerate the fixtures, then expected
#   make seed-pool [POOL=32]                the seeds a grade given no SEED takes, their
#                                           reference answers computed once (FORCE=1: anew)
#   make verify-fixtures                    reference full, stubs zero, mutants lose points
#   make gradescope                         build/gradescope/N/autograder.zip
#   make prairielearn                       build/prairielearn/N/serverFilesCourse/drip-N/
#   make bench-grade [BENCH_BASE=ref]       CPU per grade, batch throughput, against another commit
#   make test-slow                          the long tests (busy batch, Gradescope emulation)

GRADE_SANDBOX := $(BUILD)/harness/sandbox
GRADE_LUA     := $(LUA)
GRADE_RESULTS := $(BUILD)/grade
# What every grading run needs: the sandbox, and build/dripprof, whose `stacks` reads the
# folded fixtures (the workbook's one reader of them).
GRADE_NEEDS   := setup-grade $(GRADE_SANDBOX) $(BUILD)/dripprof
GRADE_CHAPTER  = $(if $(CHAPTER),--chapter $(CHAPTER))
GRADE_SPEC    := grader/tests/grader_spec.lua

HELP += "grade            grade exercises/N, each chapter on its own (CHAPTER=N, SUBMISSION=dir, SUBMISSIONS=dir/ for many, SEED=n, FIXTURES=dir)"
HELP += "similarity       rank the pairs of SUBMISSIONS=dir/ by code similarity, base code (the stub; BASE=dir, past submissions) left out (build/grade/similarity/)"
HELP += "expected         write the reference's answers: public cases, speed budget, fixtures (CHAPTER=N; FIXTURES=dir: that folder's alone)"
HELP += "seed-pool        compute the reference's answers for POOL (32) seeds once; a grade given no SEED takes one (CHAPTER=N, FORCE=1 draws anew)"
HELP += "fixtures         regenerate the callgrind fixtures with the installed valgrind"
HELP += "verify-fixtures  check the fixtures separate right from wrong (reference, stubs, mutants)"
HELP += "bench-grade      CPU per grade and a batch's throughput, this tree against BENCH_BASE (default HEAD~1) side by side (BENCH_RUNS, BENCH_COPIES)"
HELP += "test-grader      the grader's own tests (in make test)"
HELP += "test-grader-batch  the grader's scale test: BATCH_COPIES (20) copies graded with SUBMISSIONS, busy machine"
HELP += "test-grader-gradescope  the attack suite through Gradescope's layout (root)"
HELP += "test-grader-prairielearn  the attack suite through PrairieLearn's layout, /grade emulated (root)"
HELP += "prairielearn     build PrairieLearn's external grader, one per chapter (build/prairielearn/N/serverFilesCourse/drip-N/, entrypoint run; CHAPTER=N, FIXTURES=dir)"
HELP += "gradescope       build the Gradescope autograder zips, one per chapter (build/gradescope/N/autograder.zip; CHAPTER=N, FIXTURES=dir)"

.PHONY: grade bench-grade similarity expected seed-pool fixtures verify-fixtures gradescope prairielearn gradescope-failed test-grader test-grader-batch \
        test-grader-gradescope test-grader-prairielearn test-slow-grader test-toy

grade: $(GRADE_NEEDS)
ifneq ($(strip $(SUBMISSIONS)),)
	@$(GRADE_LUA) grader/batch.lua $(GRADE_CHAPTER) $(if $(BASE),--base $(BASE)) $(SUBMISSIONS)
else
	@$(GRADE_LUA) grader/grade.lua $(GRADE_CHAPTER) $(if $(SUBMISSION),--submission $(SUBMISSION))
endif

# The machine's CPU per grade and a batch's throughput, against another commit (a worktree
# under build/bench-grade/, built by its own make), the two taking turns: grader/bench.lua.
BENCH_TARGETS += bench-grade
bench-grade: $(GRADE_NEEDS)
	@$(GRADE_LUA) grader/bench.lua $(GRADE_CHAPTER) $(if $(BENCH_BASE),--base $(BENCH_BASE))

similarity: setup-similarity
	@$(if $(strip $(SUBMISSIONS)),,echo "make similarity: give SUBMISSIONS=dir/ (one folder per submission)"; exit 2;) \
	  $(GRADE_LUA) grader/similarity.lua $(GRADE_CHAPTER) $(if $(BASE),--base $(BASE)) $(SUBMISSIONS)

expected: $(GRADE_NEEDS)
	@$(GRADE_LUA) grader/expected.lua $(GRADE_CHAPTER)

seed-pool: $(GRADE_NEEDS)
	@$(GRADE_LUA) grader/pool.lua $(GRADE_CHAPTER) $(if $(POOL),--size $(POOL))

# Each chapter that makes its fixtures from programs has grader/N/make_fixtures.lua.
fixtures: $(GRADE_NEEDS)
	@for script in $(if $(CHAPTER),$(wildcard grader/$(CHAPTER)/make_fixtures.lua),$(wildcard grader/[0-9]*/make_fixtures.lua)); do \
	  $(GRADE_LUA) $$script || exit 1; done
	@$(GRADE_LUA) grader/expected.lua $(GRADE_CHAPTER)

verify-fixtures: $(GRADE_NEEDS)
	@$(GRADE_LUA) grader/verify.lua $(GRADE_CHAPTER)

gradescope: setup-grade
	@$(GRADE_LUA) grader/gradescope.lua

prairielearn: setup-grade
	@$(GRADE_LUA) grader/gradescope.lua --format prairielearn

# Inside the container, when make grade could not grade: a results.json saying why (the
# entrypoint, run_autograder or PrairieLearn's run; FORMAT=prairielearn for its format).
gradescope-failed:
	@$(GRADE_LUA) grader/gradescope.lua --failed $(ERR) $(OUT) $(if $(FORMAT),--format $(FORMAT))

# The grader's tests are one busted spec (grader/tests/grader_spec.lua); the long ones are
# tagged and left out of `make test`: #batch, SUBMISSIONS batches (a small one whose rows of
# scores.csv explain themselves, and the scale test, BATCH_COPIES copies graded while busy
# loops keep the machine loaded); #gradescope, the attack suite
# through the Gradescope layout (run_autograder with /autograder emulated: root only);
# #prairielearn, the same through PrairieLearn's (its run with /grade emulated: root only);
# #userlevel, the attack suite at the user level (make test runs it at bubblewrap's).
# make test-slow (.ci/run) runs the four, as the suite slow-grader.
TEST_SUITES += grader
test-grader: $(GRADE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@bash vm/lib/busted.sh $(TEST_RESULTS)/grader.result --exclude-tags=batch,gradescope,prairielearn,userlevel $(GRADE_SPEC)

# The engine on a second chapter: the toy chapter 999 (grader/tests/toy/, which never ships and
# is in no list) copied into a scratch copy of the workbook, where every command runs on it.
TEST_SUITES += toy
HELP += "test-toy         the engine on a toy second chapter (grader/tests/toy) in a copy of the workbook (in make test)"
test-toy: $(GRADE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@bash vm/lib/busted.sh $(TEST_RESULTS)/toy.result grader/tests/toy_spec.lua

# The suites that grade at the user level run where no other copy of the workbook shows its
# solutions to other users (grader/tests/only_copy.lua): the grader would rightly refuse.
ONLY_COPY := grader/tests/only_copy.lua
test-grader-batch test-grader-gradescope test-grader-prairielearn test-grader-userlevel: test-grader-%: $(GRADE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@$(GRADE_LUA) $(ONLY_COPY) bash vm/lib/busted.sh $(TEST_RESULTS)/grader-$*.result --tags=$* $(GRADE_SPEC)

TEST_SLOW_SUITES += slow-grader
HELP += "test-slow-grader  the grader's long tests: the 20-copy batch, the Gradescope layout, the attacks at the user level"
test-slow-grader: $(GRADE_NEEDS)
	@mkdir -p $(TEST_RESULTS)
	@$(GRADE_LUA) $(ONLY_COPY) bash vm/lib/busted.sh $(TEST_RESULTS)/slow-grader.result --tags=batch,gradescope,prairielearn,userlevel $(GRADE_SPEC)
