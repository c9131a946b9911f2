/* test_profile.c: the public tests of exercise 165, one fixed driver for three data files.
 *
 * The test cases are data, not code: parse_row.txt, sum_named.txt and inclusive.txt (in
 * the folder given by --fixtures) hold one case per block, and this driver turns every
 * block into one cmocka test named FUNCTION.CASE (parse_row.plain_row, ...). To add a
 * case, add a block; an instructor can grade with other files through --fixtures DIR.
 *
 *   test_profile [--fixtures DIR] [--list | --run NAME | --describe NAME | --each DIR ...]
 *
 *   --list       print the test names, one a line, and stop
 *   --run NAME   run that one test in this process (by hand, or under a debugger)
 *   --describe NAME  print what that test calls and expects, without calling your code
 *                (shown when a test crashed before it could say anything)
 *   --each DIR   run every test in its own forked child, with limits, and print one
 *                status line per test (exercises/harness/fork_tests.c; this is what
 *                make exercise-165 runs, under build/harness/sandbox)
 *   (none of these)  run every test in this one process, the plain cmocka way
 *
 * When a test fails it prints the call, the input (blanks shown as '·'), and the
 * expected and actual values in decimal (messages.c), then fails through cmocka. The
 * data files are read by fixtures.c. Exit status: 0 when
 * every test that ran passed, 1 otherwise, 2 for bad arguments or a bad data file.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_fail.h"
#include "fixtures.h"
#include "fork_tests.h"
#include "messages.h"
#include "profile.h"

static void restore_crash_handlers(void);

/* What the Row holds before parse_row is called: a value no test expects, so a field the
   code under test forgot to set shows as such. */
#define JUNK_IR 12345
#define JUNK_PCT 12345.0

/* ================================================================== parse_row */

/* What a parse_row case expects: a row with these values, or "not a row". */
typedef struct {
    bool row;
    uint64_t ir;
    bool has_pct;
    double pct;
    const char *name;
} RowWanted;

static RowWanted read_row_wanted(const Case *c) {
    const char *want = required(c, "want");
    RowWanted w = {false, 0, false, -1.0, NULL};
    if (strncmp(want, "row ", 4) == 0) {
        /* "row IR PCT NAME": the name is everything after the third blank. */
        char ir_text[32], pct_text[32];
        int name_at = 0;
        if (sscanf(want, "row %31s %31s %n", ir_text, pct_text, &name_at) != 2 || name_at == 0 ||
            !parse_u64(ir_text, &w.ir)) {
            die(c->file, c->line, "want: expected 'row IR PCT NAME' or 'not a row'");
        }
        w.row = true;
        w.has_pct = strcmp(pct_text, "-") != 0;
        w.pct = w.has_pct ? strtod(pct_text, NULL) : -1.0;
        w.name = want + name_at;
    } else if (strcmp(want, "not a row") != 0) {
        die(c->file, c->line, "want: expected 'row IR PCT NAME' or 'not a row'");
    }
    return w;
}

/* The call and what it should return (a failure adds what it did return). */
static void describe_parse_row(const Case *c, const char *line, const RowWanted *w) {
    begin_failure(c, "parse_row(line, &row)");
    show_line("line:", line);
    fprintf(stderr,
            "            (· is one blank; \\n, \\r, \\t are newline, carriage return, TAB)\n");
    if (w->row) {
        fprintf(stderr, "  expected: returns 1 (a row) with ir = %llu, has_pct = %s, pct = %.2f\n",
                (unsigned long long)w->ir, w->has_pct ? "true" : "false", w->pct);
        show_line("  name =", w->name);
    } else {
        fprintf(stderr, "  expected: returns 0 (not a row), with row.name left NULL\n");
    }
}

/* What parse_row returned, after "actual:". */
static void show_row_returned(int rc, const Row *row, const RowWanted *w) {
    fprintf(stderr, "  actual:   returns %d (%s)", rc, return_meaning("parse_row", rc));
    if (rc != 1 && !(rc == 0 && row->name != NULL)) {
        fputc('\n', stderr);
        return;
    }
    fprintf(stderr, " with ir = %llu, has_pct = %s, pct = %.2f\n", (unsigned long long)row->ir,
            row->has_pct ? "true" : "false", row->pct);
    if (row->name == NULL) {
        fprintf(stderr, "    name = NULL\n");
    } else {
        show_line("  name =", row->name);
        if (w->name != NULL && strcmp(row->name, w->name) != 0) {
            show_difference(w->name, row->name);
        }
    }
    if (rc == 1 && (row->ir == JUNK_IR || row->pct == JUNK_PCT)) {
        fprintf(stderr,
                "  note:     %s is what the test put in the Row before the call: "
                "your code did not set it\n",
                row->ir == JUNK_IR ? "ir = 12345" : "pct = 12345.00");
    }
}

/* One call of parse_row; prints the failure and returns false when the result is not
   the expected one or the line was written into. */
static bool check_parse_row(const Case *c, const char *line, const RowWanted *w) {
    Row row = {JUNK_IR, true, JUNK_PCT, NULL}; /* so a function that sets nothing shows */
    char *before = copy_string(line);
    int rc = parse_row(line, &row);

    bool ok;
    if (!w->row) {
        ok = rc == 0 && row.name == NULL;
    } else {
        ok = rc == 1 && row.ir == w->ir && row.has_pct == w->has_pct &&
             fabs(row.pct - w->pct) < 1e-6 && row.name != NULL && strcmp(row.name, w->name) == 0;
    }
    bool unchanged = strcmp(before, line) == 0;
    if (!ok || !unchanged) {
        describe_parse_row(c, before, w);
        show_row_returned(rc, &row, w);
        if (!unchanged) {
            show_changed_input("line", line);
        }
    }
    free(before);
    free(row.name);
    return ok && unchanged;
}

/* An out-of-memory test's rule is about its second call (allocations failing); when its
   first call, with memory to spare, already went wrong, the report shows that one, and
   this says so (its "expected" is not the rule's -1). */
#define OUT_OF_MEMORY_FIRST                                                                        \
    "  note:     this test makes the call twice: what is shown is the first call, with memory\n"   \
    "            to spare, which must give the expected result before the second call, with\n"     \
    "            allocations failing (the rule), is tried\n"

/* The same line again, with every allocation failing: -1, and row.name NULL. */
static bool check_parse_row_out_of_memory(const Case *c, const char *line, const RowWanted *w) {
    static char junk[] = "junk";
    Row row = {JUNK_IR, true, JUNK_PCT, junk}; /* a name that is not NULL before the call */
    alloc_fail_from(1);
    int rc = parse_row(line, &row);
    long asked = alloc_fail_count();
    alloc_fail_from(0);
    bool ok = rc == -1 && row.name == NULL;
    if (!ok) {
        describe_parse_row(c, line, w);
        fprintf(stderr, "  then:     the same call with every malloc failing (returning NULL, as "
                        "when memory runs out)\n"
                        "  expected: returns -1 (out of memory), with row.name NULL\n");
        show_row_returned(rc, &row, w);
        if (rc == -1 && row.name == junk) {
            fprintf(stderr, "  note:     row.name is still the \"junk\" the test put there: "
                            "set it to NULL\n");
        }
        if (asked == 0) {
            fprintf(stderr, "  note:     your code allocated nothing the test could make fail "
                            "(it counts malloc, calloc, realloc, strdup, strndup)\n");
        }
    }
    if (rc == 1 && row.name != junk) {
        free(row.name);
    }
    return ok;
}

static void test_parse_row(void **state) {
    restore_crash_handlers();
    const Case *c = *state;
    const char *line = required(c, "line");
    RowWanted w = read_row_wanted(c);
    bool out_of_memory = field(c, "out-of-memory") != NULL;
    if (out_of_memory && !w.row) {
        die(c->file, c->line, "out-of-memory: needs a line that is a row");
    }
    if (describe_only) {
        describe_parse_row(c, line, &w);
        if (out_of_memory) {
            fprintf(stderr, "  then:     the same call with every malloc failing: returns -1, "
                            "with row.name NULL\n");
        }
        return;
    }
    if (!check_parse_row(c, line, &w)) {
        if (out_of_memory) {
            fputs(OUT_OF_MEMORY_FIRST, stderr);
        }
        fail();
    } else if (out_of_memory && !check_parse_row_out_of_memory(c, line, &w)) {
        fail();
    }
}

/* ================================================================== sum_named */

typedef struct {
    Row *rows;
    size_t count;
    size_t capacity;
} RowList;

static void add_row(RowList *list, uint64_t ir, char *name) {
    list->rows = grow(list->rows, list->count, &list->capacity, sizeof(Row));
    list->rows[list->count++] = (Row){ir, false, -1.0, name};
}

/* Reads a .rows file ("IR NAME" lines) beside the data files. */
static void load_rows_file(RowList *list, const Case *c, const Field *f) {
    char *path = checked_malloc(strlen(fixtures_dir) + strlen(f->value) + 2);
    sprintf(path, "%s/%s", fixtures_dir, f->value);
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "test_profile: %s:%d: cannot open %s: %s\n", c->file, f->line, path,
                strerror(errno));
        exit(2);
    }
    char *line;
    int number = 0;
    while ((line = read_line(file)) != NULL) {
        number++;
        if (line[0] != '#' && line[0] != '\0') {
            uint64_t ir;
            char *text = unescape(line, path, number);
            char *name = split_number_text(text, &ir);
            free(text);
            if (name == NULL) {
                die(path, number, "expected 'IR NAME'");
            }
            add_row(list, ir, name);
        }
        free(line);
    }
    fclose(file);
    free(path);
}

static void describe_sum(const Case *c, const RowList *list, size_t count, const char *needle,
                         bool want_error, uint64_t want_sum) {
    begin_failure(c, "sum_named(rows, count, needle, &sum)");
    fprintf(stderr, "  rows:     %zu rows", count);
    for (size_t i = 0; i < count && i < 3; i++) {
        fprintf(stderr, "%s%llu ", i == 0 ? ": " : ", ", (unsigned long long)list->rows[i].ir);
        show(list->rows[i].name);
    }
    fprintf(stderr, "%s\n", count > 3 ? ", ..." : "");
    show_line("needle:", needle);
    if (want_error) {
        fprintf(stderr, "  expected: returns -1 (the sum does not fit in uint64_t)\n");
    } else {
        fprintf(stderr, "  expected: returns 0 with sum = %llu\n", (unsigned long long)want_sum);
    }
}

/* One call of sum_named over the first count rows; prints the failure and returns false
   when the result is not the expected one. */
static bool check_sum(const Case *c, const RowList *list, size_t count, const char *needle,
                      bool want_error, uint64_t want_sum) {
    uint64_t sum = 424242; /* junk, so a function that sets nothing shows */
    int rc = sum_named(list->rows, count, needle, &sum);
    bool ok = want_error ? rc == -1 : rc == 0 && sum == want_sum;
    if (!ok) {
        describe_sum(c, list, count, needle, want_error, want_sum);
        fprintf(stderr, "  actual:   returns %d (%s)", rc, return_meaning("sum_named", rc));
        if (rc == 0) {
            fprintf(stderr, " with sum = %llu", (unsigned long long)sum);
        }
        fputc('\n', stderr);
    }
    return ok;
}

static void test_sum_named(void **state) {
    restore_crash_handlers();
    const Case *c = *state;
    const char *needle = required(c, "needle");
    const char *want = required(c, "want");
    bool want_error = strcmp(want, "error") == 0;
    uint64_t want_sum = 0;
    if (!want_error && !parse_u64(want, &want_sum)) {
        die(c->file, c->line, "want: expected a number or 'error'");
    }
    /* "control: N SUM": first, the first N rows alone must give SUM. An error case has
       one, so that a function that always returns -1 cannot pass it. */
    const char *control = field(c, "control");
    uint64_t control_count = 0, control_sum = 0;
    if (control != NULL) {
        char *sum_text = split_number_text(control, &control_count);
        bool fine = sum_text != NULL && parse_u64(sum_text, &control_sum);
        free(sum_text);
        if (!fine) {
            die(c->file, c->line, "control: expected 'COUNT SUM'");
        }
    }

    if (want_error && control == NULL) {
        die(c->file, c->line, "an error case needs a 'control: COUNT SUM' line");
    }

    RowList list = {NULL, 0, 0};
    for (size_t i = 0; i < c->nfields; i++) {
        const Field *f = &c->fields[i];
        if (strcmp(f->key, "rows") == 0) {
            load_rows_file(&list, c, f);
        } else if (strcmp(f->key, "row") == 0) {
            uint64_t ir;
            char *name = split_number_text(f->value, &ir);
            if (name == NULL) {
                die(c->file, f->line, "row: expected 'IR NAME'");
            }
            add_row(&list, ir, name);
        } else if (strcmp(f->key, "null-row") == 0) {
            uint64_t ir;
            if (!parse_u64(f->value, &ir)) {
                die(c->file, f->line, "null-row: expected a number (IR)");
            }
            add_row(&list, ir, NULL); /* a row whose name is NULL */
        }
    }
    if (control_count > list.count) {
        die(c->file, c->line, "control: COUNT is larger than the number of rows");
    }

    bool ok = true;
    if (describe_only) {
        describe_sum(c, &list, list.count, needle, want_error, want_sum);
    } else {
        ok = (control == NULL ||
              check_sum(c, &list, (size_t)control_count, needle, false, control_sum)) &&
             check_sum(c, &list, list.count, needle, want_error, want_sum);
    }
    for (size_t i = 0; i < list.count; i++) {
        free(list.rows[i].name);
    }
    free(list.rows);
    if (!ok) {
        fail();
    }
}

/* ================================================================== inclusive */

typedef struct {
    Folded *stacks;
    size_t nstacks, stacks_capacity;
    Cost *want; /* expected costs, in the documented order when the case lists them so */
    size_t nwant, want_capacity;
    bool want_error;
    bool has_control; /* "control: N": the first N stacks alone must give control_want */
    size_t control_count;
    Cost *control_want;
    size_t ncontrol_want, control_capacity;
} InclusiveCase;

static void add_stack(InclusiveCase *t, char *stack, uint64_t count) {
    t->stacks = grow(t->stacks, t->nstacks, &t->stacks_capacity, sizeof(Folded));
    t->stacks[t->nstacks++] = (Folded){stack, count};
}

static void add_want(InclusiveCase *t, char *name, uint64_t cost) {
    t->want = grow(t->want, t->nwant, &t->want_capacity, sizeof(Cost));
    t->want[t->nwant++] = (Cost){name, cost};
}

static void add_control_want(InclusiveCase *t, char *name, uint64_t cost) {
    t->control_want = grow(t->control_want, t->ncontrol_want, &t->control_capacity, sizeof(Cost));
    t->control_want[t->ncontrol_want++] = (Cost){name, cost};
}

static char *format(const char *pattern, size_t number) {
    char *text = checked_malloc(64);
    snprintf(text, 64, pattern, number);
    return text;
}

/* "many_functions N": stack i is "main;caller_i;callee_i" with count i + 1, so main gets
   N(N+1)/2 and each of the 2N other functions gets i + 1. */
static void generate_many_functions(InclusiveCase *t, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *stack = checked_malloc(64);
        snprintf(stack, 64, "main;caller_%zu;callee_%zu", i, i);
        add_stack(t, stack, i + 1);
        add_want(t, format("caller_%zu", i), i + 1);
        add_want(t, format("callee_%zu", i), i + 1);
    }
    add_want(t, copy_string("main"), (uint64_t)n * (n + 1) / 2);
}

/* "deep_stack N": one stack "main;f;f;...;f" of N frames with count 7. */
static void generate_deep_stack(InclusiveCase *t, size_t n) {
    char *stack = checked_malloc(4 + 2 * n + 1);
    strcpy(stack, "main");
    size_t length = 4;
    for (size_t i = 1; i < n; i++) {
        memcpy(stack + length, ";f", 3);
        length += 2;
    }
    add_stack(t, stack, 7);
    add_want(t, copy_string("main"), 7);
    if (n > 1) {
        add_want(t, copy_string("f"), 7);
    }
}

static InclusiveCase read_inclusive_case(const Case *c) {
    InclusiveCase t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < c->nfields; i++) {
        const Field *f = &c->fields[i];
        uint64_t number;
        if (strcmp(f->key, "stack") == 0) {
            char *stack = split_last_blank(f, c->file, &number);
            add_stack(&t, stack, number);
        } else if (strcmp(f->key, "null-stack") == 0) {
            if (!parse_u64(f->value, &number)) {
                die(c->file, f->line, "null-stack: expected a number (COUNT)");
            }
            add_stack(&t, NULL, number); /* a stack that is NULL: an empty one */
        } else if (strcmp(f->key, "want") == 0 && strcmp(f->value, "error") == 0) {
            t.want_error = true;
        } else if (strcmp(f->key, "want") == 0 && strcmp(f->value, "nothing") != 0) {
            char *name = split_last_blank(f, c->file, &number);
            add_want(&t, name, number);
        } else if (strcmp(f->key, "control") == 0) {
            t.has_control = parse_u64(f->value, &number);
            if (!t.has_control) {
                die(c->file, f->line, "control: expected a number of stacks");
            }
            t.control_count = (size_t)number;
        } else if (strcmp(f->key, "control-want") == 0) {
            char *name = split_last_blank(f, c->file, &number);
            add_control_want(&t, name, number);
        } else if (strcmp(f->key, "generate") == 0) {
            size_t n = 0;
            if (sscanf(f->value, "many_functions %zu", &n) == 1) {
                generate_many_functions(&t, n);
            } else if (sscanf(f->value, "deep_stack %zu", &n) == 1 && n > 0) {
                generate_deep_stack(&t, n);
            } else {
                die(c->file, f->line, "generate: expected 'many_functions N' or 'deep_stack N'");
            }
        }
    }
    if (t.want_error && !t.has_control) {
        die(c->file, c->line, "an error case needs 'control: N' and 'control-want:' lines");
    }
    if (t.has_control && t.control_count > t.nstacks) {
        die(c->file, c->line, "control: more stacks than the case has");
    }
    return t;
}

static int by_name(const void *a, const void *b) {
    const Cost *x = a, *y = b;
    if (x->name == NULL || y->name == NULL) {
        return (x->name == NULL) - (y->name == NULL);
    }
    return strcmp(x->name, y->name);
}

/* Compares the result with the expectation as sets of (name, cost); prints up to a few
   differences when problems is true. Returns the number of differences. */
static size_t compare_costs(const Cost *want, size_t nwant, const Cost *got, size_t ngot,
                            bool print) {
    Cost *w = checked_malloc(nwant * sizeof(Cost));
    Cost *g = checked_malloc(ngot * sizeof(Cost));
    if (nwant > 0) {
        memcpy(w, want, nwant * sizeof(Cost));
    }
    if (ngot > 0) {
        memcpy(g, got, ngot * sizeof(Cost));
    }
    qsort(w, nwant, sizeof(Cost), by_name);
    qsort(g, ngot, sizeof(Cost), by_name);
    size_t differences = 0, i = 0, j = 0;
    while (i < nwant || j < ngot) {
        int order = i == nwant ? 1 : j == ngot ? -1 : by_name(&w[i], &g[j]);
        bool shown = print && differences < 8;
        if (j < ngot && g[j].name == NULL) {
            if (shown) {
                fprintf(stderr, "    a Cost with name == NULL (cost %llu)\n",
                        (unsigned long long)g[j].cost);
            }
            j++;
        } else if (j > 0 && j < ngot && g[j - 1].name != NULL && order > 0 &&
                   strcmp(g[j - 1].name, g[j].name) == 0) {
            if (shown) {
                fprintf(stderr, "    listed twice: ");
                show(g[j].name);
                fputc('\n', stderr);
            }
            j++;
        } else if (order < 0) {
            if (shown) {
                fprintf(stderr, "    missing:      ");
                show(w[i].name);
                fprintf(stderr, " (expected cost %llu)\n", (unsigned long long)w[i].cost);
            }
            i++;
        } else if (order > 0) {
            if (shown) {
                fprintf(stderr, "    not expected: ");
                show(g[j].name);
                fprintf(stderr, " with cost %llu\n", (unsigned long long)g[j].cost);
            }
            j++;
        } else {
            if (w[i].cost != g[j].cost && shown) {
                fprintf(stderr, "    wrong cost:   ");
                show(w[i].name);
                fprintf(stderr, " expected %llu, got %llu\n", (unsigned long long)w[i].cost,
                        (unsigned long long)g[j].cost);
            }
            differences += w[i].cost != g[j].cost;
            i++;
            j++;
            continue;
        }
        differences++;
    }
    if (print && differences > 8) {
        fprintf(stderr, "    ... and %zu more differences\n", differences - 8);
    }
    free(w);
    free(g);
    return differences;
}

/* Position of the first entry out of the documented order, or ncosts when sorted. */
static size_t first_out_of_order(const Cost *want, const Cost *got, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(want[i].name, got[i].name) != 0 || want[i].cost != got[i].cost) {
            return i;
        }
    }
    return n;
}

static void show_stacks(const Folded *stacks, size_t nstacks) {
    fprintf(stderr, "  stacks:   %zu\n", nstacks);
    for (size_t i = 0; i < nstacks && i < 6; i++) {
        fprintf(stderr, "    ");
        show(stacks[i].stack);
        fprintf(stderr, " count %llu\n", (unsigned long long)stacks[i].count);
    }
    if (nstacks > 6) {
        fprintf(stderr, "    ...\n");
    }
}

static void describe_inclusive(const Case *c, const Folded *stacks, size_t nstacks,
                               const Cost *want, size_t nwant, bool want_error) {
    begin_failure(c, "inclusive(stacks, count, &costs, &ncosts)");
    show_stacks(stacks, nstacks);
    if (want_error) {
        fprintf(stderr, "  expected: returns -1 (a cost does not fit in uint64_t)\n");
        return;
    }
    fprintf(stderr, "  expected: returns 0 with %zu functions\n", nwant);
    for (size_t i = 0; i < nwant && i < 6; i++) {
        fprintf(stderr, "    ");
        show(want[i].name);
        fprintf(stderr, " %llu\n", (unsigned long long)want[i].cost);
    }
    if (nwant > 6) {
        fprintf(stderr, "    ...\n");
    }
}

/* Gives back what inclusive() handed over: every name, then the array (profile.h). */
static void release_costs(Cost *costs, size_t n) {
    while (n > 0) {
        free(costs[--n].name);
    }
    free(costs);
}

/* A copy of the stacks (their text too), to show the input as it was and to notice code
   that wrote into it. */
static Folded *copy_stacks(const Folded *stacks, size_t n) {
    Folded *copy = checked_malloc(n * sizeof(Folded));
    for (size_t i = 0; i < n; i++) {
        copy[i].stack = stacks[i].stack == NULL ? NULL : copy_string(stacks[i].stack);
        copy[i].count = stacks[i].count;
    }
    return copy;
}

/* Gives back a copy_stacks() copy: each stack's text, then the array. */
static void free_stacks(Folded *copy, size_t n) {
    for (Folded *each = copy; each < copy + n; each++) {
        free((char *)each->stack);
    }
    free(copy);
}

/* The first stack whose text differs from its copy, or n. */
static size_t first_changed_stack(const Folded *copy, const Folded *stacks, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (copy[i].stack != NULL && strcmp(copy[i].stack, stacks[i].stack) != 0) {
            return i;
        }
    }
    return n;
}

/* One call of inclusive over the first nstacks stacks; prints the failure and returns
   false when the result is not the expected one. */
static bool check_inclusive(const Case *c, const Folded *stacks, size_t nstacks, const Cost *want,
                            size_t nwant, bool want_error, bool check_order) {
    Cost *costs = NULL;
    size_t ncosts = 4242; /* junk, so a function that sets nothing shows */
    Folded *before = copy_stacks(stacks, nstacks);
    int rc = inclusive(stacks, nstacks, &costs, &ncosts);

    bool ok;
    const char *problem = NULL;
    if (want_error || rc != 0) {
        ok = want_error && rc == -1;
    } else if (ncosts > 0 && costs == NULL) {
        ok = false;
        problem = "*costs is NULL but *ncosts is not 0";
    } else {
        ok = compare_costs(want, nwant, costs, ncosts, false) == 0 &&
             (!check_order || first_out_of_order(want, costs, ncosts) == ncosts);
    }
    size_t changed = first_changed_stack(before, stacks, nstacks);
    ok = ok && changed == nstacks;
    if (!ok) {
        describe_inclusive(c, before, nstacks, want, nwant, want_error);
        fprintf(stderr, "  actual:   returns %d (%s)", rc, return_meaning("inclusive", rc));
        if (rc == 0 && problem != NULL) {
            fprintf(stderr, ", but %s\n", problem);
        } else if (rc == 0 && !want_error) {
            fprintf(stderr, " with %zu functions; differences:\n", ncosts);
            if (compare_costs(want, nwant, costs, ncosts, true) == 0) {
                size_t at = first_out_of_order(want, costs, ncosts);
                fprintf(stderr, "    the right costs, in the wrong order: entry %zu is ", at);
                show(costs[at].name);
                fprintf(stderr, " %llu, expected ", (unsigned long long)costs[at].cost);
                show(want[at].name);
                fprintf(stderr, " %llu\n", (unsigned long long)want[at].cost);
            }
        } else {
            fputc('\n', stderr);
        }
        if (changed < nstacks) {
            char what[64];
            snprintf(what, sizeof what, "text of stack %zu", changed + 1);
            show_changed_input(what, stacks[changed].stack);
        }
    }
    free_stacks(before, nstacks);
    if (rc == 0 && costs != NULL) {
        release_costs(costs, ncosts);
    }
    return ok;
}

#define OUT_OF_MEMORY_THEN                                                                         \
    "  then:     the same stacks again, with allocation number 1, 2, 3, ... failing in turn "      \
    "(malloc returns NULL,\n            as when memory runs out) until a call allocates no "       \
    "more: each must return -1 having freed\n            what it allocated, or cope and "          \
    "return the right result\n"

/* The case's stacks again with allocation k failing, for k = 1, 2, ... until a call no
   longer gets that far. Each call returns -1 (a leak on that path shows at the end, from
   LeakSanitizer) or copes and returns the right result. */
static bool check_inclusive_out_of_memory(const Case *c, const InclusiveCase *t) {
    for (long k = 1; k <= 100000; k++) {
        Cost *costs = NULL;
        size_t ncosts = 0;
        alloc_fail_from(k);
        int rc = inclusive(t->stacks, t->nstacks, &costs, &ncosts);
        long asked = alloc_fail_count();
        alloc_fail_from(0);
        bool right = rc == 0 && (ncosts == 0 || costs != NULL) &&
                     compare_costs(t->want, t->nwant, costs, ncosts, false) == 0;
        if (rc == 0 && costs != NULL) {
            release_costs(costs, ncosts);
        }
        const char *problem = NULL;
        if (rc == -1 && asked < k) {
            problem = "returns -1, though no allocation failed";
        } else if (rc == 0 && !right) {
            problem = "returns 0 (success) with a wrong result";
        } else if (rc != 0 && rc != -1) {
            problem = "returns a value inclusive may not return";
        }
        if (problem != NULL) {
            describe_inclusive(c, t->stacks, t->nstacks, t->want, t->nwant, false);
            fputs(OUT_OF_MEMORY_THEN, stderr);
            fprintf(stderr, "  actual:   with allocation number %ld failing, it %s\n", k, problem);
            return false;
        }
        if (asked < k) {
            return true; /* no allocation failed: every failure point was tried */
        }
    }
    return true;
}

static void test_inclusive(void **state) {
    restore_crash_handlers();
    const Case *c = *state;
    InclusiveCase t = read_inclusive_case(c);
    bool out_of_memory = field(c, "out-of-memory") != NULL;

    bool ok = true;
    if (describe_only) {
        describe_inclusive(c, t.stacks, t.nstacks, t.want, t.nwant, t.want_error);
        if (out_of_memory) {
            fputs(OUT_OF_MEMORY_THEN, stderr);
        }
    } else {
        ok = (!t.has_control || check_inclusive(c, t.stacks, t.control_count, t.control_want,
                                                t.ncontrol_want, false, false)) &&
             check_inclusive(c, t.stacks, t.nstacks, t.want, t.nwant, t.want_error,
                             field(c, "order") != NULL);
        if (!ok && out_of_memory) {
            fputs(OUT_OF_MEMORY_FIRST, stderr);
        }
        ok = ok && (!out_of_memory || check_inclusive_out_of_memory(c, &t));
    }

    for (size_t i = 0; i < t.nstacks; i++) {
        free((char *)t.stacks[i].stack);
    }
    for (size_t i = 0; i < t.nwant; i++) {
        free(t.want[i].name);
    }
    for (size_t i = 0; i < t.ncontrol_want; i++) {
        free(t.control_want[i].name);
    }
    free(t.stacks);
    free(t.want);
    free(t.control_want);
    if (!ok) {
        fail();
    }
}

/* ================================================================== main */

/* cmocka catches SIGSEGV and friends itself and carries on. Under AddressSanitizer we
   would rather let ASan report the crash (with the line in profile.c), and without it
   let the process die so the sandbox names the signal. So each test first puts back the
   handlers that were there before cmocka started. */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction saved_handlers[4];

static void save_crash_handlers(void) {
    for (size_t i = 0; i < 4; i++) {
        sigaction(crash_signals[i], NULL, &saved_handlers[i]);
    }
}

static void restore_crash_handlers(void) {
    for (size_t i = 0; i < 4; i++) {
        sigaction(crash_signals[i], &saved_handlers[i], NULL);
    }
}

static void usage(void) {
    fprintf(stderr,
            "usage: test_profile [--fixtures DIR] [--list] [--run NAME] [--describe NAME]\n"
            "                    [--each DIR [--cpu SEC] [--wall SEC] [--memory MB]\n"
            "                     [--output BYTES] [--jobs N] [--only PREFIX] [--status-fd FD]]\n");
    exit(2);
}

/* Every case as a cmocka test, in file order (parse_row, sum_named, inclusive). */
static struct CMUnitTest *tests;

/* One test in this process, the cmocka way (fork_tests calls it in each child). */
static int run_one(size_t i, bool describe, void *context) {
    (void)context;
    describe_only = describe;
    return _cmocka_run_group_tests("exercise 165", &tests[i], 1, NULL, NULL) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    bool list = false;
    const char *run = NULL;
    ForkOptions each = fork_tests_defaults();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            list = true;
        } else if (strcmp(argv[i], "--run") == 0 && i + 1 < argc) {
            run = argv[++i];
        } else if (strcmp(argv[i], "--describe") == 0 && i + 1 < argc) {
            run = argv[++i];
            describe_only = true;
        } else if (strcmp(argv[i], "--fixtures") == 0 && i + 1 < argc) {
            fixtures_dir = argv[++i];
        } else if (!fork_tests_option(argc, argv, &i, &each)) {
            usage();
        }
    }

    static const char *const functions[] = {"parse_row", "sum_named", "inclusive"};
    static const CMUnitTestFunction tests_of[] = {test_parse_row, test_sum_named, test_inclusive};
    size_t first_of[4];
    for (size_t f = 0; f < 3; f++) {
        first_of[f] = ncases;
        load_cases(functions[f]);
    }
    first_of[3] = ncases;

    tests = checked_malloc(ncases * sizeof(struct CMUnitTest));
    const char **names = checked_malloc(ncases * sizeof(char *));
    bool found = run == NULL;
    for (size_t f = 0; f < 3; f++) {
        for (size_t i = first_of[f]; i < first_of[f + 1]; i++) {
            tests[i] = (struct CMUnitTest){cases[i].name, tests_of[f], NULL, NULL, &cases[i]};
            names[i] = cases[i].name;
            found = found || strcmp(cases[i].name, run) == 0;
            if (list) {
                printf("%s\n", cases[i].name);
            }
        }
    }
    int failed = 0;
    if (!list && !found) {
        fprintf(stderr, "test_profile: no test called '%s' (see --list)\n", run);
        failed = 2;
    } else if (!list && each.dir != NULL) {
        save_crash_handlers();
        failed = fork_tests_run(&each, names, ncases, run_one, NULL);
    } else if (!list) {
        save_crash_handlers();
        if (run != NULL) {
            cmocka_set_test_filter(run); /* test names hold no wildcards: an exact match */
        }
        /* cmocka_run_group_tests() is a macro that needs an array of fixed size; this is
           the function it calls, taking the count of our array built at run time. */
        failed = _cmocka_run_group_tests("exercise 165", tests, ncases, NULL, NULL) == 0 ? 0 : 1;
    }
    free(names);
    free(tests);
    free_cases();
    return failed;
}
