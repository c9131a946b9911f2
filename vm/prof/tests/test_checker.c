/* test_checker.c: `dripprof top/files/rows --with CHECKER` against the fake checker.
 *
 * fake_checker.sh answers from files and computes nothing. The answers in
 * tests/data/answers were the chapter's reference's, written once, and the
 * outputs in tests/data/expected were dripprof's own before it asked a
 * checker; given those answers, dripprof must print exactly those bytes. The
 * other tests feed it answers a stub, a broken function or a broken checker
 * would give, and check the one message and the exit status of each: 3 the
 * function is not ready, 4 the checker cannot be run, 5 its answers do not
 * fit the case. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "tsv.h"

#define DATA PROF_DATA_DIR "/"
#define ANSWERS DATA "answers/"
#define EXPECTED DATA "expected/"
#define FROM_FAKE "() from " PROF_FAKE_CHECKER " "

/* answers as a scratch file (its path, static: one at a time). */
static const char *answers_file(const char *text) {
    static char path[512];
    snprintf(path, sizeof path, "%s", prof_scratch_file("answers.tsv", text, strlen(text)));
    return path;
}

/* stdout of a run that must succeed (malloc'd). */
static char *checked_output(const char *env, const char *answers, const char *args) {
    char *out, *err;
    int status = prof_run_checked(env, answers, args, &out, &err);
    if (status != 0) {
        fail_msg("dripprof %s: exit %d: %s", args, status, err);
    }
    free(err);
    return out;
}

static void expect_file(const char *answers, const char *args, const char *expected) {
    char *out = checked_output("", answers, args);
    char *want = prof_slurp(expected, NULL);
    assert_non_null(want);
    if (strcmp(out, want) != 0) {
        fail_msg("dripprof %s: the output differs from %s:\n%s", args, expected, out);
    }
    free(out);
    free(want);
}

static void expect_failure(const char *env, const char *answers, const char *args, int status,
                           const char *message) {
    char *out, *err;
    int got = prof_run_checked(env, answers, args, &out, &err);
    if (got != status || strstr(err, message) == NULL) {
        fail_msg("%s dripprof %s: exit %d, stderr \"%s\"; want exit %d and \"%s\"", env, args, got,
                 err, status, message);
    }
    free(out);
    free(err);
}

static void right_answers_give_the_tables_as_before(void **state) {
    (void)state;
    expect_file(ANSWERS "names.inclusive.tsv", "top " DATA "names.folded",
                EXPECTED "top-names.txt");
    expect_file(ANSWERS "fib.inclusive.tsv", "top " DATA "fib.callgrind.out",
                EXPECTED "top-fib.txt");
    expect_file(ANSWERS "fib.inclusive.tsv", "top --limit 5 " DATA "fib.callgrind.out",
                EXPECTED "top-fib-limit5.txt");
    expect_file(ANSWERS "shared-jumps.rows.tsv", "files " DATA "shared-jumps.annotate.txt",
                EXPECTED "files-shared-jumps.txt");
    expect_file(ANSWERS "shared-jumps.rows.tsv", "rows " DATA "shared-jumps.annotate.txt",
                EXPECTED "rows-shared-jumps.txt");
    expect_file(ANSWERS "shared-jumps.rows.tsv", "rows --table " DATA "shared-jumps.annotate.txt",
                EXPECTED "rows-shared-jumps.txt");
    expect_file(ANSWERS "source.rows.tsv", "rows " DATA "source.annotate.txt",
                EXPECTED "rows-source.txt");
    expect_file(ANSWERS "source.table.tsv", "rows --table - < " DATA "source.annotate.txt",
                EXPECTED "rows-source-table.txt");
    expect_file(ANSWERS "source.table.tsv", "files " DATA "source.annotate.txt",
                EXPECTED "files-source.txt");
}

/* The cases file dripprof wrote for `dripprof args` (malloc'd). */
static char *cases_of(const char *answers, const char *args) {
    char scratch[4096], env[4200];
    prof_scratch_file("kept-cases.tsv", "", 0);
    assert_non_null(realpath(PROF_SCRATCH, scratch)); /* the checker runs in a folder of its own */
    snprintf(env, sizeof env, "FAKE_KEEP=%s/kept-cases.tsv", scratch);
    free(checked_output(env, answers, args));
    char *cases = prof_slurp(PROF_SCRATCH "/kept-cases.tsv", NULL);
    assert_non_null(cases);
    return cases;
}

/* What the cases file for `dripprof COMMAND` holds for the lines of text: one field KEY
 * per line, escaped, with or without its "\n" (malloc'd). */
static char *case_of_lines(const char *name, const char *key, const char *text, bool newline) {
    char *expected = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&expected, &size);
    for (const char *line = text; *line != '\0';) {
        size_t length = strcspn(line, "\n");
        size_t with_end = length + (line[length] == '\n');
        fprintf(out, "%s\t%s\t", name, key);
        tsv_field(out, line, newline ? with_end : length);
        fputc('\n', out);
        line += with_end;
    }
    fclose(out);
    return expected;
}

static void the_cases_file_holds_the_input(void **state) {
    (void)state;
    char *cases = cases_of(ANSWERS "names.inclusive.tsv", "top " DATA "names.folded");
    assert_string_equal(cases, "inclusive.top\torder\tchecked\n"
                               "inclusive.top\tstack\t(below main);main;f x 5\n"
                               "inclusive.top\tstack\tmain;run;fib;fib;fib 10\n"
                               "inclusive.top\tstack\t(below main);main;f x 4\n"
                               "inclusive.top\tstack\tmain;other 2\n"
                               "inclusive.top\tstack\tmain;caf\\xc3\\xa9 3\n"
                               "inclusive.top\tstack\tmain;back\\\\slash 1\n"
                               "inclusive.top\tstack\tmain 1\n");
    free(cases);
    /* a callgrind profile: the stacks of `dripprof fold` */
    char *folded, *err;
    assert_int_equal(prof_run(PROF_DRIPPROF, "fold " DATA "fib.callgrind.out", &folded, &err), 0);
    free(err);
    char *stacks = case_of_lines("inclusive.top", "stack", folded, false);
    cases = cases_of(ANSWERS "fib.inclusive.tsv", "top " DATA "fib.callgrind.out");
    assert_string_equal(cases + strlen("inclusive.top\torder\tchecked\n"), stacks);
    free(cases);
    free(stacks);
    free(folded);
    /* annotate output: every line, its "\n" included, as far as the command reads */
    char *text = prof_slurp(DATA "shared-jumps.annotate.txt", NULL);
    char *lines = case_of_lines("parse_row.files", "line", text, true);
    cases = cases_of(ANSWERS "shared-jumps.rows.tsv", "files " DATA "shared-jumps.annotate.txt");
    assert_string_equal(cases, lines);
    free(cases);
    free(lines);
    free(text);
    cases = cases_of(ANSWERS "source.table.tsv", "files " DATA "source.annotate.txt");
    assert_non_null(strstr(cases, "\tline\tIr  file:function\\n\n"));
    assert_null(strstr(cases, "Auto-annotated")); /* after the table: not asked */
    free(cases);
    const char *crlf = prof_scratch_file("crlf.annotate.txt", "5 (100.0%)  PROGRAM TOTALS\r\n", 28);
    char args[600];
    snprintf(args, sizeof args, "rows %s", crlf);
    cases = cases_of(answers_file("row:1\t1 ir=5 pct=100.000 name=\"PROGRAM TOTALS\"\nend\tok\n"),
                     args);
    assert_string_equal(cases, "parse_row.rows\tline\t5 (100.0%)  PROGRAM TOTALS\\r\\n\n");
    free(cases);
}

static void without_a_checker_top_has_the_self_table_only(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(prof_run(PROF_DRIPPROF, "top " DATA "names.folded", &out, &err), 0);
    char *full = prof_slurp(EXPECTED "top-names.txt", NULL);
    char *inclusive = strstr(full, "\n-----------------------------------------"
                                   "---------------------------------------\nsamples (inclusive");
    assert_non_null(inclusive);
    inclusive[0] = '\0';
    assert_string_equal(out, full);
    assert_non_null(strstr(err, "dripprof top: no inclusive table: it needs --with CHECKER"));
    free(full);
    free(out);
    free(err);
    prof_expect(PROF_DRIPPROF, "files " DATA "source.annotate.txt", 2, NULL,
                "dripprof: files: needs --with CHECKER: a chapter's checker that runs parse_row()");
    prof_expect(PROF_DRIPPROF, "rows --table " DATA "source.annotate.txt", 2, NULL,
                "dripprof: rows: needs --with CHECKER");
}

static void a_function_not_written_yet_is_named(void **state) {
    (void)state;
    expect_failure("", answers_file("count\t-1\nend\tok\n"), "top " DATA "names.folded", 3,
                   "dripprof top: inclusive" FROM_FAKE "is not written yet (it returned -1)");
    expect_failure("",
                   answers_file("row:1\t-1\nrow:2\t-1\nrow:3\t-1\nrow:4\t-1\nrow:5\t-1\n"
                                "row:6\t-1\nrow:7\t-1\nrow:8\t-1\nrow:9\t-1\nend\tok\n"),
                   "files " DATA "source.annotate.txt", 3,
                   "dripprof files: parse_row" FROM_FAKE "is not written yet (it returned -1 on "
                   "every line of " DATA "source.annotate.txt)");
    /* -1 among right answers is an error of its own */
    expect_failure("", answers_file("row:1\t0\nrow:2\t-1\nend\tok\n"),
                   "rows " DATA "shared-jumps.annotate.txt", 3,
                   "dripprof rows: parse_row" FROM_FAKE "returned -1 (an error) on " DATA
                   "shared-jumps.annotate.txt:2 \"");
}

static void a_crash_a_loop_and_an_early_stop_are_named(void **state) {
    (void)state;
    const char *answers = ANSWERS "names.inclusive.tsv", *top = "top " DATA "names.folded";
    expect_failure("FAKE_MISBEHAVE=crash", answers, top, 3,
                   "dripprof top: inclusive" FROM_FAKE
                   "crashed (SIGSEGV: a bad pointer, or endless recursion)");
    expect_failure("FAKE_MISBEHAVE=loop DRIPPROF_CPU_SECONDS=0.5", answers, top, 3,
                   "inclusive" FROM_FAKE "did not finish in 0.5 s of CPU time (an endless loop?)");
    expect_failure("FAKE_MISBEHAVE=noend", answers, top, 3,
                   "inclusive" FROM_FAKE "stopped before it answered everything (exit 0, no end "
                   "line in its answers");
    expect_failure("FAKE_MISBEHAVE=flood", answers, top, 3,
                   "inclusive" FROM_FAKE "printed too much (output limit");
    expect_failure("FAKE_MISBEHAVE=fail", answers, top, 5,
                   "inclusive" FROM_FAKE "answered, then ended with exit 1");
    /* what the checker said last comes with the message */
    expect_failure("FAKE_MISBEHAVE=chatter-crash", answers, top, 3,
                   "crashed (SIGSEGV: a bad pointer, or endless recursion)\n"
                   "  fix it (the exercise's own tests show where), rebuild " PROF_FAKE_CHECKER
                   ", run this again\n"
                   "  its stderr ends:\n    debug: two\n    debug: three\n    debug: four\n");
    /* a checker that refuses the case says so in its stderr */
    char *out, *err;
    assert_int_equal(prof_run_checked("FAKE_MISBEHAVE=refuse", answers, top, &out, &err), 3);
    assert_non_null(strstr(err, "fake_checker: cases.tsv: no case inclusive.top"));
    free(out);
    free(err);
}

typedef struct {
    const char *args, *answers, *message;
} Case;

static void run_cases(const Case *cases, size_t count, int status) {
    for (size_t i = 0; i < count; i++) {
        expect_failure("", answers_file(cases[i].answers), cases[i].args, status, cases[i].message);
    }
}

#define TOP "top " DATA "names.folded"
#define ROWS "rows " DATA "source.annotate.txt"
/* parse_row()'s answers for source.annotate.txt, line 3 replaced by ANSWER */
#define SOURCE_ROWS(answer)                                                                        \
    "row:1\t0\nrow:2\t0\nrow:3\t" answer "\nrow:4\t0\nrow:5\t0\nrow:6\t0\nrow:7\t0\nrow:8\t0\n"    \
    "row:9\t0\nrow:10\t0\nrow:11\t0\nend\tok\n"
#define SOURCE_LINE_3 DATA "source.annotate.txt:3 \"100 (100.0%)  PROGRAM TOTALS\\n\": "

static void a_broken_contract_is_named_with_file_and_line(void **state) {
    (void)state;
    static const Case cases[] = {
        {TOP, "count\t0 n=2\ncosts\tNULL\nend\tok\n",
         "dripprof top: inclusive" FROM_FAKE "broke its contract: it returned 0 and 2 functions, "
         "but no array (NULL)"},
        {TOP, "count\treturned-7\nend\tok\n", "broke its contract: it returned 7, not 0 or -1"},
        {ROWS, SOURCE_ROWS("0 but-name-is-not-NULL"),
         "dripprof rows: parse_row" FROM_FAKE "broke its contract on " SOURCE_LINE_3
         "it returned 0 (not a row) but set row->name, which must then be NULL"},
        {ROWS, SOURCE_ROWS("returned-2"), SOURCE_LINE_3 "it returned neither 1, 0 nor -1"},
        {ROWS, SOURCE_ROWS("1 ir=100 pct=100.000 name=NULL"),
         SOURCE_LINE_3 "it returned 1 (a row) but gave no name (NULL)"},
        {ROWS, SOURCE_ROWS("1 ir=100 pct=none-but-pct-is-5.000 name=\"PROGRAM TOTALS\""),
         SOURCE_LINE_3 "it said the row shows no percentage (has_pct false) but set pct"},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 3);
}

static void answers_that_do_not_fit_the_case_are_the_checkers(void **state) {
    (void)state;
    static const Case cases[] = {
        /* another function's answers */
        {TOP, SOURCE_ROWS("0"),
         "dripprof top: inclusive" FROM_FAKE "gave answers that do not answer the case "
         "inclusive.top: answer 1 is \"row:1\\t0\", where count\\t0 n=N (or -1) was due\n"
         "  is " PROF_FAKE_CHECKER " a checker for this dripprof? (the protocol: "
         "vm/prof/README.md)\n"},
        {ROWS, "count\t-1\nend\tok\n",
         "parse_row" FROM_FAKE "gave answers that do not answer the case parse_row.rows: answer "
         "1 is \"count\\t-1\""},
        /* another case of the same function: fewer or more lines */
        {ROWS, "row:1\t0\nrow:2\t0\nend\tok\n", "answer 3 is missing, where row:I"},
        {"rows --table " DATA "source.annotate.txt", SOURCE_ROWS("0"),
         "answer 10 is \"row:10\\t0\", where the end line (one answer per line) was due"},
        {TOP, "count\t0 n=2\ncost:main\trank=1 cost=26\nend\tok\n",
         "answer 3 is missing, where one cost:NAME line per function was due"},
        {TOP, "count\t0 n=1\ncost:main\trank=1 cost=26\ncost:fib\trank=2 cost=1\nend\tok\n",
         "answer 3 is \"cost:fib\\trank=2 cost=1\", where one cost:NAME line per function"},
        /* garbage */
        {TOP, "count\tbanana\nend\tok\n", "answer 1 is \"count\\tbanana\""},
        {TOP, "count\t0 n=1\ncost:main\trank=2 cost=26\nend\tok\n",
         "answer 2 is \"cost:main\\trank=2 cost=26\", where cost:NAME\\trank=R cost=C was due"},
        {TOP, "count\t0 n=1\ncost:main\trank=1 cost=-3\nend\tok\n", "answer 2 is"},
        {ROWS, SOURCE_ROWS("1 ir=1,000 pct=none name=\"x\""), "answer 3 is \"row:3\\t1 ir=1,000"},
        {ROWS, SOURCE_ROWS("1 ir=100 pct=none name=x"), "answer 3 is"},
        {ROWS, SOURCE_ROWS("yes"), "answer 3 is \"row:3\\tyes\""},
        {ROWS, "row:2\t0\nrow:1\t0\nend\tok\n", "answer 1 is \"row:2\\t0\""},
        /* lines that are not answer lines */
        {TOP, "count 0 n=0\nend\tok\n",
         "wrote an answer line dripprof cannot read (line 1: no TAB between key and answer)"},
        {TOP, "count\t0 n=0\\q\nend\tok\n",
         "wrote an answer line dripprof cannot read (line 1: a bad escape, or \\x00)"},
        {TOP, "count\t0 n=1\ncost:a\\x00b\trank=1 cost=26\nend\tok\n",
         "wrote an answer line dripprof cannot read (line 2: a bad escape, or \\x00)"},
        {TOP, "count\t0 n=0\nend\tok\ncount\t0 n=0\n",
         "wrote an answer line dripprof cannot read (line 3: after the end line)"},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 5);
}

static void escaped_answers_give_the_raw_names(void **state) {
    (void)state;
    /* a TAB, a backslash and UTF-8 in a name: escaped in the answer, raw in the table */
    const char *answers = "count\t0 n=2\ncost:a\\tb\trank=1 cost=3\ncost:caf\\xc3\\xa9\\\\\t"
                          "rank=2 cost=2\nend\tok\n";
    char *out = checked_output("", answers_file(answers), TOP);
    assert_non_null(strstr(out, "\n 3 (11.54%)  a\tb\n 2 ( 7.69%)  caf\xc3\xa9\\\n"));
    free(out);
    char *rows = checked_output(
        "", answers_file(SOURCE_ROWS("1 ir=100 pct=none name=\"say \"hi\"\\tthere\"")), ROWS);
    assert_string_equal(rows, "3\t100\t\tsay \"hi\"\\tthere\t\tsay \"hi\"\\tthere\t\n");
    free(rows);
}

static void a_checker_or_sandbox_that_cannot_run_is_named(void **state) {
    (void)state;
    prof_expect(PROF_DRIPPROF, TOP " --with build/no-such-checker", 4, NULL,
                "dripprof top: cannot run the checker build/no-such-checker: No such file or "
                "directory");
    prof_expect(PROF_DRIPPROF, "files " DATA "source.annotate.txt --with " DATA "names.folded", 4,
                NULL,
                "dripprof files: cannot run the checker " DATA "names.folded: it is not "
                "executable");
    prof_expect(PROF_DRIPPROF, TOP " --with " PROF_DATA_DIR, 4, NULL, "it is a directory");
    char args[600];
    snprintf(args, sizeof args, "%s --with %s --sandbox build/no-such-sandbox", TOP,
             PROF_FAKE_CHECKER);
    prof_expect(PROF_DRIPPROF, args, 4, NULL,
                "dripprof top: no sandbox at build/no-such-sandbox (No such file or directory): "
                "run make sandbox, or name one with --sandbox PATH");
    expect_failure("DRIPPROF_CPU_SECONDS=ten", ANSWERS "names.inclusive.tsv", TOP, 2,
                   "dripprof top: DRIPPROF_CPU_SECONDS wants seconds above 0 (e.g. 60 or 0.5), "
                   "not 'ten'");
    /* bad input is still bad input, found before any checker runs */
    expect_failure("FAKE_MISBEHAVE=crash", ANSWERS "names.inclusive.tsv",
                   "files " DATA "names.folded", 1,
                   "names.folded:7: no \"Ir  file:function\" table");
    expect_failure("FAKE_MISBEHAVE=crash", NULL, "rows - < /dev/null", 1,
                   "dripprof: <stdin>: no row with a count");
}

PROF_TEST_GROUP(checker_tests, "dripprof with a checker",
                cmocka_unit_test(right_answers_give_the_tables_as_before),
                cmocka_unit_test(the_cases_file_holds_the_input),
                cmocka_unit_test(without_a_checker_top_has_the_self_table_only),
                cmocka_unit_test(a_function_not_written_yet_is_named),
                cmocka_unit_test(a_crash_a_loop_and_an_early_stop_are_named),
                cmocka_unit_test(a_broken_contract_is_named_with_file_and_line),
                cmocka_unit_test(answers_that_do_not_fit_the_case_are_the_checkers),
                cmocka_unit_test(escaped_answers_give_the_raw_names),
                cmocka_unit_test(a_checker_or_sandbox_that_cannot_run_is_named))
