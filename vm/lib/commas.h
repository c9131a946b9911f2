/* commas.h: counts as callgrind_annotate prints them, "20,186,274,402".
 *
 * One formatter for the VM's reports (drip --count, --profile) and the
 * profiler's tables and tooltips (dripprof top, files, flame), so the same
 * count reads the same everywhere.
 */
#ifndef DRIP_LIB_COMMAS_H
#define DRIP_LIB_COMMAS_H

#include <stdint.h>

/* Room for the longest: UINT64_MAX's 20 digits, 6 commas and the NUL. */
enum { COMMAS_SIZE = 27 };

/* Writes value with a comma before every group of three digits from the right into
 * buffer (COMMAS_SIZE bytes) and returns buffer, for printf's %s. */
const char *commas(uint64_t value, char *buffer);

#endif
