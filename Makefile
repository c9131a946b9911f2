# Drip Workbook: the top-level build.
#
# Each part of the workbook keeps its rules in a fragment beside its sources
# (vm/vm.mk, exercises/exercises.mk, grader/grader.mk, chapters/chapters.mk,
# ...). They are included when present: the student edition (make
# student-edition) is this same file without grader/ and solutions/.
# This file holds what they share: compiler settings, the dependency setup
# step, `make help`, and `make test`, which runs every suite the fragments
# register and prints one closing line `N passed, N failed` for the whole run.
#
# A suite registers itself with `TEST_SUITES += NAME` and provides the target
# `test-NAME`, which writes "PASSED FAILED" (two integers) to
# $(TEST_RESULTS)/NAME.result. A suite that exits non-zero or writes no result
# counts as one more failure, so a broken suite can never look green. Suites run
# side by side under `make -jN test`; what two of them need is built first
# (TEST_PREBUILD, which a fragment may add to).

.DEFAULT_GOAL := all
.SUFFIXES:
SHELL := /bin/bash

BUILD        := build
TEST_RESULTS := $(BUILD)/test
CC           ?= cc
# Our own C code is always built with these; a chapter's checker with the student's code is
# built by exercises/harness/build.lua, which takes the compiler and both flag sets from here.
CWARN        := -std=c11 -Wall -Wextra -Werror
SANITIZE     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
export CC CWARN SANITIZE
LUA          ?= lua5.4

# Every Lua script finds the workbook's modules from one root, the repository's, and
# requires them by folder-qualified names (require("grader.engine") is grader/engine.lua),
# so a reader sees the file from the call. Exported to every recipe (no script edits
# package.path); absolute, so a script that changes folder still finds them; the trailing
# ;; adds Lua's own path (dkjson, argparse, lfs, busted).
export LUA_PATH := $(CURDIR)/?.lua;;

TEST_JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
TEST_SUITES  :=
TEST_SLOW_SUITES :=
TEST_PREBUILD :=
HELP         :=

# Debian packages by what needs them. A target depends on setup-GROUP, which installs the
# group's missing packages (vm/lib/setup.sh); `make setup` installs them all. The student's
# loop needs only the compiler, cmocka and Lua: nothing in it asks for the book's or the
# grader's tools.
SETUP_FOR_exercise := gcc libc6-dev pkg-config libcmocka-dev lua5.4 lua-argparse lua-filesystem
SETUP_FOR_watch    := $(SETUP_FOR_exercise) inotify-tools
# valgrind: the profiles, and the speed budget (make exercise-N BUDGET=1).
SETUP_FOR_profile  := $(SETUP_FOR_exercise) valgrind
SETUP_FOR_bench    := $(SETUP_FOR_profile) luajit time
SETUP_FOR_book     := $(SETUP_FOR_exercise) pandoc libjs-lunr
SETUP_FOR_grade    := $(SETUP_FOR_profile) lua-dkjson bubblewrap procps zip unzip
# similarity-tester (sim_c) only for make similarity and make student-edition's check: Debian
# 13 has no such package, so nothing else may need it (a batch's similarity section says it is
# missing; make test's edition suite and similarity tests skip without it).
SETUP_FOR_similarity := $(SETUP_FOR_grade) similarity-tester
SETUP_FOR_edition  := $(SETUP_FOR_similarity)
SETUP_FOR_test     := $(sort $(SETUP_FOR_watch) $(SETUP_FOR_bench) $(SETUP_FOR_book) $(SETUP_FOR_grade) \
                        lua-busted libxml2-utils)
# make test-fresh-machine (root only): the edition it copies into bare systems, busted to run
# it, and mmdebstrap to make the systems. Not in make setup: no other target needs mmdebstrap.
SETUP_FOR_fresh    := $(SETUP_FOR_edition) lua-busted mmdebstrap
SETUP_PACKAGES     := $(SETUP_FOR_test)
# SETUP_CHECK_PACKAGE is the shell test that PACKAGE is installed. Most packages are there
# when a command of theirs is (PACKAGE:COMMAND, tested with command -v) or a Lua module
# (PACKAGE:MODULE, tested with a require); the others have a test of their own.
SETUP_COMMANDS    := pkg-config:pkg-config lua5.4:lua5.4 zip:zip unzip:unzip valgrind:valgrind pandoc:pandoc \
                     inotify-tools:inotifywait bubblewrap:bwrap procps:ps libxml2-utils:xmllint luajit:luajit \
                     similarity-tester:sim_c mmdebstrap:mmdebstrap
SETUP_LUA_MODULES := lua-dkjson:dkjson lua-argparse:argparse lua-filesystem:lfs lua-busted:busted.runner
$(foreach p,$(SETUP_COMMANDS),$(eval SETUP_CHECK_$(firstword $(subst :, ,$(p))) := command -v $(lastword $(subst :, ,$(p)))))
$(foreach p,$(SETUP_LUA_MODULES),$(eval SETUP_CHECK_$(firstword $(subst :, ,$(p))) := \
  lua5.4 -e 'require "$(lastword $(subst :, ,$(p)))"'))
SETUP_CHECK_gcc           := command -v $(firstword $(CC))
SETUP_CHECK_libc6-dev     := test -f /usr/include/stdio.h
SETUP_CHECK_libcmocka-dev := pkg-config --exists cmocka
# the web edition's search (chapters/chapters.mk copies it into the book)
BOOK_LUNR                 := /usr/share/javascript/lunr/lunr.min.js
SETUP_CHECK_libjs-lunr    := test -f $(BOOK_LUNR)
SETUP_CHECK_time          := test -x /usr/bin/time
# One shell asks for every package of a list: make reads this for every command.
setup_missing = $(shell $(foreach p,$(1),( $(SETUP_CHECK_$(p)) ) >/dev/null 2>&1 || echo $(p);))

BENCH_TARGETS :=

HELP += "bench            run the benchmarks (times, instruction counts, ratios)"
HELP += "all              build the VM and the profiler (build/drip, build/dripprof)"
HELP += "setup            install the Debian packages make test needs ($(SETUP_PACKAGES)); setup-exercise, setup-grade, setup-edition, ...: what that target needs"
HELP += "test             run the workbook's own tests; ends with 'N passed, N failed' (a suite per core at a time; TEST_JOBS=1: one by one)"
HELP += "test-slow        the long checks (CI runs them after make test)"
HELP += "clean            remove build/"
HELP += "lua-path         print what the Lua scripts need (LUA_PATH, CC, CWARN, SANITIZE), as a line to eval"
HELP += "help             this list"

.PHONY: all bench
# `make` alone builds with the compiler, so it installs what the student's loop needs first
# (named before the fragments add the VM and the profiler, so it comes first).
all: setup-exercise

include $(wildcard vm/vm.mk vm/prof/prof.mk exercises/exercises.mk grader/grader.mk \
                   grader/edition/edition.mk chapters/chapters.mk grader/tests/fresh/fresh.mk)

# The instructor's targets need grader/ or solutions/, which the student edition leaves out:
# there each refuses in one line before anything is built (make exercise-N SOLUTION=1 too).
INSTRUCTOR_ONLY := grade similarity expected fixtures verify-fixtures gradescope prairielearn student-edition test-fresh-machine
NOT_IN_EDITION   = $(error make $(1): only in the instructor's workbook (the student edition has no grader/ or solutions/))
ifeq ($(wildcard grader/grader.mk),)
$(foreach goal,$(filter $(INSTRUCTOR_ONLY),$(MAKECMDGOALS)),$(call NOT_IN_EDITION,$(goal)))
endif
ifneq ($(SOLUTION),)
$(if $(wildcard solutions),,$(call NOT_IN_EDITION,$(MAKECMDGOALS) SOLUTION=$(SOLUTION)))
endif

# Every part adds its benchmarks to BENCH_TARGETS; `make bench` runs them all.
bench: setup-bench $(BENCH_TARGETS)


.PHONY: help setup test test-slow clean
help:
	@echo "Drip Workbook targets:"
	@for line in $(HELP); do echo "  make $$line"; done

# Each package's check runs when the recipe does; vm/lib/setup.sh installs the ones that
# failed with apt-get (as root, or with sudo when it needs no password), or names them,
# with what they are for and what works without them.
# setup-GROUP is a rule of its own for each SETUP_FOR_GROUP, and phony: a target that make
# could only make by a pattern rule would be an intermediate file, which GNU make makes
# after the prerequisites named beside it, so `exercise-%: setup-exercise $(EX_SANDBOX)`
# compiled the sandbox before installing the compiler, and failed on a bare system.
SETUP_GROUPS := $(patsubst SETUP_FOR_%,setup-%,$(filter SETUP_FOR_%,$(.VARIABLES)))
.PHONY: $(SETUP_GROUPS)
setup: setup-test
$(SETUP_GROUPS): setup-%:
	@bash vm/lib/setup.sh "make$(if $(MAKECMDGOALS), $(MAKECMDGOALS))$(if $(BUDGET), BUDGET=$(BUDGET))" "$(SETUP_FOR_exercise)" \
	  $(call setup_missing,$(SETUP_FOR_$*))

# The suites run as the targets test-suite-NAME of one sub-make, TEST_JOBS at a time (one
# per core unless make was given -jN, whose jobserver the `+` hands on; TEST_JOBS=1: one
# after the other). Each records its exit status beside its result. A serial run shows a
# suite's output as it comes; a parallel one keeps it in NAME.log and prints it whole when
# the suite ends (one at a time, under flock), so two suites never interleave. What several
# suites use (TEST_PREBUILD: the VM, the profiler, the sandbox) is built first, once, so
# that suites running side by side never rebuild a file another one is running.
TEST_PREBUILD += all

# $(call test_suites,SUITES): runs the suites, then vm/lib/test_summary.sh prints the
# closing line for all of them (a suite that exits non-zero without counting a failure,
# or writes no result, counts as one more failure).
# make -n runs every line of it (it names $(MAKE)): a dry run keeps the results and adds none up.
DRY_RUN = $(findstring n,$(firstword -$(MAKEFLAGS)))
define test_suites
$(if $(DRY_RUN),,@rm -rf $(TEST_RESULTS); mkdir -p $(TEST_RESULTS))
+@$(MAKE) -s --no-print-directory $(TEST_PREBUILD) || echo 1 > $(TEST_RESULTS)/prebuild.status
+@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS)) $(addprefix test-suite-,$(1))
$(if $(DRY_RUN),,@bash vm/lib/test_summary.sh $(TEST_RESULTS) $(1))
endef

test: setup-test
	$(call test_suites,$(TEST_SUITES))

# Long checks, run by .ci/run after make test: a part registers TEST_SLOW_SUITES +=
# slow-NAME and provides test-slow-NAME, which writes $(TEST_RESULTS)/slow-NAME.result.
test-slow: setup-test
	$(call test_suites,$(TEST_SLOW_SUITES))

# make -n runs this line too (for its sub-make): then only the suite's own dry run.
test-suite-%:
	+@$(if $(DRY_RUN),$(MAKE) --no-print-directory test-$*; exit,:); \
	status=$(TEST_RESULTS)/$*.status; log=$(TEST_RESULTS)/$*.log; \
	if [ -n "$(filter-out -j1,$(filter -j%,$(MAKEFLAGS)))" ]; then \
	  $(MAKE) --no-print-directory test-$* > $$log 2>&1; echo $$? > $$status; \
	  flock $(TEST_RESULTS) sh -c 'echo "=== $*"; cat "$$0"' $$log; \
	else \
	  echo "=== $*"; $(MAKE) --no-print-directory test-$*; echo $$? > $$status; \
	fi

clean:
	rm -rf $(BUILD)

# make runs every Lua script with LUA_PATH, CC, CWARN and SANITIZE set; by hand:
# eval "$(make -s lua-path)".
.PHONY: lua-path
lua-path:
	@echo "export LUA_PATH='$(LUA_PATH)' CC='$(CC)' CWARN='$(CWARN)' SANITIZE='$(SANITIZE)'"
