/* top.c: self and inclusive tables (see top.h).
 *
 * Self costs are summed per leaf frame through an Intern table (frame name
 * -> dense index). Inclusive costs are the chapter's inclusive() answer,
 * written in the order it gave them (its contract sorts them as
 * top_compare_costs does). Percentages use callgrind_annotate's format:
 * " (%5.2f%%)", or "%5.1f" from 99.995 up, so "(100.0%)" stays the same
 * width as "(88.04%)".
 */
#include "top.h"

#include <stdlib.h>
#include <string.h>

#include "commas.h"
#include "intern.h"

int top_width(uint64_t total) {
    char buffer[COMMAS_SIZE];
    return (int)strlen(commas(total, buffer));
}

void top_write_row(FILE *out, uint64_t value, uint64_t total, int width, const char *name) {
    char count[COMMAS_SIZE];
    double pct = total ? 100.0 * (double)value / (double)total : 0.0;
    fprintf(out, pct >= 99.995 ? "%*s (%5.1f%%)  %s\n" : "%*s (%5.2f%%)  %s\n", width,
            commas(value, count), pct, name);
}

int top_compare_costs(const void *pa, const void *pb) {
    const Cost *a = pa, *b = pb;
    if (a->cost != b->cost) {
        return a->cost > b->cost ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

void top_free_costs(Cost *costs, size_t count) {
    while (costs != NULL && count > 0) {
        free(costs[--count].name);
    }
    free(costs);
}

/* sums[k] += count, growing sums (zeroed) to hold index k. 0, or -1. */
static int add_to_sum(uint64_t **sums, size_t *capacity, size_t k, uint64_t count) {
    if (k >= *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 256;
        uint64_t *grown = realloc(*sums, grown_capacity * sizeof *grown);
        if (grown == NULL) {
            return -1;
        }
        memset(grown + *capacity, 0, (grown_capacity - *capacity) * sizeof *grown);
        *sums = grown;
        *capacity = grown_capacity;
    }
    if (count > UINT64_MAX - (*sums)[k]) {
        return -1;
    }
    (*sums)[k] += count;
    return 0;
}

/* The names with a sum above 0, as Cost rows. */
static int costs_of(const Intern *names, const uint64_t *sums, Cost **costs, size_t *ncosts) {
    *ncosts = 0;
    *costs = malloc((names->count + 1) * sizeof **costs);
    for (size_t k = 0; *costs != NULL && k < names->count; k++) {
        if (sums[k] == 0) {
            continue;
        }
        char *name = malloc(names->keys[k].length + 1);
        if (name == NULL) {
            top_free_costs(*costs, *ncosts);
            *costs = NULL;
            break;
        }
        memcpy(name, names->keys[k].bytes, names->keys[k].length + 1);
        (*costs)[(*ncosts)++] = (Cost){.name = name, .cost = sums[k]};
    }
    return *costs == NULL ? -1 : 0;
}

int top_self_costs(const FoldedLine *stacks, size_t count, Cost **costs, size_t *ncosts) {
    Intern names;
    intern_init(&names);
    uint64_t *sums = NULL;
    size_t capacity = 0;
    int status = 0;
    for (size_t i = 0; status == 0 && i < count; i++) {
        const char *leaf = strrchr(stacks[i].stack, ';');
        leaf = leaf ? leaf + 1 : stacks[i].stack;
        int64_t k = intern_add(&names, leaf, strlen(leaf));
        status = k < 0 ? -1 : add_to_sum(&sums, &capacity, (size_t)k, stacks[i].count);
    }
    *costs = NULL;
    *ncosts = 0;
    if (status == 0 && names.count > 0) {
        status = costs_of(&names, sums, costs, ncosts);
    }
    if (status == 0) {
        qsort(*costs, *ncosts, sizeof **costs, top_compare_costs);
    }
    free(sums);
    intern_free(&names);
    return status;
}

static const char rule[] =
    "--------------------------------------------------------------------------------\n";

static void write_table(FILE *out, const char *heading, const Cost *costs, size_t n,
                        const TopReport *report) {
    size_t shown = report->limit && report->limit < n ? report->limit : n;
    int width = top_width(report->total);
    fprintf(out, "\n%s%-*s  function\n%s", rule, width + 10, heading, rule);
    for (size_t i = 0; i < shown; i++) {
        if (costs[i].cost > 0) {
            top_write_row(out, costs[i].cost, report->total, width, costs[i].name);
        }
    }
}

int top_write(const TopReport *report, FILE *out) {
    char heading[128];
    fprintf(out, "%sProfile data file '%s' (%s)\nEvents shown:     %s\n%s\n", rule, report->source,
            report->kind, report->countname, rule);
    fprintf(out, "%s\n%s", report->countname, rule);
    top_write_row(out, report->total, report->total, top_width(report->total), "PROGRAM TOTALS");
    snprintf(heading, sizeof heading, "%s (self)", report->countname);
    write_table(out, heading, report->self, report->nself, report);
    if (report->inclusive != NULL) {
        snprintf(heading, sizeof heading, "%s (inclusive, once per stack)", report->countname);
        write_table(out, heading, report->inclusive, report->ninclusive, report);
    }
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
