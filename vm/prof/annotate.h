/* annotate.h: reading the function table of callgrind_annotate output.
 *
 * The rows are read with the exercise's parse_row() (profile.h, called
 * through exercise.h), so the workbook has one reader of annotate lines: in
 * the student edition, the student's own. Only the function table counts: the rows after the
 * "Ir ... file:function" header and its dash rule, up to the first blank
 * line (source annotations further down can look like rows). The
 * "PROGRAM TOTALS" row above the table gives the total.
 *
 * `dripprof files` uses it to split a profile by source file: a row's label
 * is FILE:FUNCTION [OBJECT], and code inlined from a header is charged to
 * the header (callgrind's fi=/fe=), which is how chapter 165 sees where
 * inlined helpers went.
 */
#ifndef DRIP_PROF_ANNOTATE_H
#define DRIP_PROF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

typedef struct {
    Row *rows; /* the function table, in file order */
    size_t count;
    uint64_t total; /* PROGRAM TOTALS */
    bool has_total;
    char *error; /* after a failed read: "NAME:LINE: message" */
} AnnotateTable;

/* Reads the function table of a callgrind_annotate output file. 0, or -1
 * with out->error set; annotate_free(out) either way. */
int annotate_read_file(const char *path, AnnotateTable *out);
void annotate_free(AnnotateTable *table);

/* Costs per source file (the label up to its first ':'; the " [object]"
 * suffix dropped), sorted by cost descending, then name. 0, or -1 when out
 * of memory or a sum overflows. The caller frees each name and the array. */
int annotate_sum_by_file(const AnnotateTable *table, Cost **costs, size_t *count);

#endif
