/* top.h: the self and inclusive tables of `dripprof top`.
 *
 * The tables look like callgrind_annotate's function table, so every row can
 * be read back as an annotate row (the chapter's parse_row() reads them):
 *
 *     20,186,274,402 (100.0%)  PROGRAM TOTALS
 *     15,676,869,738 (77.66%)  Vm::run
 *
 * Both tables come from folded stacks. Self = the lines a function ends,
 * computed here. Inclusive = the answer of the chapter's inclusive(), which
 * counts a function once per stack (so the costs stay right under recursion,
 * where callgrind_annotate --inclusive=yes adds up overlapping arcs); dripprof
 * gets it from a checker (checker.h) and hands it to top_write as it came. A
 * callgrind.out is folded first (fold.h, bounded) when there is a checker;
 * without one its self column is summed straight from the call graph, the same
 * sums without the stacks.
 */
#ifndef DRIP_PROF_TOP_H
#define DRIP_PROF_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "costs.h"
#include "folded.h"

typedef struct {
    const char *source;    /* file name for the header */
    const char *kind;      /* "folded stacks" or "callgrind.out" */
    const char *countname; /* "Ir", "samples", ... */
    size_t limit;          /* rows per table, 0 = all */
    uint64_t total;        /* of the stacks' counts */
    const Cost *self;      /* top_self_costs */
    size_t nself;
    const Cost *inclusive; /* in the order inclusive() gave them; NULL: no inclusive table */
    size_t ninclusive;
} TopReport;

/* Self cost per leaf frame of stacks[0..count), sorted by costs_compare (costs_free). 0,
 * or -1 when out of memory or a sum overflows. */
int top_self_costs(const FoldedLine *stacks, size_t count, Cost **costs, size_t *ncosts);

/* Writes the report. 0, or -1 on a write error. */
int top_write(const TopReport *report, FILE *out);

/* One callgrind_annotate-style row: right-aligned count with commas, the
 * percentage of total, two blanks, the name. */
void top_write_row(FILE *out, uint64_t value, uint64_t total, int width, const char *name);

/* The width of a column whose largest count is total: its digits and commas. */
int top_width(uint64_t total);

#endif
