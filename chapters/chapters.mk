# chapters/: the chapter text, rendered from a template and committed data.
#
# chapters/165-profiling-the-vm.md is generated from 165-profiling-the-vm.md.in
# and the key = value files in chapters/data/165/ (written from a real
# `make profile-165` run by `make chapter-data-165`). The suite `chapters`
# fails when the committed Markdown no longer matches its template and data,
# and builds and runs every C listing, checking what it prints.

CH_TOOL      := $(LUA) chapters/tools/chapter.lua
CH_165_IN    := chapters/165-profiling-the-vm.md.in
CH_165_MD    := chapters/165-profiling-the-vm.md
CH_165_DATA  := $(sort $(wildcard chapters/data/165/*.txt))

HELP += "chapters         render the chapters from their templates and committed data"

.PHONY: chapters test-chapters
chapters: $(CH_165_MD)

$(CH_165_MD): $(CH_165_IN) $(CH_165_DATA) chapters/tools/render.lua
	$(CH_TOOL) render $(CH_165_IN) $@ $(CH_165_DATA)

TEST_SUITES += chapters
test-chapters:
	@mkdir -p $(TEST_RESULTS) $(BUILD)/chapters/listings
	@passed=0; failed=0; \
	if $(CH_TOOL) stale $(CH_165_IN) $(CH_165_MD) $(CH_165_DATA); then \
	  passed=$$((passed + 1)); echo "ok   $(CH_165_MD) matches its template and data"; \
	else failed=$$((failed + 1)); echo "FAIL $(CH_165_MD) is stale"; fi; \
	for check in "listings $(CH_165_MD) $(BUILD)/chapters/listings $(CC) $(CWARN)" "test"; do \
	  if [ "$$check" = test ]; then out=$$($(LUA) chapters/tools/test_render.lua 2>&1); \
	  else out=$$($(CH_TOOL) $$check 2>&1); fi; \
	  echo "$$out" | sed '$$d'; \
	  set -- $$(echo "$$out" | tail -n 1); \
	  case "$$1$$2" in *[!0-9]*|"") passed=$$passed; failed=$$((failed + 1));; \
	  *) passed=$$((passed + $$1)); failed=$$((failed + $$2));; esac; \
	done; \
	echo "$$passed $$failed" > $(TEST_RESULTS)/chapters.result
