/* test_cli.c: build/dripprof as a user runs it: help, exit codes, and bad
 * input answered with "FILE:LINE: message" instead of a crash. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "top.h"

/* Runs dripprof with args (a shell fragment); returns the exit status and
 * fills *out / *err with what it printed (malloc'd). */
static int run(const char *args, char **out, char **err) {
    return prof_run(PROF_DRIPPROF, args, out, err);
}

static void every_command_has_help(void **state) {
    (void)state;
    static const char *const commands[][2] = {
        {"--help", "usage: dripprof COMMAND"},     {"fold --help", "usage: dripprof fold"},
        {"flame --help", "usage: dripprof flame"}, {"top --help", "usage: dripprof top"},
        {"calls --help", "usage: dripprof calls"}, {"files --help", "usage: dripprof files"}};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char *out, *err;
        assert_int_equal(run(commands[i][0], &out, &err), 0);
        assert_non_null(strstr(out, commands[i][1]));
        free(out);
        free(err);
    }
    char *out, *err;
    assert_int_equal(run("", &out, &err), 2);
    assert_non_null(strstr(err, "usage:"));
    free(out);
    free(err);
    assert_int_equal(run("frob x", &out, &err), 2);
    assert_non_null(strstr(err, "unknown command 'frob'"));
    free(out);
    free(err);
    assert_int_equal(run("flame --width", &out, &err), 2);
    free(out);
    free(err);
}

typedef struct {
    const char *command;
    const char *file;
    const char *data;
    size_t length;
    const char *message; /* expected in stderr after the scratch path */
} BadInput;

static void bad_inputs_get_file_and_line(void **state) {
    (void)state;
    static const BadInput cases[] = {
        {"fold", "empty.out", "", 0, "empty.out: empty file"},
        {"fold", "binary.out",
         "\x7f"
         "ELF\x02\x01\x01\0\0\0",
         10, "binary.out:1: binary data"},
        {"fold", "folded.out", "main;fib 5\n", 0,
         "folded.out:1: folded stacks, not a callgrind profile"},
        {"fold", "crlf-bad.out", "events: Ir\r\nfn=(1) a\r\n0 5\r\ntotals: 9\r\n", 0,
         "crlf-bad.out:4: the self costs add up to 5"},
        {"flame", "empty.folded", "", 0, "empty.folded: no stack with a count above 0"},
        {"flame", "bad.folded", "a;b 1\nc;d\n", 0, "bad.folded:2: no count"},
        {"flame", "binary.folded", "a 1\n\0\0\0", 7, "binary.folded:2: binary data"},
        {"top", "bad.folded", "a 1\r\nb 2.5\r\n", 0, "bad.folded:2: count is not an integer"},
        {"top", "empty.folded", "\n\n", 0, "empty.folded: no stacks"},
        {"top", "trunc.out", "# callgrind format\nevents: Ir\nsummary: 10\nfn=(1) a\n0 4\n", 0,
         "trunc.out:5: the self costs add up to 4 but summary: says 10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t length = cases[i].length ? cases[i].length : strlen(cases[i].data);
        const char *path = prof_scratch_file(cases[i].file, cases[i].data, length);
        assert_non_null(path);
        char args[1024], expected[1024];
        snprintf(args, sizeof args, "%s %s", cases[i].command, path);
        snprintf(expected, sizeof expected, "dripprof: %s/%s", PROF_SCRATCH, cases[i].message);
        char *out, *err;
        int status = run(args, &out, &err);
        if (status != 1 || strstr(err, expected) == NULL) {
            fail_msg("case %zu (%s): exit %d, stderr \"%s\", want \"%s\"", i, args, status, err,
                     expected);
        }
        free(out);
        free(err);
    }
    char *out, *err;
    assert_int_equal(run("top build/no-such-file", &out, &err), 1);
    assert_non_null(strstr(err, "build/no-such-file: cannot open"));
    free(out);
    free(err);
}

static void crlf_folded_input_is_fine(void **state) {
    (void)state;
    const char *path = prof_scratch_file("crlf.folded", "main;a 3\r\nmain 1\r\n", 18);
    char args[512];
    snprintf(args, sizeof args, "top %s", path);
    char *out, *err;
    assert_int_equal(run(args, &out, &err), 0);
    assert_non_null(strstr(out, "4 (100.0%)  PROGRAM TOTALS"));
    free(out);
    free(err);
}

static void fold_output_adds_up_to_totals(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(
        run("fold --stats " PROF_DATA_DIR "/shared-separate.callgrind.out", &out, &err), 0);
    Callgrind g;
    assert_int_equal(callgrind_read_file(PROF_DATA_DIR "/shared-separate.callgrind.out", &g), 0);
    uint64_t sum = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        sum += strtoull(strrchr(line, ' ') + 1, NULL, 10);
    }
    assert_int_equal(sum, g.totals);
    assert_non_null(strstr(err, "exact stacks"));
    callgrind_free(&g);
    free(out);
    free(err);
}

static void top_of_a_profile_matches_callgrind_self(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(run("top " PROF_DATA_DIR "/fib.callgrind.out", &out, &err), 0);
    Callgrind g;
    assert_int_equal(callgrind_read_file(PROF_DATA_DIR "/fib.callgrind.out", &g), 0);
    uint64_t fib_self = 0;
    for (size_t f = 0; f < g.function_count; f++) {
        const char *name = callgrind_function_name(&g, f);
        if (strcmp(name, "fib") == 0 || strcmp(name, "fib'2") == 0) {
            fib_self += g.functions[f].self;
        }
    }
    /* the self table's first row: fib and fib'2 are one function */
    char *row = NULL;
    size_t size = 0;
    FILE *text = open_memstream(&row, &size);
    top_write_row(text, fib_self, g.totals, top_width(g.totals), "fib");
    fclose(text);
    const char *self = strstr(out, "(self)");
    assert_non_null(self);
    const char *first_row = strstr(self, "-\n");
    assert_non_null(first_row);
    assert_memory_equal(first_row + 2, row, strlen(row));
    free(row);
    callgrind_free(&g);
    free(out);
    free(err);
}

static void flame_reads_stdin_and_is_deterministic(void **state) {
    (void)state;
    const char *path = prof_scratch_file("in.folded", "main;x 3\nmain;y 4\n", 18);
    char args[512];
    snprintf(args, sizeof args, "flame --title T --minwidth 1%% - < %s", path);
    char *first, *second, *err;
    assert_int_equal(run(args, &first, &err), 0);
    free(err);
    assert_int_equal(run(args, &second, &err), 0);
    free(err);
    assert_string_equal(first, second);
    assert_non_null(strstr(first, "<title>y (4 samples, 57.14%)</title>"));
    free(first);
    free(second);
}

static void files_refuses_what_is_not_a_function_table(void **state) {
    (void)state;
    char *out, *err;
    const char *folded = prof_scratch_file("not-annotate.txt", "main;fib 5\n", 11);
    char args[512];
    snprintf(args, sizeof args, "files %s", folded);
    assert_int_equal(prof_run_checked("", NULL, args, &out, &err), 1);
    assert_non_null(strstr(err, "not-annotate.txt:1: no \"Ir  file:function\" table"));
    free(out);
    free(err);
    const char *broken = "Ir\n---\n10 (100.0%)  PROGRAM TOTALS\n\nIr   file:function\n---\n"
                         "   10 (100.0%)  a.c:main\n  => a.c:f (1x)\n";
    snprintf(args, sizeof args, "files %s",
             prof_scratch_file("broken-annotate.txt", broken, strlen(broken)));
    /* parse_row()'s answers: line 8 is a call site, not a row */
    const char *answers = "row:1\t0\nrow:2\t0\nrow:3\t1 ir=10 pct=100.000 name=\"PROGRAM TOTALS\"\n"
                          "row:4\t0\nrow:5\t0\nrow:6\t0\nrow:7\t1 ir=10 pct=100.000 "
                          "name=\"a.c:main\"\nrow:8\t0\nend\tok\n";
    assert_int_equal(prof_run_checked("",
                                      prof_scratch_file("answers.tsv", answers, strlen(answers)),
                                      args, &out, &err),
                     1);
    assert_non_null(strstr(err, "broken-annotate.txt:8: not a function row"));
    free(out);
    free(err);
}

static void calls_counts_every_call_of_a_function(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(run("calls " PROF_DATA_DIR "/fib.callgrind.out fib main nowhere", &out, &err),
                     0);
    /* fib(15) calls fib 2 * fib(16) - 1 = 1973 times, fib'2 included */
    assert_string_equal(out, "1973  fib\n1  main\n0  nowhere\n");
    free(out);
    free(err);
    assert_int_equal(run("calls", &out, &err), 2);
    free(out);
    free(err);
}

PROF_TEST_GROUP(cli_tests, "dripprof command line", cmocka_unit_test(every_command_has_help),
                cmocka_unit_test(bad_inputs_get_file_and_line),
                cmocka_unit_test(crlf_folded_input_is_fine),
                cmocka_unit_test(fold_output_adds_up_to_totals),
                cmocka_unit_test(top_of_a_profile_matches_callgrind_self),
                cmocka_unit_test(flame_reads_stdin_and_is_deterministic),
                cmocka_unit_test(files_refuses_what_is_not_a_function_table),
                cmocka_unit_test(calls_counts_every_call_of_a_function))
