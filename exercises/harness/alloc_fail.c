/* alloc_fail.c: the allocation wrappers behind alloc_fail.h.
 *
 * The linker's --wrap=SYMBOL sends every call of SYMBOL in the linked objects to
 * __wrap_SYMBOL, and __real_SYMBOL to the real one (here AddressSanitizer's, which keeps
 * its checks). Each wrapper counts the call and, when a test armed it, returns NULL with
 * errno ENOMEM, as an allocator that ran out of memory does. Not armed, a wrapper costs a
 * counter increment. Only allocations are wrapped: free() always works.
 */
#include "alloc_fail.h"

#include <errno.h>
#include <stddef.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *block, size_t size);
char *__real_strdup(const char *text);
char *__real_strndup(const char *text, size_t most);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *block, size_t size);
char *__wrap_strdup(const char *text);
char *__wrap_strndup(const char *text, size_t most);

static long fail_from; /* 0: nothing fails */
static long count;

void alloc_fail_from(long n) {
    fail_from = n;
    count = 0;
}

long alloc_fail_count(void) {
    return count;
}

/* Counts one allocation; true when it must fail. */
static int must_fail(void) {
    count++;
    if (fail_from > 0 && count >= fail_from) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size) {
    return must_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size) {
    return must_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *block, size_t size) {
    return must_fail() ? NULL : __real_realloc(block, size);
}

char *__wrap_strdup(const char *text) {
    return must_fail() ? NULL : __real_strdup(text);
}

char *__wrap_strndup(const char *text, size_t most) {
    return must_fail() ? NULL : __real_strndup(text, most);
}
