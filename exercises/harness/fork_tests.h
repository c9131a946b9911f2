/* fork_tests.h: run each test of a program in its own forked child, with limits.
 *
 * A program (a chapter's checker, through check.c) starts once, reads its data, and hands
 * this module its list of tests and a function that runs one of them. Each test then runs in
 * a child made with fork(), under CPU, memory and output limits, and one status line per
 * test (status.h's words) says how it ended. fork_tests.c has the design.
 */
#ifndef HARNESS_FORK_TESTS_H
#define HARNESS_FORK_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

/* Called in the parent when test i has ended and its status line is out; usage is its
   child's (wait4's: the child and what it waited for). */
typedef void (*ForkEnded)(size_t i, const struct rusage *usage, void *context);

typedef struct {
    const char *dir;         /* capture files DIR/NAME.stdout, DIR/NAME.stderr; NULL: off */
    unsigned cpu_seconds;    /* CPU time per test (RLIMIT_CPU) */
    double wall_seconds;     /* wall-clock backstop per test, for a child that sleeps */
    long long memory_mb;     /* resident memory per test */
    long long output_bytes;  /* per capture file */
    long long results_bytes; /* per file the test writes (a checker's answers); 0: output_bytes */
    unsigned jobs;           /* children at a time */
    const char *only;        /* run only the tests whose name starts so; NULL: all */
    int status_fd;           /* where the status lines go */
    bool sealed;             /* one at a time, each under seal.h's filter (fork_tests.c) */
    ForkEnded ended;         /* NULL: none */
} ForkOptions;

/* Runs test i in a child: returns 0 when it ran to its end. */
typedef int (*ForkTest)(size_t i, void *context);

/* No dir and no limits (every limit is the caller's to give: the rubric's, through the
   Lua harness), 1 job, status lines to stdout. */
ForkOptions fork_tests_defaults(void);

/* Reads one of the options --each DIR, --cpu SEC, --wall SEC, --memory MB, --output BYTES,
   --results-limit BYTES, --jobs N, --only PREFIX, --status-fd FD, --sealed at argv[*i]
   (advancing *i past its value). Returns false when argv[*i] is not one of them; stops the driver
   (exit 2) on a bad value. */
bool fork_tests_option(int argc, char **argv, int *i, ForkOptions *options);

/* The largest file a child may write (RLIMIT_FSIZE): --results-limit when that is larger than
   --output. */
long long fork_tests_file_limit(const ForkOptions *options);

/* The sanitizer allocator's count of bytes in use; 0 in a build without AddressSanitizer. */
size_t fork_tests_heap_in_use(void);

/* Ends the process with code, skipping LeakSanitizer's exit check (it scans megabytes of the
   sanitizer runtimes' globals, most of a short case's cost), when the heap in use is back to
   before (fork_tests_heap_in_use() taken before the case; 0: no sanitizer, so never): what the
   case allocated is all freed, and the check could find nothing. Returns otherwise, with the
   dead stack below it zeroed, so that the check finds a lost block whatever the case's frames
   left there. Both ways of running a case (a forked child here, the checker's --run) end
   through it. */
void fork_tests_exit_if_clean(int code, size_t before);

/* Runs the tests (names[0..count-1], each a file-name-safe word) and writes one line per
   test to options->status_fd as it ends: "INDEX<TAB>NAME<TAB>STATUS". Returns 0, or 2 when
   the capture folder cannot be used or a limit is missing. */
int fork_tests_run(const ForkOptions *options, const char *const *names, size_t count, ForkTest run,
                   void *context);

#endif
