/* annotate.h: the rows of callgrind_annotate output, and its function table.
 *
 * Which lines are rows is the chapter's parse_row() to say: dripprof splits
 * the file into lines, asks a checker for parse_row()'s answer on each
 * (checker.h), and builds the table from those answers here, so the workbook has
 * one reader of annotate rows (in the student edition, the student's own).
 * Only the function table counts: the rows after the "Ir ... file:function"
 * header and its dash rule, up to the first blank line (source annotations
 * further down can look like rows). The "PROGRAM TOTALS" row above the table
 * gives the total.
 *
 * `dripprof files` uses it to split a profile by source file: a row's label
 * is FILE:FUNCTION [OBJECT], and code inlined from a header is charged to
 * the header (callgrind's fi=/fe=), which shows where inlined helpers
 * went. `dripprof rows` prints the rows with their line
 * numbers and labels split, for scripts that would otherwise parse them.
 */
#ifndef DRIP_PROF_ANNOTATE_H
#define DRIP_PROF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "top.h"

/* parse_row()'s answer for one line. */
typedef struct {
    bool is_row;
    uint64_t ir;
    bool has_pct; /* the row shows a percentage */
    double pct;
    char *name;  /* malloc'd; NULL when !is_row */
    size_t line; /* in a table: the 1-based line of the row */
} AnnotateRow;

typedef struct {
    const char *bytes; /* the line with its "\n" (a last line may have none); no NUL inside */
    size_t length;
} AnnotateLine;

/* The lines of a file, and how many of them parse_row() must read. */
typedef struct {
    AnnotateLine *lines;
    size_t count;
    size_t asked; /* every line, or (the function table) the lines up to its end */
} AnnotateText;

typedef struct {
    AnnotateRow *rows; /* the function table (or every row), in file order */
    size_t count;
    AnnotateRow total; /* PROGRAM TOTALS, as parse_row read it; is_row once found */
} AnnotateTable;

/* Splits data[0..length) (which must outlive *text) into lines. With all, parse_row()
 * reads every line; otherwise the lines up to the blank line that ends the function
 * table. 0, or -1 with *error set (malloc'd "NAME:LINE: why"): a NUL byte in a line to
 * read, no function table, no line at all. annotate_free_text(text) either way. */
int annotate_split(const char *name, const char *data, size_t length, bool all, AnnotateText *text,
                   char **error);

void annotate_free_text(AnnotateText *text);

/* The table (all: every row) from answers[0..text->asked), parse_row()'s answers on those
 * lines; takes the names of the rows it keeps and frees the others. 0, or -1 with *error
 * set as above (a line inside the table that is not a row, no PROGRAM TOTALS row, no row
 * at all). annotate_free(table) either way. */
int annotate_table(const char *name, const AnnotateText *text, AnnotateRow *answers, bool all,
                   AnnotateTable *table, char **error);

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
 * of memory or a sum overflows. costs_free frees them. */
int annotate_sum_by_file(const AnnotateTable *table, Cost **costs, size_t *count);

#endif
