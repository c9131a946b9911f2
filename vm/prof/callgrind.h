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
 * then dropped. callgrind.c explains the format rules it relies on.
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

/* Same from memory (len bytes, copied); name is used in messages. */
int callgrind_read_buffer(const char *name, const char *data, size_t len, Callgrind *out);

void callgrind_free(Callgrind *graph);

/* The name of function f ("fib'2") and of its object. */
const char *callgrind_function_name(const Callgrind *graph, size_t f);
const char *callgrind_object_name(const Callgrind *graph, size_t f);

/* True when the text looks like a callgrind profile rather than folded
 * stacks: its first non-blank line is "# callgrind format" or a header line
 * such as "version: 1" / "events: Ir". */
bool callgrind_sniff(const char *data, size_t len);

#endif
