# grader/tests/fresh/fresh.mk: make test-fresh-machine, the README's commands on bare Debian
# 12 and Debian 13 systems (fresh_machine_spec.lua says what it runs and what it leaves out).
# It needs root and the Debian archive: without root it skips, saying why, and installs
# nothing; as root it installs mmdebstrap first (SETUP_FOR_fresh). In make test-slow; a run
# without the cache of build/fresh/ downloads two systems (about 14 minutes here, 6 cached).
#
#   make test-fresh-machine               make exercise-165 (stubs, reference) as root and
#                                         as a user, the edition's; make setup, then make
#   make test-fresh-machine FRESH_FULL=1  the same with the whole make test (10+ min a system)

FRESH_SPEC := grader/tests/fresh/fresh_machine_spec.lua

HELP += "test-fresh-machine  bare Debian 12 and 13 (mmdebstrap, cached in build/fresh/; root): README's commands as root and as a user, the edition's; for make test only make setup and make (FRESH_FULL=1: the whole make test, 10+ min a system)"

TEST_SLOW_SUITES += slow-fresh-machine
.PHONY: test-fresh-machine test-slow-fresh-machine
# No setup-fresh prerequisite: without root it would stop the suite instead of skipping it.
test-fresh-machine test-slow-fresh-machine:
	@mkdir -p $(TEST_RESULTS)
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory setup-fresh || exit 1; fi
	@bash vm/lib/busted.sh $(TEST_RESULTS)/$(@:test-%=%).result $(FRESH_SPEC)
