/* decimal.c: unsigned 64-bit decimal numbers (see decimal.h). */
#include "decimal.h"

int decimal_read(const char **text, uint64_t *value) {
    const char *p = *text;
    uint64_t v = 0;
    if (*p < '0' || *p > '9') {
        return -1;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t digit = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10) {
            return -1;
        }
        v = v * 10 + digit;
    }
    *text = p;
    *value = v;
    return 0;
}

bool decimal_parse(const char *text, uint64_t *value) {
    return decimal_read(&text, value) == 0 && *text == '\0';
}
