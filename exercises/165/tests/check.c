/* check.c: chapter 165's checker. It calls parse_row, sum_named and inclusive (profile.h) on
 * the inputs of a case and writes what they answered (exercises/harness/checker.h); the same
 * program, built from the student's profile.c or the reference's, serves `make exercise-165`,
 * `dripprof top --with`, and in the instructor's workbook the grader and the reference's answers.
 *
 * Every input the code under test gets is in memory of exactly its size (a Row array of
 * `count` rows, each name and stack its own allocation), so reading one element or one byte
 * too far is a sanitizer report at the student's line, and every input is compared with a
 * copy after the call, since the contract makes them const.
 *
 * Fields and answers (the answer text is what the harness compares):
 *
 *   parse_row.ID   line (one per call; the exact bytes, line end included),
 *                  out-of-memory (then each line again with every allocation failing)
 *       row:I              1 ir=N pct=P name="NAME" | 0 | -1 | returned-K, and the notes
 *                          "but-name-is-not-NULL" (after 0 or -1), pct none-but-pct-is-P
 *       out-of-memory:I    the same, for the call with allocations failing
 *   sum_named.ID   row (IR NAME), null-row (IR: a row whose name is NULL), needle (one per
 *                  call), control (N: each needle first over the first N rows alone)
 *       sum:NEEDLE         0 sum=N | -1 | returned-K;   control:sum:NEEDLE the same
 *   inclusive.ID   stack (STACK COUNT, the count after the last blank), null-stack (COUNT),
 *                  generate (many_functions N | deep_stack N | random_stacks N DISTINCT
 *                  SEED: stacks made here, see generate), order (ranks are answers
 *                  too), control (N), out-of-memory, call (no: everything but the call;
 *                  the speed check's baseline)
 *       count              0 n=N | -1 | returned-K;   costs NULL (an array NULL with N > 0)
 *       cost:NAME          cost=C, or rank=R cost=C with order (a generated case answers for
 *                          its first and last GENERATED_SHOWN entries only)
 *       out-of-memory      ok | what went wrong with allocation number K failing
 *   changed:WHAT           (checker.h) the input WHAT was written into
 */
#define _POSIX_C_SOURCE 200809L

#include "checker.h"
#include "profile.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a Row holds before parse_row is called: values no row has, so a field the code
   under test forgot to set shows as such. */
#define JUNK_IR 12345
#define JUNK_PCT 12345.0

/* How many entries of a generated case's answer are written, at each end. */
#define GENERATED_SHOWN 10

/* The most allocations the out-of-memory check makes fail in turn. */
#define MOST_FAILURES 100000

/* The inputs are arrays of structs that each hold one string (a Row's name, a Folded's
   stack, a Cost's name); these work on any of them, given the struct's size and the string's
   offset in it. */

/* A copy of the first n elements in an array of exactly n, each string copied too. */
static void *exact_copy(const void *array, size_t n, size_t size, size_t at) {
    char *copy = check_malloc(n * size);
    if (n > 0) {
        memcpy(copy, array, n * size);
    }
    for (char *element = copy; element < copy + n * size; element += size) {
        char **text = (char **)(element + at);
        *text = *text == NULL ? NULL : check_strdup(*text);
    }
    return copy;
}

/* Answers changed:WHAT N for each string the code under test wrote into (checker.h). */
static void answer_changed(const char *what, const void *before, const void *after, size_t n,
                           size_t size, size_t at) {
    for (size_t i = 0; i < n; i++) {
        const char *was = *(char *const *)((const char *)before + i * size + at);
        const char *now = *(char *const *)((const char *)after + i * size + at);
        if (was != NULL && now != NULL && strcmp(was, now) != 0) {
            char *label = check_format("%s %zu", what, i + 1);
            check_unchanged(label, was, now);
            free(label);
        }
    }
}

/* Frees the n elements' strings, then the array. */
static void free_array(void *array, size_t n, size_t size, size_t at) {
    for (char *element = array; n > 0; n--, element += size) {
        free(*(char **)(element + at));
    }
    free(array);
}

#define ROW_NAME sizeof(Row), offsetof(Row, name)
#define STACK_TEXT sizeof(Folded), offsetof(Folded, stack)
#define COST_NAME sizeof(Cost), offsetof(Cost, name)

/* ------------------------------------------------------------------ parse_row */

/* What parse_row answered, in words the harness compares; malloc'd. */
static char *row_answer(int rc, const Row *row) {
    if (rc == 0 || rc == -1) {
        return check_format("%d%s", rc, row->name == NULL ? "" : " but-name-is-not-NULL");
    }
    if (rc != 1) {
        return check_format("returned-%d", rc);
    }
    char pct[64];
    if (row->has_pct) {
        snprintf(pct, sizeof pct, "%.3f", row->pct);
    } else if (row->pct == -1.0) {
        snprintf(pct, sizeof pct, "none");
    } else {
        snprintf(pct, sizeof pct, "none-but-pct-is-%.3f", row->pct);
    }
    if (row->name == NULL) {
        return check_format("1 ir=%llu pct=%s name=NULL", (unsigned long long)row->ir, pct);
    }
    return check_format("1 ir=%llu pct=%s name=\"%s\"", (unsigned long long)row->ir, pct,
                        row->name);
}

/* One call; a name the caller owns is freed, the junk put there before is not. */
static void call_parse_row(const char *key, char *line, const char *what, bool failing) {
    static char junk[] = "junk";
    Row row = {JUNK_IR, true, JUNK_PCT, failing ? junk : NULL};
    char *before = check_strdup(line);
    if (failing) {
        check_fail_allocations(1);
    }
    int rc = parse_row(line, &row);
    long asked = check_allocations();
    check_fail_allocations(0);
    char *answer = row_answer(rc, &row);
    check_answerf(key, "%s%s", answer, failing && asked == 0 ? " (it allocated nothing)" : "");
    free(answer);
    check_unchanged(what, before, line);
    if (row.name != junk) {
        free(row.name);
    }
    free(before);
}

static void run_parse_row(const CheckCase *c) {
    bool out_of_memory = check_field(c, "out-of-memory") != NULL;
    size_t lines = 0;
    for (size_t i = 0; i < c->nfields; i++) {
        lines += strcmp(c->fields[i].key, "line") == 0;
    }
    size_t n = 0;
    for (size_t i = 0; i < c->nfields; i++) {
        if (strcmp(c->fields[i].key, "line") != 0) {
            continue;
        }
        n++;
        char *line = check_strdup(c->fields[i].value);
        char *key = check_format("row:%zu", n);
        char *what = lines == 1 ? check_strdup("line") : check_format("line %zu", n);
        call_parse_row(key, line, what, false);
        if (out_of_memory) {
            char *failing = check_format("out-of-memory:%zu", n);
            call_parse_row(failing, line, what, true);
            free(failing);
        }
        free(what);
        free(key);
        free(line);
    }
}

/* ------------------------------------------------------------------ sum_named */

typedef struct {
    Row *rows;
    size_t count, capacity;
} Rows;

static void add_row(Rows *list, uint64_t ir, char *name) {
    list->rows = check_grow(list->rows, list->count, &list->capacity, sizeof(Row));
    list->rows[list->count++] = (Row){ir, false, -1.0, name};
}

static void call_sum_named(const char *prefix, const Rows *list, size_t n, const char *needle) {
    Row *rows = exact_copy(list->rows, n, ROW_NAME);
    char *needle_copy = check_strdup(needle);
    uint64_t sum = 424242; /* junk, so a function that sets nothing shows */
    int rc = sum_named(rows, n, needle_copy, &sum);
    char *key = check_format("%ssum:%s", prefix, needle);
    if (rc == 0) {
        check_answerf(key, "0 sum=%llu", (unsigned long long)sum);
    } else if (rc == -1) {
        check_answer(key, "-1");
    } else {
        check_answerf(key, "returned-%d", rc);
    }
    check_unchanged("needle", needle, needle_copy);
    answer_changed("name of row", list->rows, rows, n, ROW_NAME);
    free(key);
    free(needle_copy);
    free_array(rows, n, ROW_NAME);
}

/* The field's value as a count of inputs, at most most; otherwise the run stops. */
static size_t first_inputs(const CheckCase *c, const char *key, size_t most) {
    const CheckField *f = check_find(c, key);
    uint64_t n = 0;
    if (f != NULL && (!check_u64(f->value, &n) || n > most)) {
        check_bad_field(f, "expected a number, at most the inputs the case has");
    }
    return (size_t)n;
}

static void run_sum_named(const CheckCase *c) {
    Rows list = {NULL, 0, 0};
    for (size_t i = 0; i < c->nfields; i++) {
        const CheckField *f = &c->fields[i];
        uint64_t ir;
        if (strcmp(f->key, "row") == 0) {
            char *name = check_number_and_text(f, &ir);
            add_row(&list, ir, name);
        } else if (strcmp(f->key, "null-row") == 0) {
            if (!check_u64(f->value, &ir)) {
                check_bad_field(f, "expected a number (IR)");
            }
            add_row(&list, ir, NULL);
        }
    }
    bool control = check_find(c, "control") != NULL;
    size_t first = first_inputs(c, "control", list.count);
    for (size_t i = 0; i < c->nfields; i++) {
        if (strcmp(c->fields[i].key, "needle") == 0) {
            if (control) {
                call_sum_named("control:", &list, first, c->fields[i].value);
            }
            call_sum_named("", &list, list.count, c->fields[i].value);
        }
    }
    free_array(list.rows, list.count, ROW_NAME);
}

/* ------------------------------------------------------------------ inclusive */

typedef struct {
    Folded *stacks;
    size_t count, capacity;
} Stacks;

static void add_stack(Stacks *list, char *stack, uint64_t count) {
    list->stacks = check_grow(list->stacks, list->count, &list->capacity, sizeof(Folded));
    list->stacks[list->count++] = (Folded){stack, count};
}

/* splitmix64: a small, well-mixed generator, so a seed gives the same stacks everywhere. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A number from lo to hi, both included. */
static size_t between(uint64_t *state, size_t lo, size_t hi) {
    return lo + (size_t)(next_random(state) % (hi - lo + 1));
}

/* "random_stacks N DISTINCT SEED": N stacks over DISTINCT names, root-first like a real
   profile ("main" first), 3 to 24 frames deep, a frame after the third repeating the one
   above it one time in seven (recursion), counts from 1 to 1,000,000: the speed check's input,
   made here rather than read, so that measuring it costs little. */
static void generate_random(Stacks *list, size_t n, size_t distinct, uint64_t seed) {
    static const char *const syllables[] = {"ka",  "lo", "mi", "re", "su",  "ta",  "vo", "ne", "pi",
                                            "dra", "xu", "zo", "qe", "fib", "run", "op", "get"};
    enum { SYLLABLES = sizeof syllables / sizeof syllables[0], DEEPEST = 24 };
    char **names = check_malloc(distinct * sizeof(char *));
    for (size_t i = 0; i < distinct; i++) {
        char name[64] = "";
        for (size_t k = between(&seed, 2, 5); k > 0; k--) {
            strcat(name, syllables[between(&seed, 0, SYLLABLES - 1)]);
        }
        names[i] = check_format("%s_%zu", name, i);
    }
    size_t *lengths = check_malloc(distinct * sizeof(size_t));
    for (size_t i = 0; i < distinct; i++) {
        lengths[i] = strlen(names[i]);
    }
    for (size_t i = 0; i < n; i++) {
        size_t frames[DEEPEST]; /* frames[0] is "main", the others index names */
        size_t depth = between(&seed, 3, DEEPEST), length = 4;
        for (size_t k = 1; k < depth; k++) {
            frames[k] = k > 2 && between(&seed, 1, 7) == 1 ? frames[k - 1]
                                                           : between(&seed, 0, distinct - 1);
            length += 1 + lengths[frames[k]];
        }
        char *stack = check_malloc(length + 1), *end = stack + 4;
        memcpy(stack, "main", 4);
        for (size_t k = 1; k < depth; k++) {
            *end++ = ';';
            memcpy(end, names[frames[k]], lengths[frames[k]]);
            end += lengths[frames[k]];
        }
        *end = '\0';
        add_stack(list, stack, between(&seed, 1, 1000000));
    }
    free(lengths);
    for (size_t i = 0; i < distinct; i++) {
        free(names[i]);
    }
    free(names);
}

/* "many_functions N": stack i is "main;caller_i;callee_i" with count i + 1 (2N + 1
   functions); "deep_stack N": one stack of N frames, "main;f;f;...;f", count 7;
   "random_stacks N DISTINCT SEED" (generate_random). */
static void generate(Stacks *list, const CheckField *f) {
    size_t n = 0, distinct = 0;
    unsigned long long seed = 0;
    if (sscanf(f->value, "random_stacks %zu %zu %llu", &n, &distinct, &seed) == 3 && distinct > 0) {
        generate_random(list, n, distinct, seed);
    } else if (sscanf(f->value, "many_functions %zu", &n) == 1) {
        for (size_t i = 0; i < n; i++) {
            char stack[80];
            snprintf(stack, sizeof stack, "main;caller_%zu;callee_%zu", i, i);
            add_stack(list, check_strdup(stack), i + 1);
        }
    } else if (sscanf(f->value, "deep_stack %zu", &n) == 1 && n > 0) {
        char *stack = check_malloc(4 + 2 * n);
        strcpy(stack, "main");
        for (size_t i = 1; i < n; i++) {
            memcpy(stack + 4 + 2 * (i - 1), ";f", 3);
        }
        add_stack(list, stack, 7);
    } else {
        check_bad_field(f,
                        "expected many_functions N, deep_stack N or random_stacks N DISTINCT SEED");
    }
}

static Stacks read_stacks(const CheckCase *c) {
    Stacks list = {NULL, 0, 0};
    for (size_t i = 0; i < c->nfields; i++) {
        const CheckField *f = &c->fields[i];
        uint64_t count;
        if (strcmp(f->key, "stack") == 0) {
            char *stack = check_text_and_number(f, &count);
            add_stack(&list, stack, count);
        } else if (strcmp(f->key, "null-stack") == 0) {
            if (!check_u64(f->value, &count)) {
                check_bad_field(f, "expected a number (COUNT)");
            }
            add_stack(&list, NULL, count);
        } else if (strcmp(f->key, "generate") == 0) {
            generate(&list, f);
        }
    }
    return list;
}

typedef struct {
    const char *prefix; /* "" or "control:" */
    bool ranks;         /* the order is part of the answer */
    bool generated;     /* answer for the first and last entries only */
} Answering;

static void answer_costs(const Answering *how, int rc, const Cost *costs, size_t n) {
    char *key = check_format("%scount", how->prefix);
    if (rc != 0) {
        check_answerf(key, rc == -1 ? "-1" : "returned-%d", rc);
    } else {
        check_answerf(key, "0 n=%zu", n);
    }
    free(key);
    if (rc != 0) {
        return;
    }
    if (costs == NULL && n > 0) {
        key = check_format("%scosts", how->prefix);
        check_answer(key, "NULL");
        free(key);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (how->generated && i >= GENERATED_SHOWN && i + GENERATED_SHOWN < n) {
            continue;
        }
        key = costs[i].name == NULL ? check_format("%scost:(NULL name %zu)", how->prefix, i + 1)
                                    : check_format("%scost:%s", how->prefix, costs[i].name);
        if (how->ranks) {
            check_answerf(key, "rank=%zu cost=%llu", i + 1, (unsigned long long)costs[i].cost);
        } else {
            check_answerf(key, "cost=%llu", (unsigned long long)costs[i].cost);
        }
        free(key);
    }
}

/* One call over the first n stacks; answers, then says whether the stacks are unchanged.
   Without the call (the speed check's baseline) everything else is done all the same, so
   that the difference of the two counts is the call's own. */
static void call_inclusive(const Answering *how, const Stacks *list, size_t n, bool call) {
    Folded *stacks = exact_copy(list->stacks, n, STACK_TEXT);
    Cost *costs = NULL;
    size_t ncosts = 4242; /* junk, so a function that sets nothing shows */
    int rc = call ? inclusive(stacks, n, &costs, &ncosts) : -1;
    if (call) {
        answer_costs(how, rc, costs, ncosts);
    }
    answer_changed("text of stack", list->stacks, stacks, n, STACK_TEXT);
    if (rc == 0 && costs != NULL) {
        free_array(costs, ncosts, COST_NAME);
    }
    free_array(stacks, n, STACK_TEXT);
}

/* True when a and b hold the same (name, cost) pairs in the same order. */
static bool same_costs(const Cost *a, size_t na, const Cost *b, size_t nb) {
    if (na != nb || (na > 0 && (a == NULL || b == NULL))) {
        return false;
    }
    for (size_t i = 0; i < na; i++) {
        if (a[i].name == NULL || b[i].name == NULL || strcmp(a[i].name, b[i].name) != 0 ||
            a[i].cost != b[i].cost) {
            return false;
        }
    }
    return true;
}

/* The stacks again with allocation number k failing, for k = 1, 2, ... until a call no
   longer gets that far: each must return -1 (a leak on that path shows at exit, from
   LeakSanitizer) or cope and give what the call with memory to spare gave. */
static void answer_out_of_memory(const Stacks *list) {
    Folded *stacks = exact_copy(list->stacks, list->count, STACK_TEXT);
    Cost *right = NULL;
    size_t nright = 0;
    int right_rc = inclusive(stacks, list->count, &right, &nright);
    const char *problem = NULL;
    long k = 1;
    for (; right_rc == 0 && problem == NULL && k <= MOST_FAILURES; k++) {
        Cost *costs = NULL;
        size_t ncosts = 0;
        check_fail_allocations(k);
        int rc = inclusive(stacks, list->count, &costs, &ncosts);
        long asked = check_allocations();
        check_fail_allocations(0);
        if (rc == -1 && asked < k) {
            problem = "returns -1, though no allocation failed";
        } else if (rc == 0 && !same_costs(costs, ncosts, right, nright)) {
            problem = "returns 0 (success) with another result than with memory to spare";
        } else if (rc != 0 && rc != -1) {
            problem = "returns a value inclusive may not return";
        }
        if (rc == 0 && costs != NULL) {
            free_array(costs, ncosts, COST_NAME);
        }
        if (problem == NULL && asked < k) {
            break; /* no allocation failed: every failure point was tried */
        }
    }
    if (right_rc != 0) {
        check_answer("out-of-memory", "not tried: the call with memory to spare failed");
    } else if (problem != NULL) {
        check_answerf("out-of-memory", "with allocation %ld (%s) failing, it %s", k,
                      check_failed_allocation(), problem);
    } else {
        check_answer("out-of-memory", "ok");
    }
    if (right_rc == 0 && right != NULL) {
        free_array(right, nright, COST_NAME);
    }
    free_array(stacks, list->count, STACK_TEXT);
}

static void run_inclusive(const CheckCase *c) {
    Stacks list = read_stacks(c);
    bool control = check_find(c, "control") != NULL;
    size_t first = first_inputs(c, "control", list.count);
    const char *call = check_field(c, "call");
    bool calling = call == NULL || strcmp(call, "no") != 0;
    Answering how = {"", check_field(c, "order") != NULL, check_field(c, "generate") != NULL};
    if (control) {
        Answering controlled = {"control:", how.ranks, false};
        call_inclusive(&controlled, &list, first, calling);
    }
    call_inclusive(&how, &list, list.count, calling);
    if (calling && check_field(c, "out-of-memory") != NULL) {
        answer_out_of_memory(&list);
    }
    free_array(list.stacks, list.count, STACK_TEXT);
}

int main(int argc, char **argv) {
    static const CheckFunction functions[] = {
        {"parse_row", run_parse_row}, {"sum_named", run_sum_named}, {"inclusive", run_inclusive}};
    return check_main(argc, argv, functions, sizeof functions / sizeof functions[0]);
}
