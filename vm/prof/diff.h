/* diff.h: differential folded stacks, the input of a differential flame graph.
 *
 * `dripprof diff BEFORE.folded AFTER.folded` compares two profiles of the
 * same program. It writes one line per distinct stack of either file,
 *
 *     main;interpret;runPlain;callValue 0 1074985330
 *
 * the stack, then its count in BEFORE, then its count in AFTER: a stack that
 * one file lacks has 0 there, and repeated lines of one file are summed. The
 * lines are sorted bytewise by stack, so the same inputs give the same bytes,
 * and each column adds up exactly to its file's total.
 *
 * `dripprof flame` draws such a file (flame.h): widths from AFTER, colours
 * from the change. It streams its input through DiffReader, which decides
 * from the first line whether the file has one count per line or two: the
 * folded format has no header to say so, and a frame may contain blanks, so
 * "a;b 5 7" could be the stack "a;b 5" with count 7. The first line settles
 * it (two counts: differential), and every later line must agree, so a
 * mixed file is an error at the first line that differs. A one-count file
 * whose first stack ends in " 5" would be misread; no profiler we read
 * writes such names.
 */
#ifndef DRIP_PROF_DIFF_H
#define DRIP_PROF_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "folded.h"
#include "trie.h"

typedef struct {
    const char *stack; /* points into one of the two input files */
    uint64_t before, after;
} DiffLine;

typedef struct {
    DiffLine *lines; /* sorted bytewise by stack, one per distinct stack */
    size_t count;
    uint64_t before_total, after_total;
} FoldedDiff;

/* Merges two read files into *out (whose stacks point into the files, so
 * they must outlive it). Lines whose counts are both 0 are left out.
 * 0, or -1 with *error set to a static message (out of memory, or a sum
 * above 64 bits, which also names the file through *which: 0 BEFORE,
 * 1 AFTER). */
int diff_folded(const FoldedFile *before, const FoldedFile *after, FoldedDiff *out,
                const char **error, int *which);

/* Writes "stack BEFORE AFTER" lines. 0, or -1 on a write error. */
int diff_write(const FoldedDiff *diff, FILE *out);

void diff_free(FoldedDiff *diff);

/* Whether a stack as the folded reader returned it ("a;b 5" from the line
 * "a;b 5 7", NUL-terminated) carries a first count: 1, setting *stack_length
 * to the length of the real stack and *count to that first count; 0; or -1
 * when the first count does not fit in 64 bits. */
int diff_split_first_count(const char *stack, size_t length, size_t *stack_length, uint64_t *count);

/* The visitor `dripprof flame` streams lines through (folded_each_file):
 * adds each line to the trie, with trie_add_pair for a differential file. */
typedef struct {
    Trie *trie;
    int counts; /* 0 until the first line, then 1 or 2 counts per line */
} DiffReader;

int diff_reader_visit(void *reader, const char *stack, size_t length, uint64_t count,
                      const char **why);

#endif
