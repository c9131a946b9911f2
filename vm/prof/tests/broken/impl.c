/* broken/impl.c: an implementation of the exercise that misbehaves on purpose.
 *
 * Linked into build/prof-tests/dripprof-broken, it shows what dripprof does with
 * a student's code that is wrong in the ways that would otherwise take dripprof
 * down (test_exercise.c). It answers the readiness probes (exercise.c) right, so
 * the trouble starts on real input: inclusive() crashes, recurses without end,
 * loops, or returns a nameless function, depending on a word in the first stack;
 * parse_row() claims every other line is a row but gives it no name.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "profile.h"

int parse_row(const char *line, Row *row) {
    row->ir = 1042;
    row->has_pct = true;
    row->pct = 50.0;
    row->name = NULL;
    if (strstr(line, "probe.c:probe") != NULL) {
        row->name = malloc(sizeof "probe.c:probe");
        if (row->name == NULL) {
            return -1;
        }
        strcpy(row->name, "probe.c:probe");
    }
    return 1;
}

int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum) {
    (void)rows;
    (void)count;
    (void)needle;
    (void)sum;
    return -1;
}

/* Without end in practice (the stack runs out long before depth does). */
static size_t recurse(size_t depth) {
    volatile char frame[256];
    frame[0] = (char)depth;
    return depth == SIZE_MAX ? 0 : recurse(depth + 1) + frame[0];
}

static int answer(const char *first, const char *second, uint64_t cost, Cost **costs,
                  size_t *ncosts) {
    *costs = calloc(2, sizeof **costs);
    if (*costs == NULL) {
        return -1;
    }
    (*costs)[0] = (Cost){.name = first ? strdup(first) : NULL, .cost = cost};
    (*costs)[1] = (Cost){.name = strdup(second), .cost = cost};
    *ncosts = 2;
    return 0;
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    const char *stack = count > 0 && stacks[0].stack != NULL ? stacks[0].stack : "";
    if (strcmp(stack, "main;f") == 0) {
        return answer("main", "f", stacks[0].count, costs, ncosts);
    }
    if (strstr(stack, "crash") != NULL) {
        volatile int *nowhere = NULL;
        return *nowhere;
    }
    if (strstr(stack, "deep") != NULL) {
        return (int)recurse(0);
    }
    if (strstr(stack, "loop") != NULL) {
        for (volatile unsigned spin = 0;; spin++) {
        }
    }
    if (strstr(stack, "nameless") != NULL) {
        return answer(NULL, "f", 1, costs, ncosts);
    }
    return -1;
}
