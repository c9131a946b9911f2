/* fold.h: turning a callgrind call graph into folded stacks.
 *
 * Callgrind keeps self costs and caller -> callee arcs, not stacks, so the
 * stacks are reconstructed: every function's self cost is walked up to the
 * roots and split among its callers in proportion to the arcs' inclusive
 * costs. fold.c describes the algorithm; its guarantees are:
 *
 *   - the counts add up exactly to the profile's totals;
 *   - for every function, the lines ending in it add up to its self cost;
 *   - the stacks are exact when the call graph is a tree (no function with
 *     callees has two callers, no recursion): run valgrind with
 *     --separate-callers=N (and --separate-recs=M for deep recursion);
 *   - the output is deterministic (sorted lines, fixed tie-breaks).
 *
 * Frames are function names cleaned of callgrind's context suffixes:
 * "fib'2" (recursion depth) and "mix'fill'main" (caller context) become
 * "fib" and "mix" (see fold_clean_names).
 */
#ifndef DRIP_PROF_FOLD_H
#define DRIP_PROF_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgrind.h"

typedef struct {
    char *stack; /* "main;run;fib", malloc'd */
    uint64_t count;
} FoldLine;

typedef struct {
    FoldLine *lines; /* sorted bytewise, no duplicates, no zero counts */
    size_t count;
    uint64_t total;    /* sum of the counts = the profile's totals */
    bool exact;        /* the call graph was a tree */
    size_t shared;     /* functions with callees and several callers */
    size_t cut_arcs;   /* arcs removed to break recursion cycles */
    size_t self_loops; /* recursive self-calls (already in self cost) */
} FoldResult;

/* Folds the graph. 0 on success; -1 when out of memory or a sum overflows
 * (*error then points to a static message). fold_free() in both cases. */
int fold_callgrind(const Callgrind *graph, FoldResult *out, const char **error);

void fold_free(FoldResult *result);

/* Display names, one per function of the graph (malloc'd array of malloc'd
 * strings; free with fold_free_names). A suffix is removed only when the
 * graph explains it: "'DIGITS" (a recursion level), or "'CONTEXT" where
 * CONTEXT is (a prefix of) the caller's own name and context, found by
 * following the caller arcs. So a name that merely contains a quote (Rust's
 * for<'a>) keeps it. ';' and control characters are replaced by ':' and '?'
 * so that every name is a valid frame. NULL when out of memory. */
char **fold_clean_names(const Callgrind *graph);
void fold_free_names(char **names, size_t count);

#endif
