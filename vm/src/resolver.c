/* resolver.c -- bindings, captures and scope checks.
 *
 * The walk visits nodes in the order a one-pass compiler meets them (a
 * variable is declared before its initializer, an assignment's target before
 * its value, a `for` step before the body), because that order numbers the
 * upvalues and decides which of two errors comes first. Errors are filed
 * under the stamps the parser left in the nodes. A function's captures are
 * found by a search of its list (at most 256), as clox finds them. */
#include <string.h>

#include "growable.h"
#include "resolver.h"

struct FunctionScope {
    uint8_t kind; /* a FunctionKind */
    int local_count;
    int scope_depth;
    int first_binding; /* the function's bindings are those from here up */
    int capture_count;
    Capture captures[UINT8_COUNT];
};

static FunctionScope *function_now(Resolver *r) {
    return &r->functions[r->function_count - 1];
}

static Node *node_at(Resolver *r, NodeRef ref) {
    return ast_at(r->ast, ref);
}

static void report(Resolver *r, uint32_t stamp, int32_t token, const char *message) {
    diag_error(r->diagnostics, stamp, token, message);
}

/* ---- bindings ---- */

/* Makes innermost[] cover every symbol interned so far (new ones: -1). */
static void cover_symbols(Resolver *r) {
    int needed = r->symbols->count;
    if (needed > r->innermost_capacity) {
        int old = r->innermost_capacity;
        r->innermost =
            growable_reserve(r->innermost, &r->innermost_capacity, needed, sizeof(int32_t));
        memset(r->innermost + old, 0xff, sizeof(int32_t) * (size_t)(r->innermost_capacity - old));
    }
}

static void push_binding(Resolver *r, int32_t symbol, int slot, int depth, bool ready) {
    r->bindings =
        growable_reserve(r->bindings, &r->binding_capacity, r->binding_count + 1, sizeof(Binding));
    int32_t *innermost = &r->innermost[symbol];
    r->bindings[r->binding_count] = (Binding){.symbol = symbol,
                                              .shadowed = *innermost,
                                              .level = r->function_count - 1,
                                              .slot = (int16_t)slot,
                                              .depth = (int16_t)depth,
                                              .ready = ready};
    *innermost = r->binding_count++;
}

/* Removes the newest binding; returns whether it was captured. */
static bool drop_binding(Resolver *r) {
    Binding *top = &r->bindings[--r->binding_count];
    r->innermost[top->symbol] = top->shadowed;
    return top->captured;
}

/* A new local in the current scope (a global at the top level is not
 * declared at all). Duplicates in the same scope are an error, except for
 * the hidden "super" slot, which cannot clash with a user's name. */
static void declare_local(Resolver *r, int32_t symbol, int32_t token, uint32_t stamp,
                          bool check_duplicate) {
    FunctionScope *function = function_now(r);
    if (check_duplicate) {
        int32_t previous = r->innermost[symbol];
        if (previous >= function->first_binding &&
            (r->bindings[previous].depth == function->scope_depth ||
             !r->bindings[previous].ready)) {
            report(r, stamp, token, "Already a variable with this name in this scope.");
        }
    }
    if (function->local_count == UINT8_COUNT) {
        report(r, stamp, token, "Too many local variables in function.");
        return;
    }
    push_binding(r, symbol, function->local_count++, function->scope_depth, false);
}

/* The newest local becomes readable: its initializer is done. (Like clox,
 * this marks whatever local is newest, and moves it to the current depth.) */
static void mark_ready(Resolver *r) {
    FunctionScope *function = function_now(r);
    if (function->scope_depth == 0 || r->binding_count == function->first_binding) {
        return;
    }
    Binding *newest = &r->bindings[r->binding_count - 1];
    newest->ready = true;
    newest->depth = (int16_t)function->scope_depth;
}

/* ---- uses of names ---- */

/* The index of the capture (from_local, index) in the function at level,
 * added if new. */
static int capture_in(Resolver *r, int level, bool from_local, int index, const Node *use) {
    FunctionScope *function = &r->functions[level];
    for (int i = 0; i < function->capture_count; i++) {
        if (function->captures[i].is_local == from_local && function->captures[i].index == index) {
            return i;
        }
    }
    if (function->capture_count == UINT8_COUNT) {
        report(r, use->stamp, use->tok, "Too many closure variables in function.");
        return 0;
    }
    int added = function->capture_count++;
    function->captures[added] = (Capture){.is_local = from_local, .index = (uint8_t)index};
    return added;
}

/* Places a VARIABLE (or THIS) node: a slot of this function, an upvalue
 * threaded through every function between the binding's and this one, or a
 * global. */
static void resolve_use(Resolver *r, NodeRef ref) {
    Node *use = node_at(r, ref);
    int32_t found = r->innermost[use->sym];
    if (found < 0) {
        use->place = PLACE_GLOBAL;
        return;
    }
    Binding *binding = &r->bindings[found];
    if (!binding->ready) {
        report(r, use->stamp, use->tok, "Can't read local variable in its own initializer.");
    }
    int level_now = r->function_count - 1;
    if (binding->level == level_now) {
        use->place = PLACE_LOCAL;
        use->slot = binding->slot;
        return;
    }
    binding->captured = true;
    int index = binding->slot;
    for (int level = binding->level + 1; level <= level_now; level++) {
        index = capture_in(r, level, level == binding->level + 1, index, use);
    }
    use->place = PLACE_UPVALUE;
    use->slot = index;
}

/* ---- scopes and functions ---- */

static void begin_scope(Resolver *r) {
    function_now(r)->scope_depth++;
}

/* Leaves a scope: its bindings go, and the owner records, innermost first,
 * whether each was captured (its pop plan). */
static void end_scope(Resolver *r, Node *owner) {
    FunctionScope *function = function_now(r);
    function->scope_depth--;
    owner->slot = r->ast->pop_count;
    owner->span = 0;
    while (r->binding_count > function->first_binding &&
           r->bindings[r->binding_count - 1].depth > function->scope_depth) {
        ast_add_pop(r->ast, drop_binding(r));
        function->local_count--;
        owner->span++;
    }
}

static void enter_function(Resolver *r, FunctionKind kind) {
    r->functions = growable_reserve(r->functions, &r->function_capacity, r->function_count + 1,
                                    sizeof(FunctionScope));
    FunctionScope *function = &r->functions[r->function_count++];
    function->kind = (uint8_t)kind;
    function->local_count = 1; /* slot 0: the callee, or the receiver */
    function->scope_depth = 0;
    function->first_binding = r->binding_count;
    function->capture_count = 0;
    if (kind == FN_METHOD || kind == FN_INITIALIZER) {
        push_binding(r, SYMBOL_THIS, 0, 0, true);
    }
}

/* Drops the function's bindings and hands its captures to the node. */
static void leave_function(Resolver *r, Node *node) {
    FunctionScope *function = function_now(r);
    while (r->binding_count > function->first_binding) {
        drop_binding(r);
    }
    node->slot = r->ast->capture_count;
    node->span = function->capture_count;
    for (int i = 0; i < function->capture_count; i++) {
        ast_add_capture(r->ast, function->captures[i]);
    }
    r->function_count--;
}

static void resolve_node(Resolver *r, NodeRef ref);

static void resolve_list(Resolver *r, NodeRef head) {
    for (NodeRef at = head; at != NO_NODE; at = node_at(r, at)->next) {
        resolve_node(r, at);
    }
}

/* Parameters share the body's scope, so a body's local may not reuse a
 * parameter's name. */
static void resolve_function(Resolver *r, NodeRef ref) {
    enter_function(r, (FunctionKind)node_at(r, ref)->op);
    begin_scope(r);
    for (NodeRef at = node_at(r, ref)->a; at != NO_NODE; at = node_at(r, at)->next) {
        const Node *parameter = node_at(r, at);
        declare_local(r, parameter->sym, parameter->tok, parameter->stamp, true);
        mark_ready(r);
    }
    resolve_list(r, node_at(r, ref)->b);
    leave_function(r, node_at(r, ref));
}

/* ---- declarations ---- */

/* Declares a var, fun or class name as a local, or places it as a global. */
static void declare_name(Resolver *r, Node *node, uint32_t stamp) {
    if (function_now(r)->scope_depth == 0) {
        node->place = PLACE_GLOBAL;
        return;
    }
    node->place = PLACE_LOCAL;
    declare_local(r, node->sym, node->tok, stamp, true);
}

static void resolve_var(Resolver *r, Node *node) {
    declare_name(r, node, node->stamp);
    resolve_node(r, node->a);
    mark_ready(r);
}

/* A function may call itself: its name is ready before its body. */
static void resolve_fun(Resolver *r, Node *node) {
    declare_name(r, node, node->stamp);
    mark_ready(r);
    resolve_function(r, node->a);
    mark_ready(r);
}

static void push_class(Resolver *r) {
    r->class_has_superclass = growable_reserve(r->class_has_superclass, &r->class_capacity,
                                               r->class_count + 1, sizeof(bool));
    r->class_has_superclass[r->class_count++] = false;
}

/* The superclass is held in a hidden local "super" of a scope around the
 * methods, which capture it when they use `super`. */
static void resolve_class(Resolver *r, NodeRef ref) {
    Node *node = node_at(r, ref);
    declare_name(r, node, node->stamp2);
    mark_ready(r);
    push_class(r);
    if (node->flags & NODE_HAS_SUPERCLASS) {
        const Node *superclass = node_at(r, node->a);
        resolve_use(r, node->a);
        if (superclass->sym == node->sym) {
            report(r, node->stamp3, superclass->tok, "A class can't inherit from itself.");
        }
        begin_scope(r);
        declare_local(r, SYMBOL_SUPER, superclass->tok, node->stamp3, false);
        mark_ready(r);
        resolve_use(r, node->b);
        r->class_has_superclass[r->class_count - 1] = true;
    }
    resolve_use(r, node->c);
    for (NodeRef method = node->d; method != NO_NODE; method = node_at(r, method)->next) {
        resolve_function(r, node_at(r, method)->a);
    }
    if (node->flags & NODE_HAS_SUPERCLASS) {
        end_scope(r, node);
    }
    r->class_count--;
}

/* ---- statements and expressions ---- */

static void resolve_return(Resolver *r, Node *node) {
    FunctionKind kind = (FunctionKind)function_now(r)->kind;
    if (kind == FN_SCRIPT) {
        report(r, node->stamp, node->tok, "Can't return from top-level code.");
    }
    if (node->a != NO_NODE && kind == FN_INITIALIZER) {
        report(r, node->stamp, node->tok, "Can't return a value from an initializer.");
    }
    resolve_node(r, node->a);
}

static void resolve_this(Resolver *r, NodeRef ref) {
    Node *node = node_at(r, ref);
    if (r->class_count == 0) {
        report(r, node->stamp, node->tok, "Can't use 'this' outside of a class.");
        node->place = PLACE_NONE;
        return;
    }
    resolve_use(r, ref);
}

static void resolve_super(Resolver *r, Node *node) {
    if (r->class_count == 0) {
        report(r, node->stamp, node->tok, "Can't use 'super' outside of a class.");
    } else if (!r->class_has_superclass[r->class_count - 1]) {
        report(r, node->stamp, node->tok, "Can't use 'super' in a class with no superclass.");
    }
    resolve_use(r, node->a);
    resolve_list(r, node->b);
    resolve_use(r, node->c);
}

/* Block-like statements open a scope whose locals they pop at the end. */
static void resolve_scoped(Resolver *r, NodeRef ref) {
    begin_scope(r);
    Node *node = node_at(r, ref);
    NodeRef parts[] = {node->a, node->b, node->c, node->d};
    if (node->kind == NODE_BLOCK) {
        resolve_list(r, node->a);
    } else {
        for (int i = 0; i < 4; i++) {
            resolve_node(r, parts[i]);
        }
    }
    end_scope(r, node_at(r, ref));
}

static void resolve_node(Resolver *r, NodeRef ref) {
    if (ref == NO_NODE) {
        return;
    }
    Node *node = node_at(r, ref);
    switch ((NodeKind)node->kind) {
    case NODE_VARIABLE: resolve_use(r, ref); return;
    case NODE_THIS: resolve_this(r, ref); return;
    case NODE_SUPER_GET:
    case NODE_SUPER_INVOKE: resolve_super(r, node); return;
    case NODE_CALL:
    case NODE_INVOKE:
        resolve_node(r, node->a);
        resolve_list(r, node->b);
        return;
    case NODE_ASSIGN:
    case NODE_UNARY:
    case NODE_BINARY:
    case NODE_AND:
    case NODE_OR:
    case NODE_GET:
    case NODE_SET:
    case NODE_EXPRESSION:
    case NODE_PRINT:
    case NODE_IF:
    case NODE_WHILE:
        /* Children in source order; absent ones are NO_NODE. */
        resolve_node(r, node->a);
        resolve_node(r, node_at(r, ref)->b);
        resolve_node(r, node_at(r, ref)->c);
        return;
    case NODE_VAR: resolve_var(r, node); return;
    case NODE_FUN: resolve_fun(r, node); return;
    case NODE_CLASS: resolve_class(r, ref); return;
    case NODE_BLOCK:
    case NODE_FOR: resolve_scoped(r, ref); return;
    case NODE_RETURN: resolve_return(r, node); return;
    default: return; /* literals and MISSING name nothing */
    }
}

/* ---- the driver's interface ---- */

void resolver_init(Resolver *resolver, Ast *ast, SymbolTable *symbols, Diagnostics *diagnostics) {
    *resolver = (Resolver){.ast = ast, .symbols = symbols, .diagnostics = diagnostics};
    cover_symbols(resolver);
    enter_function(resolver, FN_SCRIPT);
}

void resolver_free(Resolver *resolver) {
    free(resolver->bindings);
    free(resolver->innermost);
    free(resolver->functions);
    free(resolver->class_has_superclass);
    *resolver = (Resolver){0};
}

void resolve_declaration(Resolver *resolver, NodeRef declaration) {
    cover_symbols(resolver);
    resolve_node(resolver, declaration);
}
