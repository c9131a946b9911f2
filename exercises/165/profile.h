/* profile.h: the chapter-165 exercise API (read callgrind_annotate rows, add them up,
 * and compute inclusive costs from folded stacks).
 *
 * Your profile.c implements it; the checker that runs the public tests
 * (tests/check.c) calls it, and `dripprof top --with` and `files --with` ask that
 * checker for its answers, so the profiler you run is the one you wrote.
 *
 * Ownership in one sentence: every `char *` this API hands out was malloc'd for the
 * caller, and the caller free()s it; every `const char *` it takes is only read, and only
 * during the call.
 */
#ifndef DRIP_PROFILE_H
#define DRIP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One function row of callgrind_annotate output. */
typedef struct {
    uint64_t ir;  /* instructions (Ir) */
    bool has_pct; /* false when the row shows no percentage (--show-percs=no, valgrind <= 3.15) */
    double pct;   /* the percentage as printed (88.04 for "(88.04%)"); -1.0 when !has_pct */
    char *name;   /* the rest of the line after the two blanks; malloc'd, the caller free()s it */
} Row;

/* 1: line is a row and *row is filled; 0: not a row; -1: error (out of memory). After 0
   or -1, row->name is NULL (nothing to free) and ir, has_pct and pct are unspecified. (The
   shipped stub returns -1 and touches nothing: not written yet.)
 *
 * A row is: optional leading spaces; a count (plain digits, or digits strictly grouped
 * in threes by commas: "20,186,274,402"; at most UINT64_MAX); optionally " (" + padding
 * blanks + a percentage such as "88.04", "100.0" or "-5.00" + "%)"; then exactly two
 * blanks and the name, which is the rest of the line without a trailing "\n" or "\r\n".
 *
 *   "3,400,013 (62.18%)  prog.c:hot_loop [/tmp/cg/prog_g]\n"
 *       -> 1, ir 3400013, has_pct true, pct 62.18, name "prog.c:hot_loop [/tmp/cg/prog_g]"
 *   "5,468,396  PROGRAM TOTALS"  -> 1, ir 5468396, has_pct false, pct -1.0
 *   "  317,398 ( 5.80%)  => prog.c:fib'2 (12x)"  -> 0 (a call site, not a row)
 *
 * Not rows: an empty name, or one that starts with a blank (indented source code), with
 * a tree/call marker ("* ", "> ", "< ", "=> "), or with a second count column
 * ("65,670 (22.35%) ..." or ". "): several event columns. */
int parse_row(const char *line, Row *row);

/* 0: *sum = sum of ir over rows whose name contains needle (case-sensitive substring; "" matches
 all); -1: error (the sum does not fit in uint64_t, or not written yet).
 *
 * Rows whose name is NULL are skipped (they are not rows). rows may be NULL when count
 * is 0. On -1, *sum is left unchanged. */
int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum);

/* One line of folded stacks: "main;run;fib;fib" and its count. */
typedef struct {
    const char *stack;
    uint64_t count;
} Folded;

/* Inclusive cost of one function over a set of folded stacks. */
typedef struct {
    char *name; /* malloc'd */
    uint64_t cost;
} Cost;

/* 0: *costs = malloc'd array of *ncosts entries, one per distinct function name, sorted by cost
 descending, then by name (strcmp ascending); the caller frees each name and the array. -1: error
 (out of memory, a cost that does not fit in uint64_t, or not written yet). Rules: each stack adds
 its count ONCE to every DISTINCT frame on it (main;fib;fib;fib 10 adds 10 to fib); duplicate stacks
 add up; empty frames (a;;b, leading/trailing ;) get nothing.
 *
 *   {"main;run;fib;fib;fib", 10}, {"main;run;fib", 5}, {"main;run;op_add", 3}, {"main;other", 2}
 *       -> main 20, run 18, fib 15, op_add 3, other 2
 *
 * Frames are compared byte for byte (no trimming: "fib" and "fib'2" are two functions).
 * A stack that is NULL is an empty one. A function seen only on stacks with count 0 is
 * listed with cost 0. When *ncosts is 0,
 * *costs may be NULL (free(NULL) is fine). On -1, nothing is allocated. */
int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts);

#endif
