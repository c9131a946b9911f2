/* test_folded.c: the folded-stacks reader (vm/prof/folded.c). */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "folded.h"

static FoldedFile read_text(const char *text) {
    FoldedFile file;
    int status = folded_read_buffer("t.folded", text, strlen(text), &file);
    if (status != 0) {
        fail_msg("unexpected error: %s", file.error);
    }
    return file;
}

static void reads_stacks_and_counts(void **state) {
    (void)state;
    FoldedFile f = read_text("main;run;fib 12\nmain;other 3\n");
    assert_int_equal(f.count, 2);
    assert_string_equal(f.lines[0].stack, "main;run;fib");
    assert_int_equal(f.lines[0].length, strlen("main;run;fib"));
    assert_int_equal(f.lines[0].count, 12);
    assert_int_equal(f.lines[0].line, 1);
    assert_string_equal(f.lines[1].stack, "main;other");
    assert_int_equal(f.lines[1].count, 3);
    folded_free(&f);
}

static void count_follows_the_last_run_of_blanks(void **state) {
    (void)state;
    FoldedFile f = read_text("(below main);x y\t  7\nsolo 0\n");
    assert_int_equal(f.count, 2);
    assert_string_equal(f.lines[0].stack, "(below main);x y");
    assert_int_equal(f.lines[0].count, 7);
    assert_int_equal(f.lines[1].count, 0);
    folded_free(&f);
}

static void crlf_blank_lines_and_missing_newline(void **state) {
    (void)state;
    FoldedFile f = read_text("\r\na;b 1\r\n   \n\nc 2  \r\nd 3");
    assert_int_equal(f.count, 3);
    assert_string_equal(f.lines[0].stack, "a;b");
    assert_int_equal(f.lines[0].line, 2);
    assert_string_equal(f.lines[1].stack, "c");
    assert_int_equal(f.lines[1].line, 5);
    assert_string_equal(f.lines[2].stack, "d");
    assert_int_equal(f.lines[2].count, 3);
    assert_int_equal(f.lines[2].line, 6);
    folded_free(&f);
}

static void hash_is_not_a_comment(void **state) {
    (void)state;
    FoldedFile f = read_text("# note 5\n");
    assert_int_equal(f.count, 1);
    assert_string_equal(f.lines[0].stack, "# note");
    folded_free(&f);
}

static void largest_count_and_overflowing_total(void **state) {
    (void)state;
    FoldedFile f = read_text("a 18446744073709551615\nb 1\n");
    assert_int_equal(f.lines[0].count, UINT64_MAX);
    uint64_t total = 0;
    assert_int_equal(folded_total(&f, &total), -1);
    folded_free(&f);
    f = read_text("a 5\nb 6\n");
    assert_int_equal(folded_total(&f, &total), 0);
    assert_int_equal(total, 11);
    folded_free(&f);
}

static void empty_input_has_no_lines(void **state) {
    (void)state;
    FoldedFile f = read_text("");
    assert_int_equal(f.count, 0);
    folded_free(&f);
}

static void no_length_limits(void **state) {
    (void)state;
    size_t n = 1 << 20;
    char *text = malloc(n + 16);
    assert_non_null(text);
    memset(text, 'x', n);
    text[1000] = ';';
    strcpy(text + n, " 42\n");
    FoldedFile f = read_text(text);
    assert_int_equal(f.count, 1);
    assert_int_equal(f.lines[0].length, n);
    assert_int_equal(f.lines[0].count, 42);
    folded_free(&f);
    free(text);
}

typedef struct {
    size_t lines;
    uint64_t total;
    size_t longest;
    size_t stop_after; /* 0: never */
} Seen;

static int count_line(void *context, const char *stack, size_t length, uint64_t count,
                      const char **why) {
    Seen *seen = context;
    assert_int_equal(strlen(stack), length);
    seen->lines++;
    seen->total += count;
    seen->longest = length > seen->longest ? length : seen->longest;
    if (seen->stop_after && seen->lines == seen->stop_after) {
        *why = "the visitor had enough";
        return -1;
    }
    return 0;
}

typedef struct {
    const char *text;
    size_t length; /* 0: strlen */
    const char *message;
} BadCase;

static void malformed_lines_name_file_and_line(void **state) {
    (void)state;
    static const BadCase cases[] = {
        {"a 1\nb\n", 0, "t.folded:2: no count"},
        {"a 1.5\n", 0, "t.folded:1: count is not an integer"},
        {"a 2.\n", 0, "t.folded:1: no count at the end"},
        {"a -3\n", 0, "t.folded:1: count is negative"},
        {"a +3\n", 0, "t.folded:1: count has a sign"},
        {"a 1,000\n", 0, "t.folded:1: count has thousands separators"},
        {"a 1e3\n", 0, "t.folded:1: count is in exponent notation (write 1e3 as 1000)"},
        {"a 2.5E+6\n", 0, "t.folded:1: count is in exponent notation"},
        {"a 1e-3\n", 0, "t.folded:1: count is in exponent notation"},
        {"a 0x10\n", 0, "t.folded:1: count is hexadecimal (write 0x10 as 16)"},
        {"a\t0Xff0\n", 0, "t.folded:1: count is hexadecimal"},
        {"0x7\n", 0, "t.folded:1: count is hexadecimal"},
        {"a;0x10\n", 0, "t.folded:1: no blank or TAB"},
        {"a 10x10\n", 0, "t.folded:1: no blank or TAB"},
        {"a;e3\n", 0, "t.folded:1: no blank or TAB"},
        {"a e3\n", 0, "t.folded:1: no blank or TAB"},
        {"a;5\n", 0, "t.folded:1: no count after the last frame"},
        {"ok 1\na;;b 3\n", 0, "t.folded:2: empty frame"},
        {";a 1\n", 0, "t.folded:1: empty frame"},
        {"a; 1\n", 0, "t.folded:1: empty frame"},
        {"   5\n", 0, "t.folded:1: empty stack"},
        {"5\n", 0, "t.folded:1: no stack before the count"},
        {"a 18446744073709551616\n", 0, "t.folded:1: count does not fit in 64 bits"},
        {"a 1\nb\0c 2\n", 10, "t.folded:2: binary data (NUL byte)"},
        {"a 1\n\nb\x01 2\n", 0, "t.folded:3: binary data (control character 0x01)"},
        {"a\rb 1\n", 0, "t.folded:1: binary data (control character 0x0d)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FoldedFile f;
        size_t length = cases[i].length ? cases[i].length : strlen(cases[i].text);
        assert_int_equal(folded_read_buffer("t.folded", cases[i].text, length, &f), -1);
        assert_non_null(f.error);
        if (strncmp(f.error, cases[i].message, strlen(cases[i].message)) != 0) {
            fail_msg("case %zu: got \"%s\", want \"%s...\"", i, f.error, cases[i].message);
        }
        folded_free(&f);
        /* the streaming reader (flame's) gives the same verdict, word for word */
        FILE *in = tmpfile();
        fwrite(cases[i].text, 1, length, in);
        rewind(in);
        Seen seen = {0};
        char *error = NULL;
        assert_int_equal(folded_each_stream(in, "t.folded", count_line, &seen, &error), -1);
        fclose(in);
        if (strncmp(error, cases[i].message, strlen(cases[i].message)) != 0) {
            fail_msg("case %zu, streamed: got \"%s\", want \"%s...\"", i, error, cases[i].message);
        }
        free(error);
    }
}

/* The reader looks at words of eight bytes: every alignment must behave. */
static void every_alignment_of_bad_bytes_is_caught(void **state) {
    (void)state;
    for (size_t at = 1; at < 30; at++) {
        char line[64];
        memset(line, 'a', 40);
        strcpy(line + 40, " 7\n");
        line[at] = ';'; /* one ';' anywhere: fine */
        FoldedFile f;
        assert_int_equal(folded_read_buffer("t", line, strlen(line), &f), 0);
        folded_free(&f);
        line[at + 1] = ';'; /* two side by side: an empty frame */
        assert_int_equal(folded_read_buffer("t", line, strlen(line), &f), -1);
        assert_non_null(strstr(f.error, "empty frame"));
        folded_free(&f);
        line[at + 1] = '\x02'; /* a control byte */
        assert_int_equal(folded_read_buffer("t", line, strlen(line), &f), -1);
        assert_non_null(strstr(f.error, "binary data"));
        folded_free(&f);
    }
    for (size_t len = 1; len < 20; len++) { /* short lines, ";;" at the very end of the stack */
        char line[64];
        memset(line, 'b', len);
        line[len] = ';';
        line[len + 1] = ';';
        strcpy(line + len + 2, "c 1");
        FoldedFile f;
        assert_int_equal(folded_read_buffer("t", line, strlen(line), &f), -1);
        folded_free(&f);
    }
}

static void missing_file_is_an_error_naming_it(void **state) {
    (void)state;
    FoldedFile f;
    assert_int_equal(folded_read_file("build/no/such/file.folded", &f), -1);
    assert_non_null(strstr(f.error, "build/no/such/file.folded: cannot open"));
    folded_free(&f);
}

static void reads_from_a_file(void **state) {
    (void)state;
    const char *text = "x;y 4\nx 1\n";
    const char *path = prof_scratch_file("reader.folded", text, strlen(text));
    assert_non_null(path);
    FoldedFile f;
    assert_int_equal(folded_read_file(path, &f), 0);
    assert_int_equal(f.count, 2);
    assert_string_equal(f.lines[1].stack, "x");
    folded_free(&f);
}

static void streaming_sees_what_the_reader_sees(void **state) {
    (void)state;
    /* a 3 MB line crosses the 1 MB read buffer; CRLF, blank lines, no final newline */
    size_t big = 3 << 20;
    char *text = malloc(big + 100);
    strcpy(text, "a;b 1\r\n\n");
    size_t at = strlen(text);
    memset(text + at, 'x', big);
    at += big;
    strcpy(text + at, " 2\n   \nc 3");
    const char *path = prof_scratch_file("stream.folded", text, strlen(text));
    FoldedFile f;
    assert_int_equal(folded_read_file(path, &f), 0);
    Seen seen = {0};
    char *error = NULL;
    assert_int_equal(folded_each_file(path, count_line, &seen, &error), 0);
    assert_null(error);
    assert_int_equal(seen.lines, f.count);
    assert_int_equal(seen.lines, 3);
    assert_int_equal(seen.total, 6);
    assert_int_equal(seen.longest, big);
    folded_free(&f);
    free(text);
}

static void streaming_errors_name_file_and_line(void **state) {
    (void)state;
    const char *path = prof_scratch_file("stream-bad.folded", "a 1\nb 2\n\nc\n", 12);
    Seen seen = {0};
    char *error = NULL;
    assert_int_equal(folded_each_file(path, count_line, &seen, &error), -1);
    assert_non_null(strstr(error, "stream-bad.folded:4: no count"));
    free(error);
    Seen stop = {.stop_after = 2};
    error = NULL;
    assert_int_equal(folded_each_file(path, count_line, &stop, &error), -1);
    assert_non_null(strstr(error, "stream-bad.folded:2: the visitor had enough"));
    free(error);
    error = NULL;
    assert_int_equal(folded_each_file("build/no/such.folded", count_line, &seen, &error), -1);
    assert_non_null(strstr(error, "build/no/such.folded: cannot open"));
    free(error);
}

PROF_TEST_GROUP(folded_tests, "folded reader", cmocka_unit_test(reads_stacks_and_counts),
                cmocka_unit_test(count_follows_the_last_run_of_blanks),
                cmocka_unit_test(crlf_blank_lines_and_missing_newline),
                cmocka_unit_test(hash_is_not_a_comment),
                cmocka_unit_test(largest_count_and_overflowing_total),
                cmocka_unit_test(empty_input_has_no_lines), cmocka_unit_test(no_length_limits),
                cmocka_unit_test(malformed_lines_name_file_and_line),
                cmocka_unit_test(every_alignment_of_bad_bytes_is_caught),
                cmocka_unit_test(missing_file_is_an_error_naming_it),
                cmocka_unit_test(reads_from_a_file),
                cmocka_unit_test(streaming_sees_what_the_reader_sees),
                cmocka_unit_test(streaming_errors_name_file_and_line))
