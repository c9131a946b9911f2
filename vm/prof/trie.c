/* trie.c: building the frame tree (see trie.h).
 *
 * Speed matters here (a million lines should take well under a second), so:
 *   - one hash table for all children, keyed by (parent index, name), open
 *     addressing, kept at most half full;
 *   - consecutive lines usually share a prefix (folded files are sorted), so
 *     the previous line and its path of nodes are kept; one word-at-a-time
 *     comparison finds the common prefix, and the frames inside it reuse the
 *     previous nodes without hashing;
 *   - a line only adds its count to the node it ends at; trie_finish sums
 *     the subtrees bottom up in one backward pass (a child is always
 *     numbered after its parent), so one 64-bit field holds self, then
 *     inclusive, and a node is 40 bytes;
 *   - names are copied once per node into an arena of 1 MB blocks (arena.h);
 *   - a differential input (trie_add_pair) keeps its BEFORE counts in a
 *     parallel array, summed in the same backward pass.
 * Children are linked in insertion order while building; trie_finish
 * relinks them by name with one qsort per node that has two or more.
 */
#include "trie.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

struct TriePathEntry {
    uint32_t node;
    size_t end; /* where the frame ends in the previous stack (its ';' or its end) */
};

/* Names are copied into arena blocks of ARENA_BLOCK bytes. The node array starts with room for
 * FIRST_NODE_CAPACITY nodes (160 KB: the VM's profiles fit without a reallocation) and doubles when
 * full. */
enum { ARENA_BLOCK = 1 << 20, FIRST_NODE_CAPACITY = 4096 };

static uint32_t hash_frame(uint32_t parent, const char *name, size_t length) {
    uint64_t hash = 14695981039346656037u ^ ((uint64_t)parent * 0x9E3779B97F4A7C15u);
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)name[i];
        hash *= 1099511628211u;
    }
    return (uint32_t)(hash ^ (hash >> 32));
}

static int grow_slots(Trie *trie) {
    size_t count = trie->slot_count ? trie->slot_count * 2 : 1024;
    uint32_t *slots = calloc(count, sizeof *slots);
    if (slots == NULL) {
        return -1;
    }
    for (size_t n = 1; n < trie->count; n++) {
        size_t i = (size_t)trie->nodes[n].hash & (count - 1);
        while (slots[i] != 0) {
            i = (i + 1) & (count - 1);
        }
        slots[i] = (uint32_t)n + 1;
    }
    free(trie->slots);
    trie->slots = slots;
    trie->slot_count = count;
    return 0;
}

static int64_t add_node(Trie *trie, uint32_t parent, const char *name, size_t length,
                        uint32_t hash) {
    if (trie->count >= UINT32_MAX - 1) {
        return -1; /* node numbers are 32-bit */
    }
    if (trie->count == trie->capacity) {
        size_t capacity = trie->capacity * 2;
        TrieNode *nodes = realloc(trie->nodes, capacity * sizeof *nodes);
        if (nodes == NULL) {
            return -1;
        }
        trie->nodes = nodes;
        if (trie->before != NULL) {
            uint64_t *before = realloc(trie->before, capacity * sizeof *before);
            if (before == NULL) {
                return -1;
            }
            trie->before = before;
        }
        trie->capacity = capacity;
    }
    const char *copy = arena_copy(&trie->names, name, length);
    if (copy == NULL) {
        return -1;
    }
    uint32_t index = (uint32_t)trie->count++;
    TrieNode *p = &trie->nodes[parent];
    trie->nodes[index] = (TrieNode){.name = copy,
                                    .length = (uint32_t)length,
                                    .parent = parent,
                                    .next_sibling = p->first_child,
                                    .depth = p->depth + 1,
                                    .hash = hash};
    trie->nodes[parent].first_child = index;
    if (trie->before != NULL) {
        trie->before[index] = 0;
    }
    if (trie->nodes[index].depth > trie->max_depth) {
        trie->max_depth = trie->nodes[index].depth;
    }
    return index;
}

/* The child of parent called name, created when missing. */
static int64_t child(Trie *trie, uint32_t parent, const char *name, size_t length) {
    if ((trie->count + 1) * 2 > trie->slot_count && grow_slots(trie) != 0) {
        return -1;
    }
    uint32_t hash = hash_frame(parent, name, length);
    size_t mask = trie->slot_count - 1;
    size_t i = (size_t)hash & mask;
    while (trie->slots[i] != 0) {
        const TrieNode *n = &trie->nodes[trie->slots[i] - 1];
        if (n->hash == hash && n->parent == parent && n->length == length &&
            memcmp(n->name, name, length) == 0) {
            return trie->slots[i] - 1;
        }
        i = (i + 1) & mask;
    }
    int64_t index = add_node(trie, parent, name, length, hash);
    if (index >= 0) {
        trie->slots[i] = (uint32_t)index + 1;
    }
    return index;
}

/* Length of the common prefix of a and b, looking at no more than limit bytes. */
static size_t common_prefix(const char *a, const char *b, size_t limit) {
    size_t i = 0;
    for (; i + 8 <= limit; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) {
            break;
        }
    }
    while (i < limit && a[i] == b[i]) {
        i++;
    }
    return i;
}

static int push_path(Trie *trie, size_t depth, uint32_t node, size_t end) {
    struct TriePathEntry *grown =
        grow(trie->path, &trie->path_capacity, depth + 1, sizeof *grown, 64);
    if (grown == NULL) {
        return -1;
    }
    trie->path = grown;
    trie->path[depth] = (struct TriePathEntry){.node = node, .end = end};
    return 0;
}

/* Keeps a copy of the line just added, for the next line's prefix reuse. */
static int remember_line(Trie *trie, const char *stack, size_t length) {
    char *grown = grow(trie->previous, &trie->previous_capacity, length + 1, 1, 256);
    if (grown == NULL) {
        return -1;
    }
    trie->previous = grown;
    memcpy(trie->previous, stack, length);
    trie->previous[length] = '\0';
    trie->previous_length = length;
    return 0;
}

int trie_init(Trie *trie) {
    memset(trie, 0, sizeof *trie);
    arena_init(&trie->names, ARENA_BLOCK);
    trie->nodes = malloc(FIRST_NODE_CAPACITY * sizeof *trie->nodes);
    if (trie->nodes == NULL) {
        return -1;
    }
    trie->capacity = FIRST_NODE_CAPACITY;
    trie->count = 1;
    trie->nodes[0] = (TrieNode){.name = "all", .length = 3};
    return 0;
}

/* The node the stack ends at, created with its missing ancestors. */
static int64_t node_of(Trie *trie, const char *s, size_t length) {
    /* The frames shared with the previous line: the prefix must cover the
     * frame and its end marker (';' and the end of the stack both end one). */
    size_t reused = 0;
    if (trie->previous != NULL) {
        size_t limit = (length < trie->previous_length ? length : trie->previous_length);
        size_t same = common_prefix(trie->previous, s, limit);
        while (reused < trie->path_length) {
            size_t end = trie->path[reused].end;
            bool shared =
                end < same || (end == same && (same == length || s[same] == ';') &&
                               (same == trie->previous_length || trie->previous[same] == ';'));
            if (!shared) {
                break;
            }
            reused++;
        }
    }
    uint32_t node = reused ? trie->path[reused - 1].node : 0;
    size_t depth = reused;
    size_t at = reused ? trie->path[reused - 1].end + 1 : 0;
    while (at <= length) {
        const char *semi = memchr(s + at, ';', length - at);
        size_t end = semi ? (size_t)(semi - s) : length;
        int64_t next = child(trie, node, s + at, end - at);
        if (next < 0 || push_path(trie, depth, (uint32_t)next, end) != 0) {
            return -1;
        }
        node = (uint32_t)next;
        depth++;
        at = end + 1;
    }
    trie->path_length = depth;
    if (remember_line(trie, s, length) != 0) {
        return -1;
    }
    return node;
}

/* Adds after to the node of the stack s, and before too in a differential trie (a plain
 * one is given 0). *error says why not ("out of memory" when the caller set nothing). */
static int add_counts(Trie *trie, const char *s, size_t length, uint64_t before, uint64_t after,
                      const char **error) {
    if (before > UINT64_MAX - trie->grand_before || after > UINT64_MAX - trie->grand_total) {
        *error = "the counts add up to more than 64 bits";
        return -1;
    }
    int64_t node = node_of(trie, s, length);
    if (node < 0) {
        return -1;
    }
    trie->nodes[node].total += after; /* self for now; trie_finish makes it inclusive */
    if (trie->before != NULL) {
        trie->before[node] += before;
    }
    trie->grand_total += after;
    trie->grand_before += before;
    *error = NULL;
    return 0;
}

int trie_add(Trie *trie, const char *s, size_t length, uint64_t count, const char **error) {
    *error = "out of memory";
    if (count == 0) {
        return 0;
    }
    if (trie->before != NULL) {
        *error = "a line with one count among lines with two";
        return -1;
    }
    return add_counts(trie, s, length, 0, count, error);
}

int trie_add_pair(Trie *trie, const char *s, size_t length, uint64_t before, uint64_t after,
                  const char **error) {
    *error = "out of memory";
    if (before == 0 && after == 0) {
        return 0;
    }
    if (trie->before == NULL) {
        if (trie->grand_total != 0) {
            *error = "a line with two counts among lines with one";
            return -1;
        }
        trie->before = calloc(trie->capacity, sizeof *trie->before);
        if (trie->before == NULL) {
            return -1;
        }
    }
    return add_counts(trie, s, length, before, after, error);
}

static const TrieNode *sort_nodes;

static int compare_children(const void *pa, const void *pb) {
    const TrieNode *a = &sort_nodes[*(const uint32_t *)pa];
    const TrieNode *b = &sort_nodes[*(const uint32_t *)pb];
    size_t n = a->length < b->length ? a->length : b->length;
    int c = memcmp(a->name, b->name, n);
    if (c != 0) {
        return c;
    }
    return (a->length > b->length) - (a->length < b->length);
}

static int sort_children(Trie *trie) {
    uint32_t *kids = NULL;
    size_t kids_capacity = 0;
    sort_nodes = trie->nodes;
    for (size_t n = 0; n < trie->count; n++) {
        TrieNode *node = &trie->nodes[n];
        size_t count = 0;
        for (uint32_t c = node->first_child; c != 0; c = trie->nodes[c].next_sibling) {
            uint32_t *grown = grow(kids, &kids_capacity, count + 1, sizeof *grown, 64);
            if (grown == NULL) {
                free(kids);
                return -1;
            }
            kids = grown;
            kids[count++] = c;
        }
        if (count < 2) {
            continue;
        }
        qsort(kids, count, sizeof *kids, compare_children);
        node->first_child = kids[0];
        for (size_t i = 0; i < count; i++) {
            trie->nodes[kids[i]].next_sibling = i + 1 < count ? kids[i + 1] : 0;
        }
    }
    free(kids);
    return 0;
}

int trie_finish(Trie *trie) {
    /* Children are numbered after their parents: going backwards, every
     * node's total is complete before it is added to its parent's. */
    for (size_t n = trie->count; n-- > 1;) {
        trie->nodes[trie->nodes[n].parent].total += trie->nodes[n].total;
        if (trie->before != NULL) {
            trie->before[trie->nodes[n].parent] += trie->before[n];
        }
    }
    return sort_children(trie);
}

void trie_free(Trie *trie) {
    arena_free(&trie->names);
    free(trie->nodes);
    free(trie->before);
    free(trie->slots);
    free(trie->previous);
    free(trie->path);
    memset(trie, 0, sizeof *trie);
}
