/* messages.h: the failure messages of the exercise-165 tests (see messages.c). */
#ifndef EX165_MESSAGES_H
#define EX165_MESSAGES_H

#include <stdbool.h>

#include "fixtures.h"

/* Set by --describe: tests print what they would check and call nothing. */
extern bool describe_only;

/* Prints text in quotes, blanks as '·', control characters escaped, long text cut; NULL
   as NULL. */
void show(const char *text);
/* "  label     \"text\"" on its own line. */
void show_line(const char *label, const char *text);
/* The heading of a failure (or of a --describe): test name, rule, origin, call. */
void begin_failure(const Case *c, const char *call);
/* What a return value means, in words ("a row", "an error; ..."). */
const char *return_meaning(const char *function, int rc);
/* Where two strings first differ, for long names that are hard to compare by eye. */
void show_difference(const char *expected, const char *actual);
/* "but: your code changed the WHAT, which is now ...": a const input was written into. */
void show_changed_input(const char *what, const char *now);

#endif
