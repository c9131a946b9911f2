/* checker.h: dripprof asks a chapter's checker (vm/prof/README.md, "Checkers").
 *
 * `dripprof top`, `files` and `rows` need the answers of an exercise's
 * function (inclusive(), parse_row()), which dripprof does not have: a
 * checker program, named by --with, links the function and runs "cases".
 * dripprof writes one case to a cases file, runs
 *
 *     SANDBOX --isolate none --cpu C --memory M ... --file cases.tsv=FILE
 *             -- CHECKER --cases cases.tsv --run CASE --results /dev/fd/3
 *
 * and reads the answers back. The function may be a stub, may crash, loop,
 * stop early or break its contract; the checker may not be one. Each ends in
 * one message on stderr, naming the command, the function and the checker,
 * and an exit status:
 *
 *   CHECKER_NOT_READY    the function is not written yet, crashed, ran out of
 *                        time or output, stopped before the end line, or
 *                        broke its contract;
 *   CHECKER_CANNOT_RUN   the checker or the sandbox cannot be started;
 *   CHECKER_OFF_PROTOCOL the checker ran, but its answers do not answer the
 *                        case, or it failed after answering.
 *
 * Bad input is found before any checker runs; its exit status stays 1.
 */
#ifndef DRIP_PROF_CHECKER_H
#define DRIP_PROF_CHECKER_H

#include <stddef.h>

#include "annotate.h"
#include "costs.h"
#include "folded.h"

enum { CHECKER_NOT_READY = 3, CHECKER_CANNOT_RUN = 4, CHECKER_OFF_PROTOCOL = 5 };

/* CPU seconds of the checker's whole process tree (an endless loop ends there;
 * DRIPPROF_CPU_SECONDS in the environment overrides it), its memory in MB, and the bytes
 * of stdout and stderr it may write (a printf left in the function). */
#define CHECKER_CPU_SECONDS "60"
#define CHECKER_MEMORY_MB "1024"
#define CHECKER_OUTPUT_BYTES "1048576"

typedef struct {
    const char *program; /* --with CHECKER, as given */
    const char *sandbox; /* --sandbox PATH, or NULL: harness/sandbox beside dripprof */
    const char *command; /* "top": the case is FUNCTION.top, and messages name it */
} Checker;

/* inclusive() of stacks[0..count): its costs, in the order it returned them (costs_free).
 * 0, or an exit status after the message. */
int checker_inclusive(const Checker *checker, const FoldedLine *stacks, size_t count, Cost **costs,
                      size_t *ncosts);

/* parse_row() of each of the first text->asked lines of the file input (its name in
 * messages): *rows is a malloc'd array of that many answers, each name malloc'd. 0, or an
 * exit status after the message. */
int checker_parse_row(const Checker *checker, const char *input, const AnnotateText *text,
                      AnnotateRow **rows);

#endif
