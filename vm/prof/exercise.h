/* exercise.h: how dripprof calls the chapter-165 exercise functions.
 *
 * `dripprof top` needs inclusive(), `dripprof files` and `rows` need parse_row()
 * (profile.h). They come from the file prof.mk's PROFILE_IMPL names: the
 * chapter's reference in the instructor's workbook, the student's own
 * exercises/165/profile.c in the student edition. So these functions may be
 * unwritten stubs (they return -1), may crash or loop, or may break the
 * contract; dripprof must say which, in words a student can act on, and
 * never crash itself. Everything that calls them goes through here:
 *
 *   exercise_ready()      a tiny known input first: when the function does
 *                         not answer it, one message says what is missing
 *                         and the command exits EXERCISE_NOT_READY;
 *   exercise_parse_row(), exercise_inclusive()
 *                         the calls themselves, under a guard: a crash
 *                         (SIGSEGV, SIGABRT, ...) or more than
 *                         EXERCISE_CPU_SECONDS of CPU time inside them ends
 *                         dripprof with a message naming the function and
 *                         the file (exit EXERCISE_NOT_READY); a result that
 *                         breaks the contract is an error, not a crash.
 *
 * When dripprof is linked without any implementation (profile.c did not
 * compile, or the test build of the edition), exercise.c's weak stand-ins
 * take its place and behave like the shipped stubs.
 */
#ifndef DRIP_PROF_EXERCISE_H
#define DRIP_PROF_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* dripprof's exit status when a function it needs is not written yet, crashed or hung. */
#define EXERCISE_NOT_READY 3

/* CPU seconds one call may take before dripprof gives up on it (an endless loop);
   DRIPPROF_CPU_SECONDS in the environment overrides it. */
#define EXERCISE_CPU_SECONDS 60

/* The source file of the functions, as prof.mk's PROFILE_IMPL names it
   ("exercises/165/profile.c"). */
const char *exercise_source(void);

/* True when function ("parse_row" or "inclusive") answers a one-line input the way the
   contract says. Otherwise prints, for command "top":
       dripprof top needs inclusive() from exercises/165/profile.c: run make exercise-165
   and a line saying what it did, and returns false. Either way it notes on stderr when the
   source file is newer than the running dripprof (run make to rebuild it). */
bool exercise_ready(const char *command, const char *function);

/* parse_row() under the guard. Returns 1, 0 or -1 like parse_row; a result outside the
   contract (another value, or 1 without a name) is -1 with *why set. */
int exercise_parse_row(const char *line, Row *row, const char **why);

/* inclusive() under the guard. 0, or -1 with *why set (an error the function reported,
   or a result outside the contract: NULL array or name). */
int exercise_inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts,
                       const char **why);

/* Frees an array of Cost (names and array), as inclusive() hands them out. */
void exercise_free_costs(Cost *costs, size_t count);

#endif
