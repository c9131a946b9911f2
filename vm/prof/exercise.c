/* exercise.c: dripprof's calls into the exercise functions (see exercise.h).
 *
 * Readiness is decided by asking, not by guessing: a stub returns -1, but so
 * may a half-written function, and a function that returns 0 may still give
 * nonsense. So exercise_ready() runs the function on one tiny input whose
 * answer the handout fixes (a plain row; one stack of two frames) and
 * accepts it only when the answer is right. That costs microseconds and
 * means the tables are never built from a function that cannot answer the
 * simplest case; harder cases are the exercise's tests' job, not dripprof's.
 *
 * The guard is a handful of signal handlers and a CPU-time timer installed
 * around each call and removed after it. The handlers run on their own stack
 * (endless recursion overflows the normal one), only write() a message
 * prepared before the call, and _exit(): nothing else is safe after a crash.
 * A CPU-time limit rather than a wall-clock one, so a busy machine cannot
 * make a correct function look hung.
 *
 * The weak definitions at the end stand in when no implementation is linked.
 * The linker prefers any ordinary definition, so linking profile.c is all it
 * takes to replace them; without it dripprof still links and says what is
 * missing. (Compilers never inline a weak function, so the calls here reach
 * whichever definition was linked.)
 */
#define _XOPEN_SOURCE 700
#include "exercise.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

/* Set by prof.mk from PROFILE_IMPL: the name shown to the user, and the absolute
   path used to tell whether the file changed since this binary was built. */
#ifndef PROFILE_IMPL_FILE
#define PROFILE_IMPL_FILE "exercises/165/profile.c"
#endif
#ifndef PROFILE_IMPL_PATH
#define PROFILE_IMPL_PATH PROFILE_IMPL_FILE
#endif

const char *exercise_source(void) {
    return PROFILE_IMPL_FILE;
}

/* ------------------------------------------------------------------ the guard */

static const int guarded_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGVTALRM};
enum { GUARDED_COUNT = sizeof guarded_signals / sizeof guarded_signals[0] };

typedef struct {
    struct sigaction old_actions[GUARDED_COUNT];
    struct itimerval old_timer;
} Guard;

static char crash_prefix[512]; /* "dripprof: inclusive() from exercises/165/profile.c " */
static char timeout_text[128];
static const char crash_hint[] =
    "  make exercise-165 runs each test alone and shows where it goes wrong.\n";

static void write_text(const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t written = write(STDERR_FILENO, text, left);
        if (written <= 0) {
            return;
        }
        text += written;
        left -= (size_t)written;
    }
}

static const char *what_happened(int signal_number) {
    switch (signal_number) {
    case SIGSEGV: return "crashed (SIGSEGV: a bad pointer, or endless recursion)\n";
    case SIGBUS: return "crashed (SIGBUS: a bad pointer)\n";
    case SIGFPE: return "crashed (SIGFPE: a division by zero)\n";
    case SIGILL: return "crashed (SIGILL)\n";
    case SIGABRT: return "stopped with abort() (a failed assert, or a bad free)\n";
    default: return timeout_text;
    }
}

static void on_guarded_signal(int signal_number) {
    write_text(crash_prefix);
    write_text(what_happened(signal_number));
    write_text(crash_hint);
    _exit(EXERCISE_NOT_READY);
}

static long cpu_seconds(void) {
    const char *text = getenv("DRIPPROF_CPU_SECONDS");
    long seconds = text != NULL ? strtol(text, NULL, 10) : 0;
    return seconds > 0 ? seconds : EXERCISE_CPU_SECONDS;
}

static void guard_begin(Guard *guard, const char *function) {
    static char alternate_stack[1 << 16];
    static bool have_alternate_stack = false;
    if (!have_alternate_stack) {
        stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack};
        have_alternate_stack = sigaltstack(&stack, NULL) == 0;
    }
    long seconds = cpu_seconds();
    snprintf(crash_prefix, sizeof crash_prefix, "dripprof: %s() from %s ", function,
             exercise_source());
    snprintf(timeout_text, sizeof timeout_text,
             "ran for %ld s of CPU time without returning (an endless loop?)\n", seconds);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_guarded_signal;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < GUARDED_COUNT; i++) {
        sigaction(guarded_signals[i], &action, &guard->old_actions[i]);
    }
    struct itimerval timer = {.it_value = {.tv_sec = seconds}};
    setitimer(ITIMER_VIRTUAL, &timer, &guard->old_timer);
}

static void guard_end(Guard *guard) {
    setitimer(ITIMER_VIRTUAL, &guard->old_timer, NULL);
    for (int i = 0; i < GUARDED_COUNT; i++) {
        sigaction(guarded_signals[i], &guard->old_actions[i], NULL);
    }
}

/* ------------------------------------------------------------------ the calls */

static char why_buffer[256];

int exercise_parse_row(const char *line, Row *row, const char **why) {
    Guard guard;
    guard_begin(&guard, "parse_row");
    int status = parse_row(line, row);
    guard_end(&guard);
    *why = NULL;
    if (status == 1 && row->name == NULL) {
        *why = "parse_row() returned 1 (a row) but gave no name";
    } else if (status == -1) {
        *why = "parse_row() returned -1 (out of memory, or not written yet)";
    } else if (status != 0 && status != 1) {
        snprintf(why_buffer, sizeof why_buffer, "parse_row() returned %d, not 1, 0 or -1", status);
        *why = why_buffer;
    }
    return *why == NULL ? status : -1;
}

/* A result outside the contract, or NULL. Runs under the guard: a wild pointer
   among the names crashes here and is reported as the function's crash. */
static const char *check_costs(const Cost *costs, size_t ncosts) {
    if (ncosts > 0 && costs == NULL) {
        return "inclusive() returned 0 with a count of functions but no array";
    }
    for (size_t i = 0; i < ncosts; i++) {
        if (costs[i].name == NULL) {
            return "inclusive() returned a function without a name (NULL)";
        }
        (void)strlen(costs[i].name);
    }
    return NULL;
}

int exercise_inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts,
                       const char **why) {
    *costs = NULL;
    *ncosts = 0;
    Guard guard;
    guard_begin(&guard, "inclusive");
    int status = inclusive(stacks, count, costs, ncosts);
    *why = status == 0    ? check_costs(*costs, *ncosts)
           : status == -1 ? "inclusive() returned -1 (out of memory, a cost above 64 bits, or "
                            "not written yet)"
                          : "inclusive() returned neither 0 nor -1";
    guard_end(&guard);
    if (*why != NULL) {
        *costs = NULL; /* whatever it handed out cannot be trusted, not even to free */
        *ncosts = 0;
        return -1;
    }
    return 0;
}

void exercise_free_costs(Cost *costs, size_t count) {
    while (costs != NULL && count > 0) {
        free(costs[--count].name);
    }
    free(costs);
}

/* ------------------------------------------------------------------ readiness */

/* Set by the stand-ins at the end: no implementation of that function was linked. */
static bool stand_in_called = false;
#define NO_DEFINITION                                                                          \
    "%s() is not there: the file does not compile (make exercise-165 shows why), or does not "  \
    "define it"

/* The probe inputs: the simplest case of each contract (profile.h). */
#define PROBE_ROW "1,042 (50.00%)  probe.c:probe"
static const char probe_line[] = PROBE_ROW "\n";
static const Folded probe_stack = {"main;f", 3};

static bool parse_row_answers(char *why, size_t size) {
    Row row = {0};
    const char *error;
    stand_in_called = false;
    int status = exercise_parse_row(probe_line, &row, &error);
    bool right = status == 1 && row.ir == 1042 && strcmp(row.name, "probe.c:probe") == 0;
    if (stand_in_called) {
        snprintf(why, size, NO_DEFINITION, "parse_row");
    } else if (status == -1 && strstr(error, "returned -1") != NULL) {
        snprintf(why, size, "parse_row() returns -1 on the row \"%s\", like the shipped stub",
                 PROBE_ROW);
    } else if (status == -1) {
        snprintf(why, size, "on the row \"%s\", %s", PROBE_ROW, error);
    } else if (status == 0) {
        snprintf(why, size, "parse_row() says \"%s\" is not a row", PROBE_ROW);
    } else if (!right) {
        snprintf(why, size,
                 "parse_row() reads ir %llu and name \"%.60s\" from the row \"%s\", not 1042 "
                 "and \"probe.c:probe\"",
                 (unsigned long long)row.ir, row.name, PROBE_ROW);
    }
    if (status == 1) {
        free(row.name);
    }
    return right;
}

static bool inclusive_answers(char *why, size_t size) {
    Cost *costs;
    size_t n;
    const char *error;
    stand_in_called = false;
    if (exercise_inclusive(&probe_stack, 1, &costs, &n, &error) != 0) {
        if (stand_in_called) {
            snprintf(why, size, NO_DEFINITION, "inclusive");
        } else if (strstr(error, "returned -1") != NULL) {
            snprintf(why, size, "inclusive() returns -1 on the one stack \"main;f 3\", like the "
                                "shipped stub");
        } else {
            snprintf(why, size, "on the one stack \"main;f 3\", %s", error);
        }
        return false;
    }
    bool right = n == 2 && costs[0].cost == 3 && costs[1].cost == 3 &&
                 ((strcmp(costs[0].name, "main") == 0 && strcmp(costs[1].name, "f") == 0) ||
                  (strcmp(costs[0].name, "f") == 0 && strcmp(costs[1].name, "main") == 0));
    if (!right) {
        snprintf(why, size,
                 "inclusive() gives %zu function(s) for the one stack \"main;f 3\" (the first: "
                 "\"%.40s\" %llu), not main 3 and f 3",
                 n, n > 0 ? costs[0].name : "", n > 0 ? (unsigned long long)costs[0].cost : 0ULL);
    }
    exercise_free_costs(costs, n);
    return right;
}

/* A note when the source changed after this binary was linked: the student fixed
   their code, but build/dripprof still runs the old one until `make`. */
static void note_if_stale(void) {
    struct stat source, binary;
    if (stat(PROFILE_IMPL_PATH, &source) == 0 && stat("/proc/self/exe", &binary) == 0 &&
        source.st_mtime > binary.st_mtime) {
        fprintf(stderr,
                "dripprof: note: %s changed after this dripprof was built: run make to rebuild "
                "it with your latest code\n",
                exercise_source());
    }
}

bool exercise_ready(const char *command, const char *function) {
    note_if_stale();
    char why[384];
    bool ready = strcmp(function, "inclusive") == 0 ? inclusive_answers(why, sizeof why)
                                                    : parse_row_answers(why, sizeof why);
    if (!ready) {
        fprintf(stderr, "dripprof %s needs %s() from %s: run make exercise-165\n  (%s)\n",
                command, function, exercise_source(), why);
    }
    return ready;
}

/* ------------------------------------------------------------------ stand-ins */

/* Used only when no implementation is linked: they answer like the shipped stubs. */
__attribute__((weak)) int parse_row(const char *line, Row *row) {
    (void)line;
    (void)row;
    stand_in_called = true;
    return -1;
}

__attribute__((weak)) int inclusive(const Folded *stacks, size_t count, Cost **costs,
                                    size_t *ncosts) {
    (void)stacks;
    (void)count;
    (void)costs;
    (void)ncosts;
    stand_in_called = true;
    return -1;
}
