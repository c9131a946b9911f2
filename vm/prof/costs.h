/* costs.h: costs summed per name, as the tables list them.
 *
 * `dripprof top` sums self costs per leaf frame, `files` sums rows per source
 * file, `calls` sums call counts per cleaned function name: each is "add this
 * cost to that name, then list the names by cost". CostSums does it once: an
 * Intern table numbers the names, a parallel array holds their sums (64 bits,
 * an overflow is an error, never a wrap), and costs_sorted lists them as
 * callgrind_annotate orders its rows.
 */
#ifndef DRIP_PROF_COSTS_H
#define DRIP_PROF_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include "intern.h"

/* A function (or a source file) and its cost. */
typedef struct {
    char *name; /* malloc'd */
    uint64_t cost;
} Cost;

typedef struct {
    Intern names;
    uint64_t *sums; /* sums[k]: the sum of names.keys[k] */
    size_t capacity;
} CostSums;

/* A zeroed CostSums is empty (a zeroed Intern is, intern.h); costs_free_sums empties it again. */
void costs_free_sums(CostSums *sums);

/* Adds cost to the sum of name[0..length) (a new name starts at 0, so adding 0 lists it).
 * 0, or -1 when out of memory or the sum passes 64 bits. */
int costs_add(CostSums *sums, const char *name, size_t length, uint64_t cost);

/* Every name and its sum, sorted by costs_compare (malloc'd; costs_free). 0, or -1 when out
 * of memory. */
int costs_sorted(const CostSums *sums, Cost **costs, size_t *count);

/* Ends a summing that stopped with status (0, or -1 when a costs_add failed): the sorted
 * list when status is 0, else none (*costs NULL, *count 0); frees sums either way. 0, or
 * -1. */
int costs_finish(CostSums *sums, int status, Cost **costs, size_t *count);

/* qsort order of Cost rows: cost descending, then name (strcmp), like callgrind_annotate
 * since valgrind 3.15 and the chapter's inclusive(). */
int costs_compare(const void *a, const void *b);

/* Frees the names and the array. */
void costs_free(Cost *costs, size_t count);

#endif
