/* sandbox_box.c: where a program runs, as whom, and what it can see.
 *
 * Three levels, chosen by --isolate (README.md explains what each protects):
 *
 *   none   The program runs as the caller, in the caller's folder, with rlimits. Enough for a
 *          student testing their own code on their own machine (`make exercise-N`).
 *
 *   user   (root only) The program runs under an unprivileged uid of its own, by default
 *          2000000000 + the sandbox's pid, so two sandboxes never share one and the uid's
 *          process count (RLIMIT_NPROC, which root ignores) is this program's alone. It runs in
 *          a fresh folder /tmp/drip-sandbox-XXXXXX (owner root, group the uid, mode 0750):
 *          it can read the files copied there and write nothing but its tmp/ sub-folder.
 *          Everything else it reaches through ordinary permissions, so the caller must keep
 *          its own files unreadable to other users (the grader checks that).
 *
 *   bwrap  The same uid and folder, inside bubblewrap (Debian package bubblewrap): new user,
 *          PID, network, IPC and UTS namespaces and a mount namespace whose whole file
 *          system is /usr (and the /bin, /lib symlinks) read-only, /proc and /dev of its own,
 *          a size-limited private /tmp, and the folder read-only at /box. When the program
 *          exits, its PID namespace ends every process left in it. Run by root, bubblewrap
 *          is started under the unprivileged uid, so the namespaces are an unprivileged
 *          user's (the kernel applies RLIMIT_NPROC to them; a root-owned user namespace
 *          would not); run by anyone else it needs unprivileged user namespaces.
 *
 * Limits inside bubblewrap are set by a copy of this very program, run first inside the box
 * (`.sandbox --inner FD ...`): RLIMIT_NPROC must be set inside the new user namespace to
 * count the processes there. Before exec it writes one byte to STARTED_FD, so the
 * supervisor can tell "the program ran and failed" from "the box could not be built".
 *
 * Clean-up never trusts the program: when the tree is gone (sandbox_tree.c), a helper under
 * the box's uid sends SIGKILL to every process that uid still owns (kill(-1)), until none is
 * left; then the folder is removed without following links, and at the user level every
 * file the uid left in /tmp, /var/tmp, /dev/shm and /run/lock (/var/lock), and its System V
 * IPC objects (created or owned: IPC_SET can give one away) go too. What clean-up could not
 * reach is refused from the start: POSIX message queues, which root could only list by
 * mounting their file system (RLIMIT_MSGQUEUE 0), and the kernel's keys (a seccomp filter,
 * which also keeps SIGCHLD's action: children the kernel reaps would take their CPU time).
 * While the check runs, the uid's System V memory counts with its processes' memory, and
 * its files (there, in its folder, unlinked but open) are held to the size bubblewrap's
 * private /tmp has (box_ipc_mb, box_files_bytes): on a tmpfs, as /dev/shm, they are memory
 * no process holds; on a disk, room the machine shares.
 */
#define _GNU_SOURCE

#include "sandbox.h"
#include "seccomp.h"
#include "status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/sendfile.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define UID_BASE 2000000000u
#define SWEEP_DEPTH 4 /* world-writable folders below a shared one that are looked into */
#define HELPER_NAME ".sandbox"

/* ------------------------------------------------------------------ limits */

/* The boxed program's seccomp filter. Exits when it cannot be installed: the program must
   not run without it.
   - The kernel's key store (add_key, request_key, keyctl) outlives processes: a key is a
     channel to a later check, and a uid's keyrings, once looked up, are never fully removed
     again. So all three get EPERM, and the box needs no key clean-up.
   - With `children` (a box that may fork), setting SIGCHLD's action gets EPERM: a process
     that ignores SIGCHLD (or asks SA_NOCLDWAIT) has its children reaped by the kernel, and
     their CPU time with them, out of the tree's sum (sandbox_tree.c). Unreaped, a child
     stays in the tree until it is waited for, and its time goes to its parent's. Without
     children (valgrind's box: one process) nothing is lost, and valgrind sets every
     signal's action.
   - memfd_create gets EPERM: a memfd's pages belong to no process and no file system with a
     size, so the tree's resident sum would never see them (the exercise has no use for one).
   - Syscalls of another ABI (32-bit x86, x32) have other numbers: EPERM as well. */
static void install_filter(bool children) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BOX_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    /* Every jump to "EPERM" lands on the last statement. */
#ifdef BOX_X32_BIT
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, BOX_X32_BIT, 13, 0),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_add_key, 12, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_request_key, 11, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_keyctl, 10, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_memfd_create, 9, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, children ? SYS_rt_sigaction : ~0u, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* rt_sigaction(signal, act, ...): a new action (act not NULL) for SIGCHLD. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(0)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGCHLD, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(1)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HIGH(1)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        fprintf(stderr, "sandbox: cannot install the box's system-call filter: %s\n",
                strerror(errno));
        _exit(125);
    }
}

void apply_limits(const Options *o) {
    status_limit(RLIMIT_CORE, 0, 0);
    /* With --cpu a per-process backstop (the tree's CPU time is watched from outside), SIGKILL a
       second after SIGXCPU; without, the limit itself. */
    rlim_t seconds = (rlim_t)ceil(o->cpu > 0 ? o->cpu : o->timeout) + 1;
    status_limit(RLIMIT_CPU, seconds, seconds + (o->cpu > 0 ? 1 : 0));
    status_limit(RLIMIT_FSIZE, (rlim_t)o->file_size, (rlim_t)o->file_size);
    status_limit(RLIMIT_NPROC, (rlim_t)o->procs, (rlim_t)o->procs);
    if (!o->asan) {
        rlim_t bytes = (rlim_t)o->memory_mb * 1024 * 1024;
        status_limit(RLIMIT_AS, bytes, bytes);
    }
    if (o->isolation != ISOLATE_NONE || o->inner_fd >= 0) {
        status_limit(RLIMIT_NOFILE, FD_LIMIT, FD_LIMIT);
        status_limit(RLIMIT_MSGQUEUE, 0, 0); /* a POSIX queue would outlive the box (see the top) */
        /* Inside bubblewrap one of the processes counted is its init. */
        install_filter(o->procs - (o->inner_fd >= 0 ? 1 : 0) > 1);
    }
}

/* ------------------------------------------------------------------ the folder */

static bool fail(char *error, size_t size, const char *what, const char *path) {
    snprintf(error, size, "%s %s: %s", what, path, strerror(errno));
    return false;
}

/* Copies a regular file (never through a symbolic link) into the box, read-only for the
   box's uid. */
static bool copy_in(const Box *box, const char *source, const char *name, char *error,
                    size_t size) {
    bool ours = strcmp(source, "/proc/self/exe") == 0; /* the helper: a link by nature */
    int in = open(source, O_RDONLY | (ours ? 0 : O_NOFOLLOW) | O_CLOEXEC);
    if (in < 0) {
        return fail(error, size, "cannot read", source);
    }
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(in);
        snprintf(error, size, "%s is not a regular file", source);
        return false;
    }
    char path[sizeof box->path + 256];
    snprintf(path, sizeof path, "%s/%s", box->path, name);
    mode_t mode = (st.st_mode & S_IXUSR) ? 0750 : 0640;
    int out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (out < 0) {
        close(in);
        return fail(error, size, "cannot create", path);
    }
    ssize_t n;
    while ((n = sendfile(out, in, NULL, 1 << 30)) > 0) {
    }
    bool ok = n == 0;
    if (box->drop) {
        ok = ok && fchown(out, 0, box->uid) == 0;
    }
    ok = ok && fchmod(out, mode) == 0;
    close(in);
    if (close(out) != 0 || !ok) {
        return fail(error, size, "cannot copy into", path);
    }
    return true;
}

static void kill_uid(const Box *box);

static bool valid_name(const char *name) {
    return name[0] != '\0' && name[0] != '.' && strchr(name, '/') == NULL && strlen(name) < 200;
}

bool box_create(Box *box, const Options *o, char *error, size_t size) {
    memset(box, 0, sizeof *box);
    box->drop = geteuid() == 0 && o->isolation != ISOLATE_NONE;
    if (o->isolation == ISOLATE_USER && !box->drop) {
        snprintf(error, size, "--isolate user needs root (to switch to an unprivileged uid)");
        return false;
    }
    box->uid =
        box->drop ? (uid_t)(o->uid > 0 ? (unsigned long long)o->uid : UID_BASE + (unsigned)getpid())
                  : getuid();
    kill_uid(box); /* a sandbox killed before its clean-up may have left some behind */
    snprintf(box->path, sizeof box->path, "/tmp/drip-sandbox-XXXXXX");
    if (mkdtemp(box->path) == NULL) {
        return fail(error, size, "cannot create", "/tmp/drip-sandbox-XXXXXX");
    }
    if (box->drop && (chown(box->path, 0, box->uid) != 0 || chmod(box->path, 0750) != 0)) {
        return fail(error, size, "cannot set the owner of", box->path);
    }
    for (size_t i = 0; i < o->file_count; i++) {
        if (!valid_name(o->files[i].name)) {
            snprintf(error, size, "--file: '%s' is not a plain file name", o->files[i].name);
            return false;
        }
        if (!copy_in(box, o->files[i].source, o->files[i].name, error, size)) {
            return false;
        }
    }
    if (o->isolation == ISOLATE_BWRAP) {
        return copy_in(box, "/proc/self/exe", HELPER_NAME, error, size);
    }
    char tmp[sizeof box->path + 8];
    snprintf(tmp, sizeof tmp, "%s/tmp", box->path);
    if (mkdir(tmp, 0700) != 0 || (box->drop && chown(tmp, box->uid, box->uid) != 0)) {
        return fail(error, size, "cannot create", tmp);
    }
    return true;
}

bool box_fifo(const Box *box, const char *name, int *reader, int *keeper, char *error,
              size_t size) {
    char path[sizeof box->path + 256];
    snprintf(path, sizeof path, "%s/%s", box->path, name);
    if (!valid_name(name) || mkfifo(path, 0600) != 0) {
        return fail(error, size, "cannot create the FIFO", path);
    }
    *reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *keeper = *reader < 0 ? -1 : open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    /* Write-only for everyone once our ends are open: the box's uid is the owner inside
       bubblewrap without root, and the box is read-only there, so it cannot chmod it back. */
    if (*keeper < 0 || chmod(path, 0222) != 0) {
        return fail(error, size, "cannot open the FIFO", path);
    }
    return true;
}

/* ------------------------------------------------------------------ the child */

static void become(const Box *box) {
    if (!box->drop) {
        return;
    }
    if (setgroups(0, NULL) != 0 || setgid(box->uid) != 0 || setuid(box->uid) != 0 ||
        getuid() != box->uid || geteuid() != box->uid) {
        fprintf(stderr, "sandbox: cannot switch to uid %u: %s\n", (unsigned)box->uid,
                strerror(errno));
        _exit(125);
    }
}

static void started(void) {
    ssize_t ignored = write(STARTED_FD, "s", 1);
    (void)ignored;
    close(STARTED_FD);
}

_Noreturn void exec_program(char **program) {
    execvp(program[0], program);
    fprintf(stderr, "sandbox: cannot run %s: %s\n", program[0], strerror(errno));
    _exit(127);
}

typedef struct {
    const char **items;
    size_t count;
} Words;

static void word(Words *w, const char *text) {
    w->items[w->count++] = text;
}

/* Appends every argument up to a NULL. */
static void words(Words *w, ...) {
    va_list list;
    va_start(list, w);
    for (const char *text = va_arg(list, const char *); text != NULL;
         text = va_arg(list, const char *)) {
        word(w, text);
    }
    va_end(list);
}

/* The host's /bin, /lib, ... as they are: symbolic links into /usr on a merged-/usr system
   (Debian 12), read-only binds otherwise. */
static void system_dirs(Words *w, char links[][256]) {
    static const char *const dirs[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        struct stat st;
        if (lstat(dirs[i], &st) != 0) {
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(dirs[i], links[i], 255);
            if (n <= 0) {
                continue;
            }
            links[i][n] = '\0';
            word(w, "--symlink");
            word(w, links[i]);
        } else {
            word(w, "--ro-bind");
            word(w, dirs[i]);
        }
        word(w, dirs[i]);
    }
}

/* A word made with printf's format (NULL when out of memory). */
__attribute__((format(printf, 1, 2))) static char *made(const char *format, ...) {
    char *text;
    va_list args;
    va_start(args, format);
    int length = vasprintf(&text, format, args);
    va_end(args);
    return length < 0 ? NULL : text;
}

/* Root gives the box an IPC namespace of its own, made here rather than by bubblewrap so that
   its limits can be set: System V memory belongs to no process, so the namespace holds at most
   the memory limit in shared memory, and little in queues. False where unshare is refused (a
   container without CAP_SYS_ADMIN): bubblewrap makes one then, with the kernel's limits. */
static bool own_ipc_namespace(const Box *box, const Options *o) {
    if (!box->drop || unshare(CLONE_NEWIPC) != 0) {
        return false;
    }
    long page = sysconf(_SC_PAGESIZE);
    long long bytes = o->memory_mb << 20;
    const struct {
        const char *name;
        long long value;
    } limits[] = {{"shmmax", bytes},
                  {"shmall", bytes / (page > 0 ? page : 4096)},
                  {"shmmni", 16},
                  {"msgmni", 16}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/sys/kernel/%s", limits[i].name);
        FILE *f = fopen(path, "we");
        if (f == NULL || fprintf(f, "%lld\n", limits[i].value) < 0 || fclose(f) != 0) {
            fprintf(stderr, "sandbox: cannot limit System V IPC (%s): %s\n", path, strerror(errno));
            _exit(125);
        }
    }
    return true;
}

static void exec_bwrap(const Box *box, const Options *o) {
    size_t program_words = 0;
    while (o->program[program_words] != NULL) {
        program_words++;
    }
    Words w = {calloc(120 + program_words, sizeof(char *)), 0};
    char links[6][256];
    char helper[] = "/box/" HELPER_NAME;
    if (w.items == NULL) {
        _exit(125);
    }
    /* The namespaces; the uid inside is nobody's (the kernel maps it to box->uid). */
    words(&w, "bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", NULL);
    if (!own_ipc_namespace(box, o)) {
        word(&w, "--unshare-ipc");
    }
    words(&w, "--unshare-uts", "--unshare-cgroup-try", "--disable-userns", NULL);
    words(&w, "--die-with-parent", "--new-session", "--hostname", "sandbox", NULL);
    words(&w, "--uid", "65534", "--gid", "65534", NULL);
    /* The file system: /usr and what links into it, read-only; /proc and /dev of its own; a
       private /tmp; the box at /box; then everything else read-only too. */
    words(&w, "--ro-bind", "/usr", "/usr", NULL);
    system_dirs(&w, links);
    words(&w, "--ro-bind-try", "/etc/alternatives", "/etc/alternatives", NULL);
    words(&w, "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", NULL);
    words(&w, "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev", NULL);
    words(&w, "--size", made("%lld", o->tmp_bytes), "--tmpfs", "/tmp", NULL);
    words(&w, "--ro-bind", box->path, "/box", "--chdir", "/box", "--remount-ro", "/", NULL);
    /* The helper inside: limits (one process more, bubblewrap's init), then the program. */
    words(&w, "--", helper, "--inner", made("%d", STARTED_FD), NULL);
    words(&w, "--memory", made("%lld", o->memory_mb), "--procs", made("%lld", o->procs + 1), NULL);
    words(&w, "--timeout", made("%.3f", o->timeout), "--file-size", made("%lld", o->file_size),
          NULL);
    words(&w, "--asan", o->asan ? "1" : "0", NULL);
    if (o->cpu > 0) {
        word(&w, "--cpu");
        word(&w, made("%.3f", o->cpu));
    }
    word(&w, "--");
    for (size_t i = 0; i < program_words; i++) {
        word(&w, o->program[i]);
    }
    w.items[w.count] = NULL;
    become(box);
    /* The started fd must survive exec into bubblewrap, and bubblewrap passes it on. */
    fcntl(STARTED_FD, F_SETFD, 0);
    execvp("bwrap", (char **)w.items);
    fprintf(stderr, "sandbox: cannot run bwrap (Debian package bubblewrap): %s\n", strerror(errno));
    _exit(125);
}

void box_prepare(const Box *box, const Options *o) {
    int keep[] = {RESULTS_FD, TOOL_LOG_FD, STARTED_FD};
    bool wanted[] = {o->results_file != NULL, o->tool_log_file != NULL, true};
    int from = 3;
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        if (!wanted[i]) {
            continue;
        }
        if (keep[i] > from) {
            close_range((unsigned)from, (unsigned)keep[i] - 1, 0);
        }
        from = keep[i] + 1;
    }
    close_range((unsigned)from, ~0u, 0);
    /* The environment: nothing of the caller's (it may hold secrets). */
    char home[sizeof box->path + 8];
    snprintf(home, sizeof home, "%s/tmp", box->path);
    clearenv();
    setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
    setenv("LC_ALL", "C", 1);
    setenv("HOME", o->isolation == ISOLATE_BWRAP ? "/tmp" : home, 1);
    setenv("TMPDIR", o->isolation == ISOLATE_BWRAP ? "/tmp" : home, 1);
}

void box_exec(const Box *box, const Options *o) {
    if (o->isolation == ISOLATE_BWRAP) {
        exec_bwrap(box, o);
    }
    if (chdir(box->path) != 0) {
        _exit(125);
    }
    become(box);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* after the uid change, which clears it */
    apply_limits(o);
    started();
    exec_program(o->program);
}

void box_inner_exec(const Options *o) {
    if (o->inner_fd != STARTED_FD) {
        fprintf(stderr, "sandbox: --inner is for the sandbox's own use\n");
        _exit(2);
    }
    apply_limits(o);
    started();
    exec_program(o->program);
}

/* ------------------------------------------------------------------ clean-up */

/* kill(-1, SIGKILL) in a child under the box's uid, waited for: every process that uid may
   signal, that is every process it owns, except the child itself. */
static void kill_as_box_uid(const Box *box) {
    pid_t helper = fork();
    if (helper == 0) {
        become(box);
        kill(-1, SIGKILL);
        _exit(0);
    }
    while (helper > 0 && waitpid(helper, NULL, 0) < 0 && errno == EINTR) {
    }
}

/* True when some process (a zombie included) has uid among its real, effective or saved
   uids. kill(-1) cannot tell: it succeeds whenever any other process exists. */
static bool uid_has_processes(uid_t uid) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) {
        return false;
    }
    bool found = false;
    struct dirent *entry;
    while (!found && (entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') {
            continue;
        }
        char text[2048];
        const char *line = tree_read_proc((pid_t)atoi(entry->d_name), "status", text, sizeof text)
                               ? strstr(text, "\nUid:")
                               : NULL;
        unsigned long ids[3];
        if (line != NULL && sscanf(line + 5, "%lu %lu %lu", &ids[0], &ids[1], &ids[2]) == 3) {
            found = ids[0] == uid || ids[1] == uid || ids[2] == uid;
        }
    }
    closedir(proc);
    return found;
}

/* Kills every process of the box's own uid; a box that keeps the caller's uid has none. */
static void kill_uid(const Box *box) {
    if (!box->drop) {
        return;
    }
    for (int round = 0; round < 1000 && uid_has_processes(box->uid); round++) {
        kill_as_box_uid(box);
        /* Zombies re-parented to us would keep the uid "alive": reap them. */
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (round > 0) {
            usleep(round < 50 ? 1000 : 10000);
        }
    }
}

typedef void (*Visit)(int parent, const char *name, void *context);

/* Calls visit() for each entry of the folder parent/name but "." and "..", the folder opened
   without following a symbolic link (nothing when it is no folder that can be opened). Walks
   below it hold one descriptor per level, which bounds their depth. */
static void each_entry(int parent, const char *name, Visit visit, void *context) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    if (dir == NULL) {
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0) {
            visit(dirfd(dir), entry->d_name, context);
        }
    }
    closedir(dir);
}

/* Removes path and everything under it, never following a symbolic link. */
static void remove_tree(int parent, const char *name, void *context) {
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        each_entry(parent, name, remove_tree, context);
        unlinkat(parent, name, AT_REMOVEDIR);
    } else {
        unlinkat(parent, name, 0);
    }
}

/* The folders every uid may write to, where a box at the user level can leave files. */
static const char *const shared_folders[] = {"/tmp", "/var/tmp", "/dev/shm", "/run/lock"};
enum { SHARED_FOLDERS = sizeof shared_folders / sizeof shared_folders[0] };

/* What sweep() walks: everything `uid` owns goes to found(). */
typedef struct {
    uid_t uid;
    int depth;
    Visit found;
    void *context;
} Sweep;

static void sweep_entry(int parent, const char *name, void *context) {
    const Sweep *w = context;
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return;
    }
    if (st.st_uid == w->uid) {
        w->found(parent, name, w->context);
    } else if (S_ISDIR(st.st_mode) && (st.st_mode & S_IWOTH) && (st.st_mode & S_IXOTH) &&
               w->depth > 0) {
        Sweep below = {w->uid, w->depth - 1, w->found, w->context};
        each_entry(parent, name, sweep_entry, &below);
    }
}

/* Calls found() for everything uid owns below folder, looking where uid could have written:
   folders anyone may write to (as /tmp itself), at most SWEEP_DEPTH levels down. A
   world-writable folder below one that is not is left alone: finding it would mean walking
   all of /tmp. */
static void sweep(const char *folder, uid_t uid, Visit found, void *context) {
    Sweep top = {uid, SWEEP_DEPTH, found, context};
    each_entry(AT_FDCWD, folder, sweep_entry, &top);
}

/* System V shared memory, semaphores and message queues outlive their creator. An object
   belongs to the box when the box's uid created it (cuid, which IPC_SET cannot change) or
   owns it (uid, which IPC_SET can give away to anyone, root included). Columns of
   /proc/sysvipc/NAME: shm  key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime
   ctime rss swap; sem  key semid perms nsems uid gid cuid; msg  key msqid perms cbytes qnum
   lspid lrpid uid gid cuid. */
typedef enum { IPC_SHM, IPC_SEM, IPC_MSG, IPC_TABLES } IpcTable;

typedef struct {
    const char *path;
    int uid, cuid, bytes[2]; /* column numbers; bytes: the memory it holds (-1: none) */
} IpcColumns;

static const IpcColumns ipc_columns[IPC_TABLES] = {
    [IPC_SHM] = {"/proc/sysvipc/shm", 7, 9, {14, 15}},
    [IPC_SEM] = {"/proc/sysvipc/sem", 4, 6, {-1, -1}},
    [IPC_MSG] = {"/proc/sysvipc/msg", 7, 9, {3, -1}},
};

#define IPC_COLUMNS 16

/* Calls visit(table, id) for every object of uid's; returns the bytes they hold. */
static double each_ipc(uid_t uid, void (*visit)(IpcTable, int)) {
    double total = 0;
    for (IpcTable t = 0; t < IPC_TABLES; t++) {
        const IpcColumns *c = &ipc_columns[t];
        if (visit == NULL && c->bytes[0] < 0) {
            continue; /* only counting bytes (every sample): a table that holds none */
        }
        FILE *f = fopen(c->path, "re");
        if (f == NULL) {
            continue;
        }
        char line[512];
        const char *header = fgets(line, sizeof line, f); /* skipped */
        while (header != NULL && fgets(line, sizeof line, f) != NULL) {
            long long v[IPC_COLUMNS];
            int n = 0;
            for (char *at = line, *end; n < IPC_COLUMNS; at = end, n++) {
                v[n] = strtoll(at, &end, 10);
                if (end == at) {
                    break;
                }
            }
            if (n <= c->cuid || (v[c->uid] != (long long)uid && v[c->cuid] != (long long)uid)) {
                continue;
            }
            for (int b = 0; b < 2; b++) {
                total += c->bytes[b] >= 0 && c->bytes[b] < n ? (double)v[c->bytes[b]] : 0;
            }
            if (visit != NULL) {
                visit(t, (int)v[1]);
            }
        }
        fclose(f);
    }
    return total;
}

static void remove_ipc_object(IpcTable table, int id) {
    if (table == IPC_SHM) {
        shmctl(id, IPC_RMID, NULL);
    } else if (table == IPC_SEM) {
        semctl(id, 0, IPC_RMID);
    } else {
        msgctl(id, IPC_RMID, NULL);
    }
}

double box_ipc_mb(const Box *box, const Options *o) {
    if (o->isolation != ISOLATE_USER || !box->drop) {
        return 0; /* bubblewrap's IPC namespace ends with the box */
    }
    return each_ipc(box->uid, NULL) / (1024.0 * 1024.0);
}

/* The files the box holds. Past TALLY_ENTRIES files the count stops and the box is taken to
   be over the limit: an honest check writes no file. */
enum { TALLY_ENTRIES = 20000 };

typedef struct {
    double bytes;
    long entries;
} Tally;

/* Adds the blocks of name and of everything below it, links not followed. */
static void tally_tree(int parent, const char *name, void *context) {
    Tally *t = context;
    struct stat st;
    if (t->entries >= TALLY_ENTRIES || fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return;
    }
    t->entries++;
    t->bytes += (double)st.st_blocks * 512;
    if (S_ISDIR(st.st_mode)) {
        each_entry(parent, name, tally_tree, t);
    }
}

double box_files_bytes(const Box *box, const Options *o) {
    if (o->isolation != ISOLATE_USER || !box->drop) {
        return 0; /* bubblewrap's /tmp is a tmpfs of --tmp-size; its /dev/shm is read-only */
    }
    Tally t = {0, 0};
    for (size_t i = 0; i < SHARED_FOLDERS; i++) {
        sweep(shared_folders[i], box->uid, tally_tree, &t);
    }
    tally_tree(AT_FDCWD, box->path, &t);
    return t.entries >= TALLY_ENTRIES ? HUGE_VAL : t.bytes + tree_unlinked_bytes();
}

void box_destroy(const Box *box, const Options *o) {
    if (box->path[0] == '\0') {
        return;
    }
    kill_uid(box);
    remove_tree(AT_FDCWD, box->path, NULL);
    if (o->isolation == ISOLATE_USER && box->drop) {
        for (size_t i = 0; i < SHARED_FOLDERS; i++) {
            sweep(shared_folders[i], box->uid, remove_tree, NULL);
        }
        each_ipc(box->uid, remove_ipc_object);
    }
}
