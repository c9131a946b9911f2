/* prof_test.h: shared helpers of the profiler's cmocka suite.
 *
 * Each test file exports one runner, `int NAME_tests(size_t *count)`, that
 * runs its cmocka group, stores how many tests it has, and returns how many
 * failed; test_main.c adds them up and writes "PASSED FAILED".
 */
#ifndef DRIP_PROF_TEST_H
#define DRIP_PROF_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "flame.h"
#include "slurp.h"

#ifndef PROF_DATA_DIR
#define PROF_DATA_DIR "vm/prof/tests/data"
#endif
/* The dripprof that test_robust.c feeds damaged answers (prof.mk: the sanitizers' build). */
#ifndef PROF_DRIPPROF
#define PROF_DRIPPROF "build/dripprof-asan"
#endif
/* Scratch files of the tests. */
#define PROF_SCRATCH "build/prof-tests/scratch"

/* The checker given to dripprof files: it answers from a file and computes nothing
 * (fake_checker.sh says how to make it misbehave). */
#define PROF_FAKE_CHECKER "vm/prof/tests/fake_checker.sh"

/* The runner a test file exports: NAME(count) runs the cmocka group TITLE of the tests
 * listed (cmocka_unit_test(...), ...), stores how many there are and returns how many
 * failed. */
#define PROF_TEST_GROUP(name, title, ...)                                                          \
    int name(size_t *count) {                                                                      \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                                           \
        *count = sizeof tests / sizeof tests[0];                                                   \
        return cmocka_run_group_tests_name(title, tests, NULL, NULL);                              \
    }

/* The committed callgrind fixtures (file names inside PROF_DATA_DIR). */
extern const char *const prof_fixtures[];
extern const size_t prof_fixture_count;

/* Writes data to a scratch file and returns its path (static buffer). */
const char *prof_scratch_file(const char *name, const char *data, size_t length);

/* Runs `binary args` (both shell fragments: binary may start with `env VAR=value`);
 * returns its exit status and fills *out / *err with what it printed (malloc'd). */
int prof_run(const char *binary, const char *args, char **out, char **err);

/* Draws folded text (one or two counts a line) the way dripprof flame does: streamed
 * through diff_reader_visit into a trie, drawn by flame_write_trie (options NULL: the
 * defaults). Returns the SVG, malloc'd and NUL-terminated (*svg_length bytes when
 * svg_length is not NULL), or NULL with *error set to a malloc'd message: "NAME:LINE: why"
 * for a line the reader refused, flame's own message otherwise. */
char *prof_draw(const char *name, const char *text, size_t length, const FlameOptions *options,
                size_t *svg_length, char **error);

/* True when xmllint --noout finds text well-formed XML. On failure *why holds
 * xmllint's first complaint (or says that xmllint is missing). */
int prof_xml_well_formed(const char *text, size_t length, char *why, size_t why_size);

int callgrind_tests(size_t *count);
int fold_tests(size_t *count);
int robust_tests(size_t *count);
int diff_tests(size_t *count);

#endif
