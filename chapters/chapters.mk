# chapters/: the chapter text and figures, generated from committed data.
#
# chapters/165-profiling-the-vm.md is rendered from 165-profiling-the-vm.md.in
# and the files in chapters/data/165/, which `make chapter-data-165` copies from
# a real `make profile-165` run (the .out tables are both shown verbatim and
# read by the sentences about them; vm/bench/fib.drip is shown as it is). The flame graphs in chapters/figures/ are drawn
# by dripprof from the folded stacks in the same folder (the differential one
# from two of them, through `dripprof diff`). The suite `chapters` fails when
# the committed text or figures no longer match their data or the data breaks
# a claim of the text, and builds and runs every C listing, checking what it
# prints; then it opens the web edition (`make book`, below) in headless
# Chromium (chapters/book/check_book.sh): one pass or one failure, or SKIPPED
# where Chromium is missing, which counts as neither.

CH_TOOL     := $(LUA) chapters/tools/chapter.lua
CH_165_IN   := chapters/165-profiling-the-vm.md.in
CH_165_MD   := chapters/165-profiling-the-vm.md
CH_165_DATA := $(sort $(wildcard chapters/data/165/*.txt chapters/data/165/*.folded \
                 chapters/data/165/*.out))
CH_165_INCS := $(wildcard chapters/listings/*) vm/bench/fib.drip
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
HELP += "test-chapters    check the chapter text and figures against their data, run its listings (in make test)"
HELP += "book             the web edition: build/book/index.html and a page per chapter (pandoc)"
HELP += "chapter-data-165 copy the numbers of a 'make profile-165' run into chapters/data/165"

.PHONY: chapters chapter-data-165 test-chapters book

# The committed chapter and figures are sources as far as make is concerned: no rule
# remakes them on the way to something else, so `make book` and `make test` in a fresh
# clone (where every file's time is the checkout's) never overwrite what test-chapters is
# about to compare. `make chapters` draws everything afresh into $(BUILD)/chapters and
# copies over what changed.
CH_FRESH_MD := $(BUILD)/chapters/$(notdir $(CH_165_MD))

chapters: $(BUILD)/dripprof $(CH_FIGURES:%=$(BUILD)/%)
	@mkdir -p $(dir $(CH_FRESH_MD))
	$(CH_TOOL) render $(CH_165_IN) $(CH_FRESH_MD) $(CH_165_DATA)
	@for fresh in $(CH_FRESH_MD) $(CH_FIGURES:%=$(BUILD)/%); do \
	  committed=$${fresh#$(BUILD)/}; \
	  cmp -s "$$fresh" "$$committed" || { cp "$$fresh" "$$committed"; echo "chapters: wrote $$committed"; }; \
	done

# A figure as its data and today's dripprof draw it: for `make chapters` to copy, and for
# test-chapters to compare with the committed one.
$(BUILD)/chapters/figures/%.svg: $(wildcard chapters/data/165/*.folded) $(BUILD)/dripprof
	@mkdir -p $(@D)
	@set -o pipefail; $(call CH_FLAME,$*) > $@

chapter-data-165: $(BUILD)/dripprof
	@test -f $(BUILD)/profile/summary-165.txt || $(MAKE) --no-print-directory profile-165
	bash chapters/tools/capture165.sh $(BUILD)/profile $(BUILD)/drip $(BUILD)/dripprof

# ---- the web edition ------------------------------------------------------------
# pandoc turns each chapter into a standalone page: GitHub-flavoured Markdown
# with footnotes in, HTML5 out, C highlighted by pandoc itself, the flame graphs
# inlined as SVG by chapters/book/inline_svg.lua (so their scripts run in the
# page), one style sheet. index.html lists the chapters by their first heading.
# pandoc is chosen over cmark-gfm because it does all of that alone: cmark-gfm
# converts Markdown but highlights no code and has no filters, so it would need
# a second tool and our own HTML post-processing.
BOOK_DIR    := $(BUILD)/book
BOOK_SRC    := chapters/book
BOOK_MD     := $(CH_165_MD)
BOOK_PAGES  := $(BOOK_MD:chapters/%.md=$(BOOK_DIR)/%.html)
BOOK_PANDOC := pandoc --from=gfm+footnotes --to=html5 --standalone --highlight-style=tango \
               --css=style.css --include-before-body=$(BOOK_SRC)/nav.html

book: $(BOOK_DIR)/index.html $(BOOK_PAGES) $(BOOK_DIR)/style.css

BOOK_NEEDS_PANDOC = @command -v pandoc >/dev/null || \
  { echo "make book: pandoc is not installed (make setup installs it)"; exit 1; }

$(BOOK_DIR)/%.html: chapters/%.md $(CH_FIGURES) $(BOOK_SRC)/inline_svg.lua $(BOOK_SRC)/nav.html
	$(BOOK_NEEDS_PANDOC)
	@mkdir -p $(@D)
	$(BOOK_PANDOC) --lua-filter=$(BOOK_SRC)/inline_svg.lua \
	  --metadata pagetitle="$$(sed -n '1s/^# //p' $<)" -o $@ $<

$(BOOK_DIR)/index.md: $(BOOK_MD)
	@mkdir -p $(@D)
	@{ echo "# The Drip Workbook"; echo; \
	   echo "The chapters of the workbook, with their flame graphs live: hover, click to zoom, search."; \
	   echo; for f in $^; do \
	     echo "- [$$(sed -n '1s/^# //p' $$f)]($$(basename $$f .md).html)"; done; } > $@

$(BOOK_DIR)/index.html: $(BOOK_DIR)/index.md $(BOOK_SRC)/nav.html
	$(BOOK_NEEDS_PANDOC)
	$(BOOK_PANDOC) --metadata pagetitle="The Drip Workbook" -o $@ $<

$(BOOK_DIR)/style.css: $(BOOK_SRC)/style.css
	@mkdir -p $(@D)
	cp $< $@

TEST_SUITES += chapters
test-chapters: $(BUILD)/dripprof book
	@mkdir -p $(TEST_RESULTS)
	@CH_TEMPLATE=$(CH_165_IN) CH_MARKDOWN=$(CH_165_MD) CH_DATA="$(CH_165_DATA)" CH_FIGURES="$(CH_FIGURES)" \
	  BUILD=$(BUILD) CC="$(CC)" CWARN="$(CWARN)" MAKE="$(MAKE)" LUA=$(LUA) \
	  bash chapters/tools/test_chapters.sh $(TEST_RESULTS)/chapters.result
