/* folded.h: the workbook's one reader of folded stacks.
 *
 * A folded-stacks file has one stack per line, frames root first, joined by
 * ';', then blanks or TABs and an integer count:
 *
 *     main;run;call_value;call 2418717018
 *
 * dripprof (top, flame, stacks, diff) reads these files through this module
 * only, and the workbook's scripts read them through `dripprof stacks`, so
 * every tool accepts and rejects the same lines.
 * The exact rules (and why) are at the top of folded.c; in short:
 *
 *   - the count is the text after the LAST run of blanks/TABs; it is a decimal
 *     integer that fits in uint64_t (no sign, decimals, exponent or separators);
 *   - frames may contain blanks and anything else except ';' and control
 *     characters; an empty stack or an empty frame ("a;;b", "a;") is an error;
 *   - CRLF line ends, trailing blanks, blank lines and a last line without a
 *     newline are fine; NUL bytes and other control characters are errors;
 *   - there is no comment syntax: "# note 5" is a stack with one frame;
 *   - there are no length limits.
 *
 * Every error names the file and the 1-based line: "f.folded:3: no count".
 * folded_read_* keep the whole file in one buffer and point into it (one
 * allocation for the text and one for the index); folded_each_* stream the
 * lines to a callback instead.
 */
#ifndef DRIP_PROF_FOLDED_H
#define DRIP_PROF_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    const char *stack; /* "main;run;fib", NUL-terminated, never empty */
    size_t length;     /* strlen(stack) */
    uint64_t count;
    size_t line; /* 1-based line number in the input */
} FoldedLine;

typedef struct {
    FoldedLine *lines; /* in input order; duplicates are kept as they are */
    size_t count;
    char *text;  /* the input, owned; stacks point into it */
    char *error; /* after a failed read: "NAME:LINE: message", owned */
} FoldedFile;

/* Reads the file at path (name used in messages = path). Returns 0 and fills
 * *out, or -1 with out->error set (also for a missing or unreadable file). On
 * both paths the caller calls folded_free(out). */
int folded_read_file(const char *path, FoldedFile *out);

/* Same, from len bytes of memory (copied; the data need no terminator):
 * dripprof reads standard input this way, after looking at its first lines. */
int folded_read_buffer(const char *name, const char *data, size_t len, FoldedFile *out);

/* Streaming: calls visit for every stack line, in input order, without
 * keeping the input, so memory stays small however long the file is (dripprof
 * flame reads a million lines this way). The stack is NUL-terminated and
 * valid during the call only. visit returns 0 to go on, or -1 with *why set
 * to a static message to stop; the error then reads "NAME:LINE: why".
 * Returns 0, or -1 with *error set to a malloc'd message (free it). */
typedef int (*FoldedVisitor)(void *context, const char *stack, size_t length, uint64_t count,
                             const char **why);
int folded_each_file(const char *path, FoldedVisitor visit, void *context, char **error);
int folded_each_stream(FILE *in, const char *name, FoldedVisitor visit, void *context,
                       char **error);

/* Releases everything folded_read_* allocated and zeroes *file. */
void folded_free(FoldedFile *file);

/* Sum of all counts into *total: 0, or -1 when the sum overflows uint64_t. */
int folded_total(const FoldedFile *file, uint64_t *total);

#endif
