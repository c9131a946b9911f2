/* profile.c: the reference implementation of the chapter-165 exercise (see profile.h).
 *
 * parse_row is a hand-written scanner, one small function per part of the row grammar
 * (count, percentage, separator, name), each taking a cursor and returning where it
 * stopped or NULL. Nothing is copied until the whole line is known to be a row, so the
 * only allocation is the name, and a line that is not a row costs no malloc.
 *
 * inclusive keeps one open-addressing hash table keyed by frame name. The keys point
 * into the caller's stack strings (valid for the whole call), so no name is copied until
 * the result is built. "Count once per stack" needs no second table: each entry
 * remembers the index of the last stack that added to it, and a frame whose entry
 * already carries the current stack's index is a repeat (recursion) and adds nothing.
 * The work is therefore one hash lookup per frame, O(total frames) expected, plus the
 * final sort of the distinct names.
 *
 * Overflow is checked before every addition; uint64_t sums that would wrap are errors.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ parse_row */

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Adds one decimal digit to *value; false when the result would exceed UINT64_MAX. */
static bool push_digit(uint64_t *value, char digit) {
    uint64_t d = (uint64_t)(digit - '0');
    if (*value > (UINT64_MAX - d) / 10) {
        return false;
    }
    *value = *value * 10 + d;
    return true;
}

/* Reads a count: "12345" or "12,345,678" (first group 1-3 digits, then groups of exactly
   three). Returns the position after it, or NULL when the text is not a valid count. */
static const char *scan_count(const char *p, uint64_t *value) {
    *value = 0;
    size_t first = 0;
    while (is_digit(p[first])) {
        if (!push_digit(value, p[first])) {
            return NULL;
        }
        first++;
    }
    if (first == 0) {
        return NULL;
    }
    p += first;
    if (*p != ',') {
        return p;
    }
    if (first > 3) {
        return NULL; /* "1234,567" */
    }
    while (*p == ',') {
        for (int i = 1; i <= 3; i++) {
            if (!is_digit(p[i]) || !push_digit(value, p[i])) {
                return NULL; /* "1,23" or overflow */
            }
        }
        p += 4;
    }
    return is_digit(*p) ? NULL : p; /* "12,3456" */
}

/* Reads " (" blanks* "-"? digits "." digits "%)". Returns the position after ")" or NULL. */
static const char *scan_percentage(const char *p, double *pct) {
    if (p[0] != ' ' || p[1] != '(') {
        return NULL;
    }
    p += 2;
    while (*p == ' ') {
        p++;
    }
    const char *number = p;
    if (*p == '-') {
        p++;
    }
    const char *digits = p;
    while (is_digit(*p)) {
        p++;
    }
    if (p == digits || *p != '.' || !is_digit(p[1])) {
        return NULL;
    }
    p++;
    while (is_digit(*p)) {
        p++;
    }
    if (p[0] != '%' || p[1] != ')') {
        return NULL; /* also rejects cg_annotate's "(88.0%, 88.0%)" */
    }
    /* The span is validated, so strtod reads exactly "-?digits.digits". */
    *pct = strtod(number, NULL);
    return p + 2;
}

/* True when the name begins like another event column ("65,670 (22.35%) ..." or ". "),
   which is how callgrind_annotate prints rows with several events. */
static bool starts_with_count_column(const char *name) {
    if (name[0] == '.' && name[1] == ' ') {
        return true;
    }
    size_t n = strspn(name, "0123456789,");
    return n > 0 && is_digit(name[0]) && name[n] == ' ';
}

/* True when the name is a tree or call-site line, or indented text, not a function. */
static bool is_marker_or_indented(const char *name) {
    return name[0] == ' ' || name[0] == '\t' || strncmp(name, "* ", 2) == 0 ||
           strncmp(name, "> ", 2) == 0 || strncmp(name, "< ", 2) == 0 ||
           strncmp(name, "=> ", 3) == 0;
}

/* Length of the name without a trailing "\n" or "\r\n". */
static size_t name_length(const char *name) {
    size_t n = strlen(name);
    if (n > 0 && name[n - 1] == '\n') {
        n--;
        if (n > 0 && name[n - 1] == '\r') {
            n--;
        }
    }
    return n;
}

int parse_row(const char *line, Row *row) {
    if (row == NULL) {
        return -1;
    }
    row->ir = 0;
    row->has_pct = false;
    row->pct = -1.0;
    row->name = NULL;
    if (line == NULL) {
        return 0;
    }

    const char *p = line;
    while (*p == ' ') {
        p++;
    }
    uint64_t ir;
    p = scan_count(p, &ir);
    if (p == NULL) {
        return 0;
    }
    double pct = -1.0;
    const char *after_pct = scan_percentage(p, &pct);
    bool has_pct = after_pct != NULL;
    if (has_pct) {
        p = after_pct;
    }
    if (p[0] != ' ' || p[1] != ' ') {
        return 0;
    }
    const char *name = p + 2;
    size_t length = name_length(name);
    if (length == 0 || is_marker_or_indented(name) || starts_with_count_column(name)) {
        return 0;
    }

    char *copy = malloc(length + 1);
    if (copy == NULL) {
        return -1;
    }
    memcpy(copy, name, length);
    copy[length] = '\0';
    row->ir = ir;
    row->has_pct = has_pct;
    row->pct = has_pct ? pct : -1.0;
    row->name = copy;
    return 1;
}

/* ------------------------------------------------------------------ sum_named */

int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum) {
    if (needle == NULL || sum == NULL || (rows == NULL && count > 0)) {
        return -1;
    }
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (rows[i].name == NULL || strstr(rows[i].name, needle) == NULL) {
            continue;
        }
        if (rows[i].ir > UINT64_MAX - total) {
            return -1;
        }
        total += rows[i].ir;
    }
    *sum = total;
    return 0;
}

/* ------------------------------------------------------------------ inclusive */

/* One distinct frame name. key/length point into the caller's stack string. */
typedef struct {
    const char *key; /* NULL: empty slot */
    size_t length;
    uint64_t hash;
    uint64_t cost;
    size_t last_stack; /* 1 + index of the last stack that added to cost; 0: none */
} Entry;

typedef struct {
    Entry *slots;
    size_t capacity; /* a power of two */
    size_t used;
} FrameTable;

/* FNV-1a: simple, and good enough for identifier-like keys. */
static uint64_t hash_frame(const char *key, size_t length) {
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < length; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211u;
    }
    return h;
}

/* The slot holding key, or the empty slot where it belongs (linear probing). */
static Entry *find_slot(Entry *slots, size_t capacity, const char *key, size_t length,
                        uint64_t hash) {
    size_t i = (size_t)hash & (capacity - 1);
    for (;;) {
        Entry *e = &slots[i];
        if (e->key == NULL ||
            (e->hash == hash && e->length == length && memcmp(e->key, key, length) == 0)) {
            return e;
        }
        i = (i + 1) & (capacity - 1);
    }
}

/* Doubles the table; keeps the load factor at or below one half. */
static bool grow_table(FrameTable *table) {
    size_t capacity = table->capacity == 0 ? 64 : table->capacity * 2;
    if (capacity > SIZE_MAX / sizeof(Entry)) {
        return false;
    }
    Entry *slots = calloc(capacity, sizeof(Entry));
    if (slots == NULL) {
        return false;
    }
    for (size_t i = 0; i < table->capacity; i++) {
        Entry *old = &table->slots[i];
        if (old->key != NULL) {
            *find_slot(slots, capacity, old->key, old->length, old->hash) = *old;
        }
    }
    free(table->slots);
    table->slots = slots;
    table->capacity = capacity;
    return true;
}

/* Adds count to the frame's cost unless this stack already did. False on overflow or OOM. */
static bool add_frame(FrameTable *table, const char *key, size_t length, size_t stack_id,
                      uint64_t count) {
    if ((table->used + 1) * 2 > table->capacity && !grow_table(table)) {
        return false;
    }
    uint64_t hash = hash_frame(key, length);
    Entry *e = find_slot(table->slots, table->capacity, key, length, hash);
    if (e->key == NULL) {
        e->key = key;
        e->length = length;
        e->hash = hash;
        table->used++;
    }
    if (e->last_stack == stack_id) {
        return true; /* recursion: this stack already counted the frame */
    }
    if (e->cost > UINT64_MAX - count) {
        return false;
    }
    e->cost += count;
    e->last_stack = stack_id;
    return true;
}

/* Walks one stack's frames ("a;b;;c"), skipping empty ones. */
static bool add_stack(FrameTable *table, const char *stack, size_t stack_id, uint64_t count) {
    const char *frame = stack;
    for (;;) {
        const char *end = strchr(frame, ';');
        size_t length = end == NULL ? strlen(frame) : (size_t)(end - frame);
        if (length > 0 && !add_frame(table, frame, length, stack_id, count)) {
            return false;
        }
        if (end == NULL) {
            return true;
        }
        frame = end + 1;
    }
}

/* qsort order: cost descending (a three-way compare without branches), then name. */
static int compare_costs(const void *a, const void *b) {
    const Cost *x = a, *y = b;
    int by_cost = (x->cost < y->cost) - (x->cost > y->cost);
    return by_cost != 0 ? by_cost : strcmp(x->name, y->name);
}

static void free_costs(Cost *costs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(costs[i].name);
    }
    free(costs);
}

/* Copies the table into a sorted, caller-owned array. NULL on OOM. */
static Cost *collect_costs(const FrameTable *table) {
    Cost *costs = malloc((table->used == 0 ? 1 : table->used) * sizeof(Cost));
    if (costs == NULL) {
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < table->capacity; i++) {
        const Entry *e = &table->slots[i];
        if (e->key == NULL) {
            continue;
        }
        char *name = malloc(e->length + 1);
        if (name == NULL) {
            free_costs(costs, n);
            return NULL;
        }
        memcpy(name, e->key, e->length);
        name[e->length] = '\0';
        costs[n].name = name;
        costs[n].cost = e->cost;
        n++;
    }
    qsort(costs, n, sizeof(Cost), compare_costs);
    return costs;
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    if (costs == NULL || ncosts == NULL || (stacks == NULL && count > 0)) {
        return -1;
    }
    FrameTable table = {NULL, 0, 0};
    for (size_t i = 0; i < count; i++) {
        const char *stack = stacks[i].stack == NULL ? "" : stacks[i].stack;
        if (!add_stack(&table, stack, i + 1, stacks[i].count)) {
            free(table.slots);
            return -1;
        }
    }
    Cost *result = collect_costs(&table);
    size_t n = table.used;
    free(table.slots);
    if (result == NULL) {
        return -1;
    }
    *costs = result;
    *ncosts = n;
    return 0;
}
