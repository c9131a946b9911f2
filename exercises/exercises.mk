# exercises/exercises.mk: the exercise loop (`make exercise-N`), the process sandbox every
# test runs in (build/harness/sandbox, shared with the grader), and the `exercises` suite
# of `make test`.
#
# A chapter's exercise is a folder exercises/N/ (profile.h, profile.c, tests/) mirrored by
# solutions/N/. `exercise-%` is a pattern rule, so a new chapter adds folders, not Makefile
# code.

EX_HARNESS := grader/harness
EX_SANDBOX := $(BUILD)/harness/sandbox

# The sandbox is built without sanitizers: it must not be the thing that crashes.
$(EX_SANDBOX): $(EX_HARNESS)/sandbox.c
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O2 -o $@ $< -lm

.PHONY: sandbox
sandbox: $(EX_SANDBOX)
HELP += "sandbox          build the process sandbox every test runs in (build/harness/sandbox)"
