/* prelude.c: what every attack in this folder shares.
 *
 * Each attack is a submission a determined student could write, knowing everything about the
 * grader. The grader's tests (grader/attacks.lua, "attack suite") build it as one profile.c:
 * this file, the attack, and its base implementation (the shipped stubs, the reference or a
 * mutant of it, as attacks.lua says) where the attack says @BASE@, or after it. @ROOT@ becomes the
 * repository's absolute path, @OUT@ the folder the batch writes this attack's results to and
 * @FIXTURES@ the fixture folder graded with: the attacks know where everything is, so when they
 * fail it is the sandbox that stopped them, not ignorance.
 *
 * Everything an attack does is reported on stderr as "attack: ..." lines; a process an attack
 * leaves behind names itself "drip-attack" (prctl), so the test can look for survivors.
 */
#define _GNU_SOURCE
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define ATTACK_ROOT "@ROOT@"
#define ATTACK_OUT "@OUT@"

/* Where the repository could be, as seen from the folder a check runs in. */
static const char *const attack_roots[] = {ATTACK_ROOT,
                                           "/autograder/source",
                                           ".",
                                           "..",
                                           "../..",
                                           "../../..",
                                           "../../../..",
                                           "../../../../..",
                                           "../../../../../..",
                                           "../../../../../../..",
                                           NULL};

/* The check's command line: ./check --cases FILE --run FUNCTION.ID --results /dev/fd/3. */
static int attack_argc;
static char **attack_argv;

/* Not for a sealed attack (attacks.lua): code of its own before main would keep the grader
   from sealing its cases, which is what such an attack is there to try. */
#ifndef ATTACK_SEALED
__attribute__((constructor(101))) static void attack_keep_argv(int argc, char **argv) {
    attack_argc = argc;
    attack_argv = argv;
}
#endif

/* The value after option (or after valgrind's words, the checker's), or "". */
static const char *attack_option(const char *option) {
    for (int i = 1; i + 1 < attack_argc; i++) {
        if (strcmp(attack_argv[i], option) == 0) {
            return attack_argv[i + 1];
        }
    }
    return "";
}

/* The function the check calls: parse_row, sum_named or inclusive. */
static const char *attack_mode(void) {
    static char function[32];
    const char *name = attack_option("--run");
    size_t n = strcspn(name, ".");
    snprintf(function, sizeof function, "%.*s",
             (int)(n < sizeof function ? n : sizeof function - 1), name);
    return function;
}

/* Up to limit bytes of a file, NUL-terminated, or NULL. */
static char *attack_slurp(const char *path, size_t limit) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *text = malloc(limit + 1);
    size_t n = text == NULL ? 0 : fread(text, 1, limit, f);
    fclose(f);
    if (text != NULL) {
        text[n] = '\0';
    }
    return text;
}

/* The first ROOT/relative that opens for reading, for every root above; NULL when none. */
static char *attack_find(const char *relative) {
    for (int i = 0; attack_roots[i] != NULL; i++) {
        char *path = NULL;
        if (asprintf(&path, "%s/%s", attack_roots[i], relative) < 0) {
            return NULL;
        }
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            close(fd);
            fprintf(stderr, "attack: found %s\n", path);
            return path;
        }
        free(path);
    }
    fprintf(stderr, "attack: %s is nowhere to be read\n", relative);
    return NULL;
}

/* Whether the program runs under valgrind: its preloaded library is in LD_PRELOAD. */
static bool attack_under_valgrind(void) {
    const char *preload = getenv("LD_PRELOAD");
    return preload != NULL && strstr(preload, "vgpreload") != NULL;
}

/* Writes into code the function "mov %rdi,%rax; xor %edx,%edx; the four rol of valgrind's
   client request preamble; xchg %rbx,%rbx; mov %rdx,%rax; ret": a client request whose
   argument block is at %rdi. It is stored XORed with a key not folded into the code at build
   time, so the build's byte search cannot see it; code has room for ATTACK_REQUEST_SIZE bytes. */
enum { ATTACK_REQUEST_SIZE = 28 };
static void attack_decode_request(unsigned char *code) {
    static const unsigned char coded[ATTACK_REQUEST_SIZE] = {
        0x12, 0xd3, 0xa2, 0x6b, 0x88, 0x12, 0x9b, 0x9d, 0x59, 0x12, 0x9b, 0x9d, 0x57, 0x12,
        0x9b, 0x9d, 0x67, 0x12, 0x9b, 0x9d, 0x69, 0x12, 0xdd, 0x81, 0x12, 0xd3, 0x8a, 0x99};
    volatile unsigned char key = 0x5a;
    for (size_t i = 0; i < sizeof coded; i++) {
        code[i] = coded[i] ^ key;
    }
}

/* A stand-in hot loop, for an attack to run natively, uncounted (it returns 1 then). */
static volatile unsigned long attack_sink;
static unsigned long attack_hot_loop(unsigned long n) {
    for (unsigned long i = 0; i < n; i++) {
        attack_sink += i * i;
    }
    return 1;
}

/* Leaves the check's process tree behind: a daemon in a session of its own. Returns in the
   daemon (true) and in the caller (false). */
static int attack_daemon(void) {
    pid_t child = fork();
    if (child < 0) {
        return 0;
    }
    if (child > 0) {
        waitpid(child, NULL, 0);
        return 0;
    }
    setsid();
    if (fork() != 0) {
        _exit(0);
    }
    prctl(PR_SET_NAME, "drip-attack");
    return 1;
}
