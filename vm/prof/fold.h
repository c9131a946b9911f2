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
 *   - the output is deterministic (sorted lines, fixed tie-breaks);
 *   - the output is bounded: a caller's share below totals / resolution is
 *     not followed further up; the shares merged at one split become one line
 *     FOLD_OTHER_CALLERS;CALLEE;...;LEAF (the two sums above still hold), so
 *     the lines are about resolution, not the number of call paths, which a
 *     large program has by the million. Resolution 0 follows every share;
 *     FOLD_AUTO does while the stacks stay few.
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
#include <stdio.h>

#include "callgrind.h"
#include "intern.h"

/* The default resolution: a million parts of the total, 80 times finer than a flame
 * graph's narrowest box (flame.h's defaults: 0.1 pixel of 1,200, 1/12,000). */
#define FOLD_RESOLUTION 1000000u

/* fold_callgrind's default resolution: exact (0) while that gives at most FOLD_EXACT_LINES
 * distinct stacks, else FOLD_RESOLUTION. So a small program (the chapter's VM: a few
 * thousand stacks) folds exactly, and a large one within a bounded memory. */
#define FOLD_AUTO UINT64_MAX
enum { FOLD_EXACT_LINES = 100000 };

/* The root frame of the merged shares' lines. */
#define FOLD_OTHER_CALLERS "[other callers]"

/* In a line's path, the frame that stands for the callers whose shares were merged. */
#define FOLD_OTHER_NODE UINT32_MAX

typedef struct {
    uint64_t count;
    uint32_t key; /* private: the number of its path in FoldResult.paths */
} FoldLine;

/* The lines are kept as paths of function numbers, not texts: a large program's stacks
 * take hundreds of megabytes as text. fold_print and fold_stack make the texts. */
typedef struct {
    FoldLine *lines; /* sorted bytewise by their texts, no duplicates, no zero counts */
    size_t count;
    uint64_t total;       /* sum of the counts = the profile's totals */
    bool exact;           /* the call graph was a tree */
    size_t shared;        /* functions with callees and several callers */
    size_t cut_arcs;      /* arcs removed to break recursion cycles */
    size_t self_loops;    /* recursive self-calls (already in self cost) */
    uint64_t threshold;   /* totals / resolution: smaller shares were merged */
    uint64_t merged;      /* their sum, in FOLD_OTHER_CALLERS lines */
    size_t merged_shares; /* the shares merged (each split adds its small ones once) */
    /* private: the frames' names (fold_clean_names) and the paths' storage */
    char **names;
    size_t name_count;
    Intern paths; /* the lines' frames: function numbers (FOLD_OTHER_NODE), leaf first */
} FoldResult;

/* Folds the graph at the given resolution (FOLD_AUTO, FOLD_RESOLUTION; 0 for every share). 0 on
 * success; -1 when out of memory or a sum overflows
 * (*error then points to a static message). fold_free() in both cases. */
int fold_callgrind(const Callgrind *graph, uint64_t resolution, FoldResult *out,
                   const char **error);

void fold_free(FoldResult *result);

/* Line i's stack as text, "main;run;fib" (malloc'd; NULL when out of memory). */
char *fold_stack(const FoldResult *result, size_t i);

/* Prints every line, `STACK COUNT`. 0, or -1 on a write error. */
int fold_print(const FoldResult *result, FILE *out);

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
