/* profile.c (grader/165/mutants): a second, independent implementation of the chapter-165 API
 * with known faults that can be switched on one at a time.
 *
 * `make verify-fixtures` and the grader's tests build this file with -DFAULT_<NAME> (see
 * mutants.lua beside it) to prove that the fixtures and checks catch each mistake a student is
 * likely to make, and report it as that mistake. Built with no FAULT_ macro it is a correct
 * solution, written separately from solutions/165 so that a fault and the reference never share a
 * blind spot by construction.
 *
 * Design: parse_row scans the line left to right; sum_named is a plain loop; inclusive counts with
 * an open-addressing hash table keyed by frame text, remembering in each entry the last stack that
 * added to it, so a frame repeated on one stack (recursion) is counted once per stack.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#ifdef FAULT_U32
#define NARROW(x) ((uint64_t)(uint32_t)(x)) /* every sum kept in 32 bits */
#else
#define NARROW(x) (x)
#endif

#define LONG_NAME 256

/* ------------------------------------------------------------------------------ parse_row */

static int digit(char c) {
    return c >= '0' && c <= '9';
}

/* Appends one digit; 0 when the value would pass UINT64_MAX. */
static int append_digit(uint64_t *v, char c) {
    uint64_t d = (uint64_t)(c - '0');
    if (*v > (UINT64_MAX - d) / 10) {
        return 0;
    }
    *v = *v * 10 + d;
    return 1;
}

/* "1234" or "1,234,567": returns the end, or NULL when it is not a count. */
static const char *read_count(const char *p, uint64_t *out) {
    uint64_t v = 0;
    size_t lead = 0;
    while (digit(p[lead])) {
        if (!append_digit(&v, p[lead])) {
            return NULL;
        }
        lead++;
    }
    if (lead == 0) {
        return NULL;
    }
    p += lead;
#ifdef FAULT_LOOSE_COMMAS
    while (*p == ',' && digit(p[1])) {
        for (p++; digit(*p); p++) {
            if (!append_digit(&v, *p)) {
                return NULL;
            }
        }
    }
#else
    if (*p == ',' && lead > 3) {
        return NULL;
    }
    while (*p == ',') {
        for (int i = 1; i <= 3; i++) {
            if (!digit(p[i]) || !append_digit(&v, p[i])) {
                return NULL;
            }
        }
        p += 4;
    }
    if (digit(*p)) {
        return NULL;
    }
#endif
    *out = v;
    return p;
}

/* " (" blanks "-"? digits "." digits "%)": returns the end, or NULL. */
static const char *read_pct(const char *p, double *pct) {
    if (p[0] != ' ' || p[1] != '(') {
        return NULL;
    }
    p += 2;
    while (*p == ' ') {
        p++;
    }
    char *end = NULL;
    double value = strtod(p, &end);
    if (end == p || end[0] != '%' || end[1] != ')' || !digit(end[-1]) ||
        memchr(p, '.', (size_t)(end - p)) == NULL) {
        return NULL;
    }
    *pct = value;
    return end + 2;
}

static int not_a_function(const char *name) {
    if (name[0] == ' ' || name[0] == '\t' || name[0] == '\0') {
        return 1;
    }
    if (strncmp(name, "* ", 2) == 0 || strncmp(name, "> ", 2) == 0 || strncmp(name, "< ", 2) == 0 ||
        strncmp(name, "=> ", 3) == 0 || strncmp(name, ". ", 2) == 0) {
        return 1;
    }
    size_t n = strspn(name, "0123456789,");
    return n > 0 && digit(name[0]) && name[n] == ' ';
}

static size_t name_length(const char *name) {
    size_t n = strlen(name);
    if (n > 0 && name[n - 1] == '\n') {
        n--;
#ifndef FAULT_KEEPS_CR
        if (n > 0 && name[n - 1] == '\r') {
            n--;
        }
#endif
    }
#ifdef FAULT_FIRST_SPACE
    size_t space = strcspn(name, " ");
    n = space < n ? space : n;
#endif
#ifdef FAULT_TRUNCATE
    n = n < LONG_NAME - 1 ? n : LONG_NAME - 1;
#endif
    return n;
}

int parse_row(const char *line, Row *row) {
    row->name = NULL;
    row->has_pct = false;
    row->pct = -1.0;
    const char *p = line;
    while (*p == ' ') {
        p++;
    }
    uint64_t ir = 0;
    if ((p = read_count(p, &ir)) == NULL) {
        return 0;
    }
    double pct = -1.0;
    const char *after = read_pct(p, &pct);
#ifdef FAULT_NEEDS_PCT
    if (after == NULL) {
        return 0;
    }
#endif
    if (after != NULL) {
        p = after;
    }
    if (p[0] != ' ' || p[1] != ' ' || not_a_function(p + 2)) {
        return 0;
    }
    const char *name = p + 2;
    size_t n = name_length(name);
    if (n == 0) {
        return 0;
    }
#ifdef FAULT_STACK_BUFFER
    char buffer[LONG_NAME];
    memcpy(buffer, name, n); /* no length check: long names overflow the stack buffer */
    buffer[n] = '\0';
    name = buffer;
#endif
    char *copy = malloc(n + 1);
    if (copy == NULL) {
        return -1;
    }
    memcpy(copy, name, n);
    copy[n] = '\0';
    row->ir = NARROW(ir);
    row->has_pct = after != NULL;
    row->pct = after != NULL ? pct : -1.0;
    row->name = copy;
    return 1;
}

/* ------------------------------------------------------------------------------ sum_named */

/* 1 when needle occurs in name. */
static int contains(const char *name, const char *needle) {
#ifdef FAULT_HANGS_ON_EMPTY_NEEDLE
    /* Counts occurrences first; an empty needle never advances. */
    size_t hits = 0;
    for (const char *q = name; (q = strstr(q, needle)) != NULL; q += strlen(needle)) {
        hits++;
    }
    return hits > 0;
#else
    return strstr(name, needle) != NULL;
#endif
}

int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum) {
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
#ifdef FAULT_NULL_NAME
        if (!contains(rows[i].name, needle)) { /* strstr on a NULL name */
#else
        if (rows[i].name == NULL || !contains(rows[i].name, needle)) {
#endif
            continue;
        }
#ifndef FAULT_WRAPS
        if (rows[i].ir > UINT64_MAX - total) {
            return -1;
        }
#endif
        total = NARROW(total + rows[i].ir);
    }
    *sum = total;
    return 0;
}

/* ------------------------------------------------------------------------------ inclusive */

typedef struct {
    const char *text; /* NULL: free slot; points into the caller's stack */
    size_t length;
    uint64_t cost;
    size_t stamp; /* 1 + index of the last stack that added to this frame */
} Slot;

typedef struct {
    Slot *slots;
    size_t size; /* power of two */
    size_t used;
} Frames;

static size_t hash_text(const char *s, size_t n) {
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    }
    return h;
}

static Slot *lookup(Frames *f, const char *s, size_t n) {
#ifdef FAULT_QUADRATIC
    /* A linear search over every known frame: O(distinct names) per frame. */
    for (size_t i = 0; i < f->size; i++) {
        Slot *slot = &f->slots[i];
        if (slot->text != NULL && slot->length == n && memcmp(slot->text, s, n) == 0) {
            return slot;
        }
    }
#endif
    size_t i = hash_text(s, n) & (f->size - 1);
    while (f->slots[i].text != NULL) {
        if (f->slots[i].length == n && memcmp(f->slots[i].text, s, n) == 0) {
            return &f->slots[i];
        }
        i = (i + 1) & (f->size - 1);
    }
    return &f->slots[i];
}

static int grow(Frames *f) {
    Frames bigger = {calloc(f->size * 2, sizeof(Slot)), f->size * 2, f->used};
    if (bigger.slots == NULL) {
        return 0;
    }
    for (size_t i = 0; i < f->size; i++) {
        if (f->slots[i].text != NULL) {
            *lookup(&bigger, f->slots[i].text, f->slots[i].length) = f->slots[i];
        }
    }
    free(f->slots);
    *f = bigger;
    return 1;
}

/* Adds count to one frame of stack number id; 0 on overflow or out of memory. */
static int add_frame(Frames *f, const char *s, size_t n, size_t id, uint64_t count) {
#ifdef FAULT_TRUNCATE
    n = n < LONG_NAME - 1 ? n : LONG_NAME - 1;
#endif
    if ((f->used + 1) * 2 > f->size && !grow(f)) {
        return 0;
    }
    Slot *slot = lookup(f, s, n);
    if (slot->text == NULL) {
        *slot = (Slot){s, n, 0, 0};
        f->used++;
    }
#ifndef FAULT_EVERY_OCCURRENCE
    if (slot->stamp == id + 1) {
        return 1; /* already counted for this stack (recursion) */
    }
#endif
    slot->stamp = id + 1;
#ifndef FAULT_WRAPS
    if (slot->cost > UINT64_MAX - count) {
        return 0;
    }
#endif
    slot->cost = NARROW(slot->cost + count);
    return 1;
}

static int add_stack(Frames *f, const char *stack, size_t id, uint64_t count) {
#ifdef FAULT_NEEDS_SEMICOLON
    /* Finds the leaf first, assuming every stack has a caller. */
    const char *leaf = strrchr(stack, ';');
    if (strlen(leaf + 1) == 0) {
        return 1;
    }
#endif
    const char *p = stack;
    for (;;) {
        size_t n = strcspn(p, ";");
#ifdef FAULT_EMPTY_FRAMES
        if (!add_frame(f, p, n, id, count)) {
            return 0;
        }
#else
        if (n > 0 && !add_frame(f, p, n, id, count)) {
            return 0;
        }
#endif
        if (p[n] == '\0') {
            return 1;
        }
        p += n + 1;
    }
}

static int by_cost_then_name(const void *a, const void *b) {
    const Cost *x = a, *y = b;
    if (x->cost != y->cost) {
        return x->cost > y->cost ? -1 : 1;
    }
#ifdef FAULT_TIES
    return strcmp(y->name, x->name); /* ties in reverse order */
#else
    return strcmp(x->name, y->name);
#endif
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    Frames f = {calloc(64, sizeof(Slot)), 64, 0};
    if (f.slots == NULL) {
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        const char *stack = stacks[i].stack;
#ifndef FAULT_NULL_STACK
        stack = stack == NULL ? "" : stack; /* a NULL stack is an empty one */
#endif
#ifdef FAULT_DROPS_ZERO
        if (stacks[i].count == 0) {
            continue; /* forgets the functions seen only on stacks of count 0 */
        }
#endif
        if (!add_stack(&f, stack, i, stacks[i].count)) {
            free(f.slots);
            return -1;
        }
    }
    Cost *out = malloc((f.used > 0 ? f.used : 1) * sizeof(Cost));
    size_t k = 0;
    for (size_t i = 0; out != NULL && i < f.size; i++) {
        if (f.slots[i].text != NULL) {
            char *name = malloc(f.slots[i].length + 1);
            if (name == NULL) {
                break;
            }
            memcpy(name, f.slots[i].text, f.slots[i].length);
            name[f.slots[i].length] = '\0';
            out[k++] = (Cost){name, f.slots[i].cost};
        }
    }
    if (out == NULL || k != f.used) {
        for (size_t i = 0; i < k; i++) {
            free(out[i].name);
        }
        free(out);
        free(f.slots);
        return -1;
    }
    qsort(out, k, sizeof(Cost), by_cost_then_name);
#ifndef FAULT_LEAK
    free(f.slots);
#endif
    *costs = out;
    *ncosts = k;
    return 0;
}
