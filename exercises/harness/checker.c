/* checker.c: the checker kit's main loop, cases, answers and memory (see checker.h).
 *
 * The cases file is read whole before anything runs, into one array of cases, so that a
 * mistake in it stops the run with FILE:LINE before any code under test is called, and so
 * that every forked child (--each) starts from the same data. Its text is one block, split
 * and unescaped in place: every name, key, value and origin points into it. The grader's
 * cases hold hundreds of thousands of fields; a block each (under AddressSanitizer, each
 * with its redzones, its stack trace and fresh pages) would make the parent large and every
 * fork of it slow. The code under test never sees these bytes: a checker passes it copies.
 *
 * The answers go to one stream, line-buffered: each answer line is out before the next
 * call, so what a crash cuts short is the last case's answers, never an earlier one's.
 */
#define _DEFAULT_SOURCE /* POSIX 2008, and strsep */

#include "checker.h"
#include "fork_tests.h"
#include "status.h"
#include "tsv.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CHECKER_COUNTED
#include <cmocka.h>
#endif

/* ------------------------------------------------------------------ memory */

static _Noreturn void out_of_memory(void) {
    fputs("check: out of memory\n", stderr);
    exit(2);
}

void *check_malloc(size_t size) {
    void *p = malloc(size == 0 ? 1 : size);
    if (p == NULL) {
        out_of_memory();
    }
    return p;
}

char *check_strdup(const char *text) {
    size_t n = strlen(text) + 1;
    return memcpy(check_malloc(n), text, n);
}

void *check_grow(void *array, size_t count, size_t *capacity, size_t size) {
    if (count < *capacity) {
        return array;
    }
    *capacity = *capacity == 0 ? 16 : *capacity * 2;
    void *bigger = realloc(array, *capacity * size);
    if (bigger == NULL) {
        out_of_memory();
    }
    return bigger;
}

/* A malloc'd printf, measured first and then written. Not open_memstream: its stream
   starts with a buffer of several kilobytes, and the grader's cases format thousands of
   short answers, each of which would then cost a page-sized allocation (and, under
   AddressSanitizer, a fill of it and a place in the quarantine). */
__attribute__((format(printf, 1, 0))) static char *vformat(const char *format, va_list args) {
    va_list again;
    va_copy(again, args);
    int length = vsnprintf(NULL, 0, format, args);
    if (length < 0) {
        out_of_memory();
    }
    char *text = check_malloc((size_t)length + 1);
    vsnprintf(text, (size_t)length + 1, format, again);
    va_end(again);
    return text;
}

char *check_format(const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *text = vformat(format, args);
    va_end(args);
    return text;
}

/* ------------------------------------------------------------------ the cases file */

typedef struct {
    CheckCase c;
    CheckRun run;
} Case;

static Case *cases;
static size_t ncases;
/* Every case's fields, in one array with a place for each line of the file: a case's lines
   are next to each other, so its fields are a slice of it (c.fields, c.nfields). */
static CheckField *all_fields;
static size_t nall_fields;
static const char *cases_path;
static const CheckFunction *functions;
static size_t nfunctions;

static _Noreturn void bad_line(const char *path, size_t number, const char *why) {
    fprintf(stderr, "%s:%zu: %s\n", path, number, why);
    exit(2);
}

static const CheckFunction *function_of(const char *name) {
    size_t length = strcspn(name, ".");
    for (size_t i = 0; i < nfunctions; i++) {
        if (strlen(functions[i].function) == length &&
            strncmp(functions[i].function, name, length) == 0) {
            return &functions[i];
        }
    }
    return NULL;
}

/* The case the next field belongs to: the last one when it has that name, else a new one. */
static Case *case_named(const char *name, const char *path, size_t number) {
    if (ncases > 0 && strcmp(cases[ncases - 1].c.name, name) == 0) {
        return &cases[ncases - 1];
    }
    for (size_t i = 0; i < ncases; i++) {
        if (strcmp(cases[i].c.name, name) == 0) {
            bad_line(path, number, "the fields of a case must be next to each other");
        }
    }
    if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
            strlen(name) ||
        strchr(name, '.') == NULL) {
        bad_line(path, number, "a case is named FUNCTION.ID (letters, digits, _ . -)");
    }
    const CheckFunction *f = function_of(name);
    if (f == NULL) {
        bad_line(path, number, "this checker has no function of that name");
    }
    static size_t capacity;
    cases = check_grow(cases, ncases, &capacity, sizeof(Case));
    Case *c = &cases[ncases++];
    *c = (Case){{name, &all_fields[nall_fields], 0}, f->run};
    return c;
}

/* Appends the field of one line to case c, the last case; part[] points into the cases text. */
static void add_field(Case *c, char **part, size_t n, size_t number) {
    const char *origin = n == 4 && part[3][0] != '\0' ? part[3] : NULL;
    all_fields[nall_fields++] = (CheckField){part[1], part[2], origin, number};
    c->c.nfields++;
}

/* The whole of file path, NUL-terminated (its length in *length); NULL if it cannot be read.
   The block is sized from the file's length when it has one: every block grown past stays
   in the parent (AddressSanitizer's quarantine), and every fork copies its page tables. */
static char *read_whole(const char *path, size_t *length) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        return NULL;
    }
    struct stat st;
    bool sized = fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
                 (unsigned long long)st.st_size < SIZE_MAX - 1;
    size_t size = sized ? (size_t)st.st_size + 2 : 1 << 16, used = 0;
    char *text = check_malloc(size);
    for (size_t got; (got = fread(text + used, 1, size - used - 1, in)) > 0;) {
        used += got;
        if (used + 1 == size) {
            text = check_grow(text, size, &size, 1);
        }
    }
    bool failed = ferror(in);
    fclose(in);
    if (failed) {
        free(text);
        return NULL;
    }
    text[used] = '\0';
    *length = used;
    return text;
}

static char *cases_text; /* the cases file, split in place: read_cases() */

static void read_cases(const char *path) {
    cases_path = path;
    size_t length;
    cases_text = read_whole(path, &length);
    if (cases_text == NULL) {
        fprintf(stderr, "check: cannot read %s\n", path);
        exit(2);
    }
    size_t lines = 1;
    for (const char *p = cases_text;
         (p = memchr(p, '\n', (size_t)(cases_text + length - p))) != NULL; p++) {
        lines++;
    }
    all_fields = check_malloc(lines * sizeof(CheckField));
    size_t number = 0;
    for (char *line = cases_text, *end; line < cases_text + length; line = end + 1) {
        number++;
        end = memchr(line, '\n', (size_t)(cases_text + length - line));
        if (end == NULL) {
            end = cases_text + length; /* the last line, without its line end */
        }
        *end = '\0';
        if (strlen(line) != (size_t)(end - line)) {
            bad_line(path, number, "a NUL byte (write it \\x00)");
        }
        char *part[5], *rest = line; /* a fifth field is one too many */
        size_t n = 0;
        while (rest != NULL && n < 5) {
            part[n++] = strsep(&rest, "\t");
        }
        if (n < 3 || n > 4) {
            bad_line(path, number, "expected CASE<TAB>KEY<TAB>VALUE[<TAB>ORIGIN]");
        }
        for (size_t i = 0; i < n; i++) {
            /* An escape the dialect never writes (tsv.h), or an escaped NUL (a C string cannot
               hold it), is refused. */
            long unescaped = tsv_unescape(part[i]);
            if (unescaped < 0 || (size_t)unescaped != strlen(part[i])) {
                bad_line(path, number, "an escape other than \\\\ \\t \\n \\r \\xHH (but \\x00)");
            }
        }
        if (part[0][0] == '\0' && ncases == 0) {
            bad_line(path, number, "the first line names its case");
        }
        Case *c = part[0][0] == '\0' ? &cases[ncases - 1] : case_named(part[0], path, number);
        add_field(c, part, n, number);
    }
}

/* ------------------------------------------------------------------ fields */

const CheckField *check_find(const CheckCase *c, const char *key) {
    for (size_t i = 0; i < c->nfields; i++) {
        if (strcmp(c->fields[i].key, key) == 0) {
            return &c->fields[i];
        }
    }
    return NULL;
}

const char *check_field(const CheckCase *c, const char *key) {
    const CheckField *f = check_find(c, key);
    return f == NULL ? NULL : f->value;
}

_Noreturn void check_bad_field(const CheckField *f, const char *why) {
    /* Where the field was written: its origin, else its line of the cases file. */
    if (f->origin != NULL) {
        fprintf(stderr, "%s: %s: %s\n", f->origin, f->key, why);
    } else {
        fprintf(stderr, "%s:%zu: %s: %s\n", cases_path, f->line, f->key, why);
    }
    exit(2);
}

bool check_u64(const char *text, uint64_t *value) {
    char *end;
    errno = 0;
    *value = strtoull(text, &end, 10);
    /* Digits only: strtoull would also take blanks and a sign first. */
    return *text >= '0' && *text <= '9' && *end == '\0' && errno == 0;
}

/* The field's value split at blank into the number on one side and a copy of the text on
   the other; NULL when that side is no number. */
static char *split_at(const CheckField *f, const char *blank, bool number_first, uint64_t *number) {
    if (blank == NULL) {
        return NULL;
    }
    char *left = check_strdup(f->value);
    left[blank - f->value] = '\0';
    const char *digits = number_first ? left : blank + 1;
    char *text = check_strdup(number_first ? blank + 1 : left);
    bool fine = check_u64(digits, number);
    free(left);
    if (!fine) {
        free(text);
        return NULL;
    }
    return text;
}

char *check_text_and_number(const CheckField *f, uint64_t *number) {
    char *text = split_at(f, strrchr(f->value, ' '), false, number);
    if (text == NULL) {
        check_bad_field(f, "expected TEXT NUMBER (the number after the last blank)");
    }
    return text;
}

char *check_number_and_text(const CheckField *f, uint64_t *number) {
    char *text = split_at(f, strchr(f->value, ' '), true, number);
    if (text == NULL) {
        check_bad_field(f, "expected NUMBER TEXT (the number before the first blank)");
    }
    return text;
}

/* ------------------------------------------------------------------ answers */

static FILE *answers;

void check_answer(const char *key, const char *answer) {
    tsv_field(answers, key, strlen(key));
    fputc('\t', answers);
    tsv_field(answers, answer, strlen(answer));
    fputc('\n', answers);
}

void check_answerf(const char *key, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *answer = vformat(format, args);
    va_end(args);
    check_answer(key, answer);
    free(answer);
}

void check_unchanged(const char *what, const char *before, const char *now) {
    if (strcmp(before, now) != 0) {
        char *key = check_format("changed:%s", what);
        check_answer(key, now);
        free(key);
    }
}

/* PATH as a stream for the answers, opened with mode ("w"; "r+" for a file that must be there
   already): "/dev/fd/N" is the open fd N (a sandbox's results channel is a pipe, which a boxed
   uid could not reopen by its name). */
static FILE *open_answers(const char *path, const char *mode) {
    FILE *out = NULL;
    const char *digits = path + strlen("/dev/fd/");
    if (strncmp(path, "/dev/fd/", 8) == 0 && *digits != '\0' &&
        strspn(digits, "0123456789") == strlen(digits)) {
        out = fdopen(atoi(digits), "w");
    } else {
        out = fopen(path, mode);
    }
    if (out == NULL) {
        fprintf(stderr, "check: cannot write the answers to %s\n", path);
        exit(2);
    }
    setvbuf(out, NULL, _IOLBF, 0);
    return out;
}

/* ------------------------------------------------------------------ running a case */

/* cmocka catches SIGSEGV and friends itself and carries on. A crash should end the process
   instead, so the sanitizer (with the line in the student's file) or the supervisor names it:
   each case first puts back the handlers that were there before cmocka started. */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
enum { CRASH_SIGNALS = sizeof crash_signals / sizeof crash_signals[0] };
static struct sigaction saved_handlers[CRASH_SIGNALS];

static void save_crash_handlers(void) {
    for (size_t i = 0; i < CRASH_SIGNALS; i++) {
        sigaction(crash_signals[i], NULL, &saved_handlers[i]);
    }
}

static void restore_crash_handlers(void) {
    for (size_t i = 0; i < CRASH_SIGNALS; i++) {
        sigaction(crash_signals[i], &saved_handlers[i], NULL);
    }
}

static void run_case(void **state) {
    restore_crash_handlers();
    const Case *c = *state;
    c->run(&c->c);
    fputs("end\tok\n", answers);
    fflush(answers);
}

#ifdef CHECKER_COUNTED
/* The counted build (build.lua's "fast" flavour) is linked statically, so that nothing but
   the program itself is mapped under valgrind (speed.lua says why). Debian ships no static
   cmocka, and a counted run needs none of its reports: the case is called directly. */
static int run_with_cmocka(size_t i) {
    void *state = &cases[i];
    run_case(&state);
    return 0;
}
#else
static int run_with_cmocka(size_t i) {
    struct CMUnitTest test = {cases[i].c.name, run_case, NULL, NULL, &cases[i]};
    /* cmocka_run_group_tests() is a macro that needs an array of fixed size; this is the
       function it calls. */
    return _cmocka_run_group_tests(cases[i].c.name, &test, 1, NULL, NULL) == 0 ? 0 : 1;
}
#endif

static const ForkOptions *each;

/* One case in a forked child (fork_tests.c): answers to DIR/NAME.results, which a sealed
   child finds made for it (it may make no file). */
static int run_child(size_t i, void *context) {
    (void)context;
    char *path = check_format("%s/%s.results", each->dir, cases[i].c.name);
    answers = open_answers(path, each->sealed ? "r+" : "w");
    free(path);
    int status = run_with_cmocka(i);
    fclose(answers); /* every byte given back: fork_tests.c then skips LeakSanitizer's scan */
    return status;
}

/* --pack: when --each's folder cannot be read afterwards (a sandbox removes its box), each
   case's files leave through one stream as the case ends: its results, stdout and stderr, each
   as "NAME.SUFFIX<TAB>BYTES\n" and then its bytes (a missing file as 0 bytes), and then
   NAME.usage, the CPU seconds and peak resident MB its child used ("cpu S\nmemory MB\n");
   the case's files are removed. The code under test ran in a child of this process, so the
   stream is its words: the reader (runner.lua's unpack) keeps only the names it asked for. */
static const char *const packed_suffixes[] = {"results", "stdout", "stderr"};

static struct {
    FILE *out;
    char *buffer; /* room for the largest file a case may write */
    size_t size;
} packed;

/* Appends one file of the folder to the stream and removes it. */
static void pack_file(const char *name, const char *suffix) {
    char *path = check_format("%s/%s.%s", each->dir, name, suffix);
    size_t length = 0;
    FILE *in = fopen(path, "rb");
    if (in != NULL) {
        length = fread(packed.buffer, 1, packed.size, in);
        fclose(in);
        unlink(path);
    }
    fprintf(packed.out, "%s.%s\t%zu\n", name, suffix, length);
    fwrite(packed.buffer, 1, length, packed.out);
    free(path);
}

static void pack_case(size_t i, const struct rusage *usage, void *context) {
    (void)context;
    const char *name = cases[i].c.name;
    for (size_t k = 0; k < sizeof packed_suffixes / sizeof packed_suffixes[0]; k++) {
        pack_file(name, packed_suffixes[k]);
    }
    char line[96];
    int length = snprintf(line, sizeof line, "cpu %.3f\nmemory %ld\n", status_rusage_seconds(usage),
                          usage->ru_maxrss / 1024);
    fprintf(packed.out, "%s.usage\t%d\n%s", name, length, line);
    fflush(packed.out);
}

/* --pack without --each DIR: a fresh folder under $TMPDIR (the box's own), the caller's to
   free. */
static char *private_folder(void) {
    const char *tmp = getenv("TMPDIR");
    char *dir = check_format("%s/check-XXXXXX", tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        fprintf(stderr, "check: cannot make a folder %s\n", dir);
        exit(2);
    }
    return dir;
}

static size_t find_case(const char *name) {
    for (size_t i = 0; i < ncases; i++) {
        if (strcmp(cases[i].c.name, name) == 0) {
            return i;
        }
    }
    fprintf(stderr, "check: no case called '%s' (see --list)\n", name);
    exit(2);
}

/* Gives back every byte read_cases() took. */
static void free_cases(void) {
    free(all_fields);
    all_fields = NULL;
    nall_fields = 0;
    free(cases);
    cases = NULL;
    ncases = 0;
    free(cases_text);
    cases_text = NULL;
}

/* Ends --run once its case has returned; at_start: the heap in use when check_main began
   (the runtimes' blocks, and whatever constructors, the code under test's too, kept; 0 without
   AddressSanitizer, where there is no exit check to skip and nothing to give back). The
   checker gives its own memory back, so that the heap can come back to at_start. */
static int finish_run(int status, size_t at_start) {
    if (at_start != 0) {
        fclose(answers);
        free_cases();
        fork_tests_exit_if_clean(status, at_start);
    }
    return status;
}

static _Noreturn void usage(void) {
    fputs("usage: check --cases FILE [--list | --run NAME [--results PATH] |\n"
          "             {--each DIR | --pack PATH} --cpu S --wall S --memory MB --output BYTES\n"
          "             [--jobs N] [--results-limit BYTES] [--only PREFIX] [--status-fd FD]\n"
          "             [--sealed (with --pack)]]\n",
          stderr);
    exit(2);
}

int check_main(int argc, char **argv, const CheckFunction *list, size_t count) {
    size_t at_start = fork_tests_heap_in_use();
    functions = list;
    nfunctions = count;
    const char *cases_path = NULL, *run = NULL, *results = NULL, *pack = NULL;
    bool listing = false;
    ForkOptions options = fork_tests_defaults();
    for (int i = 1; i < argc; i++) {
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--cases") == 0 && has_value) {
            cases_path = argv[++i];
        } else if (strcmp(argv[i], "--list") == 0) {
            listing = true;
        } else if (strcmp(argv[i], "--run") == 0 && has_value) {
            run = argv[++i];
        } else if (strcmp(argv[i], "--results") == 0 && has_value) {
            results = argv[++i];
        } else if (strcmp(argv[i], "--pack") == 0 && has_value) {
            pack = argv[++i];
        } else if (!fork_tests_option(argc, argv, &i, &options)) {
            usage();
        }
    }
    char *own_dir = NULL;
    if (pack != NULL && options.dir == NULL) {
        options.dir = own_dir = private_folder();
    }
    /* A sealed case's files must be gone before the next starts: --pack takes them. */
    if (cases_path == NULL || (listing + (run != NULL) + (options.dir != NULL)) != 1 ||
        (pack != NULL && run != NULL) || (options.sealed && pack == NULL)) {
        usage();
    }
    read_cases(cases_path);
    if (listing) {
        for (size_t i = 0; i < ncases; i++) {
            printf("%s\n", cases[i].c.name);
        }
        return 0;
    }
    save_crash_handlers();
    if (run != NULL) {
        size_t i = find_case(run);
        /* stdout's buffer in static storage: cmocka's lines would otherwise leave a block on
           the heap that finish_run() counts. */
        static char stdout_buffer[BUFSIZ];
        setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
        answers = open_answers(results != NULL ? results : "/dev/stdout", "w");
        return finish_run(run_with_cmocka(i), at_start);
    }
    const char **names = check_malloc(ncases * sizeof(char *));
    for (size_t i = 0; i < ncases; i++) {
        names[i] = cases[i].c.name;
    }
    each = &options;
    if (pack != NULL) {
        packed.out = open_answers(pack, "w");
        packed.size = (size_t)fork_tests_file_limit(&options);
        packed.buffer = check_malloc(packed.size);
        options.ended = pack_case;
    }
    int status = fork_tests_run(&options, names, ncases, run_child, NULL);
    free(names);
    if (pack != NULL) {
        free(packed.buffer);
        fclose(packed.out);
        rmdir(options.dir);
    }
    free(own_dir);
    /* This process ran no code under test: LeakSanitizer's exit scan could find only ours. */
    free_cases();
    fork_tests_exit_if_clean(status, at_start);
    return status;
}
