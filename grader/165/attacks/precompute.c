/* precompute: do inclusive()'s work in a constructor, before main(), and return the stored
   answer when the checker calls it (this once earned 15/15 for speed at "0.00x"). The work is
   done by the mutants' slow (quadratic) inclusive; counting the whole process, the speed check
   must see exactly that slowness. */
static Cost *attack_costs;
static size_t attack_ncosts;
static int attack_rc = -2;

int slow_inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts);

/* Reads "stack count" lines the way the folded reader does (enough for the speed input). */
__attribute__((constructor)) static void attack_precompute(void) {
    if (strcmp(attack_mode(), "inclusive") != 0 || attack_argc < 3) {
        return;
    }
    FILE *f = fopen(attack_argv[2], "r");
    if (f == NULL) {
        return;
    }
    Folded *stacks = NULL;
    size_t count = 0, capacity = 0, cap = 0;
    char *line = NULL;
    while (getline(&line, &cap, f) > 0) {
        char *space = strrchr(line, ' ');
        if (space == NULL) {
            continue;
        }
        *space = '\0';
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 1024;
            stacks = realloc(stacks, capacity * sizeof *stacks);
        }
        stacks[count].stack = strdup(line);
        stacks[count].count = strtoull(space + 1, NULL, 10);
        count++;
    }
    fclose(f);
    free(line);
    attack_rc = slow_inclusive(stacks, count, &attack_costs, &attack_ncosts);
    for (size_t i = 0; i < count; i++) {
        free((char *)stacks[i].stack);
    }
    free(stacks);
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
