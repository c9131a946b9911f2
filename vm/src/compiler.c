/* compiler.c -- a single pass from tokens to bytecode.
 *
 * There is no syntax tree: a Pratt parser (a table of prefix and infix parse
 * functions and a precedence per token type) reads each construct and emits
 * its code at once. Declarations and statements are plain recursive descent.
 *
 * Each function being compiled has a Compiler that mirrors, at compile time,
 * what its frame will hold at run time: locals live in stack slots in the
 * order they are declared, so a local's index in locals[] is its slot.
 * Closed-over variables are resolved through the chain of enclosing Compilers
 * and recorded as upvalues, either "local slot N of the enclosing function"
 * or "upvalue N of the enclosing function".
 *
 * The compiler also tracks the stack height each instruction leaves (fixed
 * per opcode, or given by an argument count) and records the maximum in the
 * function, so the VM checks for stack overflow once per call rather than on
 * every push. Where control flow rejoins (after an else, after a loop) the
 * height is put back to what the other path has.
 *
 * Nesting (expressions inside expressions, blocks inside blocks) is limited to
 * NESTING_MAX so hostile input reports an error instead of exhausting the C
 * stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "compiler.h"
#include "memory.h"
#include "scanner.h"

typedef struct {
    Token current;
    Token previous;
    bool had_error;
    bool panicking;
    bool reported_at_end;
    int nesting;
} Parser;

typedef enum {
    PREC_NONE,
    PREC_ASSIGNMENT, /* = */
    PREC_OR,         /* or */
    PREC_AND,        /* and */
    PREC_EQUALITY,   /* == != */
    PREC_COMPARISON, /* < > <= >= */
    PREC_TERM,       /* + - */
    PREC_FACTOR,     /* * / */
    PREC_UNARY,      /* ! - */
    PREC_CALL,       /* . () */
    PREC_PRIMARY
} Precedence;

typedef void (*ParseFn)(bool can_assign);

typedef struct {
    ParseFn prefix;
    ParseFn infix;
    Precedence precedence;
} ParseRule;

typedef struct {
    Token name;
    int depth; /* -1 while declared but not yet initialized */
    bool captured;
} Local;

typedef struct {
    uint8_t index;
    bool is_local;
} Upvalue;

typedef enum { TYPE_FUNCTION, TYPE_INITIALIZER, TYPE_METHOD, TYPE_SCRIPT } FunctionType;

typedef struct Compiler {
    struct Compiler *enclosing;
    ObjFunction *function;
    FunctionType type;
    Local locals[UINT8_COUNT];
    int local_count;
    Upvalue upvalues[UINT8_COUNT];
    int scope_depth;
    int height;
    int max_height;
} Compiler;

typedef struct ClassCompiler {
    struct ClassCompiler *enclosing;
    bool has_superclass;
    Token name;
} ClassCompiler;

static Parser parser;
static Compiler *current = NULL;
static ClassCompiler *class_now = NULL;

static Chunk *chunk_now(void) {
    return &current->function->chunk;
}

/* ---- errors ---- */

/* Reports one error and enters panic mode, which silences further reports
 * until the parser has resynchronised at a statement boundary. */
static void error_at(Token *token, const char *message) {
    if (parser.panicking) {
        return;
    }
    parser.panicking = true;
    parser.had_error = true;
    bool at_end = token->type == TOKEN_EOF;
    /* Unclosed blocks all fail at the end of input; one report is enough. */
    if (at_end && parser.reported_at_end) {
        return;
    }
    parser.reported_at_end = parser.reported_at_end || at_end;
    fprintf(stderr, "[line %d] Error", token->line);
    if (at_end) {
        fputs(" at end", stderr);
    } else if (token->type != TOKEN_ERROR) {
        fprintf(stderr, " at '%.*s'", token->length, token->start);
    }
    fprintf(stderr, ": %s\n", message);
}

static void error_at_previous(const char *message) {
    error_at(&parser.previous, message);
}

static void error_at_current(const char *message) {
    error_at(&parser.current, message);
}

/* ---- tokens ---- */

static void parser_advance(void) {
    parser.previous = parser.current;
    for (;;) {
        parser.current = scanner_next();
        if (parser.current.type != TOKEN_ERROR) {
            break;
        }
        error_at_current(parser.current.start);
    }
}

static void parser_expect(TokenType type, const char *message) {
    if (parser.current.type == type) {
        parser_advance();
        return;
    }
    error_at_current(message);
}

static bool parser_check(TokenType type) {
    return parser.current.type == type;
}

static bool parser_match(TokenType type) {
    if (!parser_check(type)) {
        return false;
    }
    parser_advance();
    return true;
}

/* ---- emitting code ---- */

static void stack_adjust(int delta) {
    current->height += delta;
    if (current->height > current->max_height) {
        current->max_height = current->height;
    }
}

/* Stack effect of each opcode; those that depend on an operand (CALL, INVOKE,
 * SUPER_INVOKE) are adjusted where they are emitted. */
static int stack_effect(OpCode op) {
    switch (op) {
    case OP_CONSTANT:
    case OP_NIL:
    case OP_TRUE:
    case OP_FALSE:
    case OP_GET_LOCAL:
    case OP_GET_GLOBAL:
    case OP_GET_UPVALUE:
    case OP_CLOSURE:
    case OP_CLASS: return 1;
    case OP_POP:
    case OP_DEFINE_GLOBAL:
    case OP_SET_PROPERTY:
    case OP_GET_SUPER:
    case OP_EQUAL:
    case OP_GREATER:
    case OP_LESS:
    case OP_ADD:
    case OP_SUBTRACT:
    case OP_MULTIPLY:
    case OP_DIVIDE:
    case OP_PRINT:
    case OP_CLOSE_UPVALUE:
    case OP_RETURN:
    case OP_INHERIT:
    case OP_METHOD: return -1;
    default: return 0;
    }
}

static void emit_byte(uint8_t byte) {
    chunk_write(chunk_now(), byte, parser.previous.line);
}

static void emit_op(OpCode op) {
    emit_byte((uint8_t)op);
    stack_adjust(stack_effect(op));
}

static void emit_op_arg(OpCode op, uint8_t operand) {
    emit_op(op);
    emit_byte(operand);
}

/* Jump operands are 16 bits, high byte first. */
static void put_u16(uint8_t *at, int value) {
    at[0] = (uint8_t)((value >> 8) & 0xff);
    at[1] = (uint8_t)(value & 0xff);
}

/* A backward jump to loop_start; the distance counts its own operand. */
static void emit_loop_back(int loop_start) {
    emit_op(OP_LOOP);
    int distance = chunk_now()->count + 2 - loop_start;
    if (distance > UINT16_MAX) {
        error_at_previous("Loop body too large.");
    }
    emit_byte(0);
    emit_byte(0);
    put_u16(&chunk_now()->code[chunk_now()->count - 2], distance);
}

/* Emits a jump with a placeholder offset; returns where to patch it. */
static int emit_jump(OpCode op) {
    emit_op(op);
    emit_byte(0xff);
    emit_byte(0xff);
    return chunk_now()->count - 2;
}

/* Points the jump whose operand is at offset to the next instruction. */
static void jump_patch(int offset) {
    int distance = chunk_now()->count - (offset + 2);
    if (distance > UINT16_MAX) {
        error_at_previous("Too much code to jump over.");
    }
    put_u16(&chunk_now()->code[offset], distance);
}

static void emit_return(void) {
    if (current->type == TYPE_INITIALIZER) {
        emit_op_arg(OP_GET_LOCAL, 0);
    } else {
        emit_op(OP_NIL);
    }
    emit_op(OP_RETURN);
}

static uint8_t constant_add(Value value) {
    int constant = chunk_add_constant(chunk_now(), value);
    if (constant > UINT8_MAX) {
        error_at_previous("Too many constants in one chunk.");
        return 0;
    }
    return (uint8_t)constant;
}

static void emit_constant(Value value) {
    emit_op_arg(OP_CONSTANT, constant_add(value));
}

/* ---- compilers for functions ---- */

static void compiler_begin(Compiler *compiler, FunctionType type) {
    compiler->enclosing = current;
    compiler->function = NULL;
    compiler->type = type;
    compiler->local_count = 0;
    compiler->scope_depth = 0;
    compiler->height = 1; /* slot 0: the callee, or `this` in methods */
    compiler->max_height = 1;
    compiler->function = function_new();
    current = compiler;
    if (type != TYPE_SCRIPT) {
        current->function->name = string_copy(parser.previous.start, parser.previous.length);
        if (class_now != NULL && type != TYPE_FUNCTION) {
            current->function->className =
                string_copy(class_now->name.start, class_now->name.length);
        }
    }

    Local *local = &current->locals[current->local_count++];
    local->depth = 0;
    local->captured = false;
    if (type != TYPE_FUNCTION && type != TYPE_SCRIPT) {
        local->name.start = "this";
        local->name.length = 4;
    } else {
        local->name.start = "";
        local->name.length = 0;
    }
}

static ObjFunction *compiler_end(void) {
    emit_return();
    ObjFunction *function = current->function;
    function->maxSlots = current->max_height;
    current = current->enclosing;
    return function;
}

static void scope_begin(void) {
    current->scope_depth++;
}

/* Drops the block's locals from the stack: a captured one is moved into
 * its upvalue first, so closures keep it alive. */
static void scope_end(void) {
    current->scope_depth--;
    for (int i = current->local_count - 1; i >= 0; i--) {
        Local *local = &current->locals[i];
        if (local->depth <= current->scope_depth) {
            break;
        }
        emit_op(local->captured ? OP_CLOSE_UPVALUE : OP_POP);
        current->local_count--;
    }
}

/* ---- variables ---- */

static void parse_expression(void);
static void parse_statement(void);
static void parse_declaration(void);
static const ParseRule *rule_for(TokenType type);
static void parse_precedence(Precedence precedence);

/* Identifier names are interned strings, so equal names reuse one constant. */
static uint8_t name_constant(Token *name) {
    ObjString *string = string_copy(name->start, name->length);
    ValueArray *constants = &chunk_now()->constants;
    for (int i = 0; i < constants->count && i <= UINT8_MAX; i++) {
        if (constants->values[i] == OBJ_VAL(string)) {
            return (uint8_t)i;
        }
    }
    return constant_add(OBJ_VAL(string));
}

static bool names_equal(Token *a, Token *b) {
    return a->length == b->length && memcmp(a->start, b->start, (size_t)a->length) == 0;
}

static int local_resolve(Compiler *compiler, Token *name) {
    for (int i = compiler->local_count - 1; i >= 0; i--) {
        Local *local = &compiler->locals[i];
        if (names_equal(name, &local->name)) {
            if (local->depth == -1) {
                error_at_previous("Can't read local variable in its own initializer.");
            }
            return i;
        }
    }
    return -1;
}

static int upvalue_add(Compiler *compiler, uint8_t index, bool is_local) {
    int count = compiler->function->upvalueCount;
    for (int i = 0; i < count; i++) {
        Upvalue *upvalue = &compiler->upvalues[i];
        if (upvalue->index == index && upvalue->is_local == is_local) {
            return i;
        }
    }
    if (count == UINT8_COUNT) {
        error_at_previous("Too many closure variables in function.");
        return 0;
    }
    compiler->upvalues[count].is_local = is_local;
    compiler->upvalues[count].index = index;
    return compiler->function->upvalueCount++;
}

static int upvalue_resolve(Compiler *compiler, Token *name) {
    if (compiler->enclosing == NULL) {
        return -1;
    }
    int local = local_resolve(compiler->enclosing, name);
    if (local != -1) {
        compiler->enclosing->locals[local].captured = true;
        return upvalue_add(compiler, (uint8_t)local, true);
    }
    int upvalue = upvalue_resolve(compiler->enclosing, name);
    if (upvalue != -1) {
        return upvalue_add(compiler, (uint8_t)upvalue, false);
    }
    return -1;
}

static void local_add(Token name) {
    if (current->local_count == UINT8_COUNT) {
        error_at_previous("Too many local variables in function.");
        return;
    }
    Local *local = &current->locals[current->local_count++];
    local->name = name;
    local->depth = -1;
    local->captured = false;
}

static void variable_declare(void) {
    if (current->scope_depth == 0) {
        return;
    }
    Token *name = &parser.previous;
    for (int i = current->local_count - 1; i >= 0; i--) {
        Local *local = &current->locals[i];
        if (local->depth != -1 && local->depth < current->scope_depth) {
            break;
        }
        if (names_equal(name, &local->name)) {
            error_at_previous("Already a variable with this name in this scope.");
        }
    }
    local_add(*name);
}

static uint8_t variable_parse(const char *message_if_missing) {
    parser_expect(TOKEN_IDENTIFIER, message_if_missing);
    variable_declare();
    if (current->scope_depth > 0) {
        return 0;
    }
    return name_constant(&parser.previous);
}

static void local_mark_ready(void) {
    if (current->scope_depth == 0) {
        return;
    }
    current->locals[current->local_count - 1].depth = current->scope_depth;
}

static void variable_define(uint8_t global) {
    if (current->scope_depth > 0) {
        local_mark_ready(); /* the value on the stack becomes the local */
        return;
    }
    emit_op_arg(OP_DEFINE_GLOBAL, global);
}

/* Loads or (when an `=` follows and assignment is allowed here) stores a
 * variable: a local of this function, else one captured from an enclosing
 * function, else a global, looked up by name at run time. */
static void variable_access(Token name, bool can_assign) {
    static const OpCode get_op[] = {OP_GET_LOCAL, OP_GET_UPVALUE, OP_GET_GLOBAL};
    static const OpCode set_op[] = {OP_SET_LOCAL, OP_SET_UPVALUE, OP_SET_GLOBAL};
    int kind = 0;
    int operand = local_resolve(current, &name);
    if (operand == -1) {
        kind = 1;
        operand = upvalue_resolve(current, &name);
    }
    if (operand == -1) {
        kind = 2;
        operand = name_constant(&name);
    }
    if (can_assign && parser_match(TOKEN_EQUAL)) {
        parse_expression();
        emit_op_arg(set_op[kind], (uint8_t)operand);
    } else {
        emit_op_arg(get_op[kind], (uint8_t)operand);
    }
}

/* A name the compiler refers to without it being in the source ("this",
 * "super"). */
static Token token_synthetic(const char *text) {
    return (Token){.type = TOKEN_IDENTIFIER,
                   .start = text,
                   .length = (int)strlen(text),
                   .line = parser.previous.line};
}

/* ---- expressions ---- */

static uint8_t argument_list(void) {
    uint8_t arg_count = 0;
    if (!parser_check(TOKEN_RIGHT_PAREN)) {
        do {
            parse_expression();
            if (arg_count == 255) {
                error_at_previous("Can't have more than 255 arguments.");
            } else {
                arg_count++;
            }
        } while (parser_match(TOKEN_COMMA));
    }
    parser_expect(TOKEN_RIGHT_PAREN, "Expect ')' after arguments.");
    return arg_count;
}

static void expr_and(bool can_assign) {
    (void)can_assign;
    int end_jump = emit_jump(OP_JUMP_IF_FALSE);
    emit_op(OP_POP);
    parse_precedence(PREC_AND);
    jump_patch(end_jump);
}

static void expr_or(bool can_assign) {
    (void)can_assign;
    int else_jump = emit_jump(OP_JUMP_IF_FALSE);
    int end_jump = emit_jump(OP_JUMP);
    jump_patch(else_jump);
    emit_op(OP_POP);
    parse_precedence(PREC_OR);
    jump_patch(end_jump);
}

static void expr_binary(bool can_assign) {
    (void)can_assign;
    TokenType operator_type = parser.previous.type;
    const ParseRule *rule = rule_for(operator_type);
    parse_precedence((Precedence)(rule->precedence + 1));

    switch (operator_type) {
    case TOKEN_BANG_EQUAL:
        emit_op(OP_EQUAL);
        emit_op(OP_NOT);
        break;
    case TOKEN_EQUAL_EQUAL: emit_op(OP_EQUAL); break;
    case TOKEN_GREATER: emit_op(OP_GREATER); break;
    case TOKEN_GREATER_EQUAL:
        emit_op(OP_LESS);
        emit_op(OP_NOT);
        break;
    case TOKEN_LESS: emit_op(OP_LESS); break;
    case TOKEN_LESS_EQUAL:
        emit_op(OP_GREATER);
        emit_op(OP_NOT);
        break;
    case TOKEN_PLUS: emit_op(OP_ADD); break;
    case TOKEN_MINUS: emit_op(OP_SUBTRACT); break;
    case TOKEN_STAR: emit_op(OP_MULTIPLY); break;
    case TOKEN_SLASH: emit_op(OP_DIVIDE); break;
    default: return; /* unreachable */
    }
}

static void expr_call(bool can_assign) {
    (void)can_assign;
    uint8_t arg_count = argument_list();
    emit_op_arg(OP_CALL, arg_count);
    stack_adjust(-arg_count);
}

static void expr_dot(bool can_assign) {
    parser_expect(TOKEN_IDENTIFIER, "Expect property name after '.'.");
    uint8_t name = name_constant(&parser.previous);

    if (can_assign && parser_match(TOKEN_EQUAL)) {
        parse_expression();
        emit_op_arg(OP_SET_PROPERTY, name);
    } else if (parser_match(TOKEN_LEFT_PAREN)) {
        uint8_t arg_count = argument_list();
        emit_op_arg(OP_INVOKE, name);
        emit_byte(arg_count);
        stack_adjust(-arg_count);
    } else {
        emit_op_arg(OP_GET_PROPERTY, name);
    }
}

static void expr_literal(bool can_assign) {
    (void)can_assign;
    switch (parser.previous.type) {
    case TOKEN_FALSE: emit_op(OP_FALSE); break;
    case TOKEN_NIL: emit_op(OP_NIL); break;
    case TOKEN_TRUE: emit_op(OP_TRUE); break;
    default: return; /* unreachable */
    }
}

static void expr_group(bool can_assign) {
    (void)can_assign;
    parse_expression();
    parser_expect(TOKEN_RIGHT_PAREN, "Expect ')' after expression.");
}

static void expr_number(bool can_assign) {
    (void)can_assign;
    /* Copy first: strtod would read "1e5" or "0x1" past the Drip token. */
    char small[64];
    size_t length = (size_t)parser.previous.length;
    char *text = length < sizeof small ? small : malloc(length + 1);
    if (text == NULL) {
        error_at_previous("Out of memory.");
        return;
    }
    memcpy(text, parser.previous.start, length);
    text[length] = '\0';
    double value = strtod(text, NULL);
    if (text != small) {
        free(text);
    }
    emit_constant(NUMBER_VAL(value));
}

static void expr_string(bool can_assign) {
    (void)can_assign;
    emit_constant(OBJ_VAL(string_copy(parser.previous.start + 1, parser.previous.length - 2)));
}

static void expr_variable(bool can_assign) {
    variable_access(parser.previous, can_assign);
}

static void expr_super(bool can_assign) {
    (void)can_assign;
    if (class_now == NULL) {
        error_at_previous("Can't use 'super' outside of a class.");
    } else if (!class_now->has_superclass) {
        error_at_previous("Can't use 'super' in a class with no superclass.");
    }

    parser_expect(TOKEN_DOT, "Expect '.' after 'super'.");
    parser_expect(TOKEN_IDENTIFIER, "Expect superclass method name.");
    uint8_t name = name_constant(&parser.previous);

    variable_access(token_synthetic("this"), false);
    if (parser_match(TOKEN_LEFT_PAREN)) {
        uint8_t arg_count = argument_list();
        variable_access(token_synthetic("super"), false);
        emit_op_arg(OP_SUPER_INVOKE, name);
        emit_byte(arg_count);
        stack_adjust(-arg_count - 1);
    } else {
        variable_access(token_synthetic("super"), false);
        emit_op_arg(OP_GET_SUPER, name);
    }
}

static void expr_this(bool can_assign) {
    (void)can_assign;
    if (class_now == NULL) {
        error_at_previous("Can't use 'this' outside of a class.");
        return;
    }
    expr_variable(false);
}

static void expr_unary(bool can_assign) {
    (void)can_assign;
    TokenType operator_type = parser.previous.type;
    parse_precedence(PREC_UNARY);
    switch (operator_type) {
    case TOKEN_BANG: emit_op(OP_NOT); break;
    case TOKEN_MINUS: emit_op(OP_NEGATE); break;
    default: return; /* unreachable */
    }
}

/* How each token parses in an expression. Tokens not listed (zeroed) start
 * no expression and continue none: their precedence, PREC_NONE, ends every
 * infix loop. */
static const ParseRule rules[TOKEN_EOF + 1] = {
    [TOKEN_LEFT_PAREN] = {expr_group, expr_call, PREC_CALL},
    [TOKEN_DOT] = {NULL, expr_dot, PREC_CALL},
    [TOKEN_MINUS] = {expr_unary, expr_binary, PREC_TERM},
    [TOKEN_PLUS] = {NULL, expr_binary, PREC_TERM},
    [TOKEN_SLASH] = {NULL, expr_binary, PREC_FACTOR},
    [TOKEN_STAR] = {NULL, expr_binary, PREC_FACTOR},
    [TOKEN_BANG] = {expr_unary, NULL, PREC_NONE},
    [TOKEN_BANG_EQUAL] = {NULL, expr_binary, PREC_EQUALITY},
    [TOKEN_EQUAL_EQUAL] = {NULL, expr_binary, PREC_EQUALITY},
    [TOKEN_GREATER] = {NULL, expr_binary, PREC_COMPARISON},
    [TOKEN_GREATER_EQUAL] = {NULL, expr_binary, PREC_COMPARISON},
    [TOKEN_LESS] = {NULL, expr_binary, PREC_COMPARISON},
    [TOKEN_LESS_EQUAL] = {NULL, expr_binary, PREC_COMPARISON},
    [TOKEN_IDENTIFIER] = {expr_variable, NULL, PREC_NONE},
    [TOKEN_STRING] = {expr_string, NULL, PREC_NONE},
    [TOKEN_NUMBER] = {expr_number, NULL, PREC_NONE},
    [TOKEN_AND] = {NULL, expr_and, PREC_AND},
    [TOKEN_FALSE] = {expr_literal, NULL, PREC_NONE},
    [TOKEN_NIL] = {expr_literal, NULL, PREC_NONE},
    [TOKEN_OR] = {NULL, expr_or, PREC_OR},
    [TOKEN_SUPER] = {expr_super, NULL, PREC_NONE},
    [TOKEN_THIS] = {expr_this, NULL, PREC_NONE},
    [TOKEN_TRUE] = {expr_literal, NULL, PREC_NONE},
};

static const ParseRule *rule_for(TokenType type) {
    return &rules[type];
}

/* Guards every recursive entry; false when too deep (an error is reported). */
static bool nesting_enter(void) {
    if (parser.nesting >= NESTING_MAX) {
        error_at_current("Too much nesting.");
        return false;
    }
    parser.nesting++;
    return true;
}

static void nesting_leave(void) {
    parser.nesting--;
}

static void parse_precedence(Precedence precedence) {
    if (!nesting_enter()) {
        return;
    }
    parser_advance();
    ParseFn prefix = rule_for(parser.previous.type)->prefix;
    if (prefix == NULL) {
        error_at_previous("Expect expression.");
        nesting_leave();
        return;
    }

    bool can_assign = precedence <= PREC_ASSIGNMENT;
    prefix(can_assign);

    while (precedence <= rule_for(parser.current.type)->precedence) {
        parser_advance();
        ParseFn infix = rule_for(parser.previous.type)->infix;
        infix(can_assign);
    }

    if (can_assign && parser_match(TOKEN_EQUAL)) {
        error_at_previous("Invalid assignment target.");
    }
    nesting_leave();
}

static void parse_expression(void) {
    parse_precedence(PREC_ASSIGNMENT);
}

/* ---- declarations and statements ---- */

static void parse_block(void) {
    while (!parser_check(TOKEN_RIGHT_BRACE) && !parser_check(TOKEN_EOF)) {
        parse_declaration();
    }
    parser_expect(TOKEN_RIGHT_BRACE, "Expect '}' after block.");
}

static void parse_function(FunctionType type) {
    Compiler compiler;
    compiler_begin(&compiler, type);
    scope_begin();

    parser_expect(TOKEN_LEFT_PAREN, "Expect '(' after function name.");
    if (!parser_check(TOKEN_RIGHT_PAREN)) {
        do {
            current->function->arity++;
            if (current->function->arity > 255) {
                error_at_current("Can't have more than 255 parameters.");
            }
            uint8_t constant = variable_parse("Expect parameter name.");
            stack_adjust(1); /* the argument's slot */
            variable_define(constant);
        } while (parser_match(TOKEN_COMMA));
    }
    parser_expect(TOKEN_RIGHT_PAREN, "Expect ')' after parameters.");
    parser_expect(TOKEN_LEFT_BRACE, "Expect '{' before function body.");
    parse_block();

    /* No scope_end: RETURN discards the whole frame at once. */
    Upvalue upvalues[UINT8_COUNT];
    int count = compiler.function->upvalueCount;
    memcpy(upvalues, compiler.upvalues, sizeof(Upvalue) * (size_t)count);
    ObjFunction *compiled = compiler_end();
    emit_op_arg(OP_CLOSURE, constant_add(OBJ_VAL(compiled)));
    for (int i = 0; i < count; i++) {
        emit_byte(upvalues[i].is_local ? 1 : 0);
        emit_byte(upvalues[i].index);
    }
}

static void parse_method(void) {
    parser_expect(TOKEN_IDENTIFIER, "Expect method name.");
    uint8_t constant = name_constant(&parser.previous);
    FunctionType type = TYPE_METHOD;
    if (parser.previous.length == 4 && memcmp(parser.previous.start, "init", 4) == 0) {
        type = TYPE_INITIALIZER;
    }
    parse_function(type);
    emit_op_arg(OP_METHOD, constant);
}

static void declare_class(void) {
    parser_expect(TOKEN_IDENTIFIER, "Expect class name.");
    Token className = parser.previous;
    uint8_t name_index = name_constant(&parser.previous);
    variable_declare();

    emit_op_arg(OP_CLASS, name_index);
    variable_define(name_index);

    ClassCompiler class_compiler;
    class_compiler.has_superclass = false;
    class_compiler.name = className;
    class_compiler.enclosing = class_now;
    class_now = &class_compiler;

    if (parser_match(TOKEN_LESS)) {
        parser_expect(TOKEN_IDENTIFIER, "Expect superclass name.");
        expr_variable(false);
        if (names_equal(&className, &parser.previous)) {
            error_at_previous("A class can't inherit from itself.");
        }
        /* The superclass stays on the stack as a hidden local "super". */
        scope_begin();
        local_add(token_synthetic("super"));
        variable_define(0);

        variable_access(className, false);
        emit_op(OP_INHERIT);
        class_compiler.has_superclass = true;
    }

    variable_access(className, false);
    parser_expect(TOKEN_LEFT_BRACE, "Expect '{' before class body.");
    while (!parser_check(TOKEN_RIGHT_BRACE) && !parser_check(TOKEN_EOF)) {
        parse_method();
    }
    parser_expect(TOKEN_RIGHT_BRACE, "Expect '}' after class body.");
    emit_op(OP_POP);

    if (class_compiler.has_superclass) {
        scope_end();
    }
    class_now = class_now->enclosing;
}

static void declare_fun(void) {
    uint8_t global = variable_parse("Expect function name.");
    local_mark_ready(); /* a local function may call itself */
    parse_function(TYPE_FUNCTION);
    variable_define(global);
}

static void declare_var(void) {
    uint8_t global = variable_parse("Expect variable name.");
    if (parser_match(TOKEN_EQUAL)) {
        parse_expression();
    } else {
        emit_op(OP_NIL);
    }
    parser_expect(TOKEN_SEMICOLON, "Expect ';' after variable declaration.");
    variable_define(global);
}

static void stmt_expression(void) {
    parse_expression();
    parser_expect(TOKEN_SEMICOLON, "Expect ';' after expression.");
    emit_op(OP_POP);
}

/* Conditional code: leaves the loop or skips the branch when the condition
 * on the stack is false, popping it on the path that goes on. Returns the
 * jump for cond_exit_land. */
static int cond_exit_emit(void) {
    int jump = emit_jump(OP_JUMP_IF_FALSE);
    emit_op(OP_POP);
    return jump;
}

/* Where that jump lands the condition is still on the stack: pop it there. */
static void cond_exit_land(int jump) {
    jump_patch(jump);
    stack_adjust(1);
    emit_op(OP_POP);
}

/* "(condition)" after if and while, left on the stack. */
static void cond_parenthesised(const char *expect_open) {
    parser_expect(TOKEN_LEFT_PAREN, expect_open);
    parse_expression();
    parser_expect(TOKEN_RIGHT_PAREN, "Expect ')' after condition.");
}

/* The first clause of a for: nothing, a var declaration or an expression. */
static void for_initializer(void) {
    if (parser_match(TOKEN_SEMICOLON)) {
        return;
    }
    if (parser_match(TOKEN_VAR)) {
        declare_var();
    } else {
        stmt_expression();
    }
}

/* for (init; cond; step) body. The step is compiled before the body but
 * runs after it: the body loops back to the step, which loops back to the
 * condition. The initializer's variable lives in a scope of its own. */
static void stmt_for(void) {
    scope_begin();
    parser_expect(TOKEN_LEFT_PAREN, "Expect '(' after 'for'.");
    for_initializer();

    int loop_start = chunk_now()->count;
    bool has_condition = !parser_match(TOKEN_SEMICOLON);
    int exit_jump = -1;
    if (has_condition) {
        parse_expression();
        parser_expect(TOKEN_SEMICOLON, "Expect ';' after loop condition.");
        exit_jump = cond_exit_emit();
    }

    if (!parser_match(TOKEN_RIGHT_PAREN)) {
        int over_step = emit_jump(OP_JUMP);
        int step_start = chunk_now()->count;
        parse_expression();
        emit_op(OP_POP);
        parser_expect(TOKEN_RIGHT_PAREN, "Expect ')' after for clauses.");
        emit_loop_back(loop_start);
        loop_start = step_start;
        jump_patch(over_step);
    }

    parse_statement();
    emit_loop_back(loop_start);
    if (has_condition) {
        cond_exit_land(exit_jump);
    }
    scope_end();
}

static void stmt_if(void) {
    cond_parenthesised("Expect '(' after 'if'.");
    int to_else = cond_exit_emit();
    parse_statement();
    int past_else = emit_jump(OP_JUMP);
    cond_exit_land(to_else);
    if (parser_match(TOKEN_ELSE)) {
        parse_statement();
    }
    jump_patch(past_else);
}

static void stmt_print(void) {
    parse_expression();
    parser_expect(TOKEN_SEMICOLON, "Expect ';' after value.");
    emit_op(OP_PRINT);
}

static void stmt_return(void) {
    if (current->type == TYPE_SCRIPT) {
        error_at_previous("Can't return from top-level code.");
    }
    if (parser_match(TOKEN_SEMICOLON)) {
        emit_return();
        return;
    }
    if (current->type == TYPE_INITIALIZER) {
        error_at_previous("Can't return a value from an initializer.");
    }
    parse_expression();
    parser_expect(TOKEN_SEMICOLON, "Expect ';' after return value.");
    emit_op(OP_RETURN);
}

static void stmt_while(void) {
    int loop_start = chunk_now()->count;
    cond_parenthesised("Expect '(' after 'while'.");
    int exit_jump = cond_exit_emit();
    parse_statement();
    emit_loop_back(loop_start);
    cond_exit_land(exit_jump);
}

/* After an error, skips to a likely statement boundary so one mistake gives
 * one message rather than a cascade. */
static bool starts_statement(TokenType type) {
    switch (type) {
    case TOKEN_CLASS:
    case TOKEN_FOR:
    case TOKEN_FUN:
    case TOKEN_IF:
    case TOKEN_PRINT:
    case TOKEN_RETURN:
    case TOKEN_VAR:
    case TOKEN_WHILE: return true;
    default: return false;
    }
}

static void parser_recover(void) {
    parser.panicking = false;
    for (; parser.current.type != TOKEN_EOF; parser_advance()) {
        if (parser.previous.type == TOKEN_SEMICOLON || starts_statement(parser.current.type)) {
            return;
        }
    }
}

static void parse_declaration(void) {
    if (!nesting_enter()) {
        /* Skip the rest of the too-deep construct so the loop ends. */
        parser_advance();
        return;
    }
    const char *start = parser.current.start;
    if (parser_match(TOKEN_CLASS)) {
        declare_class();
    } else if (parser_match(TOKEN_FUN)) {
        declare_fun();
    } else if (parser_match(TOKEN_VAR)) {
        declare_var();
    } else {
        parse_statement();
    }
    if (parser.panicking) {
        parser_recover();
    }
    /* Every declaration consumes at least one token, or the loops calling
     * this one could spin forever on an error that consumed nothing. */
    if (parser.current.start == start && parser.current.type != TOKEN_EOF) {
        parser_advance();
    }
    nesting_leave();
}

static void parse_statement(void) {
    if (parser_match(TOKEN_PRINT)) {
        stmt_print();
    } else if (parser_match(TOKEN_FOR)) {
        stmt_for();
    } else if (parser_match(TOKEN_IF)) {
        stmt_if();
    } else if (parser_match(TOKEN_RETURN)) {
        stmt_return();
    } else if (parser_match(TOKEN_WHILE)) {
        stmt_while();
    } else if (parser_match(TOKEN_LEFT_BRACE)) {
        if (!nesting_enter()) {
            return;
        }
        scope_begin();
        parse_block();
        scope_end();
        nesting_leave();
    } else {
        stmt_expression();
    }
}

ObjFunction *compile(const char *source, int source_length) {
    scanner_init(source, source_length);
    Compiler compiler;
    class_now = NULL;
    current = NULL;
    compiler_begin(&compiler, TYPE_SCRIPT);

    parser.had_error = false;
    parser.panicking = false;
    parser.reported_at_end = false;
    parser.nesting = 0;

    parser_advance();
    while (!parser_match(TOKEN_EOF)) {
        parse_declaration();
    }

    ObjFunction *function = compiler_end();
    return parser.had_error ? NULL : function;
}

void compiler_mark_roots(void) {
    for (Compiler *compiler = current; compiler != NULL; compiler = compiler->enclosing) {
        gc_mark_object((Obj *)compiler->function);
    }
}
