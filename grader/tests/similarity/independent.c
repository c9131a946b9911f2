/* independent.c: a second correct solution of chapter 165's exercise, written apart from
 * solutions/165 for the similarity tests: two people solving the same exercise on their own
 * must come out as a pair with little in common (grader_spec.lua also grades it: full marks).
 *
 * parse_row walks the line once with an index and a small state for the digit groups;
 * inclusive chains its frame records in one array (links are indexes, so growing the array
 * moves no pointer) and stamps each record with the last stack that counted it.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#define DIGIT(c) ((c) >= '0' && (c) <= '9')

/* value * 10 + d into *acc, or 0 when it would not fit in 64 bits. */
static int mul_add(uint64_t *acc, int d) {
    if (*acc > UINT64_MAX / 10 || *acc * 10 > UINT64_MAX - (uint64_t)d) {
        return 0;
    }
    *acc = *acc * 10 + (uint64_t)d;
    return 1;
}

/* Lines that callgrind_annotate prints but that are not function rows: the call-tree
   markers, indented text, and a second event column ("1,234 (5.0%) " or ". "). */
static int looks_like_other_line(const char *s) {
    if (*s == ' ' || *s == '\t' || strncmp(s, "=> ", 3) == 0 ||
        (*s != '\0' && strchr("*><.", *s) && s[1] == ' ')) {
        return 1;
    }
    if (DIGIT(*s)) {
        const char *t = s;
        while (DIGIT(*t) || *t == ',') {
            ++t;
        }
        return *t == ' ';
    }
    return 0;
}

int parse_row(const char *line, Row *row) {
    if (!row) {
        return -1;
    }
    *row = (Row){.ir = 0, .has_pct = false, .pct = -1.0, .name = NULL};
    if (!line) {
        return 0;
    }
    size_t i = strspn(line, " ");
    uint64_t ir = 0;
    size_t start = i, group = 0; /* group: digits since the last comma */
    int commas = 0;
    for (; DIGIT(line[i]) || line[i] == ','; ++i) {
        if (line[i] == ',') {
            if ((commas == 0 && (group == 0 || group > 3)) || (commas > 0 && group != 3)) {
                return 0;
            }
            ++commas;
            group = 0;
        } else if (!mul_add(&ir, line[i] - '0')) {
            return 0;
        } else {
            ++group;
        }
    }
    if (i == start || (commas > 0 && group != 3)) {
        return 0;
    }

    bool has_pct = false;
    double pct = -1.0;
    if (line[i] == ' ' && line[i + 1] == '(') {
        size_t j = i + 2;
        j += strspn(line + j, " ");
        size_t num = j;
        if (line[j] == '-') {
            ++j;
        }
        size_t whole = strspn(line + j, "0123456789");
        size_t frac = line[j + whole] == '.' ? strspn(line + j + whole + 1, "0123456789") : 0;
        size_t end = j + whole + 1 + frac;
        if (whole > 0 && frac > 0 && line[end] == '%' && line[end + 1] == ')') {
            has_pct = true;
            pct = strtod(line + num, NULL);
            i = end + 2;
        }
    }
    if (strncmp(line + i, "  ", 2) != 0) {
        return 0;
    }
    const char *name = line + i + 2;
    size_t len = strlen(name); /* less one line end: "\n" or "\r\n" */
    if (len > 0 && name[len - 1] == '\n') {
        len -= len > 1 && name[len - 2] == '\r' ? 2 : 1;
    }
    if (len == 0 || looks_like_other_line(name)) {
        return 0;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    row->ir = ir;
    row->has_pct = has_pct;
    row->pct = pct;
    row->name = copy;
    return 1;
}

int sum_named(const Row *rows, size_t count, const char *needle, uint64_t *sum) {
    if (!needle || !sum || (count > 0 && !rows)) {
        return -1;
    }
    uint64_t acc = 0;
    for (const Row *r = rows; r != rows + count; ++r) {
        if (r->name && strstr(r->name, needle)) {
            if (UINT64_MAX - acc < r->ir) {
                return -1;
            }
            acc += r->ir;
        }
    }
    *sum = acc;
    return 0;
}

/* One distinct frame: where its name is in a stack string, its total, and a link to the
   next record of the same bucket (records[] index + 1; 0 ends the chain). */
typedef struct {
    const char *at;
    size_t len;
    size_t link;
    size_t stamp; /* 1 + the index of the last stack that counted this frame */
    uint64_t total;
} Record;

typedef struct {
    Record *records; /* room for nbuckets records */
    size_t n;
    size_t *heads; /* nbuckets chain starts (record index + 1) */
    size_t nbuckets;
} Frames;

static size_t bucket_of(const char *s, size_t len, size_t nbuckets) {
    size_t h = 5381;
    while (len-- > 0) {
        h = h * 33 + (unsigned char)*s++;
    }
    return h % nbuckets;
}

/* Rebuilds the chains over twice as many buckets, with room for as many records. */
static int rehash(Frames *f) {
    size_t nb = f->nbuckets ? f->nbuckets * 2 + 1 : 127;
    size_t *heads = calloc(nb, sizeof *heads);
    Record *grown = heads ? realloc(f->records, nb * sizeof *grown) : NULL;
    if (!grown) {
        free(heads);
        return 0;
    }
    f->records = grown;
    for (size_t r = 0; r < f->n; ++r) {
        size_t b = bucket_of(f->records[r].at, f->records[r].len, nb);
        f->records[r].link = heads[b];
        heads[b] = r + 1;
    }
    free(f->heads);
    f->heads = heads;
    f->nbuckets = nb;
    return 1;
}

/* The record of a frame, made when new; NULL when out of memory. */
static Record *record_for(Frames *f, const char *at, size_t len) {
    if (f->n >= f->nbuckets && !rehash(f)) {
        return NULL;
    }
    size_t b = bucket_of(at, len, f->nbuckets);
    for (size_t k = f->heads[b]; k != 0; k = f->records[k - 1].link) {
        Record *r = &f->records[k - 1];
        if (r->len == len && memcmp(r->at, at, len) == 0) {
            return r;
        }
    }
    Record *r = &f->records[f->n];
    *r = (Record){.at = at, .len = len, .link = f->heads[b], .stamp = 0, .total = 0};
    f->heads[b] = ++f->n;
    return r;
}

static int by_total_then_name(const void *pa, const void *pb) {
    const Cost *a = pa;
    const Cost *b = pb;
    if (a->cost != b->cost) {
        return a->cost > b->cost ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    if (!costs || !ncosts || (count > 0 && !stacks)) {
        return -1;
    }
    Frames f = {0};
    int ok = 1;
    for (size_t s = 0; ok && s < count; ++s) {
        const char *p = stacks[s].stack ? stacks[s].stack : "";
        while (ok) {
            size_t len = strcspn(p, ";");
            Record *r = len ? record_for(&f, p, len) : NULL;
            if (len && !r) {
                ok = 0;
            } else if (r && r->stamp != s + 1) {
                r->stamp = s + 1;
                ok = UINT64_MAX - r->total >= stacks[s].count;
                r->total += ok ? stacks[s].count : 0;
            }
            if (p[len] == '\0') {
                break;
            }
            p += len + 1;
        }
    }
    Cost *out = ok ? calloc(f.n ? f.n : 1, sizeof *out) : NULL;
    size_t made = 0;
    while (out && made < f.n) {
        Record *r = &f.records[made];
        out[made].name = malloc(r->len + 1);
        if (!out[made].name) {
            while (made-- > 0) {
                free(out[made].name);
            }
            free(out);
            out = NULL;
            break;
        }
        memcpy(out[made].name, r->at, r->len);
        out[made].name[r->len] = '\0';
        out[made].cost = r->total;
        ++made;
    }
    size_t n = f.n;
    free(f.records);
    free(f.heads);
    if (!out) {
        return -1;
    }
    qsort(out, n, sizeof *out, by_total_then_name);
    *costs = out;
    *ncosts = n;
    return 0;
}
