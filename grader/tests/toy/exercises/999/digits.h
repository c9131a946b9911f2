/* digits.h: the chapter-999 exercise API, one function that writes a count with its digits
 * grouped in threes ("20,186,274,402"), as profilers print instruction counts.
 *
 * Chapter 999 is a toy: it lives in grader/tests/toy/ and exists so that the grader's tests
 * can run every command of the workbook on a second chapter (grader/tests/toy_spec.lua).
 * This header is the only copy; the checker, the reference and the grader compile against
 * it.
 */
#ifndef DRIP_DIGITS_H
#define DRIP_DIGITS_H

#include <stddef.h>
#include <stdint.h>

/* Writes value in decimal, a ',' before every group of three digits counted from the right,
 * and a terminating '\0' into out, which has room for size bytes. Returns the number of
 * characters written, the '\0' not counted. Returns -1 when the text and its '\0' do not fit
 * in size bytes; then out is left as it was. out may be NULL when size is 0. (The shipped
 * stub returns -1 and touches nothing: not written yet.)
 *
 *   group_digits(0, out, 32)           -> 1,  out = "0"
 *   group_digits(1000, out, 32)        -> 5,  out = "1,000"
 *   group_digits(20186274402, out, 32) -> 14, out = "20,186,274,402"
 *   group_digits(1234567, out, 10)     -> 9,  out = "1,234,567" (exactly fits)
 *   group_digits(1234567, out, 9)      -> -1, out unchanged (no room for the '\0')
 *
 * The longest text, UINT64_MAX's, is "18,446,744,073,709,551,615": 26 characters. */
int group_digits(uint64_t value, char *out, size_t size);

#endif
