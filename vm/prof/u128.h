/* u128.h: unsigned 128-bit numbers as two 64-bit halves, for exact a * b / d.
 *
 * The profiler scales 64-bit counts by 64-bit weights: fold splits a cost
 * among callers in proportion to the calls' inclusive costs (amount * weight /
 * total), flame prints shares (count * 10000 / total) and scales colours.
 * The products need 128 bits: u128.c computes them in gcc's and clang's
 * `unsigned __int128` (an extension of C11, which both accept warning-free);
 * the interface keeps two 64-bit halves: a product, a sum, a comparison and
 * one division are all that is needed.
 *
 * Every division here has a quotient below 2^64 (a share of an amount, a
 * percentage, a colour step), so u128_divide returns a uint64_t and its
 * caller states why the quotient fits.
 */
#ifndef DRIP_PROF_U128_H
#define DRIP_PROF_U128_H

#include <stdint.h>

typedef struct {
    uint64_t high;
    uint64_t low;
} U128;

/* a * b, exactly. */
U128 u128_product(uint64_t a, uint64_t b);

/* x + y; the caller keeps the sum below 2^128 (sums of at most 2^64 terms of 64 bits). */
U128 u128_add(U128 x, uint64_t y);

/* -1, 0 or 1 as x is below, equal to or above y. */
int u128_compare(U128 x, U128 y);

/* n / d and, when remainder is not NULL, n % d. d must not be 0 and the quotient must be
 * below 2^64 (n / d < 2^64): every caller divides a product a * b by a d >= b. */
uint64_t u128_divide(U128 n, U128 d, U128 *remainder);

#endif
