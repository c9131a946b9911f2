/* profile.c: YOUR exercise for chapter 165. Read README.md in this folder first.
 *
 * Write the three functions below. profile.h has their exact contracts; the handout
 * (README.md) has the rules with examples and hints. Check your work with
 *
 *     make exercise-165
 *
 * which runs every public test in its own process, so a crash in one function cannot
 * hide the results of the others.
 *
 * Each stub returns -1 ("error / not written yet") and touches nothing, so every test
 * fails cleanly until you write the function.
 *
 * The first line below makes strdup and strndup available: they are POSIX, not C11, so
 * without it <string.h> does not declare them. Keep it above every #include.
 */
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <stdlib.h>
#include <string.h>

int parse_row(const char *line, Row *row) {
    (void)line;
    (void)row;
    return -1; /* TODO: parse one callgrind_annotate line (README.md, "parse_row") */
}

int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum) {
    (void)rows;
    (void)count;
    (void)needle;
    (void)sum;
    return -1; /* TODO: add up ir over the rows whose name contains needle */
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    (void)stacks;
    (void)count;
    (void)costs;
    (void)ncosts;
    return -1; /* TODO: inclusive cost per function over folded stacks */
}
