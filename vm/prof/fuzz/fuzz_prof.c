/* fuzz_prof.c -- libFuzzer entry points for dripprof's three readers.
 *
 * Built once per reader with -DFUZZ_READER=FUZZ_CALLGRIND, FUZZ_FOLDED or FUZZ_ANNOTATE
 * (prof.mk, `make fuzz-prof`). Each input is a whole file. An input the reader refuses must
 * come with a "NAME:LINE: " message; one it accepts goes on through what dripprof does
 * next with it, and the invariants that must then hold abort the run when they do not:
 *
 *   callgrind.out  fold it (bounded, FOLD_AUTO): the lines sum to the totals, and the
 *                  lines ending in each name sum to that name's self cost;
 *   folded stacks  the streamed reader agrees with the buffered one; the lines go into a
 *                  trie and a flame graph; top's self costs sum to the total;
 *   annotate       split into lines, with made-up parse_row() answers (any answers a
 *                  checker can give must give a table or one message), table and sums.
 *
 * ASan and UBSan catch the rest; libFuzzer's -rss_limit_mb and -timeout catch memory or
 * time that grows out of proportion to the input. */
#define _XOPEN_SOURCE 700 /* fmemopen, strndup */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "callgrind.h"
#include "costs.h"
#include "flame.h"
#include "fold.h"
#include "folded.h"
#include "top.h"
#include "trie.h"

#define FUZZ_CALLGRIND 1
#define FUZZ_FOLDED 2
#define FUZZ_ANNOTATE 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal must name the file and a line, or the file alone for a whole-file problem. */
static void check_message(const char *error) {
    if (error == NULL || strncmp(error, "fuzz:", 5) != 0) {
        fprintf(stderr, "refused without a NAME:LINE: message: %s\n", error ? error : "(null)");
        abort();
    }
}

static void check(int holds, const char *what) {
    if (!holds) {
        fprintf(stderr, "invariant broken: %s\n", what);
        abort();
    }
}

#if FUZZ_READER == FUZZ_CALLGRIND
/* Both lists sorted by name then cost must be equal: self costs per cleaned name. */
static void check_self_costs(const Callgrind *graph, const FoldResult *fold) {
    CostSums want = {0}, got = {0};
    for (size_t f = 0; f < graph->function_count; f++) {
        check(costs_add(&want, fold->names[f], strlen(fold->names[f]), graph->functions[f].self) ==
                  0,
              "self sums fit");
    }
    for (size_t i = 0; i < fold->count; i++) {
        char *stack = fold_stack(fold, i);
        check(stack != NULL, "fold_stack");
        const char *leaf = strrchr(stack, ';');
        leaf = leaf == NULL ? stack : leaf + 1;
        check(costs_add(&got, leaf, strlen(leaf), fold->lines[i].count) == 0, "line sums fit");
        free(stack);
    }
    Cost *a, *b;
    size_t na, nb, ia = 0, ib = 0;
    check(costs_sorted(&want, &a, &na) == 0 && costs_sorted(&got, &b, &nb) == 0, "sorted");
    for (; ia < na || ib < nb;) {
        if (ia < na && a[ia].cost == 0) { /* a function without self cost ends no line */
            ia++;
            continue;
        }
        check(ia < na && ib < nb && strcmp(a[ia].name, b[ib].name) == 0 && a[ia].cost == b[ib].cost,
              "the lines ending in each function sum to its self cost");
        ia++;
        ib++;
    }
    costs_free(a, na);
    costs_free(b, nb);
    costs_free_sums(&want);
    costs_free_sums(&got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Callgrind graph;
    if (callgrind_read_buffer("fuzz", (const char *)data, size, &graph) != 0) {
        check_message(graph.error);
    } else {
        FoldResult fold;
        const char *why = NULL;
        if (fold_callgrind(&graph, FOLD_AUTO, &fold, &why) == 0) {
            check(fold.total == graph.totals, "the lines sum to the totals");
            check_self_costs(&graph, &fold);
        } else {
            check(why != NULL, "a fold error has a message");
        }
        fold_free(&fold);
    }
    callgrind_free(&graph);
    return 0;
}

#elif FUZZ_READER == FUZZ_FOLDED
static int count_line(void *context, const char *stack, size_t length, uint64_t count,
                      const char **why) {
    (void)stack, (void)length, (void)count, (void)why;
    ++*(size_t *)context;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FoldedFile file;
    int status = folded_read_buffer("fuzz", (const char *)data, size, &file);
    FILE *in = size > 0 ? fmemopen((void *)data, size, "r") : NULL; /* 0 bytes: EINVAL */
    size_t streamed = 0;
    char *error = NULL;
    int stream_status =
        in == NULL ? status : folded_each_stream(in, "fuzz", count_line, &streamed, &error);
    check(status == stream_status, "streamed and buffered agree");
    if (status != 0) {
        check_message(file.error);
        if (in != NULL) {
            check_message(error);
        }
    } else {
        check(in == NULL || streamed == file.count, "streamed and buffered give the same lines");
        uint64_t total, self_total = 0;
        if (folded_total(&file, &total) == 0) {
            Cost *costs;
            size_t n;
            if (top_self_costs(file.lines, file.count, &costs, &n) == 0) {
                for (size_t i = 0; i < n; i++) {
                    self_total += costs[i].cost;
                }
                check(self_total == total, "top's self costs sum to the total");
                costs_free(costs, n);
            }
            Trie trie;
            const char *why = NULL;
            int ok = trie_init(&trie) == 0;
            for (size_t i = 0; ok && i < file.count; i++) {
                ok = trie_add(&trie, file.lines[i].stack, file.lines[i].length, file.lines[i].count,
                              &why) == 0;
            }
            if (ok && trie_finish(&trie) == 0) {
                check(trie.nodes[0].total == total, "the trie's root holds the total");
                FlameOptions options;
                flame_default_options(&options);
                FILE *out = fopen("/dev/null", "w");
                if (out != NULL) {
                    flame_write_trie(&trie, &options, out, &why);
                    fclose(out);
                }
            }
            trie_free(&trie);
        }
    }
    if (in != NULL) {
        fclose(in);
    }
    free(error);
    folded_free(&file);
    return 0;
}

#elif FUZZ_READER == FUZZ_ANNOTATE
/* Answers a checker could give: a row or not, any count and percentage, the line as name. */
static void answer(const AnnotateLine *line, size_t i, AnnotateRow *row) {
    size_t hash = i;
    for (size_t k = 0; k < line->length; k++) {
        hash = hash * 31 + (unsigned char)line->bytes[k];
    }
    *row = (AnnotateRow){.is_row = hash % 4 != 0,
                         .ir = hash % 1000003,
                         .has_pct = hash & 1,
                         .pct = (double)(hash % 1000) / 10.0};
    if (row->is_row) {
        row->name = strndup(line->bytes, line->length - (line->length > 0 &&
                                                         line->bytes[line->length - 1] == '\n'));
        check(row->name != NULL, "strndup");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int all = 0; all <= 1; all++) {
        AnnotateText text = {0};
        AnnotateTable table = {0};
        char *error = NULL;
        if (annotate_split("fuzz", (const char *)data, size, all, &text, &error) != 0) {
            check_message(error);
        } else {
            AnnotateRow *rows = calloc(text.asked + 1, sizeof *rows);
            check(rows != NULL, "calloc");
            for (size_t i = 0; i < text.asked; i++) {
                answer(&text.lines[i], i, &rows[i]);
            }
            if (annotate_table("fuzz", &text, rows, all, &table, &error) != 0) {
                check_message(error);
            } else {
                Cost *costs;
                size_t n;
                if (annotate_sum_by_file(&table, &costs, &n) == 0) {
                    costs_free(costs, n);
                }
                for (size_t i = 0; i < table.count; i++) {
                    annotate_split_label(table.rows[i].name);
                }
            }
            free(rows);
        }
        free(error);
        annotate_free(&table);
        annotate_free_text(&text);
    }
    return 0;
}
#else
#error "FUZZ_READER must be FUZZ_CALLGRIND, FUZZ_FOLDED or FUZZ_ANNOTATE"
#endif
