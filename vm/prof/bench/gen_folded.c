/* gen_folded.c: writes N folded-stack lines for the flame graph benchmark.
 *
 * The stacks come from a made-up program: a depth-first walk over a random
 * call tree (a fixed LCG seed, so every run writes the same bytes) whose
 * nodes are named from a pool of 600 C- and VM-like function names. Each
 * visited node prints one line, so the output comes in tree order, like a
 * sorted folded file, with depths up to 48 (about 10 on average) and shared prefixes everywhere:
 * the shape a real profile has, at any size.
 *
 *   gen_folded 1000000 > million.folded
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { NAMES = 600, MAX_DEPTH = 48 };

static uint64_t seed = 0x2545F4914F6CDD1Du;

static uint32_t next_random(void) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(seed >> 33);
}

static const char *const stems[] = {"Vm::run", "call_value", "call",    "table_get", "op_add",
                                    "push",    "pop",        "compile", "scan",      "mark",
                                    "sweep",   "alloc",      "hash",    "concat",    "print",
                                    "fib",     "zoo_ant",    "closure", "upvalue",   "native"};

static char names[NAMES][32];
static unsigned path[MAX_DEPTH];
static long remaining;

static void print_line(int depth) {
    for (int i = 0; i < depth; i++) {
        if (i > 0) {
            putchar(';');
        }
        fputs(names[path[i]], stdout);
    }
    printf(" %u\n", 1 + next_random() % 5000);
    remaining--;
}

/* Visits a node at depth: prints its line, then a few children. */
static void visit(int depth) {
    print_line(depth);
    if (depth == MAX_DEPTH) {
        return;
    }
    unsigned children = next_random() % (depth < 4 ? 6 : depth < 12 ? 3 : 2);
    for (unsigned c = 0; c < children && remaining > 0; c++) {
        path[depth] = (path[depth - 1] * 7 + 1 + next_random() % 37) % NAMES;
        visit(depth + 1);
    }
}

int main(int argc, char **argv) {
    remaining = argc > 1 ? atol(argv[1]) : 1000000;
    for (int i = 0; i < NAMES; i++) {
        snprintf(names[i], sizeof names[i], "%s_%d", stems[i % 20], i / 20);
    }
    static char buffer[1 << 20];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    while (remaining > 0) {
        path[0] = next_random() % 4;
        visit(1);
    }
    return 0;
}
