/* trie.h: folded stacks merged into a tree of frames (the flame graph's shape).
 *
 * Each node is one frame in one context: the path of names from the root.
 * Children are keyed by frame NAME, not by the position of lines in a sorted
 * file, so "main;run 5", "main;run2 1", "main;run;x 3" give ONE box for run
 * (flamegraph.pl and inferno draw two, because they merge only consecutive
 * lines). Names are not copied: nodes point into the FoldedFile's text, which
 * must outlive the trie.
 */
#ifndef DRIP_PROF_TRIE_H
#define DRIP_PROF_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "folded.h"

typedef struct {
    const char *name; /* not NUL-terminated at length */
    uint32_t length;
    uint32_t parent;       /* node 0 (the root, "all") is its own parent */
    uint32_t first_child;  /* after trie_sort: in name order; 0 = none */
    uint32_t next_sibling; /* 0 = none */
    uint32_t depth;        /* root 0 */
    uint64_t hash;
    uint64_t total; /* lines through this node (inclusive count) */
    uint64_t self;  /* lines ending here */
} TrieNode;

typedef struct {
    TrieNode *nodes;
    size_t count;
    size_t capacity;
    uint32_t *slots; /* (parent, name) -> node index + 1 */
    size_t slot_count;
    uint32_t max_depth;
} Trie;

/* Builds the trie of all lines with a count above 0. 0 on success, -1 when
 * out of memory or the total overflows 64 bits (*error says which). */
int trie_build(Trie *trie, const FoldedFile *file, const char **error);

/* Orders every node's children by name (bytewise), for deterministic output. */
int trie_sort(Trie *trie);

void trie_free(Trie *trie);

#endif
