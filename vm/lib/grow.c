/* grow.c: doubling arrays (see grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *grow(void *items, size_t *capacity, size_t need, size_t size, size_t first) {
    if (need <= *capacity) {
        return items;
    }
    size_t grown = *capacity ? *capacity : first;
    while (grown < need) {
        if (grown > SIZE_MAX / 2) {
            return NULL;
        }
        grown *= 2;
    }
    if (grown > SIZE_MAX / size) {
        return NULL;
    }
    char *bytes = realloc(items, grown * size);
    if (bytes != NULL) {
        memset(bytes + *capacity * size, 0, (grown - *capacity) * size);
        *capacity = grown;
    }
    return bytes;
}
