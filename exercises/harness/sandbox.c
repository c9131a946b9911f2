/* sandbox.c: run one program with limits and say, in one line, how it ended.
 *
 *   sandbox (--cpu SEC | --timeout SEC) --memory MB --output BYTES [--idle SEC]
 *           [--file-size BYTES] [--procs N] [--stdout FILE] [--stderr FILE]
 *           [--results FILE] [--results-limit BYTES] [--tool-log FILE] [--usage FILE]
 *           [--tool-out NAME=FILE]
 *           [--isolate none|user|bwrap] [--file NAME=PATH]... [--tmp-size BYTES] [--uid N]
 *           -- PROGRAM [ARGS...]
 *
 * Every test of the workbook (`make exercise-N`, grading) runs under this, one test
 * per process, so a crash, an abort, a stack overflow or an endless loop costs only that
 * test. The design in short:
 *
 * - Limits. rlimits for memory, file size, process count and, as a per-process backstop,
 *   CPU. With --cpu, the verdict for an endless loop is CPU time of the whole process tree,
 *   sampled from outside (sandbox_tree.c), so it does not depend on how busy the machine is;
 *   --timeout is then only a generous wall-clock backstop (default 10 x cpu + 30 s), and a
 *   tree where nothing runs (stopped by SIGSTOP, or asleep for --idle seconds) ends at once.
 *   Without --cpu, --timeout is the wall-clock limit, as in earlier versions.
 * - Isolation (--isolate, sandbox_box.c): none (the caller's uid and files), user (an
 *   unprivileged uid of its own in a private folder; root only) or bwrap (the same inside
 *   bubblewrap's namespaces, seeing only /usr read-only, its --file inputs at /box and a
 *   private /tmp). The program's environment is then emptied but for PATH, HOME, TMPDIR.
 * - Memory under AddressSanitizer: ASan reserves terabytes of shadow memory, so an ASan
 *   binary cannot live under RLIMIT_AS; when the program file contains "__asan_init",
 *   memory is capped through ASAN_OPTIONS=hard_rss_limit_mb instead. Behind both, the tree's
 *   resident memory is sampled with its CPU time, and a tree over 1.5 x --memory is killed
 *   (an ASan program could re-execute itself without the watcher; 16 forks could each fill
 *   their RLIMIT_AS).
 *   allocator_may_return_null=1 makes a huge malloc return NULL (code under test should
 *   cope) and UBSan is told to stop at its first report.
 * - Output. The parent reads stdout and stderr with poll(), keeping at most --output bytes
 *   in total; one byte more and the whole tree is killed. --results gives the program a
 *   separate channel on fd 3 for its answers (limit --results-limit), --tool-log a socket on
 *   fd 1020 for a tool such as valgrind (--log-fd=1020), --tool-out a FIFO in the box for the
 *   tool's output file (sandbox_box.c, box_fifo). SIGCHLD wakes poll() through a
 *   self-pipe, so a child that exits while a grandchild still holds the pipes is noticed.
 * - Nothing survives. The sandbox is a child subreaper: orphans come back to it, and when
 *   the program ends, every process still in the tree is killed (and, isolated, every
 *   process of the box's uid), whatever setsid() or double forks it tried.
 * - The verdict comes from, in order: a box that could not be built, the first sanitizer
 *   error in the captured stderr (a crash is reported as the crash even when the sanitizer
 *   was slow to write it), our own kill (output limit, time), a leak report, the signal
 *   that ended the program, its exit code. --usage FILE records the CPU and wall-clock
 *   seconds the run took (the grader scales a time limit from the reference's CPU time).
 *
 * Exit status: 0 when PROGRAM exited 0 and nothing was reported, 1 otherwise, 2 when the
 * sandbox itself was used wrongly or could not start (its stdout then says why).
 */
#define _GNU_SOURCE

#include "sandbox.h"
#include "status.h"

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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ options */

static void usage(const char *problem) {
    fprintf(stderr,
            "sandbox: %s\n"
            "usage: sandbox (--cpu SEC | --timeout SEC) --memory MB --output BYTES\n"
            "               [--idle SEC] [--file-size BYTES] [--procs N]\n"
            "               [--stdout FILE] [--stderr FILE] [--results FILE]\n"
            "               [--results-limit BYTES] [--tool-log FILE] [--usage FILE]\n"
            "               [--isolate none|user|bwrap] [--file NAME=PATH]...\n"
            "               [--tmp-size BYTES] [--uid N] -- PROGRAM [ARGS...]\n",
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

static double parse_seconds(const char *option, const char *text) {
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(value > 0) || value > 1e6) {
        fprintf(stderr, "sandbox: %s needs seconds > 0 (e.g. 2 or 0.5), got '%s'\n", option, text);
        exit(2);
    }
    return value;
}

static Isolation parse_isolation(const char *text) {
    static const char *const levels[] = {"none", "user", "bwrap"}; /* in Isolation's order */
    for (Isolation level = ISOLATE_NONE; level <= ISOLATE_BWRAP; level++) {
        if (strcmp(text, levels[level]) == 0) {
            return level;
        }
    }
    fprintf(stderr, "sandbox: --isolate is none, user or bwrap, got '%s'\n", text);
    exit(2);
}

/* NAME=PATH (--file, --tool-out) as a BoxFile, split in place; exits with a message when it is
   not. */
static BoxFile name_and_path(const char *option, char *value) {
    char *equals = strchr(value, '=');
    if (equals == NULL || equals == value || equals[1] == '\0') {
        fprintf(stderr, "sandbox: %s needs NAME=PATH, got '%s'\n", option, value);
        exit(2);
    }
    *equals = '\0';
    return (BoxFile){value, equals + 1};
}

/* The options that take a value: where each goes in Options, and how its value is read. */
typedef enum { SECONDS, WHOLE, TEXT, PAIR, FILES, LEVEL, FLAG } OptionKind;

static const struct {
    const char *name;
    OptionKind kind;
    size_t offset;
} option_table[] = {
    {"--timeout", SECONDS, offsetof(Options, timeout)},
    {"--cpu", SECONDS, offsetof(Options, cpu)},
    {"--idle", SECONDS, offsetof(Options, idle)},
    {"--memory", WHOLE, offsetof(Options, memory_mb)},
    {"--output", WHOLE, offsetof(Options, output_bytes)},
    {"--results-limit", WHOLE, offsetof(Options, results_bytes)},
    {"--file-size", WHOLE, offsetof(Options, file_size)},
    {"--procs", WHOLE, offsetof(Options, procs)},
    {"--tmp-size", WHOLE, offsetof(Options, tmp_bytes)},
    {"--uid", WHOLE, offsetof(Options, uid)},
    {"--inner", WHOLE, offsetof(Options, inner_fd)},
    {"--stdout", TEXT, offsetof(Options, stdout_file)},
    {"--stderr", TEXT, offsetof(Options, stderr_file)},
    {"--results", TEXT, offsetof(Options, results_file)},
    {"--tool-log", TEXT, offsetof(Options, tool_log_file)},
    {"--usage", TEXT, offsetof(Options, usage_file)},
    {"--tool-out", PAIR, offsetof(Options, tool_out)},
    {"--file", FILES, offsetof(Options, files)},
    {"--isolate", LEVEL, offsetof(Options, isolation)},
    {"--asan", FLAG, offsetof(Options, asan)},
};

/* Sets one option; false when the name is unknown. */
static bool set_option(Options *o, const char *option, char *value) {
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++) {
        void *field = (char *)o + option_table[i].offset;
        if (strcmp(option, option_table[i].name) != 0) {
            continue;
        }
        switch (option_table[i].kind) {
        case SECONDS: *(double *)field = parse_seconds(option, value); break;
        case WHOLE: *(long long *)field = parse_positive(option, value); break;
        case TEXT: *(const char **)field = value; break;
        case PAIR: *(BoxFile *)field = name_and_path(option, value); break;
        case FILES: o->files[o->file_count++] = name_and_path(option, value); break;
        case LEVEL: *(Isolation *)field = parse_isolation(value); break;
        case FLAG: *(bool *)field = strcmp(value, "1") == 0; break;
        }
        return true;
    }
    return false;
}

/* The limits of a run are the caller's to name (the workbook's are a chapter's, from
   exercises/harness/chapter.lua): a time limit, memory and output have no default. These
   have one. With --cpu alone, the wall-clock backstop is BACKSTOP_FACTOR times the CPU limit
   plus BACKSTOP_SECONDS: generous enough that a busy machine never reaches it before the
   CPU limit. */
#define DEFAULT_IDLE_SECONDS 3.0
enum {
    DEFAULT_RESULTS_BYTES = 64 << 20,
    DEFAULT_FILE_SIZE = 1 << 20,
    DEFAULT_PROCS = 64,
    DEFAULT_TMP_BYTES = 64 << 20,
    BACKSTOP_FACTOR = 10,
    BACKSTOP_SECONDS = 30,
};

static Options parse_options(int argc, char **argv) {
    /* files has room for every --file: each takes two words of argv. */
    Options o = {.idle = DEFAULT_IDLE_SECONDS,
                 .results_bytes = DEFAULT_RESULTS_BYTES,
                 .file_size = DEFAULT_FILE_SIZE,
                 .procs = DEFAULT_PROCS,
                 .tmp_bytes = DEFAULT_TMP_BYTES,
                 .inner_fd = -1,
                 .files = calloc((size_t)argc / 2 + 1, sizeof(BoxFile))};
    if (o.files == NULL) {
        fprintf(stderr, "sandbox: out of memory\n");
        exit(2);
    }
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *option = argv[i];
        if (i + 1 >= argc) {
            usage("missing value or '--'");
        }
        if (!set_option(&o, option, argv[++i])) {
            fprintf(stderr, "sandbox: unknown option '%s'\n", option);
            usage("see the usage line");
        }
    }
    if (i + 1 >= argc) {
        usage("no program given after '--'");
    }
    if (o.inner_fd < 0 &&
        ((o.cpu == 0 && o.timeout == 0) || o.memory_mb == 0 || o.output_bytes == 0)) {
        usage("a time limit (--cpu or --timeout), --memory and --output are needed: no limit is "
              "assumed");
    }
    if (o.cpu > 0 && o.timeout == 0) { /* no --timeout: the backstop */
        o.timeout = BACKSTOP_FACTOR * o.cpu + BACKSTOP_SECONDS;
    }
    o.program = &argv[i + 1];
    return o;
}

/* ------------------------------------------------------------------ the child */

/* True when the file contains "__asan_init" (the ASan runtime's entry symbol). */
static bool file_links_asan(const char *path) {
    static const char needle[] = "__asan_init";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    size_t size = fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 0;
    void *bytes = size == 0 ? MAP_FAILED : mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    bool found = bytes != MAP_FAILED && memmem(bytes, size, needle, sizeof needle - 1) != NULL;
    if (bytes != MAP_FAILED) {
        munmap(bytes, size);
    }
    close(fd);
    return found;
}

/* Sets NAME=ours:theirs:forced, so the caller's own settings win over our defaults but
   not over the limits this sandbox promises. */
static void set_sanitizer_options(const char *name, const char *defaults, const char *forced) {
    const char *theirs = getenv(name);
    char *value;
    if (asprintf(&value, "%s:%s:%s", defaults, theirs ? theirs : "", forced) >= 0) {
        setenv(name, value, 1);
        free(value);
    }
}

/* Whether the program links AddressSanitizer: its file as execvp would find it (inside the box
   when isolated). */
static bool program_links_asan(const Options *o, const Box *box) {
    const char *name = o->program[0], *dirs = getenv("PATH");
    char path[4096];
    if (strchr(name, '/') != NULL) {
        bool in_box = box->path[0] != '\0' && name[0] != '/';
        snprintf(path, sizeof path, "%s%s%s", in_box ? box->path : "", in_box ? "/" : "", name);
        return file_links_asan(path);
    }
    for (size_t n = 0; dirs != NULL && *dirs != '\0'; dirs += n + (dirs[n] == ':')) {
        n = strcspn(dirs, ":");
        snprintf(path, sizeof path, "%.*s/%s", (int)n, dirs, name);
        if (access(path, X_OK) == 0) {
            return file_links_asan(path);
        }
    }
    return false;
}

/* The streams of a run: each a pipe (the tool's log a socket) whose write end the program
   finds at fd TARGET[i]; both ends -1 for a stream the run does not use. */
enum { OUT, ERR, RESULTS, TOOL, STARTED, TOOL_OUT, STREAMS };
static const int TARGET[STREAMS] = {STDOUT_FILENO, STDERR_FILENO,
                                    RESULTS_FD,    TOOL_LOG_FD,
                                    STARTED_FD,    -1 /* a FIFO in the box, opened by name */};

/* Runs in the forked child: never returns. */
static void run_child(const Options *o, const Box *box, int pipes[][2]) {
    setsid();
    status_stdin_null();
    for (int i = 0; i < STREAMS; i++) {
        if (pipes[i][1] >= 0) {
            dup2(pipes[i][1], TARGET[i]);
        }
    }
    if (pipes[STARTED][1] >= 0) {
        fcntl(STARTED_FD, F_SETFD, FD_CLOEXEC);
    }
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);

    if (o->isolation != ISOLATE_NONE) {
        box_prepare(box, o); /* the caller's environment goes: ours is added below */
    }
    char forced[64];
    snprintf(forced, sizeof forced, "hard_rss_limit_mb=%lld", o->memory_mb);
    set_sanitizer_options("ASAN_OPTIONS", "allocator_may_return_null=1", forced);
    set_sanitizer_options("UBSAN_OPTIONS", "print_stacktrace=1", "halt_on_error=1");
    if (o->isolation != ISOLATE_NONE) {
        box_exec(box, o);
    }
    if (box->path[0] != '\0') { /* none, with --file: the caller's uid in the box's folder */
        char tmp[sizeof box->path + 8];
        snprintf(tmp, sizeof tmp, "%s/tmp", box->path);
        setenv("TMPDIR", tmp, 1);
        if (chdir(box->path) != 0) {
            _exit(125);
        }
    }
    apply_limits(o);
    exec_program(o->program);
}
/* ------------------------------------------------------------------ the parent */

static int sigchld_pipe[2] = {-1, -1}; /* written on SIGCHLD, read by poll() (status.h) */

/* A pipe, both ends close-on-exec; a socket for a tool's log: a socket cannot be reopened
   through /proc/self/fd. */
static void make_pipe(int fds[2], bool is_socket) {
    if ((is_socket ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)
                   : pipe2(fds, O_CLOEXEC)) != 0) {
        printf("sandbox error: %s: %s\n", is_socket ? "socketpair" : "pipe", strerror(errno));
        exit(2);
    }
    if (is_socket) {
        shutdown(fds[0], SHUT_WR);
    }
}

/* How the run ended, from the supervisor's side. */
typedef enum {
    END_EXITED,  /* the program ended by itself */
    END_OUTPUT,  /* we killed it: stdout + stderr over --output */
    END_RESULTS, /* we killed it: results over --results-limit */
    END_CPU,     /* we killed it: the tree's CPU time over --cpu */
    END_WALL,    /* we killed it: wall clock over --timeout */
    END_STOPPED, /* we killed it: everything stopped (SIGSTOP) */
    END_IDLE,    /* we killed it: everything asleep for --idle seconds */
    END_MEMORY,  /* we killed it: the tree's resident memory over MEMORY_MARGIN x --memory */
    END_FILES,   /* we killed it: its files (user level) over --tmp-size */
} Ending;

/* One captured stream: where it comes from, where it goes (a memory stream: data and length
   are whole once it is closed), how much may be kept. */
typedef struct {
    int fd;
    FILE *kept;
    char *data;
    size_t length;
    long long *room; /* its own_room; stderr's is stdout's (they share --output) */
    long long own_room;
    bool over;
} Stream;

/* What the streams that are not the program's may hold: a tool's log (valgrind's is a few
   kilobytes) and its output file (cachegrind's, tens of kilobytes), each, and the one
   "started" byte the box writes before exec. */
#define TOOL_LOG_BYTES (4LL << 20)
#define STARTED_BYTES 16

typedef struct {
    Child child;
    Ending ending;
    double cpu;  /* CPU seconds the tree used */
    double wall; /* seconds from fork to the end of the clean-up */
    bool started;
    Stream streams[STREAMS];
} Outcome;

typedef enum { READ_DATA, READ_LATER, READ_END } ReadResult;

/* One read takes a whole pipe's worth (Linux's default pipe holds 64 KiB), so a writer never
   waits on us for longer than one turn of the loop. */
#define PIPE_CHUNK (64 << 10)

/* Reads what is available on a stream, keeping at most its room. */
static ReadResult drain(Stream *s) {
    static char chunk[PIPE_CHUNK];
    ssize_t n = read(s->fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
        return READ_LATER;
    }
    if (n <= 0) {
        return READ_END;
    }
    size_t keep = (size_t)(n <= *s->room ? n : *s->room); /* a room is never below 0 */
    if (fwrite(chunk, 1, keep, s->kept) != keep) {
        fprintf(stderr, "sandbox: out of memory\n");
        exit(2);
    }
    *s->room -= (long long)keep;
    if (keep < (size_t)n) {
        s->over = true;
    }
    return READ_DATA;
}

/* The tree's state every SAMPLE seconds decides CPU, memory, stopped and idle endings.
   Quiet means: nothing runnable or in disk wait, no CPU used, nothing written that we have not
   read (backlog). On a busy machine the sandbox itself may get the CPU seldom, so idle needs
   IDLE_SAMPLES quiet samples in a row as well as --idle seconds: a sandbox that was not
   scheduled saw nothing. The tree's resident memory may exceed --memory by
   MEMORY_MARGIN: rlimits and ASan's own watcher (hard_rss_limit_mb) hold a program that does not
   cheat, with their own verdicts, and this is what stops one that does (an ASan program that
   re-executes itself without the watcher, a tree of forks each under RLIMIT_AS). */
#define SAMPLE 0.1
#define IDLE_SAMPLES 10
#define MEMORY_MARGIN 1.5
#define FILES_SAMPLE 0.5 /* the box's files are counted less often: a walk of folders */

typedef struct {
    double last_sample;
    double last_cpu;
    double quiet_since; /* when nothing was last seen running; < 0 while something runs */
    int quiet_samples;  /* quiet samples in a row */
    double last_files;  /* when files_bytes was counted */
    double files_bytes; /* box_files_bytes then */
} Watch;

/* Whether a stream holds bytes we have not read yet: a tree blocked writing to us (a big
   program built, on a machine too busy to give us the CPU) is waiting for us, not idle. */
static bool backlog(const Outcome *r) {
    for (int i = 0; i < STREAMS; i++) {
        int unread = 0;
        if (r->streams[i].fd >= 0 && ioctl(r->streams[i].fd, FIONREAD, &unread) == 0 &&
            unread > 0) {
            return true;
        }
    }
    return false;
}

/* Samples the tree; returns the ending it calls for, or END_EXITED to go on. */
static Ending watch_tree(const Options *o, const Box *box, Outcome *r, Watch *w, double now) {
    if (now - w->last_sample < SAMPLE) {
        return END_EXITED;
    }
    w->last_sample = now;
    TreeState state;
    tree_state(&state);
    r->cpu = fmax(r->cpu, state.cpu + r->child.reaped_cpu);
    if (state.rss_mb + box_ipc_mb(box, o) > MEMORY_MARGIN * (double)o->memory_mb) {
        return END_MEMORY;
    }
    if (now - w->last_files >= FILES_SAMPLE) {
        w->last_files = now;
        w->files_bytes = box_files_bytes(box, o);
    }
    if (w->files_bytes > (double)o->tmp_bytes) {
        return END_FILES;
    }
    if (o->cpu <= 0) {
        return END_EXITED; /* legacy: the wall clock decides */
    }
    if (r->cpu > o->cpu) {
        return END_CPU;
    }
    bool quiet = state.processes > 0 && state.running == 0 && r->cpu <= w->last_cpu && !backlog(r);
    w->last_cpu = r->cpu;
    if (!quiet) {
        w->quiet_since = -1;
        w->quiet_samples = 0;
        return END_EXITED;
    }
    if (w->quiet_since < 0) {
        w->quiet_since = now;
    }
    w->quiet_samples++;
    if (state.stopped > 0 && now - w->quiet_since >= 0.5) {
        return END_STOPPED;
    }
    if (now - w->quiet_since >= o->idle && w->quiet_samples >= IDLE_SAMPLES) {
        return END_IDLE;
    }
    return END_EXITED;
}

/* Supervises the program until it ends or we end it. */
static void supervise(const Options *o, const Box *box, Outcome *r) {
    double start = status_clock(), deadline = start + o->timeout;
    r->wall = start;
    Watch w = {start, 0, -1, 0, start - FILES_SAMPLE, 0};
    for (;;) {
        tree_reap(&r->child);
        double now = status_clock();
        r->ending = r->child.done     ? END_EXITED
                    : now >= deadline ? END_WALL
                                      : watch_tree(o, box, r, &w, now);
        if (r->child.done || r->ending != END_EXITED) {
            break;
        }
        struct pollfd p[STREAMS + 1];
        for (int i = 0; i <= STREAMS; i++) {
            p[i] = (struct pollfd){i < STREAMS ? r->streams[i].fd : sigchld_pipe[0], POLLIN, 0};
        }
        double wait = deadline - now < SAMPLE ? deadline - now : SAMPLE;
        int ready = poll(p, STREAMS + 1, (int)ceil(wait * 1000));
        if (ready < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < STREAMS; i++) {
            if (r->streams[i].fd >= 0 && (p[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (drain(&r->streams[i]) == READ_END) {
                    close(r->streams[i].fd);
                    r->streams[i].fd = -1; /* EOF: poll ignores negative fds */
                }
            }
        }
        if (p[STREAMS].revents & POLLIN) {
            status_wake_drain(sigchld_pipe[0]);
        }
        bool output = r->streams[OUT].over || r->streams[ERR].over;
        if (output || r->streams[RESULTS].over) {
            r->ending = output ? END_OUTPUT : END_RESULTS;
            break;
        }
    }
    /* The program if still running, and anything it left behind. */
    TreeState last;
    tree_state(&last);
    r->cpu = fmax(r->cpu, last.cpu + r->child.reaped_cpu);
    tree_kill_all(&r->child);
    /* Whatever was written before the end is still in the pipes: keep it. */
    for (int i = 0; i < STREAMS; i++) {
        Stream *s = &r->streams[i];
        if (s->fd >= 0) {
            fcntl(s->fd, F_SETFL, O_NONBLOCK);
            while (!s->over && drain(s) == READ_DATA) {
            }
            close(s->fd);
            s->fd = -1;
        }
        fclose(s->kept);
    }
    r->started = r->streams[STARTED].length > 0;
    r->wall = status_clock() - r->wall;
}

/* ------------------------------------------------------------------ the verdict */

/* Bubblewrap reports a program killed by signal N as exit status 128 + N. */
static int signal_of(const Options *o, const Outcome *r) {
    int status = r->child.status;
    if (WIFSIGNALED(status)) {
        return WTERMSIG(status);
    }
    if (o->isolation == ISOLATE_BWRAP && WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
        WEXITSTATUS(status) < 128 + 65) {
        return WEXITSTATUS(status) - 128;
    }
    return 0;
}

/* The status line (status.h), in the order of the top of this file: the limit is the one our
   supervision found broken, or the per-process CPU backstop's SIGXCPU. */
static void verdict(const Options *o, const Outcome *r, char *out, size_t size) {
    int signo = signal_of(o, r);
    char limit[160] = "";
    switch (r->ending) {
    case END_OUTPUT: status_output(limit, sizeof limit, o->output_bytes, ""); break;
    case END_RESULTS: status_output(limit, sizeof limit, o->results_bytes, " of results"); break;
    case END_MEMORY:
        status_memory(limit, sizeof limit, o->memory_mb,
                      " (its processes' resident memory and its System V memory)");
        break;
    case END_FILES:
        status_output(limit, sizeof limit, o->tmp_bytes,
                      " in files (its own and in the shared temporary folders)");
        break;
    case END_CPU: status_cpu(limit, sizeof limit, o->cpu); break;
    case END_STOPPED:
        snprintf(limit, sizeof limit,
                 "timed out: stopped by a signal (SIGSTOP?), with nothing left running");
        break;
    case END_IDLE:
        snprintf(limit, sizeof limit,
                 "timed out: asleep for %g s without using the CPU (waiting for what?)", o->idle);
        break;
    case END_WALL: status_wall(limit, sizeof limit, o->timeout, o->cpu > 0 ? r->cpu : -1.0); break;
    case END_EXITED:
        if (signo == SIGXCPU) {
            status_cpu(limit, sizeof limit, o->cpu > 0 ? o->cpu : o->timeout);
        }
    }
    int code = WIFEXITED(r->child.status) ? WEXITSTATUS(r->child.status) : 0;
    status_verdict(out, size, r->streams[ERR].data, limit, signo, code, true);
}

/* Writes the status line and returns the sandbox's exit status. */
static int report(const Options *o, const Outcome *r) {
    char line[320];
    if (o->isolation != ISOLATE_NONE && !r->started) {
        status_copy_until(line, sizeof line, r->streams[ERR].data,
                          (const char *const[]){"\n", NULL});
        printf("sandbox error: the box could not be started: %s\n", line);
        return 2;
    }
    verdict(o, r, line, sizeof line);
    printf("%s\n", line);
    return strcmp(line, "ok") == 0 ? 0 : 1;
}

static bool save(const char *path, const char *data, size_t length) {
    if (path == NULL) {
        return true;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "sandbox: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, length, f) == length;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "sandbox: cannot write %s\n", path);
    }
    return ok;
}

/* Makes the pipes of the streams the run uses (both ends -1 for the others) and the memory
   streams that keep what comes out of them. stdout and stderr share the room of --output. */
static void open_streams(const Options *o, int tool_out, int pipes[][2], Outcome *r) {
    const bool used[STREAMS] = {
        true, true, o->results_file != NULL, o->tool_log_file != NULL, o->isolation != ISOLATE_NONE,
        false /* the FIFO's read end: tool_out */};
    const long long rooms[STREAMS] = {
        o->output_bytes, 0, o->results_bytes, TOOL_LOG_BYTES, STARTED_BYTES, TOOL_LOG_BYTES};
    for (int i = 0; i < STREAMS; i++) {
        Stream *s = &r->streams[i];
        pipes[i][0] = pipes[i][1] = -1;
        if (used[i]) {
            make_pipe(pipes[i], i == TOOL);
        }
        s->fd = i == TOOL_OUT ? tool_out : pipes[i][0];
        s->own_room = rooms[i];
        s->room = i == ERR ? &r->streams[OUT].own_room : &s->own_room;
        s->kept = open_memstream(&s->data, &s->length);
        if (s->kept == NULL) {
            printf("sandbox error: open_memstream: %s\n", strerror(errno));
            exit(2);
        }
    }
}

int main(int argc, char **argv) {
    Options o = parse_options(argc, argv);
    if (o.inner_fd >= 0) {
        box_inner_exec(&o);
    }
    /* Where each stream is kept (the started byte is not), then the usage: fail before running
       anything when one of them cannot be written. */
    const char *paths[STREAMS + 1] = {o.stdout_file,   o.stderr_file, o.results_file,
                                      o.tool_log_file, NULL,          o.tool_out.source,
                                      o.usage_file};
    for (int i = 0; i <= STREAMS; i++) {
        if (!save(paths[i], "", 0)) {
            return 2;
        }
    }
    Box box = {.path = ""};
    char error[512];
    bool boxed = o.isolation != ISOLATE_NONE || o.file_count > 0 || o.tool_out.name != NULL;
    if (boxed && !box_create(&box, &o, error, sizeof error)) {
        printf("sandbox error: %s\n", error);
        box_destroy(&box, &o);
        return 2;
    }
    /* --tool-out's FIFO: our read end, and a write end we hold so that it never reads as
       ended before the tool opens it. */
    int tool_out = -1, tool_out_keeper = -1;
    if (o.tool_out.name != NULL &&
        !box_fifo(&box, o.tool_out.name, &tool_out, &tool_out_keeper, error, sizeof error)) {
        printf("sandbox error: %s\n", error);
        box_destroy(&box, &o);
        return 2;
    }
    o.asan = program_links_asan(&o, &box);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans of the tree come back to us */

    int pipes[STREAMS][2];
    Outcome r = {0};
    open_streams(&o, tool_out, pipes, &r);
    if (!status_wake_on_sigchld(sigchld_pipe)) {
        printf("sandbox error: pipe: %s\n", strerror(errno));
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);

    fflush(stdout);
    r.child.pid = fork();
    if (r.child.pid < 0) {
        printf("sandbox error: fork: %s\n", strerror(errno));
        box_destroy(&box, &o);
        return 2;
    }
    if (r.child.pid == 0) {
        run_child(&o, &box, pipes);
    }
    for (int i = 0; i < STREAMS; i++) {
        if (pipes[i][1] >= 0) {
            close(pipes[i][1]); /* the child's ends */
        }
    }
    supervise(&o, &box, &r);
    if (tool_out_keeper >= 0) {
        close(tool_out_keeper);
    }
    box_destroy(&box, &o);

    int status = report(&o, &r);
    for (int i = 0; i < STREAMS; i++) {
        if (!save(paths[i], r.streams[i].data, r.streams[i].length)) {
            status = 2;
        }
    }
    /* A tool's log or output cut at its room may have lost the tool's own last lines. */
    char usage[96];
    snprintf(usage, sizeof usage, "cpu %.3f\nwall %.3f\n%s", r.cpu, r.wall,
             r.streams[TOOL].over || r.streams[TOOL_OUT].over ? "tool cut\n" : "");
    if (!save(o.usage_file, usage, strlen(usage))) {
        status = 2;
    }
    return status;
}
