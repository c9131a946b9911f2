/* digits.c (grader/999/mutants): a second, independent implementation of the chapter-999 API
 * with a known fault that can be switched on (see mutants.lua beside it).
 *
 * Built with no FAULT_ macro it is correct, written separately from solutions/999 so that the
 * fault and the reference never share a blind spot by construction. Design: the value is cut
 * into groups of three digits by repeated division by 1000, most significant group first;
 * the first group is written without leading zeros, every later one as exactly three digits.
 */
#include "digits.h"

/* UINT64_MAX is 18,446,744,073,709,551,615: seven groups. */
#define MOST_GROUPS 7

/* Writes the n-digit decimal of v (n > 0, v < 10^n, leading zeros kept) at p. */
static void put_digits(char *p, unsigned v, int n) {
    for (int i = n - 1; i >= 0; i--) {
        p[i] = (char)('0' + v % 10);
        v /= 10;
    }
}

static int width(unsigned group) {
    return group >= 100 ? 3 : group >= 10 ? 2 : 1;
}

int group_digits(uint64_t value, char *out, size_t size) {
    unsigned groups[MOST_GROUPS];
    int ngroups = 0;
    do {
        groups[ngroups++] = (unsigned)(value % 1000);
        value /= 1000;
    } while (value > 0);
    int first = width(groups[ngroups - 1]);
    size_t length = (size_t)first + (size_t)(ngroups - 1) * 4; /* ",ddd" per later group */
#ifdef FAULT_NO_ROOM_FOR_NUL
    if (size < length) { /* forgets the '\0': writes one byte past a buffer of `length` */
        return -1;
    }
#else
    if (size <= length) {
        return -1;
    }
#endif
    char *p = out;
    put_digits(p, groups[ngroups - 1], first);
    p += first;
    for (int g = ngroups - 2; g >= 0; g--) {
        *p++ = ',';
        put_digits(p, groups[g], 3);
        p += 3;
    }
    *p = '\0';
    return (int)length;
}
