/* checker.h: how dripprof asks a chapter's checker to run a case.
 *
 * `dripprof top`, `files` and `rows` need the answers of an exercise's
 * function (inclusive(), parse_row()), which dripprof does not have: a
 * checker program, named by --with, links the function and runs "cases".
 * dripprof writes the case to a cases file, runs
 *
 *     SANDBOX --isolate none --cpu C --memory M ... --file cases.tsv=FILE
 *             -- CHECKER --cases cases.tsv --run CASE --results /dev/fd/3
 *
 * and reads the answers back (vm/prof/README.md, "Checkers", is the
 * contract). The function may be a stub, may crash, loop or stop early: the
 * sandbox (build/harness/sandbox) contains all of that and says which, and
 * dripprof turns its verdict into one message naming the command, the
 * function and the checker, and an exit status:
 *
 *   CHECKER_NOT_READY    the function is not written yet, crashed, ran out of
 *                        time or memory, stopped before the end line, or
 *                        broke its contract;
 *   CHECKER_CANNOT_RUN   the checker or the sandbox cannot be started;
 *   CHECKER_OFF_PROTOCOL the checker ran, but its answers are not answers to
 *                        the case dripprof asked (ask.c) or it failed after
 *                        answering.
 *
 * Lines of both files are the workbook's escaped fields (tsv.h).
 */
#ifndef DRIP_PROF_CHECKER_H
#define DRIP_PROF_CHECKER_H

#include <stdio.h>

enum { CHECKER_NOT_READY = 3, CHECKER_CANNOT_RUN = 4, CHECKER_OFF_PROTOCOL = 5 };

/* CPU seconds of the checker's whole process tree (an endless loop ends there;
 * DRIPPROF_CPU_SECONDS in the environment overrides it), its memory in MB, and the bytes
 * of stdout and stderr it may write (a printf left in the function). */
#define CHECKER_CPU_SECONDS "60"
#define CHECKER_MEMORY_MB "1024"
#define CHECKER_OUTPUT_BYTES "1048576"

typedef struct {
    const char *program;  /* --with CHECKER, as given */
    const char *sandbox;  /* --sandbox PATH, or NULL: harness/sandbox beside dripprof */
    const char *command;  /* "top", for messages */
    const char *function; /* "inclusive", for messages */
} Checker;

/* One answer line, unescaped. */
typedef struct {
    char *key;
    char *answer;
} CheckerAnswer;

typedef struct {
    CheckerAnswer *answers; /* in the order written, without the end line */
    size_t count;
    char *text; /* the answers file, which the keys and answers point into */
} CheckerAnswers;

/* A case being written, and the private folder of its files. */
typedef struct {
    char folder[4096];
    char name[64]; /* "inclusive.top" */
    FILE *cases;
} CheckerCase;

/* Starts the case NAME ("FUNCTION.ID") in a new private folder. 0, or an exit status after
 * the message. */
int checker_open(const Checker *checker, CheckerCase *c, const char *name);

/* Writes the field KEY with the value text[0..length) followed by suffix (or nothing). */
void checker_field(CheckerCase *c, const char *key, const char *text, size_t length,
                   const char *suffix);

/* Runs the case and reads its answers (*answers, freed with checker_free). 0, or an exit
 * status after the message. Removes the folder either way. */
int checker_run(const Checker *checker, CheckerCase *c, CheckerAnswers *answers);

void checker_free(CheckerAnswers *answers);

/* Prints "dripprof COMMAND: FUNCTION() from CHECKER " and the message on stderr; returns
 * status. */
int checker_fail(const Checker *checker, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
