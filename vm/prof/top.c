/* top.c: self and inclusive tables (see top.h).
 *
 * Self costs are summed per leaf frame through an Intern table (frame name
 * -> dense index); inclusive costs come from the exercise's inclusive()
 * (through exercise.h: the chapter's reference, or in the student edition the
 * student's own), so the workbook has one definition of "inclusive over
 * folded stacks" and none that a student could copy. Rows are sorted by cost, descending,
 * then by name (strcmp), like callgrind_annotate since valgrind 3.15.
 * Percentages use callgrind_annotate's format: " (%5.2f%%)", or "%5.1f" from
 * 99.995 up, so "(100.0%)" stays the same width as "(88.04%)".
 */
#include "top.h"

#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "intern.h"

static int commas(char *buffer, uint64_t value) {
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    int j = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buffer[j++] = ',';
        }
        buffer[j++] = digits[i];
    }
    buffer[j] = '\0';
    return j;
}

void top_write_row(FILE *out, uint64_t value, uint64_t total, int width, const char *name) {
    char count[40];
    commas(count, value);
    double pct = total ? 100.0 * (double)value / (double)total : 0.0;
    if (pct >= 99.995) {
        fprintf(out, "%*s (%5.1f%%)  %s\n", width, count, pct, name);
    } else {
        fprintf(out, "%*s (%5.2f%%)  %s\n", width, count, pct, name);
    }
}

int top_compare_costs(const void *pa, const void *pb) {
    const Cost *a = pa, *b = pb;
    if (a->cost != b->cost) {
        return a->cost > b->cost ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

/* Self cost per leaf frame, as a Cost array sorted like the inclusive one. */
static int self_costs(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    Intern names;
    intern_init(&names);
    uint64_t *sums = NULL;
    size_t capacity = 0;
    int status = -1;
    for (size_t i = 0; i < count; i++) {
        const char *leaf = strrchr(stacks[i].stack, ';');
        leaf = leaf ? leaf + 1 : stacks[i].stack;
        int64_t k = intern_add(&names, leaf, strlen(leaf));
        if (k < 0) {
            goto done;
        }
        if ((size_t)k >= capacity) {
            size_t grown_capacity = capacity ? capacity * 2 : 256;
            uint64_t *grown = realloc(sums, grown_capacity * sizeof *grown);
            if (grown == NULL) {
                goto done;
            }
            memset(grown + capacity, 0, (grown_capacity - capacity) * sizeof *grown);
            sums = grown;
            capacity = grown_capacity;
        }
        if (stacks[i].count > UINT64_MAX - sums[k]) {
            goto done;
        }
        sums[k] += stacks[i].count;
    }
    *ncosts = 0;
    *costs = malloc((names.count + 1) * sizeof **costs);
    if (*costs == NULL) {
        goto done;
    }
    for (size_t k = 0; k < names.count; k++) {
        if (sums[k] == 0) {
            continue;
        }
        char *name = malloc(names.keys[k].length + 1);
        if (name == NULL) {
            goto done;
        }
        memcpy(name, names.keys[k].bytes, names.keys[k].length + 1);
        (*costs)[(*ncosts)++] = (Cost){.name = name, .cost = sums[k]};
    }
    qsort(*costs, *ncosts, sizeof **costs, top_compare_costs);
    status = 0;
done:
    if (status != 0 && *costs != NULL) {
        for (size_t k = 0; k < *ncosts; k++) {
            free((*costs)[k].name);
        }
        free(*costs);
        *costs = NULL;
    }
    free(sums);
    intern_free(&names);
    return status;
}

static const char rule[] =
    "--------------------------------------------------------------------------------\n";

static void write_table(FILE *out, const char *heading, const Cost *costs, size_t n, uint64_t total,
                        const TopOptions *options) {
    size_t shown = options->limit && options->limit < n ? options->limit : n;
    char buffer[40];
    int width = commas(buffer, total);
    fprintf(out, "\n%s%-*s  function\n%s", rule, width + 10, heading, rule);
    for (size_t i = 0; i < shown; i++) {
        if (costs[i].cost > 0) {
            top_write_row(out, costs[i].cost, total, width, costs[i].name);
        }
    }
}

int top_write(const Folded *stacks, size_t count, uint64_t total, const TopOptions *options,
              FILE *out, const char **error) {
    Cost *self = NULL, *incl = NULL;
    size_t nself = 0, nincl = 0;
    *error = "out of memory or a cost above 64 bits";
    if (self_costs(stacks, count, &self, &nself) != 0) {
        return -1;
    }
    if (exercise_inclusive(stacks, count, &incl, &nincl, error) != 0) {
        exercise_free_costs(self, nself);
        return -1;
    }
    char buffer[40];
    int width = commas(buffer, total);
    char heading[128];
    fprintf(out, "%sProfile data file '%s' (%s)\nEvents shown:     %s\n%s\n", rule, options->source,
            options->kind, options->countname, rule);
    fprintf(out, "%s\n%s", options->countname, rule);
    top_write_row(out, total, total, width, "PROGRAM TOTALS");
    snprintf(heading, sizeof heading, "%s (self)", options->countname);
    write_table(out, heading, self, nself, total, options);
    snprintf(heading, sizeof heading, "%s (inclusive, once per stack)", options->countname);
    write_table(out, heading, incl, nincl, total, options);
    exercise_free_costs(self, nself);
    exercise_free_costs(incl, nincl);
    if (fflush(out) != 0 || ferror(out)) {
        *error = "write error";
        return -1;
    }
    *error = NULL;
    return 0;
}
