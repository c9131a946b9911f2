/* trie.c: building the frame tree (see trie.h).
 *
 * Speed matters here (a million lines should take well under a second), so:
 *   - one hash table for all children, keyed by (parent index, name), open
 *     addressing, kept at most half full;
 *   - consecutive lines usually share a prefix (folded files are sorted), so
 *     the previous line's path is kept; one word-at-a-time comparison finds
 *     the common prefix, and the frames inside it reuse the previous nodes
 *     without hashing;
 *   - names are pointers into the folded text, never copied.
 * Children are linked in insertion order while building; trie_sort relinks
 * them by name afterwards with one qsort per node that has two or more.
 */
#include "trie.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_frame(uint32_t parent, const char *name, size_t length) {
    uint64_t hash = 14695981039346656037u ^ ((uint64_t)parent * 0x9E3779B97F4A7C15u);
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)name[i];
        hash *= 1099511628211u;
    }
    return hash ^ (hash >> 29);
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
                        uint64_t hash) {
    if (trie->count == trie->capacity) {
        size_t capacity = trie->capacity ? trie->capacity * 2 : 4096;
        TrieNode *nodes = realloc(trie->nodes, capacity * sizeof *nodes);
        if (nodes == NULL) {
            return -1;
        }
        trie->nodes = nodes;
        trie->capacity = capacity;
    }
    uint32_t index = (uint32_t)trie->count++;
    TrieNode *p = &trie->nodes[parent];
    trie->nodes[index] = (TrieNode){.name = name,
                                    .length = (uint32_t)length,
                                    .parent = parent,
                                    .next_sibling = p->first_child,
                                    .depth = p->depth + 1,
                                    .hash = hash};
    trie->nodes[parent].first_child = index;
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
    uint64_t hash = hash_frame(parent, name, length);
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

typedef struct {
    uint32_t node;
    size_t end; /* where the frame ends in the previous stack (its ';' or NUL) */
} PathEntry;

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

static int push_path(PathEntry **path, size_t *capacity, size_t depth, PathEntry entry) {
    if (depth == *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 64;
        PathEntry *grown = realloc(*path, grown_capacity * sizeof *grown);
        if (grown == NULL) {
            return -1;
        }
        *path = grown;
        *capacity = grown_capacity;
    }
    (*path)[depth] = entry;
    return 0;
}

/* Adds one line. The frames it shares with the previous line (a common
 * prefix that ends at a frame boundary) reuse that line's nodes. */
static int add_line(Trie *trie, const FoldedLine *line, const FoldedLine *previous,
                    PathEntry **path, size_t *path_len, size_t *path_capacity) {
    const char *s = line->stack;
    size_t reused = 0;
    if (previous != NULL) {
        size_t limit = (line->length < previous->length ? line->length : previous->length) + 1;
        size_t same = common_prefix(previous->stack, s, limit); /* counts the NUL */
        /* A frame is shared when the prefix covers it and its end marker;
         * ';' and the terminating NUL both end a frame. */
        while (reused < *path_len &&
               ((*path)[reused].end < same ||
                ((*path)[reused].end == same && (s[same] == ';' || s[same] == '\0')))) {
            reused++;
        }
    }
    uint32_t node = 0;
    for (size_t k = 0; k < reused; k++) {
        node = (*path)[k].node;
        trie->nodes[node].total += line->count;
    }
    size_t depth = reused;
    size_t at = reused ? (*path)[reused - 1].end + 1 : 0;
    while (at <= line->length) {
        const char *semi = memchr(s + at, ';', line->length - at);
        size_t end = semi ? (size_t)(semi - s) : line->length;
        int64_t next = child(trie, node, s + at, end - at);
        if (next < 0 || push_path(path, path_capacity, depth, (PathEntry){(uint32_t)next, end})) {
            return -1;
        }
        node = (uint32_t)next;
        trie->nodes[node].total += line->count;
        depth++;
        at = end + 1;
    }
    *path_len = depth;
    trie->nodes[node].self += line->count;
    return 0;
}

int trie_build(Trie *trie, const FoldedFile *file, const char **error) {
    memset(trie, 0, sizeof *trie);
    *error = "out of memory";
    trie->nodes = malloc(4096 * sizeof *trie->nodes);
    if (trie->nodes == NULL) {
        return -1;
    }
    trie->capacity = 4096;
    trie->count = 1;
    trie->nodes[0] = (TrieNode){.name = "all", .length = 3};
    PathEntry *path = NULL;
    size_t path_len = 0, path_capacity = 0;
    const FoldedLine *previous = NULL;
    int status = 0;
    for (size_t l = 0; l < file->count && status == 0; l++) {
        const FoldedLine *line = &file->lines[l];
        if (line->count == 0) {
            continue;
        }
        if (line->count > UINT64_MAX - trie->nodes[0].total) {
            *error = "the counts add up to more than 64 bits";
            status = -1;
            break;
        }
        trie->nodes[0].total += line->count;
        status = add_line(trie, line, previous, &path, &path_len, &path_capacity);
        previous = line;
    }
    free(path);
    if (status == 0) {
        *error = NULL;
    }
    return status;
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

int trie_sort(Trie *trie) {
    uint32_t *kids = NULL;
    size_t kids_capacity = 0;
    sort_nodes = trie->nodes;
    for (size_t n = 0; n < trie->count; n++) {
        TrieNode *node = &trie->nodes[n];
        size_t count = 0;
        for (uint32_t c = node->first_child; c != 0; c = trie->nodes[c].next_sibling) {
            if (count == kids_capacity) {
                kids_capacity = kids_capacity ? kids_capacity * 2 : 64;
                uint32_t *grown = realloc(kids, kids_capacity * sizeof *grown);
                if (grown == NULL) {
                    free(kids);
                    return -1;
                }
                kids = grown;
            }
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

void trie_free(Trie *trie) {
    free(trie->nodes);
    free(trie->slots);
    memset(trie, 0, sizeof *trie);
}
