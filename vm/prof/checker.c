/* checker.c: running one case of a checker under the sandbox (see checker.h).
 *
 * Everything a run needs lives in one private folder (mkdtemp): the cases
 * file, the answers, the checker's stdout and stderr, and the sandbox's own
 * status line. The sandbox copies the cases file into a fresh working folder
 * of its own (--file) and starts the checker there, which is why the
 * checker's path is made absolute first. The answers reach dripprof through
 * the sandbox's results channel (fd 3, written to a file once every process
 * of the run is gone), so nothing the function prints can mix with them.
 *
 * The sandbox's verdict comes first: a crash or a timeout is the function's
 * failure, whatever it answered before. Then the answers must end with the
 * line "end<TAB>ok": without it, the run stopped early (exit() in the
 * function, or a checker that refused the case; its stderr says which).
 */
#define _GNU_SOURCE /* mkdtemp, realpath, posix_spawn */
#include "checker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slurp.h"
#include "tsv.h"

extern char **environ;

/* The files of a run, inside the case's folder. */
static const char *const run_files[] = {"cases.tsv", "answers.tsv", "stdout",
                                        "stderr",    "status",      "sandbox.err"};

/* Lines of the checker's stderr shown under a message about a failed run. */
enum { STDERR_TAIL_LINES = 3 };

int checker_fail(const Checker *checker, int status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "dripprof %s: %s() from %s ", checker->command, checker->function,
            checker->program);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    if (status == CHECKER_NOT_READY) {
        fprintf(stderr,
                "  fix it (the exercise's own tests show where), rebuild %s, run this again\n",
                checker->program);
    } else if (status == CHECKER_OFF_PROTOCOL) {
        fprintf(stderr, "  is %s a checker for this dripprof? (the protocol: vm/prof/README.md)\n",
                checker->program);
    }
    return status;
}

/* A message about the run itself (no function in it). */
static int run_fail(const Checker *checker, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int run_fail(const Checker *checker, int status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "dripprof %s: ", checker->command);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return status;
}

static void path_in(const CheckerCase *c, const char *file, char *path, size_t size) {
    snprintf(path, size, "%s/%s", c->folder, file);
}

int checker_open(const Checker *checker, CheckerCase *c, const char *name) {
    const char *tmp = getenv("TMPDIR");
    snprintf(c->folder, sizeof c->folder, "%s/dripprof.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    snprintf(c->name, sizeof c->name, "%s", name);
    c->cases = NULL;
    if (mkdtemp(c->folder) == NULL) {
        return run_fail(checker, CHECKER_CANNOT_RUN, "cannot make a temporary folder %s: %s",
                        c->folder, strerror(errno));
    }
    char path[sizeof c->folder + 32];
    path_in(c, "cases.tsv", path, sizeof path);
    c->cases = fopen(path, "w");
    if (c->cases == NULL) {
        int status =
            run_fail(checker, CHECKER_CANNOT_RUN, "cannot write %s: %s", path, strerror(errno));
        rmdir(c->folder);
        return status;
    }
    return 0;
}

void checker_field(CheckerCase *c, const char *key, const char *text, size_t length,
                   const char *suffix) {
    tsv_field(c->cases, c->name, strlen(c->name));
    fputc('\t', c->cases);
    tsv_field(c->cases, key, strlen(key));
    fputc('\t', c->cases);
    tsv_field(c->cases, text, length);
    if (suffix != NULL) {
        tsv_field(c->cases, suffix, strlen(suffix));
    }
    fputc('\n', c->cases);
}

static void remove_folder(const CheckerCase *c) {
    char path[sizeof c->folder + 32];
    for (size_t i = 0; i < sizeof run_files / sizeof run_files[0]; i++) {
        path_in(c, run_files[i], path, sizeof path);
        unlink(path);
    }
    rmdir(c->folder);
}

/* The file of the run, whole (NULL when it is missing). */
static char *read_run_file(const CheckerCase *c, const char *file, size_t *length) {
    char path[sizeof c->folder + 32];
    path_in(c, file, path, sizeof path);
    FILE *in = fopen(path, "rb");
    char *text = in ? slurp(in, length) : NULL;
    if (in != NULL) {
        fclose(in);
    }
    return text;
}

/* The CPU seconds for the run: DRIPPROF_CPU_SECONDS or CHECKER_CPU_SECONDS; NULL after a
 * message when the variable is not a number of seconds. */
static const char *cpu_seconds(const Checker *checker) {
    const char *text = getenv("DRIPPROF_CPU_SECONDS");
    if (text == NULL || *text == '\0') {
        return CHECKER_CPU_SECONDS;
    }
    char *end;
    double seconds = strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds > 0 && seconds < 1e6)) {
        run_fail(checker, 2,
                 "DRIPPROF_CPU_SECONDS wants seconds above 0 (e.g. 60 or 0.5), not '%s'", text);
        return NULL;
    }
    return text;
}

/* The sandbox to run: --sandbox, or harness/sandbox in dripprof's own folder
 * (build/dripprof -> build/harness/sandbox). 0, or an exit status after the message. */
static int find_sandbox(const Checker *checker, char *path, size_t size) {
    if (checker->sandbox != NULL) {
        snprintf(path, size, "%s", checker->sandbox);
    } else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
        }
        snprintf(path, size, "%s/harness/sandbox", n > 0 ? self : ".");
    }
    if (access(path, X_OK) != 0) {
        return run_fail(checker, CHECKER_CANNOT_RUN,
                        "no sandbox at %s (%s): run make sandbox, or name one with --sandbox PATH",
                        path, strerror(errno));
    }
    return 0;
}

/* The checker as an absolute path (the sandbox starts it in a folder of its own). */
static int find_checker(const Checker *checker, char *path) {
    struct stat info;
    const char *why = NULL;
    if (realpath(checker->program, path) == NULL || stat(path, &info) != 0) {
        why = strerror(errno);
    } else if (S_ISDIR(info.st_mode)) {
        why = "it is a directory";
    } else if (access(path, X_OK) != 0) {
        why = "it is not executable";
    }
    if (why != NULL) {
        return run_fail(checker, CHECKER_CANNOT_RUN, "cannot run the checker %s: %s",
                        checker->program, why);
    }
    return 0;
}

/* Runs the sandbox with its stdout (the status line) and stderr in files of the folder.
 * Returns its exit status (128 + N when a signal N ended it), or -1 with errno set. */
static int spawn_sandbox(const CheckerCase *c, char *const argv[]) {
    char status_path[sizeof c->folder + 32], error_path[sizeof c->folder + 32];
    path_in(c, "status", status_path, sizeof status_path);
    path_in(c, "sandbox.err", error_path, sizeof error_path);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, status_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, error_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int error = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    int status;
    if (error != 0) {
        errno = error;
        return -1;
    }
    if (waitpid(pid, &status, 0) != pid) {
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first line of text, without its newline (text is changed). */
static char *first_line(char *text) {
    text[strcspn(text, "\n")] = '\0';
    return text;
}

/* Prints the last lines of the checker's stderr, indented, under a message. */
static void show_stderr_tail(const CheckerCase *c) {
    size_t length;
    char *text = read_run_file(c, "stderr", &length);
    while (text != NULL && length > 0 && text[length - 1] == '\n') {
        text[--length] = '\0';
    }
    if (text == NULL || length == 0) {
        free(text);
        return;
    }
    size_t start = length, lines = 0;
    while (start > 0 && lines < STDERR_TAIL_LINES) {
        start--;
        lines += text[start] == '\n';
    }
    const char *tail = text + start + (text[start] == '\n');
    fprintf(stderr, "  its stderr ends:\n");
    for (char *line = strtok((char *)tail, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        fprintf(stderr, "    %s\n", line);
    }
    free(text);
}

/* What a crash means, for the message. */
static const char *signal_meaning(const char *verdict) {
    static const char *const meanings[][2] = {
        {"SIGSEGV", "a bad pointer, or endless recursion"},
        {"SIGBUS", "a bad pointer"},
        {"SIGFPE", "a division by zero"},
        {"SIGABRT", "abort(): a failed assert, or a bad free"},
    };
    for (size_t i = 0; i < sizeof meanings / sizeof meanings[0]; i++) {
        if (strstr(verdict, meanings[i][0]) != NULL) {
            return meanings[i][1];
        }
    }
    return NULL;
}

/* The sandbox's verdict about a run that did not end normally: an exit status after the
 * message, or 0 when the answers decide (ok, exit N, or only a leak). */
static int judge_verdict(const Checker *checker, const CheckerCase *c, const char *verdict,
                         const char *cpu) {
    if (strcmp(verdict, "ok") == 0 || strncmp(verdict, "exit ", 5) == 0 ||
        strncmp(verdict, "leaked ", 7) == 0) {
        return 0;
    }
    int status;
    const char *meaning = signal_meaning(verdict);
    if (strncmp(verdict, "crashed: ", 9) == 0) {
        status = checker_fail(checker, CHECKER_NOT_READY, "crashed (%s%s%s)", verdict + 9,
                              meaning ? ": " : "", meaning ? meaning : "");
    } else if (strstr(verdict, "of CPU time") != NULL) {
        status = checker_fail(checker, CHECKER_NOT_READY,
                              "did not finish in %s s of CPU time (an endless loop?); "
                              "DRIPPROF_CPU_SECONDS=N gives it N seconds",
                              cpu);
    } else if (strncmp(verdict, "output limit", 12) == 0) {
        status = checker_fail(checker, CHECKER_NOT_READY,
                              "printed too much (%s; a printf left in the function?)", verdict);
    } else if (strncmp(verdict, "sandbox error", 13) == 0) {
        status = run_fail(checker, CHECKER_CANNOT_RUN, "the sandbox could not run %s: %s",
                          checker->program, verdict);
    } else {
        status = checker_fail(checker, CHECKER_NOT_READY, "did not finish: %s", verdict);
    }
    show_stderr_tail(c);
    return status;
}

/* Unescapes text in place: false for a bad escape, or one that makes a NUL (no name or
 * answer holds one, and the rest of dripprof reads them as C strings). */
static bool unescaped(char *text) {
    long length = tsv_unescape(text);
    return length >= 0 && (size_t)length == strlen(text);
}

/* Splits the answers file into answers. 0, or an exit status after the message; *ended
 * says whether the end line came (it must be the last line). */
static int parse_answers(const Checker *checker, char *text, CheckerAnswers *out, bool *ended) {
    size_t lines = 1;
    for (const char *p = text; *p; p++) {
        lines += *p == '\n';
    }
    out->answers = calloc(lines, sizeof *out->answers);
    out->count = 0;
    *ended = false;
    if (out->answers == NULL) {
        return run_fail(checker, 1, "out of memory");
    }
    size_t number = 0;
    for (char *line = text, *next; *line != '\0'; line = next) {
        number++;
        next = line + strcspn(line, "\n");
        next += *next == '\n' ? (*next = '\0', 1) : 0;
        char *tab = strchr(line, '\t');
        if (*ended || tab == NULL) {
            return checker_fail(checker, CHECKER_OFF_PROTOCOL,
                                "wrote an answer line dripprof cannot read (line %zu: %s)", number,
                                *ended ? "after the end line" : "no TAB between key and answer");
        }
        *tab = '\0';
        if (!unescaped(line) || !unescaped(tab + 1)) {
            return checker_fail(checker, CHECKER_OFF_PROTOCOL,
                                "wrote an answer line dripprof cannot read (line %zu: a bad "
                                "escape, or \\x00)",
                                number);
        }
        if (strcmp(line, "end") == 0 && strcmp(tab + 1, "ok") == 0) {
            *ended = true;
            continue;
        }
        out->answers[out->count++] = (CheckerAnswer){.key = line, .answer = tab + 1};
    }
    return 0;
}

/* Reads and checks the answers after a run the sandbox did not stop. */
static int read_answers(const Checker *checker, const CheckerCase *c, const char *verdict,
                        CheckerAnswers *out) {
    size_t length;
    char *text = read_run_file(c, "answers.tsv", &length);
    if (text == NULL || memchr(text, '\0', length) != NULL) {
        free(text);
        return checker_fail(checker, CHECKER_OFF_PROTOCOL, "wrote no readable answers");
    }
    bool ended;
    int status = parse_answers(checker, text, out, &ended);
    if (status == 0 && strcmp(verdict, "exit 127") == 0) {
        status = run_fail(checker, CHECKER_CANNOT_RUN, "cannot run the checker %s (exit 127)",
                          checker->program);
    } else if (status == 0 && !ended) {
        status = checker_fail(checker, CHECKER_NOT_READY,
                              "stopped before it answered everything (%s, no end line in its "
                              "answers: exit() in the function, or a checker that refused the "
                              "case %s)",
                              strcmp(verdict, "ok") == 0 ? "exit 0" : verdict, c->name);
    } else if (status == 0 && strncmp(verdict, "exit ", 5) == 0) {
        status = checker_fail(checker, CHECKER_OFF_PROTOCOL,
                              "answered, then ended with %s (a checker exits 0)", verdict);
    } else if (status == 0 && strncmp(verdict, "leaked ", 7) == 0) {
        fprintf(stderr, "dripprof %s: note: %s() from %s %s\n", checker->command, checker->function,
                checker->program, verdict);
    }
    out->text = text;
    if (status != 0) {
        show_stderr_tail(c);
        checker_free(out);
    }
    return status;
}

/* The run itself: 0 with the answers, or an exit status after the message. */
static int run_case(const Checker *checker, CheckerCase *c, CheckerAnswers *answers) {
    char sandbox[PATH_MAX + 32], program[PATH_MAX];
    const char *cpu = cpu_seconds(checker);
    if (cpu == NULL) {
        return 2;
    }
    int status = find_sandbox(checker, sandbox, sizeof sandbox);
    if (status != 0 || (status = find_checker(checker, program)) != 0) {
        return status;
    }
    char answers_path[sizeof c->folder + 32], out_path[sizeof c->folder + 32],
        err_path[sizeof c->folder + 32], cases_path[sizeof c->folder + 32],
        file_option[sizeof c->folder + 64];
    path_in(c, "answers.tsv", answers_path, sizeof answers_path);
    path_in(c, "stdout", out_path, sizeof out_path);
    path_in(c, "stderr", err_path, sizeof err_path);
    path_in(c, "cases.tsv", cases_path, sizeof cases_path);
    snprintf(file_option, sizeof file_option, "cases.tsv=%s", cases_path);
    /* clang-format off */
    char *argv[] = {
        sandbox, "--isolate", "none", "--cpu", (char *)cpu, "--memory", CHECKER_MEMORY_MB,
        "--output", CHECKER_OUTPUT_BYTES, "--stdout", out_path, "--stderr", err_path,
        "--results", answers_path, "--file", file_option,
        "--", program, "--cases", "cases.tsv", "--run", c->name, "--results", "/dev/fd/3", NULL};
    /* clang-format on */
    int exit_status = spawn_sandbox(c, argv);
    if (exit_status < 0) {
        return run_fail(checker, CHECKER_CANNOT_RUN, "cannot run the sandbox %s: %s", sandbox,
                        strerror(errno));
    }
    size_t length;
    char *verdict = read_run_file(c, "status", &length);
    if (verdict == NULL || (exit_status != 0 && exit_status != 1)) {
        char *error = read_run_file(c, "sandbox.err", &length);
        status = run_fail(checker, CHECKER_CANNOT_RUN, "the sandbox %s could not run %s: %s",
                          sandbox, checker->program,
                          verdict && *verdict ? first_line(verdict)
                          : error && *error   ? first_line(error)
                                              : "it said nothing");
        free(error);
    } else {
        first_line(verdict);
        status = judge_verdict(checker, c, verdict, cpu);
        if (status == 0) {
            status = read_answers(checker, c, verdict, answers);
        }
    }
    free(verdict);
    return status;
}

int checker_run(const Checker *checker, CheckerCase *c, CheckerAnswers *answers) {
    *answers = (CheckerAnswers){0};
    bool written = fflush(c->cases) == 0 && !ferror(c->cases);
    int write_errno = errno;
    written = fclose(c->cases) == 0 && written;
    c->cases = NULL;
    int status = written ? run_case(checker, c, answers)
                         : run_fail(checker, CHECKER_CANNOT_RUN, "cannot write %s/cases.tsv: %s",
                                    c->folder, strerror(write_errno));
    remove_folder(c);
    return status;
}

void checker_free(CheckerAnswers *answers) {
    free(answers->answers);
    free(answers->text);
    *answers = (CheckerAnswers){0};
}
