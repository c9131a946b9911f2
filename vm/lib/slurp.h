/* slurp.h: a whole stream into memory.
 *
 * The VM reads its source file this way, and dripprof its inputs (standard
 * input before it knows what it is, callgrind profiles, callgrind_annotate
 * output, a checker's answers): one reader for all of them. The buffer grows
 * by doubling, so pipes and /dev files work as well as regular files.
 */
#ifndef DRIP_LIB_SLURP_H
#define DRIP_LIB_SLURP_H

#include <stddef.h>
#include <stdio.h>

/* Reads in to its end into a malloc'd buffer with a NUL after the last byte (the data may
 * hold NULs of its own: *length counts them). NULL when out of memory or on a read error;
 * ferror(in) tells which. */
char *slurp(FILE *in, size_t *length);

#endif
