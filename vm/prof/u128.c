/* u128.c: 128-bit products and divisions (see u128.h), done in the compiler's own
 * `unsigned __int128` (gcc and clang: the halves are only the interface). */
#include "u128.h"

#include <stddef.h>

/* __extension__: the type is gcc's and clang's, outside ISO C (quiet under -Wpedantic). */
__extension__ typedef unsigned __int128 Wide;

static Wide wide(U128 x) {
    return (Wide)x.high << 64 | x.low;
}

static U128 halves(Wide x) {
    return (U128){.high = (uint64_t)(x >> 64), .low = (uint64_t)x};
}

U128 u128_product(uint64_t a, uint64_t b) {
    return halves((Wide)a * b);
}

U128 u128_add(U128 x, uint64_t y) {
    return halves(wide(x) + y);
}

int u128_compare(U128 x, U128 y) {
    return (wide(x) > wide(y)) - (wide(x) < wide(y));
}

uint64_t u128_divide(U128 n, U128 d, U128 *remainder) {
    if (remainder != NULL) {
        *remainder = halves(wide(n) % wide(d));
    }
    return (uint64_t)(wide(n) / wide(d)); /* below 2^64: u128.h */
}
