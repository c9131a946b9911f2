/* digits.c: the reference for chapter 999 (solutions/999).
 *
 * The digits come out of value % 10 least significant first, so they are collected
 * backwards in a local array; the text's length is then known before anything is
 * written, which is what lets a text that does not fit leave out untouched.
 */
#include "digits.h"

/* UINT64_MAX has 20 digits. */
#define MOST_DIGITS 20

int group_digits(uint64_t value, char *out, size_t size) {
    char backwards[MOST_DIGITS];
    size_t ndigits = 0;
    do {
        backwards[ndigits++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    size_t length = ndigits + (ndigits - 1) / 3; /* one comma per full group but the first */
    if (size < length + 1) {
        return -1;
    }
    /* Fill from the end: the i-th digit from the right gets a comma after it (to its
       right) whenever i is a multiple of three. */
    char *p = out + length;
    *p = '\0';
    for (size_t i = 0; i < ndigits; i++) {
        if (i > 0 && i % 3 == 0) {
            *--p = ',';
        }
        *--p = backwards[i];
    }
    return (int)length;
}
