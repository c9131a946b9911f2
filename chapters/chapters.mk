# chapters/: the chapters, one folder each (chapters/N/, laid out as
# chapters/tools/folder.lua says), and the engine that renders and checks them. The
# engine names no chapter: a new chapter is a new folder.
#
# A chapter's text, NAME.md, is rendered from its template NAME.md.in and the files in
# its data/, which its capture.lua makes from real runs (`make profile-N`, then
# `make chapter-data-N`); its flame graphs, figures/*.svg, are drawn by dripprof from
# data/ as its settings.lua says. All of them are committed. The suite `chapters`
# fails when the committed text or figures no longer match their data, or the data
# breaks a claim of the text; it builds and runs every C listing, runs the engine's
# tests (chapters/tools/render_spec.lua) and each chapter's own (chapter_spec.lua),
# and opens each page of the web edition (`make book`, below) in headless Chromium
# (chapters/book/check_book.sh): one pass or one failure a page, or SKIPPED where
# Chromium is missing, which counts as neither.

CH_TOOL     := $(LUA) chapters/tools/chapter.lua
CH_DIRS     := $(sort $(dir $(wildcard chapters/[0-9]*/*.md.in)))
CH_MARKDOWN := $(patsubst %.md.in,%.md,$(wildcard $(CH_DIRS:%=%*.md.in)))
CH_CAPTURED := $(patsubst chapters/%/capture.lua,%,$(wildcard $(CH_DIRS:%=%capture.lua)))

FIB_N       ?= 35
PROFILE_DIR := $(BUILD)/profile

HELP += "chapters         render every chapter's text and figures from its committed data"
HELP += "test-chapters    check the chapters' text and figures against their data, run their listings (in make test)"
HELP += "book             the web edition: build/book/index.html and a page per chapter (pandoc)"
HELP += "profile-N        chapter N's measurements (chapters/N/capture.lua profile, N = $(CH_CAPTURED)) into build/profile/; FIB_N=$(FIB_N)"
HELP += "chapter-data-N   copy what chapter N quotes from its 'make profile-N' run into chapters/N/data/"

.PHONY: chapters test-chapters book

# The committed chapters and figures are sources as far as make is concerned: no rule
# remakes them on the way to something else, so `make book` and `make test` in a fresh
# clone (where every file's time is the checkout's) never overwrite what test-chapters is
# about to compare. `make chapters` draws everything afresh into $(BUILD)/chapters/N and
# copies over what changed.
chapters: $(BUILD)/dripprof
	@for dir in $(CH_DIRS); do \
	  $(CH_TOOL) update $$dir $(BUILD)/$${dir%/} || exit 1; done

# ---- a chapter's data: chapters/N/capture.lua ------------------------------------------
# Two steps. `profile` gets the VM's build settings in its environment, measures into
# $(PROFILE_DIR) and writes $(PROFILE_DIR)/summary-N.txt; `data` copies what the chapter
# quotes into chapters/N/data/, running the profile step first when that summary is
# missing. The data step's environment holds none of those settings: the programs it
# measures see the environment the committed data was measured in, which their start-up
# code's instruction count follows.
# The last argument is the chapter's checker, built with the exercise's functions: the
# reference's where solutions/N is (the instructor's workbook), else the student's (the
# edition). A build that fails leaves no checker: the steps then leave out what needs it.
CH_FROM          = $(if $(wildcard solutions/$*/.),solutions,exercises)/$*
CH_CHECKER       = $(BUILD)/exercise/$*$(if $(wildcard solutions/$*/.),-solution)/check
CH_CAPTURE_ARGS  = $(BUILD)/drip $(BUILD)/dripprof $(PROFILE_DIR) $(CH_CHECKER)
CH_BUILD_CHECKER = $(if $(wildcard exercises/$*/chapter.lua),$(LUA) exercises/harness/exercise.lua \
                   --chapter $* --from $(CH_FROM) --build-only || true)

profile-%: setup-profile chapters/%/capture.lua $(BUILD)/drip $(BUILD)/drip-outline $(BUILD)/dripprof $(EX_SANDBOX)
	@$(CH_BUILD_CHECKER)
	@FIB_N=$(FIB_N) DRIP_OUTLINE=$(BUILD)/drip-outline CC="$(CC)" VM_SOURCES="$(VM_SOURCES)" \
	  VM_CFLAGS_NODEBUG="$(filter-out -g,$(or $(VM_CFLAGS),$(CWARN) -O2))" \
	  $(LUA) chapters/$*/capture.lua profile $(CH_CAPTURE_ARGS)

chapter-data-%: chapters/%/capture.lua $(BUILD)/dripprof $(EX_SANDBOX) | $(PROFILE_DIR)/summary-%.txt
	@$(CH_BUILD_CHECKER)
	$(LUA) $< data $(CH_CAPTURE_ARGS)

$(PROFILE_DIR)/summary-%.txt:
	@$(MAKE) --no-print-directory profile-$*

# ---- the web edition ------------------------------------------------------------
# pandoc turns each chapter into a standalone page: GitHub-flavoured Markdown
# with footnotes in, HTML5 out, C highlighted by pandoc itself, the flame graphs
# inlined as SVG by chapters/book/inline_svg.lua (so their scripts run in the
# page), one style sheet. chapters/book/page.lua adds the sidebar (table of
# contents, search, theme), heading links and previous/next links, and writes
# the page's search entries; search.js joins every page's, so the search needs
# no server (file:// pages cannot fetch). lunr, which indexes them in the
# browser, is Debian's libjs-lunr, copied in. index.html lists the chapters by
# their first heading. pandoc is chosen over cmark-gfm because it does all of
# that alone: cmark-gfm converts Markdown but highlights no code and has no
# filters, so it would need a second tool and our own HTML post-processing.
BOOK_DIR    := $(BUILD)/book
BOOK_SRC    := chapters/book
BOOK_TITLE  := The Drip Workbook
BOOK_PANDOC  = pandoc --from=gfm+footnotes --to=html5 --standalone --highlight-style=tango \
               --css=style.css --include-in-header=$(BOOK_SRC)/head.html \
               --lua-filter=$(BOOK_SRC)/page.lua -M book-pages=$(BOOK_DIR)/pages.tsv \
               -M book-page=$(notdir $@) -M book-search=$(@:.html=.search)
# chapters/N/NAME.md is the page N-NAME.html (test_chapters.sh names it the same way).
book_page    = $(BOOK_DIR)/$(subst /,-,$(patsubst chapters/%.md,%,$(1))).html
BOOK_PAGES  := $(foreach md,$(CH_MARKDOWN),$(call book_page,$(md)))
BOOK_COPIED := $(BOOK_DIR)/style.css $(BOOK_DIR)/book.js
BOOK_LAYOUT := $(BOOK_SRC)/page.lua $(BOOK_SRC)/head.html $(BOOK_DIR)/pages.tsv

book: setup-book $(BOOK_DIR)/index.html $(BOOK_PAGES) $(BOOK_DIR)/search.js $(BOOK_COPIED) \
  $(BOOK_DIR)/lunr.min.js

BOOK_NEEDS_PANDOC = @command -v pandoc >/dev/null || \
  { echo "make book: pandoc is not installed (make setup-book installs it)"; exit 1; }

# Each page's prerequisites, its chapter's text first ($<), come from the rule made for it
# below.
$(BOOK_PAGES):
	$(BOOK_NEEDS_PANDOC)
	@mkdir -p $(@D)
	$(BOOK_PANDOC) --lua-filter=$(BOOK_SRC)/inline_svg.lua \
	  --metadata pagetitle="$$(sed -n '1s/^# //p' $<)" -o $@ $<
$(foreach md,$(CH_MARKDOWN),$(eval $(call book_page,$(md)): $(md) $(wildcard $(dir $(md))figures/*.svg) \
  $(BOOK_SRC)/inline_svg.lua $(BOOK_LAYOUT)))

# The book's pages in reading order, FILE<TAB>TITLE, for page.lua.
$(BOOK_DIR)/pages.tsv: $(CH_MARKDOWN)
	@mkdir -p $(@D)
	@{ printf 'index.html\t%s\n' "$(BOOK_TITLE)"; $(foreach md,$(CH_MARKDOWN),\
	   printf '%s\t%s\n' $(notdir $(call book_page,$(md))) "$$(sed -n '1s/^# //p' $(md))";) } > $@

$(BOOK_DIR)/index.md: $(BOOK_DIR)/pages.tsv
	@{ echo "# $(BOOK_TITLE)"; echo; \
	   echo "The chapters of the workbook, with their flame graphs live: hover, click to zoom, search."; \
	   echo; awk -F '\t' 'NR > 1 { print "- [" $$2 "](" $$1 ")" }' $<; } > $@

$(BOOK_DIR)/index.html: $(BOOK_DIR)/index.md $(BOOK_LAYOUT)
	$(BOOK_NEEDS_PANDOC)
	$(BOOK_PANDOC) --metadata pagetitle="$(BOOK_TITLE)" -o $@ $<

$(BOOK_DIR)/search.js: $(BOOK_DIR)/index.html $(BOOK_PAGES)
	@{ echo "var BOOK_SEARCH = ["; cat $(^:.html=.search); echo "];"; } > $@

$(BOOK_COPIED): $(BOOK_DIR)/%: $(BOOK_SRC)/%
	@mkdir -p $(@D)
	cp $< $@

$(BOOK_DIR)/lunr.min.js: | setup-book
	@mkdir -p $(@D)
	cp $(BOOK_LUNR) $@

TEST_SUITES += chapters
test-chapters: $(BUILD)/dripprof book
	@mkdir -p $(TEST_RESULTS)
	@CH_DIRS="$(CH_DIRS)" BUILD=$(BUILD) CC="$(CC)" CWARN="$(CWARN)" LUA=$(LUA) \
	  bash chapters/tools/test_chapters.sh $(TEST_RESULTS)/chapters.result
