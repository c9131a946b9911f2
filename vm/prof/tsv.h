/* tsv.h: the workbook's escape, in C: tab-separated output for scripts
 * (`dripprof stacks`, `dripprof rows`) and the lines dripprof and a checker
 * exchange (checker.h).
 *
 * One record a line, fields separated by one TAB. A field never contains a
 * separator: backslash, TAB, CR and LF inside it are written \\, \t, \r and
 * \n, and every other byte outside 0x20..0x7e (control bytes, DEL, the bytes
 * of UTF-8) as \xHH in lowercase hex. That is vm/lib/workbook.lua's escape(),
 * so dripprof, the checkers and the Lua scripts write the same bytes for the
 * same text, and a line of escaped fields is plain ASCII. Names of C and Drip
 * functions need no escaping, so `awk -F'\t'` reads them as they are.
 */
#ifndef DRIP_PROF_TSV_H
#define DRIP_PROF_TSV_H

#include <stddef.h>
#include <stdio.h>

/* Writes text[0..length) as one field, escaped. */
void tsv_field(FILE *out, const char *text, size_t length);

/* Undoes the escape in place (a NUL follows the result): the new length, or -1 when text
 * holds a backslash that starts no escape. \xHH takes either case of hex digit. */
long tsv_unescape(char *text);

#endif
