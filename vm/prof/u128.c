/* u128.c: 128-bit products and divisions in two 64-bit halves (see u128.h).
 *
 * Product: schoolbook multiplication on 32-bit digits, four partial products.
 *
 * Division, by how large the numbers are:
 *   - both below 2^64: the processor's own 64-bit division;
 *   - a 64-bit divisor (the common case in fold: amounts and weights of a
 *     few billion instructions make products above 2^64): long division in
 *     base 2^32, two quotient digits, each estimated from the divisor's top
 *     digit and corrected at most twice (Knuth's algorithm D; the divisor is
 *     first shifted so its top bit is set, which is what bounds the
 *     corrections);
 *   - a divisor of 2^64 or more (a sum of weights that overflowed 64 bits:
 *     possible, never seen in a real profile): bit-by-bit long division, 64
 *     steps, since the quotient has at most 64 bits.
 */
#include "u128.h"

#include <stddef.h>

static const uint64_t LOW32 = 0xFFFFFFFFu;

U128 u128_product(uint64_t a, uint64_t b) {
    uint64_t a1 = a >> 32, a0 = a & LOW32, b1 = b >> 32, b0 = b & LOW32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* the middle column: at most three 32-bit values, no overflow */
    uint64_t middle = (p00 >> 32) + (p01 & LOW32) + (p10 & LOW32);
    return (U128){.high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32),
                  .low = (middle << 32) | (p00 & LOW32)};
}

U128 u128_add(U128 x, uint64_t y) {
    uint64_t low = x.low + y;
    return (U128){.high = x.high + (low < y), .low = low};
}

int u128_compare(U128 x, U128 y) {
    if (x.high != y.high) {
        return x.high < y.high ? -1 : 1;
    }
    return (x.low > y.low) - (x.low < y.low);
}

static U128 subtract(U128 x, U128 y) {
    return (U128){.high = x.high - y.high - (x.low < y.low), .low = x.low - y.low};
}

static U128 shift_left(U128 x, unsigned bits) {
    if (bits == 0) {
        return x;
    }
    if (bits >= 64) {
        return (U128){.high = x.low << (bits - 64), .low = 0};
    }
    return (U128){.high = (x.high << bits) | (x.low >> (64 - bits)), .low = x.low << bits};
}

static U128 shift_right(U128 x, unsigned bits) {
    if (bits == 0) {
        return x;
    }
    if (bits >= 64) {
        return (U128){.high = 0, .low = x.high >> (bits - 64)};
    }
    return (U128){.high = x.high >> bits, .low = (x.low >> bits) | (x.high << (64 - bits))};
}

/* Zero bits above the highest set bit of x (x > 0). */
static unsigned leading_zeros(uint64_t x) {
    unsigned zeros = 0;
    for (unsigned step = 32; step > 0; step /= 2) {
        if (x >> (64 - step) == 0) {
            zeros += step;
            x <<= step;
        }
    }
    return zeros;
}

/* One digit of base-2^32 long division: (top * 2^32 + next) / d for a normalized d (top bit
 * set) and top < d, so the digit is below 2^32. Returns it; *rest = the remainder (< d). */
static uint64_t divide_step(uint64_t top, uint64_t next, uint64_t d, uint64_t *rest) {
    uint64_t d1 = d >> 32, d0 = d & LOW32;
    uint64_t digit = top / d1, partial = top - digit * d1;
    /* The estimate from d's top digit is never too small and at most 2 too large. */
    while (digit > LOW32 || digit * d0 > ((partial << 32) | next)) {
        digit--;
        partial += d1;
        if (partial > LOW32) {
            break;
        }
    }
    *rest = ((top << 32) | next) - digit * d; /* exact modulo 2^64, and below d */
    return digit;
}

/* n / d for a divisor below 2^64 and n.high < d (the quotient fits in 64 bits). */
static uint64_t divide_by_64(U128 n, uint64_t d, uint64_t *remainder) {
    unsigned shift = leading_zeros(d);
    U128 m = shift_left(n, shift);
    d <<= shift;
    uint64_t rest;
    uint64_t q1 = divide_step(m.high, m.low >> 32, d, &rest);
    uint64_t q0 = divide_step(rest, m.low & LOW32, d, &rest);
    *remainder = rest >> shift;
    return (q1 << 32) | q0;
}

/* Bit by bit: at each step, d * 2^bit fits under what is left exactly when
 * (what is left) >> bit >= d, which cannot overflow. */
static uint64_t divide_bitwise(U128 n, U128 d, U128 *remainder) {
    uint64_t quotient = 0;
    for (unsigned bit = 64; bit-- > 0;) {
        if (u128_compare(shift_right(n, bit), d) >= 0) {
            n = subtract(n, shift_left(d, bit));
            quotient |= (uint64_t)1 << bit;
        }
    }
    *remainder = n;
    return quotient;
}

uint64_t u128_divide(U128 n, U128 d, U128 *remainder) {
    uint64_t quotient;
    U128 rest;
    if (n.high == 0 && d.high == 0) {
        quotient = n.low / d.low;
        rest = (U128){.high = 0, .low = n.low % d.low};
    } else if (d.high == 0) {
        rest.high = 0;
        quotient = divide_by_64(n, d.low, &rest.low);
    } else {
        quotient = divide_bitwise(n, d, &rest);
    }
    if (remainder != NULL) {
        *remainder = rest;
    }
    return quotient;
}
