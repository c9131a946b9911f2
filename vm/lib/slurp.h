/* slurp.h: a whole stream into memory.
 *
 * The VM reads its source file this way, and dripprof its inputs (standard
 * input before it knows what it is, callgrind profiles, folded stacks,
 * callgrind_annotate output, a checker's answers): one reader for all of them. The buffer grows
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

/* The file at path, read as slurp reads a stream. NULL when it cannot be; *why (when why
 * is not NULL) then says why, for a message: "cannot open: REASON", "read error" or "out
 * of memory" (static storage, rewritten by the next call). */
char *slurp_file(const char *path, size_t *length, const char **why);

#endif
