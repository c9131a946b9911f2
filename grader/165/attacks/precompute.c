/* precompute: do inclusive()'s work in a constructor, before main(), and return the stored
   answer when the checker calls it (this once earned 15/15 for speed at "0.00x"). The work is
   done by the QUADRATIC mutant's slow inclusive; counting the whole process, the speed check
   must see exactly that slowness. The precomputed stacks are never freed: a leak on the speed
   input once earned half the speed points, whatever the count. */
static Cost *attack_costs;
static size_t attack_ncosts;
static int attack_rc = -2;

int slow_inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts);

/* The speed input as the checker makes it (exercises/165/tests/check.c, random_stacks, copied
   here as a student could copy it from the edition): the same seed, the same stacks. */
static uint64_t attack_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static size_t attack_between(uint64_t *state, size_t lo, size_t hi) {
    return lo + (size_t)(attack_next(state) % (hi - lo + 1));
}

static Folded *attack_generate(size_t n, size_t distinct, uint64_t seed) {
    static const char *const syllables[] = {"ka", "lo", "mi", "re", "su", "ta", "vo", "ne", "pi",
                                            "dra", "xu", "zo", "qe", "fib", "run", "op", "get"};
    char **names = malloc(distinct * sizeof(char *));
    for (size_t i = 0; i < distinct; i++) {
        char name[64] = "";
        for (size_t k = attack_between(&seed, 2, 5); k > 0; k--) {
            strcat(name, syllables[attack_between(&seed, 0, 16)]);
        }
        asprintf(&names[i], "%s_%zu", name, i);
    }
    Folded *stacks = calloc(n, sizeof(Folded));
    for (size_t i = 0; i < n; i++) {
        size_t frames[24], depth = attack_between(&seed, 3, 24);
        char stack[4096] = "main";
        for (size_t k = 1; k < depth; k++) {
            frames[k] = k > 2 && attack_between(&seed, 1, 7) == 1 ? frames[k - 1]
                                                                  : attack_between(&seed, 0, distinct - 1);
            strcat(stack, ";");
            strcat(stack, names[frames[k]]);
        }
        stacks[i].stack = strdup(stack);
        stacks[i].count = attack_between(&seed, 1, 1000000);
    }
    return stacks;
}

/* In the speed check's process, before main: reads the seed from the cases file. */
__attribute__((constructor)) static void attack_precompute(void) {
    FILE *f = strcmp(attack_mode(), "inclusive") == 0 ? fopen(attack_option("--cases"), "r") : NULL;
    if (f == NULL) {
        return;
    }
    char *line = NULL;
    size_t cap = 0, n = 0, distinct = 0;
    unsigned long long seed = 0;
    while (getline(&line, &cap, f) > 0) {
        char *found = strstr(line, "\tgenerate\trandom_stacks ");
        if (found != NULL) {
            sscanf(found, "\tgenerate\trandom_stacks %zu %zu %llu", &n, &distinct, &seed);
        }
    }
    fclose(f);
    free(line);
    if (n == 0) {
        return;
    }
    Folded *stacks = attack_generate(n, distinct, seed);
    attack_rc = slow_inclusive(stacks, n, &attack_costs, &attack_ncosts);
    fprintf(stderr, "attack: precomputed %zu stacks\n", n);
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    if (attack_rc == -2) {
        return slow_inclusive(stacks, count, costs, ncosts);
    }
    *costs = attack_costs;
    *ncosts = attack_ncosts;
    attack_rc = -2;
    return 0;
}

#define inclusive slow_inclusive
/* @BASE@ */
