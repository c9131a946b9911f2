/* fork_tests.c: one forked child per test, with its own limits (see fork_tests.h).
 *
 * Why fork: a test of the exercises takes microseconds, but a fresh AddressSanitizer
 * process takes tens of milliseconds to start (shadow memory, interceptors, reading the
 * data files), and on a busy machine far more. So the driver starts once and forks a
 * child per test. The child is a copy of the initialised process: the sanitizers are on,
 * the data is read, and anything the test does (a crash, an abort, a stack overflow, an
 * exit(), static variables, leaks) dies with the child, as with a fresh process.
 *
 * Limits, per child:
 * - CPU time, RLIMIT_CPU: SIGXCPU at the limit, SIGKILL one second later. CPU seconds,
 *   not wall-clock seconds, so a busy machine cannot turn a pass into a timeout.
 * - A wall-clock backstop (generous) for a child that sleeps or blocks without using CPU.
 * - Resident memory, read from /proc/PID/statm while the child runs. RLIMIT_AS is no use
 *   under AddressSanitizer (it reserves terabytes of address space), and ASan's own
 *   hard_rss_limit_mb is checked by a thread that fork() does not copy into the child.
 * - Output: stdout and stderr go to two files (DIR/NAME.stdout, DIR/NAME.stderr), each
 *   capped at --output. RLIMIT_FSIZE enforces it, so a child that writes more gets SIGXFSZ;
 *   unless the test may write a larger file of its own (a checker's answers, DIR/NAME.results:
 *   --results-limit), when RLIMIT_FSIZE is that file's limit and the parent finds a capture
 *   file over --output by its size, and cuts it back to --output. The answers so have the
 *   room the grader gives them (its sandbox's results channel), not the output's.
 * - Its own process group, so a kill also ends anything it started; stdin is /dev/null.
 *
 * The parent waits in poll() on a pipe that its SIGCHLD handler writes to, waking every
 * few milliseconds to check the wall clock and the memory of the running children.
 *
 * A child that finishes its test marks it done in a shared page made for it (one page for
 * every test would let a sealed case mark those after it), which tells a finished test from
 * code under test that called exit() itself. Then it calls exit(), which runs
 * LeakSanitizer's check as at the end of a fresh process. That check costs a few milliseconds
 * (it scans megabytes of the sanitizer runtimes' globals), more than most tests, so a child
 * whose test freed every byte it allocated (the sanitizer allocator's count of bytes in use is
 * back where it was) skips it with _exit(): nothing can leak.
 *
 * When a child has ended, its status line goes out (status.h's words, as the sandbox writes
 * them, in the same order of precedence: a sanitizer's error report in its stderr file, our
 * kill for memory or time, a leak report, the signal, the exit status):
 *
 *   INDEX<TAB>NAME<TAB>STATUS
 *
 * --sealed is for the grader, which runs a submission's cases in one box and takes a case's
 * result from there only when it is what a box of its own would give: the cases run one at a
 * time, and no case may leave anything for the next. Each child closes every descriptor but
 * its three streams and runs under seal.h's filter (no process, file or kernel object that
 * outlives it, no other process touched); the parent is not dumpable, so a child cannot reach
 * it through /proc or ptrace, and its answers file is made by the parent (the filter refuses
 * O_CREAT). After each case (and the `ended` callback, which takes the case's files away) the
 * capture folder must be empty: if it is not, no further case runs, and those are not
 * reported.
 */
#define _GNU_SOURCE /* dl_iterate_phdr, prctl */

#include "fork_tests.h"
#include "seal.h"
#include "status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* How often the parent looks at the running children when none ends (milliseconds). */
#define POLICE_INTERVAL_MS 5

/* What a child writes into its done page when its test returns: 0 means it never did. */
enum { DONE = 1 };

/* ------------------------------------------------------------------ options */

/* The largest value each option takes: past it, a typo rather than a wish (an hour of CPU
   for one test, 64 children at once). */
#define MAX_WALL_SECONDS 86400.0
enum {
    MAX_CPU_SECONDS = 3600,
    MAX_MEMORY_MB = 1 << 20,
    MAX_OUTPUT_BYTES = 1 << 30, /* --output and --results-limit */
    MAX_JOBS = 64,
    MAX_STATUS_FD = 1 << 20,
};

ForkOptions fork_tests_defaults(void) {
    return (ForkOptions){.jobs = 1, .status_fd = STDOUT_FILENO};
}

static _Noreturn void bad_value(const char *option, const char *value) {
    fprintf(stderr, "fork_tests: %s needs a positive number, got '%s'\n", option, value);
    exit(2);
}

static double positive(const char *option, const char *value, double max) {
    char *end;
    errno = 0;
    double number = strtod(value, &end);
    if (errno != 0 || end == value || *end != '\0' || !(number > 0) || number > max) {
        bad_value(option, value);
    }
    return number;
}

static unsigned whole(const char *option, const char *value, double max) {
    double number = positive(option, value, max);
    if (number != (double)(unsigned)number) {
        bad_value(option, value);
    }
    return (unsigned)number;
}

bool fork_tests_option(int argc, char **argv, int *i, ForkOptions *options) {
    /* Where each option goes, its type (s text, d seconds, u unsigned, l long long, i int), and
       its largest value. */
    static const struct {
        const char *name;
        size_t offset;
        char type;
        double max;
    } known[] = {
        {"--each", offsetof(ForkOptions, dir), 's', 0},
        {"--cpu", offsetof(ForkOptions, cpu_seconds), 'u', MAX_CPU_SECONDS},
        {"--wall", offsetof(ForkOptions, wall_seconds), 'd', MAX_WALL_SECONDS},
        {"--memory", offsetof(ForkOptions, memory_mb), 'l', MAX_MEMORY_MB},
        {"--output", offsetof(ForkOptions, output_bytes), 'l', MAX_OUTPUT_BYTES},
        {"--results-limit", offsetof(ForkOptions, results_bytes), 'l', MAX_OUTPUT_BYTES},
        {"--jobs", offsetof(ForkOptions, jobs), 'u', MAX_JOBS},
        {"--only", offsetof(ForkOptions, only), 's', 0},
        {"--status-fd", offsetof(ForkOptions, status_fd), 'i', MAX_STATUS_FD},
    };
    enum { KNOWN = sizeof known / sizeof known[0] };
    const char *option = argv[*i];
    if (strcmp(option, "--sealed") == 0) {
        options->sealed = true;
        return true;
    }
    size_t k = 0;
    while (k < KNOWN && strcmp(option, known[k].name) != 0) {
        k++;
    }
    if (k == KNOWN) {
        return false;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "fork_tests: %s needs a value\n", option);
        exit(2);
    }
    const char *value = argv[++*i];
    void *field = (char *)options + known[k].offset;
    switch (known[k].type) {
    case 's': *(const char **)field = value; break;
    case 'd': *(double *)field = positive(option, value, known[k].max); break;
    case 'l': *(long long *)field = whole(option, value, known[k].max); break;
    case 'i': *(int *)field = (int)whole(option, value, known[k].max); break;
    default: *(unsigned *)field = whole(option, value, known[k].max); break;
    }
    return true;
}

/* ------------------------------------------------------------------ the child */

static int wake_pipe[2] = {-1, -1}; /* written on SIGCHLD, read by poll() (status.h) */
static sigset_t parent_mask;        /* the signal mask to give back to each child */
static pid_t parent_pid;

long long fork_tests_file_limit(const ForkOptions *o) {
    return o->results_bytes > o->output_bytes ? o->results_bytes : o->output_bytes;
}

/* DIR/NAME.SUFFIX, a test's capture file, into path (PATH_SIZE bytes). */
enum { PATH_SIZE = 4096 };

static const char *capture_path(char *path, const ForkOptions *o, const char *name,
                                const char *suffix) {
    snprintf(path, PATH_SIZE, "%s/%s.%s", o->dir, name, suffix);
    return path;
}

/* Opens DIR/NAME.SUFFIX for writing, truncated; -1 (and a message) when it cannot. */
static int open_capture(const ForkOptions *o, const char *name, const char *suffix) {
    char path[PATH_SIZE];
    int fd =
        open(capture_path(path, o, name, suffix), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "fork_tests: cannot write %s: %s\n", path, strerror(errno));
    }
    return fd;
}

/* Weak: the symbol is missing in a build without AddressSanitizer. */
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

size_t fork_tests_heap_in_use(void) {
    return __sanitizer_get_current_allocated_bytes ? __sanitizer_get_current_allocated_bytes() : 0;
}

/* LeakSanitizer reads stacks conservatively, the exit check's own frames included. Those
   frames fall where the case's dead frames were, and a word a frame of them did not write can
   still hold an address that malloc returned to the case: the lost block then looks reachable,
   and whether a leak is reported would depend on where frames happen to fall. So the stack
   below the caller is zeroed first. Not instrumented: a fake stack (use-after-return
   detection) would put the array on the heap. */
__attribute__((noinline, no_sanitize_address)) static void clear_dead_stack(void) {
    volatile uintptr_t words[8192]; /* 64 KB: deeper than a case's frames and the check's */
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        words[i] = 0;
    }
}

void fork_tests_exit_if_clean(int code, size_t before) {
    if (before == 0) {
        return;
    }
    if (fork_tests_heap_in_use() == before) {
        fflush(NULL);
        _exit(code);
    }
    clear_dead_stack();
}

/* Puts open file fd in the place of target (stdout, stderr) and closes fd. */
static void move_fd(int fd, int target) {
    if (fd != target) {
        dup2(fd, target);
        close(fd);
    }
}

/* In the child: its own group, streams to the capture files, the limits; never returns. */
static _Noreturn void run_child(const ForkOptions *o, int out_fd, int err_fd, ForkTest run,
                                void *context, size_t i, volatile char *done) {
    setpgid(0, 0);
    /* Its own group is out of reach of whoever kills ours: so it dies with its parent. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent_pid) {
        _exit(1); /* the parent died before prctl */
    }
    status_stdin_null();
    move_fd(out_fd, STDOUT_FILENO);
    move_fd(err_fd, STDERR_FILENO);
    /* Unbuffered: a printf just before a crash still reaches the file, and stdio
       allocates no buffer (which the leak shortcut below would count as in use). */
    setvbuf(stdout, NULL, _IONBF, 0);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    if (o->status_fd > STDERR_FILENO) {
        close(o->status_fd); /* a child that outlived us would keep the reader waiting */
    }
    signal(SIGCHLD, SIG_DFL);
    sigprocmask(SIG_SETMASK, &parent_mask, NULL);
    status_limit(RLIMIT_CORE, 0, 0);
    status_limit(RLIMIT_CPU, o->cpu_seconds, o->cpu_seconds + 1);
    status_limit(RLIMIT_FSIZE, (rlim_t)fork_tests_file_limit(o), (rlim_t)fork_tests_file_limit(o));
    if (o->sealed) {
        if (close_range(STDERR_FILENO + 1, ~0u, 0) != 0) { /* a kernel before 5.9 */
            for (long fd = STDERR_FILENO + 1; fd < sysconf(_SC_OPEN_MAX); fd++) {
                close((int)fd);
            }
        }
        prctl(PR_SET_DUMPABLE, 1); /* as a process of its own would be */
        seal_case();
    }

    size_t before = fork_tests_heap_in_use();
    int code = run(i, context) == 0 ? 0 : 1;
    *done = DONE;
    fork_tests_exit_if_clean(code, before);
    exit(code);
}

/* ------------------------------------------------------------------ the parent */

/* The sanitizers' symbolizer, when the program has it (weak, as above). */
extern void __sanitizer_symbolize_pc(void *pc, const char *format, char *out, size_t size)
    __attribute__((weak));

/* Symbolizes one address in the code of each loaded module (the program, the sanitizer
   runtimes, libc, ...). */
static int warm_up_module(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size;
    (void)unused;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type == PT_LOAD && (segment->p_flags & PF_X) && segment->p_memsz > 0) {
            char line[512];
            void *code = (void *)(info->dlpi_addr + segment->p_vaddr + segment->p_memsz / 2);
            __sanitizer_symbolize_pc(code, "%F %L", line, sizeof line);
            break;
        }
    }
    return 0;
}

/* A sanitizer report names the function, file and line of every frame; the symbolizer
   that does it reads each module's debug information the first time it is needed, which
   takes far longer than a test (tens of milliseconds), and a child's reading dies with
   it. Done once here, every later child inherits what was read. It is done after the
   first test that did not end cleanly (the sign of a report), so a run without reports
   does not pay for it. */
static void warm_up_symbolizer(void *test_code) {
    if (__sanitizer_symbolize_pc != NULL) {
        char line[512];
        __sanitizer_symbolize_pc(test_code, "%F %L", line, sizeof line);
        dl_iterate_phdr(warm_up_module, NULL);
    }
}

typedef struct {
    pid_t pid;           /* 0: a free slot */
    size_t test;         /* index into names */
    double started;      /* CLOCK_MONOTONIC seconds */
    char killed[96];     /* why we killed it, as a status; "" when we did not */
    volatile char *done; /* shared with the child: DONE once its test returned, else 0 */
} Slot;

typedef struct {
    const ForkOptions *o;
    const char *const *names;
    ForkTest run;
    void *context;
    Slot *slots;
    unsigned running;
    bool warm;    /* the symbolizer has read the debug information (see warm_up_symbolizer) */
    bool stopped; /* --sealed: a case left something behind, so no further case runs */
} Runner;

/* Forks the child for test i into slot; false when it could not. */
static bool start(Runner *r, Slot *slot, size_t i) {
    const char *name = r->names[i];
    int out_fd = open_capture(r->o, name, "stdout");
    int err_fd = open_capture(r->o, name, "stderr");
    /* A sealed child cannot make its answers file (DIR/NAME.results), so the parent makes it
       empty; without --sealed the test makes its own. */
    bool results = !r->o->sealed || close(open_capture(r->o, name, "results")) == 0;
    void *done = mmap(NULL, 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (out_fd < 0 || err_fd < 0 || !results || done == MAP_FAILED) {
        close(out_fd);
        close(err_fd);
        if (done != MAP_FAILED) {
            munmap(done, 1);
        }
        return false;
    }
    fflush(NULL); /* or the child's exit() would write our buffered output again */
    pid_t pid = fork();
    if (pid == 0) {
        run_child(r->o, out_fd, err_fd, r->run, r->context, i, done);
    }
    close(out_fd);
    close(err_fd);
    if (pid < 0) {
        fprintf(stderr, "fork_tests: fork: %s\n", strerror(errno));
        munmap(done, 1);
        return false;
    }
    slot->done = done;
    setpgid(pid, pid); /* on both sides of fork, so neither can race the other */
    slot->pid = pid;
    slot->test = i;
    slot->started = status_clock();
    slot->killed[0] = '\0';
    r->running++;
    return true;
}

/* The start of the test's stderr file ("" when it cannot be read), where a sanitizer's
   report is. */
static const char *stderr_start(const Runner *r, const Slot *slot) {
    static char text[1 << 16];
    char path[PATH_SIZE];
    FILE *f = fopen(capture_path(path, r->o, r->names[slot->test], "stderr"), "r");
    size_t n = f == NULL ? 0 : fread(text, 1, sizeof text - 1, f);
    if (f != NULL) {
        fclose(f);
    }
    text[n] = '\0';
    return text;
}

/* The size of the larger capture file of an ended child; a capture file over --output (only
   RLIMIT_FSIZE above --output lets one grow so) is cut back to --output, what a test keeps. */
static long long captured_bytes(const Runner *r, const Slot *slot) {
    long long most = 0;
    const char *suffixes[] = {"stdout", "stderr"};
    for (int k = 0; k < 2; k++) {
        char path[PATH_SIZE];
        struct stat st;
        if (stat(capture_path(path, r->o, r->names[slot->test], suffixes[k]), &st) == 0) {
            most = st.st_size > most ? st.st_size : most;
            if (st.st_size > r->o->output_bytes && truncate(path, r->o->output_bytes) != 0) {
                fprintf(stderr, "fork_tests: cannot cut %s back: %s\n", path, strerror(errno));
            }
        }
    }
    return most;
}

/* The status of an ended child (see the top of the file). */
static void child_status(const Runner *r, const Slot *slot, int wait_status,
                         const struct rusage *usage, char *out, size_t size) {
    int signo = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
    const char *err = stderr_start(r, slot); /* before captured_bytes cuts the file back */
    /* The child's peak resident memory: a child that grew past the limit between two of the
       parent's looks (a busy machine makes them rare) is still over it, whatever ended it. */
    bool over_memory = usage->ru_maxrss / 1024 > r->o->memory_mb;
    /* Past --output in a capture file is the output limit; SIGXFSZ with both capture files
       below it came from the test's own file, its answers. */
    long long captured = captured_bytes(r, slot);
    bool over_output = captured > r->o->output_bytes ||
                       (signo == SIGXFSZ && (fork_tests_file_limit(r->o) == r->o->output_bytes ||
                                             captured >= r->o->output_bytes));
    char limit[sizeof slot->killed] = "";
    if (slot->killed[0] != '\0') {
        snprintf(limit, sizeof limit, "%s", slot->killed);
    } else if (over_memory) {
        status_memory(limit, sizeof limit, r->o->memory_mb, "");
    } else if (over_output) {
        status_output(limit, sizeof limit, r->o->output_bytes, "");
    } else if (signo == SIGXFSZ) {
        status_output(limit, sizeof limit, r->o->results_bytes, " of results");
    } else if (signo == SIGXCPU ||
               (signo == SIGKILL && status_rusage_seconds(usage) >= r->o->cpu_seconds)) {
        status_cpu(limit, sizeof limit, r->o->cpu_seconds);
    }
    status_verdict(out, size, err, limit, signo, WEXITSTATUS(wait_status), *slot->done == DONE);
}

/* Whether folder holds nothing (false when it cannot be read). */
static bool folder_empty(const char *folder) {
    DIR *d = opendir(folder);
    if (d == NULL) {
        return false;
    }
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)) != NULL) {
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    }
    closedir(d);
    return empty;
}

/* A child ended: its status line goes out. */
static void finish(Runner *r, Slot *slot, int wait_status, const struct rusage *usage) {
    kill(-slot->pid, SIGKILL); /* anything the child left running in its group */
    r->running--;
    char status[320];
    child_status(r, slot, wait_status, usage, status, sizeof status);
    if (strcmp(status, "ok") != 0 && !r->warm) {
        warm_up_symbolizer((void *)(uintptr_t)r->run); /* more reports may follow */
        r->warm = true;
    }
    dprintf(r->o->status_fd, "%zu\t%s\t%s\n", slot->test, r->names[slot->test], status);
    munmap((void *)slot->done, 1);
    slot->pid = 0;
    if (r->o->ended != NULL) {
        r->o->ended(slot->test, usage, r->context);
    }
    if (r->o->sealed && !folder_empty(r->o->dir)) {
        fprintf(stderr, "fork_tests: %s left files in %s: the cases after it are not run\n",
                r->names[slot->test], r->o->dir);
        r->stopped = true;
    }
}

/* Resident memory of a process in MB, from /proc; 0 when it cannot be read. */
static long long resident_mb(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    long long size = 0, resident = 0;
    if (f != NULL) {
        if (fscanf(f, "%lld %lld", &size, &resident) != 2) {
            resident = 0;
        }
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

/* Kills the children over their wall-clock or memory limit. */
static void police(Runner *r) {
    double now = status_clock();
    for (unsigned j = 0; j < r->o->jobs; j++) {
        Slot *slot = &r->slots[j];
        if (slot->pid == 0 || slot->killed[0] != '\0') {
            continue;
        }
        if (now - slot->started > r->o->wall_seconds) {
            status_wall(slot->killed, sizeof slot->killed, r->o->wall_seconds, -1.0);
        } else if (resident_mb(slot->pid) > r->o->memory_mb) {
            status_memory(slot->killed, sizeof slot->killed, r->o->memory_mb, "");
        } else {
            continue;
        }
        kill(-slot->pid, SIGKILL);
    }
}

/* Reaps every child that has ended. */
static void reap(Runner *r) {
    int wait_status;
    struct rusage usage;
    pid_t pid;
    while ((pid = wait4(-1, &wait_status, WNOHANG, &usage)) > 0) {
        for (unsigned j = 0; j < r->o->jobs; j++) {
            if (r->slots[j].pid == pid) {
                finish(r, &r->slots[j], wait_status, &usage);
                break;
            }
        }
    }
}

int fork_tests_run(const ForkOptions *o, const char *const *names, size_t count, ForkTest run,
                   void *context) {
    struct stat st;
    if (o->dir == NULL || stat(o->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "fork_tests: --each needs an existing folder, got '%s'\n",
                o->dir == NULL ? "(none)" : o->dir);
        return 2;
    }
    if (o->cpu_seconds == 0 || o->wall_seconds <= 0 || o->memory_mb <= 0 || o->output_bytes <= 0) {
        fprintf(stderr, "fork_tests: --each needs --cpu, --wall, --memory and --output\n");
        return 2;
    }
    if (o->sealed && (o->jobs != 1 || prctl(PR_SET_DUMPABLE, 0) != 0)) {
        fprintf(stderr, "fork_tests: --sealed runs one test at a time (--jobs 1)\n");
        return 2;
    }
    if (!status_wake_on_sigchld(wake_pipe)) {
        fprintf(stderr, "fork_tests: pipe: %s\n", strerror(errno));
        return 2;
    }
    sigprocmask(SIG_SETMASK, NULL, &parent_mask);
    parent_pid = getpid();
    Slot *slots = calloc(o->jobs, sizeof(Slot));
    if (slots == NULL) {
        fprintf(stderr, "fork_tests: out of memory\n");
        exit(2);
    }
    Runner r = {o, names, run, context, slots, 0, false, false};
    size_t next = 0;
    for (;;) {
        for (unsigned j = 0; j < o->jobs && next < count && !r.stopped; j++) {
            while (slots[j].pid == 0 && next < count && !r.stopped) {
                size_t i = next++;
                if (o->only != NULL && strncmp(names[i], o->only, strlen(o->only)) != 0) {
                    continue;
                }
                if (!start(&r, &slots[j], i)) {
                    dprintf(o->status_fd, "%zu\t%s\terror: could not start the test\n", i,
                            names[i]);
                }
            }
        }
        if (r.running == 0 && (next >= count || r.stopped)) {
            break;
        }
        /* Sleeps until a child ends or POLICE_INTERVAL_MS pass. */
        struct pollfd p = {wake_pipe[0], POLLIN, 0};
        if (poll(&p, 1, POLICE_INTERVAL_MS) > 0) {
            status_wake_drain(wake_pipe[0]);
        }
        reap(&r);
        police(&r);
    }
    free(slots);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    signal(SIGCHLD, SIG_DFL);
    return 0;
}
