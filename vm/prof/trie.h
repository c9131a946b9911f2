/* trie.h: folded stacks merged into a tree of frames (the flame graph's shape).
 *
 * Each node is one frame in one context: the path of names from the root.
 * Children are keyed by frame NAME, not by the position of lines in a sorted
 * file, so "main;run 5", "main;run2 1", "main;run;x 3" give ONE box for run
 * (flamegraph.pl and inferno draw two, because they merge only consecutive
 * lines). Lines are added one at a time and need not outlive the call, so a
 * huge file can be streamed through (folded_each_file): the memory is that
 * of the distinct stacks, not of the input.
 */
#ifndef DRIP_PROF_TRIE_H
#define DRIP_PROF_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct {
    const char *name; /* a copy in the trie's arena: length bytes, then a NUL */
    uint32_t length;
    uint32_t parent;       /* node 0 (the root, "all") is its own parent */
    uint32_t first_child;  /* after trie_finish: in name order; 0 = none */
    uint32_t next_sibling; /* 0 = none */
    uint32_t depth;        /* root 0 */
    uint32_t hash;         /* of (parent, name), for the child table */
    uint64_t total;        /* while adding: the lines ending here; after trie_finish: the
                              lines through here (inclusive). 40 bytes a node in all. For a
                              differential input, the AFTER count. */
} TrieNode;

typedef struct {
    TrieNode *nodes;
    size_t count;
    uint32_t max_depth;
    /* NULL, unless lines were added with trie_add_pair: then the BEFORE count
     * of every node, by node index, summed like TrieNode.total. A separate
     * array, so that plain flame graphs keep their 40-byte nodes. */
    uint64_t *before;
    /* private */
    size_t capacity;
    uint64_t grand_total;  /* of the counts added so far */
    uint64_t grand_before; /* of the BEFORE counts added so far */
    uint32_t *slots;       /* (parent, name) -> node index + 1 */
    size_t slot_count;
    Arena names;    /* a copy of each node's name */
    char *previous; /* the previous line's stack and its nodes, for prefix reuse */
    size_t previous_length, previous_capacity;
    struct TriePathEntry *path;
    size_t path_length, path_capacity;
} Trie;

/* An empty trie (just "all"). 0, or -1 when out of memory. */
int trie_init(Trie *trie);

/* Adds one stack ("a;b;c", no empty frames) with its count; lines with
 * count 0 are ignored. 0, or -1 with *error set (out of memory, or the
 * total would overflow 64 bits). */
int trie_add(Trie *trie, const char *stack, size_t length, uint64_t count, const char **error);

/* Adds one line of a differential file (diff.h): its count in BEFORE and in
 * AFTER. Lines with both counts 0 are ignored; one with AFTER 0 still makes
 * its nodes, so that the BEFORE totals of its callers are complete. A trie
 * takes either trie_add or trie_add_pair lines, not both: mixing them is an
 * error. 0, or -1 with *error set. */
int trie_add_pair(Trie *trie, const char *stack, size_t length, uint64_t before, uint64_t after,
                  const char **error);

/* Computes the inclusive totals and orders every node's children by name
 * (bytewise), for deterministic output. Call once, after the last add. */
int trie_finish(Trie *trie);

void trie_free(Trie *trie);

#endif
