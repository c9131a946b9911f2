/* test_exercise.c: dripprof when the exercise's functions are not there yet, or
 * misbehave (vm/prof/exercise.c).
 *
 * Two extra builds of dripprof (prof.mk): dripprof-unwritten, linked without
 * any implementation (exercise.c's stand-ins answer like the shipped stubs),
 * and dripprof-broken, linked with tests/broken/impl.c, which passes the
 * readiness probes and then crashes, recurses, loops or breaks the contract.
 * These run in every tree, the student edition included: they test dripprof,
 * not anybody's answers. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#ifndef PROF_UNWRITTEN
#define PROF_UNWRITTEN "build/prof-tests/dripprof-unwritten"
#endif
#ifndef PROF_BROKEN
#define PROF_BROKEN "build/prof-tests/dripprof-broken"
#endif
#ifndef PROFILE_IMPL_FILE
#define PROFILE_IMPL_FILE "exercises/165/profile.c"
#endif

static void expect(const char *binary, const char *args, int status, const char *in_stderr) {
    prof_expect(binary, args, status, NULL, in_stderr);
}

static const char *folded_file(const char *name, const char *text) {
    return prof_scratch_file(name, text, strlen(text));
}

static void unwritten_top_and_files_say_what_is_missing(void **state) {
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "top %s", folded_file("ex.folded", "main;run;fib 10\nmain 2\n"));
    expect(PROF_UNWRITTEN, args, 3,
           "dripprof top needs inclusive() from " PROFILE_IMPL_FILE ": run make exercise-165\n"
           "  (inclusive() is not there: the file does not compile (make exercise-165 shows why), "
           "or does not define it)\n");
    snprintf(args, sizeof args, "files %s", PROF_DATA_DIR "/shared-jumps.annotate.txt");
    expect(PROF_UNWRITTEN, args, 3,
           "dripprof files needs parse_row() from " PROFILE_IMPL_FILE ": run make exercise-165\n"
           "  (parse_row() is not there");
    expect(PROF_UNWRITTEN, "rows " PROF_DATA_DIR "/shared-jumps.annotate.txt", 3,
           "dripprof rows needs parse_row() from " PROFILE_IMPL_FILE);
    /* a callgrind.out is read and folded first, then the same message */
    expect(PROF_UNWRITTEN, "top " PROF_DATA_DIR "/fib.callgrind.out", 3,
           "dripprof top needs inclusive()");
    /* bad input is still reported as bad input, and help still works */
    snprintf(args, sizeof args, "top %s", folded_file("ex-bad.folded", "a 1\nb x\n"));
    expect(PROF_UNWRITTEN, args, 1, "ex-bad.folded:2:");
    expect(PROF_UNWRITTEN, "top --help", 0, "");
}

static void unwritten_fold_flame_and_calls_work(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(
        prof_run(PROF_UNWRITTEN, "fold " PROF_DATA_DIR "/fib.callgrind.out", &out, &err), 0);
    assert_non_null(strstr(out, ";fib "));
    free(out);
    free(err);
    char args[512];
    snprintf(args, sizeof args, "flame %s", folded_file("ex2.folded", "main;f 3\nmain 1\n"));
    assert_int_equal(prof_run(PROF_UNWRITTEN, args, &out, &err), 0);
    assert_non_null(strstr(out, "</svg>"));
    free(out);
    free(err);
    assert_int_equal(
        prof_run(PROF_UNWRITTEN, "calls " PROF_DATA_DIR "/fib.callgrind.out fib", &out, &err), 0);
    assert_string_equal(out, "1973  fib\n");
    free(out);
    free(err);
    prof_expect(PROF_UNWRITTEN, "stacks " PROF_DATA_DIR "/fib.callgrind.out", 0, "\tfib\n", NULL);
}

/* Each misbehaviour of inclusive() costs the command, with a message naming the
   function and the file, never a crash of dripprof. */
static void a_misbehaving_inclusive_is_named(void **state) {
    (void)state;
    static const struct {
        const char *env, *stack, *message;
        int status;
    } cases[] = {
        {"", "main;crash", "inclusive() from " PROFILE_IMPL_FILE " crashed (SIGSEGV", 3},
        {"", "main;deep", "inclusive() from " PROFILE_IMPL_FILE " crashed (SIGSEGV", 3},
        {"DRIPPROF_CPU_SECONDS=1", "main;loop",
         "inclusive() from " PROFILE_IMPL_FILE " ran for 1 s of CPU time", 3},
        {"", "main;nameless", "inclusive() returned a function without a name", 1},
        {"", "main;other", "inclusive() returned -1", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[64], args[512];
        snprintf(text, sizeof text, "%s 5\n", cases[i].stack);
        const char *path = folded_file("broken.folded", text);
        snprintf(args, sizeof args, "top %s", path);
        char command[600];
        snprintf(command, sizeof command, "env %s %s", cases[i].env, PROF_BROKEN);
        expect(command, args, cases[i].status, cases[i].message);
    }
}

static void a_parse_row_without_a_name_is_an_error_with_file_and_line(void **state) {
    (void)state;
    expect(PROF_BROKEN, "files " PROF_DATA_DIR "/shared-jumps.annotate.txt", 1,
           "shared-jumps.annotate.txt:1: parse_row() returned 1 (a row) but gave no name");
}

PROF_TEST_GROUP(exercise_tests, "exercise functions in dripprof",
                cmocka_unit_test(unwritten_top_and_files_say_what_is_missing),
                cmocka_unit_test(unwritten_fold_flame_and_calls_work),
                cmocka_unit_test(a_misbehaving_inclusive_is_named),
                cmocka_unit_test(a_parse_row_without_a_name_is_an_error_with_file_and_line))
