/* check.c: the grader's driver for chapter 165. It links ONE profile.c (the student's, or the
 * reference when `make expected` or the grader computes answers) and prints what each exercise
 * function returned, one line per item, so the Lua side can compare a run against the reference.
 *
 * Design. The checker never judges: it only reports. The same binary built from the reference
 * writes the expected answers, and built from a submission writes the actual ones; the grader
 * compares the two line by line. That keeps one source of truth (solutions/165/profile.c) and lets
 * an instructor add fixtures without touching C.
 *
 * Every result line is "KEY<TAB>RESULT" and is flushed at once (line buffering), so when student
 * code crashes half-way the lines already written still count as evidence, and the first missing
 * key names the input that was being processed. The last line is "end<TAB>ok": without it, the run
 * stopped early (exit() in the code under test). Results go to the file named on the command line,
 * never to stdout, so a student's debugging printf cannot corrupt them.
 *
 * Modes:
 *   check rows FILE OUT          parse_row on every line of FILE (the line as read, with its "\n")
 *   check sums ROWS NEEDLES OUT  sum_named over rows "ir<TAB>escaped name", one call per needle
 *   check inclusive FOLDED OUT   inclusive over a folded file read by vm/prof/folded.c
 *   check stacks VECTORS OUT     inclusive over raw vectors "count<TAB>escaped stack" (edge cases
 *                                the folded reader rightly refuses, such as "a;;b")
 *   check read FOLDED OUT        reads FOLDED as `inclusive` does but calls nothing: run under
 *                                callgrind, the reference's count in this mode is the cost of
 *                                everything around inclusive(), which the speed check subtracts
 *
 * The grader runs this under the sandbox with OUT = /dev/fd/3, the sandbox's results channel.
 *
 * Text in keys and results is escaped (see put_escaped) so names with tabs, newlines or bytes
 * above 0x7e stay on one line. In ROWS and VECTORS, a name or stack of exactly "\N" (which
 * the escape never writes) is NULL: profile.h says what each function must make of it. Exit status:
 * 0 when the run finished (whatever the answers), 3 when an input file is unreadable or malformed,
 * with "FILE:LINE: why" on stderr.
 */
#define _POSIX_C_SOURCE 200809L

#include "folded.h"
#include "profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_BAD_INPUT 3
#define NULL_TEXT "\\N" /* a NULL name or stack in ROWS and VECTORS */

/* Writes s[0..len) with '\\', tab, CR, LF and bytes outside 0x20..0x7e escaped. */
static void put_escaped(FILE *out, const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\\': fputs("\\\\", out); break;
        case '\t': fputs("\\t", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (c < 0x20 || c > 0x7e) {
                fprintf(out, "\\x%02x", c);
            } else {
                fputc(c, out);
            }
        }
    }
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Undoes put_escaped in place; returns the new length, or -1 for a bad escape. */
static long unescape(char *s) {
    size_t in = 0, out = 0;
    while (s[in] != '\0') {
        if (s[in] != '\\') {
            s[out++] = s[in++];
            continue;
        }
        char e = s[in + 1];
        if (e == '\\' || e == 't' || e == 'n' || e == 'r') {
            s[out++] = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
            in += 2;
        } else if (e == 'x' && hex_value(s[in + 2]) >= 0 && hex_value(s[in + 3]) >= 0) {
            s[out++] = (char)(hex_value(s[in + 2]) * 16 + hex_value(s[in + 3]));
            in += 4;
        } else {
            return -1;
        }
    }
    s[out] = '\0';
    return (long)out;
}

static FILE *open_or_die(const char *path, const char *mode) {
    FILE *f = fopen(path, mode);
    if (f == NULL) {
        fprintf(stderr, "%s: cannot open (%s)\n", path, mode[0] == 'r' ? "read" : "write");
        exit(EXIT_BAD_INPUT);
    }
    return f;
}

/* Writes the closing "end" line and closes OUT. A run whose OUT lacks it stopped early: exit()
   in the code under test, or a crash the sandbox did not see. */
static void close_results(FILE *out) {
    fputs("end\tok\n", out);
    fclose(out);
}

/* Opens OUT line-buffered, so every finished item survives a later crash. "/dev/fd/N" is
   taken as the open fd N (the sandbox's results channel is a pipe owned by the sandbox,
   which a boxed uid could not reopen by path). */
static FILE *open_results(const char *path) {
    FILE *out = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0 && strspn(path + 8, "0123456789") == strlen(path + 8) &&
        path[8] != '\0') {
        out = fdopen(atoi(path + 8), "w");
    }
    if (out == NULL) {
        out = open_or_die(path, "w");
    }
    setvbuf(out, NULL, _IOLBF, 0);
    return out;
}

/* Strips a trailing "\n" or "\r\n" from line[0..len); returns the new length. */
static size_t chomp(char *line, size_t len) {
    if (len > 0 && line[len - 1] == '\n') {
        len--;
        if (len > 0 && line[len - 1] == '\r') {
            len--;
        }
    }
    line[len] = '\0';
    return len;
}

/* ---------------------------------------------------------------------------- rows */

static void print_row_result(FILE *out, int rc, const Row *row) {
    if (rc == 1) {
        fprintf(out, "1 ir=%" PRIu64 " pct=", row->ir);
        if (row->has_pct) {
            fprintf(out, "%.3f", row->pct);
        } else if (row->pct == -1.0) {
            fputs("none", out);
        } else {
            fprintf(out, "none-but-pct-is-%.3f", row->pct);
        }
        fputs(" name=", out);
        if (row->name == NULL) {
            fputs("NULL", out);
        } else {
            fputc('"', out);
            put_escaped(out, row->name, strlen(row->name));
            fputc('"', out);
        }
    } else if (rc == 0) {
        fputs(row->name == NULL ? "0" : "0 but-name-is-not-NULL", out);
    } else if (rc == -1) {
        fputs("-1", out);
    } else {
        fprintf(out, "returned-%d", rc);
    }
    fputc('\n', out);
}

static int check_rows(const char *path, const char *out_path) {
    FILE *in = open_or_die(path, "r");
    FILE *out = open_results(out_path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    size_t number = 0;
    while ((len = getline(&line, &cap, in)) != -1) {
        number++;
        if (strlen(line) != (size_t)len) {
            fprintf(stderr, "%s:%zu: binary data (NUL byte) in an annotate fixture\n", path,
                    number);
            free(line);
            fclose(in);
            fclose(out);
            return EXIT_BAD_INPUT;
        }
        Row row = {.ir = 0, .has_pct = false, .pct = 0.0, .name = NULL};
        int rc = parse_row(line, &row);
        fprintf(out, "row:%zu\t", number);
        print_row_result(out, rc, &row);
        if (rc == 1) {
            free(row.name);
        }
    }
    free(line);
    fclose(in);
    close_results(out);
    return 0;
}

/* ---------------------------------------------------------------------------- sums */

typedef struct {
    Row *rows;
    size_t count;
    size_t capacity;
} RowList;

static void free_rows(RowList *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->rows[i].name);
    }
    free(list->rows);
}

/* Reads "ir<TAB>escaped name" lines, written by the grader from the reference's rows. */
static int read_rows(const char *path, RowList *list) {
    FILE *in = open_or_die(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    size_t number = 0;
    int status = 0;
    while (status == 0 && (len = getline(&line, &cap, in)) != -1) {
        number++;
        chomp(line, (size_t)len);
        char *tab = strchr(line, '\t');
        char *end = NULL;
        unsigned long long ir = tab == NULL ? 0 : strtoull(line, &end, 10);
        bool null = tab != NULL && strcmp(tab + 1, NULL_TEXT) == 0;
        if (tab == NULL || end != tab || (!null && unescape(tab + 1) < 0)) {
            fprintf(stderr, "%s:%zu: expected \"ir<TAB>name\"\n", path, number);
            status = EXIT_BAD_INPUT;
            break;
        }
        if (list->count == list->capacity) {
            list->capacity = list->capacity == 0 ? 64 : list->capacity * 2;
            list->rows = realloc(list->rows, list->capacity * sizeof(Row));
            if (list->rows == NULL) {
                fprintf(stderr, "%s: out of memory\n", path);
                exit(EXIT_BAD_INPUT);
            }
        }
        Row *row = &list->rows[list->count++];
        row->ir = (uint64_t)ir;
        row->has_pct = false;
        row->pct = -1.0;
        row->name = null ? NULL : strdup(tab + 1);
    }
    free(line);
    fclose(in);
    return status;
}

static int check_sums(const char *rows_path, const char *needles_path, const char *out_path) {
    RowList list = {NULL, 0, 0};
    if (read_rows(rows_path, &list) != 0) {
        free_rows(&list);
        return EXIT_BAD_INPUT;
    }
    FILE *in = open_or_die(needles_path, "r");
    FILE *out = open_results(out_path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    size_t number = 0;
    int status = 0;
    while ((len = getline(&line, &cap, in)) != -1) {
        number++;
        chomp(line, (size_t)len);
        if (unescape(line) < 0) {
            fprintf(stderr, "%s:%zu: bad escape in needle\n", needles_path, number);
            status = EXIT_BAD_INPUT;
            break;
        }
        uint64_t sum = 0;
        int rc = sum_named(list.rows, list.count, line, &sum);
        fputs("sum:", out);
        put_escaped(out, line, strlen(line));
        if (rc == 0) {
            fprintf(out, "\t0 sum=%" PRIu64 "\n", sum);
        } else if (rc == -1) {
            fputs("\t-1\n", out);
        } else {
            fprintf(out, "\treturned-%d\n", rc);
        }
    }
    free(line);
    fclose(in);
    if (status == 0) {
        close_results(out);
    } else {
        fclose(out);
    }
    free_rows(&list);
    return status;
}

/* ----------------------------------------------------------------------- inclusive */

static void print_costs(FILE *out, int rc, Cost *costs, size_t ncosts) {
    if (rc != 0) {
        fprintf(out, rc == -1 ? "count\t-1\n" : "count\treturned-%d\n", rc);
        return;
    }
    fprintf(out, "count\t0 n=%zu\n", ncosts);
    if (costs == NULL && ncosts > 0) {
        fputs("costs\tNULL\n", out);
        return;
    }
    for (size_t i = 0; i < ncosts; i++) {
        fputs("cost:", out);
        if (costs[i].name == NULL) {
            fputs("<NULL>", out);
        } else {
            put_escaped(out, costs[i].name, strlen(costs[i].name));
        }
        fprintf(out, "\trank=%zu cost=%" PRIu64 "\n", i + 1, costs[i].cost);
        free(costs[i].name);
    }
    free(costs);
}

static int run_inclusive(const Folded *stacks, size_t count, const char *out_path) {
    FILE *out = open_results(out_path);
    Cost *costs = NULL;
    size_t ncosts = 0;
    int rc = inclusive(stacks, count, &costs, &ncosts);
    print_costs(out, rc, costs, ncosts);
    close_results(out);
    return 0;
}

/* mode "inclusive" calls inclusive(); mode "read" only reads (see the top of the file). */
static int check_inclusive(const char *path, const char *out_path, bool call) {
    FoldedFile file;
    if (folded_read_file(path, &file) != 0) {
        fprintf(stderr, "%s\n", file.error != NULL ? file.error : "folded reader failed");
        folded_free(&file);
        return EXIT_BAD_INPUT;
    }
    Folded *stacks = calloc(file.count > 0 ? file.count : 1, sizeof(Folded));
    if (stacks == NULL) {
        fprintf(stderr, "%s: out of memory\n", path);
        folded_free(&file);
        return EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < file.count; i++) {
        stacks[i].stack = file.lines[i].stack;
        stacks[i].count = file.lines[i].count;
    }
    int status = 0;
    if (call) {
        status = run_inclusive(stacks, file.count, out_path);
    } else {
        close_results(open_results(out_path));
    }
    free(stacks);
    folded_free(&file);
    return status;
}

/* Reads "count<TAB>escaped stack" vectors; the stacks are kept as given, empty frames and all. */
static int check_stacks(const char *path, const char *out_path) {
    FILE *in = open_or_die(path, "r");
    Folded *stacks = NULL;
    size_t count = 0, capacity = 0, number = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int status = 0;
    while ((len = getline(&line, &cap, in)) != -1) {
        number++;
        chomp(line, (size_t)len);
        char *tab = strchr(line, '\t');
        char *end = NULL;
        unsigned long long n = tab == NULL ? 0 : strtoull(line, &end, 10);
        bool null = tab != NULL && strcmp(tab + 1, NULL_TEXT) == 0;
        if (tab == NULL || end != tab || (!null && unescape(tab + 1) < 0)) {
            fprintf(stderr, "%s:%zu: expected \"count<TAB>stack\"\n", path, number);
            status = EXIT_BAD_INPUT;
            break;
        }
        if (count == capacity) {
            capacity = capacity == 0 ? 64 : capacity * 2;
            stacks = realloc(stacks, capacity * sizeof(Folded));
            if (stacks == NULL) {
                fprintf(stderr, "%s: out of memory\n", path);
                exit(EXIT_BAD_INPUT);
            }
        }
        stacks[count].stack = null ? NULL : strdup(tab + 1);
        stacks[count].count = (uint64_t)n;
        count++;
    }
    free(line);
    fclose(in);
    if (status == 0) {
        status = run_inclusive(stacks, count, out_path);
    }
    for (size_t i = 0; i < count; i++) {
        free((char *)stacks[i].stack);
    }
    free(stacks);
    return status;
}

static int usage(void) {
    fputs("usage: check rows FILE OUT | sums ROWS NEEDLES OUT | inclusive FOLDED OUT | "
          "stacks VECTORS OUT | read FOLDED OUT\n",
          stderr);
    return 2;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "rows") == 0) {
        return check_rows(argv[2], argv[3]);
    }
    if (argc == 5 && strcmp(argv[1], "sums") == 0) {
        return check_sums(argv[2], argv[3], argv[4]);
    }
    if (argc == 4 && strcmp(argv[1], "inclusive") == 0) {
        return check_inclusive(argv[2], argv[3], true);
    }
    if (argc == 4 && strcmp(argv[1], "read") == 0) {
        return check_inclusive(argv[2], argv[3], false);
    }
    if (argc == 4 && strcmp(argv[1], "stacks") == 0) {
        return check_stacks(argv[2], argv[3]);
    }
    return usage();
}
