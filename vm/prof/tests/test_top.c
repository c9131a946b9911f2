/* test_top.c: the self/inclusive tables (vm/prof/top.c): callgrind_annotate's
 * row format, self costs from the leaves, and the inclusive costs written as
 * they are given (dripprof takes them from a checker; here they are written
 * out by hand, the handout's own example). */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "top.h"

static FoldedLine line(const char *stack, uint64_t count) {
    return (FoldedLine){.stack = stack, .length = strlen(stack), .count = count};
}

/* The report of the stacks, with the inclusive costs given (NULL: no table). */
static char *report_of(const FoldedLine *stacks, size_t count, uint64_t total,
                       const Cost *inclusive, size_t ninclusive) {
    Cost *self;
    size_t nself;
    assert_int_equal(top_self_costs(stacks, count, &self, &nself), 0);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    TopReport report = {.source = "t",
                        .kind = "folded stacks",
                        .countname = "samples",
                        .total = total,
                        .self = self,
                        .nself = nself,
                        .inclusive = inclusive,
                        .ninclusive = ninclusive};
    assert_int_equal(top_write(&report, out), 0);
    fclose(out);
    costs_free(self, nself);
    return text;
}

static void self_costs_come_from_the_leaves(void **state) {
    (void)state;
    const FoldedLine stacks[] = {line("main;run;fib;fib;fib", 10), line("main;run;fib", 5),
                                 line("main;run;op_add", 3), line("main;other", 2)};
    Cost *self;
    size_t n;
    assert_int_equal(top_self_costs(stacks, 4, &self, &n), 0);
    assert_int_equal(n, 3); /* main and run end no stack */
    assert_string_equal(self[0].name, "fib");
    assert_int_equal(self[0].cost, 15);
    assert_string_equal(self[1].name, "op_add");
    assert_string_equal(self[2].name, "other");
    costs_free(self, n);
}

static void the_report_has_both_tables(void **state) {
    (void)state;
    const FoldedLine stacks[] = {line("main;run;fib;fib;fib", 10), line("main;run;fib", 5),
                                 line("main;run;op_add", 3), line("main;other", 2)};
    Cost inclusive[] = {{"main", 20}, {"run", 18}, {"fib", 15}, {"op_add", 3}, {"other", 2}};
    char *text = report_of(stacks, 4, 20, inclusive, 5);
    assert_string_equal(text, "-------------------------------------------------------------------"
                              "-------------\n"
                              "Profile data file 't' (folded stacks)\n"
                              "Events shown:     samples\n"
                              "-------------------------------------------------------------------"
                              "-------------\n\nsamples\n"
                              "-------------------------------------------------------------------"
                              "-------------\n"
                              "20 (100.0%)  PROGRAM TOTALS\n\n"
                              "-------------------------------------------------------------------"
                              "-------------\n"
                              "samples (self)  function\n"
                              "-------------------------------------------------------------------"
                              "-------------\n"
                              "15 (75.00%)  fib\n 3 (15.00%)  op_add\n 2 (10.00%)  other\n\n"
                              "-------------------------------------------------------------------"
                              "-------------\n"
                              "samples (inclusive, once per stack)  function\n"
                              "-------------------------------------------------------------------"
                              "-------------\n"
                              "20 (100.0%)  main\n18 (90.00%)  run\n15 (75.00%)  fib\n"
                              " 3 (15.00%)  op_add\n 2 (10.00%)  other\n");
    free(text);
    /* without inclusive costs, the self table ends the report */
    text = report_of(stacks, 4, 20, NULL, 0);
    assert_null(strstr(text, "inclusive"));
    assert_non_null(strstr(text, " 2 (10.00%)  other\n"));
    free(text);
}

static void rows_look_like_callgrind_annotate(void **state) {
    (void)state;
    const FoldedLine stacks[] = {
        line("main;Vm::run", 15676869738u), line("main;Vm::run;Vm::call", 2418717018u),
        line("main;Vm::run;Table::get", 1194428240u), line("main", 896259406u)};
    char *text = report_of(stacks, 4, 20186274402u, NULL, 0);
    assert_non_null(strstr(text, "\n20,186,274,402 (100.0%)  PROGRAM TOTALS\n"));
    assert_non_null(strstr(text, "\n15,676,869,738 (77.66%)  Vm::run\n"));
    assert_non_null(strstr(text, "\n 1,194,428,240 ( 5.92%)  Table::get\n"));
    free(text);
}

static void ties_sort_by_name(void **state) {
    (void)state;
    const FoldedLine stacks[] = {line("b", 5), line("a", 5), line("c", 6)};
    char *text = report_of(stacks, 3, 16, NULL, 0);
    assert_non_null(strstr(text, "\n 6 (37.50%)  c\n 5 (31.25%)  a\n 5 (31.25%)  b\n"));
    free(text);
}

static void inclusive_costs_are_written_in_the_order_given(void **state) {
    (void)state;
    const FoldedLine stacks[] = {line("a;b", 5)};
    Cost inclusive[] = {{"b", 5}, {"a", 5}, {"never", 0}}; /* not sorted; 0 has no row */
    char *text = report_of(stacks, 1, 5, inclusive, 3);
    assert_non_null(strstr(text, "function\n-------------------------------------------------------"
                                 "-------------------------\n5 (100.0%)  b\n5 (100.0%)  a\n"));
    assert_null(strstr(text, "never"));
    free(text);
}

PROF_TEST_GROUP(top_tests, "top", cmocka_unit_test(self_costs_come_from_the_leaves),
                cmocka_unit_test(the_report_has_both_tables),
                cmocka_unit_test(rows_look_like_callgrind_annotate),
                cmocka_unit_test(ties_sort_by_name),
                cmocka_unit_test(inclusive_costs_are_written_in_the_order_given))
