/* codegen.c -- emitting bytecode from the resolved tree.
 *
 * Stack heights: every opcode has a fixed effect on the value stack (the
 * table below) except the calls, whose effect depends on their argument
 * count and is applied where they are emitted. Where two paths join (after
 * an if's else, after a loop's exit) the height is put back to the one the
 * join sees, and the largest height seen becomes the function's maxSlots.
 *
 * Assembly: a function's code, lines and constants are gathered in an
 * Assembly, a set of plain growable arrays kept per nesting depth and reused
 * from one function to the next, and copied into the function's chunk once,
 * at their final size, when the function is done. Its constants are roots
 * of the collector until then (codegen_mark_roots), so adding one never
 * needs to guard the new value.
 *
 * Constants: identifiers share one pool entry per function (the first entry
 * with that string, which may be a string literal's); literals always get a
 * new entry. Strings are interned, so that first entry is found by comparing
 * values, among the 256 entries an operand can name: a scan of at most 256
 * words per name, which needs no index to keep in step with the pool (nor to
 * clear per function, nor to undo in codegen_rewind()). */
#include <stdlib.h>
#include <string.h>

#include "chunk.h"
#include "codegen.h"
#include "growable.h"
#include "memory.h"

struct Assembly {
    uint8_t *code;
    int *lines;
    int count;
    int capacity;
    Value *constants;
    int constant_count;
    int constant_capacity;
};

struct FunctionBuild {
    FunctionBuild *outer;
    ObjFunction *function;
    Assembly *assembly;
    int depth;    /* 0 for the script; indexes the codegen's assemblies */
    uint8_t kind; /* a FunctionKind */
    int height;
    int max_height;
};

static const int8_t stack_effect[OPCODE_COUNT] = {
#define AS_EFFECT(name, operands, effect) effect,
    FOR_EACH_OPCODE(AS_EFFECT)
#undef AS_EFFECT
};

/* The one or two opcodes of each binary operator (a >= b is !(a < b)). */
#define NO_OPCODE 0xff
static const uint8_t binary_opcodes[TOKEN_TYPE_COUNT][2] = {
    [TOKEN_PLUS] = {OP_ADD, NO_OPCODE},          [TOKEN_MINUS] = {OP_SUBTRACT, NO_OPCODE},
    [TOKEN_STAR] = {OP_MULTIPLY, NO_OPCODE},     [TOKEN_SLASH] = {OP_DIVIDE, NO_OPCODE},
    [TOKEN_EQUAL_EQUAL] = {OP_EQUAL, NO_OPCODE}, [TOKEN_BANG_EQUAL] = {OP_EQUAL, OP_NOT},
    [TOKEN_GREATER] = {OP_GREATER, NO_OPCODE},   [TOKEN_GREATER_EQUAL] = {OP_LESS, OP_NOT},
    [TOKEN_LESS] = {OP_LESS, NO_OPCODE},         [TOKEN_LESS_EQUAL] = {OP_GREATER, OP_NOT},
};

/* Reading and writing a resolved name, by where it lives. */
static const uint8_t load_opcode[] = {
    [PLACE_LOCAL] = OP_GET_LOCAL, [PLACE_UPVALUE] = OP_GET_UPVALUE, [PLACE_GLOBAL] = OP_GET_GLOBAL};
static const uint8_t store_opcode[] = {
    [PLACE_LOCAL] = OP_SET_LOCAL, [PLACE_UPVALUE] = OP_SET_UPVALUE, [PLACE_GLOBAL] = OP_SET_GLOBAL};

/* ---- writing instructions ---- */

static const Node *node_at(const Codegen *g, NodeRef ref) {
    return ast_at(g->ast, ref);
}

static int line_of(const Codegen *g, int32_t token) {
    return g->tokens->tokens[token < 0 ? 0 : token].line;
}

static Assembly *assembly_now(Codegen *g) {
    return g->function->assembly;
}

static void report(Codegen *g, uint32_t stamp, int32_t token, const char *message) {
    diag_error(g->diagnostics, stamp, token, message);
}

static void adjust_height(Codegen *g, int delta) {
    FunctionBuild *build = g->function;
    build->height += delta;
    if (build->height > build->max_height) {
        build->max_height = build->height;
    }
}

/* Assemblies start at a size most functions fit in, then double. */
static void assembly_grow(Assembly *assembly) {
    int needed = assembly->count < 256 ? 256 : assembly->count + 1;
    int capacity = assembly->capacity;
    assembly->code = growable_reserve(assembly->code, &capacity, needed, 1);
    assembly->lines = growable_reserve(assembly->lines, &assembly->capacity, needed, sizeof(int));
}

static void put_byte(Codegen *g, uint8_t byte, int line) {
    Assembly *assembly = assembly_now(g);
    if (UNLIKELY(assembly->count == assembly->capacity)) {
        assembly_grow(assembly);
    }
    assembly->code[assembly->count] = byte;
    assembly->lines[assembly->count++] = line;
}

static void emit(Codegen *g, OpCode op, int line) {
    put_byte(g, (uint8_t)op, line);
    adjust_height(g, stack_effect[op]);
}

static void emit_with(Codegen *g, OpCode op, uint8_t operand, int line) {
    emit(g, op, line);
    put_byte(g, operand, line);
}

/* A forward jump whose 16-bit distance jump_land() fills in. */
static int jump_forward(Codegen *g, OpCode op, int line) {
    emit(g, op, line);
    put_byte(g, 0xff, line);
    put_byte(g, 0xff, line);
    return assembly_now(g)->count - 2;
}

static void write_distance(uint8_t *at, int distance) {
    at[0] = (uint8_t)(distance >> 8 & 0xff);
    at[1] = (uint8_t)(distance & 0xff);
}

/* Points the jump whose operand is at `operand` to the next instruction. */
static void jump_land(Codegen *g, int operand, uint32_t stamp, int32_t token) {
    int distance = assembly_now(g)->count - operand - 2;
    if (distance > UINT16_MAX) {
        report(g, stamp, token, "Too much code to jump over.");
    }
    write_distance(&assembly_now(g)->code[operand], distance);
}

/* A LOOP back to target; the distance includes its own operand. */
static void jump_back(Codegen *g, int target, int32_t token, uint32_t stamp) {
    int line = line_of(g, token);
    emit(g, OP_LOOP, line);
    int distance = assembly_now(g)->count + 2 - target;
    if (distance > UINT16_MAX) {
        report(g, stamp, token, "Loop body too large.");
    }
    put_byte(g, 0, line);
    put_byte(g, 0, line);
    write_distance(&assembly_now(g)->code[assembly_now(g)->count - 2], distance);
}

/* ---- the constant pool ---- */

/* The first pool index holding key, or -1. */
static int name_find(const Assembly *assembly, ObjString *key) {
    int searched = assembly->constant_count < UINT8_COUNT ? assembly->constant_count : UINT8_COUNT;
    for (int i = 0; i < searched; i++) {
        if (assembly->constants[i] == OBJ_VAL(key)) {
            return i;
        }
    }
    return -1;
}

/* Appends value to the pool; returns the operand naming it, which is 0
 * once the pool is past the 256 a one-byte operand can name. */
static uint8_t pool_append(Codegen *g, Value value, uint32_t stamp, int32_t token) {
    Assembly *assembly = assembly_now(g);
    assembly->constants = growable_reserve(assembly->constants, &assembly->constant_capacity,
                                           assembly->constant_count + 1, sizeof(Value));
    int index = assembly->constant_count++;
    assembly->constants[index] = value;
    if (index > UINT8_MAX) {
        report(g, stamp, token, "Too many constants in one chunk.");
        return 0;
    }
    return (uint8_t)index;
}

/* The operand of a name: its string's first entry in the pool, or a new one. */
static uint8_t name_constant(Codegen *g, int32_t symbol, uint32_t stamp, int32_t token) {
    ObjString *name = symbol_string(g->symbols, symbol);
    int known = name_find(assembly_now(g), name);
    return known >= 0 ? (uint8_t)known : pool_append(g, OBJ_VAL(name), stamp, token);
}

/* Drip numbers are decimal digits with an optional fraction. Up to 15
 * digits without one are exact integers, summed here: strtod gives the same
 * double for about 430 more instructions a literal, and compiling is part of
 * every run's start-up. Anything else goes to strtod, which needs a
 * terminated copy ("1e5" and "0x1" would read past it). */
static double number_value(const char *text, uint32_t length) {
    uint64_t whole = 0;
    uint32_t digits = 0;
    while (digits < length && digits < 16 && text[digits] >= '0' && text[digits] <= '9') {
        whole = whole * 10 + (uint64_t)(text[digits++] - '0');
    }
    if (digits == length && length <= 15) {
        return (double)whole;
    }
    char small[64];
    char *copy = length < sizeof small ? small : mem_checked(malloc(length + 1));
    memcpy(copy, text, length);
    copy[length] = '\0';
    double value = strtod(copy, NULL);
    if (copy != small) {
        free(copy);
    }
    return value;
}

/* ---- functions ---- */

/* The assembly for functions at depth, emptied; made the first time. */
static Assembly *assembly_at(Codegen *g, int depth) {
    if (depth == g->assembly_count) {
        g->assemblies =
            growable_reserve(g->assemblies, &g->assembly_capacity, depth + 1, sizeof(Assembly *));
        g->assemblies[depth] = mem_checked(calloc(1, sizeof(Assembly)));
        g->assembly_count++;
    }
    Assembly *assembly = g->assemblies[depth];
    assembly->count = assembly->constant_count = 0;
    return assembly;
}

static void begin_function(Codegen *g, FunctionBuild *build, FunctionKind kind) {
    int depth = g->function == NULL ? 0 : g->function->depth + 1;
    *build = (FunctionBuild){.outer = g->function,
                             .assembly = assembly_at(g, depth),
                             .depth = depth,
                             .kind = (uint8_t)kind,
                             .height = 1,
                             .max_height = 1};
    build->function = function_new();
    g->function = build; /* from here a root, before anything else allocates */
}

/* The implicit return at the end of a body, and `return;`: an initializer
 * returns its receiver, anything else nil. */
static void emit_return(Codegen *g, int line) {
    if (g->function->kind == FN_INITIALIZER) {
        emit_with(g, OP_GET_LOCAL, 0, line);
    } else {
        emit(g, OP_NIL, line);
    }
    emit(g, OP_RETURN, line);
}

/* Moves the assembly into the function's chunk (while the function and the
 * constants are still roots) and makes the enclosing function current. */
static ObjFunction *end_function(Codegen *g, int line) {
    emit_return(g, line);
    FunctionBuild *build = g->function;
    Assembly *assembly = build->assembly;
    chunk_fill(&build->function->chunk, assembly->code, assembly->lines, assembly->count,
               assembly->constants, assembly->constant_count);
    build->function->maxSlots = build->max_height;
    g->function = build->outer;
    return build->function;
}

static void generate(Codegen *g, NodeRef ref);

static void generate_list(Codegen *g, NodeRef head) {
    for (NodeRef at = head; at != NO_NODE; at = node_at(g, at)->next) {
        generate(g, at);
    }
}

/* Compiles a FUNCTION node into its own function object, then emits the
 * CLOSURE that makes it, with one (local?, index) pair per capture. */
static void generate_function(Codegen *g, NodeRef ref) {
    const Node *node = node_at(g, ref);
    FunctionBuild build;
    begin_function(g, &build, (FunctionKind)node->op);
    ObjFunction *function = build.function;
    function->name = symbol_string(g->symbols, node->sym);
    if (node->op == FN_METHOD || node->op == FN_INITIALIZER) {
        const Token *class_name = &g->tokens->tokens[node->tok2];
        function->className =
            string_copy(token_text(g->tokens, class_name), (int)class_name->length);
    }
    function->arity = node->count;
    function->upvalueCount = node->span;
    adjust_height(g, node->count); /* the arguments' slots */
    generate_list(g, node->b);
    int line = line_of(g, node->end);
    end_function(g, line);
    emit_with(g, OP_CLOSURE, pool_append(g, OBJ_VAL(function), node->stamp, node->end), line);
    for (int i = 0; i < node->span; i++) {
        Capture capture = g->ast->captures[node->slot + i];
        put_byte(g, capture.is_local ? 1 : 0, line);
        put_byte(g, capture.index, line);
    }
}

/* ---- expressions ---- */

static void load(Codegen *g, const Node *use) {
    int line = line_of(g, use->tok);
    switch ((Place)use->place) {
    case PLACE_LOCAL:
    case PLACE_UPVALUE:
        emit_with(g, (OpCode)load_opcode[use->place], (uint8_t)use->slot, line);
        return;
    case PLACE_GLOBAL:
        emit_with(g, OP_GET_GLOBAL, name_constant(g, use->sym, use->stamp, use->tok), line);
        return;
    case PLACE_NONE: return; /* `this` outside a class: reported, nothing to load */
    }
}

/* A VARIABLE or a THIS. */
static void gen_variable(Codegen *g, const Node *node) {
    load(g, node);
}

static void gen_number(Codegen *g, const Node *node) {
    const Token *token = &g->tokens->tokens[node->tok];
    double value = number_value(token_text(g->tokens, token), token->length);
    emit_with(g, OP_CONSTANT, pool_append(g, NUMBER_VAL(value), node->stamp, node->tok),
              line_of(g, node->tok));
}

static void gen_string(Codegen *g, const Node *node) {
    const Token *token = &g->tokens->tokens[node->tok];
    ObjString *string = string_copy(token_text(g->tokens, token) + 1, (int)token->length - 2);
    emit_with(g, OP_CONSTANT, pool_append(g, OBJ_VAL(string), node->stamp, node->tok),
              line_of(g, node->tok));
}

static void gen_literal(Codegen *g, const Node *node) {
    OpCode op = node->op == TOKEN_TRUE ? OP_TRUE : node->op == TOKEN_FALSE ? OP_FALSE : OP_NIL;
    emit(g, op, line_of(g, node->tok));
}

/* The target's operand is settled before the value is compiled: a global's
 * name enters the pool ahead of the value's constants. */
static void gen_assign(Codegen *g, const Node *node) {
    const Node *target = node_at(g, node->a);
    uint8_t operand = target->place == PLACE_GLOBAL
                          ? name_constant(g, target->sym, target->stamp, target->tok)
                          : (uint8_t)target->slot;
    generate(g, node->b);
    emit_with(g, (OpCode)store_opcode[target->place], operand, line_of(g, node->end));
}

static void gen_unary(Codegen *g, const Node *node) {
    generate(g, node->a);
    emit(g, node->op == TOKEN_MINUS ? OP_NEGATE : OP_NOT, line_of(g, node->end));
}

static void gen_binary(Codegen *g, const Node *node) {
    generate(g, node->a);
    generate(g, node->b);
    const uint8_t *opcodes = binary_opcodes[node->op];
    int line = line_of(g, node->end);
    emit(g, (OpCode)opcodes[0], line);
    if (opcodes[1] != NO_OPCODE) {
        emit(g, (OpCode)opcodes[1], line);
    }
}

/* a and b: if a is falsey it is the result, else it is dropped for b. */
static void gen_and(Codegen *g, const Node *node) {
    int line = line_of(g, node->tok);
    generate(g, node->a);
    int skip_right = jump_forward(g, OP_JUMP_IF_FALSE, line);
    emit(g, OP_POP, line);
    generate(g, node->b);
    jump_land(g, skip_right, node->stamp, node->end);
}

/* a or b: if a is falsey it is dropped for b, else it is the result. */
static void gen_or(Codegen *g, const Node *node) {
    int line = line_of(g, node->tok);
    generate(g, node->a);
    int to_right = jump_forward(g, OP_JUMP_IF_FALSE, line);
    int skip_right = jump_forward(g, OP_JUMP, line);
    jump_land(g, to_right, node->stamp, node->tok);
    emit(g, OP_POP, line);
    generate(g, node->b);
    jump_land(g, skip_right, node->stamp, node->end);
}

/* The argument count follows CALL's, INVOKE's and SUPER_INVOKE's opcode;
 * the call leaves one value where callee (or receiver) and arguments were. */
static void gen_call(Codegen *g, const Node *node) {
    generate(g, node->a);
    generate_list(g, node->b);
    emit_with(g, OP_CALL, (uint8_t)node->count, line_of(g, node->end));
    adjust_height(g, -node->count);
}

static void gen_get(Codegen *g, const Node *node) {
    generate(g, node->a);
    uint8_t name = name_constant(g, node->sym, node->stamp, node->tok);
    emit_with(g, OP_GET_PROPERTY, name, line_of(g, node->tok));
}

static void gen_set(Codegen *g, const Node *node) {
    generate(g, node->a);
    uint8_t name = name_constant(g, node->sym, node->stamp, node->tok);
    generate(g, node->b);
    emit_with(g, OP_SET_PROPERTY, name, line_of(g, node->end));
}

static void gen_invoke(Codegen *g, const Node *node) {
    generate(g, node->a);
    uint8_t name = name_constant(g, node->sym, node->stamp, node->tok);
    generate_list(g, node->b);
    int line = line_of(g, node->end);
    emit_with(g, OP_INVOKE, name, line);
    put_byte(g, (uint8_t)node->count, line);
    adjust_height(g, -node->count);
}

static void gen_super(Codegen *g, const Node *node) {
    uint8_t name = name_constant(g, node->sym, node->stamp2, node->tok2);
    load(g, node_at(g, node->a));
    if (node->kind == NODE_SUPER_GET) {
        load(g, node_at(g, node->c));
        emit_with(g, OP_GET_SUPER, name, line_of(g, node->tok2));
        return;
    }
    generate_list(g, node->b);
    load(g, node_at(g, node->c));
    int line = line_of(g, node->end);
    emit_with(g, OP_SUPER_INVOKE, name, line);
    put_byte(g, (uint8_t)node->count, line);
    adjust_height(g, -node->count - 1);
}

/* ---- statements ---- */

/* Drops a scope's locals, innermost first, as its pop plan says. */
static void emit_pops(Codegen *g, const Node *scope, int line) {
    for (int i = 0; i < scope->span; i++) {
        emit(g, g->ast->pops[scope->slot + i] ? OP_CLOSE_UPVALUE : OP_POP, line);
    }
}

static void gen_expression(Codegen *g, const Node *node) {
    generate(g, node->a);
    emit(g, OP_POP, line_of(g, node->end));
}

static void gen_print(Codegen *g, const Node *node) {
    generate(g, node->a);
    emit(g, OP_PRINT, line_of(g, node->end));
}

/* A local's value simply stays on the stack in its slot; a global's is
 * stored under its name. */
static void gen_var(Codegen *g, const Node *node) {
    bool global = node->place == PLACE_GLOBAL;
    uint8_t name = global ? name_constant(g, node->sym, node->stamp, node->tok) : 0;
    if (node->a != NO_NODE) {
        generate(g, node->a);
    } else {
        emit(g, OP_NIL, line_of(g, node->tok));
    }
    if (global) {
        emit_with(g, OP_DEFINE_GLOBAL, name, line_of(g, node->end));
    }
}

static void gen_fun(Codegen *g, const Node *node) {
    bool global = node->place == PLACE_GLOBAL;
    uint8_t name = global ? name_constant(g, node->sym, node->stamp, node->tok) : 0;
    generate_function(g, node->a);
    if (global) {
        emit_with(g, OP_DEFINE_GLOBAL, name, line_of(g, node_at(g, node->a)->end));
    }
}

/* CLASS makes the class; with a superclass, INHERIT copies its methods in;
 * then the class is loaded again for each METHOD to add to, and dropped. */
static void gen_class(Codegen *g, const Node *node) {
    uint8_t name = name_constant(g, node->sym, node->stamp, node->tok);
    int line = line_of(g, node->tok);
    emit_with(g, OP_CLASS, name, line);
    if (node->place == PLACE_GLOBAL) {
        emit_with(g, OP_DEFINE_GLOBAL, name, line);
    }
    if (node->flags & NODE_HAS_SUPERCLASS) {
        load(g, node_at(g, node->a));
        const Node *inheritor = node_at(g, node->b);
        load(g, inheritor);
        emit(g, OP_INHERIT, line_of(g, inheritor->tok));
    }
    load(g, node_at(g, node->c));
    for (NodeRef at = node->d; at != NO_NODE; at = node_at(g, at)->next) {
        const Node *method = node_at(g, at);
        uint8_t method_name = name_constant(g, method->sym, method->stamp, method->tok);
        generate_function(g, method->a);
        emit_with(g, OP_METHOD, method_name, line_of(g, node_at(g, method->a)->end));
    }
    emit(g, OP_POP, line_of(g, node->end));
    if (node->flags & NODE_HAS_SUPERCLASS) {
        emit_pops(g, node, line_of(g, node->end));
    }
}

static void gen_block(Codegen *g, const Node *node) {
    generate_list(g, node->a);
    emit_pops(g, node, line_of(g, node->end));
}

/* Where a conditional jump lands its condition is still on the stack, one
 * above the height of the path that fell through: pop it there too. */
static void land_condition(Codegen *g, int jump, uint32_t stamp, int32_t token) {
    jump_land(g, jump, stamp, token);
    adjust_height(g, 1);
    emit(g, OP_POP, line_of(g, token));
}

static void gen_if(Codegen *g, const Node *node) {
    int line = line_of(g, node->tok);
    generate(g, node->a);
    int to_else = jump_forward(g, OP_JUMP_IF_FALSE, line);
    emit(g, OP_POP, line);
    generate(g, node->b);
    int past_else = jump_forward(g, OP_JUMP, line_of(g, node->tok2));
    land_condition(g, to_else, node->stamp, node->tok2);
    generate(g, node->c);
    jump_land(g, past_else, node->stamp2, node->end);
}

static void gen_while(Codegen *g, const Node *node) {
    int line = line_of(g, node->tok);
    int start = assembly_now(g)->count;
    generate(g, node->a);
    int exit = jump_forward(g, OP_JUMP_IF_FALSE, line);
    emit(g, OP_POP, line);
    generate(g, node->b);
    jump_back(g, start, node->end, node->stamp);
    land_condition(g, exit, node->stamp, node->end);
}

/* The step is compiled before the body but runs after it: the body loops
 * back to the step, the step back to the condition. */
static void gen_for(Codegen *g, const Node *node) {
    generate(g, node->a);
    int line = line_of(g, node->tok);
    int start = assembly_now(g)->count;
    int exit = -1;
    if (node->b != NO_NODE) {
        generate(g, node->b);
        exit = jump_forward(g, OP_JUMP_IF_FALSE, line);
        emit(g, OP_POP, line);
    }
    if (node->c != NO_NODE) {
        int over_step = jump_forward(g, OP_JUMP, line);
        int step = assembly_now(g)->count;
        generate(g, node->c);
        emit(g, OP_POP, line_of(g, node->tok2));
        jump_back(g, start, node->tok3, node->stamp);
        start = step;
        jump_land(g, over_step, node->stamp, node->tok3);
    }
    generate(g, node->d);
    jump_back(g, start, node->end, node->stamp2);
    if (exit >= 0) {
        land_condition(g, exit, node->stamp2, node->end);
    }
    emit_pops(g, node, line_of(g, node->end));
}

static void gen_return(Codegen *g, const Node *node) {
    int line = line_of(g, node->end);
    if (node->a == NO_NODE) {
        emit_return(g, line);
        return;
    }
    generate(g, node->a);
    emit(g, OP_RETURN, line);
}

typedef void (*Generator)(Codegen *g, const Node *node);

/* METHOD, FUNCTION and PARAM are generated by their owners; MISSING (what
 * a syntax error left) generates nothing. */
static const Generator generators[NODE_KIND_COUNT] = {
    [NODE_NUMBER] = gen_number,   [NODE_STRING] = gen_string,
    [NODE_LITERAL] = gen_literal, [NODE_VARIABLE] = gen_variable,
    [NODE_ASSIGN] = gen_assign,   [NODE_UNARY] = gen_unary,
    [NODE_BINARY] = gen_binary,   [NODE_AND] = gen_and,
    [NODE_OR] = gen_or,           [NODE_CALL] = gen_call,
    [NODE_GET] = gen_get,         [NODE_SET] = gen_set,
    [NODE_INVOKE] = gen_invoke,   [NODE_THIS] = gen_variable,
    [NODE_SUPER_GET] = gen_super, [NODE_SUPER_INVOKE] = gen_super,
    [NODE_PRINT] = gen_print,     [NODE_EXPRESSION] = gen_expression,
    [NODE_VAR] = gen_var,         [NODE_FUN] = gen_fun,
    [NODE_CLASS] = gen_class,     [NODE_BLOCK] = gen_block,
    [NODE_IF] = gen_if,           [NODE_WHILE] = gen_while,
    [NODE_FOR] = gen_for,         [NODE_RETURN] = gen_return,
};

static void generate(Codegen *g, NodeRef ref) {
    if (ref != NO_NODE && generators[node_at(g, ref)->kind] != NULL) {
        generators[node_at(g, ref)->kind](g, node_at(g, ref));
    }
}

/* ---- the driver's interface ---- */

void codegen_begin(Codegen *codegen, const Ast *ast, const TokenList *tokens, SymbolTable *symbols,
                   Diagnostics *diagnostics) {
    *codegen =
        (Codegen){.ast = ast, .tokens = tokens, .symbols = symbols, .diagnostics = diagnostics};
    codegen->script = mem_checked(malloc(sizeof(FunctionBuild)));
    begin_function(codegen, codegen->script, FN_SCRIPT);
}

void codegen_declaration(Codegen *codegen, NodeRef declaration) {
    generate(codegen, declaration);
}

ObjFunction *codegen_end(Codegen *codegen) {
    ObjFunction *script = end_function(codegen, line_of(codegen, codegen->tokens->count - 1));
    free(codegen->script);
    codegen->script = NULL;
    for (int i = 0; i < codegen->assembly_count; i++) {
        free(codegen->assemblies[i]->code);
        free(codegen->assemblies[i]->lines);
        free(codegen->assemblies[i]->constants);
        free(codegen->assemblies[i]);
    }
    free(codegen->assemblies);
    codegen->assemblies = NULL;
    codegen->assembly_count = codegen->assembly_capacity = 0;
    return script;
}

CodegenMark codegen_mark(const Codegen *codegen) {
    const Assembly *assembly = codegen->script->assembly;
    return (CodegenMark){assembly->count, assembly->constant_count, codegen->script->height};
}

void codegen_rewind(Codegen *codegen, CodegenMark mark) {
    Assembly *assembly = codegen->script->assembly;
    assembly->count = mark.code_count;
    assembly->constant_count = mark.constant_count;
    codegen->script->height = mark.height;
}

void codegen_mark_roots(const Codegen *codegen) {
    for (FunctionBuild *build = codegen->function; build != NULL; build = build->outer) {
        gc_mark_object((Obj *)build->function);
        for (int i = 0; i < build->assembly->constant_count; i++) {
            gc_mark_value(build->assembly->constants[i]);
        }
    }
}
