# chapters/: the chapter text and figures, generated from committed data.
#
# chapters/165-profiling-the-vm.md is rendered from 165-profiling-the-vm.md.in
# and the files in chapters/data/165/, which `make chapter-data-165` copies from
# a real `make profile-165` run. The flame graphs in chapters/figures/ are drawn
# by dripprof from the folded stacks in the same folder (the differential one
# from two of them, through `dripprof diff`). The suite `chapters` fails when
# the committed text or figures no longer match their data or the data breaks
# a claim of the text, and builds and runs every C listing, checking what it
# prints.

CH_TOOL     := $(LUA) chapters/tools/chapter.lua
CH_165_IN   := chapters/165-profiling-the-vm.md.in
CH_165_MD   := chapters/165-profiling-the-vm.md
CH_165_DATA := $(sort $(wildcard chapters/data/165/*.txt chapters/data/165/*.folded))
CH_165_INCS := $(wildcard chapters/data/165/*.out chapters/listings/*)
CH_TOOLS    := $(wildcard chapters/tools/*.lua)
CH_FIGURES  := chapters/figures/165-fib-c.svg chapters/figures/165-fib-drip.svg \
               chapters/figures/165-fib-outline-diff.svg
CH_TITLE_165-fib-c    := fib.drip on build/drip: C functions (callgrind)
CH_COUNT_165-fib-c    := Ir
CH_TITLE_165-fib-drip := fib.drip: Drip functions (drip --folded)
CH_COUNT_165-fib-drip := bytecodes
CH_TITLE_165-fib-outline-diff := fib.drip: build/drip-outline against build/drip (callgrind)
CH_COUNT_165-fib-outline-diff := Ir
# A figure NAME is drawn from chapters/data/165/NAME-without-165-.folded; a
# NAME ending in -diff from `dripprof diff` of fib-c.folded (BEFORE) and the
# folded file named by the rest (AFTER: 165-fib-outline-diff is fib-outline-c).
CH_DIFF_AFTER = chapters/data/165/$(patsubst 165-%-diff,%,$(1))-c.folded
CH_FLAME = $(if $(filter %-diff,$(1)),\
             $(BUILD)/dripprof diff chapters/data/165/fib-c.folded $(CH_DIFF_AFTER) | ,)\
           $(BUILD)/dripprof flame --title "$(CH_TITLE_$(1))" --countname $(CH_COUNT_$(1)) \
           $(if $(filter %-diff,$(1)),-,chapters/data/165/$(patsubst 165-%,%,$(1)).folded)

HELP += "chapters         render the chapters and their figures from committed data"
HELP += "chapter-data-165 copy the numbers of a 'make profile-165' run into chapters/data/165"

.PHONY: chapters chapter-data-165 test-chapters
chapters: $(CH_165_MD) $(CH_FIGURES)

$(CH_165_MD): $(CH_165_IN) $(CH_165_DATA) $(CH_165_INCS) $(CH_TOOLS)
	$(CH_TOOL) render $(CH_165_IN) $@ $(CH_165_DATA)

chapters/figures/%.svg: $(wildcard chapters/data/165/*.folded) $(BUILD)/dripprof
	@mkdir -p $(@D)
	set -o pipefail; $(call CH_FLAME,$*) > $@

chapter-data-165: $(BUILD)/dripprof
	@test -f $(BUILD)/profile/summary-165.txt || $(MAKE) --no-print-directory profile-165
	bash chapters/tools/capture165.sh $(BUILD)/profile $(BUILD)/drip $(BUILD)/dripprof

TEST_SUITES += chapters
test-chapters: $(BUILD)/dripprof
	@mkdir -p $(TEST_RESULTS) $(BUILD)/chapters/listings
	@passed=0; failed=0; \
	pass() { passed=$$((passed + 1)); echo "ok   $$1"; }; \
	fail() { failed=$$((failed + 1)); echo "FAIL $$1"; }; \
	if $(CH_TOOL) stale $(CH_165_IN) $(CH_165_MD) $(CH_165_DATA); \
	then pass "$(CH_165_MD) matches its template and data"; \
	else fail "$(CH_165_MD) is stale"; fi; \
	$(foreach f,$(CH_FIGURES),\
	  if ( set -o pipefail; $(call CH_FLAME,$(notdir $(basename $(f)))) | cmp -s - $(f) ); \
	  then pass "$(f) is drawn from its data"; \
	  else fail "$(f) differs from what its data draws: run 'make chapters'"; fi;) \
	for check in "listings $(CH_165_MD) $(BUILD)/chapters/listings $(CC) $(CWARN)" test; do \
	  if [ "$$check" = test ]; then out=$$($(LUA) chapters/tools/test_render.lua 2>&1); \
	  else out=$$($(CH_TOOL) $$check 2>&1); fi; \
	  echo "$$out" | sed '$$d'; \
	  set -- $$(echo "$$out" | tail -n 1); \
	  case "$$1$$2" in *[!0-9]*|"") failed=$$((failed + 1));; \
	  *) passed=$$((passed + $$1)); failed=$$((failed + $$2));; esac; \
	done; \
	echo "$$passed $$failed" > $(TEST_RESULTS)/chapters.result
