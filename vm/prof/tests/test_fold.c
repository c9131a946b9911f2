/* test_fold.c: callgrind graph -> folded stacks (vm/prof/fold.c).
 *
 * The invariants are checked on every committed profile and on any extra
 * profile named in $PROF_EXTRA_CALLGRIND (make test-prof adds a fresh
 * callgrind.out of build/drip there): the counts add up to totals, the lines
 * ending in each function add up to its self cost, the output is sorted and
 * merged, and for tree-shaped graphs every stack is the exact caller chain;
 * on the committed profiles, below a function with no recursion under it the
 * stacks give callgrind's inclusive cost. These need the graph's functions and arcs, so they are C;
 * what dripprof fold prints for a given graph is checked in cases/fold.txt. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "trie.h"

/* Every line's text (fold_stack), in line order. */
static char **texts_of(const FoldResult *r) {
    char **texts = malloc((r->count + 1) * sizeof *texts);
    assert_non_null(texts);
    for (size_t i = 0; i < r->count; i++) {
        texts[i] = fold_stack(r, i);
        assert_non_null(texts[i]);
    }
    return texts;
}

static void free_texts(char **texts, size_t count) {
    while (count > 0) {
        free(texts[--count]);
    }
    free(texts);
}

static uint64_t line_count(const FoldResult *r, char **texts, const char *stack) {
    for (size_t i = 0; i < r->count; i++) {
        if (strcmp(texts[i], stack) == 0) {
            return r->lines[i].count;
        }
    }
    return 0;
}

static const char *leaf_of(const char *stack) {
    const char *semi = strrchr(stack, ';');
    return semi ? semi + 1 : stack;
}

/* The stack of f built by following unique callers up to a root. */
static char *caller_chain(const Callgrind *g, char **names, size_t f) {
    size_t length = strlen(names[f]) + 1;
    char *chain = malloc(length);
    strcpy(chain, names[f]);
    for (size_t steps = 0; steps < g->function_count; steps++) {
        long caller = -1;
        for (size_t i = 0; i < g->arc_count; i++) {
            if (g->arcs[i].callee == f && g->arcs[i].caller != f) {
                caller = g->arcs[i].caller;
            }
        }
        if (caller < 0) {
            return chain;
        }
        size_t n = strlen(names[caller]);
        char *longer = malloc(n + 1 + strlen(chain) + 1);
        sprintf(longer, "%s;%s", names[caller], chain);
        free(chain);
        chain = longer;
        f = (size_t)caller;
    }
    free(chain);
    return NULL;
}

/* The invariants of fold_callgrind(path, resolution); the exact stacks of a tree are
 * checked when expect_exact_if_tree and nothing was merged. */
static void check_invariants(const char *path, uint64_t resolution, bool expect_exact_if_tree) {
    Callgrind g;
    if (callgrind_read_file(path, &g) != 0) {
        fail_msg("%s", g.error);
    }
    FoldResult r;
    const char *error;
    if (fold_callgrind(&g, resolution, &r, &error) != 0) {
        fail_msg("%s: %s", path, error);
    }
    char **texts = texts_of(&r);
    char **names = fold_clean_names(&g);
    assert_non_null(names);
    /* 1. the counts add up to totals */
    uint64_t sum = 0;
    for (size_t i = 0; i < r.count; i++) {
        sum += r.lines[i].count;
        assert_true(r.lines[i].count > 0);
        if (i > 0 && strcmp(texts[i - 1], texts[i]) >= 0) {
            fail_msg("%s: lines not sorted or not merged at %s", path, texts[i]);
        }
        assert_null(strstr(texts[i], ";;"));
        /* the merged lines: one root frame, and what it stands for is below the threshold */
        const char *other = strstr(texts[i], FOLD_OTHER_CALLERS);
        assert_true(other == NULL || (other == texts[i] && r.threshold > 0));
    }
    if (sum != g.totals || r.total != g.totals) {
        fail_msg("%s: folded sum %llu, totals %llu", path, (unsigned long long)sum,
                 (unsigned long long)g.totals);
    }
    /* 2. per function name: lines ending in it = callgrind's self costs */
    for (size_t f = 0; f < g.function_count; f++) {
        uint64_t self = 0, leaf = 0;
        for (size_t h = 0; h < g.function_count; h++) {
            if (strcmp(names[h], names[f]) == 0) {
                self += g.functions[h].self;
            }
        }
        for (size_t i = 0; i < r.count; i++) {
            if (strcmp(leaf_of(texts[i]), names[f]) == 0) {
                leaf += r.lines[i].count;
            }
        }
        if (self != leaf) {
            fail_msg("%s: %s: self %llu, lines ending in it %llu", path, names[f],
                     (unsigned long long)self, (unsigned long long)leaf);
        }
    }
    /* 3. a tree gives exact stacks: each self cost sits on its caller chain */
    if (r.exact && expect_exact_if_tree && r.merged == 0) {
        for (size_t f = 0; f < g.function_count; f++) {
            if (g.functions[f].self == 0) {
                continue;
            }
            char *chain = caller_chain(&g, names, f);
            assert_non_null(chain);
            uint64_t expected = 0;
            for (size_t h = 0; h < g.function_count; h++) {
                char *other = caller_chain(&g, names, h);
                if (strcmp(other, chain) == 0) {
                    expected += g.functions[h].self;
                }
                free(other);
            }
            if (line_count(&r, texts, chain) != expected) {
                fail_msg("%s: exact stack %s: %llu, want %llu", path, chain,
                         (unsigned long long)line_count(&r, texts, chain),
                         (unsigned long long)expected);
            }
            free(chain);
        }
    }
    free_texts(texts, r.count);
    fold_free_names(names, g.function_count);
    fold_free(&r);
    callgrind_free(&g);
}

/* Exact, and bounded coarsely enough that many shares are merged (at 1/1000: 80 to 200 on
 * the committed profiles, 400 on the VM's fib(15), 3 to 11 % of the cost). */
static const uint64_t resolutions[] = {FOLD_AUTO, 1000};

static void invariants_hold_on_every_profile(void **state) {
    (void)state;
    for (size_t i = 0; i < prof_fixture_count; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", PROF_DATA_DIR, prof_fixtures[i]);
        for (size_t k = 0; k < sizeof resolutions / sizeof *resolutions; k++) {
            check_invariants(path, resolutions[k], true);
        }
    }
    const char *extra = getenv("PROF_EXTRA_CALLGRIND");
    if (extra != NULL && *extra != '\0') {
        char *list = strdup(extra);
        for (char *path = strtok(list, " "); path != NULL; path = strtok(NULL, " ")) {
            for (size_t k = 0; k < sizeof resolutions / sizeof *resolutions; k++) {
                check_invariants(path, resolutions[k], true);
            }
            print_message("prof: fold invariants hold on %s\n", path);
        }
        free(list);
    }
}

/* The chapter's own profiles (the VM's, in $PROF_EXTRA_CALLGRIND) have few stacks: the
 * default fold merges nothing and is the exact one, line for line. */
static void vm_profiles_fold_exactly_by_default(void **state) {
    (void)state;
    const char *extra = getenv("PROF_EXTRA_CALLGRIND");
    char *list = strdup(extra != NULL ? extra : "");
    for (char *path = strtok(list, " "); path != NULL; path = strtok(NULL, " ")) {
        Callgrind g;
        FoldResult bounded, exact;
        const char *error;
        assert_int_equal(callgrind_read_file(path, &g), 0);
        assert_int_equal(fold_callgrind(&g, FOLD_AUTO, &bounded, &error), 0);
        assert_int_equal(fold_callgrind(&g, 0, &exact, &error), 0);
        assert_int_equal(bounded.merged, 0);
        assert_int_equal(bounded.count, exact.count);
        char **a = texts_of(&bounded), **b = texts_of(&exact);
        for (size_t i = 0; i < exact.count; i++) {
            assert_string_equal(a[i], b[i]);
            assert_int_equal(bounded.lines[i].count, exact.lines[i].count);
        }
        print_message("prof: %s: the default fold is the exact one (%zu lines)\n", path,
                      exact.count);
        free_texts(a, bounded.count);
        free_texts(b, exact.count);
        fold_free(&bounded);
        fold_free(&exact);
        callgrind_free(&g);
    }
    free(list);
}

/* Nodes reachable from f (f excluded) into reach[]; *cyclic when f's
 * subgraph has a cycle (some reachable node reaches back into the set
 * through an arc other than a self-loop... detected as f itself or any node
 * reached twice along one DFS path). Returns how many were reached. */
static size_t reachable(const Callgrind *g, size_t f, char *reach, bool *cyclic) {
    size_t n = g->function_count, count = 0;
    char *state = calloc(n, 1); /* 0 new, 1 on the DFS stack, 2 done */
    size_t *stack = malloc((n + 1) * sizeof *stack), *next = calloc(n, sizeof *next);
    size_t top = 0;
    stack[top++] = f;
    state[f] = 1;
    *cyclic = false;
    while (top > 0) {
        size_t u = stack[top - 1];
        bool pushed = false;
        while (next[u] < g->arc_count && !pushed) {
            const CgArc *arc = &g->arcs[next[u]++];
            if (arc->caller != u || arc->callee == u) {
                continue;
            }
            if (state[arc->callee] == 1) {
                *cyclic = true;
            } else if (state[arc->callee] == 0) {
                state[arc->callee] = 1;
                reach[arc->callee] = 1;
                count++;
                stack[top++] = arc->callee;
                pushed = true;
            }
        }
        if (!pushed) {
            state[u] = 2;
            top--;
        }
    }
    free(state);
    free(stack);
    free(next);
    return count;
}

/* The inclusive cost of the frame name in the stacks, for a name that never sits under
 * itself: the sum of the trie's nodes of that name (a node's total includes its children). */
static uint64_t trie_inclusive(const Trie *trie, const char *name) {
    uint64_t sum = 0;
    for (size_t n = 1; n < trie->count; n++) {
        if (trie->nodes[n].length == strlen(name) &&
            memcmp(trie->nodes[n].name, name, trie->nodes[n].length) == 0) {
            sum += trie->nodes[n].total;
        }
    }
    return sum;
}

/* Where the call graph below a function is consistent (no recursion under
 * it), the proportional split gives it the inclusive cost callgrind reports
 * (self + its outgoing arcs), up to rounding: notes §3. */
static void inclusive_matches_callgrind_below_acyclic_functions(void **state) {
    (void)state;
    for (size_t i = 0; i < prof_fixture_count; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", PROF_DATA_DIR, prof_fixtures[i]);
        Callgrind g;
        FoldResult r;
        const char *error;
        assert_int_equal(callgrind_read_file(path, &g), 0);
        assert_int_equal(fold_callgrind(&g, FOLD_AUTO, &r, &error), 0);
        char **names = fold_clean_names(&g);
        char **texts = texts_of(&r);
        Trie trie;
        assert_int_equal(trie_init(&trie), 0);
        for (size_t k = 0; k < r.count; k++) {
            assert_int_equal(trie_add(&trie, texts[k], strlen(texts[k]), r.lines[k].count, &error),
                             0);
        }
        free_texts(texts, r.count);
        assert_int_equal(trie_finish(&trie), 0);
        size_t compared = 0;
        char *reach = calloc(g.function_count, 1);
        for (size_t f = 0; f < g.function_count; f++) {
            bool cyclic, unique = true;
            memset(reach, 0, g.function_count);
            size_t below = reachable(&g, f, reach, &cyclic);
            for (size_t h = 0; h < g.function_count && unique; h++) {
                unique = h == f || strcmp(names[h], names[f]) != 0;
            }
            if (cyclic || !unique || reach[f]) {
                continue;
            }
            uint64_t expected = g.functions[f].self;
            for (size_t a = 0; a < g.arc_count; a++) {
                if (g.arcs[a].caller == f && g.arcs[a].callee != f) {
                    expected += g.arcs[a].inclusive;
                }
            }
            uint64_t got = trie_inclusive(&trie, names[f]); /* f is not under itself */
            uint64_t off = got > expected ? got - expected : expected - got;
            if (off > below + 1) { /* at most about one unit per split below f */
                fail_msg("%s: %s: inclusive %llu from the stacks, %llu in callgrind", path,
                         names[f], (unsigned long long)got, (unsigned long long)expected);
            }
            compared++;
        }
        assert_true(compared > 10);
        free(reach);
        trie_free(&trie);
        fold_free_names(names, g.function_count);
        fold_free(&r);
        callgrind_free(&g);
    }
}

PROF_TEST_GROUP(fold_tests, "fold", cmocka_unit_test(invariants_hold_on_every_profile),
                cmocka_unit_test(vm_profiles_fold_exactly_by_default),
                cmocka_unit_test(inclusive_matches_callgrind_below_acyclic_functions))
