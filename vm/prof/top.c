/* top.c: self and inclusive tables (see top.h).
 *
 * Self costs are summed per leaf frame (costs.h). Inclusive costs are the chapter's inclusive()
 * answer, written in the order it gave them (its contract sorts them as costs_compare does). A row
 * of cost 0 is not shown. Percentages use callgrind_annotate's format: " (%5.2f%%)", or "%5.1f"
 * from 99.995 up, so "(100.0%)" stays the same width as "(88.04%)".
 */
#include "top.h"

#include <stdlib.h>
#include <string.h>

#include "commas.h"

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

int top_self_costs(const FoldedLine *stacks, size_t count, Cost **costs, size_t *ncosts) {
    CostSums sums = {0};
    int status = 0;
    for (size_t i = 0; status == 0 && i < count; i++) {
        const char *leaf = strrchr(stacks[i].stack, ';');
        leaf = leaf ? leaf + 1 : stacks[i].stack;
        status = costs_add(&sums, leaf, strlen(leaf), stacks[i].count);
    }
    return costs_finish(&sums, status, costs, ncosts);
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
