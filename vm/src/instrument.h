/* instrument.h -- the VM counting for itself: --count, --profile, --folded.
 *
 * The counting happens in a second copy of the bytecode loop (see run.h),
 * compiled from the same source with the hooks switched on; the VM picks
 * the copy at start-up, so a run without these flags executes exactly the
 * loop it would have without instrumentation compiled in.
 *
 * What the counting copy records:
 *   - how many times each opcode ran;
 *   - a calling-context tree: one node per distinct chain of Drip calls
 *     (script -> fib -> fib ...), with the calls into it and the bytecodes
 *     executed in it (its self count). Natives get nodes too, with calls but
 *     no bytecodes.
 *
 * From the tree come the per-function profile (self, and inclusive counted
 * once per stack, so recursion is not counted twice) and the folded stacks.
 * Functions are identified by display name ("fib", "Zoo.ant", "script"), so
 * two functions with one name share a row, as they share a frame name in the
 * folded stacks. */
#ifndef DRIP_INSTRUMENT_H
#define DRIP_INSTRUMENT_H

#include <stdio.h>

#include "chunk.h"
#include "object.h"

typedef struct ProfileNode {
    int id; /* index into the table of function names */
    uint64_t calls;
    uint64_t self;
    uint64_t total; /* self plus descendants; computed for reports */
    struct ProfileNode *parent;
    struct ProfileNode *firstChild;
    struct ProfileNode *nextSibling;
} ProfileNode;

typedef struct {
    bool count;             /* --count */
    bool profile;           /* --profile */
    const char *foldedPath; /* --folded=PATH, or NULL */
    uint64_t opCounts[OPCODE_COUNT];
} Instrument;

extern Instrument instrument;

/* Folded stacks are written at most this many frames deep. Deeper call
 * chains (a deep recursion, or one that ends in a stack overflow, whose
 * lines would grow with their depth to hundreds of megabytes) are cut: what
 * ran below that depth is counted under one extra frame, FOLDED_CUT_FRAME,
 * at the end of the cut chain, and a note goes to stderr. */
#define FOLDED_DEPTH_MAX 256
#define FOLDED_CUT_FRAME "(deeper frames cut)"

/* True when any of the reports was asked for. */
bool instrumentWanted(void);
/* Opens (creates or empties) the --folded file before the program runs, so
 * a path that cannot be written is reported before any work is done; false
 * (the error printed) if it cannot be opened. */
bool instrumentOpenFolded(void);
/* The tree's root: the top-level script, entered once. */
ProfileNode *instrumentRoot(void);
/* Records a call of function from the context parent; returns its node. */
ProfileNode *instrumentEnterFunction(ProfileNode *parent, ObjFunction *function);
/* Records a call of a native from the context parent. */
void instrumentEnterNative(ProfileNode *parent, ObjNative *native);
/* Prints the requested reports on out and writes the folded file; false if
 * either could not be written (the error is printed). */
bool instrumentReport(FILE *out);
void instrumentFree(void);

#endif
