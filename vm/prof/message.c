/* message.c: "NAME:LINE: why" (see message.h). */
#include "message.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *message_at(const char *name, size_t line, const char *format, va_list args) {
    char why[512];
    vsnprintf(why, sizeof why, format, args);
    size_t size = strlen(name) + strlen(why) + 32;
    char *message = malloc(size);
    if (message != NULL && line > 0) {
        snprintf(message, size, "%s:%zu: %s", name, line, why);
    } else if (message != NULL) {
        snprintf(message, size, "%s: %s", name, why);
    }
    return message;
}

int message_fail(char **error, const char *name, size_t line, const char *format, ...) {
    va_list args;
    va_start(args, format);
    *error = message_at(name, line, format, args);
    va_end(args);
    return -1;
}
