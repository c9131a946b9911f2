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
 * inlined helpers went. `dripprof rows` prints the rows with their line
 * numbers and labels split, for scripts that would otherwise parse them.
 */
#ifndef DRIP_PROF_ANNOTATE_H
#define DRIP_PROF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

typedef struct {
    Row *rows;     /* the function table, in file order */
    size_t *lines; /* the 1-based line of each row */
    size_t count;
    uint64_t total; /* PROGRAM TOTALS */
    bool has_total;
    bool total_has_pct; /* and its percentage, as parse_row read it */
    double total_pct;
    size_t total_line; /* the line of the PROGRAM TOTALS row */
    char *error;       /* after a failed read: "NAME:LINE: message" */
} AnnotateTable;

/* Reads the function table of a callgrind_annotate output file. 0, or -1
 * with out->error set; annotate_free(out) either way. */
int annotate_read_file(const char *path, AnnotateTable *out);

/* The same from an open stream (standard input); name is used in messages. */
int annotate_read_stream(FILE *in, const char *name, AnnotateTable *out);

/* Every line of the stream that parse_row() calls a row, wherever it stands
 * (the totals, the function table, the per-line counts of annotated source),
 * into out->rows and out->lines; no table or totals row is required. */
int annotate_read_all_rows(FILE *in, const char *name, AnnotateTable *out);

void annotate_free(AnnotateTable *table);

/* The parts of a row's label "FILE:FUNCTION [OBJECT]", pointing into it:
 * the file up to the FIRST ':' (a C++ function may hold more), the object
 * only when the last " [..]" holds a path ('/'...) or "???". A label without
 * ':' (PROGRAM TOTALS) has an empty file; a missing object is empty. */
typedef struct {
    const char *file, *function, *object;
    size_t file_length, function_length, object_length;
} AnnotateLabel;
AnnotateLabel annotate_split_label(const char *label);

/* Costs per source file (the label up to its first ':'; the " [object]"
 * suffix dropped), sorted by cost descending, then name. 0, or -1 when out
 * of memory or a sum overflows. The caller frees each name and the array. */
int annotate_sum_by_file(const AnnotateTable *table, Cost **costs, size_t *count);

#endif
