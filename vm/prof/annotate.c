/* annotate.c: the function table of callgrind_annotate output (see annotate.h).
 *
 * Sections are found by their headers, not by counting dash rules: the
 * totals row is the PROGRAM TOTALS row, the table starts after a line
 * "Ir<blanks>file:function" and the rule under it, and ends at the first
 * blank line (non-tree mode). Those lines are recognised here, without
 * parse_row(), so a file with no table is refused before any checker runs.
 * Labels are split at the FIRST ':' (a C++ function may contain more), and a
 * final " [..]" is an object only when it starts with '/' or is "???"
 * (callgrind-formats.md, section 3).
 */
#include "annotate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "message.h"

/* Whether every byte of text[0..length) is in set. */
static bool only(const char *text, size_t length, const char *set) {
    for (size_t i = 0; i < length; i++) {
        if (strchr(set, text[i]) == NULL) {
            return false;
        }
    }
    return true;
}

/* "Ir" + blanks + "file:function" (+ trailing blanks and CR). */
static bool is_table_header(const AnnotateLine *line) {
    const char *p = line->bytes, *end = p + line->length;
    if (line->length < 3 || memcmp(p, "Ir", 2) != 0 || (p[2] != ' ' && p[2] != '\t')) {
        return false;
    }
    for (p += 2; p < end && (*p == ' ' || *p == '\t'); p++) {
    }
    return end - p >= 13 && memcmp(p, "file:function", 13) == 0 &&
           only(p + 13, (size_t)(end - p - 13), " \t\r\n");
}

static bool is_blank(const AnnotateLine *line) {
    return only(line->bytes, line->length, " \t\r\n");
}

static bool is_rule(const AnnotateLine *line) {
    return line->length > 0 && line->bytes[0] == '-' && only(line->bytes, line->length, "-\r\n");
}

/* Where a line stands: before the function table (the totals row is there), in its header
 * (the dash rule under "Ir  file:function"), in the table, after it. */
typedef enum { BEFORE, HEADER, TABLE, DONE } Section;

/* Moves *where on past the line and says whether parse_row()'s answer on it counts: the
 * table's header, the rule under it and the blank line that ends it are structure. With
 * all, every line is a line BEFORE (rows anywhere count). */
static bool step(Section *where, const AnnotateLine *line, bool all) {
    if (all) {
        return true;
    }
    if (*where == BEFORE && is_table_header(line)) {
        *where = HEADER;
        return false;
    }
    if (*where == HEADER) {
        *where = TABLE;
        if (is_rule(line)) {
            return false;
        }
    }
    if (*where == TABLE && is_blank(line)) {
        *where = DONE;
        return false;
    }
    return true;
}

static int split_lines(const char *data, size_t length, AnnotateText *text) {
    size_t capacity = 0;
    for (const char *p = data, *stop = data + length; p < stop;) {
        const char *newline = memchr(p, '\n', (size_t)(stop - p));
        const char *end = newline ? newline + 1 : stop;
        AnnotateLine *lines = grow(text->lines, &capacity, text->count + 1, sizeof *lines, 256);
        if (lines == NULL) {
            return -1; /* annotate_free_text frees the lines so far */
        }
        text->lines = lines;
        text->lines[text->count++] = (AnnotateLine){.bytes = p, .length = (size_t)(end - p)};
        p = end;
    }
    return 0;
}

int annotate_split(const char *name, const char *data, size_t length, bool all, AnnotateText *text,
                   char **error) {
    *text = (AnnotateText){0};
    *error = NULL;
    if (split_lines(data, length, text) != 0) {
        return message_fail(error, name, 0, "out of memory");
    }
    Section where = BEFORE;
    while (text->asked < text->count && where != DONE) {
        const AnnotateLine *line = &text->lines[text->asked++];
        if (memchr(line->bytes, '\0', line->length) != NULL) {
            return message_fail(error, name, text->asked, "binary data (NUL byte)");
        }
        step(&where, line, all);
    }
    if (text->count == 0 && all) {
        return message_fail(error, name, 0, "no row with a count (not callgrind_annotate output?)");
    }
    if (!all && where == BEFORE) {
        return message_fail(error, name, text->count,
                            "no \"Ir  file:function\" table (not callgrind_annotate output?)");
    }
    return 0;
}

void annotate_free_text(AnnotateText *text) {
    free(text->lines);
    *text = (AnnotateText){0};
}

/* Files the answer for line number (1-based) found in section where. 0, or -1. */
static int take_answer(AnnotateTable *t, size_t *capacity, AnnotateRow *row, size_t number,
                       Section where, bool all, const char *name, char **error) {
    row->line = number;
    if (row->is_row && !all && where == BEFORE && strcmp(row->name, "PROGRAM TOTALS") == 0) {
        free(t->total.name);
        t->total = *row;
        row->name = NULL; /* the table's now */
    } else if (row->is_row && (all || where == TABLE)) {
        AnnotateRow *rows = grow(t->rows, capacity, t->count + 1, sizeof *rows, 64);
        if (rows == NULL) {
            return message_fail(error, name, number, "out of memory");
        }
        t->rows = rows;
        t->rows[t->count++] = *row;
        row->name = NULL;
    } else if (!row->is_row && where == TABLE) {
        return message_fail(error, name, number, "not a function row inside the function table");
    }
    return 0;
}

int annotate_table(const char *name, const AnnotateText *text, AnnotateRow *answers, bool all,
                   AnnotateTable *table, char **error) {
    *table = (AnnotateTable){0};
    *error = NULL;
    size_t capacity = 0;
    int status = 0;
    Section where = BEFORE;
    for (size_t i = 0; i < text->asked; i++) {
        if (step(&where, &text->lines[i], all) && status == 0) {
            status = take_answer(table, &capacity, &answers[i], i + 1, where, all, name, error);
        }
        free(answers[i].name);
        answers[i].name = NULL;
    }
    if (status == 0 && all && table->count == 0) {
        status = message_fail(error, name, text->count,
                              "no row with a count (not callgrind_annotate output?)");
    } else if (status == 0 && !all && !table->total.is_row) {
        status = message_fail(error, name, 0, "no PROGRAM TOTALS row");
    }
    return status;
}

void annotate_free(AnnotateTable *t) {
    for (size_t i = 0; i < t->count; i++) {
        free(t->rows[i].name);
    }
    free(t->rows);
    free(t->total.name);
    *t = (AnnotateTable){0};
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
    CostSums sums = {0};
    int status = 0;
    for (size_t i = 0; status == 0 && i < t->count; i++) {
        /* a label without a file (no ':') counts as a file of its own */
        AnnotateLabel label = annotate_split_label(t->rows[i].name);
        status = label.file_length > 0
                     ? costs_add(&sums, label.file, label.file_length, t->rows[i].ir)
                     : costs_add(&sums, label.function, label.function_length, t->rows[i].ir);
    }
    return costs_finish(&sums, status, costs, count);
}
