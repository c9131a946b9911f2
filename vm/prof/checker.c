/* checker.c: one case of a checker, run under the sandbox (see checker.h).
 *
 * A run lives in one private folder (mkdtemp): the cases file, the answers,
 * the checker's stdout and stderr, and the sandbox's status line and stderr.
 * The sandbox copies the cases file into a fresh working folder of its own
 * (--file) and starts the checker there, which is why the checker's path is
 * made absolute first. The answers come through the sandbox's results
 * channel (fd 3, written to a file once every process of the run is gone), so
 * nothing the function prints can mix with them.
 *
 * The sandbox's verdict comes first: a crash or a timeout is the function's
 * failure, whatever it answered before. Then the answers must end with the
 * line "end<TAB>ok": without it the run stopped early (exit() in the
 * function, or a checker that refused the case; its stderr says which).
 * Then each answer must be one of the forms of the table below, the one the
 * checker writes for what the function returned. Nothing here computes an
 * answer: a cost or a row is taken as the function gave it.
 */
#define _GNU_SOURCE /* mkdtemp, realpath, posix_spawn, strndup, fmemopen */
#include "checker.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "decimal.h"
#include "slurp.h"
#include "tsv.h"

extern char **environ;

/* Lines of the checker's stderr shown under a message about a failed run, and bytes of
 * an input line or an answer quoted in a message. */
enum { STDERR_TAIL_LINES = 3, EXCERPT_BYTES = 60 };

/* ---- the answers' forms ------------------------------------------------------------- */

typedef enum { COUNT, COST, NOT_A_ROW, ROW, MINUS_ONE, BROKEN } Meaning;

/* The answers a checker writes (README, "Checkers"), tried in order. In a pattern, # is a
 * decimal count below 2^64, % a number as strtod reads it, * any text (the longest that
 * lets the rest match). The key is the answer's key, or its prefix when it ends in ':'.
 * why: for BROKEN, how the contract was broken (a format given the first * as %.*s). */
static const struct {
    const char *key, *pattern;
    Meaning meaning;
    const char *why;
} forms[] = {
    {"count", "-1", MINUS_ONE, NULL},
    {"count", "returned-*", BROKEN, "it returned %.*s, not 0 or -1"},
    {"count", "0 n=#", COUNT, NULL},
    {"cost:", "rank=# cost=#", COST, NULL},
    {"row:", "0", NOT_A_ROW, NULL},
    {"row:", "-1", MINUS_ONE, NULL},
    {"row:", "0 but-name-is-not-NULL", BROKEN,
     "it returned 0 (not a row) but set row->name, which must then be NULL"},
    {"row:", "returned-*", BROKEN, "it returned neither 1, 0 nor -1"},
    {"row:", "1 ir=# pct=none-but-pct-is-* name=*", BROKEN,
     "it said the row shows no percentage (has_pct false) but set pct, which must then be -1.0"},
    {"row:", "1 ir=# pct=none name=NULL", BROKEN, "it returned 1 (a row) but gave no name (NULL)"},
    {"row:", "1 ir=# pct=% name=NULL", BROKEN, "it returned 1 (a row) but gave no name (NULL)"},
    {"row:", "1 ir=# pct=none name=\"*\"", ROW, NULL},
    {"row:", "1 ir=# pct=% name=\"*\"", ROW, NULL},
};

/* What a pattern matched: the #s in order, the %, the first *. */
typedef struct {
    uint64_t number[2];
    bool has_real;
    double real;
    const char *text;
    int length;
} Match;

static bool match(const char *pattern, const char *text, Match *m, int numbers) {
    for (;; pattern++) {
        if (*pattern == '*') {
            for (size_t n = strlen(text) + 1; n-- > 0;) {
                if (match(pattern + 1, text + n, m, numbers)) {
                    m->text = text;
                    m->length = (int)n;
                    return true;
                }
            }
            return false;
        } else if (*pattern == '#') {
            if (numbers == 2 || decimal_read(&text, &m->number[numbers++]) != 0) {
                return false;
            }
        } else if (*pattern == '%') {
            char *end;
            m->real = strtod(text, &end);
            m->has_real = end != text;
            if (end == text) {
                return false;
            }
            text = end;
        } else if (*pattern != *text++) {
            return false;
        } else if (*pattern == '\0') {
            return true;
        }
    }
}

/* ---- a run ----------------------------------------------------------------------------- */

/* The files of a run, inside its folder. */
enum { CASES, ANSWERS, OUT, ERR, STATUS, SANDBOX_ERR, RUN_FILES };
static const char *const run_files[RUN_FILES] = {"cases.tsv", "answers.tsv", "stdout",
                                                 "stderr",    "status",      "sandbox.err"};

typedef struct {
    char *key, *answer; /* unescaped, inside Run.text */
} Answer;

typedef struct {
    const Checker *checker;
    const char *function; /* "inclusive" */
    char name[64];        /* the case, "inclusive.top" */
    char folder[PATH_MAX];
    char paths[RUN_FILES][PATH_MAX + 16]; /* empty until the folder exists */
    FILE *cases;
    bool ran;   /* the sandbox gave a verdict: a failure shows the checker's stderr */
    char *text; /* the answers file */
    Answer *answers;
    size_t count;
} Run;

/* The last lines of the checker's stderr, indented, under a message. */
static void show_stderr_tail(const Run *run) {
    size_t length;
    char *text = slurp_file(run->paths[ERR], &length, NULL);
    while (text != NULL && length > 0 && text[length - 1] == '\n') {
        text[--length] = '\0';
    }
    if (text != NULL && length > 0) {
        size_t start = length;
        for (int lines = 0; start > 0 && !(text[start - 1] == '\n' && ++lines == STDERR_TAIL_LINES);
             start--) {
        }
        fprintf(stderr, "  its stderr ends:\n");
        for (char *line = strtok(text + start, "\n"); line != NULL; line = strtok(NULL, "\n")) {
            fprintf(stderr, "    %s\n", line);
        }
    }
    free(text);
}

/* The one message of a failure: "dripprof COMMAND: ", then for the function's failures
 * (not ready, off the protocol) "FUNCTION() from CHECKER ", the message and a line saying
 * what to do; after a run, the end of the checker's stderr. Returns status. */
static int fail(const Run *run, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const Run *run, int status, const char *format, ...) {
    const char *program = run->checker->program;
    fprintf(stderr, "dripprof %s: ", run->checker->command);
    if (status == CHECKER_NOT_READY || status == CHECKER_OFF_PROTOCOL) {
        fprintf(stderr, "%s() from %s ", run->function, program);
    }
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    if (status == CHECKER_NOT_READY) {
        fprintf(stderr,
                "  fix it (the exercise's own tests show where), rebuild %s, run this again\n",
                program);
    } else if (status == CHECKER_OFF_PROTOCOL) {
        fprintf(stderr, "  is %s a checker for this dripprof? (the protocol: vm/prof/README.md)\n",
                program);
    }
    if (run->ran) {
        show_stderr_tail(run);
    }
    return status;
}

/* text[0..length) escaped and cut to fit in buffer, for a message. */
static const char *excerpt(char *buffer, size_t size, const char *text, size_t length) {
    FILE *out = fmemopen(buffer, size, "w");
    buffer[0] = '\0';
    if (out != NULL) {
        tsv_field(out, text, length < EXCERPT_BYTES ? length : EXCERPT_BYTES);
        fputs(length > EXCERPT_BYTES ? "..." : "", out);
        fclose(out);
    }
    return buffer;
}

/* Answer i does not answer the case: names it (or its absence) and what was due. */
static int off_protocol(const Run *run, size_t i, const char *due) {
    const char *intro = "gave answers that do not answer the case";
    if (i >= run->count) {
        return fail(run, CHECKER_OFF_PROTOCOL, "%s %s: answer %zu is missing, where %s was due",
                    intro, run->name, i + 1, due);
    }
    char key[96], answer[96];
    const Answer *a = &run->answers[i];
    return fail(run, CHECKER_OFF_PROTOCOL, "%s %s: answer %zu is \"%s\\t%s\", where %s was due",
                intro, run->name, i + 1, excerpt(key, sizeof key, a->key, strlen(a->key)),
                excerpt(answer, sizeof answer, a->answer, strlen(a->answer)), due);
}

/* The form of answer i when its key is key (or starts with it, for a key ending in ':'):
 * an index into forms, or -1. */
static int form_of(const Run *run, size_t i, const char *key, Match *m) {
    size_t n = strlen(key);
    if (i >= run->count || (key[n - 1] == ':' ? strncmp(run->answers[i].key, key, n)
                                              : strcmp(run->answers[i].key, key)) != 0) {
        return -1;
    }
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        *m = (Match){.text = NULL};
        if (strncmp(forms[f].key, key, strlen(forms[f].key)) == 0 &&
            match(forms[f].pattern, run->answers[i].answer, m, 0)) {
            return (int)f;
        }
    }
    return -1;
}

static int start(Run *run, const Checker *checker, const char *function) {
    *run = (Run){.checker = checker, .function = function};
    snprintf(run->name, sizeof run->name, "%s.%s", function, checker->command);
    const char *tmp = getenv("TMPDIR");
    snprintf(run->folder, sizeof run->folder, "%s/dripprof.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    bool made = mkdtemp(run->folder) != NULL;
    for (int i = 0; made && i < RUN_FILES; i++) {
        snprintf(run->paths[i], sizeof run->paths[i], "%s/%s", run->folder, run_files[i]);
    }
    run->cases = made ? fopen(run->paths[CASES], "w") : NULL;
    return run->cases ? 0
                      : fail(run, CHECKER_CANNOT_RUN, "cannot write the case in %s: %s",
                             run->folder, strerror(errno));
}

/* One line of the case: the case's name and the key need no escape. */
static void field(Run *run, const char *key, const char *text, size_t length, const char *suffix) {
    fprintf(run->cases, "%s\t%s\t", run->name, key);
    tsv_field(run->cases, text, length);
    tsv_field(run->cases, suffix, strlen(suffix));
    fputc('\n', run->cases);
}

static void stop(Run *run) {
    if (run->cases != NULL) {
        fclose(run->cases);
    }
    for (int i = 0; i < RUN_FILES && run->paths[i][0] != '\0'; i++) {
        unlink(run->paths[i]);
    }
    if (run->paths[0][0] != '\0') {
        rmdir(run->folder);
    }
    free(run->answers);
    free(run->text);
}

/* The CPU seconds for the run: DRIPPROF_CPU_SECONDS or CHECKER_CPU_SECONDS; NULL after a
 * message when the variable is not a number of seconds. */
static const char *cpu_seconds(const Run *run) {
    const char *text = getenv("DRIPPROF_CPU_SECONDS");
    if (text == NULL || *text == '\0') {
        return CHECKER_CPU_SECONDS;
    }
    char *end;
    double seconds = strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds > 0 && seconds < 1e6)) {
        fail(run, 2, "DRIPPROF_CPU_SECONDS wants seconds above 0 (e.g. 60 or 0.5), not '%s'", text);
        return NULL;
    }
    return text;
}

/* The sandbox to run: --sandbox, or harness/sandbox in dripprof's own folder
 * (build/dripprof -> build/harness/sandbox). 0, or an exit status after the message. */
static int find_sandbox(const Run *run, char *path, size_t size) {
    if (run->checker->sandbox != NULL) {
        snprintf(path, size, "%s", run->checker->sandbox);
    } else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = '\0'; /* and dirname("") is "." */
        snprintf(path, size, "%s/harness/sandbox", dirname(self));
    }
    if (access(path, X_OK) != 0) {
        return fail(run, CHECKER_CANNOT_RUN,
                    "no sandbox at %s (%s): run make sandbox, or name one with --sandbox PATH",
                    path, strerror(errno));
    }
    return 0;
}

/* The checker as an absolute path (the sandbox starts it in a folder of its own). */
static int find_checker(const Run *run, char *path) {
    struct stat info;
    const char *why = NULL;
    if (realpath(run->checker->program, path) == NULL || stat(path, &info) != 0) {
        why = strerror(errno);
    } else if (S_ISDIR(info.st_mode)) {
        why = "it is a directory";
    } else if (access(path, X_OK) != 0) {
        why = "it is not executable";
    }
    return why == NULL ? 0
                       : fail(run, CHECKER_CANNOT_RUN, "cannot run the checker %s: %s",
                              run->checker->program, why);
}

/* Runs the sandbox with its stdout (the status line) and stderr in files of the folder.
 * Returns its exit status (128 + N when a signal N ended it), or -1 with errno set. */
static int spawn(const Run *run, char *const argv[]) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, run->paths[STATUS], O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&actions, 2, run->paths[SANDBOX_ERR],
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
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

/* The sandbox's verdict: 0 when the answers decide (ok, exit N, or only a leak), or an
 * exit status after the message. */
static int judge(const Run *run, const char *verdict, const char *cpu) {
    if (strcmp(verdict, "ok") == 0 || strncmp(verdict, "exit ", 5) == 0 ||
        strncmp(verdict, "leaked ", 7) == 0) {
        return 0;
    }
    static const char *const crashes[][2] = {
        {"SIGSEGV", ": a bad pointer, or endless recursion"},
        {"SIGBUS", ": a bad pointer"},
        {"SIGFPE", ": a division by zero"},
        {"SIGABRT", ": abort(): a failed assert, or a bad free"},
    };
    if (strncmp(verdict, "crashed: ", 9) == 0) {
        const char *meaning = "";
        for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) {
            meaning = strstr(verdict, crashes[i][0]) ? crashes[i][1] : meaning;
        }
        return fail(run, CHECKER_NOT_READY, "crashed (%s%s)", verdict + 9, meaning);
    }
    if (strstr(verdict, "of CPU time") != NULL) {
        return fail(run, CHECKER_NOT_READY,
                    "did not finish in %s s of CPU time (an endless loop?); "
                    "DRIPPROF_CPU_SECONDS=N gives it N seconds",
                    cpu);
    }
    if (strncmp(verdict, "output limit", 12) == 0) {
        return fail(run, CHECKER_NOT_READY, "printed too much (%s; a printf left in the function?)",
                    verdict);
    }
    if (strncmp(verdict, "sandbox error", 13) == 0) {
        return fail(run, CHECKER_CANNOT_RUN, "the sandbox could not run %s: %s",
                    run->checker->program, verdict);
    }
    return fail(run, CHECKER_NOT_READY, "did not finish: %s", verdict);
}

/* Unescapes text in place: false for a bad escape, or one that makes a NUL (no name or
 * answer holds one, and the rest of dripprof reads them as C strings). */
static bool unescaped(char *text) {
    long length = tsv_unescape(text);
    return length >= 0 && (size_t)length == strlen(text);
}

/* Reads the answers file into run->answers after a run the sandbox did not stop. 0, or an
 * exit status after the message. */
static int read_answers(Run *run, const char *verdict) {
    size_t length, lines = 1;
    run->text = slurp_file(run->paths[ANSWERS], &length, NULL);
    if (run->text == NULL || memchr(run->text, '\0', length) != NULL) {
        return fail(run, CHECKER_OFF_PROTOCOL, "wrote no readable answers");
    }
    for (const char *p = run->text; *p; p++) {
        lines += *p == '\n';
    }
    run->answers = calloc(lines, sizeof *run->answers);
    if (run->answers == NULL) {
        return fail(run, 1, "out of memory");
    }
    bool ended = false;
    size_t number = 0;
    for (char *line = run->text, *next; *line != '\0'; line = next) {
        number++;
        next = line + strcspn(line, "\n");
        next += *next == '\n' ? (*next = '\0', 1) : 0;
        char *tab = strchr(line, '\t');
        if (tab != NULL) {
            *tab = '\0';
        }
        const char *why = ended         ? "after the end line"
                          : tab == NULL ? "no TAB between key and answer"
                          : !unescaped(line) || !unescaped(tab + 1) ? "a bad escape, or \\x00"
                                                                    : NULL;
        if (why != NULL) {
            return fail(run, CHECKER_OFF_PROTOCOL,
                        "wrote an answer line dripprof cannot read (line %zu: %s)", number, why);
        }
        ended = strcmp(line, "end") == 0 && strcmp(tab + 1, "ok") == 0;
        if (!ended) {
            run->answers[run->count++] = (Answer){.key = line, .answer = tab + 1};
        }
    }
    if (strcmp(verdict, "exit 127") == 0) {
        return fail(run, CHECKER_CANNOT_RUN, "cannot run the checker %s (exit 127)",
                    run->checker->program);
    }
    if (!ended) {
        return fail(run, CHECKER_NOT_READY,
                    "stopped before it answered everything (%s, no end line in its answers: "
                    "exit() in the function, or a checker that refused the case %s)",
                    strcmp(verdict, "ok") == 0 ? "exit 0" : verdict, run->name);
    }
    if (strncmp(verdict, "exit ", 5) == 0) {
        return fail(run, CHECKER_OFF_PROTOCOL, "answered, then ended with %s (a checker exits 0)",
                    verdict);
    }
    if (strncmp(verdict, "leaked ", 7) == 0) {
        fprintf(stderr, "dripprof %s: note: %s() from %s %s\n", run->checker->command,
                run->function, run->checker->program, verdict);
    }
    return 0;
}

/* Runs the case written so far and reads its answers. 0, or an exit status after the
 * message. */
static int execute(Run *run) {
    int unwritten = ferror(run->cases);
    unwritten |= fclose(run->cases); /* it flushes */
    run->cases = NULL;
    if (unwritten) {
        return fail(run, CHECKER_CANNOT_RUN, "cannot write the case in %s: %s", run->folder,
                    strerror(errno));
    }
    char sandbox[PATH_MAX + 32], program[PATH_MAX], file_option[PATH_MAX + 32];
    const char *cpu = cpu_seconds(run);
    int status = cpu == NULL ? 2 : find_sandbox(run, sandbox, sizeof sandbox);
    if (status != 0 || (status = find_checker(run, program)) != 0) {
        return status;
    }
    snprintf(file_option, sizeof file_option, "cases.tsv=%s", run->paths[CASES]);
    /* clang-format off */
    char *argv[] = {
        sandbox, "--isolate", "none", "--cpu", (char *)cpu, "--memory", CHECKER_MEMORY_MB,
        "--output", CHECKER_OUTPUT_BYTES, "--stdout", run->paths[OUT], "--stderr", run->paths[ERR],
        "--results", run->paths[ANSWERS], "--file", file_option,
        "--", program, "--cases", "cases.tsv", "--run", run->name, "--results", "/dev/fd/3", NULL};
    /* clang-format on */
    int exit_status = spawn(run, argv), spawn_errno = errno;
    size_t length;
    char *verdict = exit_status < 0 ? NULL : slurp_file(run->paths[STATUS], &length, NULL);
    if (verdict == NULL || (exit_status != 0 && exit_status != 1)) {
        char *error = slurp_file(run->paths[SANDBOX_ERR], &length, NULL);
        status = fail(run, CHECKER_CANNOT_RUN, "the sandbox %s could not run %s: %s", sandbox,
                      run->checker->program,
                      exit_status < 0       ? strerror(spawn_errno)
                      : verdict && *verdict ? first_line(verdict)
                      : error && *error     ? first_line(error)
                                            : "it said nothing");
        free(error);
    } else {
        run->ran = true;
        status = judge(run, first_line(verdict), cpu);
        status = status != 0 ? status : read_answers(run, verdict);
        run->ran = false;
    }
    free(verdict);
    return status;
}

/* ---- the two questions ------------------------------------------------------------------ */

static int read_costs(const Run *run, Cost **costs, size_t *ncosts) {
    Match m;
    int f = form_of(run, 0, "count", &m);
    char why[256];
    if (f >= 0 && forms[f].meaning == MINUS_ONE) {
        return fail(run, CHECKER_NOT_READY, "is not written yet (it returned -1)");
    }
    if (f >= 0 && forms[f].meaning == BROKEN) {
        snprintf(why, sizeof why, forms[f].why, m.length, m.text);
        return fail(run, CHECKER_NOT_READY, "broke its contract: %s", why);
    }
    if (f < 0) {
        return off_protocol(run, 0, "count\\t0 n=N (or -1)");
    }
    uint64_t n = m.number[0];
    size_t given = run->count - 1;
    if (n > 0 && given > 0 && strcmp(run->answers[1].key, "costs") == 0 &&
        strcmp(run->answers[1].answer, "NULL") == 0) {
        return fail(
            run, CHECKER_NOT_READY,
            "broke its contract: it returned 0 and %" PRIu64 " functions, but no array (NULL)", n);
    }
    if (given != n) {
        return off_protocol(run, 1 + (n < given ? n : given), "one cost:NAME line per function");
    }
    *costs = calloc(given + 1, sizeof **costs);
    if (*costs == NULL) {
        return fail(run, 1, "out of memory");
    }
    for (size_t i = 0; i < given; i++) {
        f = form_of(run, 1 + i, "cost:", &m);
        if (f < 0 || m.number[0] != i + 1) {
            return off_protocol(run, 1 + i, "cost:NAME\\trank=R cost=C");
        }
        (*costs)[i] = (Cost){.name = strdup(run->answers[1 + i].key + 5), .cost = m.number[1]};
        *ncosts = i + 1;
        if ((*costs)[i].name == NULL) {
            return fail(run, 1, "out of memory");
        }
    }
    return 0;
}

int checker_inclusive(const Checker *checker, const FoldedLine *stacks, size_t count, Cost **costs,
                      size_t *ncosts) {
    Run run;
    *costs = NULL;
    *ncosts = 0;
    int status = start(&run, checker, "inclusive");
    if (status == 0) {
        field(&run, "order", "checked", 7, "");
        for (size_t i = 0; i < count; i++) {
            char suffix[32];
            snprintf(suffix, sizeof suffix, " %" PRIu64, stacks[i].count);
            field(&run, "stack", stacks[i].stack, stacks[i].length, suffix);
        }
        status = execute(&run);
    }
    status = status != 0 ? status : read_costs(&run, costs, ncosts);
    stop(&run);
    if (status != 0) {
        costs_free(*costs, *ncosts);
        *costs = NULL;
        *ncosts = 0;
    }
    return status;
}

/* Takes answer i as parse_row()'s on line i + 1 of input. */
static int read_rows(const Run *run, const char *input, const AnnotateText *text,
                     AnnotateRow *rows) {
    bool all_minus = run->count > 0;
    for (size_t i = 0; i < run->count; i++) {
        all_minus = all_minus && strcmp(run->answers[i].answer, "-1") == 0;
    }
    for (size_t i = 0; i < text->asked; i++) {
        char key[32], line[EXCERPT_BYTES * 4 + 8], why[256];
        snprintf(key, sizeof key, "row:%zu", i + 1);
        Match m;
        int f = form_of(run, i, key, &m);
        if (f < 0) {
            return off_protocol(run, i, "row:I\\t1 ir=N pct=P name=\"NAME\", 0 or -1");
        }
        if (forms[f].meaning == MINUS_ONE && all_minus) {
            return fail(run, CHECKER_NOT_READY,
                        "is not written yet (it returned -1 on every line of %s)", input);
        }
        if (forms[f].meaning == MINUS_ONE || forms[f].meaning == BROKEN) {
            excerpt(line, sizeof line, text->lines[i].bytes, text->lines[i].length);
            if (forms[f].meaning == MINUS_ONE) {
                return fail(run, CHECKER_NOT_READY, "returned -1 (an error) on %s:%zu \"%s\"",
                            input, i + 1, line);
            }
            snprintf(why, sizeof why, forms[f].why, m.length, m.text);
            return fail(run, CHECKER_NOT_READY, "broke its contract on %s:%zu \"%s\": %s", input,
                        i + 1, line, why);
        }
        if (forms[f].meaning == ROW) {
            rows[i] = (AnnotateRow){.is_row = true,
                                    .ir = m.number[0],
                                    .has_pct = m.has_real,
                                    .pct = m.has_real ? m.real : -1.0,
                                    .name = strndup(m.text, (size_t)m.length)};
            if (rows[i].name == NULL) {
                return fail(run, 1, "out of memory");
            }
        }
    }
    if (run->count > text->asked) {
        return off_protocol(run, text->asked, "the end line (one answer per line)");
    }
    return 0;
}

int checker_parse_row(const Checker *checker, const char *input, const AnnotateText *text,
                      AnnotateRow **rows) {
    Run run;
    int status = start(&run, checker, "parse_row");
    *rows = calloc(text->asked + 1, sizeof **rows);
    if (status == 0 && *rows == NULL) {
        status = fail(&run, 1, "out of memory");
    }
    for (size_t i = 0; status == 0 && i < text->asked; i++) {
        field(&run, "line", text->lines[i].bytes, text->lines[i].length, "");
    }
    status = status != 0 ? status : execute(&run);
    status = status != 0 ? status : read_rows(&run, input, text, *rows);
    stop(&run);
    if (status != 0 && *rows != NULL) {
        for (size_t i = 0; i < text->asked; i++) {
            free((*rows)[i].name);
        }
        free(*rows);
        *rows = NULL;
    }
    return status;
}
