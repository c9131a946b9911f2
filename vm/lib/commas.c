/* commas.c: thousands separators (see commas.h). */
#include "commas.h"

#include <stdio.h>

const char *commas(uint64_t value, char *buffer) {
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    int j = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buffer[j++] = ',';
        }
        buffer[j++] = digits[i];
    }
    buffer[j] = '\0';
    return buffer;
}
