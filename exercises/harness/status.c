/* status.c: the status lines of status.h, the reading of sanitizer reports behind them, and
 * the few steps both supervisors take the same way.
 *
 * A sanitizer report is many lines; a status is one. So a report is cut to the words a
 * student can act on: the sanitizer's name and the kind of error, never the addresses
 * (which change from run to run, and would make two runs of the same fault differ).
 */
#define _GNU_SOURCE /* pipe2 */

#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* "SIGSEGV" for SIGSEGV, ...; NULL for a signal without a name here ("crashed: signal N").
   A table of our own, not glibc's sigabbrev_np: that one is glibc 2.32 and later, and this
   file is compiled into every student's build, on machines we do not choose. */
static const char *signal_name(int signo) {
    static const struct {
        int number;
        const char *name;
    } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
                 {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"},
                 {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"},
                 {SIGHUP, "SIGHUP"},   {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},
                 {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"},
                 {SIGXFSZ, "SIGXFSZ"}, {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (names[i].number == signo) {
            return names[i].name;
        }
    }
    return NULL;
}

void status_cpu(char *out, size_t size, double seconds) {
    snprintf(out, size, "timed out after %g s of CPU time", seconds);
}

void status_wall(char *out, size_t size, double seconds, double cpu) {
    if (cpu >= 0) {
        snprintf(out, size, "timed out after %g s of wall-clock time (%.2f s of CPU time)", seconds,
                 cpu);
    } else {
        snprintf(out, size, "timed out after %g s of wall-clock time", seconds);
    }
}

void status_output(char *out, size_t size, long long bytes, const char *what) {
    snprintf(out, size, "output limit: more than %lld bytes%s", bytes, what);
}

void status_memory(char *out, size_t size, long long mb, const char *what) {
    snprintf(out, size, "memory limit: more than %lld MB%s", mb, what);
}

/* ------------------------------------------------------------------ sanitizer reports */

void status_copy_until(char *out, size_t size, const char *text, const char *const *stops) {
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
    memcpy(out, text, n);
    out[n] = '\0';
}

/* "==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x..." or
   "==42==AddressSanitizer: hard rss limit exhausted (256Mb vs 281Mb)" -> "AddressSanitizer:
   heap-buffer-overflow". A bad free keeps its words ("attempting free on address which was
   not malloc()-ed"): only a following address is cut. WARNING lines are not reports. */
static bool sanitizer_error(const char *line, char *out, size_t size) {
    static const char *const cut[] = {" on address 0x", " on unknown address",
                                      " on 0x",         ": 0x",
                                      " at pc",         " (",
                                      " in thread",     NULL};
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
    status_copy_until(out, size, start, cut);
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
    status_copy_until(message, sizeof message, marker + strlen(": runtime error: "), none);
    snprintf(out, size, "UndefinedBehaviorSanitizer: %s (%.*s)", message,
             (int)(marker - file > 100 ? 100 : marker - file), file);
    return true;
}

/* The first sanitizer report in stderr_text, into out; sets *is_leak when it is a leak. False
   when there is none. */
static bool sanitizer_report(const char *stderr_text, char *out, size_t size, bool *is_leak) {
    bool leaks = false;
    *is_leak = false;
    char line[1024];
    for (const char *p = stderr_text; *p != '\0';) {
        size_t length = strcspn(p, "\n");
        size_t kept = length < sizeof line ? length : sizeof line - 1;
        memcpy(line, p, kept);
        line[kept] = '\0';
        if (leaks && leak_summary(line, out, size)) {
            *is_leak = true;
            return true;
        }
        if (!leaks && strstr(line, "ERROR: LeakSanitizer: detected memory leaks") != NULL) {
            leaks = true;
            snprintf(out, size, "leaked memory (LeakSanitizer)");
        } else if (!leaks && (sanitizer_error(line, out, size) || ubsan_error(line, out, size))) {
            return true;
        }
        p += length + (p[length] == '\n');
    }
    *is_leak = leaks;
    return leaks; /* a leak report without its summary still counts */
}

void status_verdict(char *out, size_t size, const char *stderr_text, const char *limit, int signo,
                    int code, bool returned) {
    char report[256];
    bool is_leak = false;
    bool has_report = sanitizer_report(stderr_text, report, sizeof report, &is_leak);
    /* A sanitizer's error report, the limit, a leak report: the first there is. */
    const char *first = has_report && !is_leak ? report
                        : limit[0] != '\0'     ? limit
                        : has_report           ? report
                                               : NULL;
    if (first != NULL) {
        snprintf(out, size, "%s", first);
    } else if (signal_name(signo) != NULL) {
        snprintf(out, size, "crashed: %s", signal_name(signo));
    } else if (signo != 0) {
        snprintf(out, size, "crashed: signal %d", signo);
    } else if (code != 0 || !returned) {
        snprintf(out, size, "exit %d", code);
    } else {
        snprintf(out, size, "ok");
    }
}

/* ------------------------------------------------------------ what both supervisors do alike */

double status_clock(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

double status_rusage_seconds(const struct rusage *u) {
    return (double)u->ru_utime.tv_sec + (double)u->ru_utime.tv_usec / 1e6 +
           (double)u->ru_stime.tv_sec + (double)u->ru_stime.tv_usec / 1e6;
}

void status_limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit r = {soft, hard};
    setrlimit(resource, &r);
}

void status_stdin_null(void) {
    int fd = open("/dev/null", O_RDONLY);
    if (fd > STDIN_FILENO) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
}

static int wake_fd = -1; /* the write end of status_wake_on_sigchld's pipe */

static void on_sigchld(int signo) {
    (void)signo;
    int saved = errno;
    ssize_t ignored = write(wake_fd, "x", 1);
    (void)ignored;
    errno = saved;
}

bool status_wake_on_sigchld(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        return false;
    }
    wake_fd = fds[1];
    struct sigaction sa = {.sa_handler = on_sigchld, .sa_flags = SA_RESTART | SA_NOCLDSTOP};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    return true;
}

void status_wake_drain(int fd) {
    char sink[64];
    while (read(fd, sink, sizeof sink) > 0) {
    }
}
