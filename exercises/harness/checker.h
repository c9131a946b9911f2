/* checker.h: the checker kit. A chapter's checker (exercises/N/tests/check.c) calls the
 * student's functions on the inputs of a case and writes what they answered; everything
 * else every checker needs is here, so a checker holds only its own calls.
 *
 * A case is a name, FUNCTION.ID, and fields (KEY, VALUE) in order. Cases come from a file
 * the Lua harness writes (exercises/harness/cases.lua): one line per field,
 * CASE<TAB>KEY<TAB>VALUE[<TAB>ORIGIN], each escaped in the workbook's one dialect (\\ \t \n
 * \r \xHH), ORIGIN the FILE:LINE the field was written at; an empty CASE is the case of the
 * line above. The checker never judges: it writes
 * answers, KEY<TAB>ANSWER lines, and the harness compares them with the reference's, the
 * same way for `make exercise-N` and for grading.
 *
 *   CHECKER --cases FILE --list               the names of the cases, one a line
 *   CHECKER --cases FILE --run NAME [--results PATH]
 *                                             one case in this process; answers to PATH (a
 *                                             file or /dev/fd/N; default stdout)
 *   CHECKER --cases FILE --each DIR --cpu S --wall S --memory MB --output BYTES
 *           [--results-limit BYTES] [--jobs N] [--only PREFIX] [--status-fd FD]
 *                                             every case in its own forked child
 *                                             (fork_tests.h); answers to DIR/NAME.results,
 *                                             at most --results-limit bytes (default
 *                                             --output), as the grader's results channel
 *   CHECKER --cases FILE --pack PATH --cpu S ... (as --each)
 *                                             the same (in --each's DIR, else a fresh
 *                                             folder under $TMPDIR);
 *                                             when all have ended, every case's results,
 *                                             stdout and stderr to PATH, each file as
 *                                             "NAME.SUFFIX<TAB>BYTES\n" and its bytes: for a
 *                                             box whose folder is gone afterwards
 *
 * A run of a case ends its answers with "end<TAB>ok": without it, the case never returned
 * (exit() in the code under test, a crash). Every case runs as a cmocka test, with the
 * crash handlers cmocka installs taken back, so a crash ends the process and the sanitizer
 * or the supervisor names it. Exit status: 0 when the cases ran, 2 for bad arguments or a
 * bad cases file ("FILE:LINE: why" on stderr).
 */
#ifndef HARNESS_CHECKER_H
#define HARNESS_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *key;
    const char *value;  /* unescaped: may hold any byte but NUL */
    const char *origin; /* "FILE:LINE" where the field was written; NULL: see line */
    size_t line;        /* its line in the cases file */
} CheckField;

typedef struct {
    const char *name; /* FUNCTION.ID */
    const CheckField *fields;
    size_t nfields;
} CheckCase;

/* Runs the calls of one case and writes their answers. */
typedef void (*CheckRun)(const CheckCase *c);

typedef struct {
    const char *function; /* the FUNCTION of the cases it runs */
    CheckRun run;
} CheckFunction;

/* The checker's main(): the command line above. */
int check_main(int argc, char **argv, const CheckFunction *functions, size_t count);

/* ------------------------------------------------------------------ fields */

/* The first field called key, or NULL; check_field gives its value. */
const CheckField *check_find(const CheckCase *c, const char *key);
const char *check_field(const CheckCase *c, const char *key);
/* A field the checker cannot use: "ORIGIN: KEY: why" on stderr, exit 2. A broken case must
   never look like a failing student. */
_Noreturn void check_bad_field(const CheckField *f, const char *why);
/* A whole decimal uint64_t; false for anything else (signs, blanks, overflow). */
bool check_u64(const char *text, uint64_t *value);
/* "TEXT NUMBER": the number after the last blank, and a malloc'd copy of the text before
   it; "NUMBER TEXT": the number before the first blank, and a copy of the text after it. A
   field that is not so stops the run. */
char *check_text_and_number(const CheckField *f, uint64_t *number);
char *check_number_and_text(const CheckField *f, uint64_t *number);

/* ------------------------------------------------------------------ answers */

/* Writes KEY<TAB>ANSWER, both escaped; flushed at once, so answers written before a crash
   still count. */
void check_answer(const char *key, const char *answer);
/* The same with a printf format for the answer. */
void check_answerf(const char *key, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* A malloc'd printf (for keys and answers that hold names); never NULL. */
char *check_format(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* When now differs from before (code under test wrote into const input), answers
   "changed:WHAT" with what the input now holds. The reference never does, so the harness
   reports it as a difference, in words about const input. */
void check_unchanged(const char *what, const char *before, const char *now);

/* ------------------------------------------------------------------ memory */

/* For the checker's own use; they never return NULL (out of memory stops the run).
   check_grow makes room for one more element in an array of count (doubling *capacity). */
void *check_malloc(size_t size);
char *check_strdup(const char *text);
void *check_grow(void *array, size_t count, size_t *capacity, size_t size);

/* Allocation failures on purpose (the program is linked with --wrap for malloc, calloc,
   realloc, strdup and strndup: see alloc_fail.c). From n on, allocation number n and every
   later one return NULL; 0: none fails. Also restarts the count. */
void check_fail_allocations(long n);
/* Allocations asked for since the last check_fail_allocations, failed ones included. */
long check_allocations(void);
/* The first allocation that was made to fail, in words: "malloc in NAME (FILE:LINE)", or
   "malloc" when the program cannot say where. "" when none failed. */
const char *check_failed_allocation(void);

#endif
