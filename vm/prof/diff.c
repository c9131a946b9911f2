/* diff.c: differential folded stacks (see diff.h).
 *
 * diff_folded puts every line of both files into one array, tagged with the
 * side it came from, sorts it by stack with strcmp (bytewise, so the output
 * does not depend on the locale) and merges runs of equal stacks, adding
 * each side's counts. Sorting costs n log n for n lines in all, where a hash
 * table would be linear: the files we compare have thousands of lines, and
 * the sort gives the output order we need anyway.
 *
 * The totals are summed with overflow checks as the lines are merged, so
 * "each column adds up to its file's total" holds by construction and an
 * input whose sum does not fit in 64 bits is refused rather than wrapped.
 */
#include "diff.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"

static int compare_stacks(const void *a, const void *b) {
    return strcmp(((const DiffLine *)a)->stack, ((const DiffLine *)b)->stack);
}

/* *sum += value, or false when that would overflow. */
static bool add_checked(uint64_t *sum, uint64_t value) {
    if (value > UINT64_MAX - *sum) {
        return false;
    }
    *sum += value;
    return true;
}

int diff_folded(const FoldedFile *before, const FoldedFile *after, FoldedDiff *out,
                const char **error, int *which) {
    memset(out, 0, sizeof *out);
    *which = -1;
    size_t n = before->count + after->count;
    DiffLine *lines = malloc((n + 1) * sizeof *lines);
    if (lines == NULL) {
        *error = "out of memory";
        return -1;
    }
    for (size_t i = 0; i < before->count; i++) {
        lines[i] = (DiffLine){.stack = before->lines[i].stack, .before = before->lines[i].count};
    }
    for (size_t i = 0; i < after->count; i++) {
        lines[before->count + i] =
            (DiffLine){.stack = after->lines[i].stack, .after = after->lines[i].count};
    }
    qsort(lines, n, sizeof *lines, compare_stacks);
    size_t merged = 0;
    for (size_t i = 0; i < n; i++) {
        DiffLine *line = &lines[i];
        if (!add_checked(&out->before_total, line->before)) {
            *which = 0;
        } else if (!add_checked(&out->after_total, line->after)) {
            *which = 1;
        }
        if (*which >= 0) {
            free(lines);
            memset(out, 0, sizeof *out);
            *error = "the counts add up to more than 64 bits";
            return -1;
        }
        DiffLine *last = merged > 0 ? &lines[merged - 1] : NULL;
        if (last != NULL && strcmp(last->stack, line->stack) == 0) {
            /* cannot overflow: the column's total, checked above, is larger */
            last->before += line->before;
            last->after += line->after;
        } else {
            lines[merged++] = *line;
        }
    }
    /* Drop stacks whose counts are 0 on both sides (count-0 input lines). */
    size_t kept = 0;
    for (size_t i = 0; i < merged; i++) {
        if (lines[i].before != 0 || lines[i].after != 0) {
            lines[kept++] = lines[i];
        }
    }
    out->lines = lines;
    out->count = kept;
    return 0;
}

int diff_write(const FoldedDiff *diff, FILE *out) {
    for (size_t i = 0; i < diff->count; i++) {
        const DiffLine *line = &diff->lines[i];
        if (fprintf(out, "%s %" PRIu64 " %" PRIu64 "\n", line->stack, line->before, line->after) <
            0) {
            return -1;
        }
    }
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

void diff_free(FoldedDiff *diff) {
    free(diff->lines);
    memset(diff, 0, sizeof *diff);
}

static bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

int diff_split_first_count(const char *stack, size_t length, size_t *stack_length,
                           uint64_t *count) {
    size_t start = length;
    while (start > 0 && stack[start - 1] >= '0' && stack[start - 1] <= '9') {
        start--;
    }
    if (start == length || start == 0 || !is_blank(stack[start - 1])) {
        return 0;
    }
    size_t end = start;
    while (end > 0 && is_blank(stack[end - 1])) {
        end--;
    }
    if (end == 0 || stack[end - 1] == ';') {
        return 0; /* "5 7" or "a; 5 7": no stack before the first count */
    }
    const char *digits = stack + start; /* up to the NUL at stack[length] */
    if (decimal_read(&digits, count) != 0) {
        return -1;
    }
    *stack_length = end;
    return 1;
}

/* The lines after a first line with two counts, and the first line itself.
 * Kept out of line so that the plain case pays for nothing it does not use. */
__attribute__((noinline)) static int visit_differential(DiffReader *reader, const char *stack,
                                                        size_t length, uint64_t count,
                                                        const char **why) {
    size_t real_length;
    uint64_t first;
    int split = diff_split_first_count(stack, length, &real_length, &first);
    if (split < 0) {
        *why = "the first count does not fit in 64 bits";
        return -1;
    }
    if (reader->counts == 0) {
        reader->counts = split ? 2 : 1;
        if (split == 0) {
            return trie_add(reader->trie, stack, length, count, why);
        }
    }
    if (!split) {
        *why = "one count, but the first line had two (a differential file needs "
               "BEFORE and AFTER on every line)";
        return -1;
    }
    return trie_add_pair(reader->trie, stack, real_length, first, count, why);
}

int diff_reader_visit(void *context, const char *stack, size_t length, uint64_t count,
                      const char **why) {
    DiffReader *reader = context;
    if (reader->counts == 1) { /* a plain file, decided by its first line: the usual case */
        return trie_add(reader->trie, stack, length, count, why);
    }
    return visit_differential(reader, stack, length, count, why);
}
