/* main.c -- the drip command: run a file, or a REPL with no file.
 *
 *   drip [--count] [--profile] [--folded=PATH] [FILE]
 *   drip --disassemble FILE | --help | --version
 *
 * Exit codes follow clox and sysexits.h: 64 usage error, 65 compile error,
 * 70 runtime error, 74 a file that cannot be read or written. The
 * instrumentation reports go to stderr after the program's own output, so
 * stdout stays exactly what the program printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "compiler.h"
#include "debug.h"
#include "instrument.h"
#include "vm.h"

#define EXIT_USAGE 64
#define EXIT_COMPILE 65
#define EXIT_RUNTIME 70
#define EXIT_IO 74

static void printUsage(FILE *out) {
    fprintf(out,
            "Usage: drip [options] [FILE]\n"
            "Runs the Drip program in FILE, or starts a REPL when there is none.\n"
            "\n"
            "Options:\n"
            "  --count          after the run, print each opcode's count and share (stderr)\n"
            "  --profile        after the run, print calls, self and inclusive bytecodes\n"
            "                   per Drip function (stderr)\n"
            "  --folded=PATH    write Drip-level folded stacks (counts in bytecodes) to PATH\n"
            "  --disassemble    print the bytecode of FILE instead of running it\n"
            "  --help           show this help\n"
            "  --version        show the version\n"
            "\n"
            "Exit status: 0 ok, 64 usage, 65 compile error, 70 runtime error, 74 I/O error.\n");
}

static int usageError(const char *message, const char *argument) {
    fprintf(stderr, "drip: %s '%s'\n", message, argument);
    printUsage(stderr);
    return EXIT_USAGE;
}

/* Reads the whole file; NULL (with a message) when it cannot. */
static char *readFile(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "Could not open file \"%s\".\n", path);
        return NULL;
    }
    size_t capacity = 4096;
    size_t size = 0;
    char *buffer = malloc(capacity);
    while (buffer != NULL) {
        size += fread(buffer + size, 1, capacity - size - 1, file);
        if (size < capacity - 1) {
            break;
        }
        capacity *= 2;
        char *grown = realloc(buffer, capacity);
        if (grown == NULL) {
            free(buffer);
            buffer = NULL;
        }
        buffer = grown;
    }
    if (buffer == NULL || ferror(file) || size > INT32_MAX / 2) {
        fprintf(stderr, "Could not read file \"%s\".\n", path);
        free(buffer);
        fclose(file);
        return NULL;
    }
    fclose(file);
    buffer[size] = '\0';
    *length = size;
    return buffer;
}

static void repl(void) {
    size_t capacity = 1024;
    char *line = malloc(capacity);
    if (line == NULL) {
        return;
    }
    for (;;) {
        printf("> ");
        fflush(stdout);
        size_t length = 0;
        bool gotAny = false;
        /* Read one whole line, however long. */
        while (fgets(line + length, (int)(capacity - length), stdin) != NULL) {
            gotAny = true;
            length += strlen(line + length);
            if (length > 0 && line[length - 1] == '\n') {
                break;
            }
            if (length + 1 < capacity) {
                break; /* a NUL byte in the input, or end of file */
            }
            capacity *= 2;
            char *grown = realloc(line, capacity);
            if (grown == NULL) {
                break;
            }
            line = grown;
        }
        if (!gotAny) {
            printf("\n");
            break;
        }
        interpret(line, (int)length);
    }
    free(line);
}

static int exitCodeFor(InterpretResult result) {
    switch (result) {
    case INTERPRET_COMPILE_ERROR: return EXIT_COMPILE;
    case INTERPRET_RUNTIME_ERROR: return EXIT_RUNTIME;
    default: return 0;
    }
}

static int runFile(const char *path, bool disassemble) {
    size_t length;
    char *source = readFile(path, &length);
    if (source == NULL) {
        return EXIT_IO;
    }
    int status;
    if (disassemble) {
        ObjFunction *function = compile(source, (int)length);
        if (function != NULL) {
            disassemble_function(function);
        }
        status = function == NULL ? EXIT_COMPILE : 0;
    } else {
        InterpretResult result = interpret(source, (int)length);
        status = exitCodeFor(result);
        if (vm.instrumented && result != INTERPRET_COMPILE_ERROR) {
            fflush(stdout);
            if (!instrumentReport(stderr) && status == 0) {
                status = EXIT_IO;
            }
        }
    }
    free(source);
    return status;
}

int main(int argc, const char *argv[]) {
    const char *path = NULL;
    bool disassemble = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            printUsage(stdout);
            return 0;
        } else if (strcmp(arg, "--version") == 0) {
            printf("drip %s\n", DRIP_VERSION);
            return 0;
        } else if (strcmp(arg, "--count") == 0) {
            instrument.count = true;
        } else if (strcmp(arg, "--profile") == 0) {
            instrument.profile = true;
        } else if (strncmp(arg, "--folded=", 9) == 0) {
            if (arg[9] == '\0') {
                return usageError("--folded needs a path:", arg);
            }
            instrument.foldedPath = arg + 9;
        } else if (strcmp(arg, "--disassemble") == 0) {
            disassemble = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usageError("unknown option", arg);
        } else if (path != NULL) {
            return usageError("only one file can be run; extra argument", arg);
        } else {
            path = arg;
        }
    }

#ifdef DRIP_NO_INSTRUMENT
    if (instrumentWanted()) {
        fprintf(stderr, "drip: this build has no instrumentation (built with "
                        "DRIP_NO_INSTRUMENT).\n");
        return EXIT_USAGE;
    }
#endif
    if ((instrumentWanted() || disassemble) && path == NULL) {
        return usageError("this option needs a FILE:",
                          instrumentWanted() ? "--count/--profile/--folded" : "--disassemble");
    }

    vm_init();
    vm.instrumented = instrumentWanted();
    int status = 0;
    if (path == NULL) {
        repl();
    } else {
        status = runFile(path, disassemble);
    }
    vm_free();
    instrumentFree();
    return status;
}
