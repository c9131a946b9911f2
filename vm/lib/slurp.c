/* slurp.c: a whole stream into memory (see slurp.h). */
#include "slurp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

char *slurp_file(const char *path, size_t *length, const char **why) {
    static char reason[160];
    FILE *in = fopen(path, "rb");
    char *data = in ? slurp(in, length) : NULL;
    if (data == NULL && why != NULL) {
        if (in == NULL) {
            snprintf(reason, sizeof reason, "cannot open: %s", strerror(errno));
        }
        *why = in == NULL ? reason : ferror(in) ? "read error" : "out of memory";
    }
    if (in != NULL) {
        fclose(in);
    }
    return data;
}
