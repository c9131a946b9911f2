/* sandbox.h: what the three parts of build/harness/sandbox share.
 *
 *   sandbox.c       options, the supervising loop, the one-line verdict
 *   sandbox_box.c   isolation: the private folder a program runs in, the unprivileged uid,
 *                   bubblewrap's namespaces, and the clean-up that leaves nothing behind
 *   sandbox_tree.c  the process tree seen from outside: CPU time, states, killing it all
 *
 * The split follows who can be trusted with what. sandbox.c never looks at the file system
 * of the box; sandbox_box.c never decides a verdict; sandbox_tree.c only reads /proc.
 */
#ifndef DRIP_SANDBOX_H
#define DRIP_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How far the program is kept from everything else (README.md, "isolation"). */
typedef enum {
    ISOLATE_NONE,  /* rlimits only: the caller's uid, files and processes */
    ISOLATE_USER,  /* an unprivileged uid of its own, in a private folder (needs root) */
    ISOLATE_BWRAP, /* the same inside bubblewrap: new user, PID, net, IPC, mount namespaces */
} Isolation;

/* A file copied read-only into the box under its own name. */
typedef struct {
    const char *name;   /* a plain file name, no '/' */
    const char *source; /* a regular file on the host */
} BoxFile;

/* The fds a boxed program finds open, besides 0, 1 and 2. */
enum {
    RESULTS_FD = 3,     /* --results: the program's answers, kept apart from its stdout */
    TOOL_LOG_FD = 1020, /* --tool-log: a tool's own log (valgrind --log-fd=1020); a socket, in
                           valgrind's reserved range, so the client can neither write it by
                           number nor reopen it through /proc (it can duplicate it: whoever
                           reads the log trusts only the tool's last word) */
    STARTED_FD = 1021,  /* written once, just before exec: the box was built */
    FD_LIMIT = 1024,    /* RLIMIT_NOFILE inside the box (valgrind reserves the last fds) */
};

typedef struct {
    double timeout; /* wall-clock seconds: the limit, or with --cpu only a backstop */
    double cpu;     /* CPU seconds for the whole process tree; 0 = legacy (timeout) */
    double idle;    /* with --cpu: seconds with nothing runnable before giving up */
    long long memory_mb;
    long long output_bytes; /* stdout + stderr kept; one more byte kills the program */
    long long results_bytes;
    long long file_size;
    long long procs;     /* processes of the program, itself included */
    long long tmp_bytes; /* size of the private /tmp (bubblewrap) */
    long long uid;       /* the unprivileged uid (root only); 0 = one per sandbox */
    const char *stdout_file;
    const char *stderr_file;
    const char *results_file;
    const char *tool_log_file;
    BoxFile tool_out;       /* --tool-out NAME=FILE: a FIFO NAME in the box, saved to FILE */
    const char *usage_file; /* --usage: "cpu SECONDS\nwall SECONDS\n" once it ended */
    Isolation isolation;
    BoxFile *files;
    size_t file_count;
    long long inner_fd; /* --inner FD: we are the helper inside bubblewrap */
    bool asan; /* the program links AddressSanitizer (--asan inside bubblewrap): no RLIMIT_AS */
    char **program; /* argv of the program, NULL-terminated */
} Options;

/* ---------------------------------------------------------------- sandbox_box.c */

/* The private folder the program runs in (ISOLATE_USER, ISOLATE_BWRAP). */
typedef struct {
    char path[64]; /* /tmp/drip-sandbox-XXXXXX */
    uid_t uid;     /* the uid the program runs as (the caller's own when not root) */
    bool drop;     /* we are root and switch to uid before exec */
} Box;

/* Creates the box and copies the files in; on failure writes why into error. */
bool box_create(Box *box, const Options *o, char *error, size_t size);
/* A FIFO `name` in the box for a tool's output file (valgrind --cachegrind-out-file=NAME):
   the program may open it for writing only, and can neither remove nor replace it (the box's
   folder is not its to write), so whatever it writes there comes on top of the tool's own
   output, never instead. Sets *reader (ours, non-blocking) and *keeper (a write end we hold,
   so the FIFO never reads as ended before the tool opens it). */
bool box_fifo(const Box *box, const char *name, int *reader, int *keeper, char *error, size_t size);
/* In the forked child, first: closes every fd but ours, empties the environment. */
void box_prepare(const Box *box, const Options *o);
/* Then: the uid, the namespaces, the limits, exec; never returns. */
void box_exec(const Box *box, const Options *o);
/* The helper's side inside bubblewrap (--inner): limits, then exec; never returns. */
void box_inner_exec(const Options *o);
/* execvp, or "sandbox: cannot run" and exit status 127. */
_Noreturn void exec_program(char **program);
/* After the program tree is gone: kill whatever still runs as the box's uid, remove the
   box and (ISOLATE_USER) every file the uid left in the shared temporary folders. */
void box_destroy(const Box *box, const Options *o);
/* Megabytes of System V memory the box's uid holds (ISOLATE_USER; 0 otherwise): shared memory
   and queued messages live outside every process, so the tree's resident memory misses them. */
double box_ipc_mb(const Box *box, const Options *o);
/* Bytes of the files the box holds (ISOLATE_USER; 0 otherwise): its uid's in the shared
   folders, its own folder's, and unlinked ones its processes hold open (tree_unlinked_bytes).
   Slow beside box_ipc_mb: a walk of folders. */
double box_files_bytes(const Box *box, const Options *o);
/* Sets the rlimits every mode shares (CPU, memory, file size, processes, core). */
void apply_limits(const Options *o);

/* ---------------------------------------------------------------- sandbox_tree.c */

typedef struct {
    double cpu;    /* seconds of CPU used by the tree so far (user + system) */
    double rss_mb; /* resident memory of the tree's processes, MB */
    int processes; /* processes in the tree (zombies included) */
    int running;   /* of which runnable or in disk wait (R, D; not D in vfork(), which
                      waits for its child: sandbox_tree.c) */
    int stopped;   /* of which stopped by a signal or a tracer (T, t) */
} TreeState;

/* Reads /proc/PID/NAME into text (size bytes, NUL-terminated); false when there is none. */
bool tree_read_proc(pid_t pid, const char *name, char *text, size_t size);
/* Sums up every descendant of this process (orphans come back to us: we are a subreaper). */
void tree_state(TreeState *state);
/* The supervised program as seen by its parent: our direct child, and what reaping saw. */
typedef struct {
    pid_t pid;
    bool done;         /* reaped */
    int status;        /* its wait status, once done */
    double reaped_cpu; /* CPU seconds of every reaped descendant (it included) */
} Child;

/* Bytes of the files that no folder names (unlinked, or made with O_TMPFILE) and that a process
   of the last sample holds open (a file held by two processes counts twice). */
double tree_unlinked_bytes(void);
/* Reaps finished children (the program and adopted orphans) without blocking. */
void tree_reap(Child *child);
/* SIGKILLs every descendant and reaps them all, until none is left. */
void tree_kill_all(Child *child);

#endif
