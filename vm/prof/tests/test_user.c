/* test_user.c: build/dripprof tried as a demanding user would (issue 16): every command
 * reads stdin, options go anywhere, files it does not read are named for what they are,
 * counts it refuses are named too (exponent, hexadecimal), a directory is named as one, a full disk
 * is blamed on stdout, a file with no rows is named as not callgrind_annotate output, and
 * the output for scripts (stacks, rows) keeps frames with blanks whole. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#define DATA PROF_DATA_DIR "/"

/* dripprof with its standard output on /dev/full: every write fails with ENOSPC. */
#define DRIPPROF_TO_FULL_DISK "sh -c 'exec \"$0\" \"$@\" > /dev/full' " PROF_DRIPPROF

static void expect(const char *args, int status, const char *in_out, const char *in_err) {
    prof_expect(PROF_DRIPPROF, args, status, in_out, in_err);
}

/* expect() of "dripprof FORMAT", FORMAT with one %s for path. */
static void expect_on(const char *format, const char *path, int status, const char *in_out,
                      const char *in_err) {
    char args[1024];
    snprintf(args, sizeof args, format, path);
    expect(args, status, in_out, in_err);
}

/* stdout of a run that must succeed (malloc'd). */
static char *output_of(const char *args) {
    char *out, *err;
    int status = prof_run(PROF_DRIPPROF, args, &out, &err);
    if (status != 0) {
        fail_msg("dripprof %s: exit %d: %s", args, status, err);
    }
    free(err);
    return out;
}

static const char *scratch(const char *name, const char *text) {
    static char paths[4][512];
    static int next = 0;
    char *path = paths[next++ % 4];
    snprintf(path, sizeof paths[0], "%s", prof_scratch_file(name, text, strlen(text)));
    return path;
}

static void fold_reads_stdin_as_top_and_flame_do(void **state) {
    (void)state;
    char *from_file = output_of("fold " DATA "fib.callgrind.out");
    char *from_stdin = output_of("fold - < " DATA "fib.callgrind.out");
    assert_true(strlen(from_file) > 100);
    assert_string_equal(from_file, from_stdin);
    free(from_file);
    free(from_stdin);
    /* errors in standard input name it */
    expect("fold - < /dev/null", 1, NULL, "dripprof: <stdin>: empty file");
    char args[600];
    snprintf(args, sizeof args, "stacks - < %s", scratch("bad-stdin.folded", "a 1\nb\n"));
    expect(args, 1, NULL, "dripprof: <stdin>:2: no count");
}

static void cachegrind_is_named_with_the_commands_to_use(void **state) {
    (void)state;
    static const char *const commands[] = {"top", "fold", "stacks", "calls", "flame"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char args[600];
        snprintf(args, sizeof args, "%s " DATA "fib.cachegrind.out", commands[i]);
        expect(args, 1, NULL,
               "fib.cachegrind.out: this is a cachegrind profile (valgrind --tool=cachegrind): "
               "it records no calls, so it has no stacks. cg_annotate " DATA "fib.cachegrind.out");
    }
    expect("top - < " DATA "fib.cachegrind.out", 1, NULL, "<stdin>: this is a cachegrind profile");
    char args[600];
    snprintf(args, sizeof args, "diff %s " DATA "fib.cachegrind.out",
             scratch("one.folded", "main 1\n"));
    expect(args, 1, NULL, "fib.cachegrind.out: this is a cachegrind profile");
    /* and a callgrind profile where folded stacks belong says how to fold it */
    expect("flame " DATA "fib.callgrind.out", 1, NULL,
           "fib.callgrind.out: this is a callgrind profile, not folded stacks: dripprof flame "
           "reads `dripprof fold " DATA "fib.callgrind.out > FILE.folded`");
}

/* The sum of the numbers after "totals: " in text. */
static uint64_t sum_of_totals(const char *text) {
    uint64_t sum = 0;
    for (const char *p = strstr(text, "\ntotals: "); p != NULL; p = strstr(p + 1, "\ntotals: ")) {
        sum += strtoull(p + 9, NULL, 10);
    }
    return sum;
}

static void several_parts_are_summed_not_called_truncated(void **state) {
    (void)state;
    size_t length;
    char *text = prof_slurp(DATA "fib-parts.callgrind.out", &length);
    assert_non_null(text);
    assert_non_null(strstr(text, "\npart: 2\n"));
    char *out, *err;
    assert_int_equal(
        prof_run(PROF_DRIPPROF, "fold --stats " DATA "fib-parts.callgrind.out", &out, &err), 0);
    uint64_t folded = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        folded += strtoull(strrchr(line, ' ') + 1, NULL, 10);
    }
    assert_int_equal(folded, sum_of_totals(text));
    assert_true(folded > strtoull(strstr(text, "\ntotals: ") + 9, NULL, 10)); /* > part 1 */
    assert_non_null(strstr(err, "the sum of the parts"));
    free(out);
    free(err);
    /* a part that does not add up is reported as such */
    char *last = strstr(strstr(text, "\npart: 2\n"), "\ntotals: ") + 9;
    last[0] = last[0] == '9' ? '1' : (char)(last[0] + 1);
    char args[600];
    snprintf(args, sizeof args, "fold %s", prof_scratch_file("parts-bad.out", text, length));
    expect(args, 1, NULL, "the totals: of the 2 parts (--combine-dumps=yes) add up to");
    free(text);
    /* a part without totals: or summary: is named */
    const char *no_totals = "# callgrind format\nevents: Ir\npart: 1\nfn=(1) a\n0 4\n"
                            "part: 2\nsummary: 3\nfn=(1)\n0 3\ntotals: 3\n";
    snprintf(args, sizeof args, "fold %s", scratch("parts-cut.out", no_totals));
    expect(args, 1, NULL,
           "parts-cut.out:6: no totals: or summary: line in the part before this one");
}

static void counts_in_exponent_notation_are_named(void **state) {
    (void)state;
    const char *path = scratch("exponent.folded", "main;f 3\nmain;g 1e3\n");
    char args[600];
    expect_on("stacks %s", path, 1, NULL,
              "exponent.folded:2: count is in exponent notation (write 1e3 as 1000)");
    snprintf(args, sizeof args, "flame %s", path); /* the streaming reader, the same words */
    expect(args, 1, NULL, "exponent.folded:2: count is in exponent notation");
}

static void hexadecimal_counts_are_named(void **state) {
    (void)state;
    const char *path = scratch("hex.folded", "main;f 3\nmain;g 0x10\n");
    expect_on("top %s", path, 1, NULL, "hex.folded:2: count is hexadecimal (write 0x10 as 16)");
    expect_on("flame %s", path, 1, NULL, "hex.folded:2: count is hexadecimal");
}

/* A directory opens for reading and then fails every read: named as what it is. */
static void a_directory_is_named_as_one(void **state) {
    (void)state;
    /* top, files and rows say so before any checker runs */
    static const char *commands[] = {"fold", "flame",         "calls",           "stacks",
                                     "top",  "top --with /x", "files --with /x", "rows --with /x"};
    char args[600];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        snprintf(args, sizeof args, "%s %s", commands[i], PROF_DATA_DIR);
        expect(args, 1, NULL, "dripprof: " PROF_DATA_DIR ": is a directory, not a file");
    }
    snprintf(args, sizeof args, "diff %s %s", scratch("before.folded", "main 1\n"), PROF_DATA_DIR);
    expect(args, 1, NULL, PROF_DATA_DIR ": is a directory, not a file");
}

/* fold and calls read callgrind profiles; given folded stacks, they name what they got. */
static void folded_stacks_given_to_fold_are_named(void **state) {
    (void)state;
    const char *path = scratch("already.folded", "main;f 3\nmain 2\n");
    expect_on("fold %s", path, 1, NULL,
              "already.folded:1: folded stacks, not a callgrind profile (top, flame and stacks "
              "read folded stacks; fold and calls read callgrind.out files)");
    expect_on("calls %s", path, 1, NULL, "already.folded:1: folded stacks, not a callgrind");
    /* another first line is still just unrecognised */
    expect_on("fold %s", scratch("prose.txt", "hello world\n"), 1, NULL,
              "prose.txt:1: unrecognised line (not part of the callgrind format)");
}

/* rows reads every line, so it has no table header to miss; a file without one row is
 * not callgrind_annotate output, and says so instead of printing nothing. */
static void rows_of_a_file_without_rows_is_an_error(void **state) {
    (void)state;
    const char *path = scratch("prose.txt", "hello world\nnot a profile\n");
    const char *answers = scratch("prose.answers.tsv", "row:1\t0\nrow:2\t0\nend\tok\n");
    char args[600], *out, *err;
    snprintf(args, sizeof args, "rows %s", path);
    assert_int_equal(prof_run_checked("", answers, args, &out, &err), 1);
    assert_non_null(
        strstr(err, "prose.txt:2: no row with a count (not callgrind_annotate output?)"));
    free(out);
    free(err);
    expect("rows --with /x - < /dev/null", 1, NULL, "<stdin>: no row with a count");
}

static void a_frame_called_creator_is_not_a_callgrind_header(void **state) {
    (void)state;
    const char *path = scratch("creator.folded", "creator:main;f 3\nmain 2\n");
    char args[600];
    expect_on("stacks %s", path, 0, "3\tcreator:main\tf\n2\tmain\n", NULL);
    expect_on("flame %s", path, 0, "<title>creator:main (3 samples, 60.00%)</title>", NULL);
    snprintf(args, sizeof args, "top %s", path);
    expect(args, 0, "5 (100.0%)  PROGRAM TOTALS", NULL);
}

static void binary_data_is_named_the_same_by_every_command(void **state) {
    (void)state;
    const char *folded = scratch("binary.folded", "a 1\nb\x02"
                                                  "c 2\n");
    static const char *const commands[] = {"top", "flame", "stacks"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char args[600];
        snprintf(args, sizeof args, "%s %s", commands[i], folded);
        expect(args, 1, NULL, "binary.folded:2: binary data (control character 0x02)");
    }
    char args[600];
    snprintf(args, sizeof args, "fold %s",
             scratch("binary.out", "events: Ir\nfn=b\x02"
                                   "c\n0 1\n"));
    expect(args, 1, NULL, "binary.out:2: binary data (control character 0x02)");
}

static void a_full_disk_is_blamed_on_standard_output(void **state) {
    (void)state;
    const char *folded = scratch("full.folded", "main;f 3\nmain;g 4\n");
    char commands[8][600];
    size_t n = 0;
    snprintf(commands[n++], sizeof commands[0], "fold " DATA "fib.callgrind.out");
    snprintf(commands[n++], sizeof commands[0], "flame %s", folded);
    snprintf(commands[n++], sizeof commands[0], "stacks %s", folded);
    snprintf(commands[n++], sizeof commands[0], "calls " DATA "fib.callgrind.out");
    snprintf(commands[n++], sizeof commands[0], "diff %s %s", folded,
             scratch("full2.folded", "main;f 1\n"));
    snprintf(commands[n++], sizeof commands[0], "top %s", folded);
    char answers[4096];
    assert_non_null(realpath(DATA "answers/shared-jumps.rows.tsv", answers));
    for (const char *const *command = (const char *const[]){"rows", "files", NULL}; *command;
         command++) {
        snprintf(commands[n++], sizeof commands[0],
                 "%s " DATA "shared-jumps.annotate.txt --with " PROF_FAKE_CHECKER, *command);
    }
    for (size_t i = 0; i < n; i++) {
        char *out, *err, runner[sizeof answers + 200];
        snprintf(runner, sizeof runner, "FAKE_ANSWERS=%s %s", answers, DRIPPROF_TO_FULL_DISK);
        int status = prof_run(runner, commands[i], &out, &err);
        if (status != 1 || strstr(err, "dripprof: write error on standard output") == NULL ||
            strstr(err, "No space left on device") == NULL || strstr(err, "full") != NULL ||
            strstr(err, "fib.") != NULL || strstr(err, "shared-") != NULL) {
            fail_msg("dripprof %s > /dev/full: exit %d, stderr \"%s\"", commands[i], status, err);
        }
        free(out);
        free(err);
    }
}

static void options_work_in_any_order_and_errors_name_them(void **state) {
    (void)state;
    const char *path = scratch("options.folded", "main;f 3\nmain 1\n");
    char args[600];
    expect_on("flame --title=Early %s", path, 0, ">Early</text>", NULL);
    expect_on("flame %s --title Late --countname Ir", path, 0, ">Late</text>", "");
    expect_on("flame %s --countname Ir", path, 0, "<title>f (3 Ir, 75.00%)</title>", NULL);
    expect_on("flame --frob %s", path, 2, NULL, "dripprof: flame: unknown option --frob");
    expect_on("top -x %s", path, 2, NULL, "dripprof: top: unknown option -x");
    expect_on("top %s --limit", path, 2, NULL, "dripprof: top: --limit needs a value");
    expect_on("top --limit ten %s", path, 2, NULL,
              "dripprof: top: --limit wants a number, not ten");
    expect_on("flame --width 20 %s", path, 2, NULL,
              "dripprof: flame: --width wants pixels above 20, not 20");
    snprintf(args, sizeof args, "stacks %s %s", path, path);
    expect(args, 2, NULL, "dripprof: stacks: more than one file");
    expect("stacks", 2, NULL, "usage: dripprof stacks");
    expect("fold -h", 0, "usage: dripprof fold", NULL);
    expect("calls --help", 0, "usage: dripprof calls", NULL);
    expect("rows --help", 0, "usage: dripprof rows", NULL);
    /* "--" ends the options: a file may start with a dash */
    expect_on("stacks -- %s", path, 0, "3\tmain\tf\n", NULL);
}

static void stacks_keep_frames_with_blanks_whole(void **state) {
    (void)state;
    const char *path = scratch("blanks.folded", "(below main);main;f x 5\n"
                                                "a\tb;c 1\n"
                                                "back\\slash 2\n"
                                                "(below main);main;f x 4\n"
                                                "caf\xc3\xa9;\x7f 1\n");
    char args[600];
    snprintf(args, sizeof args, "stacks %s", path);
    char *out = output_of(args);
    /* input order, repeats kept; a TAB, a backslash, DEL and UTF-8 in a frame escaped */
    assert_string_equal(out, "5\t(below main)\tmain\tf x\n"
                             "1\ta\\tb\tc\n"
                             "2\tback\\\\slash\n"
                             "4\t(below main)\tmain\tf x\n"
                             "1\tcaf\\xc3\\xa9\t\\x7f\n");
    free(out);
    /* a callgrind profile: fold's lines, one field per frame */
    char *folded = output_of("fold " DATA "shared.callgrind.out");
    char *stacks = output_of("stacks " DATA "shared.callgrind.out");
    size_t lines = 0;
    char *rest = stacks;
    for (char *line = strtok(folded, "\n"); line != NULL; line = strtok(NULL, "\n"), lines++) {
        char *count = strrchr(line, ' ');
        *count++ = '\0';
        for (char *p = line; *p; p++) {
            *p = *p == ';' ? '\t' : *p;
        }
        char expected[4096];
        snprintf(expected, sizeof expected, "%s\t%s\n", count, line);
        if (strncmp(rest, expected, strlen(expected)) != 0) {
            fail_msg("line %zu: want \"%s\", got \"%.200s\"", lines + 1, expected, rest);
        }
        rest += strlen(expected);
    }
    assert_true(lines > 10);
    assert_string_equal(rest, "");
    free(folded);
    free(stacks);
}

PROF_TEST_GROUP(user_tests, "dripprof as a demanding user",
                cmocka_unit_test(fold_reads_stdin_as_top_and_flame_do),
                cmocka_unit_test(cachegrind_is_named_with_the_commands_to_use),
                cmocka_unit_test(several_parts_are_summed_not_called_truncated),
                cmocka_unit_test(counts_in_exponent_notation_are_named),
                cmocka_unit_test(hexadecimal_counts_are_named),
                cmocka_unit_test(a_directory_is_named_as_one),
                cmocka_unit_test(folded_stacks_given_to_fold_are_named),
                cmocka_unit_test(rows_of_a_file_without_rows_is_an_error),
                cmocka_unit_test(a_frame_called_creator_is_not_a_callgrind_header),
                cmocka_unit_test(binary_data_is_named_the_same_by_every_command),
                cmocka_unit_test(a_full_disk_is_blamed_on_standard_output),
                cmocka_unit_test(options_work_in_any_order_and_errors_name_them),
                cmocka_unit_test(stacks_keep_frames_with_blanks_whole))
