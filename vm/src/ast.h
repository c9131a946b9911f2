/* ast.h -- the syntax tree the parser builds and the later stages read.
 *
 * Nodes live in one arena (an array) and refer to each other by index, so a
 * tree is a few large allocations, is freed by resetting a count, and its
 * references stay valid when the arena grows. The driver (compiler.c) builds
 * the tree of one top-level declaration at a time and resets the arena before
 * the next, so memory follows the largest declaration, not the program.
 *
 * A node is a fixed record of generic fields whose meaning depends on its
 * kind (the table below). Tokens are indices into the TokenList; "end" is
 * always the last token the parser had consumed when the node was complete,
 * which is where clox emitted the node's last instruction and so the source
 * line that instruction carries.
 *
 * Stamps are readings of the parser's clock (see parser.h) taken at the
 * moment a one-pass compiler would have made a check that this front end
 * makes later, in the resolver or the code generator. An error found then is
 * filed under that stamp, so all errors come out in the order, and under the
 * panic-mode rules, of a single pass.
 *
 *   kind           tok / tok2 / tok3        a / b / c / d               other
 *   NUMBER STRING  the literal              -                           stamp: constant
 *   LITERAL        true/false/nil           -                           op: token type
 *   VARIABLE       where it is used         -                           sym; stamp: resolve
 *   ASSIGN         -                        target VARIABLE, value
 *   UNARY BINARY   -                        operand(s)                  op: operator token
 *   AND OR         the operator             left, right                 stamp: jump patch
 *   CALL           -                        callee, arguments           count
 *   GET            property name            object                      sym; stamp: constant
 *   SET            property name            object, value               sym; stamp: constant
 *   INVOKE         method name              object, arguments           sym, count; stamp
 *   THIS           'this'                   -                           stamp: context
 *   SUPER_GET      'super' / method name    this-ref, -, super-ref      sym; stamp: context,
 *   SUPER_INVOKE   'super' / method name    this-ref, args, super-ref     stamp2: constant
 *   MISSING        where one was expected   -                           (after a syntax error)
 *   EXPRESSION PRINT                        the expression
 *   VAR            the name                 initializer or none         sym; stamp: declare
 *   FUN            the name                 FUNCTION                    sym; stamp: declare
 *   CLASS          the name                 superclass VARIABLE, the    sym; stamp: constant,
 *                                           class re-read for INHERIT,    stamp2: declare,
 *                                           the class re-read for the     stamp3: inherit
 *                                           methods, METHOD list        flags: HAS_SUPERCLASS
 *   METHOD         the name                 FUNCTION                    sym; stamp: constant
 *   FUNCTION       its name / class name    PARAM list, body list       op: FunctionKind,
 *                                                                       count: arity,
 *                                                                       stamp: closure constant
 *   PARAM          the name                 -                           sym; stamp: declare
 *   BLOCK          -                        statement list
 *   IF             ')' / then's end         condition, then, else       stamp, stamp2: patches
 *   WHILE          ')'                      condition, body             stamp: loop and patch
 *   FOR            cond's ';' / step's end  initializer, condition,     stamp: after the step,
 *                    / ')' after the step   step, body                    stamp2: after the body
 *   RETURN         'return'                 value or none               stamp: context
 *
 * The resolver fills in `place` and `slot` of VARIABLE and THIS (and `place`
 * of VAR, FUN, CLASS: local or global), the captures of each FUNCTION and the
 * pop plan of each scope (BLOCK, FOR, CLASS with a superclass): slot and span
 * locate them in the side arrays below. */
#ifndef DRIP_AST_H
#define DRIP_AST_H

#include "common.h"

typedef int32_t NodeRef;
#define NO_NODE (-1)

typedef enum {
    NODE_NUMBER,
    NODE_STRING,
    NODE_LITERAL,
    NODE_VARIABLE,
    NODE_ASSIGN,
    NODE_UNARY,
    NODE_BINARY,
    NODE_AND,
    NODE_OR,
    NODE_CALL,
    NODE_GET,
    NODE_SET,
    NODE_INVOKE,
    NODE_THIS,
    NODE_SUPER_GET,
    NODE_SUPER_INVOKE,
    NODE_MISSING,
    NODE_EXPRESSION,
    NODE_PRINT,
    NODE_VAR,
    NODE_FUN,
    NODE_CLASS,
    NODE_METHOD,
    NODE_FUNCTION,
    NODE_PARAM,
    NODE_BLOCK,
    NODE_IF,
    NODE_WHILE,
    NODE_FOR,
    NODE_RETURN,
    NODE_KIND_COUNT
} NodeKind;

typedef enum { FN_SCRIPT, FN_FUNCTION, FN_METHOD, FN_INITIALIZER } FunctionKind;

/* Where the resolver found a name. */
typedef enum { PLACE_NONE, PLACE_LOCAL, PLACE_UPVALUE, PLACE_GLOBAL } Place;

#define NODE_HAS_SUPERCLASS 1

typedef struct {
    uint8_t kind;
    uint8_t op;
    uint8_t flags;
    uint8_t place;
    int32_t tok, tok2, tok3, end;
    uint32_t stamp, stamp2, stamp3;
    NodeRef a, b, c, d;
    NodeRef next; /* the next node of the list this one is in */
    int32_t sym;
    int32_t count;
    int32_t slot; /* resolved slot or upvalue; first capture or pop-plan entry */
    int32_t span; /* number of captures or pop-plan entries */
} Node;

/* One variable a closure captures, in the order of its upvalue index. */
typedef struct {
    uint8_t is_local; /* from the enclosing function's slots, else its upvalues */
    uint8_t index;
} Capture;

typedef struct {
    Node *nodes;
    int count;
    int capacity;
    Capture *captures;
    int capture_count;
    int capture_capacity;
    /* Pop plans: per local leaving a scope, innermost first, 1 when it was
     * captured (CLOSE_UPVALUE) and 0 when not (POP). */
    uint8_t *pops;
    int pop_count;
    int pop_capacity;
} Ast;

void ast_init(Ast *ast);
void ast_free(Ast *ast);
/* Forgets every node (the arrays are kept for the next tree). */
void ast_reset(Ast *ast);
void ast_grow(Ast *ast);

/* A new node of kind with every reference NO_NODE and every token -1. */
static inline NodeRef ast_node(Ast *ast, NodeKind kind) {
    if (UNLIKELY(ast->count == ast->capacity)) {
        ast_grow(ast);
    }
    NodeRef ref = ast->count++;
    ast->nodes[ref] = (Node){.kind = (uint8_t)kind,
                             .tok = -1,
                             .tok2 = -1,
                             .tok3 = -1,
                             .end = -1,
                             .a = NO_NODE,
                             .b = NO_NODE,
                             .c = NO_NODE,
                             .d = NO_NODE,
                             .next = NO_NODE,
                             .sym = -1};
    return ref;
}

static inline Node *ast_at(const Ast *ast, NodeRef ref) {
    return &ast->nodes[ref];
}

/* Appends to the capture and pop-plan arrays. */
void ast_add_capture(Ast *ast, Capture capture);
void ast_add_pop(Ast *ast, uint8_t captured);

/* Building a list in source order: `head` is where the first reference
 * goes, `tail` the node whose `next` takes the following one. */
typedef struct {
    NodeRef head;
    NodeRef tail;
    int length;
} NodeList;

static inline NodeList node_list(void) {
    return (NodeList){NO_NODE, NO_NODE, 0};
}

void node_list_append(Ast *ast, NodeList *list, NodeRef node);

#endif
