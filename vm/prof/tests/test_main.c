/* test_main.c: runs every group of the profiler suite and writes the result
 * file "PASSED FAILED" named by argv[1] (see vm/prof/prof.mk). */
#define _POSIX_C_SOURCE 200809L /* open_memstream, popen */
#include "prof_test.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "diff.h"
#include "slurp.h"

const char *const prof_fixtures[] = {
    "fib.callgrind.out",    "fib-separate.callgrind.out",    "fib-instr.callgrind.out",
    "shared.callgrind.out", "shared-separate.callgrind.out", "shared-jumps.callgrind.out",
    "mutual.callgrind.out", "mutual-separate.callgrind.out",
};
const size_t prof_fixture_count = sizeof prof_fixtures / sizeof prof_fixtures[0];

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
    char command[8192];
    snprintf(command, sizeof command, "%s %s > %s/stdout 2> %s/stderr", binary, args, PROF_SCRATCH,
             PROF_SCRATCH);
    prof_scratch_file("stdout", "", 0); /* makes sure the directory exists */
    int status = system(command);
    assert_true(status != -1 && WIFEXITED(status));
    size_t length;
    *out = slurp_file(PROF_SCRATCH "/stdout", &length, NULL);
    *err = slurp_file(PROF_SCRATCH "/stderr", &length, NULL);
    assert_non_null(*out);
    assert_non_null(*err);
    return WEXITSTATUS(status);
}

char *prof_draw(const char *name, const char *text, size_t length, const FlameOptions *options,
                size_t *svg_length, char **error) {
    FILE *in = tmpfile();
    assert_non_null(in);
    assert_int_equal(fwrite(text, 1, length, in), length);
    rewind(in);
    Trie trie;
    assert_int_equal(trie_init(&trie), 0);
    DiffReader reader = {.trie = &trie};
    *error = NULL;
    int status = folded_each_stream(in, name, diff_reader_visit, &reader, error);
    fclose(in);
    char *svg = NULL;
    size_t size = 0;
    if (status == 0) {
        assert_int_equal(trie_finish(&trie), 0);
        FlameOptions defaults;
        flame_default_options(&defaults);
        FILE *out = open_memstream(&svg, &size);
        assert_non_null(out);
        const char *why;
        status = flame_write_trie(&trie, options ? options : &defaults, out, &why);
        fclose(out);
        if (status != 0) {
            free(svg);
            svg = NULL;
            *error = strdup(why);
        }
    }
    trie_free(&trie);
    if (svg != NULL && svg_length != NULL) {
        *svg_length = size;
    }
    return svg;
}

int prof_xml_well_formed(const char *text, size_t length, char *why, size_t why_size) {
    /* xmllint (Debian libxml2-utils, installed by make setup) is the judge: a
     * real XML parser, not one of ours. It reads the SVG from a pipe and writes
     * its complaints to a scratch file, whose first line becomes *why. */
    prof_scratch_file("xmllint.err", "", 0);
    char command[512];
    /* --huge: a flame graph nests a box per frame, deeper than xmllint's default 256 */
    snprintf(command, sizeof command, "xmllint --huge --noout - 2> %s/xmllint.err", PROF_SCRATCH);
    FILE *pipe = popen(command, "w");
    if (pipe == NULL) {
        snprintf(why, why_size, "cannot start xmllint");
        return 0;
    }
    /* xmllint may stop reading at the first error: a write to the closed pipe
     * must then fail, not kill the suite (the child started with the default). */
    void (*previous)(int) = signal(SIGPIPE, SIG_IGN);
    size_t written = fwrite(text, 1, length, pipe);
    int status = pclose(pipe);
    signal(SIGPIPE, previous);
    size_t complaint_length;
    char *complaint = slurp_file(PROF_SCRATCH "/xmllint.err", &complaint_length, NULL);
    if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(why, why_size, "xmllint is not installed: run make setup (Debian libxml2-utils)");
    } else if (complaint != NULL && complaint[0] != '\0') {
        snprintf(why, why_size, "xmllint: %.*s", (int)strcspn(complaint, "\n"), complaint);
    } else {
        snprintf(why, why_size, "xmllint exited with status %d after %zu of %zu bytes", status,
                 written, length);
    }
    free(complaint);
    return status == 0 && written == length;
}

int main(int argc, char **argv) {
    int (*groups[])(size_t *) = {callgrind_tests, fold_tests, robust_tests, diff_tests};
    size_t total = 0;
    int failed = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        size_t count = 0;
        failed += groups[i](&count);
        total += count;
    }
    size_t passed = total - (size_t)failed;
    if (argc > 1) {
        FILE *out = fopen(argv[1], "w");
        if (out != NULL) {
            fprintf(out, "%zu %d\n", passed, failed);
            fclose(out);
        }
    }
    printf("prof: %zu tests, %d failed\n", total, failed);
    return failed == 0 ? 0 : 1;
}
