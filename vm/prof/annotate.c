/* annotate.c: the function table of callgrind_annotate output (see annotate.h).
 *
 * Sections are found by their headers, not by counting dash rules: the
 * totals row is the PROGRAM TOTALS row, the table starts after a line
 * "Ir<blanks>file:function" and the rule under it, and ends at the first
 * blank line (non-tree mode). Labels are split at the FIRST ':' (a C++
 * function may contain more), and a final " [..]" is an object only when it
 * starts with '/' or is "???" (callgrind-formats.md, section 3).
 */
#define _POSIX_C_SOURCE 200809L
#include "annotate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "intern.h"
#include "top.h"

static int fail(AnnotateTable *t, const char *path, size_t line, const char *fmt, ...) {
    char message[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    size_t size = strlen(path) + strlen(message) + 32;
    free(t->error);
    t->error = malloc(size);
    if (t->error != NULL) {
        if (line > 0) {
            snprintf(t->error, size, "%s:%zu: %s", path, line, message);
        } else {
            snprintf(t->error, size, "%s: %s", path, message);
        }
    }
    return -1;
}

/* "Ir" + blanks + "file:function" (+ trailing blanks and CR). */
static bool is_table_header(const char *line) {
    if (strncmp(line, "Ir", 2) != 0 || (line[2] != ' ' && line[2] != '\t')) {
        return false;
    }
    const char *p = line + 2;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    return strncmp(p, "file:function", 13) == 0 && strspn(p + 13, " \t\r\n") == strlen(p + 13);
}

static bool is_blank(const char *line) {
    return strspn(line, " \t\r\n") == strlen(line);
}

static bool is_rule(const char *line) {
    return line[0] == '-' && strspn(line, "-\r\n") == strlen(line);
}

static int add_row(AnnotateTable *t, size_t *capacity, Row row, size_t line) {
    if (t->count == *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 64;
        Row *grown = realloc(t->rows, grown_capacity * sizeof *grown);
        if (grown != NULL) {
            t->rows = grown;
        }
        size_t *grown_lines = realloc(t->lines, grown_capacity * sizeof *grown_lines);
        if (grown_lines != NULL) {
            t->lines = grown_lines;
        }
        if (grown == NULL || grown_lines == NULL) {
            return -1;
        }
        *capacity = grown_capacity;
    }
    t->lines[t->count] = line;
    t->rows[t->count++] = row;
    return 0;
}

/* Where a line stands: before the function table (the totals row is there), in its header
 * (the dash rule under "Ir  file:function"), in the table, after it. */
typedef enum { BEFORE, HEADER, TABLE, DONE } Section;

/* Reads the rows of the stream: only the function table and the totals row, or (all)
 * every row anywhere. */
static int read_rows(FILE *in, const char *name, AnnotateTable *out, bool all) {
    memset(out, 0, sizeof *out);
    char *line = NULL;
    size_t line_capacity = 0, capacity = 0, number = 0;
    Section where = BEFORE;
    int status = 0;
    ssize_t length;
    while (status == 0 && (all || where != DONE) &&
           (length = getline(&line, &line_capacity, in)) >= 0) {
        number++;
        if (memchr(line, '\0', (size_t)length) != NULL) {
            status = fail(out, name, number, "binary data (NUL byte)");
            break;
        }
        if (!all && where == BEFORE && is_table_header(line)) {
            where = HEADER;
            continue;
        }
        if (where == HEADER) {
            where = TABLE;
            if (is_rule(line)) {
                continue;
            }
        }
        if (where == TABLE && is_blank(line)) {
            where = DONE;
            continue;
        }
        Row row;
        const char *why;
        int parsed = exercise_parse_row(line, &row, &why);
        if (parsed < 0) {
            status = fail(out, name, number, "%s", why);
        } else if (parsed == 1 && !all && where == BEFORE &&
                   strcmp(row.name, "PROGRAM TOTALS") == 0) {
            out->total = row.ir;
            out->has_total = true;
            out->total_has_pct = row.has_pct;
            out->total_pct = row.pct;
            out->total_line = number;
            free(row.name);
        } else if (parsed == 1 && (all || where == TABLE)) {
            if (add_row(out, &capacity, row, number) != 0) {
                free(row.name);
                status = fail(out, name, number, "out of memory");
            }
        } else if (parsed == 1) {
            free(row.name);
        } else if (where == TABLE) {
            status = fail(out, name, number, "not a function row inside the function table");
        }
    }
    free(line);
    if (status != 0) {
        return status;
    }
    if (ferror(in)) {
        return fail(out, name, 0, "read error");
    }
    if (!all && where == BEFORE) {
        return fail(out, name, number,
                    "no \"Ir  file:function\" table (not callgrind_annotate output?)");
    }
    /* Even a profile of nothing has its PROGRAM TOTALS row. */
    if (all && out->count == 0) {
        return fail(out, name, number, "no row with a count (not callgrind_annotate output?)");
    }
    if (!all && !out->has_total) {
        return fail(out, name, 0, "no PROGRAM TOTALS row");
    }
    return 0;
}

int annotate_read_stream(FILE *in, const char *name, AnnotateTable *out) {
    return read_rows(in, name, out, false);
}

int annotate_read_all_rows(FILE *in, const char *name, AnnotateTable *out) {
    return read_rows(in, name, out, true);
}

int annotate_read_file(const char *path, AnnotateTable *out) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        memset(out, 0, sizeof *out);
        return fail(out, path, 0, "cannot open: %s", strerror(errno));
    }
    int status = read_rows(in, path, out, false);
    fclose(in);
    return status;
}

void annotate_free(AnnotateTable *t) {
    for (size_t i = 0; i < t->count; i++) {
        free(t->rows[i].name);
    }
    free(t->rows);
    free(t->lines);
    free(t->error);
    memset(t, 0, sizeof *t);
}

AnnotateLabel annotate_split_label(const char *label) {
    AnnotateLabel parts = {.file = label, .function = label, .object = ""};
    size_t length = strlen(label);
    /* the object: a final " [/...]" or " [???]" */
    if (length > 0 && label[length - 1] == ']') {
        for (size_t i = length - 1; i-- > 1;) {
            if (label[i] == '[' && label[i - 1] == ' ') {
                const char *inside = label + i + 1;
                size_t inside_length = length - i - 2;
                if ((inside_length > 0 && inside[0] == '/') ||
                    (inside_length == 3 && memcmp(inside, "???", 3) == 0)) {
                    parts.object = inside;
                    parts.object_length = inside_length;
                    length = i - 1;
                }
                break;
            }
        }
    }
    const char *colon = memchr(label, ':', length);
    if (colon != NULL) {
        parts.file_length = (size_t)(colon - label);
        parts.function = colon + 1;
    }
    parts.function_length = length - (size_t)(parts.function - label);
    return parts;
}

int annotate_sum_by_file(const AnnotateTable *t, Cost **costs, size_t *count) {
    Intern files;
    intern_init(&files);
    uint64_t *sums = calloc(t->count + 1, sizeof *sums);
    Cost *out = calloc(t->count + 1, sizeof *out);
    int status = sums && out ? 0 : -1;
    for (size_t i = 0; status == 0 && i < t->count; i++) {
        /* a label without a file (no ':') counts as a file of its own */
        AnnotateLabel label = annotate_split_label(t->rows[i].name);
        int64_t k = label.file_length > 0
                        ? intern_add(&files, label.file, label.file_length)
                        : intern_add(&files, label.function, label.function_length);
        if (k < 0 || t->rows[i].ir > UINT64_MAX - sums[k]) {
            status = -1;
        } else {
            sums[k] += t->rows[i].ir;
        }
    }
    size_t n = 0;
    for (size_t k = 0; status == 0 && k < files.count; k++) {
        out[n].name = malloc(files.keys[k].length + 1);
        if (out[n].name == NULL) {
            status = -1;
            break;
        }
        memcpy(out[n].name, files.keys[k].bytes, files.keys[k].length + 1);
        out[n++].cost = sums[k];
    }
    if (status == 0) {
        qsort(out, n, sizeof *out, top_compare_costs);
        *costs = out;
        *count = n;
    } else {
        for (size_t i = 0; out != NULL && i < n; i++) {
            free(out[i].name);
        }
        free(out);
    }
    free(sums);
    intern_free(&files);
    return status;
}
