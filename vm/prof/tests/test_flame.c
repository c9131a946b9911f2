/* test_flame.c: the SVG flame graph writer (vm/prof/flame.c, trie.c). */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "fold.h"

/* The SVG of folded text, which must draw and be well-formed XML (malloc'd). */
static char *render_ok(const char *folded, const FlameOptions *options) {
    char *error = NULL;
    size_t size;
    char *svg = prof_draw("t.folded", folded, strlen(folded), options, &size, &error);
    if (svg == NULL) {
        fail_msg("flame failed: %s", error);
    }
    char why[200];
    if (!prof_xml_well_formed(svg, size, why, sizeof why)) {
        fail_msg("SVG is not well-formed: %s", why);
    }
    return svg;
}

/* The error of folded text that must not draw (malloc'd). */
static char *render_error(const char *folded, size_t length) {
    char *error = NULL;
    char *svg = prof_draw("t.folded", folded, length, NULL, NULL, &error);
    if (svg != NULL) {
        fail_msg("flame drew what it should refuse: %.200s", folded);
    }
    assert_non_null(error);
    return error;
}

static size_t occurrences(const char *text, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

static const char chapter_example[] =
    "main;run;fib;fib;fib 10\nmain;run;fib 5\nmain;run;op_add 3\nmain;other 2\n";

static void tooltips_carry_name_count_and_share(void **state) {
    (void)state;
    char *svg = render_ok(chapter_example, NULL);
    assert_non_null(strstr(svg, "<title>all (20 samples, 100.00%)</title>"));
    assert_non_null(strstr(svg, "<title>run (18 samples, 90.00%)</title>"));
    assert_non_null(strstr(svg, "<title>op_add (3 samples, 15.00%)</title>"));
    /* fib is drawn once per depth: 15, then 10, then 10 */
    assert_int_equal(occurrences(svg, "<title>fib ("), 3);
    assert_non_null(strstr(svg, "<title>fib (15 samples, 75.00%)</title>"));
    assert_non_null(strstr(svg, "<script"));
    assert_non_null(strstr(svg, "Matched: "));
    free(svg);
}

static void boxes_are_as_wide_as_their_share(void **state) {
    (void)state;
    char *svg = render_ok(chapter_example, NULL);
    /* 1200 px minus 2 x 10 padding = 1180 px for 20 samples: 59 px each. */
    const char *run = strstr(svg, "<title>run (");
    assert_non_null(run);
    const char *width = strstr(run, "width=\"");
    assert_non_null(width);
    assert_true(strncmp(width, "width=\"1062.00\"", 15) == 0); /* 18 x 59 */
    const char *other = strstr(svg, "<title>other (");
    assert_non_null(other);
    assert_true(strncmp(strstr(other, "width=\""), "width=\"118.00\"", 14) == 0);
    free(svg);
}

static void one_box_per_name_not_per_run_of_lines(void **state) {
    (void)state;
    /* flamegraph.pl sorts these lines and draws run twice (5 and 3). */
    char *svg = render_ok("main;run 5\nmain;run2 1\nmain;run;x 3\n", NULL);
    assert_int_equal(occurrences(svg, "<title>run ("), 1);
    assert_non_null(strstr(svg, "<title>run (8 samples, 88.89%)</title>"));
    free(svg);
}

static void options_title_countname_and_commas(void **state) {
    (void)state;
    FlameOptions options;
    flame_default_options(&options);
    options.title = "fib <35> & \"zoo\"";
    options.countname = "Ir";
    options.width = 800;
    char *svg = render_ok("main;run 1234567\nmain 1\n", &options);
    assert_non_null(strstr(svg, "fib &lt;35&gt; &amp; &quot;zoo&quot;"));
    assert_non_null(strstr(svg, "<title>run (1,234,567 Ir, 100.00%)</title>"));
    assert_non_null(strstr(svg, "width=\"800.00\""));
    free(svg);
}

static void names_are_escaped_and_bad_utf8_replaced(void **state) {
    (void)state;
    char *svg =
        render_ok("main;operator<<(a&b) 4\nmain;'q' \"x\" 2\nmain;caf\xc3\xa9;\xff\xfe 3\n", NULL);
    assert_non_null(strstr(svg, "operator&lt;&lt;(a&amp;b)"));
    assert_non_null(strstr(svg, "&#39;q&#39; &quot;x&quot;"));
    assert_non_null(strstr(svg, "caf\xc3\xa9"));
    assert_non_null(strstr(svg, "\xEF\xBF\xBD\xEF\xBF\xBD"));
    free(svg);
}

static void narrow_boxes_are_pruned_with_their_children(void **state) {
    (void)state;
    const char *text = "main;big 100000000\nmain;tiny;under 1\n";
    char *svg = render_ok(text, NULL);
    assert_null(strstr(svg, "<title>tiny ("));
    assert_null(strstr(svg, "<title>under ("));
    free(svg);
    FlameOptions options;
    flame_default_options(&options);
    options.minwidth = 0;
    svg = render_ok(text, &options);
    assert_non_null(strstr(svg, "<title>tiny ("));
    assert_non_null(strstr(svg, "<title>under ("));
    free(svg);
}

static void labels_are_cut_to_the_box(void **state) {
    (void)state;
    char *svg = render_ok("a_function_with_a_rather_long_name 1\nb 39\n", NULL);
    /* 1180 / 40 = 29.5 px: room for floor((29.5 - 3) / 7.08) = 3 characters: "a.." */
    assert_non_null(strstr(svg, ">a..</text>"));
    free(svg);
}

static void same_input_same_bytes(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    const char *error;
    assert_int_equal(callgrind_read_file(PROF_DATA_DIR "/shared-jumps.callgrind.out", &g), 0);
    assert_int_equal(fold_callgrind(&g, &r, &error), 0);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    for (size_t i = 0; i < r.count; i++) {
        fprintf(out, "%s %llu\n", r.lines[i].stack, (unsigned long long)r.lines[i].count);
    }
    fclose(out);
    char *first = render_ok(text, NULL);
    char *second = render_ok(text, NULL);
    assert_string_equal(first, second);
    /* and the order of the input lines does not matter */
    char *reversed = malloc(size + 1);
    size_t at = 0;
    for (size_t i = r.count; i-- > 0;) {
        at += (size_t)sprintf(reversed + at, "%s %llu\n", r.lines[i].stack,
                              (unsigned long long)r.lines[i].count);
    }
    char *third = render_ok(reversed, NULL);
    assert_string_equal(first, third);
    free(first);
    free(second);
    free(third);
    free(reversed);
    free(text);
    fold_free(&r);
    callgrind_free(&g);
}

static void deep_stacks_do_not_recurse_in_c(void **state) {
    (void)state;
    size_t depth = 5000;
    char *text = malloc(depth * 3 + 16);
    size_t at = 0;
    for (size_t i = 0; i < depth; i++) {
        at += (size_t)sprintf(text + at, "%sf", i ? ";" : "");
    }
    strcpy(text + at, " 7\n");
    char *svg = render_ok(text, NULL);
    assert_int_equal(occurrences(svg, "<g class=\"f\">"), depth + 1);
    free(svg);
    free(text);
}

static void nothing_to_draw_is_an_error(void **state) {
    (void)state;
    char *error = render_error("a 0\nb 0\n", 8);
    assert_string_equal(error, "no stack with a count above 0");
    free(error);
    free(render_error("", 0));
}

static void counts_near_the_64_bit_limit(void **state) {
    (void)state;
    char *svg = render_ok("a 18446744073709551614\nb 1\n", NULL);
    assert_non_null(strstr(svg, "<title>all (18,446,744,073,709,551,615 samples, 100.00%)"));
    free(svg);
    const char *text = "a 18446744073709551615\nb 1\n";
    char *error = render_error(text, strlen(text));
    assert_non_null(strstr(error, "64 bits"));
    free(error);
}

/* The well-formedness check is xmllint's, and it can fail: an SVG with one
 * name left unescaped, or one box left open, is refused, with a reason. */
static void a_broken_svg_fails_the_xml_check(void **state) {
    (void)state;
    char *svg = render_ok("main;operator<<(a&b) 4\nmain;x 2\n", NULL);
    char why[200];
    size_t size = strlen(svg);
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

PROF_TEST_GROUP(flame_tests, "flame", cmocka_unit_test(tooltips_carry_name_count_and_share),
                cmocka_unit_test(boxes_are_as_wide_as_their_share),
                cmocka_unit_test(one_box_per_name_not_per_run_of_lines),
                cmocka_unit_test(options_title_countname_and_commas),
                cmocka_unit_test(names_are_escaped_and_bad_utf8_replaced),
                cmocka_unit_test(narrow_boxes_are_pruned_with_their_children),
                cmocka_unit_test(labels_are_cut_to_the_box),
                cmocka_unit_test(same_input_same_bytes),
                cmocka_unit_test(deep_stacks_do_not_recurse_in_c),
                cmocka_unit_test(nothing_to_draw_is_an_error),
                cmocka_unit_test(counts_near_the_64_bit_limit),
                cmocka_unit_test(a_broken_svg_fails_the_xml_check))
