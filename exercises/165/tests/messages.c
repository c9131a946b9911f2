/* messages.c: how a failing test explains itself (see messages.h).
 *
 * A beginner must be able to act on a failure without reading the driver: the rule the
 * test checks, the call, the input with its blanks made visible, the expected and the
 * actual values in decimal (cmocka 1.1.5's own assertions print hex). Everything goes to
 * stderr, which the exercise runner shows; cmocka's status lines go to stdout.
 */
#include "messages.h"

#include <stdio.h>
#include <string.h>

/* Longest piece of an input shown in a message; longer text is cut with a note. */
#define SHOW_MAX 160

/* Writes one character of a message: control characters escaped (\n, \r, \t, \x1b), and
   blanks as '·' when they must be visible. */
static void put_visible(unsigned char c, bool blanks_visible) {
    if (c == ' ' && blanks_visible) {
        fputs("·", stderr);
    } else if (c == '\n') {
        fputs("\\n", stderr);
    } else if (c == '\r') {
        fputs("\\r", stderr);
    } else if (c == '\t') {
        fputs("\\t", stderr);
    } else if (c < 32 || c == 127) {
        fprintf(stderr, "\\x%02x", c);
    } else {
        fputc(c, stderr);
    }
}

/* Prints text with its blanks made visible ('·') and control characters escaped, cut
   after SHOW_MAX characters. */
void show(const char *text) {
    if (text == NULL) {
        fputs("NULL", stderr);
        return;
    }
    size_t length = strlen(text);
    fputc('"', stderr);
    for (size_t i = 0; i < length && i < SHOW_MAX; i++) {
        put_visible((unsigned char)text[i], true);
    }
    fputc('"', stderr);
    if (length > SHOW_MAX) {
        fprintf(stderr, "... (%zu characters in all)", length);
    }
}

/* Prints prose (a rule) on one line: control characters escaped as in show(), blanks kept. */
static void show_prose(const char *text) {
    for (const char *p = text; *p != '\0'; p++) {
        put_visible((unsigned char)*p, false);
    }
}

void show_line(const char *label, const char *text) {
    fprintf(stderr, "  %-9s ", label);
    show(text);
    fputc('\n', stderr);
}

/* The heading of a failure: which test, which rule, which call. */
bool describe_only; /* --describe: show the test, do not call the function */

void begin_failure(const Case *c, const char *call) {
    fprintf(stderr, "\n%s %s\n", describe_only ? "TEST" : "FAILED", c->name);
    const char *why = required(c, "why");
    const char *from = field(c, "from");
    fputs("  rule:     ", stderr);
    show_prose(why + strspn(why, " "));
    if (from != NULL) {
        fputs("\n  from:     ", stderr);
        show_prose(from + strspn(from, " "));
    }
    fputc('\n', stderr);
    fprintf(stderr, "  call:     %s\n", call);
}

const char *return_meaning(const char *function, int rc) {
    if (rc == -1) {
        return "an error; the shipped stub returns -1: not written yet?";
    }
    if (strcmp(function, "parse_row") == 0) {
        return rc == 1 ? "a row" : rc == 0 ? "not a row" : "not a value parse_row may return";
    }
    return rc == 0 ? "success" : "not a value this function may return";
}

/* What is left of a name from the first difference on: its text, or "the end" when there
   is none left (an empty "" there would read as if the name held quotes). */
static void show_rest(const char *rest) {
    if (rest[0] == '\0') {
        fprintf(stderr, "the end of the name");
    } else {
        show(rest);
    }
}

/* Where two strings first differ, for long names that are hard to compare by eye. */
void show_difference(const char *expected, const char *actual) {
    size_t i = 0;
    while (expected[i] != '\0' && expected[i] == actual[i]) {
        i++;
    }
    fprintf(stderr, "  the names first differ at character %zu: expected ", i + 1);
    show_rest(expected + i);
    fprintf(stderr, ", got ");
    show_rest(actual + i);
    fputc('\n', stderr);
}

/* The input was const, and the code under test wrote into it (strtok does). */
void show_changed_input(const char *what, const char *now) {
    fprintf(stderr, "  but:      your code changed the %s, which is now ", what);
    show(now);
    fprintf(stderr, "\n            (it is const, the caller's: read it, never write into it;"
                    " strtok writes)\n");
}
