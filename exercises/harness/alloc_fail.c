/* alloc_fail.c: allocations that fail on purpose (checker.h, "memory").
 *
 * A checker is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,
 * --wrap=strndup (exercises/harness/build.lua), so every call of those in the linked objects
 * goes to __wrap_NAME here, and __real_NAME reaches the real one (the sanitizers' own, which
 * keeps its checks). A wrapper counts the call and, when a case armed it, returns NULL with
 * errno ENOMEM, as an allocator that ran out of memory does, and remembers where the first
 * such call came from, so a report can name the allocation that failed. Not armed, a wrapper
 * costs a counter increment. Calls inside the C library (qsort's buffer, stdio) are not
 * wrapped and never fail; free() always works.
 */
#include "checker.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The sanitizers' symbolizer, when the program has it. */
extern void __sanitizer_symbolize_pc(void *pc, const char *format, char *out, size_t size)
    __attribute__((weak));

static long fail_from; /* 0: nothing fails */
static long count;
static const char *failed_call; /* the first failed allocation: its function, and caller */
static void *failed_caller;

void check_fail_allocations(long n) {
    fail_from = n;
    count = 0;
    failed_call = NULL;
}

long check_allocations(void) {
    return count;
}

/* Counts one allocation; true when it must fail. */
static int must_fail(const char *call, void *caller) {
    count++;
    if (fail_from > 0 && count >= fail_from) {
        if (failed_call == NULL) {
            failed_call = call;
            failed_caller = caller;
        }
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

/* "in grow_buffer /w/digits.c:21:9" -> "grow_buffer (digits.c:21)". */
static void tidy_place(const char *symbolized, char *out, size_t size) {
    char function[256] = "", file[256] = "";
    int line = 0;
    if (sscanf(symbolized, "in %255s %255[^:]:%d", function, file, &line) != 3) {
        out[0] = '\0';
        return;
    }
    const char *base = strrchr(file, '/');
    snprintf(out, size, "%s (%s:%d)", function, base == NULL ? file : base + 1, line);
}

const char *check_failed_allocation(void) {
    static char words[768];
    if (failed_call == NULL) {
        return "";
    }
    char place[640] = "";
    if (__sanitizer_symbolize_pc != NULL) {
        char symbolized[512] = "";
        /* The return address is the instruction after the call: one byte back is the call. */
        __sanitizer_symbolize_pc((char *)failed_caller - 1, "%F %L", symbolized, sizeof symbolized);
        tidy_place(symbolized, place, sizeof place);
    }
    snprintf(words, sizeof words, "%s%s%s", failed_call, place[0] != '\0' ? " in " : "", place);
    return words;
}

/* __wrap_NAME: counts the call, and fails it when a case armed the failures; else the real
   one (__real_NAME). The caller is where the call returns to. */
#define WRAP(type, name, parameters, arguments)                                                    \
    type __real_##name parameters;                                                                 \
    type __wrap_##name parameters;                                                                 \
    type __wrap_##name parameters {                                                                \
        return must_fail(#name, __builtin_return_address(0)) ? NULL : __real_##name arguments;     \
    }

WRAP(void *, malloc, (size_t size), (size))
WRAP(void *, calloc, (size_t n, size_t size), (n, size))
WRAP(void *, realloc, (void *block, size_t size), (block, size))
WRAP(char *, strdup, (const char *text), (text))
WRAP(char *, strndup, (const char *text, size_t most), (text, most))
