/* slurp.c: a whole stream into memory (see slurp.h). */
#include "slurp.h"

#include <stdlib.h>

enum { FIRST_CAPACITY = 1 << 16 };

char *slurp(FILE *in, size_t *length) {
    size_t capacity = FIRST_CAPACITY, used = 0;
    char *data = malloc(capacity);
    while (data != NULL) {
        used += fread(data + used, 1, capacity - used - 1, in);
        if (used < capacity - 1) {
            break; /* the end, or an error */
        }
        char *grown = realloc(data, capacity *= 2);
        if (grown == NULL) {
            free(data);
        }
        data = grown;
    }
    if (data == NULL || ferror(in)) {
        free(data);
        return NULL;
    }
    data[used] = '\0';
    *length = used;
    return data;
}
