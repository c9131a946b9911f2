/* status.h: the one vocabulary in which the workbook says how a run of code under test ended.
 *
 * Both supervisors of student code, build/harness/sandbox (one program) and fork_tests.c (one
 * forked child per case), end a run with one status line written by these functions, and
 * exercises/harness/runner.lua is the one reader of those lines. The words:
 *
 *   ok                                         exited 0, nothing reported
 *   exit N                                     exited N (also 0, when a case never returned)
 *   crashed: SIGSEGV                           killed by a signal (or "crashed: signal N")
 *   timed out after N s of CPU time            the CPU limit
 *   timed out after N s of wall-clock time ... the wall-clock backstop
 *   output limit: more than N bytes[ WHAT]     wrote too much
 *   memory limit: more than N MB[ WHAT]        used too much resident memory
 *   leaked N bytes                             LeakSanitizer's summary
 *   AddressSanitizer: heap-buffer-overflow     the first sanitizer report, shortened
 *   UndefinedBehaviorSanitizer: MESSAGE (f.c:L:C)
 *
 * Every function that writes a status writes at most size bytes into out, always
 * NUL-terminated.
 */
#ifndef HARNESS_STATUS_H
#define HARNESS_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

void status_cpu(char *out, size_t size, double seconds);
/* cpu < 0: the CPU time is not known. */
void status_wall(char *out, size_t size, double seconds, double cpu);
/* what: "" or a few words after the amount (" of results"). */
void status_output(char *out, size_t size, long long bytes, const char *what);
void status_memory(char *out, size_t size, long long mb, const char *what);

/* The status of an ended run, in the one order of precedence of both supervisors: the first
   sanitizer error report in its stderr (it wins over a limit that hit while it was being
   written), the limit the supervisor found broken (limit, "" when none), a leak report, the
   signal that ended it, a nonzero exit code or any code when the case never returned (code
   under test called exit() itself), else ok. */
void status_verdict(char *out, size_t size, const char *stderr_text, const char *limit, int signo,
                    int code, bool returned);

/* ------------------------------------------------------------ what both supervisors do alike */

/* Copies text into out up to the first of the stop strings (a NULL-terminated list) or its
   end, cut to size. */
void status_copy_until(char *out, size_t size, const char *text, const char *const *stops);
double status_clock(void);                                /* CLOCK_MONOTONIC seconds */
double status_rusage_seconds(const struct rusage *usage); /* user + system */
void status_limit(int resource, rlim_t soft, rlim_t hard);
/* In a child: stdin from /dev/null. */
void status_stdin_null(void);
/* A pipe SIGCHLD writes a byte to, so that poll() on fds[0] wakes when a child ends; both ends
   non-blocking and close-on-exec. False when there is no pipe (errno says why). */
bool status_wake_on_sigchld(int fds[2]);
/* Empties the pipe once poll() found it readable. */
void status_wake_drain(int fd);

#endif
