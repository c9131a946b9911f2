/* fold.c: callgrind call graph -> folded stacks (see fold.h).
 *
 * The proportional split (shared/notes/folding-and-flame-graphs.md, §3):
 *
 *  1. Nodes are (object, function) with their self cost; arcs carry their
 *     inclusive cost as weight. Self-loops (fib'2 -> fib'2 from
 *     --separate-recs) are dropped: their cost is already in self.
 *  2. Cycles are cut by a depth-first search from the roots (nodes nobody
 *     calls), heaviest first, children by descending weight and ties by
 *     name; an arc to a node on the DFS stack is a back edge and is removed.
 *     Nodes still unvisited (a cycle nobody enters) start further searches,
 *     heaviest first. What remains is a DAG in which every node that had a
 *     caller still has one.
 *  3. For each node with self cost, walk upwards: split the amount among the
 *     callers in proportion to the arc weights with largest-remainder
 *     apportionment (floor shares, then one more unit to the largest
 *     remainders, ties to the heavier caller, then by name), recurse into
 *     each caller with a share > 0, and emit the path when a root is reached.
 *     amount * weight needs 128 bits, and so may the sum of the weights
 *     (computed exactly in wide.h's 128-bit Wide).
 *     A share below the threshold (totals / resolution) is not walked: the
 *     small shares of one split are summed into one line OTHER;CALLEE;...;LEAF,
 *     or just OTHER;LEAF when the sum itself is below the threshold. So every
 *     line but those carries at least the threshold or is a whole self cost
 *     that never split: at most totals / threshold + 2 * functions lines.
 *  4. Lines are kept as paths of function numbers, each distinct path once
 *     (intern.h), not as texts; they are sorted bytewise by the texts they
 *     stand for (compared frame by frame) and printed frame by frame.
 *
 * Each split sums to its input and every branch ends at a root, so the
 * counts add up to the total and the lines ending in f add up to self(f) by
 * construction (merged shares keep their leaf). Work is bounded by
 * min(self / threshold, number of paths) per node.
 * When the graph is a tree each node has one caller, every split is trivial
 * and the stacks are exact. Otherwise context beyond one arc is assumed
 * independent of the path (invented stacks are possible) and recursion is
 * flattened into its outermost instance; self, totals and the per-function
 * inclusive cost (counted once per stack) stay right.
 *
 * Determinism: every order above is fixed by weight, then function name,
 * then object name, then index; qsort needs the graph in a file-level
 * variable for its comparisons (fine for a single-threaded tool).
 */
#define _POSIX_C_SOURCE 200809L
#include "fold.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "intern.h"
#include "wide.h"

typedef struct {
    uint32_t node;
    bool removed;
    uint64_t weight;
} Edge;

typedef struct {
    Edge *items;
    size_t count;
    size_t capacity;
} EdgeList;

/* What walk_up returns when the line budget is used up (errors are -1). */
enum { TOO_MANY_LINES = 1 };

/* One node of the upward walk: its amount and how far its split has got. */
typedef struct {
    uint64_t amount;
    uint64_t *shares; /* with several callers: each one's share */
    size_t next;      /* the next caller to walk into; SIZE_MAX before the first visit */
    uint64_t merged;  /* the shares below the threshold, for one OTHER_CALLERS line */
} Step;

typedef struct {
    const Callgrind *graph;
    size_t n;
    EdgeList *callers; /* in-arcs without self-loops */
    EdgeList *callees; /* out-arcs without self-loops */
    uint32_t *path;    /* current walk, leaf first; room for FOLD_OTHER_NODE after the root */
    Step *steps;       /* parallel to path */
    size_t depth;
    uint64_t threshold; /* shares below it are merged */
    size_t line_budget; /* FOLD_AUTO: the distinct stacks of an exact fold; 0 for no limit */
    FoldResult *out;
    size_t line_capacity;
} Folder;

static const Callgrind *sort_graph;

static int compare_nodes(uint32_t a, uint32_t b) {
    int c = strcmp(callgrind_function_name(sort_graph, a), callgrind_function_name(sort_graph, b));
    if (c == 0) {
        c = strcmp(callgrind_object_name(sort_graph, a), callgrind_object_name(sort_graph, b));
    }
    return c != 0 ? c : (a > b) - (a < b);
}

/* Heavier first, then by name. */
static int compare_edges(const void *pa, const void *pb) {
    const Edge *a = pa, *b = pb;
    if (a->weight != b->weight) {
        return a->weight > b->weight ? -1 : 1;
    }
    return compare_nodes(a->node, b->node);
}

/* No list gets a node twice: the reader makes one arc per (caller, callee) (arc_of in
 * callgrind.c), and the callers rebuilt from the callee lists are as unique. */
static int push_edge(EdgeList *list, uint32_t node, uint64_t weight) {
    Edge *items = grow(list->items, &list->capacity, list->count + 1, sizeof *items, 4);
    if (items == NULL) {
        return -1;
    }
    list->items = items;
    list->items[list->count++] = (Edge){.node = node, .weight = weight};
    return 0;
}

/* Sorts each of lists[0..n) by compare_edges (qsort must not see a NULL array, even an
 * empty one). */
static void sort_lists(const Callgrind *g, EdgeList *lists, size_t n) {
    sort_graph = g;
    for (size_t i = 0; i < n; i++) {
        if (lists[i].count > 1) {
            qsort(lists[i].items, lists[i].count, sizeof(Edge), compare_edges);
        }
    }
}

static void free_lists(EdgeList *lists, size_t n) {
    if (lists == NULL) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        free(lists[i].items);
    }
    free(lists);
}

/* Builds caller and callee lists without self-loops; counts the loops. */
static int build_edges(const Callgrind *g, EdgeList **callers, EdgeList **callees,
                       size_t *self_loops) {
    size_t n = g->function_count;
    *callers = calloc(n ? n : 1, sizeof **callers);
    *callees = calloc(n ? n : 1, sizeof **callees);
    if (*callers == NULL || *callees == NULL) {
        return -1;
    }
    *self_loops = 0;
    for (size_t i = 0; i < g->arc_count; i++) {
        const CgArc *arc = &g->arcs[i];
        if (arc->caller == arc->callee) {
            (*self_loops)++;
            continue;
        }
        if (push_edge(&(*callees)[arc->caller], arc->callee, arc->inclusive) != 0 ||
            push_edge(&(*callers)[arc->callee], arc->caller, arc->inclusive) != 0) {
            return -1;
        }
    }
    sort_lists(g, *callers, n);
    sort_lists(g, *callees, n);
    return 0;
}

/* A depth-first walk along lists (callers or callees), with an explicit stack: a long call
 * chain must not become deep C recursion. */
typedef struct {
    EdgeList *lists;
    char *state;     /* 0 new, 1 on the stack, 2 done */
    uint32_t *stack; /* the nodes on the stack */
    size_t *next;    /* per node on the stack: its next edge to look at */
} Walk;

/* Walks from start (a new node). An edge to a node on the stack is a back edge: removed and
 * counted in *cut, or passed over when cut is NULL. done(context, node) is told of each node
 * once all its edges are walked, just before it is marked done; -1 when it fails. */
static int walk_from(Walk *w, uint32_t start, size_t *cut, int (*done)(void *, uint32_t),
                     void *context) {
    size_t top = 0;
    w->stack[top++] = start;
    w->state[start] = 1;
    w->next[start] = 0;
    while (top > 0) {
        uint32_t u = w->stack[top - 1];
        EdgeList *edges = &w->lists[u];
        if (w->next[u] == edges->count) {
            if (done != NULL && done(context, u) != 0) {
                return -1;
            }
            w->state[u] = 2;
            top--;
            continue;
        }
        Edge *e = &edges->items[w->next[u]++];
        if (w->state[e->node] == 1 && cut != NULL) {
            e->removed = true;
            (*cut)++;
        } else if (w->state[e->node] == 0) {
            w->state[e->node] = 1;
            w->next[e->node] = 0;
            w->stack[top++] = e->node;
        }
    }
    return 0;
}

/* ---- display names ---------------------------------------------------- */

typedef struct {
    const Callgrind *graph;
    Walk walk;            /* up the callers: a function is named after all of them */
    char **base;          /* the function's own name */
    const char **context; /* caller context inside the raw name, "" if none */
    char **full;          /* base + "'" + context, what a callee's context starts with */
} Cleaner;

/* r equals x or is x cut just before one of its quotes. */
static bool is_boundary_prefix(const char *r, const char *x) {
    size_t n = strlen(r);
    return strncmp(r, x, n) == 0 && (x[n] == '\0' || x[n] == '\'');
}

/* After a quote: skips a recursion level "DIGITS" or "DIGITS'" if present. */
static const char *skip_level(const char *r, bool *had_level) {
    const char *d = r;
    while (*d >= '0' && *d <= '9') {
        d++;
    }
    *had_level = d > r && (*d == '\0' || *d == '\'');
    if (!*had_level) {
        return r;
    }
    return *d == '\'' ? d + 1 : d;
}

/* Does some resolved caller explain the suffix rest of raw[0..base_len)?
 * Callers still being resolved (a recursion cycle) are passed over. */
static bool caller_explains(const Cleaner *c, uint32_t f, const char *raw, size_t base_len,
                            const char *rest) {
    const EdgeList *callers = &c->walk.lists[f];
    for (size_t k = 0; k < callers->count; k++) {
        uint32_t u = callers->items[k].node;
        if (c->walk.state[u] != 2) {
            continue;
        }
        if (is_boundary_prefix(rest, c->full[u])) {
            return true;
        }
        if (strlen(c->base[u]) == base_len && strncmp(c->base[u], raw, base_len) == 0 &&
            is_boundary_prefix(rest, c->context[u])) {
            return true; /* a deeper recursion level inherits its caller's context */
        }
    }
    return false;
}

/* Names f once its callers are named (walk_from's done): the leftmost quote whose suffix is
 * a recursion level or a caller's context ends the base name. */
static int name_function(void *cleaner, uint32_t f) {
    Cleaner *c = cleaner;
    const char *raw = callgrind_function_name(c->graph, f);
    size_t base_len = strlen(raw);
    const char *context = raw + base_len;
    for (const char *q = strchr(raw, '\''); q != NULL; q = strchr(q + 1, '\'')) {
        if (q == raw) {
            continue; /* the base name must not be empty */
        }
        bool had_level;
        const char *rest = skip_level(q + 1, &had_level);
        bool explained =
            *rest == '\0' ? had_level : caller_explains(c, f, raw, (size_t)(q - raw), rest);
        if (explained) {
            base_len = (size_t)(q - raw);
            context = rest;
            break;
        }
    }
    c->base[f] = base_len > 0 ? strndup(raw, base_len) : strdup("???"); /* no empty frames */
    c->context[f] = context;
    size_t full_len = base_len + (*context ? 1 + strlen(context) : 0);
    c->full[f] = malloc(full_len + 1);
    if (c->base[f] == NULL || c->full[f] == NULL) {
        return -1;
    }
    snprintf(c->full[f], full_len + 1, "%.*s%s%s", (int)base_len, raw, *context ? "'" : "",
             context);
    return 0;
}

/* ';' would split a frame, control characters would break the SVG. */
static void sanitize(char *name) {
    for (char *p = name; *p; p++) {
        if (*p == ';') {
            *p = ':';
        } else if ((unsigned char)*p < 0x20) {
            *p = '?';
        }
    }
}

static char **clean_names_with(const Callgrind *g, EdgeList *callers) {
    size_t n = g->function_count;
    Cleaner c = {.graph = g,
                 .walk = {.lists = callers,
                          .state = calloc(n + 1, 1),
                          .stack = malloc((n + 1) * sizeof(uint32_t)),
                          .next = malloc((n + 1) * sizeof(size_t))},
                 .base = calloc(n + 1, sizeof(char *)),
                 .context = calloc(n + 1, sizeof(char *)),
                 .full = calloc(n + 1, sizeof(char *))};
    bool ok = c.walk.state && c.walk.stack && c.walk.next && c.base && c.context && c.full;
    for (size_t f = 0; ok && f < n; f++) {
        ok = c.walk.state[f] != 0 || walk_from(&c.walk, (uint32_t)f, NULL, name_function, &c) == 0;
    }
    for (size_t f = 0; c.full && f < n; f++) {
        free(c.full[f]);
    }
    free(c.full);
    free(c.context);
    free(c.walk.state);
    free(c.walk.stack);
    free(c.walk.next);
    if (!ok) {
        fold_free_names(c.base, n);
        return NULL;
    }
    for (size_t f = 0; f < n; f++) {
        sanitize(c.base[f]);
    }
    return c.base;
}

char **fold_clean_names(const Callgrind *g) {
    EdgeList *callers = NULL, *callees = NULL;
    size_t loops;
    char **names = NULL;
    if (build_edges(g, &callers, &callees, &loops) == 0) {
        names = clean_names_with(g, callers);
    }
    free_lists(callers, g->function_count);
    free_lists(callees, g->function_count);
    return names;
}

void fold_free_names(char **names, size_t count) {
    if (names == NULL) {
        return;
    }
    for (size_t i = 0; i < count; i++) {
        free(names[i]);
    }
    free(names);
}

/* ---- cutting cycles ------------------------------------------------------ */

static uint64_t saturating_add(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int cut_cycles(Folder *f) {
    size_t n = f->n;
    Edge *order = malloc((n + 1) * sizeof *order); /* every node, with its weight */
    Walk walk = {.lists = f->callees,
                 .state = calloc(n + 1, 1),
                 .stack = malloc((n + 1) * sizeof(uint32_t)),
                 .next = malloc((n + 1) * sizeof(size_t))};
    int status = -1;
    if (order && walk.state && walk.stack && walk.next) {
        for (size_t i = 0; i < n; i++) {
            order[i] = (Edge){.node = (uint32_t)i, .weight = f->graph->functions[i].self};
            for (size_t k = 0; k < f->callees[i].count; k++) {
                order[i].weight = saturating_add(order[i].weight, f->callees[i].items[k].weight);
            }
        }
        sort_graph = f->graph;
        qsort(order, n, sizeof *order, compare_edges); /* heaviest first */
        /* roots first, then the cycles nobody enters */
        for (int roots_only = 1; roots_only >= 0; roots_only--) {
            for (size_t i = 0; i < n; i++) {
                uint32_t u = order[i].node;
                if (walk.state[u] == 0 && (!roots_only || f->callers[u].count == 0)) {
                    walk_from(&walk, u, &f->out->cut_arcs, NULL, NULL); /* cuts back edges */
                }
            }
        }
        status = 0;
    }
    free(order);
    free(walk.state);
    free(walk.stack);
    free(walk.next);
    return status;
}

/* Rebuilds the caller lists from the callee lists that survived the cut. */
static int rebuild_callers(Folder *f) {
    for (size_t v = 0; v < f->n; v++) {
        f->callers[v].count = 0;
    }
    for (size_t u = 0; u < f->n; u++) {
        for (size_t k = 0; k < f->callees[u].count; k++) {
            Edge *e = &f->callees[u].items[k];
            if (!e->removed && push_edge(&f->callers[e->node], (uint32_t)u, e->weight) != 0) {
                return -1;
            }
        }
    }
    sort_lists(f->graph, f->callers, f->n);
    return 0;
}

/* ---- walking up ------------------------------------------------------------ */

/* Adds amount to the stack path[0..depth) (leaf first), under OTHER_CALLERS when
 * other: equal paths share one entry, so the memory is that of the distinct paths. */
static int emit(Folder *f, uint64_t amount, bool other) {
    FoldResult *out = f->out;
    uint32_t short_path[2] = {f->path[0], FOLD_OTHER_NODE};
    const uint32_t *path = f->path;
    size_t depth = f->depth + other;
    if (other && amount < f->threshold) { /* too small to draw: just OTHER;LEAF */
        path = short_path;
        depth = 2;
    } else if (other) {
        f->path[f->depth] = FOLD_OTHER_NODE;
    }
    int64_t id = intern_add(&out->paths, path, depth * sizeof *path);
    if (id < 0) {
        return -1;
    }
    if ((size_t)id == out->count) {
        if (f->line_budget > 0 && out->count == f->line_budget) {
            return TOO_MANY_LINES;
        }
        FoldLine *lines = grow(out->lines, &f->line_capacity, out->count + 1, sizeof *lines, 256);
        if (lines == NULL) {
            return -1;
        }
        out->lines = lines;
        out->lines[out->count++] = (FoldLine){.key = (uint32_t)id};
    }
    out->lines[id].count += amount; /* at most the totals: the self costs' sum fit */
    if (other) {
        out->merged += amount;
        out->merged_shares++;
    }
    return 0;
}

typedef struct {
    Wide remainder;
    size_t index;
} Remainder;

static int compare_remainders(const void *pa, const void *pb) {
    const Remainder *a = pa, *b = pb;
    if (a->remainder != b->remainder) {
        return a->remainder > b->remainder ? -1 : 1; /* the larger remainder first */
    }
    return (a->index > b->index) - (a->index < b->index);
}

/* Largest-remainder split of amount by the callers' weights into shares[]. */
static int apportion(uint64_t amount, const EdgeList *callers, uint64_t *shares) {
    size_t k = callers->count;
    Wide total = 0; /* at most k terms below 2^64 */
    for (size_t i = 0; i < k; i++) {
        total += callers->items[i].weight;
    }
    bool equal = total == 0; /* no weights at all: split evenly */
    if (equal) {
        total = k;
    }
    Remainder *rest = malloc(k * sizeof *rest);
    if (rest == NULL) {
        return -1;
    }
    uint64_t given = 0;
    for (size_t i = 0; i < k; i++) {
        uint64_t weight = equal ? 1 : callers->items[i].weight;
        /* weight <= total, so the share is at most amount: it fits in 64 bits */
        Wide part = (Wide)amount * weight;
        shares[i] = (uint64_t)(part / total);
        rest[i].remainder = part % total;
        rest[i].index = i;
        given += shares[i];
    }
    uint64_t left = amount - given; /* < k */
    qsort(rest, k, sizeof *rest, compare_remainders);
    for (size_t i = 0; i < left; i++) {
        shares[rest[i].index]++;
    }
    free(rest);
    return 0;
}

static void push_step(Folder *f, uint32_t node, uint64_t amount) {
    f->path[f->depth] = node;
    f->steps[f->depth] = (Step){.amount = amount, .shares = NULL, .next = SIZE_MAX};
    f->depth++;
}

/* Walks amount from leaf up to the roots, depth first with an explicit stack
 * (the path can be as long as the graph has nodes), splitting it at every
 * node with several callers and emitting a line at every root. Shares below
 * the threshold are not walked further: at each split they are summed into one
 * line under OTHER_CALLERS, so every path walked carries at least the
 * threshold and the lines stay few however many call paths the graph has. */
static int walk_up(Folder *f, uint32_t leaf, uint64_t amount) {
    int status = 0;
    f->depth = 0;
    push_step(f, leaf, amount);
    while (f->depth > 0 && status == 0) {
        Step *s = &f->steps[f->depth - 1];
        const EdgeList *callers = &f->callers[f->path[f->depth - 1]];
        if (s->next == SIZE_MAX) { /* first visit */
            s->next = 0;
            if (callers->count == 0 || (callers->count > 1 && s->amount < f->threshold)) {
                status = emit(f, s->amount, callers->count > 0);
                f->depth--;
                continue;
            }
            if (callers->count > 1) {
                s->shares = malloc(callers->count * sizeof *s->shares);
                status = s->shares == NULL ? -1 : apportion(s->amount, callers, s->shares);
                continue;
            }
        }
        if (s->next < callers->count) {
            size_t k = s->next++;
            uint64_t share = callers->count == 1 ? s->amount : s->shares[k];
            if (share >= f->threshold && share > 0) {
                push_step(f, callers->items[k].node, share);
            } else {
                s->merged += share;
            }
        } else {
            if (s->merged > 0) {
                status = emit(f, s->merged, true);
            }
            free(s->shares);
            f->depth--;
        }
    }
    while (f->depth > 0) { /* after an error */
        free(f->steps[--f->depth].shares);
    }
    return status;
}

/* Walks every self cost up: 0, -1 when out of memory, or TOO_MANY_LINES. */
static int walk_all(Folder *f) {
    f->out->merged = 0;
    f->out->merged_shares = 0;
    for (size_t v = 0; v < f->n; v++) {
        uint64_t self = f->graph->functions[v].self;
        int status = self > 0 ? walk_up(f, (uint32_t)v, self) : 0;
        if (status != 0) {
            return status;
        }
    }
    return 0;
}

/* ---- output ------------------------------------------------------------------ */

static const char *frame_name(const FoldResult *r, uint32_t node) {
    return node == FOLD_OTHER_NODE ? FOLD_OTHER_CALLERS : r->names[node];
}

/* A line's frames, leaf first: node_at(path, k) is the k-th (interned copies are not
 * aligned for uint32_t). */
static const char *line_path(const FoldResult *r, const FoldLine *line, size_t *depth) {
    const InternKey *key = &r->paths.keys[line->key];
    *depth = key->length / sizeof(uint32_t);
    return key->bytes;
}

static uint32_t node_at(const char *path, size_t k) {
    uint32_t node;
    memcpy(&node, path + k * sizeof node, sizeof node);
    return node;
}

static const FoldResult *sort_result;

/* Bytewise order of the two stacks' texts, frame by frame from the root, without
 * making the texts: a frame that is a prefix of the other's is followed by ';' or by
 * the end of its stack. */
static int compare_lines(const void *pa, const void *pb) {
    size_t i, j;
    const char *a = line_path(sort_result, pa, &i), *b = line_path(sort_result, pb, &j);
    while (i > 0 && j > 0) {
        const char *x = frame_name(sort_result, node_at(a, --i));
        const char *y = frame_name(sort_result, node_at(b, --j));
        size_t n = strlen(x), m = strlen(y);
        int c = memcmp(x, y, n < m ? n : m);
        if (c != 0) {
            return c;
        }
        if (n != m) {
            unsigned char after_x = n < m ? (i > 0 ? ';' : '\0') : (unsigned char)x[m];
            unsigned char after_y = n < m ? (unsigned char)y[n] : (j > 0 ? ';' : '\0');
            return after_x < after_y ? -1 : 1;
        }
        if (i == 0 || j == 0) {
            return (i > 0) - (j > 0);
        }
    }
    return 0;
}

static int sort_and_merge(FoldResult *out) {
    sort_result = out;
    if (out->count > 1) {
        qsort(out->lines, out->count, sizeof *out->lines, compare_lines);
    }
    size_t kept = 0;
    for (size_t i = 0; i < out->count; i++) {
        if (kept > 0 && compare_lines(&out->lines[kept - 1], &out->lines[i]) == 0) {
            if (out->lines[i].count > UINT64_MAX - out->lines[kept - 1].count) {
                return -1;
            }
            out->lines[kept - 1].count += out->lines[i].count;
        } else {
            out->lines[kept++] = out->lines[i];
        }
    }
    out->count = kept;
    out->total = 0;
    for (size_t i = 0; i < kept; i++) {
        out->total += out->lines[i].count; /* cannot overflow: bounded by totals */
    }
    return 0;
}

/* Writes line i's text to out, or its length only when out is NULL: the length. */
static size_t write_stack(const FoldResult *r, size_t i, char *out) {
    size_t length = 0, k;
    const char *path = line_path(r, &r->lines[i], &k);
    while (k-- > 0) {
        const char *name = frame_name(r, node_at(path, k));
        size_t n = strlen(name);
        if (out != NULL) {
            memcpy(out + length, name, n);
            out[length + n] = k > 0 ? ';' : '\0';
        }
        length += n + 1;
    }
    return length - 1;
}

char *fold_stack(const FoldResult *r, size_t i) {
    char *text = malloc(write_stack(r, i, NULL) + 1);
    if (text != NULL) {
        write_stack(r, i, text);
    }
    return text;
}

int fold_print(const FoldResult *r, FILE *out) {
    for (size_t i = 0; i < r->count; i++) {
        size_t k;
        const char *path = line_path(r, &r->lines[i], &k);
        while (k-- > 0) {
            fputs(frame_name(r, node_at(path, k)), out);
            putc(k > 0 ? ';' : ' ', out);
        }
        if (fprintf(out, "%" PRIu64 "\n", r->lines[i].count) < 0) {
            return -1;
        }
    }
    return 0;
}

static void classify(Folder *f) {
    FoldResult *out = f->out;
    out->shared = 0;
    for (size_t v = 0; v < f->n; v++) {
        if (f->callers[v].count > 1 && f->callees[v].count > 0) {
            out->shared++;
        }
    }
    out->exact = out->shared == 0 && out->cut_arcs == 0;
}

int fold_callgrind(const Callgrind *g, uint64_t resolution, FoldResult *out, const char **error) {
    memset(out, 0, sizeof *out);
    bool automatic = resolution == FOLD_AUTO;
    out->threshold = resolution > 0 && !automatic ? g->totals / resolution : 0;
    Folder f = {.graph = g,
                .n = g->function_count,
                .out = out,
                .threshold = out->threshold,
                .line_budget = automatic ? FOLD_EXACT_LINES : 0};
    intern_init(&out->paths);
    *error = "out of memory";
    int status = -1;
    if (build_edges(g, &f.callers, &f.callees, &out->self_loops) != 0) {
        goto done;
    }
    out->names = clean_names_with(g, f.callers);
    out->name_count = out->names != NULL ? f.n : 0;
    f.path = malloc((f.n + 1) * sizeof *f.path);
    f.steps = malloc((f.n + 1) * sizeof *f.steps);
    if (out->names == NULL || f.path == NULL || f.steps == NULL || cut_cycles(&f) != 0 ||
        rebuild_callers(&f) != 0) {
        goto done;
    }
    classify(&f);
    int walked = walk_all(&f);
    if (walked == TOO_MANY_LINES) { /* FOLD_AUTO: the exact fold would be too large */
        free(out->lines);
        out->lines = NULL;
        out->count = f.line_capacity = 0;
        intern_free(&out->paths);
        intern_init(&out->paths);
        f.threshold = out->threshold = g->totals / FOLD_RESOLUTION;
        f.line_budget = 0;
        walked = walk_all(&f);
    }
    if (walked != 0) {
        goto done;
    }
    if (sort_and_merge(out) != 0) {
        *error = "a stack's count overflows 64 bits";
        goto done;
    }
    if (out->total != g->totals) { /* cannot happen: each split sums to its input */
        *error = "internal error: the stacks do not add up to the profile's totals";
        goto done;
    }
    status = 0;
    *error = NULL;
done:
    free_lists(f.callers, f.n);
    free_lists(f.callees, f.n);
    free(f.path);
    free(f.steps);
    return status;
}

void fold_free(FoldResult *result) {
    free(result->lines);
    intern_free(&result->paths);
    fold_free_names(result->names, result->name_count);
    memset(result, 0, sizeof *result);
}
