# grader/grader.mk: `make grade` and the instructor's targets around it.
#
# The grader is Lua 5.4 (grader/*.lua, engine; grader/NNN/, one folder per
# chapter with its rubric, checker and known-wrong implementations). These
# rules only pass variables through; grader/README.md documents them.
#
#   make grade [SUBMISSION=dir] [SEED=n]    one submission (default exercises/165)
#   make grade SUBMISSIONS=dir/             every folder in dir/, in parallel
#   make expected [FIXTURES=dir]            the reference's answers for the fixtures
#   make fixtures                           regenerate the VM/C fixtures, then expected
#   make verify-fixtures                    reference full, stubs zero, mutants lose points
#   make gradescope                         build/gradescope/autograder.zip
#   make test-slow                          the long tests (busy batch, Gradescope emulation)

GRADE_SANDBOX := $(BUILD)/harness/sandbox
GRADE_LUA     := $(LUA)
GRADE_RESULTS := $(BUILD)/grade

HELP += "grade            grade exercises/165 (SUBMISSION=dir, SUBMISSIONS=dir/ for many, SEED=n)"
HELP += "expected         write the fixtures' expected answers from solutions/ (FIXTURES=dir)"
HELP += "fixtures         regenerate the callgrind fixtures with the installed valgrind"
HELP += "verify-fixtures  check the fixtures separate right from wrong (reference, stubs, mutants)"
HELP += "test-grader      the grader's own tests (in make test)"
HELP += "test-grader-batch  the grader's scale test: 20 copies graded with SUBMISSIONS"
HELP += "gradescope       build the Gradescope autograder zip (build/gradescope/autograder.zip)"

.PHONY: grade expected fixtures verify-fixtures gradescope test-grader test-grader-batch

grade: $(GRADE_SANDBOX)
ifneq ($(strip $(SUBMISSIONS)),)
	@$(GRADE_LUA) grader/batch.lua $(SUBMISSIONS)
else
	@$(GRADE_LUA) grader/grade.lua $(if $(SUBMISSION),--submission $(SUBMISSION))
endif

expected: $(GRADE_SANDBOX)
	@$(GRADE_LUA) grader/expected.lua

# Each chapter that makes its fixtures from programs has grader/NNN/make_fixtures.lua.
fixtures: $(GRADE_SANDBOX)
	@for script in $(wildcard grader/[0-9]*/make_fixtures.lua); do $(GRADE_LUA) $$script || exit 1; done
	@$(GRADE_LUA) grader/expected.lua

verify-fixtures: $(GRADE_SANDBOX)
	@$(GRADE_LUA) grader/verify.lua

gradescope:
	@$(GRADE_LUA) grader/gradescope.lua

TEST_SUITES += grader
test-grader: $(GRADE_SANDBOX)
	@mkdir -p $(TEST_RESULTS)
	@$(GRADE_LUA) grader/test.lua $(TEST_RESULTS)/grader.result

# The long tests, not part of `make test` (.ci/run runs them): the scale test, 20 copies
# graded with SUBMISSIONS while busy loops keep the machine loaded; and the attack suite
# through the Gradescope layout (run_autograder with /autograder emulated: root only).
test-grader-batch: $(GRADE_SANDBOX)
	@$(GRADE_LUA) grader/test.lua --batch 20

test-grader-gradescope: $(GRADE_SANDBOX)
	@$(GRADE_LUA) grader/test.lua --gradescope

HELP += "test-slow        the long tests: a 20-copy batch on a busy machine, attacks through Gradescope's layout"
.PHONY: test-slow test-grader-gradescope
test-slow: test-grader-batch test-grader-gradescope
