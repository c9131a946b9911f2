/* check.c: chapter 999's checker. It calls group_digits (digits.h) on the values of a case and
 * writes what it answered (exercises/harness/checker.h); the same program, built from the
 * student's digits.c or the reference's, serves `make exercise-999`, `make grade` and
 * `make expected`.
 *
 * The buffer group_digits writes into is a malloc'd block of exactly the size the call says
 * (none at all for size 0: out is NULL), filled with JUNK first: a byte written past its end
 * is a sanitizer report at the student's line, and a -1 that wrote into it anyway shows.
 *
 * Fields and answers (the answer text is what the harness compares):
 *
 *   group_digits.ID   value (VALUE, or VALUE SIZE: one call per field, with a buffer of
 *                     SIZE bytes, DEFAULT_SIZE when it is not given)
 *       VALUE size=SIZE   N "TEXT"            returned N, out holds TEXT up to its '\0'
 *                         N unterminated      returned N, but no '\0' in the SIZE bytes
 *                         -1 | -1 but-out-changed | returned-K (K below -1)
 */
#define _POSIX_C_SOURCE 200809L

#include "checker.h"
#include "digits.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for any value's text (26 characters) and its '\0', with some to spare. */
#define DEFAULT_SIZE 32

/* The largest buffer a case may ask for: a typo must not ask for gigabytes. */
#define MOST_SIZE 4096

/* What the buffer holds before the call: no digit, comma or '\0'. */
#define JUNK '#'

/* The value and buffer size a field asks for; a field that is neither form stops the run. */
static void read_call(const CheckField *f, uint64_t *value, size_t *size) {
    if (check_u64(f->value, value)) {
        *size = DEFAULT_SIZE;
        return;
    }
    uint64_t room;
    char *number = check_text_and_number(f, &room);
    bool fine = check_u64(number, value) && room <= MOST_SIZE;
    free(number);
    if (!fine) {
        check_bad_field(f, "expected VALUE or VALUE SIZE (whole numbers, SIZE at most 4096)");
    }
    *size = (size_t)room;
}

static bool untouched(const char *out, size_t size) {
    for (size_t i = 0; i < size; i++) {
        if (out[i] != JUNK) {
            return false;
        }
    }
    return true;
}

static void call_group_digits(const CheckField *f) {
    uint64_t value;
    size_t size;
    read_call(f, &value, &size);
    char *out = size == 0 ? NULL : check_malloc(size);
    if (out != NULL) {
        memset(out, JUNK, size);
    }
    int rc = group_digits(value, out, size);
    char *key = check_format("%llu size=%zu", (unsigned long long)value, size);
    if (rc >= 0) {
        size_t length = out == NULL ? 0 : strnlen(out, size);
        if (length == size) {
            check_answerf(key, "%d unterminated", rc);
        } else {
            check_answerf(key, "%d \"%s\"", rc, out);
        }
    } else if (rc == -1) {
        check_answer(key, out == NULL || untouched(out, size) ? "-1" : "-1 but-out-changed");
    } else {
        check_answerf(key, "returned-%d", rc);
    }
    free(key);
    free(out);
}

static void run_group_digits(const CheckCase *c) {
    for (size_t i = 0; i < c->nfields; i++) {
        const CheckField *f = &c->fields[i];
        if (strcmp(f->key, "value") == 0) {
            call_group_digits(f);
        } else if (strcmp(f->key, "case") != 0) { /* "case": a case with no field at all */
            check_bad_field(f, "unknown field (a group_digits case has value fields)");
        }
    }
}

int main(int argc, char **argv) {
    static const CheckFunction functions[] = {{"group_digits", run_group_digits}};
    return check_main(argc, argv, functions, sizeof functions / sizeof functions[0]);
}
