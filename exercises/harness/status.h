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
 * Every function writes at most size bytes into out, always NUL-terminated.
 */
#ifndef HARNESS_STATUS_H
#define HARNESS_STATUS_H

#include <stdbool.h>
#include <stddef.h>

/* "SIGSEGV" for SIGSEGV, ...; NULL for a signal without a name here. */
const char *status_signal_name(int signo);

void status_exit(char *out, size_t size, int code);
void status_crashed(char *out, size_t size, int signo);
void status_cpu(char *out, size_t size, double seconds);
/* cpu < 0: the CPU time is not known. */
void status_wall(char *out, size_t size, double seconds, double cpu);
/* what: "" or a few words after the amount (" of results"). */
void status_output(char *out, size_t size, long long bytes, const char *what);
void status_memory(char *out, size_t size, long long mb, const char *what);

/* The first sanitizer report in a program's stderr, in the words above. Sets *is_leak when
   the report is a leak (a lesser fault than a time limit; an error is a greater one).
   False when stderr holds none. */
bool status_sanitizer_report(const char *stderr_text, char *out, size_t size, bool *is_leak);

#endif
