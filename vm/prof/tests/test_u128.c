/* test_u128.c: 128-bit products and divisions in two halves (vm/prof/u128.c).
 *
 * The division is checked on numbers at the edges of 32 and 64 bits, where
 * carries happen, by the identity n = q * d + r with r < d, computed on the
 * halves; where the compiler has a 128-bit type it is a second judge. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include "u128.h"

static const uint64_t edges[] = {
    0,
    1,
    2,
    3,
    7,
    10000,
    0x7FFFFFFFu,
    0x80000000u,
    0xFFFFFFFEu,
    0xFFFFFFFFu,
    0x100000000u,
    0x100000001u,
    0x123456789ABCDEFu,
    4792818481u, /* fib(35)'s instructions: the size of real costs */
    0x7FFFFFFFFFFFFFFFu,
    0x8000000000000000u,
    0x8000000000000001u,
    0xFFFFFFFF00000000u,
    0xFFFFFFFFFFFFFFFEu,
    UINT64_MAX,
};
enum { EDGES = sizeof edges / sizeof edges[0] };

static void products_at_the_edges(void **state) {
    (void)state;
    U128 p = u128_product(UINT64_MAX, UINT64_MAX); /* 2^128 - 2^65 + 1 */
    assert_true(p.high == 0xFFFFFFFFFFFFFFFEu && p.low == 1);
    p = u128_product(0x100000000u, 0x100000000u); /* 2^64 */
    assert_true(p.high == 1 && p.low == 0);
    p = u128_product(4792818481u, 10000);
    assert_true(p.high == 0 && p.low == 47928184810000u);
    p = u128_add((U128){.high = 0, .low = UINT64_MAX}, 1);
    assert_true(p.high == 1 && p.low == 0);
    assert_int_equal(u128_compare((U128){1, 0}, (U128){0, UINT64_MAX}), 1);
    assert_int_equal(u128_compare((U128){0, 5}, (U128){0, 6}), -1);
    assert_int_equal(u128_compare((U128){3, 5}, (U128){3, 5}), 0);
}

/* n = q * d + r and r < d (the product and the sum are checked above, so they can judge
 * the division): q * d is q * d.low plus q * d.high shifted by 64 bits. */
static void check_division(U128 n, U128 d) {
    U128 r;
    uint64_t q = u128_divide(n, d, &r);
    U128 back = u128_product(q, d.low);
    back.high += q * d.high;
    uint64_t low = back.low + r.low;
    U128 sum = {.high = back.high + r.high + (low < back.low), .low = low};
    if (u128_compare(sum, n) != 0 || u128_compare(r, d) >= 0) {
        fail_msg("(%#llx:%016llx) / (%#llx:%016llx) gave q %#llx r (%#llx:%016llx)",
                 (unsigned long long)n.high, (unsigned long long)n.low, (unsigned long long)d.high,
                 (unsigned long long)d.low, (unsigned long long)q, (unsigned long long)r.high,
                 (unsigned long long)r.low);
    }
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 Wide;
    Wide wn = (Wide)n.high << 64 | n.low, wd = (Wide)d.high << 64 | d.low;
    Wide wr = (Wide)r.high << 64 | r.low;
    assert_true(q == (uint64_t)(wn / wd) && wr == wn % wd);
#endif
}

static void check_64(U128 n, uint64_t d) {
    check_division(n, (U128){.high = 0, .low = d});
}

static void divisions_by_64_bits(void **state) {
    (void)state;
    size_t checked = 0;
    for (size_t a = 0; a < EDGES; a++) {
        for (size_t b = 0; b < EDGES; b++) {
            for (size_t c = 0; c < EDGES; c++) {
                uint64_t d = edges[c];
                if (d == 0) {
                    continue;
                }
                /* a * b / d has a 64-bit quotient when a * b < d * 2^64 */
                U128 n = u128_product(edges[a], edges[b]);
                if (n.high < d) {
                    check_64(n, d);
                    checked++;
                }
                U128 m = u128_add(n, d - 1);
                if (m.high >= n.high && m.high < d) {
                    check_64(m, d);
                    checked++;
                }
            }
        }
    }
    assert_true(checked > EDGES * EDGES * EDGES / 2);
}

static void divisions_by_more_than_64_bits(void **state) {
    (void)state;
    /* a sum of weights past 2^64: (2^64 + 2^63) splits 2^63 * 3 as 1 : 2 */
    U128 d = {.high = 1, .low = 0x8000000000000000u};
    U128 r;
    uint64_t q = u128_divide(u128_product(0x8000000000000000u, 3), d, &r);
    assert_true(q == 1 && r.high == 0 && r.low == 0);
    q = u128_divide(u128_product(UINT64_MAX, UINT64_MAX), (U128){.high = 1, .low = 0}, &r);
    assert_true(q == 0xFFFFFFFFFFFFFFFEu && r.high == 0 && r.low == 1);
    for (size_t a = 0; a < EDGES; a++) {
        for (size_t b = 0; b < EDGES; b++) {
            /* any divisor of 2^64 or more leaves a quotient below 2^64 */
            check_division(u128_product(edges[a], edges[b]),
                           (U128){.high = 1 + edges[b] % 5, .low = edges[a]});
            check_division(u128_product(edges[a], edges[b]),
                           (U128){.high = edges[a] | 1, .low = edges[b]});
        }
    }
}

PROF_TEST_GROUP(u128_tests, "u128", cmocka_unit_test(products_at_the_edges),
                cmocka_unit_test(divisions_by_64_bits),
                cmocka_unit_test(divisions_by_more_than_64_bits))
