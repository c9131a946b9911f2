/* test_callgrind.c: the graph the callgrind.out reader (vm/prof/callgrind.c)
 * builds, on real profiles made on this machine (tests/data, see
 * programs/regenerate.sh) and on small hand-written ones: its functions' self
 * costs, its arcs with their calls and inclusive costs, and the objects that
 * tell two functions of one name apart, none of which dripprof prints as such.
 * cases/callgrind.txt gives the reader the format's corners and malformed
 * files through dripprof fold and flame. */
#define _POSIX_C_SOURCE 200809L
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

static void read_ok(const char *text, Callgrind *g) {
    if (callgrind_read_buffer("t.out", text, strlen(text), g) != 0) {
        fail_msg("unexpected error: %s", g->error);
    }
}

/* Index of the function called name in an object whose name ends in object_suffix. */
static long find_function(const Callgrind *g, const char *name, const char *object_suffix) {
    for (size_t f = 0; f < g->function_count; f++) {
        const char *object = callgrind_object_name(g, f);
        size_t n = strlen(object), m = strlen(object_suffix);
        if (strcmp(callgrind_function_name(g, f), name) == 0 && n >= m &&
            strcmp(object + n - m, object_suffix) == 0) {
            return (long)f;
        }
    }
    return -1;
}

static const CgArc *find_arc(const Callgrind *g, long caller, long callee) {
    for (size_t i = 0; i < g->arc_count; i++) {
        if ((long)g->arcs[i].caller == caller && (long)g->arcs[i].callee == callee) {
            return &g->arcs[i];
        }
    }
    return NULL;
}

static void reads_every_fixture(void **state) {
    (void)state;
    for (size_t i = 0; i < prof_fixture_count; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", PROF_DATA_DIR, prof_fixtures[i]);
        Callgrind g;
        if (callgrind_read_file(path, &g) != 0) {
            fail_msg("%s", g.error);
        }
        assert_string_equal(g.event, "Ir");
        assert_true(g.function_count > 10);
        uint64_t sum = 0;
        for (size_t f = 0; f < g.function_count; f++) {
            sum += g.functions[f].self;
        }
        assert_int_equal(sum, g.totals);
        assert_true(g.totals > 1000);
        callgrind_free(&g);
    }
}

static void fib_profile_has_the_recursion_callgrind_reports(void **state) {
    (void)state;
    Callgrind g;
    assert_int_equal(callgrind_read_file(PROF_DATA_DIR "/fib.callgrind.out", &g), 0);
    long main_f = find_function(&g, "main", "/fib");
    long fib = find_function(&g, "fib", "/fib");
    long fib2 = find_function(&g, "fib'2", "/fib");
    assert_true(main_f >= 0 && fib >= 0 && fib2 >= 0);
    const CgArc *main_fib = find_arc(&g, main_f, fib);
    assert_non_null(main_fib);
    assert_int_equal(main_fib->calls, 1);
    /* fib(15) makes 1973 calls: 1 from main, 2 from the outer fib, 1970 inside fib'2. */
    const CgArc *fib_fib2 = find_arc(&g, fib, fib2);
    const CgArc *loop = find_arc(&g, fib2, fib2);
    assert_non_null(fib_fib2);
    assert_non_null(loop);
    assert_int_equal(fib_fib2->calls, 2);
    assert_int_equal(loop->calls, 1970);
    /* main's call of fib includes everything fib and fib'2 do themselves. */
    assert_int_equal(main_fib->inclusive, g.functions[fib].self + g.functions[fib2].self);
    callgrind_free(&g);
}

static void name_compression_across_cfn_jfn_and_fi(void **state) {
    (void)state;
    Callgrind g;
    read_ok("# callgrind format\nversion: 1\npositions: line\nevents: Ir\nsummary: 108\n"
            "ob=(1) /bin/prog\nfl=(1) a.c\nfn=(1) main\ncfn=(2) helper\ncalls=2 10\n5 100\n1 7\n"
            "fn=(2)\nfi=(3) inl.h\n3 50\nfe=(1)\n4 50\n"
            "jfi=(4) other.c\njfn=(5) jumped\njump=1 5\njcnd=3/4 +2\n"
            "fn=(5)\n6 1\ntotals: 108\n",
            &g);
    long main_f = find_function(&g, "main", "/bin/prog");
    long helper = find_function(&g, "helper", "/bin/prog");
    long jumped = find_function(&g, "jumped", "/bin/prog");
    assert_true(main_f >= 0 && helper >= 0 && jumped >= 0);
    assert_int_equal(g.functions[main_f].self, 7);
    assert_int_equal(g.functions[helper].self, 100); /* fi=/fe= did not start a function */
    assert_int_equal(g.functions[jumped].self, 1);
    const CgArc *arc = find_arc(&g, main_f, helper);
    assert_non_null(arc);
    assert_int_equal(arc->calls, 2);
    assert_int_equal(arc->inclusive, 100);
    assert_int_equal(g.totals, 108);
    callgrind_free(&g);
}

static void cob_applies_to_one_call_and_identity_includes_the_object(void **state) {
    (void)state;
    Callgrind g;
    read_ok("events: Ir\nob=(1) /bin/prog\nfn=(1) main\n"
            "cob=(2) /lib/libc.so\ncfn=(2) puts\ncalls=1 0\n0 40\n"
            "cfn=(3) local\ncalls=1 0\n0 5\n0 3\n"
            "ob=(2)\nfn=(2)\n0 40\nfn=(4) (below main)\n0 1\n"
            "ob=(1)\nfn=(3)\n0 5\nfn=(4)\n0 2\ntotals: 51\n",
            &g);
    long main_f = find_function(&g, "main", "/bin/prog");
    long puts_f = find_function(&g, "puts", "/lib/libc.so");
    long local = find_function(&g, "local", "/bin/prog");
    assert_true(main_f >= 0 && puts_f >= 0 && local >= 0);
    assert_non_null(find_arc(&g, main_f, puts_f));
    assert_non_null(find_arc(&g, main_f, local));
    assert_int_equal(find_function(&g, "local", "/lib/libc.so"), -1);
    long below_prog = find_function(&g, "(below main)", "/bin/prog");
    long below_libc = find_function(&g, "(below main)", "/lib/libc.so");
    assert_true(below_prog >= 0 && below_libc >= 0 && below_prog != below_libc);
    assert_int_equal(g.functions[below_prog].self, 2);
    assert_int_equal(g.functions[below_libc].self, 1);
    callgrind_free(&g);
}

PROF_TEST_GROUP(callgrind_tests, "callgrind reader", cmocka_unit_test(reads_every_fixture),
                cmocka_unit_test(fib_profile_has_the_recursion_callgrind_reports),
                cmocka_unit_test(name_compression_across_cfn_jfn_and_fi),
                cmocka_unit_test(cob_applies_to_one_call_and_identity_includes_the_object))
