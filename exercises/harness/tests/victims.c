/* victims.c: small programs that misbehave on purpose, one per mode, for the sandbox's
 * unit tests (test_sandbox.lua). Each mode is the kind of failure student code produces;
 * the test checks that the sandbox names it right and quickly.
 *
 *   victims MODE    with MODE one of the names in the table at the bottom.
 *
 * Built twice: plain, and with -fsanitize=address,undefined (for leak, heap-overflow,
 * int-overflow, which only a sanitizer notices).
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

static int ok(void) {
    printf("hello from stdout\n");
    fprintf(stderr, "hello from stderr\n");
    return 0;
}

static int segfault(void) {
    volatile int *p = NULL;
    sink = *p;
    return 0;
}

static int aborts(void) {
    abort();
}

/* Unbounded recursion that the compiler cannot turn into a loop. */
static int recurse(volatile char *previous) {
    volatile char frame[256];
    frame[0] = previous == NULL ? 0 : previous[0];
    if (sink == -1) { /* never true; keeps the compiler from proving the recursion endless */
        return 0;
    }
    return recurse(frame) + frame[1];
}

static int stack_overflow(void) {
    return recurse(NULL);
}

static int loops_forever(void) {
    while (sink != -1) {
        sink = (sink + 1) & 0xffff;
    }
    return 0;
}

static int sleeps(void) {
    sleep(100);
    return 0;
}

static int exits_3(void) {
    exit(3);
}

static int floods(void) {
    char line[100];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (;;) {
        if (fwrite(line, 1, sizeof line, stdout) != sizeof line) {
            return 1;
        }
    }
}

static int leaks(void) {
    char *p = malloc(4242);
    if (p == NULL) {
        return 1;
    }
    memset(p, 1, 4242);
    sink = p[10];
    p = NULL;
    return 0;
}

static int heap_overflow(void) {
    char *p = malloc(8);
    if (p == NULL) {
        return 1;
    }
    volatile int i = 8;
    p[i] = 1;
    free(p);
    return 0;
}

static int int_overflow(void) {
    volatile int big = 2147483647;
    sink = big + 1;
    return 0;
}

static int eats_memory(void) {
    /* Touch 2 GB, 1 MB at a time: the memory limit must stop it. */
    for (int i = 0; i < 2048; i++) {
        char *p = malloc(1 << 20);
        if (p == NULL) {
            fprintf(stderr, "malloc returned NULL\n");
            return 4;
        }
        memset(p, 1, 1 << 20);
    }
    return 0;
}

/* Exits at once while a grandchild keeps the output pipes open for a long time. */
static int leaves_grandchild(void) {
    if (fork() == 0) {
        sleep(100);
        _exit(0);
    }
    printf("parent done\n");
    return 0;
}

/* Writes 2 MB into a temporary file: the file-size limit must stop it (SIGXFSZ). */
static int writes_big_file(void) {
    FILE *f = tmpfile();
    if (f == NULL) {
        return 5;
    }
    char block[4096];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 512; i++) {
        if (fwrite(block, 1, sizeof block, f) != sizeof block || fflush(f) != 0) {
            fclose(f);
            return 6;
        }
    }
    fclose(f);
    return 0;
}

static int kills_itself(void) {
    raise(SIGTERM);
    return 0;
}

typedef struct {
    const char *name;
    int (*run)(void);
} Mode;

static const Mode modes[] = {
    {"ok", ok},
    {"segfault", segfault},
    {"abort", aborts},
    {"stack-overflow", stack_overflow},
    {"loop", loops_forever},
    {"sleep", sleeps},
    {"exit3", exits_3},
    {"flood", floods},
    {"leak", leaks},
    {"heap-overflow", heap_overflow},
    {"int-overflow", int_overflow},
    {"eat-memory", eats_memory},
    {"grandchild", leaves_grandchild},
    {"sigterm", kills_itself},
    {"big-file", writes_big_file},
};

int main(int argc, char **argv) {
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(argv[1], modes[i].name) == 0) {
            return modes[i].run();
        }
    }
    fprintf(stderr, "usage: victims MODE (see victims.c)\n");
    return 2;
}
