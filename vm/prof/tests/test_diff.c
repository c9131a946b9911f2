/* test_diff.c: differential folded stacks (vm/prof/diff.c) and their flame
 * graph (flame.c's differential mode, trie_add_pair), in process; cases/diff.txt
 * runs `dripprof diff` and `dripprof flame` on them. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "flame.h"

static void read_text(const char *name, const char *text, FoldedFile *file) {
    if (folded_read_buffer(name, text, strlen(text), file) != 0) {
        fail_msg("%s", file->error);
    }
}

/* The diff of two folded texts, written out (malloc'd); sums[0..1] get the
 * columns' sums and totals[0..1] the totals diff_folded reported. */
static char *diff_text(const char *before, const char *after, uint64_t sums[2],
                       uint64_t totals[2]) {
    FoldedFile b, a;
    read_text("before", before, &b);
    read_text("after", after, &a);
    FoldedDiff diff;
    const char *error;
    int which;
    assert_int_equal(diff_folded(&b, &a, &diff, &error, &which), 0);
    sums[0] = sums[1] = 0;
    for (size_t i = 0; i < diff.count; i++) {
        sums[0] += diff.lines[i].before;
        sums[1] += diff.lines[i].after;
    }
    totals[0] = diff.before_total;
    totals[1] = diff.after_total;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_int_equal(diff_write(&diff, out), 0);
    fclose(out);
    diff_free(&diff);
    folded_free(&b);
    folded_free(&a);
    return text;
}

static void a_stack_only_in_one_file_gets_zero_in_the_other(void **state) {
    (void)state;
    uint64_t sums[2], totals[2];
    char *text =
        diff_text("main;old 4\nmain;both 1\n", "main;both 1\nmain;new;leaf 6\n", sums, totals);
    assert_string_equal(text, "main;both 1 1\nmain;new;leaf 0 6\nmain;old 4 0\n");
    free(text);
}

static void repeated_lines_are_summed_and_equal_counts_cancel(void **state) {
    (void)state;
    uint64_t sums[2], totals[2];
    /* x: 2 + 3 before, 5 after: no change. y grows by 4 and z shrinks by 4,
     * so the totals are equal although two stacks changed. */
    char *text = diff_text("a;x 2\na;y 1\na;z 9\na;x 3\n", "a;z 5\na;x 5\na;y 5\n", sums, totals);
    assert_string_equal(text, "a;x 5 5\na;y 1 5\na;z 9 5\n");
    assert_int_equal(totals[0], 15);
    assert_int_equal(totals[1], 15);
    free(text);
}

static void the_columns_add_up_to_the_files_totals(void **state) {
    (void)state;
    uint64_t sums[2], totals[2];
    char *text =
        diff_text("m;a 10\nm;b 20\nm;b;c 30\nz 0\n", "m;a 11\nm;b;c 29\nq 7\n", sums, totals);
    assert_int_equal(sums[0], 60);
    assert_int_equal(sums[1], 47);
    assert_int_equal(totals[0], 60);
    assert_int_equal(totals[1], 47);
    /* "z 0" is on neither side: no line for it */
    assert_null(strstr(text, "z "));
    assert_string_equal(text, "m;a 10 11\nm;b 20 0\nm;b;c 30 29\nq 0 7\n");
    free(text);
}

static void sums_above_64_bits_are_refused(void **state) {
    (void)state;
    FoldedFile b, a;
    read_text("before", "x 18446744073709551615\ny 1\n", &b);
    read_text("after", "x 1\n", &a);
    FoldedDiff diff;
    const char *error;
    int which;
    assert_int_equal(diff_folded(&b, &a, &diff, &error, &which), -1);
    assert_int_equal(which, 0);
    assert_non_null(strstr(error, "64 bits"));
    folded_free(&b);
    folded_free(&a);
}

static void the_first_count_is_split_off_a_stack(void **state) {
    (void)state;
    size_t length;
    uint64_t count;
    assert_int_equal(diff_split_first_count("main;f 12", 9, &length, &count), 1);
    assert_int_equal(length, 6);
    assert_int_equal(count, 12);
    assert_int_equal(diff_split_first_count("main;f", 6, &length, &count), 0);
    assert_int_equal(diff_split_first_count("main;f(2)", 9, &length, &count), 0);
    assert_int_equal(diff_split_first_count("12", 2, &length, &count), 0);
    assert_int_equal(diff_split_first_count("a; 12", 5, &length, &count), 0);
    assert_int_equal(diff_split_first_count("a 99999999999999999999", 22, &length, &count), -1);
}

/* Draws folded text (one or two counts a line) as dripprof flame does; NULL with *error
 * set (malloc'd) when the reader refuses it. */
static char *draw(const char *text, char **error) {
    FlameOptions options;
    flame_default_options(&options);
    options.countname = "Ir";
    size_t size;
    char *svg = prof_draw("t.folded", text, strlen(text), &options, &size, error);
    char why[200];
    if (svg != NULL && !prof_xml_well_formed(svg, size, why, sizeof why)) {
        fail_msg("SVG is not well-formed: %s", why);
    }
    return svg;
}

/* The fill of the box whose title starts with `name (`. */
static const char *fill_of(const char *svg, const char *name, char *fill, size_t size) {
    char key[128];
    snprintf(key, sizeof key, "<title>%s (", name);
    const char *box = strstr(svg, key);
    assert_non_null(box);
    const char *f = strstr(box, "fill=\"");
    assert_non_null(f);
    f += 6;
    size_t n = (size_t)(strchr(f, '"') - f);
    assert_true(n < size);
    memcpy(fill, f, n);
    fill[n] = '\0';
    return fill;
}

static const char diff_example[] = "main;grew 10 30\n"
                                   "main;shrank 40 10\n"
                                   "main;same 20 20\n"
                                   "main;gone 5 0\n"
                                   "main;new<&>;leaf 0 15\n";

static void differential_boxes_are_sized_by_after_and_coloured_by_change(void **state) {
    (void)state;
    char *error;
    char *svg = draw(diff_example, &error);
    assert_non_null(svg);
    char fill[64];
    /* the largest change is shrank's -30: full blue; the others in proportion */
    assert_string_equal(fill_of(svg, "shrank", fill, sizeof fill), "rgb(40,40,255)");
    /* leaf grew by 15 of 30: 225 - 185 * 15 / 30 = 133 */
    assert_string_equal(fill_of(svg, "leaf", fill, sizeof fill), "rgb(255,133,133)");
    assert_string_equal(fill_of(svg, "same", fill, sizeof fill), "rgb(224,224,224)");
    /* grew by 20 of 30: 225 - 185 * 20 / 30 = 102 */
    assert_string_equal(fill_of(svg, "grew", fill, sizeof fill), "rgb(255,102,102)");
    /* main's own count is 0 on both sides: grey, however much it widened */
    assert_string_equal(fill_of(svg, "main", fill, sizeof fill), "rgb(224,224,224)");
    /* widths from AFTER: 75 in all, grew is 30 of them: 1180 * 30 / 75 = 472 px */
    const char *grew = strstr(svg, "<title>grew (");
    assert_non_null(strstr(grew, "width=\"472.00\""));
    /* a stack gone in AFTER has no box, but counts in main's BEFORE */
    assert_null(strstr(svg, "<title>gone ("));
    assert_non_null(strstr(svg, "<title>main (75 Ir, 100.00%)\nbefore: 75, change: none\n"
                                "own count: before 0, after 0, change: none</title>"));
    assert_non_null(strstr(svg, "<title>shrank (10 Ir, 13.33%)\nbefore: 40, change: -30 "
                                "(-75.00%)\nown count: before 40, after 10, change: -30 "
                                "(-75.00%)</title>"));
    assert_non_null(strstr(svg, "<title>new&lt;&amp;&gt; (15 Ir, 20.00%)\nbefore: 0, change: "
                                "+15 (new)"));
    /* the legend names both colours and both totals */
    assert_non_null(strstr(svg, "own count grew"));
    assert_non_null(strstr(svg, "own count shrank"));
    assert_non_null(strstr(svg, "total Ir: before 75, after 75, change none"));
    char *again = draw(diff_example, &error);
    assert_string_equal(svg, again);
    free(again);
    free(svg);
}

static void plain_input_draws_as_before(void **state) {
    (void)state;
    char *error;
    char *svg = draw("main;a 1\nmain;b 3\n", &error);
    assert_non_null(svg);
    assert_null(strstr(svg, "legend"));
    assert_non_null(strstr(svg, "<title>b (3 Ir, 75.00%)</title>"));
    free(svg);
}

static void a_mixed_file_is_an_error_at_the_first_line_that_differs(void **state) {
    (void)state;
    char *error;
    assert_null(draw("a;b 1 2\na;c 3\n", &error));
    assert_non_null(error);
    assert_non_null(strstr(error, "t.folded:2: one count, but the first line had two"));
    free(error);
    /* after a one-count first line, "a;c 3 4" is the stack "a;c 3" */
    char *svg = draw("a;b 1\na;c 3 4\n", &error);
    assert_non_null(strstr(svg, "<title>c 3 (4 Ir,"));
    free(svg);
    Trie trie;
    assert_int_equal(trie_init(&trie), 0);
    const char *why;
    assert_int_equal(trie_add(&trie, "a", 1, 1, &why), 0);
    assert_int_equal(trie_add_pair(&trie, "b", 1, 1, 2, &why), -1);
    assert_non_null(strstr(why, "two counts among lines with one"));
    trie_free(&trie);
}

static void nothing_after_is_an_error(void **state) {
    (void)state;
    Trie trie;
    assert_int_equal(trie_init(&trie), 0);
    const char *why;
    assert_int_equal(trie_add_pair(&trie, "a;b", 3, 7, 0, &why), 0);
    assert_int_equal(trie_finish(&trie), 0);
    FlameOptions options;
    flame_default_options(&options);
    FILE *out = fopen("/dev/null", "w");
    assert_int_equal(flame_write_trie(&trie, &options, out, &why), -1);
    fclose(out);
    assert_non_null(strstr(why, "AFTER"));
    trie_free(&trie);
}

PROF_TEST_GROUP(diff_tests, "diff",
                cmocka_unit_test(a_stack_only_in_one_file_gets_zero_in_the_other),
                cmocka_unit_test(repeated_lines_are_summed_and_equal_counts_cancel),
                cmocka_unit_test(the_columns_add_up_to_the_files_totals),
                cmocka_unit_test(sums_above_64_bits_are_refused),
                cmocka_unit_test(the_first_count_is_split_off_a_stack),
                cmocka_unit_test(differential_boxes_are_sized_by_after_and_coloured_by_change),
                cmocka_unit_test(plain_input_draws_as_before),
                cmocka_unit_test(a_mixed_file_is_an_error_at_the_first_line_that_differs),
                cmocka_unit_test(nothing_after_is_an_error))
