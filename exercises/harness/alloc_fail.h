/* alloc_fail.h: make allocations fail on purpose, to test out-of-memory paths.
 *
 * An exercise's test binary is linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=strdup,--wrap=strndup (exercises.mk), so those calls, in the code
 * under test and in the driver, go through alloc_fail.c. Nothing fails until a test asks:
 *
 *     alloc_fail_from(1);      every allocation from now on returns NULL
 *     int rc = parse_row(line, &row);
 *     alloc_fail_from(0);      back to normal
 *
 * Calls inside the C library (qsort's buffer, stdio) are not wrapped and never fail.
 */
#ifndef HARNESS_ALLOC_FAIL_H
#define HARNESS_ALLOC_FAIL_H

/* From now on, allocation number n (1: the next one) and every later one return NULL;
   0: none fails. Also restarts the count. */
void alloc_fail_from(long n);

/* Allocations asked for since the last alloc_fail_from, failed ones included. */
long alloc_fail_count(void);

#endif
