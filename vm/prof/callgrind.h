/* callgrind.h: reading callgrind.out files into a weighted call graph.
 *
 * A callgrind profile (valgrind --tool=callgrind) is not a list of stacks: it
 * stores each function's self cost and, for every caller -> callee arc, the
 * number of calls and the inclusive cost of those calls. This reader turns
 * the file into exactly that graph:
 *
 *   functions: identity (object, name); self = sum of the first event (Ir)
 *              over the function's cost lines;
 *   arcs:      (caller, callee), calls and inclusive cost summed over all
 *              call sites (several calls= blocks per arc are common).
 *
 * Everything else in the file (files, inlined-file switches, line and
 * instruction positions, jumps, the other events) is checked for form and
 * then dropped. A file of several parts (--combine-dumps=yes) is read as the
 * sum of its parts. callgrind.c explains the format rules it relies on.
 * Counters are 64-bit; overflow is an error. Errors name the file and line.
 */
#ifndef DRIP_PROF_CALLGRIND_H
#define DRIP_PROF_CALLGRIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "intern.h"

typedef struct {
    uint32_t object; /* name number in Callgrind.names ("???" when unknown) */
    uint32_t name;   /* name number in Callgrind.names, e.g. "fib'2" */
    uint64_t self;   /* first event, own code only */
} CgFunction;

typedef struct {
    uint32_t caller; /* index into Callgrind.functions */
    uint32_t callee;
    uint64_t calls;
    uint64_t inclusive; /* first event, everything the calls executed */
} CgArc;

typedef struct {
    Intern names; /* object, file and function names; names.keys[i].bytes */
    CgFunction *functions;
    size_t function_count;
    CgArc *arcs; /* in order of first appearance */
    size_t arc_count;
    char *event;     /* the first event's name, e.g. "Ir" */
    uint64_t totals; /* totals: (or summary:) first event = sum of all self */
    size_t parts;    /* dumps in the file: 1, or more with --combine-dumps=yes */
    char *error;     /* after a failed read: "NAME:LINE: message" */
    /* private */
    Intern function_keys;
    Intern arc_keys;
    size_t function_capacity;
    size_t arc_capacity;
} Callgrind;

/* Reads a callgrind.out file. 0 on success; -1 with out->error set. The
 * caller calls callgrind_free(out) either way. */
int callgrind_read_file(const char *path, Callgrind *out);

/* Same from memory (len bytes, copied); name is used in messages. dripprof
 * reads standard input this way, after looking at its first lines. */
int callgrind_read_buffer(const char *name, const char *data, size_t len, Callgrind *out);

void callgrind_free(Callgrind *graph);

/* The name of function f ("fib'2") and of its object. */
const char *callgrind_function_name(const Callgrind *graph, size_t f);
const char *callgrind_object_name(const Callgrind *graph, size_t f);

/* What a file is, from its first bytes. */
typedef enum {
    CG_NONE,       /* not a valgrind profile (folded stacks, for dripprof) */
    CG_CALLGRIND,  /* valgrind --tool=callgrind */
    CG_CACHEGRIND, /* valgrind --tool=cachegrind: costs per line, but no calls */
} CgKind;

/* A callgrind profile starts with "# callgrind format", or with header lines
 * ("version: 1", "creator: callgrind-3.19.0", ...) that include "events:".
 * Cachegrind's header has "desc:", "cmd:" and "events:" but none of
 * callgrind's own keys, and its body starts with "fl=". Anything else is
 * CG_NONE, including a folded stack whose first frame is "creator:x". */
CgKind callgrind_sniff(const char *data, size_t len);

#endif
