/* test_main.c: runs every group of the profiler suite and writes the result
 * file "PASSED FAILED" named by argv[1] (see vm/prof/prof.mk). */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

const char *const prof_fixtures[] = {
    "fib.callgrind.out",    "fib-separate.callgrind.out",    "fib-instr.callgrind.out",
    "shared.callgrind.out", "shared-separate.callgrind.out", "shared-jumps.callgrind.out",
    "mutual.callgrind.out", "mutual-separate.callgrind.out",
};
const size_t prof_fixture_count = sizeof prof_fixtures / sizeof prof_fixtures[0];

char *prof_slurp(const char *path, size_t *length) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        return NULL;
    }
    size_t capacity = 4096, n = 0;
    char *data = malloc(capacity);
    size_t got;
    while (data != NULL && (got = fread(data + n, 1, capacity - n - 1, in)) > 0) {
        n += got;
        if (n + 1 == capacity) {
            char *grown = realloc(data, capacity * 2);
            if (grown == NULL) {
                free(data);
            }
            data = grown;
            capacity *= 2;
        }
    }
    fclose(in);
    if (data != NULL) {
        data[n] = '\0';
        if (length != NULL) {
            *length = n;
        }
    }
    return data;
}

const char *prof_scratch_file(const char *name, const char *data, size_t length) {
    static char path[512];
    mkdir("build", 0777);
    mkdir("build/prof-tests", 0777);
    mkdir(PROF_SCRATCH, 0777);
    snprintf(path, sizeof path, "%s/%s", PROF_SCRATCH, name);
    FILE *out = fopen(path, "wb");
    if (out == NULL) {
        return NULL;
    }
    fwrite(data, 1, length, out);
    fclose(out);
    return path;
}

int prof_run(const char *binary, const char *args, char **out, char **err) {
    char command[2048];
    snprintf(command, sizeof command, "%s %s > %s/stdout 2> %s/stderr", binary, args,
             PROF_SCRATCH, PROF_SCRATCH);
    prof_scratch_file("stdout", "", 0); /* makes sure the directory exists */
    int status = system(command);
    assert_true(status != -1 && WIFEXITED(status));
    char path[512];
    snprintf(path, sizeof path, "%s/stdout", PROF_SCRATCH);
    *out = prof_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/stderr", PROF_SCRATCH);
    *err = prof_slurp(path, NULL);
    assert_non_null(*out);
    assert_non_null(*err);
    return WEXITSTATUS(status);
}

size_t prof_skipped = 0;

int main(int argc, char **argv) {
    int (*groups[])(size_t *) = {folded_tests, callgrind_tests, fold_tests,
                                 flame_tests,  top_tests,       cli_tests,
                                 robust_tests, exercise_tests, diff_tests};
    size_t total = 0;
    int failed = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        size_t count = 0;
        failed += groups[i](&count);
        total += count;
    }
    size_t passed = total - (size_t)failed - prof_skipped;
    if (argc > 1) {
        FILE *out = fopen(argv[1], "w");
        if (out != NULL) {
            fprintf(out, "%zu %d\n", passed, failed);
            fclose(out);
        }
    }
    printf("prof: %zu tests, %d failed", total, failed);
    if (prof_skipped > 0) {
        printf(", %zu skipped: they need parse_row() and inclusive(), and this suite tests the "
               "profiler, not the exercise (make exercise-165 does that)",
               prof_skipped);
    }
    printf("\n");
    return failed == 0 ? 0 : 1;
}
