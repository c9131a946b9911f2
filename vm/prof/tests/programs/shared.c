/* shared.c: a shared non-leaf callee (mix is called by fill and by check
 * and calls step), so folding the call graph must split mix's callees. */
static volatile unsigned sink;

static unsigned step(unsigned x) {
    return x * 2654435761u + 1;
}

static unsigned mix(unsigned x, int rounds) {
    for (int i = 0; i < rounds; i++) {
        x = step(x) ^ (x >> 7);
    }
    return x;
}

static void fill(void) {
    for (unsigned i = 0; i < 30; i++) {
        sink = mix(i, 3);
    }
}

static void check(void) {
    for (unsigned i = 0; i < 10; i++) {
        sink = mix(i, 5);
    }
}

int main(void) {
    fill();
    check();
    return 0;
}
