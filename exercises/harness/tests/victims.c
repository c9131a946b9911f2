/* victims.c: small programs that misbehave on purpose, one per mode, for the harness's
 * own tests (harness_spec.lua). Each mode is the kind of failure student code produces; the
 * tests check that the sandbox, and the fork-per-test runner, name it right.
 *
 *   victims MODE                   one mode, as a program (for build/harness/sandbox)
 *   victims --each DIR [OPTIONS] [MODE...]   every mode (or those named) as a test in
 *                                  its own forked child (fork_tests.c; OPTIONS as there:
 *                                  --cpu, --wall, ...)
 *
 * Built twice: plain, and with -fsanitize=address,undefined (for leak, heap-overflow,
 * int-overflow, which only a sanitizer notices).
 */
#define _GNU_SOURCE /* syscall() */

#include <errno.h>
#include <linux/keyctl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fork_tests.h"

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

/* Three megabytes to stdout in one write(): the victim sleeps in a full pipe until the
   sandbox has read it all. */
static int writes_through_a_full_pipe(void) {
    static char bulk[3 << 20];
    memset(bulk, 'x', sizeof bulk);
    return write(STDOUT_FILENO, bulk, sizeof bulk) == (ssize_t)sizeof bulk ? 0 : 5;
}

static int exits_3(void) {
    exit(3);
}

/* exit(0) from inside a test: a fresh process would look like a pass. */
static int exits_0(void) {
    exit(0);
}

/* A test whose own check says no (the driver's usual failure). */
static int fails(void) {
    fprintf(stderr, "FAILED fails\n  the check said no\n");
    return 1;
}

/* Changes a static variable: no other test may see the change. */
static int static_state = 0;

static int writes_static(void) {
    static_state = 42;
    return 0;
}

static int reads_static(void) {
    return static_state == 0 ? 0 : 1;
}

/* Stores a key in its user keyring (it would outlive the box) and looks up its session
   keyring: 0 when the kernel's key store refuses both with EPERM, as it must in a box. */
static int uses_keys(void) {
    long stored = syscall(SYS_add_key, "user", "victim", "x", 1, KEY_SPEC_USER_KEYRING);
    int stored_errno = errno;
    long found = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0);
    bool refused = stored < 0 && stored_errno == EPERM && found < 0 && errno == EPERM;
    printf("add_key %s, keyctl %s\n", stored < 0 ? "refused" : "stored",
           found < 0 ? "refused" : "answered");
    return refused ? 0 : 7;
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

/* What a sealed test may not do (seal.c): each would leave something for the next test. */
static int makes_file(void) {
    FILE *f = fopen("/tmp/drip-victim-file", "w");
    if (f != NULL) {
        fclose(f);
        remove("/tmp/drip-victim-file");
    }
    return 0;
}

static int forks(void) {
    pid_t child = fork();
    if (child == 0) {
        _exit(0);
    }
    return child < 0 ? 7 : 0;
}

static int makes_shm(void) {
    return syscall(SYS_shmget, 0 /* IPC_PRIVATE */, 4096, 01000 /* IPC_CREAT */ | 0600) < 0 ? 8 : 0;
}

static int signals_parent(void) {
    return kill(getppid(), SIGCONT) != 0 ? 9 : 0;
}

static void *thread_body(void *arg) {
    return arg;
}

/* A thread ends with its process: a sealed test may start one. */
static int starts_thread(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, thread_body, NULL) != 0) {
        return 10;
    }
    return pthread_join(thread, NULL) == 0 ? 0 : 11;
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
    {"full-pipe", writes_through_a_full_pipe},
    {"exit3", exits_3},
    {"flood", floods},
    {"leak", leaks},
    {"heap-overflow", heap_overflow},
    {"int-overflow", int_overflow},
    {"eat-memory", eats_memory},
    {"grandchild", leaves_grandchild},
    {"sigterm", kills_itself},
    {"big-file", writes_big_file},
    {"exit0", exits_0},
    {"fails", fails},
    {"writes-static", writes_static},
    {"reads-static", reads_static},
    {"keys", uses_keys},
    {"makes-file", makes_file},
    {"forks", forks},
    {"makes-shm", makes_shm},
    {"signals-parent", signals_parent},
    {"thread", starts_thread},
};
#define NMODES (sizeof modes / sizeof modes[0])

/* The mode called name, or NULL. */
static const Mode *find_mode(const char *name) {
    for (size_t i = 0; i < NMODES; i++) {
        if (strcmp(name, modes[i].name) == 0) {
            return &modes[i];
        }
    }
    return NULL;
}

/* Test i of the list of mode names in context. */
static int run_mode(size_t i, void *context) {
    return find_mode(((const char **)context)[i])->run();
}

static const char *each_dir;

/* --sealed: a test's files go as it ends (the capture folder must be empty for the next). */
static void remove_files(size_t i, const struct rusage *usage, void *context) {
    (void)usage;
    const char *suffixes[] = {"stdout", "stderr", "results"};
    for (size_t k = 0; k < 3; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s", each_dir, ((const char **)context)[i], suffixes[k]);
        remove(path);
    }
}

static int run_each(int argc, char **argv) {
    ForkOptions options = fork_tests_defaults();
    const char *names[NMODES];
    size_t count = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-' && find_mode(argv[i]) != NULL && count < NMODES) {
            names[count++] = argv[i];
        } else if (!fork_tests_option(argc, argv, &i, &options)) {
            fprintf(stderr, "victims: unknown option or mode '%s'\n", argv[i]);
            return 2;
        }
    }
    if (count == 0) {
        for (size_t i = 0; i < NMODES; i++) {
            names[count++] = modes[i].name;
        }
    }
    each_dir = options.dir;
    if (options.sealed) {
        options.ended = remove_files;
    }
    return fork_tests_run(&options, names, count, run_mode, (void *)names);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--each") == 0) {
        return run_each(argc, argv);
    }
    const Mode *mode = argc == 2 ? find_mode(argv[1]) : NULL;
    if (mode != NULL) {
        return mode->run();
    }
    fprintf(stderr, "usage: victims MODE | victims --each DIR [OPTIONS] (see victims.c)\n");
    return 2;
}
