/* test_fold.c: callgrind graph -> folded stacks (vm/prof/fold.c).
 *
 * The invariants are checked on every committed profile and on any extra
 * profile named in $PROF_EXTRA_CALLGRIND (make test-prof adds a fresh
 * callgrind.out of build/drip there): the counts add up to totals, the lines
 * ending in each function add up to its self cost, the output is sorted and
 * merged, and for tree-shaped graphs every stack is the exact caller chain. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "trie.h"

static void fold_text(const char *text, Callgrind *g, FoldResult *r) {
    if (callgrind_read_buffer("t.out", text, strlen(text), g) != 0) {
        fail_msg("unexpected error: %s", g->error);
    }
    const char *error;
    if (fold_callgrind(g, r, &error) != 0) {
        fail_msg("fold failed: %s", error);
    }
}

static uint64_t line_count(const FoldResult *r, const char *stack) {
    for (size_t i = 0; i < r->count; i++) {
        if (strcmp(r->lines[i].stack, stack) == 0) {
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

static void check_invariants(const char *path, bool expect_exact_if_tree) {
    Callgrind g;
    if (callgrind_read_file(path, &g) != 0) {
        fail_msg("%s", g.error);
    }
    FoldResult r;
    const char *error;
    if (fold_callgrind(&g, &r, &error) != 0) {
        fail_msg("%s: %s", path, error);
    }
    char **names = fold_clean_names(&g);
    assert_non_null(names);
    /* 1. the counts add up to totals */
    uint64_t sum = 0;
    for (size_t i = 0; i < r.count; i++) {
        sum += r.lines[i].count;
        assert_true(r.lines[i].count > 0);
        if (i > 0 && strcmp(r.lines[i - 1].stack, r.lines[i].stack) >= 0) {
            fail_msg("%s: lines not sorted or not merged at %s", path, r.lines[i].stack);
        }
        assert_null(strstr(r.lines[i].stack, ";;"));
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
            if (strcmp(leaf_of(r.lines[i].stack), names[f]) == 0) {
                leaf += r.lines[i].count;
            }
        }
        if (self != leaf) {
            fail_msg("%s: %s: self %llu, lines ending in it %llu", path, names[f],
                     (unsigned long long)self, (unsigned long long)leaf);
        }
    }
    /* 3. a tree gives exact stacks: each self cost sits on its caller chain */
    if (r.exact && expect_exact_if_tree) {
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
            if (line_count(&r, chain) != expected) {
                fail_msg("%s: exact stack %s: %llu, want %llu", path, chain,
                         (unsigned long long)line_count(&r, chain), (unsigned long long)expected);
            }
            free(chain);
        }
    }
    fold_free_names(names, g.function_count);
    fold_free(&r);
    callgrind_free(&g);
}

static void invariants_hold_on_every_profile(void **state) {
    (void)state;
    for (size_t i = 0; i < prof_fixture_count; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", PROF_DATA_DIR, prof_fixtures[i]);
        check_invariants(path, true);
    }
    const char *extra = getenv("PROF_EXTRA_CALLGRIND");
    if (extra != NULL && *extra != '\0') {
        char *list = strdup(extra);
        for (char *path = strtok(list, " "); path != NULL; path = strtok(NULL, " ")) {
            check_invariants(path, true);
            print_message("prof: fold invariants hold on %s\n", path);
        }
        free(list);
    }
}

static bool fixture_is_exact(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", PROF_DATA_DIR, name);
    Callgrind g;
    FoldResult r;
    const char *error;
    assert_int_equal(callgrind_read_file(path, &g), 0);
    assert_int_equal(fold_callgrind(&g, &r, &error), 0);
    bool exact = r.exact;
    fold_free(&r);
    callgrind_free(&g);
    return exact;
}

static void separate_callers_make_the_graph_a_tree(void **state) {
    (void)state;
    assert_true(fixture_is_exact("fib-separate.callgrind.out"));
    assert_true(fixture_is_exact("shared-separate.callgrind.out"));
    assert_false(fixture_is_exact("shared.callgrind.out"));
    assert_false(fixture_is_exact("fib.callgrind.out"));
    assert_false(fixture_is_exact("mutual.callgrind.out"));
}

static void recursion_levels_show_as_one_name(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    const char *error;
    assert_int_equal(callgrind_read_file(PROF_DATA_DIR "/fib-separate.callgrind.out", &g), 0);
    assert_int_equal(fold_callgrind(&g, &r, &error), 0);
    size_t deepest = 0;
    for (size_t i = 0; i < r.count; i++) {
        assert_null(strchr(r.lines[i].stack, '\''));
        size_t depth = 0;
        for (const char *p = strstr(r.lines[i].stack, ";fib"); p; p = strstr(p + 1, ";fib")) {
            depth++;
        }
        deepest = depth > deepest ? depth : deepest;
    }
    assert_int_equal(deepest, 15); /* fib(15) nests 15 calls deep (fib(1) at the bottom) */
    fold_free(&r);
    callgrind_free(&g);
}

static const char split_profile[] = "events: Ir\n"
                                    "fn=(1) A\ncfn=(3) C\ncalls=1 0\n0 1\n"
                                    "fn=(2) B\ncfn=(3)\ncalls=1 0\n0 2\n"
                                    "fn=(3)\n0 10\ntotals: 10\n";

static void shared_callee_is_split_by_largest_remainder(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    fold_text(split_profile, &g, &r); /* 10 * 1/3 = 3.33, 10 * 2/3 = 6.67 */
    assert_int_equal(r.count, 2);
    assert_int_equal(line_count(&r, "A;C"), 3);
    assert_int_equal(line_count(&r, "B;C"), 7);
    fold_free(&r);
    callgrind_free(&g);
}

static void equal_remainders_go_to_the_first_caller_by_name(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    fold_text("events: Ir\nfn=(2) B\ncfn=(3) C\ncalls=1 0\n0 4\n"
              "fn=(1) A\ncfn=(3)\ncalls=1 0\n0 4\nfn=(3)\n0 3\ntotals: 3\n",
              &g, &r);
    assert_int_equal(line_count(&r, "A;C"), 2);
    assert_int_equal(line_count(&r, "B;C"), 1);
    fold_free(&r);
    callgrind_free(&g);
}

static void huge_costs_use_128_bit_products(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    fold_text("events: Ir\nfn=(1) A\ncfn=(3) C\ncalls=1 0\n0 3000000000000000000\n"
              "fn=(2) B\ncfn=(3)\ncalls=1 0\n0 1000000000000000000\n"
              "fn=(3)\n0 18446744073709551615\ntotals: 18446744073709551615\n",
              &g, &r);
    /* 3/4 and 1/4 of 2^64 - 1 = 13835058055282163711.25 and 4611686018427387903.75 */
    assert_int_equal(line_count(&r, "A;C"), 13835058055282163711u);
    assert_int_equal(line_count(&r, "B;C"), 4611686018427387904u);
    fold_free(&r);
    callgrind_free(&g);
}

static void cycles_without_entry_are_cut_deterministically(void **state) {
    (void)state;
    static const char text[] = "events: Ir\nfn=(1) X\ncfn=(2) Y\ncalls=1 0\n0 9\n0 5\n"
                               "fn=(2)\ncfn=(1)\ncalls=1 0\n0 4\n0 5\ntotals: 10\n";
    Callgrind g;
    FoldResult r;
    fold_text(text, &g, &r);
    assert_int_equal(r.total, 10);
    assert_int_equal(r.cut_arcs, 1);
    /* X is heavier (5 + 9), so the search starts there and Y -> X is the back edge. */
    assert_int_equal(line_count(&r, "X"), 5);
    assert_int_equal(line_count(&r, "X;Y"), 5);
    fold_free(&r);
    callgrind_free(&g);
}

static void self_loops_are_dropped_not_counted_twice(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    fold_text("events: Ir\nfn=(1) main\ncfn=(2) f\ncalls=1 0\n0 30\n0 1\n"
              "fn=(2)\ncfn=(2)\ncalls=5 0\n0 25\n0 30\ntotals: 31\n",
              &g, &r);
    assert_int_equal(r.self_loops, 1);
    assert_true(r.exact);
    assert_int_equal(line_count(&r, "main;f"), 30);
    assert_int_equal(line_count(&r, "main"), 1);
    fold_free(&r);
    callgrind_free(&g);
}

static void names_lose_only_the_suffixes_the_graph_explains(void **state) {
    (void)state;
    Callgrind g;
    FoldResult r;
    fold_text("events: Ir\n"
              "fn=(1) main\ncfn=(2) fill'main\ncalls=1 0\n0 10\n"
              "cfn=(5) closure for<'a>\ncalls=1 0\n0 2\n0 1\n"
              "fn=(2)\ncfn=(3) mix'fill'main\ncalls=1 0\n0 7\n0 3\n"
              "fn=(3)\ncfn=(4) mix'2'fill'main\ncalls=1 0\n0 3\n0 4\n"
              "fn=(4)\n0 3\n"
              "fn=(5)\n0 2\n"
              "fn=(6) lonely'2\n0 1\nfn=(7) odd'name\n0 1\n"
              "fn=(8) semi;colon\n0 1\nfn=\n0 1\nfn=(10) 'quoted\n0 1\ntotals: 18\n",
              &g, &r);
    assert_int_equal(line_count(&r, "main"), 1);
    assert_int_equal(line_count(&r, "main;fill"), 3);
    assert_int_equal(line_count(&r, "main;fill;mix"), 4);
    assert_int_equal(line_count(&r, "main;fill;mix;mix"), 3);
    assert_int_equal(line_count(&r, "main;closure for<'a>"), 2);
    assert_int_equal(line_count(&r, "lonely"), 1);
    assert_int_equal(line_count(&r, "odd'name"), 1);
    assert_int_equal(line_count(&r, "semi:colon"), 1);
    assert_int_equal(line_count(&r, "???"), 1); /* an empty name is no empty frame */
    assert_int_equal(line_count(&r, "'quoted"), 1);
    fold_free(&r);
    callgrind_free(&g);
}

static void output_is_deterministic(void **state) {
    (void)state;
    for (int round = 0; round < 2; round++) {
        Callgrind g1, g2;
        FoldResult a, b;
        const char *error;
        const char *path = round ? PROF_DATA_DIR "/mutual.callgrind.out"
                                 : PROF_DATA_DIR "/shared-jumps.callgrind.out";
        assert_int_equal(callgrind_read_file(path, &g1), 0);
        assert_int_equal(callgrind_read_file(path, &g2), 0);
        assert_int_equal(fold_callgrind(&g1, &a, &error), 0);
        assert_int_equal(fold_callgrind(&g2, &b, &error), 0);
        assert_int_equal(a.count, b.count);
        for (size_t i = 0; i < a.count; i++) {
            assert_string_equal(a.lines[i].stack, b.lines[i].stack);
            assert_int_equal(a.lines[i].count, b.lines[i].count);
        }
        fold_free(&a);
        fold_free(&b);
        callgrind_free(&g1);
        callgrind_free(&g2);
    }
}

static void long_call_chains_do_not_recurse_in_c(void **state) {
    (void)state;
    /* f0 -> f1'f0 -> f2'f1 -> ... (callgrind --separate-callers=1 names); only
     * the last one costs anything. */
    size_t n = 60000;
    size_t size = n * 64 + 64;
    char *text = malloc(size);
    size_t at = (size_t)sprintf(text, "events: Ir\nfn=(0) f0\n");
    for (size_t k = 0; k + 1 < n; k++) {
        if (k > 0) {
            at += (size_t)sprintf(text + at, "fn=(%zu)\n", k);
        }
        at += (size_t)sprintf(text + at, "cfn=(%zu) f%zu'f%zu\ncalls=1 0\n0 1\n", k + 1, k + 1, k);
    }
    at += (size_t)sprintf(text + at, "fn=(%zu)\n0 1\ntotals: 1\n", n - 1);
    Callgrind g;
    FoldResult r;
    fold_text(text, &g, &r);
    assert_int_equal(r.count, 1);
    assert_int_equal(r.lines[0].count, 1);
    assert_true(r.exact);
    /* every suffix names the caller, so every one goes */
    assert_true(strncmp(r.lines[0].stack, "f0;f1;f2;", 9) == 0);
    assert_null(strchr(r.lines[0].stack, '\''));
    size_t frames = 1;
    for (const char *p = r.lines[0].stack; (p = strchr(p, ';')) != NULL; p++) {
        frames++;
    }
    assert_int_equal(frames, n);
    fold_free(&r);
    callgrind_free(&g);
    free(text);
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
        assert_int_equal(fold_callgrind(&g, &r, &error), 0);
        char **names = fold_clean_names(&g);
        Trie trie;
        assert_int_equal(trie_init(&trie), 0);
        for (size_t k = 0; k < r.count; k++) {
            assert_int_equal(trie_add(&trie, r.lines[k].stack, strlen(r.lines[k].stack),
                                      r.lines[k].count, &error),
                             0);
        }
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
                cmocka_unit_test(separate_callers_make_the_graph_a_tree),
                cmocka_unit_test(recursion_levels_show_as_one_name),
                cmocka_unit_test(shared_callee_is_split_by_largest_remainder),
                cmocka_unit_test(equal_remainders_go_to_the_first_caller_by_name),
                cmocka_unit_test(huge_costs_use_128_bit_products),
                cmocka_unit_test(cycles_without_entry_are_cut_deterministically),
                cmocka_unit_test(self_loops_are_dropped_not_counted_twice),
                cmocka_unit_test(names_lose_only_the_suffixes_the_graph_explains),
                cmocka_unit_test(output_is_deterministic),
                cmocka_unit_test(long_call_chains_do_not_recurse_in_c),
                cmocka_unit_test(inclusive_matches_callgrind_below_acyclic_functions))
