/* seal.c: the system-call filter of a sealed case (seal.h).
 *
 * A case shares its box with the cases run after it. Whatever it could leave there would
 * reach them: a file with answers worked out on its own CPU time (so a later case's limit
 * means less than in a box of its own), a process still running, a System V object, a changed
 * parent. The filter ends the case (SIGSYS, a crash) at the first call that could leave such a
 * thing, so that only what dies with the process is left to do:
 *
 * - No process of its own: fork, vfork, and clone without CLONE_THREAD (threads end with the
 *   process); clone3 answers ENOSYS, so that the C library falls back to clone, which can be
 *   read. (LeakSanitizer's exit check clones a tracer, so a case that ends with memory in
 *   use is ended here too.)
 * - Nothing on the file system: no file made (open with O_CREAT or O_TMPFILE, creat, mkdir,
 *   mknod, link, symlink, rename, a socket), no owner, mode, time or extended attribute
 *   changed. The only files it can write are the three its parent opened for it (its
 *   answers and output), which the parent takes away when it ends.
 * - Nothing kept by the kernel: no System V object, POSIX message queue, namespace, mount or
 *   io_uring (whose operations no filter sees). The kernel's keys, the sandbox's filter refuses.
 * - No other process touched: no ptrace, process_vm_*, priorities (which reach every process
 *   of the uid), and the calls that name a process (signals, affinity, scheduling, limits,
 *   pidfds) only for itself (0 or its own pid). The
 *   parent is not dumpable, so its /proc files are closed to the case as well.
 *
 * Whatever the filter stops, the grader runs that case again in a box of its own: a stopped
 * case costs time, never a verdict.
 */
#define _GNU_SOURCE

#include "seal.h"
#include "seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __O_TMPFILE
#define __O_TMPFILE 020000000
#endif

enum { MAX_STATEMENTS = 256 };

typedef struct {
    struct sock_filter code[MAX_STATEMENTS];
    unsigned short length; /* may pass MAX_STATEMENTS: see emit() */
} Filter;

/* Counts past MAX_STATEMENTS without writing there, so that seal_case() can refuse. */
static void emit(Filter *f, struct sock_filter statement) {
    if (f->length < MAX_STATEMENTS) {
        f->code[f->length] = statement;
    }
    f->length++;
}

/* One statement, as a value. */
#define STMT(code, k) ((struct sock_filter)BPF_STMT((code), (k)))
#define JUMP(code, k, yes, no) ((struct sock_filter)BPF_JUMP((code), (k), (yes), (no)))
#define RETURN(action) STMT(BPF_RET | BPF_K, (action))
#define KILL RETURN(SECCOMP_RET_KILL_PROCESS)
#define ALLOW RETURN(SECCOMP_RET_ALLOW)
#define LOAD(offset) STMT(BPF_LD | BPF_W | BPF_ABS, (offset))
#define IF_EQUAL(k, yes, no) JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(k), (yes), (no))
#define IF_ANY_BIT(k, yes, no) JUMP(BPF_JMP | BPF_JSET | BPF_K, (uint32_t)(k), (yes), (no))
/* With the call's number in the accumulator: the next `skip` statements are for call nr. */
#define IS_CALL(nr, skip) IF_EQUAL((nr), 0, (skip))

/* The calls that end the case whatever their arguments. */
static const long refused[] = {
#ifdef SYS_fork
    SYS_fork,
    SYS_vfork,
#endif
#ifdef SYS_creat
    SYS_creat,
    SYS_mkdir,
    SYS_mknod,
    SYS_link,
    SYS_symlink,
    SYS_rename,
    SYS_chmod,
    SYS_chown,
    SYS_lchown,
    SYS_utime,
    SYS_utimes,
    SYS_futimesat,
#endif
    SYS_mkdirat,
    SYS_mknodat,
    SYS_linkat,
    SYS_symlinkat,
    SYS_renameat2,
    SYS_fchmod,
    SYS_fchmodat,
    SYS_fchown,
    SYS_fchownat,
    SYS_utimensat,
    SYS_setxattr,
    SYS_lsetxattr,
    SYS_fsetxattr,
    SYS_removexattr,
    SYS_lremovexattr,
    SYS_fremovexattr,
    SYS_openat2,
    SYS_socket,
    SYS_socketpair,
    SYS_shmget,
    SYS_semget,
    SYS_msgget,
    SYS_mq_open,
    SYS_io_uring_setup,
    SYS_unshare,
    SYS_setns,
    SYS_mount,
    SYS_umount2,
    SYS_pivot_root,
    SYS_ptrace,
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_perf_event_open,
    SYS_setpgid,
    SYS_setsid,
    SYS_setpriority,
    SYS_ioprio_set,
#ifdef SYS_renameat
    SYS_renameat,
#endif
};

/* The calls that name a process in their first argument: allowed for 0 (the caller) and its
   own pid only. */
static const long on_self[] = {
    SYS_kill,
    SYS_tkill,
    SYS_tgkill,
    SYS_rt_sigqueueinfo,
    SYS_rt_tgsigqueueinfo,
    SYS_pidfd_open,
    SYS_prlimit64,
    SYS_sched_setaffinity,
    SYS_sched_setscheduler,
    SYS_sched_setparam,
    SYS_sched_setattr,
    SYS_migrate_pages,
    SYS_move_pages,
};

/* The calls that make a file when a flag is set in one argument. */
static const struct {
    long nr;
    int arg;
} opening[] = {
#ifdef SYS_open
    {SYS_open, 1},
#endif
    {SYS_openat, 2},
};

static void build(Filter *f, uint32_t self) {
    emit(f, LOAD(offsetof(struct seccomp_data, arch)));
    emit(f, IF_EQUAL(BOX_AUDIT_ARCH, 1, 0));
    emit(f, KILL);
    emit(f, LOAD(offsetof(struct seccomp_data, nr)));
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        emit(f, IS_CALL(refused[i], 1));
        emit(f, KILL);
    }
    emit(f, IS_CALL(SYS_clone3, 1));
    emit(f, RETURN(SECCOMP_RET_ERRNO | ENOSYS));
    emit(f, IS_CALL(SYS_clone, 4)); /* clone(flags, ...) on both architectures */
    emit(f, LOAD(ARG_LOW(0)));
    emit(f, IF_ANY_BIT(CLONE_THREAD, 1, 0));
    emit(f, KILL);
    emit(f, ALLOW);
    for (size_t i = 0; i < sizeof opening / sizeof opening[0]; i++) {
        emit(f, IS_CALL(opening[i].nr, 4));
        emit(f, LOAD(ARG_LOW(opening[i].arg)));
        emit(f, IF_ANY_BIT(O_CREAT | __O_TMPFILE, 0, 1));
        emit(f, KILL);
        emit(f, ALLOW);
    }
    for (size_t i = 0; i < sizeof on_self / sizeof on_self[0]; i++) {
        emit(f, IS_CALL(on_self[i], 5));
        emit(f, LOAD(ARG_LOW(0)));
        emit(f, IF_EQUAL(0, 2, 0));
        emit(f, IF_EQUAL(self, 1, 0));
        emit(f, KILL);
        emit(f, ALLOW);
    }
    emit(f, ALLOW);
}

void seal_case(void) {
    static Filter filter;
    filter.length = 0;
    build(&filter, (uint32_t)getpid());
    struct sock_fprog program = {filter.length, filter.code};
    if (filter.length > MAX_STATEMENTS) {
        fprintf(stderr, "seal: the filter has %u statements, more than %d\n", filter.length,
                MAX_STATEMENTS);
        _exit(125);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        fprintf(stderr, "seal: cannot install the sealed case's filter: %s\n", strerror(errno));
        _exit(125);
    }
}
