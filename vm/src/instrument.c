/* instrument.c -- the calling-context tree and the reports built from it.
 *
 * The tree is kept outside the garbage-collected heap: nodes hold a name
 * index, never an object pointer, so a function that is collected while the
 * program runs still has its name in the report.
 *
 * Number formats: counts are printed with thousands separators like
 * callgrind_annotate ("358,328,431"); the folded file has plain integers,
 * as flame-graph tools expect ("script;fib;fib 1234"). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "commas.h"
#include "grow.h"
#include "instrument.h"
#include "intern.h"
#include "memory.h"

Instrument instrument;

/* Every function's name once, numbered as the nodes refer to them. */
static Intern names;
static ProfileNode *root = NULL;
static FILE *folded_file = NULL; /* opened by instrumentOpenFolded */

bool instrumentWanted(void) {
    return instrument.count || instrument.profile || instrument.foldedPath != NULL;
}

/* The index of name in the table, adding it if new (once per function object, not per
 * call). */
static int internName(const char *name, size_t length) {
    int64_t id = intern_add(&names, name, length);
    if (id < 0 || id > INT_MAX) {
        mem_checked(NULL); /* out of memory: says so and exits */
    }
    return (int)id;
}

static const char *nameOf(int id) {
    return names.keys[id].bytes;
}

static int nameCount(void) {
    return (int)names.count;
}

static int functionId(ObjFunction *function) {
    if (function->profileId >= 0) {
        return function->profileId;
    }
    if (function->name == NULL) {
        function->profileId = internName("script", 6);
    } else if (function->className == NULL) {
        function->profileId = internName(function->name->chars, (size_t)function->name->length);
    } else {
        size_t length = (size_t)function->className->length + 1 + (size_t)function->name->length;
        char *qualified = mem_checked(malloc(length + 1));
        snprintf(qualified, length + 1, "%s.%s", function->className->chars, function->name->chars);
        function->profileId = internName(qualified, length);
        free(qualified);
    }
    return function->profileId;
}

static ProfileNode *newNode(ProfileNode *parent, int id) {
    ProfileNode *node = mem_checked(calloc(1, sizeof(ProfileNode)));
    node->id = id;
    node->parent = parent;
    if (parent != NULL) {
        node->nextSibling = parent->firstChild;
        parent->firstChild = node;
    }
    return node;
}

ProfileNode *instrumentRoot(void) {
    if (root == NULL) {
        root = newNode(NULL, internName("script", 6));
    }
    root->calls++;
    return root;
}

static ProfileNode *enterChild(ProfileNode *parent, int id) {
    ProfileNode *child = parent->firstChild;
    while (child != NULL && child->id != id) {
        child = child->nextSibling;
    }
    if (child == NULL) {
        child = newNode(parent, id);
    }
    child->calls++;
    return child;
}

ProfileNode *instrumentEnterFunction(ProfileNode *parent, ObjFunction *function) {
    return enterChild(parent, functionId(function));
}

void instrumentEnterNative(ProfileNode *parent, ObjNative *native) {
    if (native->profileId < 0) {
        native->profileId = internName(native->name->chars, (size_t)native->name->length);
    }
    enterChild(parent, native->profileId);
}

/* ---- reports ---- */

static double share(uint64_t part, uint64_t whole) {
    return whole == 0 ? 0.0 : 100.0 * (double)part / (double)whole;
}

typedef struct {
    int opcode;
    uint64_t count;
} OpRow;

static int compareOpRows(const void *a, const void *b) {
    const OpRow *x = a, *y = b;
    if (x->count != y->count) {
        return x->count > y->count ? -1 : 1;
    }
    return strcmp(opcode_name(x->opcode), opcode_name(y->opcode));
}

static void reportCounts(FILE *out) {
    OpRow rows[OPCODE_COUNT];
    uint64_t total = 0;
    for (int op = 0; op < OPCODE_COUNT; op++) {
        rows[op].opcode = op;
        rows[op].count = instrument.opCounts[op];
        total += rows[op].count;
    }
    qsort(rows, OPCODE_COUNT, sizeof rows[0], compareOpRows);
    char buffer[COMMAS_SIZE];
    fprintf(out, "-- drip --count: bytecodes executed, by opcode --\n");
    fprintf(out, "%-16s %16s %8s\n", "opcode", "count", "share");
    for (int i = 0; i < OPCODE_COUNT; i++) {
        fprintf(out, "%-16s %16s %7.2f%%\n", opcode_name(rows[i].opcode),
                commas(rows[i].count, buffer), share(rows[i].count, total));
    }
    fprintf(out, "%-16s %16s %7.2f%%\n", "total", commas(total, buffer), 100.0);
}

static uint64_t computeTotals(ProfileNode *node) {
    uint64_t total = node->self;
    for (ProfileNode *child = node->firstChild; child != NULL; child = child->nextSibling) {
        total += computeTotals(child);
    }
    node->total = total;
    return total;
}

typedef struct {
    int id;
    uint64_t calls;
    uint64_t self;
    uint64_t inclusive;
} FunctionRow;

/* Adds each node's counts to its function's row. A node's subtree counts
 * toward the inclusive cost of its function only when no ancestor is the same
 * function: under recursion the outermost call already includes the rest. */
static void accumulate(ProfileNode *node, FunctionRow *rows, int *onStack) {
    FunctionRow *row = &rows[node->id];
    row->calls += node->calls;
    row->self += node->self;
    if (onStack[node->id] == 0) {
        row->inclusive += node->total;
    }
    onStack[node->id]++;
    for (ProfileNode *child = node->firstChild; child != NULL; child = child->nextSibling) {
        accumulate(child, rows, onStack);
    }
    onStack[node->id]--;
}

static int compareFunctionRows(const void *a, const void *b) {
    const FunctionRow *x = a, *y = b;
    if (x->self != y->self) {
        return x->self > y->self ? -1 : 1;
    }
    if (x->inclusive != y->inclusive) {
        return x->inclusive > y->inclusive ? -1 : 1;
    }
    return strcmp(nameOf(x->id), nameOf(y->id));
}

static void reportProfile(FILE *out) {
    if (root == NULL) {
        return;
    }
    FunctionRow *rows = mem_checked(calloc((size_t)nameCount(), sizeof(FunctionRow)));
    int *onStack = mem_checked(calloc((size_t)nameCount(), sizeof(int)));
    for (int i = 0; i < nameCount(); i++) {
        rows[i].id = i;
    }
    accumulate(root, rows, onStack);
    qsort(rows, (size_t)nameCount(), sizeof rows[0], compareFunctionRows);

    uint64_t total = root->total;
    char calls[COMMAS_SIZE], self[COMMAS_SIZE], inclusive[COMMAS_SIZE];
    fprintf(out, "-- drip --profile: bytecodes executed, by Drip function --\n");
    fprintf(out, "%14s %16s %9s %16s %9s  %s\n", "calls", "self", "", "inclusive", "", "function");
    for (int i = 0; i < nameCount(); i++) {
        FunctionRow *row = &rows[i];
        if (row->calls == 0) {
            continue;
        }
        fprintf(out, "%14s %16s (%6.2f%%) %16s (%6.2f%%)  %s\n", commas(row->calls, calls),
                commas(row->self, self), share(row->self, total), commas(row->inclusive, inclusive),
                share(row->inclusive, total), nameOf(row->id));
    }
    fprintf(out, "%14s %16s (%6.2f%%) %16s %9s  %s\n", "", commas(total, self), 100.0, "", "",
            "total");
    free(rows);
    free(onStack);
}

typedef struct {
    char **lines;
    size_t count;
    size_t capacity;
} LineList;

typedef struct {
    char *text; /* the frames joined by ';', not NUL-terminated */
    size_t length;
    size_t capacity;
} Path;

static void pathAppend(Path *path, const char *text, size_t length) {
    path->text = mem_checked(grow(path->text, &path->capacity, path->length + length, 1, 64));
    memcpy(path->text + path->length, text, length);
    path->length += length;
}

static void addLine(LineList *list, const Path *path, uint64_t count) {
    char digits[32];
    int digitsLength = snprintf(digits, sizeof digits, " %llu", (unsigned long long)count);
    char *line = mem_checked(malloc(path->length + (size_t)digitsLength + 1));
    memcpy(line, path->text, path->length);
    memcpy(line + path->length, digits, (size_t)digitsLength + 1);
    list->lines =
        mem_checked(grow(list->lines, &list->capacity, list->count + 1, sizeof(char *), 16));
    list->lines[list->count++] = line;
}

/* What ran in node's descendants (their self counts), for a cut chain. */
static uint64_t belowSelf(const ProfileNode *node) {
    return node->total - node->self;
}

/* One line per node with a count, its call chain as the stack; at
 * FOLDED_DEPTH_MAX frames the chain is cut and everything below goes on one
 * line ending in FOLDED_CUT_FRAME. Returns whether any chain was cut. */
static bool collectFolded(ProfileNode *node, int depth, Path *path, LineList *list) {
    size_t savedLength = path->length;
    if (node->parent != NULL) {
        pathAppend(path, ";", 1);
    }
    const char *name = nameOf(node->id);
    pathAppend(path, name, strlen(name));
    if (node->self > 0) {
        addLine(list, path, node->self);
    }
    bool cut = false;
    if (depth == FOLDED_DEPTH_MAX) {
        cut = node->firstChild != NULL;
        if (belowSelf(node) > 0) {
            pathAppend(path, ";" FOLDED_CUT_FRAME, strlen(";" FOLDED_CUT_FRAME));
            addLine(list, path, belowSelf(node));
        }
    } else {
        for (ProfileNode *child = node->firstChild; child != NULL; child = child->nextSibling) {
            cut = collectFolded(child, depth + 1, path, list) || cut;
        }
    }
    path->length = savedLength;
    return cut;
}

static int compareLines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool instrumentOpenFolded(void) {
    if (instrument.foldedPath == NULL) {
        return true;
    }
    folded_file = fopen(instrument.foldedPath, "w");
    if (folded_file == NULL) {
        fprintf(stderr, "drip: could not write folded stacks to \"%s\": %s.\n",
                instrument.foldedPath, strerror(errno));
        return false;
    }
    return true;
}

/* Every tree node has a distinct path (children are keyed by name), so the
 * sorted lines need no merging. */
static bool writeFolded(const char *path) {
    LineList list = {NULL, 0, 0};
    Path buffer = {NULL, 0, 0};
    bool cut = root != NULL && collectFolded(root, 1, &buffer, &list);
    qsort(list.lines, list.count, sizeof(char *), compareLines);
    for (size_t i = 0; i < list.count; i++) {
        fprintf(folded_file, "%s\n", list.lines[i]);
        free(list.lines[i]);
    }
    free(list.lines);
    free(buffer.text);
    /* The reason is the errno of the failure that ended the write: the
     * flush's (a full disk shows there, when the buffer goes out) or the
     * close's; an earlier failed write leaves only its error flag. */
    int error = 0;
    bool ok = fflush(folded_file) == 0 && !ferror(folded_file);
    if (!ok) {
        error = errno;
    }
    if (fclose(folded_file) != 0 && ok) {
        ok = false;
        error = errno;
    }
    folded_file = NULL;
    if (!ok) {
        fprintf(stderr, "drip: could not write folded stacks to \"%s\": %s.\n", path,
                error != 0 ? strerror(error) : "write error");
    }
    if (cut) {
        fprintf(stderr,
                "drip: --folded: call chains deeper than %d frames were cut; what ran below is "
                "counted under \"%s\".\n",
                FOLDED_DEPTH_MAX, FOLDED_CUT_FRAME);
    }
    return ok;
}

bool instrumentReport(FILE *out) {
    if (root != NULL) {
        computeTotals(root);
    }
    if (instrument.count) {
        reportCounts(out);
    }
    if (instrument.profile) {
        reportProfile(out);
    }
    if (folded_file != NULL) {
        return writeFolded(instrument.foldedPath);
    }
    return true;
}

/* Frees the tree without recursion (it is as deep as the deepest call
 * chain): a node is freed once its children are, detaching each child
 * from its parent's list on the way down. */
static void freeTree(ProfileNode *top) {
    ProfileNode *node = top;
    while (node != NULL) {
        ProfileNode *child = node->firstChild;
        if (child != NULL) {
            node->firstChild = child->nextSibling;
            node = child;
            continue;
        }
        ProfileNode *up = node == top ? NULL : node->parent;
        free(node);
        node = up;
    }
}

void instrumentFree(void) {
    if (root != NULL) {
        freeTree(root);
        root = NULL;
    }
    if (folded_file != NULL) {
        fclose(folded_file); /* opened, but the program did not compile */
        folded_file = NULL;
    }
    intern_free(&names);
}
