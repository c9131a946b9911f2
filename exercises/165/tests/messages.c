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

/* Prints text with its blanks made visible ('·') and control characters escaped, cut
   after SHOW_MAX characters. */
void show(const char *text) {
    size_t length = strlen(text);
    fputc('"', stderr);
    for (size_t i = 0; i < length && i < SHOW_MAX; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == ' ') {
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
    fputc('"', stderr);
    if (length > SHOW_MAX) {
        fprintf(stderr, "... (%zu characters in all)", length);
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
    fprintf(stderr, "  rule:     %s\n", why + strspn(why, " "));
    if (from != NULL) {
        fprintf(stderr, "  from:     %s\n", from + strspn(from, " "));
    }
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

/* Where two strings first differ, for long names that are hard to compare by eye. */
void show_difference(const char *expected, const char *actual) {
    size_t i = 0;
    while (expected[i] != '\0' && expected[i] == actual[i]) {
        i++;
    }
    fprintf(stderr, "  the names first differ at character %zu: expected ", i + 1);
    show(expected + i);
    fprintf(stderr, ", got ");
    show(actual + i);
    fputc('\n', stderr);
}
