/* callgrind.c: the callgrind.out reader (see callgrind.h).
 *
 * The format (valgrind's docs/cl-format.xml, checked against files that
 * valgrind 3.19 writes) is line based:
 *
 *   header    "key: value" (version, creator, pid, cmd, part, thread, desc,
 *             positions, events, event, summary, totals, timeframe);
 *   names     ob= (object), fl= fi= fe= (file), fn= (function), and for the
 *             next call cob= cfi= cfl= cfn=, for jumps jfi= jfn=;
 *   costs     "POSITIONS COSTS": npos position tokens ("positions: line" has
 *             one, "instr line" two), then up to one count per event;
 *   calls     "calls=COUNT TARGET" followed by ONE cost line whose counts are
 *             the inclusive cost of those calls, not self cost;
 *   jumps     "jump=COUNT TARGET", "jcnd=EXEC/FOLLOWED TARGET" (ignored);
 *   comments  '#' in column 1; blank lines.
 *
 * Traps this reader handles on purpose:
 *   - Name compression: "fn=(12) fib" defines id 12, later "fn=(12)" reuses
 *     it, and the definition often comes first on a cfn= or jfn= line. There
 *     are three id spaces: objects (ob, cob), files (fl fi fe cfi cfl jfi) and
 *     functions (fn cfn jfn). Uncompressed files write the bare name; a name
 *     may start with '(' ("(below main)"), so only "(DIGITS)" is an id.
 *   - fi=/fe= switch the source file for inlined code; the function does not
 *     change, so they must not start a new function.
 *   - cob= applies to the next call only (it is written only when the
 *     callee's object differs from the current one).
 *   - Identity is (object, function): "(below main)" exists in the program
 *     and in libc, and merging them by name would invent recursion.
 *   - Positions may be "+N", "-N", "*", decimal or 0x-hex; we only need to
 *     skip them, but we check their form so garbage is reported.
 *   - Several parts: valgrind --combine-dumps=yes (with --dump-every-bb or
 *     --dump-before, or callgrind_control -d) writes one "part: N" section
 *     per dump, each with its own summary:/totals: for its stretch of the
 *     run; names stay compressed across parts. The parts are summed: the
 *     graph is the whole run, as one dump at the end would have given.
 * Only the first event (Ir in every profile we make) is kept. Every part
 * must end with "totals:" (or at least carry "summary:") and the self costs
 * must add up to the sum of them: a file cut short fails that check with a
 * clear message.
 */
#define _POSIX_C_SOURCE 200809L
#include "callgrind.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "grow.h"
#include "message.h"
#include "slurp.h"

enum { NO_ID = -1 };

/* Compressed ids index an array, so a damaged "fn=(4000000000)" must not
 * allocate gigabytes: valgrind numbers names 1, 2, 3, ... in the order it
 * defines them, each definition "(N) x" on a line of its own, so an id above
 * the file's length in bytes cannot come from valgrind. */

/* An id table maps a compressed id "(N)" to a name number. */
typedef struct {
    int64_t *names;
    size_t capacity;
} IdTable;

typedef struct {
    Callgrind *graph;
    const char *file;
    size_t line;
    size_t length; /* of the file, in bytes: no name id is larger */
    IdTable objects, files, functions;
    int npos;                                /* position tokens per cost line */
    int nevents;                             /* 0 until "events:" */
    int64_t object;                          /* current ob= name number */
    int64_t function;                        /* current function index or NO_ID */
    int64_t call_object;                     /* cob= for the next call, or NO_ID */
    int64_t call_name;                       /* cfn= name number, or NO_ID */
    int64_t pending_arc;                     /* arc index after calls=, until its cost line */
    bool has_totals, has_summary, seen_body; /* in the current part */
    uint64_t summary, totals;                /* of the current part */
    uint64_t self_sum;                       /* of every part so far */
} Reader;

static int fail(Reader *r, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    free(r->graph->error);
    r->graph->error = message_at(r->file, r->line, fmt, args);
    va_end(args);
    return -1;
}

static bool starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void skip_blanks(const char **s) {
    while (**s == ' ' || **s == '\t') {
        (*s)++;
    }
}

/* One position token: "*", "+N", "-N", "N" or "0xHEX". */
static int skip_position(const char **s) {
    const char *p = *s;
    if (*p == '*') {
        p++;
    } else {
        if (*p == '+' || *p == '-') {
            p++;
        }
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
            const char *digits = p;
            while (isxdigit((unsigned char)*p)) {
                p++;
            }
            if (p == digits) {
                return -1;
            }
        } else {
            uint64_t ignored;
            if (decimal_read(&p, &ignored) != 0) {
                return -1;
            }
        }
    }
    if (*p != '\0' && *p != ' ' && *p != '\t') {
        return -1;
    }
    *s = p;
    return 0;
}

static int skip_positions(Reader *r, const char **s, const char *what) {
    for (int i = 0; i < r->npos; i++) {
        skip_blanks(s);
        if (**s == '\0' && i > 0) {
            return 0; /* calls=1 0 with fewer target tokens is tolerated */
        }
        if (skip_position(s) != 0) {
            return fail(r, "bad position in %s", what);
        }
    }
    return 0;
}

static int64_t add_name(Reader *r, const char *name, size_t length) {
    int64_t number = intern_add(&r->graph->names, name, length);
    if (number < 0) {
        fail(r, "out of memory");
    }
    return number;
}

static int set_id(Reader *r, IdTable *table, uint64_t id, int64_t name) {
    if (id >= table->capacity) {
        size_t old = table->capacity;
        int64_t *names =
            id < SIZE_MAX ? grow(table->names, &table->capacity, (size_t)id + 1, sizeof *names, 64)
                          : NULL;
        if (names == NULL) {
            return fail(r, "out of memory");
        }
        for (size_t i = old; i < table->capacity; i++) {
            names[i] = NO_ID;
        }
        table->names = names;
    }
    table->names[id] = name;
    return 0;
}

/* Reads "(ID) name", "(ID)" or "name" into a name number (-1 on error). */
static int64_t read_name(Reader *r, IdTable *table, const char *text, const char *key) {
    const char *p = text;
    if (*p == '(' && p[1] >= '0' && p[1] <= '9') {
        p++;
        uint64_t id;
        if (decimal_read(&p, &id) != 0 || *p != ')') {
            return fail(r, "bad compressed name in %s=", key);
        }
        p++;
        if (id > r->length) {
            return fail(r, "name id %llu in %s= is larger than the file (%zu bytes)",
                        (unsigned long long)id, key, r->length);
        }
        if (*p == '\0') {
            if (id >= table->capacity || table->names[id] == NO_ID) {
                return fail(r, "%s=(%llu) uses an id that was never defined", key,
                            (unsigned long long)id);
            }
            return table->names[id];
        }
        if (*p != ' ') {
            return fail(r, "bad compressed name in %s=", key);
        }
        p++;
        int64_t name = add_name(r, p, strlen(p));
        if (name < 0 || set_id(r, table, id, name) != 0) {
            return -1;
        }
        return name;
    }
    return add_name(r, p, strlen(p));
}

/* The function index of (object, name), created on first sight. */
static int64_t function_of(Reader *r, int64_t object, int64_t name) {
    Callgrind *g = r->graph;
    uint32_t key[2] = {(uint32_t)object, (uint32_t)name};
    int64_t index = intern_add(&g->function_keys, key, sizeof key);
    CgFunction *grown = index >= 0 ? grow(g->functions, &g->function_capacity,
                                          g->function_count + 1, sizeof *grown, 256)
                                   : NULL;
    if (grown == NULL) {
        return fail(r, "out of memory");
    }
    g->functions = grown;
    if ((size_t)index == g->function_count) { /* new: grow zeroed its costs */
        g->functions[g->function_count++] = (CgFunction){.object = key[0], .name = key[1]};
    }
    return index;
}

/* The arc index of (caller, callee), created on first sight. */
static int64_t arc_of(Reader *r, int64_t caller, int64_t callee) {
    Callgrind *g = r->graph;
    uint32_t key[2] = {(uint32_t)caller, (uint32_t)callee};
    int64_t index = intern_add(&g->arc_keys, key, sizeof key);
    CgArc *grown =
        index >= 0 ? grow(g->arcs, &g->arc_capacity, g->arc_count + 1, sizeof *grown, 256) : NULL;
    if (grown == NULL) {
        return fail(r, "out of memory");
    }
    g->arcs = grown;
    if ((size_t)index == g->arc_count) {
        g->arcs[g->arc_count++] = (CgArc){.caller = key[0], .callee = key[1]};
    }
    return index;
}

static int add_u64(Reader *r, uint64_t *sum, uint64_t value, const char *what) {
    if (value > UINT64_MAX - *sum) {
        return fail(r, "%s overflows 64 bits", what);
    }
    *sum += value;
    return 0;
}

/* A cost line: positions, then up to nevents counts; the first one counts. */
static int cost_line(Reader *r, const char *p) {
    if (r->nevents == 0) {
        return fail(r, "cost line before the events: line");
    }
    if (r->function == NO_ID) {
        return fail(r, "cost line before any fn= line");
    }
    if (skip_positions(r, &p, "cost line") != 0) {
        return -1;
    }
    uint64_t first = 0;
    for (int i = 0;; i++) {
        skip_blanks(&p);
        if (*p == '\0') {
            break;
        }
        if (i == r->nevents) {
            return fail(r, "more counts than events on a cost line");
        }
        uint64_t value;
        if (decimal_read(&p, &value) != 0 || (*p != '\0' && *p != ' ' && *p != '\t')) {
            return fail(r, "bad count on a cost line (not a number, or more than 64 bits)");
        }
        if (i == 0) {
            first = value;
        }
    }
    if (r->pending_arc != NO_ID) {
        CgArc *arc = &r->graph->arcs[r->pending_arc];
        r->pending_arc = NO_ID;
        return add_u64(r, &arc->inclusive, first, "an arc's inclusive cost");
    }
    CgFunction *f = &r->graph->functions[r->function];
    if (add_u64(r, &f->self, first, "a function's self cost") != 0) {
        return -1;
    }
    return add_u64(r, &r->self_sum, first, "the sum of self costs");
}

static int calls_line(Reader *r, const char *p) {
    if (r->function == NO_ID) {
        return fail(r, "calls= before any fn= line");
    }
    if (r->call_name == NO_ID) {
        return fail(r, "calls= without a cfn= line naming the callee");
    }
    uint64_t count;
    if (decimal_read(&p, &count) != 0 || (*p != ' ' && *p != '\0')) {
        return fail(r, "bad call count in calls=");
    }
    if (skip_positions(r, &p, "calls=") != 0) {
        return -1;
    }
    skip_blanks(&p);
    if (*p != '\0') {
        return fail(r, "unexpected text after calls=");
    }
    int64_t object = r->call_object != NO_ID ? r->call_object : r->object;
    int64_t callee = function_of(r, object, r->call_name);
    if (callee < 0) {
        return -1;
    }
    int64_t arc = arc_of(r, r->function, callee);
    if (arc < 0) {
        return -1;
    }
    r->call_object = NO_ID;
    r->pending_arc = arc;
    return add_u64(r, &r->graph->arcs[arc].calls, count, "a call count");
}

/* jump=COUNT TARGET or jcnd=EXEC/FOLLOWED TARGET: checked, then ignored. */
static int jump_line(Reader *r, const char *p, bool conditional) {
    uint64_t value;
    if (decimal_read(&p, &value) != 0) {
        return fail(r, "bad count in a jump line");
    }
    if (conditional) {
        if (*p != '/' || (p++, decimal_read(&p, &value)) != 0) {
            return fail(r, "bad jcnd= counts (want EXECUTED/FOLLOWED)");
        }
    }
    return skip_positions(r, &p, "a jump line");
}

/* ob=, fn=, cfn=, ... and the line-kind lines with '='. 1 when handled. */
static int name_line(Reader *r, const char *line) {
    static const struct {
        const char *key;
        char space; /* 'o' objects, 'f' files, 'n' functions */
    } keys[] = {{"ob", 'o'},  {"cob", 'o'}, {"fl", 'f'}, {"fi", 'f'},  {"fe", 'f'}, {"cfi", 'f'},
                {"cfl", 'f'}, {"jfi", 'f'}, {"fn", 'n'}, {"cfn", 'n'}, {"jfn", 'n'}};
    const char *eq = strchr(line, '=');
    if (eq == NULL) {
        return 0;
    }
    size_t key_len = (size_t)(eq - line);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strlen(keys[i].key) != key_len || strncmp(line, keys[i].key, key_len) != 0) {
            continue;
        }
        IdTable *table = keys[i].space == 'o'   ? &r->objects
                         : keys[i].space == 'f' ? &r->files
                                                : &r->functions;
        int64_t name = read_name(r, table, eq + 1, keys[i].key);
        if (name < 0) {
            return -1;
        }
        const char *key = keys[i].key;
        if (strcmp(key, "ob") == 0) {
            r->object = name;
        } else if (strcmp(key, "cob") == 0) {
            r->call_object = name;
        } else if (strcmp(key, "fn") == 0) {
            r->function = function_of(r, r->object, name);
            r->call_name = NO_ID;
            r->call_object = NO_ID;
            if (r->function < 0) {
                return -1;
            }
        } else if (strcmp(key, "cfn") == 0) {
            r->call_name = name;
        }
        return 1;
    }
    return 0;
}

static int positions_header(Reader *r, const char *value) {
    int count = 0;
    const char *p = value;
    for (;;) {
        skip_blanks(&p);
        if (*p == '\0') {
            break;
        }
        size_t word = strcspn(p, " \t");
        if (!(word == 5 && starts_with(p, "instr")) && !(word == 4 && starts_with(p, "line"))) {
            return fail(r, "unknown position kind in positions: (want instr and/or line)");
        }
        p += word;
        count++;
    }
    if (count == 0 || count > 2) {
        return fail(r, "positions: needs instr and/or line");
    }
    r->npos = count;
    return 0;
}

/* Counts the events and keeps the first one's name. */
static int events_header(Reader *r, const char *value) {
    int count = 0;
    for (const char *p = value;; count++) {
        skip_blanks(&p);
        const char *start = p;
        p += strcspn(p, " \t");
        if (p == start) {
            break;
        }
        if (count == 0) {
            free(r->graph->event);
            r->graph->event = strndup(start, (size_t)(p - start));
            if (r->graph->event == NULL) {
                return fail(r, "out of memory");
            }
        }
    }
    if (count == 0) {
        return fail(r, "events: names no event");
    }
    r->nevents = count;
    return 0;
}

static int total_header(Reader *r, const char *value, uint64_t *total, bool *seen) {
    const char *p = value;
    skip_blanks(&p);
    if (decimal_read(&p, total) != 0 || (*p != '\0' && *p != ' ' && *p != '\t')) {
        return fail(r, "bad number in a summary:/totals: line");
    }
    *seen = true;
    return 0;
}

/* Ends the current part: its totals: (or summary:) joins the graph's total. */
static int end_part(Reader *r, const char *which) {
    if (!r->has_totals && !r->has_summary) {
        return fail(r, "no totals: or summary: line%s (truncated?)", which);
    }
    uint64_t part = r->has_totals ? r->totals : r->summary;
    if (part > UINT64_MAX - r->graph->totals) {
        return fail(r, "the parts' totals overflow 64 bits");
    }
    r->graph->totals += part;
    r->graph->parts++;
    r->has_totals = r->has_summary = r->seen_body = false;
    return 0;
}

/* "part: N": a new dump of a --combine-dumps=yes file. The first part's line
 * comes before anything it counts; any later one ends the part before it. */
static int start_part(Reader *r) {
    if (r->pending_arc != NO_ID) {
        return fail(r, "part: after calls= without its cost line");
    }
    if (r->has_totals || r->has_summary || r->seen_body) {
        return end_part(r, " in the part before this one");
    }
    return 0;
}

/* The header key of a "key: value" line ("" when it is not one): the keys of the format
 * (cl-format.xml), for the reader and for callgrind_sniff. */
static const char *header_key(const char *line, size_t length) {
    static const char *const keys[] = {"version", "creator", "pid",       "cmd",    "part",
                                       "thread",  "desc",    "positions", "events", "event",
                                       "summary", "totals",  "timeframe"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t n = strlen(keys[k]);
        if (length > n && memcmp(line, keys[k], n) == 0 && line[n] == ':') {
            return keys[k];
        }
    }
    return "";
}

/* "key: value" lines. 1 handled, 0 not a header, -1 error. */
static int header_line(Reader *r, const char *line) {
    const char *key = header_key(line, strlen(line));
    if (key[0] == '\0') {
        return 0;
    }
    const char *value = line + strlen(key) + 1;
    int status = 0; /* the other keys are known and ignored */
    if (strcmp(key, "positions") == 0) {
        status = positions_header(r, value);
    } else if (strcmp(key, "events") == 0) {
        status = events_header(r, value);
    } else if (strcmp(key, "summary") == 0) {
        status = total_header(r, value, &r->summary, &r->has_summary);
    } else if (strcmp(key, "totals") == 0) {
        status = total_header(r, value, &r->totals, &r->has_totals);
    } else if (strcmp(key, "part") == 0) {
        status = start_part(r);
    } else if (strcmp(key, "version") == 0) {
        skip_blanks(&value);
        if (*value != '1') {
            status = fail(r, "unsupported format version (this reader knows version 1)");
        }
    }
    return status == 0 ? 1 : -1;
}

/* "STACK COUNT": a line of folded stacks, the format fold writes. */
static bool looks_folded(const char *line) {
    const char *blank = strrchr(line, ' ');
    if (blank == NULL || blank == line || blank[1] == '\0') {
        return false;
    }
    for (const char *p = blank + 1; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
    }
    return true;
}

static int handle_line(Reader *r, const char *line) {
    if (line[0] == '\0' || line[0] == '#') {
        return 0;
    }
    bool cost = strchr("0123456789+-*", line[0]) != NULL; /* line[0] is not the NUL */
    if (r->pending_arc != NO_ID && !cost) {
        return fail(r, "calls= line not followed by its cost line");
    }
    if (cost) {
        r->seen_body = true;
        return cost_line(r, line);
    }
    if (starts_with(line, "calls=")) {
        return calls_line(r, line + 6);
    }
    if (starts_with(line, "jump=")) {
        return jump_line(r, line + 5, false);
    }
    if (starts_with(line, "jcnd=")) {
        return jump_line(r, line + 5, true);
    }
    int status = name_line(r, line);
    if (status != 0) {
        r->seen_body = true;
        return status < 0 ? -1 : 0;
    }
    status = header_line(r, line);
    if (status != 0) {
        return status < 0 ? -1 : 0;
    }
    if (r->line == 1 && looks_folded(line)) {
        return fail(r, "folded stacks, not a callgrind profile (top, flame and stacks read "
                       "folded stacks; fold and calls read callgrind.out files)");
    }
    return fail(r, "unrecognised line (not part of the callgrind format)");
}

/* Control characters (NUL included) mean a binary or damaged file. */
static int check_bytes(Reader *r, const char *line, size_t len) {
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 0x20 && c != '\t') {
            if (c == 0) {
                return fail(r, "binary data (NUL byte)");
            }
            return fail(r, "binary data (control character 0x%02x)", c);
        }
    }
    return 0;
}

static int finish(Reader *r) {
    if (r->pending_arc != NO_ID) {
        return fail(r, "file ends after calls= without its cost line (truncated?)");
    }
    if (r->nevents == 0) {
        return fail(r, "no events: line (not a callgrind profile?)");
    }
    bool had_totals = r->has_totals;
    if (end_part(r, r->graph->parts > 0 ? " in the last part" : "") != 0) {
        return -1;
    }
    if (r->self_sum != r->graph->totals) {
        if (r->graph->parts > 1) {
            return fail(r,
                        "the self costs add up to %llu but the totals: of the %zu parts "
                        "(--combine-dumps=yes) add up to %llu (truncated or damaged?)",
                        (unsigned long long)r->self_sum, r->graph->parts,
                        (unsigned long long)r->graph->totals);
        }
        return fail(r, "the self costs add up to %llu but %s says %llu (truncated or damaged?)",
                    (unsigned long long)r->self_sum,
                    had_totals ? "totals:" : "summary:", (unsigned long long)r->graph->totals);
    }
    return 0;
}

/* The line at *p (up to '\n', without a '\r' before it): its start and length; *p moves past it. */
static const char *next_line(const char **p, const char *end, size_t *length) {
    const char *start = *p;
    const char *newline = memchr(start, '\n', (size_t)(end - start));
    const char *stop = newline ? newline : end;
    *p = newline ? newline + 1 : end;
    *length = (size_t)(stop - start) - (stop > start && stop[-1] == '\r');
    return start;
}

static int parse_text(Reader *r, char *text, size_t len) {
    if (len == 0) {
        return fail(r, "empty file (not a callgrind profile)");
    }
    for (const char *p = text, *end = text + len; p < end;) {
        r->line++;
        size_t line_len;
        char *line = (char *)next_line(&p, end, &line_len); /* in text, ours to cut */
        if (check_bytes(r, line, line_len) != 0) {
            return -1;
        }
        while (line_len > 0 && (line[line_len - 1] == ' ' || line[line_len - 1] == '\t')) {
            line_len--;
        }
        line[line_len] = '\0';
        if (handle_line(r, line) != 0) {
            return -1;
        }
    }
    return finish(r);
}

static void reset(Callgrind *g) {
    memset(g, 0, sizeof *g);
    intern_init(&g->names);
    intern_init(&g->function_keys);
    intern_init(&g->arc_keys);
}

/* Reads text (len bytes and a NUL, malloc'd: freed here); when text is NULL, fails with
 * why. */
static int read_text(const char *name, char *text, size_t len, const char *why, Callgrind *out) {
    Reader r = {.graph = out,
                .file = name,
                .length = len,
                .object = NO_ID,
                .function = NO_ID,
                .call_object = NO_ID,
                .call_name = NO_ID,
                .pending_arc = NO_ID};
    r.npos = 1;
    r.object = text != NULL ? intern_add(&out->names, "???", 3) : NO_ID;
    int status = text == NULL   ? fail(&r, "%s", why)
                 : r.object < 0 ? fail(&r, "out of memory")
                                : parse_text(&r, text, len);
    free(r.objects.names);
    free(r.files.names);
    free(r.functions.names);
    free(text);
    return status;
}

int callgrind_read_buffer(const char *name, const char *data, size_t len, Callgrind *out) {
    reset(out);
    char *text = malloc(len + 1);
    if (text != NULL) {
        memcpy(text, data, len);
        text[len] = '\0';
    }
    return read_text(name, text, len, "out of memory", out);
}

int callgrind_read_file(const char *path, Callgrind *out) {
    reset(out);
    size_t len = 0;
    const char *why = NULL;
    char *text = slurp_file(path, &len, &why);
    return read_text(path, text, len, why, out);
}

void callgrind_free(Callgrind *g) {
    intern_free(&g->names);
    intern_free(&g->function_keys);
    intern_free(&g->arc_keys);
    free(g->functions);
    free(g->arcs);
    free(g->event);
    free(g->error);
    reset(g);
}

const char *callgrind_function_name(const Callgrind *g, size_t f) {
    return g->names.keys[g->functions[f].name].bytes;
}

const char *callgrind_object_name(const Callgrind *g, size_t f) {
    return g->names.keys[g->functions[f].object].bytes;
}

CgKind callgrind_sniff(const char *data, size_t len) {
    static const char *const callgrind_only[] = {"version", "positions", "part", "pid", "thread"};
    const char *p = data, *end = data + len;
    bool header = false, events = false, callgrind_key = false;
    size_t length = 0;
    const char *line = "";
    while (p < end) {
        line = next_line(&p, end, &length);
        if (length == 0 || (line[0] == '#' && !header)) {
            if (!header && length >= 18 && memcmp(line, "# callgrind format", 18) == 0) {
                return CG_CALLGRIND;
            }
            continue;
        }
        const char *key = header_key(line, length);
        if (key[0] == '\0') {
            break; /* the first line that is not a header line */
        }
        const char *value = line + strlen(key) + 1;
        size_t value_length = length - strlen(key) - 1;
        while (value_length > 0 && (*value == ' ' || *value == '\t')) {
            value++, value_length--;
        }
        if (strcmp(key, "creator") == 0 && value_length >= 9) {
            if (memcmp(value, "callgrind", 9) == 0) {
                return CG_CALLGRIND;
            }
            if (value_length >= 10 && memcmp(value, "cachegrind", 10) == 0) {
                return CG_CACHEGRIND;
            }
        }
        for (size_t k = 0; k < sizeof callgrind_only / sizeof callgrind_only[0]; k++) {
            callgrind_key |= strcmp(key, callgrind_only[k]) == 0;
        }
        header = true;
        events |= strcmp(key, "events") == 0;
        length = 0; /* no body line seen yet */
    }
    if (!events) {
        return CG_NONE;
    }
    bool body_starts_with_file = length >= 3 && memcmp(line, "fl=", 3) == 0;
    return !callgrind_key && body_starts_with_file ? CG_CACHEGRIND : CG_CALLGRIND;
}
