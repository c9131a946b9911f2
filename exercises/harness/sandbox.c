/* sandbox.c: run one program with limits and say, in one line, how it ended.
 *
 *   sandbox [--timeout SEC] [--memory MB] [--output BYTES] [--file-size BYTES] [--procs N]
 *           [--stdout FILE] [--stderr FILE] -- PROGRAM [ARGS...]
 *
 * Every test of the workbook (`make exercise-165`, `make grade`) runs under this, one test
 * per process, so a crash, an abort, a stack overflow or an endless loop costs only that
 * test. The design in short:
 *
 * - The child gets its own process group (setpgid on both sides of fork, so neither side
 *   can race the other), stdin from /dev/null, no core files, and rlimits: CPU time
 *   (timeout + 1 s, a backstop), address space (--memory), file size, process count.
 * - AddressSanitizer reserves terabytes of shadow memory, so an ASan binary cannot live
 *   under RLIMIT_AS. The sandbox looks for "__asan_init" in the program file; when it is
 *   there, memory is capped through ASAN_OPTIONS=hard_rss_limit_mb instead.
 *   allocator_may_return_null=1 makes a huge malloc return NULL (code under test should
 *   cope) and UBSan is told to stop at its first report.
 * - The parent reads both pipes with poll(), keeping at most --output bytes in total; one
 *   byte more and the whole group is killed. SIGCHLD wakes poll() through a self-pipe, so
 *   a child that exits while a grandchild still holds the pipes is noticed at once.
 * - The wall-clock deadline is enforced by the parent with SIGKILL to the group.
 * - The verdict comes from, in order: our own kill (timeout, output limit), the first
 *   sanitizer report in the captured stderr, the signal that ended the child, its exit
 *   code. The captured streams are written to --stdout/--stderr files (else dropped).
 *
 * Exit status: 0 when PROGRAM exited 0 and nothing was reported, 1 otherwise, 2 when the
 * sandbox itself was used wrongly or could not start.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ options */

typedef struct {
    double timeout; /* seconds of wall-clock time */
    long long memory_mb;
    long long output_bytes; /* stdout + stderr kept; one more byte kills the child */
    long long file_size;
    long long procs;
    const char *stdout_file;
    const char *stderr_file;
    char **program; /* argv of the program, NULL-terminated */
} Options;

static void usage(const char *problem) {
    fprintf(stderr,
            "sandbox: %s\n"
            "usage: sandbox [--timeout SEC] [--memory MB] [--output BYTES] [--file-size BYTES]\n"
            "               [--procs N] [--stdout FILE] [--stderr FILE] -- PROGRAM [ARGS...]\n",
            problem);
    exit(2);
}

static long long parse_positive(const char *option, const char *text) {
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value <= 0) {
        fprintf(stderr, "sandbox: %s needs a positive whole number, got '%s'\n", option, text);
        exit(2);
    }
    return value;
}

static double parse_seconds(const char *text) {
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(value > 0) || value > 1e6) {
        fprintf(stderr, "sandbox: --timeout needs seconds > 0 (e.g. 2 or 0.5), got '%s'\n", text);
        exit(2);
    }
    return value;
}

static Options parse_options(int argc, char **argv) {
    Options o = {2.0, 512, 65536, 1048576, 64, NULL, NULL, NULL};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *option = argv[i];
        if (i + 1 >= argc) {
            usage("missing value or '--'");
        }
        const char *value = argv[++i];
        if (strcmp(option, "--timeout") == 0) {
            o.timeout = parse_seconds(value);
        } else if (strcmp(option, "--memory") == 0) {
            o.memory_mb = parse_positive(option, value);
        } else if (strcmp(option, "--output") == 0) {
            o.output_bytes = parse_positive(option, value);
        } else if (strcmp(option, "--file-size") == 0) {
            o.file_size = parse_positive(option, value);
        } else if (strcmp(option, "--procs") == 0) {
            o.procs = parse_positive(option, value);
        } else if (strcmp(option, "--stdout") == 0) {
            o.stdout_file = value;
        } else if (strcmp(option, "--stderr") == 0) {
            o.stderr_file = value;
        } else {
            fprintf(stderr, "sandbox: unknown option '%s'\n", option);
            usage("see the usage line");
        }
    }
    if (i >= argc || i + 1 >= argc) {
        usage("no program given after '--'");
    }
    o.program = &argv[i + 1];
    return o;
}

/* ------------------------------------------------------------------ growing buffer */

typedef struct {
    char *data;
    size_t length;
    size_t capacity;
} Buffer;

static void buffer_append(Buffer *b, const char *bytes, size_t n) {
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = b->capacity == 0 ? 4096 : b->capacity;
        while (b->length + n + 1 > capacity) {
            capacity *= 2;
        }
        char *data = realloc(b->data, capacity);
        if (data == NULL) {
            fprintf(stderr, "sandbox: out of memory\n");
            exit(2);
        }
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
    b->data[b->length] = '\0';
}

/* ------------------------------------------------------------------ the child */

/* The program as execvp would find it, for the ASan check; NULL if not found. */
static char *resolve_program(const char *name) {
    if (strchr(name, '/') != NULL) {
        return strdup(name);
    }
    const char *path = getenv("PATH");
    if (path == NULL) {
        return NULL;
    }
    size_t name_length = strlen(name);
    while (*path != '\0') {
        size_t dir_length = strcspn(path, ":");
        char *candidate = malloc(dir_length + name_length + 2);
        if (candidate == NULL) {
            return NULL;
        }
        memcpy(candidate, path, dir_length);
        candidate[dir_length] = '/';
        memcpy(candidate + dir_length + 1, name, name_length + 1);
        if (access(candidate, X_OK) == 0) {
            return candidate;
        }
        free(candidate);
        path += dir_length;
        if (*path == ':') {
            path++;
        }
    }
    return NULL;
}

/* True when the file contains "__asan_init" (the ASan runtime's entry symbol). */
static bool links_asan(const char *program) {
    char *path = resolve_program(program);
    FILE *f = path == NULL ? NULL : fopen(path, "rb");
    free(path);
    if (f == NULL) {
        return false;
    }
    static const char needle[] = "__asan_init";
    const size_t n = sizeof needle - 1;
    char chunk[65536 + sizeof needle];
    size_t kept = 0; /* bytes carried over from the previous chunk */
    bool found = false;
    size_t got;
    while (!found && (got = fread(chunk + kept, 1, sizeof chunk - kept, f)) > 0) {
        size_t total = kept + got;
        for (size_t i = 0; i + n <= total && !found; i++) {
            found = chunk[i] == '_' && memcmp(chunk + i, needle, n) == 0;
        }
        kept = total < n - 1 ? total : n - 1;
        memmove(chunk, chunk + total - kept, kept);
    }
    fclose(f);
    return found;
}

/* Sets NAME=ours:theirs:forced, so the caller's own settings win over our defaults but
   not over the limits this sandbox promises. */
static void set_sanitizer_options(const char *name, const char *defaults, const char *forced) {
    const char *theirs = getenv(name);
    size_t length = strlen(defaults) + (theirs ? strlen(theirs) : 0) + strlen(forced) + 3;
    char *value = malloc(length);
    if (value == NULL) {
        return;
    }
    snprintf(value, length, "%s:%s:%s", defaults, theirs ? theirs : "", forced);
    setenv(name, value, 1);
    free(value);
}

static void limit(int resource, rlim_t value) {
    struct rlimit r = {value, value};
    setrlimit(resource, &r);
}

/* Runs in the forked child: never returns. */
static void run_child(const Options *o, int out_fd, int err_fd) {
    setpgid(0, 0);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) {
        dup2(null_fd, STDIN_FILENO);
        close(null_fd);
    }
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    close(out_fd);
    close(err_fd);

    char forced[64];
    snprintf(forced, sizeof forced, "hard_rss_limit_mb=%lld", o->memory_mb);
    set_sanitizer_options("ASAN_OPTIONS", "allocator_may_return_null=1", forced);
    set_sanitizer_options("UBSAN_OPTIONS", "print_stacktrace=1", "halt_on_error=1");

    limit(RLIMIT_CORE, 0);
    limit(RLIMIT_CPU, (rlim_t)ceil(o->timeout) + 1);
    limit(RLIMIT_FSIZE, (rlim_t)o->file_size);
    limit(RLIMIT_NPROC, (rlim_t)o->procs);
    if (!links_asan(o->program[0])) {
        limit(RLIMIT_AS, (rlim_t)o->memory_mb * 1024 * 1024);
    }
    signal(SIGPIPE, SIG_DFL);

    execvp(o->program[0], o->program);
    fprintf(stderr, "sandbox: cannot run %s: %s\n", o->program[0], strerror(errno));
    _exit(127);
}

/* ------------------------------------------------------------------ the parent */

static int sigchld_pipe[2] = {-1, -1};

static void on_sigchld(int signo) {
    (void)signo;
    int saved = errno;
    ssize_t ignored = write(sigchld_pipe[1], "x", 1);
    (void)ignored;
    errno = saved;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void make_pipe(int fds[2]) {
    if (pipe(fds) != 0) {
        fprintf(stderr, "sandbox: pipe: %s\n", strerror(errno));
        exit(2);
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
}

typedef struct {
    int status;          /* from waitpid */
    bool timed_out;      /* we killed it at the deadline */
    bool output_limited; /* we killed it for writing too much */
    Buffer out, err;
} Outcome;

typedef enum { READ_DATA, READ_LATER, READ_END } ReadResult;

/* Reads what is available on fd into buffer, keeping at most *room more bytes. */
static ReadResult drain(int fd, Buffer *buffer, long long *room, bool *over) {
    char chunk[8192];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
        return READ_LATER;
    }
    if (n <= 0) {
        return READ_END;
    }
    size_t keep = (long long)n <= *room ? (size_t)n : (size_t)*room;
    buffer_append(buffer, chunk, keep);
    *room -= (long long)keep;
    if (keep < (size_t)n) {
        *over = true;
    }
    return READ_DATA;
}

/* Supervises the child until it ends (or we end it). */
static void supervise(pid_t child, const Options *o, int out_fd, int err_fd, Outcome *r) {
    double deadline = now_seconds() + o->timeout;
    long long room = o->output_bytes;
    int fds[3] = {out_fd, err_fd, sigchld_pipe[0]};
    Buffer *buffers[2] = {&r->out, &r->err};
    bool exited = false;
    for (;;) {
        if (waitpid(child, &r->status, WNOHANG) == child) {
            exited = true;
            break;
        }
        double left = deadline - now_seconds();
        if (left <= 0) {
            r->timed_out = true;
            break;
        }
        struct pollfd p[3];
        for (int i = 0; i < 3; i++) {
            p[i].fd = fds[i];
            p[i].events = POLLIN;
            p[i].revents = 0;
        }
        int ready = poll(p, 3, (int)ceil(left * 1000));
        if (ready < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i] >= 0 && (p[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (drain(fds[i], buffers[i], &room, &r->output_limited) == READ_END) {
                    fds[i] = -1; /* EOF: poll ignores negative fds */
                }
            }
        }
        if (p[2].revents & POLLIN) {
            char sink[64];
            ssize_t ignored = read(sigchld_pipe[0], sink, sizeof sink);
            (void)ignored;
        }
        if (r->output_limited) {
            break;
        }
    }
    kill(-child, SIGKILL); /* the child if still running, and anything it left behind */
    if (!exited) {
        waitpid(child, &r->status, 0);
    }
    /* Whatever was written before the end is still in the pipes: keep it. */
    for (int i = 0; i < 2 && !r->output_limited; i++) {
        if (fds[i] >= 0) {
            fcntl(fds[i], F_SETFL, O_NONBLOCK);
            while (!r->output_limited &&
                   drain(fds[i], buffers[i], &room, &r->output_limited) == READ_DATA) {
            }
        }
    }
}

/* ------------------------------------------------------------------ the verdict */

static const char *signal_name(int signo) {
    switch (signo) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    default: return NULL;
    }
}

/* Copies text into dest up to the first of the stop strings (or the end), truncated. */
static void copy_until(char *dest, size_t size, const char *text, const char *const *stops) {
    size_t n = strlen(text);
    for (size_t i = 0; stops[i] != NULL; i++) {
        const char *hit = strstr(text, stops[i]);
        if (hit != NULL && (size_t)(hit - text) < n) {
            n = (size_t)(hit - text);
        }
    }
    if (n >= size) {
        n = size - 1;
    }
    memcpy(dest, text, n);
    dest[n] = '\0';
}

/* "==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x..." or
   "==42==AddressSanitizer: hard rss limit exhausted (256Mb vs 281Mb)" -> the part worth
   showing, "AddressSanitizer: heap-buffer-overflow". WARNING lines are not reports. */
static bool sanitizer_error(const char *line, char *out, size_t size) {
    static const char *const cut[] = {" on address", " on unknown address", " on 0x", " at pc",
                                      " (",          " in thread",          NULL};
    const char *start = strstr(line, "ERROR: ");
    if (start != NULL) {
        start += strlen("ERROR: ");
    } else if (line[0] == '=' && line[1] == '=') {
        start = line + 2 + strspn(line + 2, "0123456789");
        if (strncmp(start, "==", 2) != 0) {
            return false;
        }
        start += 2;
    } else {
        return false;
    }
    const char *colon = strstr(start, "Sanitizer: ");
    if (colon == NULL || strcspn(start, " ") < (size_t)(colon - start)) {
        return false; /* the first word must be the sanitizer's name */
    }
    copy_until(out, size, start, cut);
    return true;
}

/* "SUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s)." -> "leaked 24 bytes". */
static bool leak_summary(const char *line, char *out, size_t size) {
    const char *summary = strstr(line, "SUMMARY: ");
    const char *colon = summary == NULL ? NULL : strstr(summary, "Sanitizer: ");
    if (colon == NULL || strstr(colon, " byte(s) leaked") == NULL) {
        return false;
    }
    snprintf(out, size, "leaked %llu bytes", strtoull(colon + strlen("Sanitizer: "), NULL, 10));
    return true;
}

/* "/src/x.c:3:7: runtime error: signed integer overflow: ..." ->
   "UndefinedBehaviorSanitizer: signed integer overflow: ... (x.c:3:7)". */
static bool ubsan_error(const char *line, char *out, size_t size) {
    static const char *const none[] = {NULL};
    const char *marker = strstr(line, ": runtime error: ");
    if (marker == NULL) {
        return false;
    }
    const char *file = line;
    for (const char *c = line; c < marker; c++) {
        if (*c == '/') {
            file = c + 1;
        }
    }
    char message[160];
    copy_until(message, sizeof message, marker + strlen(": runtime error: "), none);
    snprintf(out, size, "UndefinedBehaviorSanitizer: %s (%.*s)", message,
             (int)(marker - file > 100 ? 100 : marker - file), file);
    return true;
}

/* The first sanitizer report in the captured stderr, shortened into out. A leak report
   ("ERROR: LeakSanitizer: detected memory leaks") is summarised by its SUMMARY line. */
static bool sanitizer_report(const char *err, char *out, size_t size) {
    bool leaks = false;
    for (const char *line = err; *line != '\0';) {
        size_t length = strcspn(line, "\n");
        char *text = strndup(line, length);
        if (text == NULL) {
            return false;
        }
        bool found = false;
        if (leaks) {
            found = leak_summary(text, out, size);
        } else if (strstr(text, "ERROR: LeakSanitizer: detected memory leaks") != NULL) {
            leaks = true;
            snprintf(out, size, "leaked memory (LeakSanitizer)");
        } else {
            found = sanitizer_error(text, out, size) || ubsan_error(text, out, size);
        }
        free(text);
        if (found) {
            return true;
        }
        line += length;
        if (*line == '\n') {
            line++;
        }
    }
    return leaks; /* a leak report without its summary still counts */
}

/* Writes the status line and returns the sandbox's exit status. */
static int report(const Options *o, const Outcome *r) {
    char sanitizer[256];
    if (r->timed_out) {
        printf("timed out after %g s\n", o->timeout);
    } else if (r->output_limited) {
        printf("output limit: more than %lld bytes\n", o->output_bytes);
    } else if (r->err.data != NULL && sanitizer_report(r->err.data, sanitizer, sizeof sanitizer)) {
        printf("%s\n", sanitizer);
    } else if (WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGXCPU) {
        printf("timed out after %g s (CPU time limit)\n", o->timeout);
    } else if (WIFSIGNALED(r->status)) {
        const char *name = signal_name(WTERMSIG(r->status));
        if (name != NULL) {
            printf("crashed: %s\n", name);
        } else {
            printf("crashed: signal %d\n", WTERMSIG(r->status));
        }
    } else if (WIFEXITED(r->status) && WEXITSTATUS(r->status) != 0) {
        printf("exit %d\n", WEXITSTATUS(r->status));
    } else {
        printf("ok\n");
        return 0;
    }
    return 1;
}

static bool save(const char *path, const Buffer *b) {
    if (path == NULL) {
        return true;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "sandbox: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(b->data == NULL ? "" : b->data, 1, b->length, f) == b->length;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "sandbox: cannot write %s\n", path);
    }
    return ok;
}

int main(int argc, char **argv) {
    Options o = parse_options(argc, argv);
    /* Fail before running anything when the result files cannot be written. */
    if (!save(o.stdout_file, &(Buffer){NULL, 0, 0}) ||
        !save(o.stderr_file, &(Buffer){NULL, 0, 0})) {
        return 2;
    }

    int out[2], err[2];
    make_pipe(out);
    make_pipe(err);
    make_pipe(sigchld_pipe);
    fcntl(sigchld_pipe[1], F_SETFL, O_NONBLOCK);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigchld;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "sandbox: fork: %s\n", strerror(errno));
        return 2;
    }
    if (child == 0) {
        run_child(&o, out[1], err[1]);
    }
    setpgid(child, child);
    close(out[1]);
    close(err[1]);

    Outcome r;
    memset(&r, 0, sizeof r);
    supervise(child, &o, out[0], err[0], &r);
    int status = report(&o, &r);
    if (!save(o.stdout_file, &r.out) || !save(o.stderr_file, &r.err)) {
        status = 2;
    }
    free(r.out.data);
    free(r.err.data);
    return status;
}
