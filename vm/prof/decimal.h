/* decimal.h: reading a count written in decimal.
 *
 * The callgrind reader (costs, ids, calls=), the checker's answers (ir=,
 * cost=, rank=) and dripprof's --limit all read unsigned decimal integers
 * that must fit in 64 bits; one parser gives them one rule: digits only, no
 * sign, blank or separator, and overflow is an error, never a wrap.
 */
#ifndef DRIP_PROF_DECIMAL_H
#define DRIP_PROF_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

/* Reads the digits at *text into *value and moves *text past them. 0, or -1 (and nothing
 * moves) when *text starts with no digit or the number is above UINT64_MAX. */
int decimal_read(const char **text, uint64_t *value);

/* The whole of text is one such number. */
bool decimal_parse(const char *text, uint64_t *value);

#endif
