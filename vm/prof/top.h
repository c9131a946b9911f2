/* top.h: the self and inclusive tables of `dripprof top`.
 *
 * The tables look like callgrind_annotate's function table, so every row can
 * be read back with the exercise's parse_row() (profile.h):
 *
 *     20,186,274,402 (100.0%)  PROGRAM TOTALS
 *     15,676,869,738 (77.66%)  Vm::run
 *
 * Both tables come from folded stacks: self = the lines a function ends,
 * inclusive = the exercise's inclusive() of chapter 165 (exercise.h), which counts a
 * function once per stack, so the costs stay right under recursion (where
 * callgrind_annotate --inclusive=yes adds up overlapping arcs). A
 * callgrind.out is folded first (fold.h); the self column then equals
 * callgrind's self cost per function.
 */
#ifndef DRIP_PROF_TOP_H
#define DRIP_PROF_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

typedef struct {
    const char *source;    /* file name for the header */
    const char *kind;      /* "folded stacks" or "callgrind.out" */
    const char *countname; /* "Ir", "samples", ... */
    size_t limit;          /* rows per table, 0 = all */
} TopOptions;

/* Writes the report for the stacks (their counts must add up to total).
 * 0 on success, -1 with *error set (out of memory, overflow, write error, or
 * an error of inclusive()). Call exercise_ready("top", "inclusive") first. */
int top_write(const Folded *stacks, size_t count, uint64_t total, const TopOptions *options,
              FILE *out, const char **error);

/* qsort order of Cost rows: cost descending, then name (strcmp), like
 * callgrind_annotate since valgrind 3.15 and the exercise's inclusive(). */
int top_compare_costs(const void *a, const void *b);

/* One callgrind_annotate-style row: right-aligned count with commas, the
 * percentage of total, two blanks, the name. */
void top_write_row(FILE *out, uint64_t value, uint64_t total, int width, const char *name);

#endif
