/* test_top.c: the self/inclusive tables (vm/prof/top.c), read back with the
 * chapter's parse_row so the format stays what the exercise parses. Every test
 * needs the exercise's functions, so the student edition's suite skips them. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "top.h"

typedef struct {
    Row rows[64];
    size_t count;
} Table;

/* Splits the report into the totals, self and inclusive tables. */
static void read_report(char *report, Table tables[3]) {
    int table = -1;
    memset(tables, 0, 3 * sizeof *tables);
    for (char *line = strtok(report, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strcmp(line, "Ir") == 0 || strcmp(line, "samples") == 0) {
            table = 0;
        } else if (strstr(line, "(self)") != NULL && strstr(line, "function") != NULL) {
            table = 1;
        } else if (strstr(line, "(inclusive") != NULL && strstr(line, "function") != NULL) {
            table = 2;
        }
        Row row;
        int status = parse_row(line, &row);
        assert_int_not_equal(status, -1);
        if (status == 1) {
            assert_true(table >= 0);
            assert_true(tables[table].count < 64);
            tables[table].rows[tables[table].count++] = row;
        }
    }
}

static uint64_t cost_of(const Table *t, const char *name) {
    for (size_t i = 0; i < t->count; i++) {
        if (strcmp(t->rows[i].name, name) == 0) {
            return t->rows[i].ir;
        }
    }
    return 0;
}

static void free_tables(Table tables[3]) {
    for (int t = 0; t < 3; t++) {
        for (size_t i = 0; i < tables[t].count; i++) {
            free(tables[t].rows[i].name);
        }
    }
}

static char *report_of(const Folded *stacks, size_t count, uint64_t total) {
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    TopOptions options = {.source = "t", .kind = "folded stacks", .countname = "samples"};
    const char *error;
    assert_int_equal(top_write(stacks, count, total, &options, out, &error), 0);
    fclose(out);
    return text;
}

static void tables_read_back_with_parse_row(void **state) {
    (void)state;
    PROF_NEEDS_EXERCISE();
    const Folded stacks[] = {{"main;run;fib;fib;fib", 10},
                             {"main;run;fib", 5},
                             {"main;run;op_add", 3},
                             {"main;other", 2}};
    char *text = report_of(stacks, 4, 20);
    Table t[3];
    read_report(text, t);
    assert_int_equal(t[0].count, 1);
    assert_string_equal(t[0].rows[0].name, "PROGRAM TOTALS");
    assert_int_equal(t[0].rows[0].ir, 20);
    assert_true(t[0].rows[0].has_pct);
    /* self: the lines each function ends */
    assert_int_equal(cost_of(&t[1], "fib"), 15);
    assert_int_equal(cost_of(&t[1], "op_add"), 3);
    assert_int_equal(cost_of(&t[1], "other"), 2);
    assert_int_equal(cost_of(&t[1], "run"), 0); /* no row: no self cost */
    assert_string_equal(t[1].rows[0].name, "fib");
    /* inclusive: once per stack, so fib is 15, not 35 */
    assert_int_equal(cost_of(&t[2], "main"), 20);
    assert_int_equal(cost_of(&t[2], "run"), 18);
    assert_int_equal(cost_of(&t[2], "fib"), 15);
    assert_string_equal(t[2].rows[0].name, "main");
    assert_true(t[2].rows[1].pct > 89.99 && t[2].rows[1].pct < 90.01);
    free_tables(t);
    free(text);
}

static void rows_look_like_callgrind_annotate(void **state) {
    (void)state;
    PROF_NEEDS_EXERCISE();
    const Folded stacks[] = {{"main;Vm::run", 15676869738u},
                             {"main;Vm::run;Vm::call", 2418717018u},
                             {"main;Vm::run;Table::get", 1194428240u},
                             {"main", 896259406u}};
    char *text = report_of(stacks, 4, 20186274402u);
    assert_non_null(strstr(text, "\n20,186,274,402 (100.0%)  PROGRAM TOTALS\n"));
    assert_non_null(strstr(text, "\n15,676,869,738 (77.66%)  Vm::run\n"));
    assert_non_null(strstr(text, "\n 1,194,428,240 ( 5.92%)  Table::get\n"));
    free(text);
}

static void ties_sort_by_name(void **state) {
    (void)state;
    PROF_NEEDS_EXERCISE();
    const Folded stacks[] = {{"b", 5}, {"a", 5}, {"c", 6}};
    char *text = report_of(stacks, 3, 16);
    Table t[3];
    read_report(text, t);
    assert_string_equal(t[1].rows[0].name, "c");
    assert_string_equal(t[1].rows[1].name, "a");
    assert_string_equal(t[1].rows[2].name, "b");
    free_tables(t);
    free(text);
}

PROF_TEST_GROUP(top_tests, "top", cmocka_unit_test(tables_read_back_with_parse_row),
                cmocka_unit_test(rows_look_like_callgrind_annotate),
                cmocka_unit_test(ties_sort_by_name))
