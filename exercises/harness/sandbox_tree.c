/* sandbox_tree.c: the supervised process tree, seen from outside through /proc.
 *
 * A verdict must not depend on how busy the machine is, so the sandbox limits CPU time, not
 * wall-clock time, and it limits it for the whole tree: a program that forks ten workers
 * spends ten times the CPU. RLIMIT_CPU cannot do that (it is per process and counts whole
 * seconds), so the sandbox samples /proc a few times a second and adds up every descendant:
 * user + system time of the live ones (utime, stime in /proc/PID/stat), plus what their
 * reaped children left in cutime/cstime, plus what we reaped ourselves (wait4's rusage).
 *
 * "Descendant" is exact because the sandbox is a child subreaper (PR_SET_CHILD_SUBREAPER):
 * a process whose parent dies is re-parented to us, never to init, so setsid() and double
 * forks cannot leave the tree. Inside bubblewrap's PID namespace, orphans go to the
 * namespace's init, which is in the tree too.
 *
 * The same sample tells whether anything is still running: processes in state R (runnable,
 * waiting for a CPU on a busy machine counts) or D (disk wait, long on a busy disk) are making
 * progress; S (sleeping), T/t (stopped by a signal or a tracer) and a D that waits for its
 * vfork() child (which may sleep for ever: the wait's kernel function, /proc/PID/wchan, says
 * which D it is) are not. sandbox.c turns "nothing
 * running for a while" into a quick verdict instead of waiting for the wall-clock backstop.
 *
 * The same sample adds up the tree's resident memory: RLIMIT_AS is per process (16 forks may
 * each use the limit) and an ASan program has none (ASan's own watcher, which it can switch
 * off by executing itself with options of its own, caps it), so the tree's total is watched
 * here too (sandbox.c allows it a margin over --memory: ASan's verdict comes first). At the
 * user level the box's files are watched beside it (sandbox_box.c); the unlinked ones the
 * tree holds open are found here, from its processes' descriptors.
 *
 * Cost: one read of /proc/PID/stat per process on the machine per sample (a few hundred
 * small reads, well under a millisecond of CPU at 10 samples a second).
 */
#define _DEFAULT_SOURCE /* POSIX 2008: O_CLOEXEC, dirfd, fstatat */

#include "sandbox.h"
#include "status.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    pid_t pid;
    pid_t ppid;
    char state;
    double cpu; /* own user + system, plus reaped children's */
    long rss;   /* resident pages */
    bool mine;  /* a descendant of the sandbox */
} Proc;

typedef struct {
    Proc *items;
    size_t count;
    size_t capacity;
} ProcList;

static double ticks_to_seconds(unsigned long long ticks) {
    long hz = sysconf(_SC_CLK_TCK);
    return (double)ticks / (double)(hz > 0 ? hz : 100);
}

bool tree_read_proc(pid_t pid, const char *name, char *text, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    ssize_t n = read(fd, text, size - 1);
    close(fd);
    text[n > 0 ? n : 0] = '\0';
    return n > 0;
}

/* Parses /proc/PID/stat. The command name is in parentheses and may hold anything,
   spaces and ')' included, so the fields are read after the LAST ')'. */
static bool read_stat(pid_t pid, Proc *p) {
    char text[1024];
    if (!tree_read_proc(pid, "stat", text, sizeof text)) {
        return false;
    }
    char *close_paren = strrchr(text, ')');
    if (close_paren == NULL) {
        return false;
    }
    int ppid;
    unsigned long long utime, stime;
    long long cutime, cstime;
    long rss;
    char state;
    if (sscanf(close_paren + 1,
               " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld %*d %*d %*d %*d %*u"
               " %*u %ld",
               &state, &ppid, &utime, &stime, &cutime, &cstime, &rss) != 7) {
        return false;
    }
    p->rss = rss;
    p->pid = pid;
    p->ppid = (pid_t)ppid;
    p->state = state;
    p->cpu = ticks_to_seconds(utime + stime + (unsigned long long)(cutime + cstime));
    p->mine = false;
    return true;
}

/* A process in D inside vfork(), waiting for its child to exec or exit (the kernel function
   it waits in, by the names it has had). */
static bool waits_for_vfork(pid_t pid) {
    char text[64];
    tree_read_proc(pid, "wchan", text, sizeof text);
    return strcmp(text, "kernel_clone") == 0 || strcmp(text, "_do_fork") == 0 ||
           strcmp(text, "do_fork") == 0;
}

static void push(ProcList *list, const Proc *p) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity == 0 ? 512 : list->capacity * 2;
        Proc *items = realloc(list->items, capacity * sizeof *items);
        if (items == NULL) {
            return; /* a sample missing some processes is still a sample */
        }
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = *p;
}

/* Every process on the machine, with the descendants of this one marked `mine`. */
static void scan(ProcList *list) {
    list->count = 0;
    DIR *dir = opendir("/proc");
    if (dir == NULL) {
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (!isdigit((unsigned char)entry->d_name[0])) {
            continue;
        }
        Proc p;
        if (read_stat((pid_t)atoi(entry->d_name), &p)) {
            push(list, &p);
        }
    }
    closedir(dir);
    /* Mark descendants: repeat until no new one is found (trees are shallow). */
    pid_t self = getpid();
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < list->count; i++) {
            Proc *p = &list->items[i];
            if (p->mine || p->pid == self) {
                continue;
            }
            bool parent_mine = p->ppid == self;
            for (size_t j = 0; !parent_mine && j < list->count; j++) {
                parent_mine = list->items[j].mine && list->items[j].pid == p->ppid;
            }
            if (parent_mine) {
                p->mine = changed = true;
            }
        }
    }
}

static ProcList sample;

void tree_state(TreeState *state) {
    scan(&sample);
    state->cpu = 0;
    state->rss_mb = 0;
    state->processes = state->running = state->stopped = 0;
    long page = sysconf(_SC_PAGESIZE);
    double page_mb = (double)(page > 0 ? page : 4096) / (1024.0 * 1024.0);
    for (size_t i = 0; i < sample.count; i++) {
        const Proc *p = &sample.items[i];
        if (!p->mine) {
            continue;
        }
        state->cpu += p->cpu;
        state->rss_mb += (double)p->rss * page_mb;
        state->processes++;
        if (p->state == 'R' || (p->state == 'D' && !waits_for_vfork(p->pid))) {
            state->running++;
        } else if (p->state == 'T' || p->state == 't') {
            state->stopped++;
        }
    }
}

double tree_unlinked_bytes(void) {
    double bytes = 0;
    for (size_t i = 0; i < sample.count; i++) {
        if (!sample.items[i].mine) {
            continue;
        }
        char folder[64];
        snprintf(folder, sizeof folder, "/proc/%d/fd", (int)sample.items[i].pid);
        DIR *dir = opendir(folder);
        if (dir == NULL) {
            continue;
        }
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            /* stat follows the link to what it names, unlinked or not. */
            struct stat st;
            if (entry->d_name[0] != '.' && fstatat(dirfd(dir), entry->d_name, &st, 0) == 0 &&
                S_ISREG(st.st_mode) && st.st_nlink == 0) {
                bytes += (double)st.st_blocks * 512;
            }
        }
        closedir(dir);
    }
    return bytes;
}

void tree_reap(Child *child) {
    for (;;) {
        int status;
        struct rusage usage;
        pid_t pid = wait4(-1, &status, WNOHANG, &usage);
        if (pid <= 0) {
            return;
        }
        child->reaped_cpu += status_rusage_seconds(&usage);
        if (pid == child->pid) {
            child->done = true;
            child->status = status;
        }
    }
}

void tree_kill_all(Child *child) {
    /* Each round kills what it sees; the children of a killed process come back to us and
       are seen by the next round. A stubborn tree (a fork bomb racing us) takes a few
       rounds; one in uninterruptible sleep takes as long as the kernel needs. */
    for (int round = 0; round < 100000; round++) {
        tree_reap(child);
        scan(&sample);
        int left = 0;
        for (size_t i = 0; i < sample.count; i++) {
            if (sample.items[i].mine) {
                kill(sample.items[i].pid, SIGKILL);
                left++;
            }
        }
        if (left == 0) {
            return;
        }
        struct timespec pause = {0, round < 100 ? 200000 : 5000000};
        nanosleep(&pause, NULL);
    }
}
