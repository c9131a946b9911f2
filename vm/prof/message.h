/* message.h: an error about a place in a file, "NAME:LINE: why".
 *
 * Every reader of dripprof words its errors this way (the callgrind.out
 * reader, the folded-stacks reader, the annotate table), so a message always
 * names the file and, where there is one, the 1-based line.
 */
#ifndef DRIP_PROF_MESSAGE_H
#define DRIP_PROF_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>

/* "NAME:LINE: " (or "NAME: " when line is 0) and the formatted why, malloc'd; NULL when
 * out of memory. */
char *message_at(const char *name, size_t line, const char *format, va_list args);

/* Sets *error to message_at's message (NULL when out of memory) and returns -1, for a
 * reader's `return message_fail(error, ...)`. */
int message_fail(char **error, const char *name, size_t line, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#endif
