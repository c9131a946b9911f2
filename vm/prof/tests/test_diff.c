/* test_diff.c: what dripprof cannot reach of the differential trie (trie.c). Its reader
 * (diff.c) picks plain or differential by the first line, so no file gets a pair of
 * counts into a trie that holds single ones; trie_add_pair must still refuse that itself.
 * cases/diff.txt runs `dripprof diff` and draws its output with `dripprof flame`. */
#include "prof_test.h"

#include <string.h>

#include "trie.h"

static void a_pair_among_single_counts_is_refused(void **state) {
    (void)state;
    Trie trie;
    assert_int_equal(trie_init(&trie), 0);
    const char *why;
    assert_int_equal(trie_add(&trie, "a", 1, 1, &why), 0);
    assert_int_equal(trie_add_pair(&trie, "b", 1, 1, 2, &why), -1);
    assert_non_null(strstr(why, "two counts among lines with one"));
    trie_free(&trie);
}

PROF_TEST_GROUP(diff_tests, "diff", cmocka_unit_test(a_pair_among_single_counts_is_refused))
