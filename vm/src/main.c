/* main.c -- the drip command: run a file, or a REPL with no file.
 *
 *   drip [--count] [--profile] [--folded=PATH] [FILE]
 *   drip --disassemble FILE | --help | --version
 *
 * Exit codes follow clox and sysexits.h: 64 usage error, 65 compile error,
 * 70 runtime error, 74 a file that cannot be read or written. "Written"
 * includes the program's own output and the reports: a run whose output was
 * lost (a full disk, a closed pipe end) does not exit 0. The --folded file is
 * opened before anything runs, so a path that cannot be written costs no
 * run. The instrumentation reports go to stderr after the program's own
 * output, so stdout stays exactly what the program printed. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "compiler.h"
#include "debug.h"
#include "instrument.h"
#include "slurp.h"
#include "vm.h"

#define EXIT_USAGE 64
#define EXIT_COMPILE 65
#define EXIT_RUNTIME 70
#define EXIT_IO 74

static void print_usage(FILE *out) {
    fprintf(out,
            "Usage: drip [options] [FILE]\n"
            "Runs the Drip program in FILE, or starts a REPL when there is none.\n"
            "\n"
            "Options:\n"
            "  --count          after the run, print each opcode's count and share (stderr)\n"
            "  --profile        after the run, print calls, self and inclusive bytecodes\n"
            "                   per Drip function (stderr)\n"
            "  --folded=PATH    write Drip-level folded stacks (counts in bytecodes) to PATH,\n"
            "                   at most %d frames deep\n"
            "  --disassemble    print the bytecode of FILE instead of running it\n"
            "  --help           show this help\n"
            "  --version        show the version\n"
            "\n"
            "Exit status: 0 ok, 64 usage, 65 compile error, 70 runtime error, 74 I/O error\n"
            "(a file that cannot be read, or output that cannot be written).\n",
            FOLDED_DEPTH_MAX);
}

static int usage_error(const char *message, const char *argument) {
    fprintf(stderr, "drip: %s '%s'\n", message, argument);
    print_usage(stderr);
    return EXIT_USAGE;
}

/* Reads the whole file, NUL-terminated; NULL (with a message) when it
 * cannot. slurp grows the buffer as it goes, so pipes and /dev files work too. */
static char *read_source(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "Could not open file \"%s\".\n", path);
        return NULL;
    }
    char *buffer = slurp(file, length);
    fclose(file);
    if (buffer == NULL || *length > INT32_MAX / 2) {
        fprintf(stderr, "Could not read file \"%s\".\n", path);
        free(buffer);
        return NULL;
    }
    return buffer;
}

/* Flushes stream; false, with a message naming what was lost, if anything
 * written to it since the start could not be written. */
static bool flush_checked(FILE *stream, const char *what) {
    bool flushed = fflush(stream) == 0;
    int reason = errno;
    if (flushed && !ferror(stream)) {
        return true;
    }
    if (flushed) {
        fprintf(stderr, "drip: could not write %s.\n", what);
    } else {
        fprintf(stderr, "drip: could not write %s: %s.\n", what, strerror(reason));
    }
    return false;
}

/* One whole line at a time, however long; a line runs up to a NUL byte in
 * it, if it has one. */
static void repl(void) {
    char *line = NULL;
    size_t capacity = 0;
    for (;;) {
        printf("> ");
        fflush(stdout);
        if (getline(&line, &capacity, stdin) < 0) {
            printf("\n");
            break;
        }
        interpret(line, (int)strlen(line));
    }
    free(line);
}

static int disassemble_file(const char *source, size_t length) {
    ObjFunction *function = compile(source, (int)length);
    if (function == NULL) {
        return EXIT_COMPILE;
    }
    disassemble_function(function);
    return 0;
}

/* Runs the program, then writes the reports it asked for (unless it did
 * not compile: there is nothing to report). */
static int run_file(const char *source, size_t length) {
    InterpretResult result = interpret(source, (int)length);
    static const int status_of[] = {[INTERPRET_OK] = 0,
                                    [INTERPRET_COMPILE_ERROR] = EXIT_COMPILE,
                                    [INTERPRET_RUNTIME_ERROR] = EXIT_RUNTIME};
    int status = status_of[result];
    if (vm.instrumented && result != INTERPRET_COMPILE_ERROR) {
        fflush(stdout);
        bool written = instrumentReport(stderr);
        written = flush_checked(stderr, "the report (stderr)") && written;
        if (!written && status == 0) {
            status = EXIT_IO;
        }
    }
    return status;
}

typedef struct {
    const char *path;
    bool disassemble;
    bool help;
    bool version;
} Options;

/* Parses the command line into options and the instrument flags; returns
 * 0, or the exit status of a usage error (already reported). */
static int parse_options(int argc, const char *argv[], Options *options) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            options->help = true; /* the rest of the line is not looked at */
            return 0;
        } else if (strcmp(arg, "--version") == 0) {
            options->version = true;
            return 0;
        } else if (strcmp(arg, "--count") == 0) {
            instrument.count = true;
        } else if (strcmp(arg, "--profile") == 0) {
            instrument.profile = true;
        } else if (strncmp(arg, "--folded=", 9) == 0) {
            if (arg[9] == '\0') {
                return usage_error("--folded needs a path:", arg);
            }
            instrument.foldedPath = arg + 9;
        } else if (strcmp(arg, "--disassemble") == 0) {
            options->disassemble = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option", arg);
        } else if (options->path != NULL) {
            return usage_error("only one file can be run; extra argument", arg);
        } else {
            options->path = arg;
        }
    }
#ifdef DRIP_NO_INSTRUMENT
    if (instrumentWanted()) {
        fprintf(stderr, "drip: this build has no instrumentation (built with "
                        "DRIP_NO_INSTRUMENT).\n");
        return EXIT_USAGE;
    }
#endif
    if ((instrumentWanted() || options->disassemble) && options->path == NULL) {
        return usage_error("this option needs a FILE:",
                           instrumentWanted() ? "--count/--profile/--folded" : "--disassemble");
    }
    return 0;
}

/* Does what the options ask; returns the exit status before output checks. */
static int dispatch(const Options *options) {
    if (options->help) {
        print_usage(stdout);
        return 0;
    }
    if (options->version) {
        printf("drip %s\n", DRIP_VERSION);
        return 0;
    }
    if (options->path == NULL) {
        vm_init();
        repl();
        vm_free();
        return 0;
    }
    size_t length;
    char *source = read_source(options->path, &length);
    if (source == NULL) {
        return EXIT_IO;
    }
    if (!instrumentOpenFolded()) {
        free(source);
        return EXIT_IO;
    }
    vm_init();
    vm.instrumented = instrumentWanted();
    int status = options->disassemble ? disassemble_file(source, length) : run_file(source, length);
    vm_free();
    free(source);
    return status;
}

int main(int argc, const char *argv[]) {
    Options options = {0};
    int status = parse_options(argc, argv, &options);
    if (status == 0) {
        status = dispatch(&options);
    }
    instrumentFree();
    if (!flush_checked(stdout, "the output (stdout)") && status == 0) {
        status = EXIT_IO;
    }
    return status;
}
