# grader/edition/edition.mk: the student edition (make student-edition) and its test
# suite. Included by the top-level Makefile when grader/ is there (the edition itself
# has no grader/, so none of this ships).
#
#   make student-edition [DEST=dir] [FORCE=1] [CHAPTER=N]   the workbook for students,
#                                                without solutions/ and grader/ (make_edition.sh);
#                                                CHAPTER=N: that chapter's folders only
#   make test-edition                            build one into a temporary folder and
#                                                use it as a student would (edition_spec.lua)
#   make test-edition-full                       the same, with the edition's whole make test
#                                                (in make test-slow)

DEST ?= $(BUILD)/student-edition

HELP += "student-edition  write the student edition to DEST (default build/student-edition; FORCE=1 replaces; CHAPTER=N)"
HELP += "test-edition     build the student edition in build/edition-test and try it as a student"
HELP += "test-edition-full  the same, with the edition's whole make test"

.PHONY: student-edition test-edition test-edition-full test-slow-edition
student-edition: setup-edition
	@LUA=$(LUA) bash grader/edition/make_edition.sh "$(DEST)" "$(FORCE)" "$(CHAPTER)"

TEST_SUITES += edition
test-edition: setup-test $(BUILD)/dripprof
	@mkdir -p $(TEST_RESULTS)
	@bash vm/lib/busted.sh $(TEST_RESULTS)/edition.result grader/edition/edition_spec.lua

TEST_SLOW_SUITES += slow-edition
test-edition-full test-slow-edition: setup-test $(BUILD)/dripprof
	@mkdir -p $(TEST_RESULTS)
	@EDITION_FULL=1 bash vm/lib/busted.sh $(TEST_RESULTS)/$(@:test-%=%).result grader/edition/edition_spec.lua
