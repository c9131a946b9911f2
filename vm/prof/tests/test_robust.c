/* test_robust.c: damaged input never crashes the readers or the writers.
 *
 * A small deterministic mutation fuzzer: real fixtures are cut short at many
 * points and have bytes flipped, lines duplicated or deleted; every variant
 * must either read (and then fold and draw with the invariants intact) or be
 * refused with a "NAME:LINE: " message; a checker's damaged answers must give
 * a table or one message. The suite runs under ASan and UBSan,
 * so a stray read or an overflow fails the test even when the result looks
 * right. */
#define _XOPEN_SOURCE 700 /* realpath, strdup */
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "fold.h"

static uint64_t state_bits = 0x9E3779B97F4A7C15u;

static uint32_t next_random(void) {
    state_bits = state_bits * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(state_bits >> 33);
}

/* One damaged copy of text (malloc'd), *length updated. */
static char *mutate(const char *text, size_t *length) {
    size_t n = *length;
    char *copy = malloc(n * 2 + 16);
    memcpy(copy, text, n);
    switch (next_random() % 5) {
    case 0: n = next_random() % (n + 1); break; /* cut short */
    case 1:                                     /* flip bytes */
        for (int i = 0; i < 4 && n > 0; i++) {
            copy[next_random() % n] = (char)(next_random() % 256);
        }
        break;
    case 2: /* a digit becomes another (costs and ids change) */
        for (int i = 0; i < 8 && n > 0; i++) {
            size_t at = next_random() % n;
            if (copy[at] >= '0' && copy[at] <= '9') {
                copy[at] = (char)('0' + next_random() % 10);
            }
        }
        break;
    case 3: { /* a block of text repeated */
        size_t from = next_random() % (n + 1), len = next_random() % 200;
        len = from + len > n ? n - from : len;
        memmove(copy + from + len, copy + from, n - from);
        n += len;
        break;
    }
    default: { /* a block of text deleted */
        size_t from = next_random() % (n + 1), len = next_random() % 200;
        len = from + len > n ? n - from : len;
        memmove(copy + from, copy + from + len, n - from - len);
        n -= len;
        break;
    }
    }
    *length = n;
    return copy;
}

static void check_message(const char *error, const char *name) {
    assert_non_null(error);
    assert_true(strncmp(error, name, strlen(name)) == 0);
}

static void damaged_profiles_fold_or_fail_cleanly(void **state) {
    (void)state;
    size_t length;
    char *text = slurp_file(PROF_DATA_DIR "/shared-jumps.callgrind.out", &length, NULL);
    assert_non_null(text);
    int read_ok = 0, refused = 0;
    for (int round = 0; round < 300; round++) {
        size_t n = length;
        char *bad = mutate(text, &n);
        Callgrind g;
        if (callgrind_read_buffer("bad.out", bad, n, &g) == 0) {
            FoldResult r;
            const char *error;
            assert_int_equal(fold_callgrind(&g, FOLD_AUTO, &r, &error), 0);
            assert_int_equal(r.total, g.totals);
            fold_free(&r);
            read_ok++;
        } else {
            check_message(g.error, "bad.out:");
            refused++;
        }
        callgrind_free(&g);
        free(bad);
    }
    print_message("prof: damaged callgrind.out: %d read, %d refused\n", read_ok, refused);
    assert_true(refused > 0);
    free(text);
}

static void damaged_stacks_draw_or_fail_cleanly(void **state) {
    (void)state;
    static const char text[] = "main;run;fib;fib;fib 10\nmain;run;fib 5\r\nmain;run;op_add 3\n"
                               "main;other 2\n(below main);caf\xc3\xa9 <&> 7\n";
    int drawn = 0, refused = 0;
    for (int round = 0; round < 300; round++) {
        size_t n = sizeof text - 1;
        char *bad = mutate(text, &n);
        size_t size;
        char *error = NULL;
        char *svg = prof_draw("bad.folded", bad, n, NULL, &size, &error);
        if (svg != NULL) {
            char why[200];
            if (!prof_xml_well_formed(svg, size, why, sizeof why)) {
                fail_msg("round %d: SVG not well-formed: %s", round, why);
            }
            drawn++;
        } else if (strncmp(error, "bad.folded:", 11) == 0) {
            refused++; /* the reader named the line */
        } else {
            assert_non_null(error); /* flame's own refusal, e.g. nothing above 0 */
        }
        free(svg);
        free(error);
        free(bad);
    }
    print_message("prof: damaged folded stacks: %d drawn, %d refused\n", drawn, refused);
    assert_true(drawn > 0 && refused > 0);
}

/* A checker's damaged answers: dripprof prints the table, or names the trouble in one
 * message (3: a contract broken, 5: answers off the protocol, 1: answers that make the
 * file no function table), never crashes (PROF_DRIPPROF is built with the sanitizers). */
static void damaged_answers_give_a_table_or_a_message(void **state) {
    (void)state;
    size_t length;
    char *text = slurp_file(PROF_DATA_DIR "/answers/shared-jumps.rows.tsv", &length, NULL);
    assert_non_null(text);
    char answers[4096], command[4200];
    prof_scratch_file("bad-answers.tsv", "", 0);
    /* absolute: the checker runs in a folder of its own */
    assert_non_null(realpath(PROF_SCRATCH "/bad-answers.tsv", answers));
    snprintf(command, sizeof command, "env FAKE_ANSWERS=%s " PROF_DRIPPROF, answers);
    int printed = 0, refused = 0;
    for (int round = 0; round < 40; round++) {
        size_t n = length;
        char *bad = mutate(text, &n);
        prof_scratch_file("bad-answers.tsv", bad, n);
        char *out, *err;
        int status = prof_run(
            command, "files " PROF_DATA_DIR "/shared-jumps.annotate.txt --with " PROF_FAKE_CHECKER,
            &out, &err);
        if (status == 0) {
            printed++;
        } else if ((status == 3 || status == 5) &&
                   strncmp(err, "dripprof files: parse_row() from ", 33) == 0) {
            refused++;
        } else if (status == 1 && strncmp(err, "dripprof: " PROF_DATA_DIR, 10) == 0) {
            refused++;
        } else {
            fail_msg("round %d: exit %d, stderr \"%s\"", round, status, err);
        }
        free(out);
        free(err);
        free(bad);
    }
    print_message("prof: damaged answers: %d printed, %d refused\n", printed, refused);
    assert_true(refused > 0);
    free(text);
}

/* The well-formedness check the tests above rely on is xmllint's, and it can fail: an SVG
 * with one name left unescaped, or one box left open, is refused, with a reason. */
static void a_broken_svg_fails_the_xml_check(void **state) {
    (void)state;
    static const char text[] = "main;operator<<(a&b) 4\nmain;x 2\n";
    char *error = NULL, why[200];
    size_t size;
    char *svg = prof_draw("t.folded", text, sizeof text - 1, NULL, &size, &error);
    assert_non_null(svg);
    assert_true(prof_xml_well_formed(svg, size, why, sizeof why));
    char *broken = strdup(svg);
    char *escaped = strstr(broken, "&lt;&lt;(a&amp;b)");
    assert_non_null(escaped);
    memcpy(escaped, "<<(a&b)          ", 17); /* as an unescaped writer would have it */
    assert_false(prof_xml_well_formed(broken, size, why, sizeof why));
    assert_non_null(strstr(why, "xmllint"));
    strcpy(broken, svg);
    char *close = strstr(broken, "</g>");
    assert_non_null(close);
    memcpy(close, "<g >", 4); /* one more box opened than closed */
    assert_false(prof_xml_well_formed(broken, size, why, sizeof why));
    free(broken);
    free(svg);
}

PROF_TEST_GROUP(robust_tests, "damaged input",
                cmocka_unit_test(damaged_profiles_fold_or_fail_cleanly),
                cmocka_unit_test(damaged_stacks_draw_or_fail_cleanly),
                cmocka_unit_test(damaged_answers_give_a_table_or_a_message),
                cmocka_unit_test(a_broken_svg_fails_the_xml_check))
