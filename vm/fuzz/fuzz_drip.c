/* fuzz_drip.c -- libFuzzer entry point: compile and run arbitrary input, in
 * both copies of the bytecode loop, and require that they agree.
 *
 * Each input is a whole Drip program. It runs twice: in the counting loop
 * (as under --count), over the compiler's bytecode, and in the plain loop,
 * over the code the load-time pass has fused (vm/src/fuse.h). The two must
 * give the same result, the same output and the same errors; a difference
 * aborts, which libFuzzer reports as a crash and keeps the input. The VM is
 * set up and torn down for every run, so one cannot leak state into the
 * next, and AddressSanitizer's leak check sees everything freed. The fuzz
 * build caps the work an input can ask for (DRIP_STEP_LIMIT instructions,
 * strings of DRIP_MAX_STRING_LENGTH bytes): an endless loop or an
 * exponential string is a correct Drip program, not a bug, but it would stall
 * the fuzzer. Both loops count a fused instruction as the instructions it
 * stands for, so the limit stops them at the same place.
 *
 * What a run writes to stdout and stderr goes to streams that keep only its
 * length and a hash (glibc's fopencookie; stdout and stderr are assignable
 * there), so a program that prints a lot costs no memory. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../src/instrument.h"
#include "../src/vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    uint64_t hash; /* FNV-1a of the bytes */
    uint64_t length;
} Digest;

static ssize_t digest_write(void *cookie, const char *bytes, size_t size) {
    Digest *digest = cookie;
    for (size_t i = 0; i < size; i++) {
        digest->hash = (digest->hash ^ (uint8_t)bytes[i]) * 0x100000001b3u;
    }
    digest->length += size;
    return (ssize_t)size;
}

static FILE *digest_open(Digest *digest) {
    *digest = (Digest){.hash = 0xcbf29ce484222325u, .length = 0};
    cookie_io_functions_t io = {.write = digest_write};
    FILE *stream = fopencookie(digest, "w", io);
    if (stream == NULL) {
        abort();
    }
    return stream;
}

typedef struct {
    InterpretResult result;
    Digest out;
    Digest err;
} Run;

static Run run_once(const char *source, int size, bool counting) {
    Run run;
    FILE *real_out = stdout;
    FILE *real_err = stderr;
    stdout = digest_open(&run.out);
    stderr = digest_open(&run.err);
    vm_init();
    vm.instrumented = counting;
    run.result = interpret(source, size);
    vm_free();
    instrumentFree();
    fclose(stdout);
    fclose(stderr);
    stdout = real_out;
    stderr = real_err;
    return run;
}

static bool same_digest(Digest a, Digest b) {
    return a.hash == b.hash && a.length == b.length;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1 << 20) {
        return 0;
    }
    char *source = malloc(size + 1);
    if (source == NULL) {
        return 0;
    }
    memcpy(source, data, size);
    source[size] = '\0';
    Run counting = run_once(source, (int)size, true);
    Run plain = run_once(source, (int)size, false);
    free(source);
    if (plain.result != counting.result || !same_digest(plain.out, counting.out) ||
        !same_digest(plain.err, counting.err)) {
        fprintf(stderr,
                "fuzz_drip: the plain loop and the counting loop differ: result %d / %d, stdout "
                "%llu / %llu bytes, stderr %llu / %llu bytes (plain / counting)\n",
                (int)plain.result, (int)counting.result, (unsigned long long)plain.out.length,
                (unsigned long long)counting.out.length, (unsigned long long)plain.err.length,
                (unsigned long long)counting.err.length);
        abort();
    }
    return 0;
}
