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
    bool hadError;
    bool panicMode;
    bool reportedAtEnd;
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

typedef void (*ParseFn)(bool canAssign);

typedef struct {
    ParseFn prefix;
    ParseFn infix;
    Precedence precedence;
} ParseRule;

typedef struct {
    Token name;
    int depth; /* -1 while declared but not yet initialized */
    bool isCaptured;
} Local;

typedef struct {
    uint8_t index;
    bool isLocal;
} Upvalue;

typedef enum { TYPE_FUNCTION, TYPE_INITIALIZER, TYPE_METHOD, TYPE_SCRIPT } FunctionType;

typedef struct Compiler {
    struct Compiler *enclosing;
    ObjFunction *function;
    FunctionType type;
    Local locals[UINT8_COUNT];
    int localCount;
    Upvalue upvalues[UINT8_COUNT];
    int scopeDepth;
    int stackHeight;
    int maxStackHeight;
} Compiler;

typedef struct ClassCompiler {
    struct ClassCompiler *enclosing;
    bool hasSuperclass;
    Token name;
} ClassCompiler;

static Parser parser;
static Compiler *current = NULL;
static ClassCompiler *currentClass = NULL;

static Chunk *currentChunk(void) {
    return &current->function->chunk;
}

/* ---- errors ---- */

static void errorAt(Token *token, const char *message) {
    if (parser.panicMode) {
        return;
    }
    /* Unclosed blocks all fail at the end of input; one report is enough. */
    if (token->type == TOKEN_EOF) {
        if (parser.reportedAtEnd) {
            parser.panicMode = true;
            parser.hadError = true;
            return;
        }
        parser.reportedAtEnd = true;
    }
    parser.panicMode = true;
    fprintf(stderr, "[line %d] Error", token->line);
    if (token->type == TOKEN_EOF) {
        fprintf(stderr, " at end");
    } else if (token->type != TOKEN_ERROR) {
        fprintf(stderr, " at '%.*s'", token->length, token->start);
    }
    fprintf(stderr, ": %s\n", message);
    parser.hadError = true;
}

static void error(const char *message) {
    errorAt(&parser.previous, message);
}

static void errorAtCurrent(const char *message) {
    errorAt(&parser.current, message);
}

/* ---- tokens ---- */

static void advance(void) {
    parser.previous = parser.current;
    for (;;) {
        parser.current = scanner_next();
        if (parser.current.type != TOKEN_ERROR) {
            break;
        }
        errorAtCurrent(parser.current.start);
    }
}

static void consume(TokenType type, const char *message) {
    if (parser.current.type == type) {
        advance();
        return;
    }
    errorAtCurrent(message);
}

static bool check(TokenType type) {
    return parser.current.type == type;
}

static bool match(TokenType type) {
    if (!check(type)) {
        return false;
    }
    advance();
    return true;
}

/* ---- emitting code ---- */

static void adjustStack(int delta) {
    current->stackHeight += delta;
    if (current->stackHeight > current->maxStackHeight) {
        current->maxStackHeight = current->stackHeight;
    }
}

/* Stack effect of each opcode; those that depend on an operand (CALL, INVOKE,
 * SUPER_INVOKE) are adjusted where they are emitted. */
static int stackEffect(OpCode op) {
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

static void emitByte(uint8_t byte) {
    chunk_write(currentChunk(), byte, parser.previous.line);
}

static void emitOp(OpCode op) {
    emitByte((uint8_t)op);
    adjustStack(stackEffect(op));
}

static void emitOpArg(OpCode op, uint8_t operand) {
    emitOp(op);
    emitByte(operand);
}

static void emitLoop(int loopStart) {
    emitOp(OP_LOOP);
    int offset = currentChunk()->count - loopStart + 2;
    if (offset > UINT16_MAX) {
        error("Loop body too large.");
    }
    emitByte((uint8_t)((offset >> 8) & 0xff));
    emitByte((uint8_t)(offset & 0xff));
}

/* Emits a jump with a placeholder offset; returns where to patch it. */
static int emitJump(OpCode op) {
    emitOp(op);
    emitByte(0xff);
    emitByte(0xff);
    return currentChunk()->count - 2;
}

static void patchJump(int offset) {
    int jump = currentChunk()->count - offset - 2;
    if (jump > UINT16_MAX) {
        error("Too much code to jump over.");
    }
    currentChunk()->code[offset] = (uint8_t)((jump >> 8) & 0xff);
    currentChunk()->code[offset + 1] = (uint8_t)(jump & 0xff);
}

static void emitReturn(void) {
    if (current->type == TYPE_INITIALIZER) {
        emitOpArg(OP_GET_LOCAL, 0);
    } else {
        emitOp(OP_NIL);
    }
    emitOp(OP_RETURN);
}

static uint8_t makeConstant(Value value) {
    int constant = chunk_add_constant(currentChunk(), value);
    if (constant > UINT8_MAX) {
        error("Too many constants in one chunk.");
        return 0;
    }
    return (uint8_t)constant;
}

static void emitConstant(Value value) {
    emitOpArg(OP_CONSTANT, makeConstant(value));
}

/* ---- compilers for functions ---- */

static void initCompiler(Compiler *compiler, FunctionType type) {
    compiler->enclosing = current;
    compiler->function = NULL;
    compiler->type = type;
    compiler->localCount = 0;
    compiler->scopeDepth = 0;
    compiler->stackHeight = 1; /* slot 0: the callee, or `this` in methods */
    compiler->maxStackHeight = 1;
    compiler->function = function_new();
    current = compiler;
    if (type != TYPE_SCRIPT) {
        current->function->name = string_copy(parser.previous.start, parser.previous.length);
        if (currentClass != NULL && type != TYPE_FUNCTION) {
            current->function->className =
                string_copy(currentClass->name.start, currentClass->name.length);
        }
    }

    Local *local = &current->locals[current->localCount++];
    local->depth = 0;
    local->isCaptured = false;
    if (type != TYPE_FUNCTION && type != TYPE_SCRIPT) {
        local->name.start = "this";
        local->name.length = 4;
    } else {
        local->name.start = "";
        local->name.length = 0;
    }
}

static ObjFunction *endCompiler(void) {
    emitReturn();
    ObjFunction *function = current->function;
    function->maxSlots = current->maxStackHeight;
    current = current->enclosing;
    return function;
}

static void beginScope(void) {
    current->scopeDepth++;
}

static void endScope(void) {
    current->scopeDepth--;
    while (current->localCount > 0 &&
           current->locals[current->localCount - 1].depth > current->scopeDepth) {
        if (current->locals[current->localCount - 1].isCaptured) {
            emitOp(OP_CLOSE_UPVALUE);
        } else {
            emitOp(OP_POP);
        }
        current->localCount--;
    }
}

/* ---- variables ---- */

static void expression(void);
static void statement(void);
static void declaration(void);
static ParseRule *getRule(TokenType type);
static void parsePrecedence(Precedence precedence);

/* Identifier names are interned strings, so equal names reuse one constant. */
static uint8_t identifierConstant(Token *name) {
    ObjString *string = string_copy(name->start, name->length);
    ValueArray *constants = &currentChunk()->constants;
    for (int i = 0; i < constants->count && i <= UINT8_MAX; i++) {
        if (constants->values[i] == OBJ_VAL(string)) {
            return (uint8_t)i;
        }
    }
    return makeConstant(OBJ_VAL(string));
}

static bool identifiersEqual(Token *a, Token *b) {
    return a->length == b->length && memcmp(a->start, b->start, (size_t)a->length) == 0;
}

static int resolveLocal(Compiler *compiler, Token *name) {
    for (int i = compiler->localCount - 1; i >= 0; i--) {
        Local *local = &compiler->locals[i];
        if (identifiersEqual(name, &local->name)) {
            if (local->depth == -1) {
                error("Can't read local variable in its own initializer.");
            }
            return i;
        }
    }
    return -1;
}

static int addUpvalue(Compiler *compiler, uint8_t index, bool isLocal) {
    int upvalueCount = compiler->function->upvalueCount;
    for (int i = 0; i < upvalueCount; i++) {
        Upvalue *upvalue = &compiler->upvalues[i];
        if (upvalue->index == index && upvalue->isLocal == isLocal) {
            return i;
        }
    }
    if (upvalueCount == UINT8_COUNT) {
        error("Too many closure variables in function.");
        return 0;
    }
    compiler->upvalues[upvalueCount].isLocal = isLocal;
    compiler->upvalues[upvalueCount].index = index;
    return compiler->function->upvalueCount++;
}

static int resolveUpvalue(Compiler *compiler, Token *name) {
    if (compiler->enclosing == NULL) {
        return -1;
    }
    int local = resolveLocal(compiler->enclosing, name);
    if (local != -1) {
        compiler->enclosing->locals[local].isCaptured = true;
        return addUpvalue(compiler, (uint8_t)local, true);
    }
    int upvalue = resolveUpvalue(compiler->enclosing, name);
    if (upvalue != -1) {
        return addUpvalue(compiler, (uint8_t)upvalue, false);
    }
    return -1;
}

static void addLocal(Token name) {
    if (current->localCount == UINT8_COUNT) {
        error("Too many local variables in function.");
        return;
    }
    Local *local = &current->locals[current->localCount++];
    local->name = name;
    local->depth = -1;
    local->isCaptured = false;
}

static void declareVariable(void) {
    if (current->scopeDepth == 0) {
        return;
    }
    Token *name = &parser.previous;
    for (int i = current->localCount - 1; i >= 0; i--) {
        Local *local = &current->locals[i];
        if (local->depth != -1 && local->depth < current->scopeDepth) {
            break;
        }
        if (identifiersEqual(name, &local->name)) {
            error("Already a variable with this name in this scope.");
        }
    }
    addLocal(*name);
}

static uint8_t parseVariable(const char *errorMessage) {
    consume(TOKEN_IDENTIFIER, errorMessage);
    declareVariable();
    if (current->scopeDepth > 0) {
        return 0;
    }
    return identifierConstant(&parser.previous);
}

static void markInitialized(void) {
    if (current->scopeDepth == 0) {
        return;
    }
    current->locals[current->localCount - 1].depth = current->scopeDepth;
}

static void defineVariable(uint8_t global) {
    if (current->scopeDepth > 0) {
        markInitialized(); /* the value on the stack becomes the local */
        return;
    }
    emitOpArg(OP_DEFINE_GLOBAL, global);
}

static void namedVariable(Token name, bool canAssign) {
    OpCode getOp, setOp;
    int arg = resolveLocal(current, &name);
    if (arg != -1) {
        getOp = OP_GET_LOCAL;
        setOp = OP_SET_LOCAL;
    } else if ((arg = resolveUpvalue(current, &name)) != -1) {
        getOp = OP_GET_UPVALUE;
        setOp = OP_SET_UPVALUE;
    } else {
        arg = identifierConstant(&name);
        getOp = OP_GET_GLOBAL;
        setOp = OP_SET_GLOBAL;
    }

    if (canAssign && match(TOKEN_EQUAL)) {
        expression();
        emitOpArg(setOp, (uint8_t)arg);
    } else {
        emitOpArg(getOp, (uint8_t)arg);
    }
}

static Token syntheticToken(const char *text) {
    Token token;
    token.type = TOKEN_IDENTIFIER;
    token.start = text;
    token.length = (int)strlen(text);
    token.line = parser.previous.line;
    return token;
}

/* ---- expressions ---- */

static uint8_t argumentList(void) {
    uint8_t argCount = 0;
    if (!check(TOKEN_RIGHT_PAREN)) {
        do {
            expression();
            if (argCount == 255) {
                error("Can't have more than 255 arguments.");
            } else {
                argCount++;
            }
        } while (match(TOKEN_COMMA));
    }
    consume(TOKEN_RIGHT_PAREN, "Expect ')' after arguments.");
    return argCount;
}

static void and_(bool canAssign) {
    (void)canAssign;
    int endJump = emitJump(OP_JUMP_IF_FALSE);
    emitOp(OP_POP);
    parsePrecedence(PREC_AND);
    patchJump(endJump);
}

static void or_(bool canAssign) {
    (void)canAssign;
    int elseJump = emitJump(OP_JUMP_IF_FALSE);
    int endJump = emitJump(OP_JUMP);
    patchJump(elseJump);
    emitOp(OP_POP);
    parsePrecedence(PREC_OR);
    patchJump(endJump);
}

static void binary(bool canAssign) {
    (void)canAssign;
    TokenType operatorType = parser.previous.type;
    ParseRule *rule = getRule(operatorType);
    parsePrecedence((Precedence)(rule->precedence + 1));

    switch (operatorType) {
    case TOKEN_BANG_EQUAL:
        emitOp(OP_EQUAL);
        emitOp(OP_NOT);
        break;
    case TOKEN_EQUAL_EQUAL: emitOp(OP_EQUAL); break;
    case TOKEN_GREATER: emitOp(OP_GREATER); break;
    case TOKEN_GREATER_EQUAL:
        emitOp(OP_LESS);
        emitOp(OP_NOT);
        break;
    case TOKEN_LESS: emitOp(OP_LESS); break;
    case TOKEN_LESS_EQUAL:
        emitOp(OP_GREATER);
        emitOp(OP_NOT);
        break;
    case TOKEN_PLUS: emitOp(OP_ADD); break;
    case TOKEN_MINUS: emitOp(OP_SUBTRACT); break;
    case TOKEN_STAR: emitOp(OP_MULTIPLY); break;
    case TOKEN_SLASH: emitOp(OP_DIVIDE); break;
    default: return; /* unreachable */
    }
}

static void call(bool canAssign) {
    (void)canAssign;
    uint8_t argCount = argumentList();
    emitOpArg(OP_CALL, argCount);
    adjustStack(-argCount);
}

static void dot(bool canAssign) {
    consume(TOKEN_IDENTIFIER, "Expect property name after '.'.");
    uint8_t name = identifierConstant(&parser.previous);

    if (canAssign && match(TOKEN_EQUAL)) {
        expression();
        emitOpArg(OP_SET_PROPERTY, name);
    } else if (match(TOKEN_LEFT_PAREN)) {
        uint8_t argCount = argumentList();
        emitOpArg(OP_INVOKE, name);
        emitByte(argCount);
        adjustStack(-argCount);
    } else {
        emitOpArg(OP_GET_PROPERTY, name);
    }
}

static void literal(bool canAssign) {
    (void)canAssign;
    switch (parser.previous.type) {
    case TOKEN_FALSE: emitOp(OP_FALSE); break;
    case TOKEN_NIL: emitOp(OP_NIL); break;
    case TOKEN_TRUE: emitOp(OP_TRUE); break;
    default: return; /* unreachable */
    }
}

static void grouping(bool canAssign) {
    (void)canAssign;
    expression();
    consume(TOKEN_RIGHT_PAREN, "Expect ')' after expression.");
}

static void number(bool canAssign) {
    (void)canAssign;
    /* Copy first: strtod would read "1e5" or "0x1" past the Drip token. */
    char small[64];
    size_t length = (size_t)parser.previous.length;
    char *text = length < sizeof small ? small : malloc(length + 1);
    if (text == NULL) {
        error("Out of memory.");
        return;
    }
    memcpy(text, parser.previous.start, length);
    text[length] = '\0';
    double value = strtod(text, NULL);
    if (text != small) {
        free(text);
    }
    emitConstant(NUMBER_VAL(value));
}

static void string(bool canAssign) {
    (void)canAssign;
    emitConstant(OBJ_VAL(string_copy(parser.previous.start + 1, parser.previous.length - 2)));
}

static void variable(bool canAssign) {
    namedVariable(parser.previous, canAssign);
}

static void super_(bool canAssign) {
    (void)canAssign;
    if (currentClass == NULL) {
        error("Can't use 'super' outside of a class.");
    } else if (!currentClass->hasSuperclass) {
        error("Can't use 'super' in a class with no superclass.");
    }

    consume(TOKEN_DOT, "Expect '.' after 'super'.");
    consume(TOKEN_IDENTIFIER, "Expect superclass method name.");
    uint8_t name = identifierConstant(&parser.previous);

    namedVariable(syntheticToken("this"), false);
    if (match(TOKEN_LEFT_PAREN)) {
        uint8_t argCount = argumentList();
        namedVariable(syntheticToken("super"), false);
        emitOpArg(OP_SUPER_INVOKE, name);
        emitByte(argCount);
        adjustStack(-argCount - 1);
    } else {
        namedVariable(syntheticToken("super"), false);
        emitOpArg(OP_GET_SUPER, name);
    }
}

static void this_(bool canAssign) {
    (void)canAssign;
    if (currentClass == NULL) {
        error("Can't use 'this' outside of a class.");
        return;
    }
    variable(false);
}

static void unary(bool canAssign) {
    (void)canAssign;
    TokenType operatorType = parser.previous.type;
    parsePrecedence(PREC_UNARY);
    switch (operatorType) {
    case TOKEN_BANG: emitOp(OP_NOT); break;
    case TOKEN_MINUS: emitOp(OP_NEGATE); break;
    default: return; /* unreachable */
    }
}

static ParseRule rules[] = {
    [TOKEN_LEFT_PAREN] = {grouping, call, PREC_CALL},
    [TOKEN_RIGHT_PAREN] = {NULL, NULL, PREC_NONE},
    [TOKEN_LEFT_BRACE] = {NULL, NULL, PREC_NONE},
    [TOKEN_RIGHT_BRACE] = {NULL, NULL, PREC_NONE},
    [TOKEN_COMMA] = {NULL, NULL, PREC_NONE},
    [TOKEN_DOT] = {NULL, dot, PREC_CALL},
    [TOKEN_MINUS] = {unary, binary, PREC_TERM},
    [TOKEN_PLUS] = {NULL, binary, PREC_TERM},
    [TOKEN_SEMICOLON] = {NULL, NULL, PREC_NONE},
    [TOKEN_SLASH] = {NULL, binary, PREC_FACTOR},
    [TOKEN_STAR] = {NULL, binary, PREC_FACTOR},
    [TOKEN_BANG] = {unary, NULL, PREC_NONE},
    [TOKEN_BANG_EQUAL] = {NULL, binary, PREC_EQUALITY},
    [TOKEN_EQUAL] = {NULL, NULL, PREC_NONE},
    [TOKEN_EQUAL_EQUAL] = {NULL, binary, PREC_EQUALITY},
    [TOKEN_GREATER] = {NULL, binary, PREC_COMPARISON},
    [TOKEN_GREATER_EQUAL] = {NULL, binary, PREC_COMPARISON},
    [TOKEN_LESS] = {NULL, binary, PREC_COMPARISON},
    [TOKEN_LESS_EQUAL] = {NULL, binary, PREC_COMPARISON},
    [TOKEN_IDENTIFIER] = {variable, NULL, PREC_NONE},
    [TOKEN_STRING] = {string, NULL, PREC_NONE},
    [TOKEN_NUMBER] = {number, NULL, PREC_NONE},
    [TOKEN_AND] = {NULL, and_, PREC_AND},
    [TOKEN_CLASS] = {NULL, NULL, PREC_NONE},
    [TOKEN_ELSE] = {NULL, NULL, PREC_NONE},
    [TOKEN_FALSE] = {literal, NULL, PREC_NONE},
    [TOKEN_FOR] = {NULL, NULL, PREC_NONE},
    [TOKEN_FUN] = {NULL, NULL, PREC_NONE},
    [TOKEN_IF] = {NULL, NULL, PREC_NONE},
    [TOKEN_NIL] = {literal, NULL, PREC_NONE},
    [TOKEN_OR] = {NULL, or_, PREC_OR},
    [TOKEN_PRINT] = {NULL, NULL, PREC_NONE},
    [TOKEN_RETURN] = {NULL, NULL, PREC_NONE},
    [TOKEN_SUPER] = {super_, NULL, PREC_NONE},
    [TOKEN_THIS] = {this_, NULL, PREC_NONE},
    [TOKEN_TRUE] = {literal, NULL, PREC_NONE},
    [TOKEN_VAR] = {NULL, NULL, PREC_NONE},
    [TOKEN_WHILE] = {NULL, NULL, PREC_NONE},
    [TOKEN_ERROR] = {NULL, NULL, PREC_NONE},
    [TOKEN_EOF] = {NULL, NULL, PREC_NONE},
};

static ParseRule *getRule(TokenType type) {
    return &rules[type];
}

/* Guards every recursive entry; false when too deep (an error is reported). */
static bool enterNesting(void) {
    if (parser.nesting >= NESTING_MAX) {
        errorAtCurrent("Too much nesting.");
        return false;
    }
    parser.nesting++;
    return true;
}

static void leaveNesting(void) {
    parser.nesting--;
}

static void parsePrecedence(Precedence precedence) {
    if (!enterNesting()) {
        return;
    }
    advance();
    ParseFn prefixRule = getRule(parser.previous.type)->prefix;
    if (prefixRule == NULL) {
        error("Expect expression.");
        leaveNesting();
        return;
    }

    bool canAssign = precedence <= PREC_ASSIGNMENT;
    prefixRule(canAssign);

    while (precedence <= getRule(parser.current.type)->precedence) {
        advance();
        ParseFn infixRule = getRule(parser.previous.type)->infix;
        infixRule(canAssign);
    }

    if (canAssign && match(TOKEN_EQUAL)) {
        error("Invalid assignment target.");
    }
    leaveNesting();
}

static void expression(void) {
    parsePrecedence(PREC_ASSIGNMENT);
}

/* ---- declarations and statements ---- */

static void block(void) {
    while (!check(TOKEN_RIGHT_BRACE) && !check(TOKEN_EOF)) {
        declaration();
    }
    consume(TOKEN_RIGHT_BRACE, "Expect '}' after block.");
}

static void function(FunctionType type) {
    Compiler compiler;
    initCompiler(&compiler, type);
    beginScope();

    consume(TOKEN_LEFT_PAREN, "Expect '(' after function name.");
    if (!check(TOKEN_RIGHT_PAREN)) {
        do {
            current->function->arity++;
            if (current->function->arity > 255) {
                errorAtCurrent("Can't have more than 255 parameters.");
            }
            uint8_t constant = parseVariable("Expect parameter name.");
            adjustStack(1); /* the argument's slot */
            defineVariable(constant);
        } while (match(TOKEN_COMMA));
    }
    consume(TOKEN_RIGHT_PAREN, "Expect ')' after parameters.");
    consume(TOKEN_LEFT_BRACE, "Expect '{' before function body.");
    block();

    /* No endScope: RETURN discards the whole frame at once. */
    Upvalue upvalues[UINT8_COUNT];
    int upvalueCount = compiler.function->upvalueCount;
    memcpy(upvalues, compiler.upvalues, sizeof(Upvalue) * (size_t)upvalueCount);
    ObjFunction *compiled = endCompiler();
    emitOpArg(OP_CLOSURE, makeConstant(OBJ_VAL(compiled)));
    for (int i = 0; i < upvalueCount; i++) {
        emitByte(upvalues[i].isLocal ? 1 : 0);
        emitByte(upvalues[i].index);
    }
}

static void method(void) {
    consume(TOKEN_IDENTIFIER, "Expect method name.");
    uint8_t constant = identifierConstant(&parser.previous);
    FunctionType type = TYPE_METHOD;
    if (parser.previous.length == 4 && memcmp(parser.previous.start, "init", 4) == 0) {
        type = TYPE_INITIALIZER;
    }
    function(type);
    emitOpArg(OP_METHOD, constant);
}

static void classDeclaration(void) {
    consume(TOKEN_IDENTIFIER, "Expect class name.");
    Token className = parser.previous;
    uint8_t nameConstant = identifierConstant(&parser.previous);
    declareVariable();

    emitOpArg(OP_CLASS, nameConstant);
    defineVariable(nameConstant);

    ClassCompiler classCompiler;
    classCompiler.hasSuperclass = false;
    classCompiler.name = className;
    classCompiler.enclosing = currentClass;
    currentClass = &classCompiler;

    if (match(TOKEN_LESS)) {
        consume(TOKEN_IDENTIFIER, "Expect superclass name.");
        variable(false);
        if (identifiersEqual(&className, &parser.previous)) {
            error("A class can't inherit from itself.");
        }
        /* The superclass stays on the stack as a hidden local "super". */
        beginScope();
        addLocal(syntheticToken("super"));
        defineVariable(0);

        namedVariable(className, false);
        emitOp(OP_INHERIT);
        classCompiler.hasSuperclass = true;
    }

    namedVariable(className, false);
    consume(TOKEN_LEFT_BRACE, "Expect '{' before class body.");
    while (!check(TOKEN_RIGHT_BRACE) && !check(TOKEN_EOF)) {
        method();
    }
    consume(TOKEN_RIGHT_BRACE, "Expect '}' after class body.");
    emitOp(OP_POP);

    if (classCompiler.hasSuperclass) {
        endScope();
    }
    currentClass = currentClass->enclosing;
}

static void funDeclaration(void) {
    uint8_t global = parseVariable("Expect function name.");
    markInitialized(); /* a local function may call itself */
    function(TYPE_FUNCTION);
    defineVariable(global);
}

static void varDeclaration(void) {
    uint8_t global = parseVariable("Expect variable name.");
    if (match(TOKEN_EQUAL)) {
        expression();
    } else {
        emitOp(OP_NIL);
    }
    consume(TOKEN_SEMICOLON, "Expect ';' after variable declaration.");
    defineVariable(global);
}

static void expressionStatement(void) {
    expression();
    consume(TOKEN_SEMICOLON, "Expect ';' after expression.");
    emitOp(OP_POP);
}

static void forStatement(void) {
    beginScope();
    consume(TOKEN_LEFT_PAREN, "Expect '(' after 'for'.");
    if (match(TOKEN_SEMICOLON)) {
        /* no initializer */
    } else if (match(TOKEN_VAR)) {
        varDeclaration();
    } else {
        expressionStatement();
    }

    int loopStart = currentChunk()->count;
    int exitJump = -1;
    if (!match(TOKEN_SEMICOLON)) {
        expression();
        consume(TOKEN_SEMICOLON, "Expect ';' after loop condition.");
        exitJump = emitJump(OP_JUMP_IF_FALSE);
        emitOp(OP_POP);
    }

    if (!match(TOKEN_RIGHT_PAREN)) {
        int bodyJump = emitJump(OP_JUMP);
        int incrementStart = currentChunk()->count;
        expression();
        emitOp(OP_POP);
        consume(TOKEN_RIGHT_PAREN, "Expect ')' after for clauses.");
        emitLoop(loopStart);
        loopStart = incrementStart;
        patchJump(bodyJump);
    }

    statement();
    emitLoop(loopStart);

    if (exitJump != -1) {
        patchJump(exitJump);
        adjustStack(1); /* the exit path still has the condition */
        emitOp(OP_POP);
    }
    endScope();
}

static void ifStatement(void) {
    consume(TOKEN_LEFT_PAREN, "Expect '(' after 'if'.");
    expression();
    consume(TOKEN_RIGHT_PAREN, "Expect ')' after condition.");

    int thenJump = emitJump(OP_JUMP_IF_FALSE);
    emitOp(OP_POP);
    statement();

    int elseJump = emitJump(OP_JUMP);
    patchJump(thenJump);
    adjustStack(1); /* the else path still has the condition */
    emitOp(OP_POP);

    if (match(TOKEN_ELSE)) {
        statement();
    }
    patchJump(elseJump);
}

static void printStatement(void) {
    expression();
    consume(TOKEN_SEMICOLON, "Expect ';' after value.");
    emitOp(OP_PRINT);
}

static void returnStatement(void) {
    if (current->type == TYPE_SCRIPT) {
        error("Can't return from top-level code.");
    }
    if (match(TOKEN_SEMICOLON)) {
        emitReturn();
        return;
    }
    if (current->type == TYPE_INITIALIZER) {
        error("Can't return a value from an initializer.");
    }
    expression();
    consume(TOKEN_SEMICOLON, "Expect ';' after return value.");
    emitOp(OP_RETURN);
}

static void whileStatement(void) {
    int loopStart = currentChunk()->count;
    consume(TOKEN_LEFT_PAREN, "Expect '(' after 'while'.");
    expression();
    consume(TOKEN_RIGHT_PAREN, "Expect ')' after condition.");

    int exitJump = emitJump(OP_JUMP_IF_FALSE);
    emitOp(OP_POP);
    statement();
    emitLoop(loopStart);

    patchJump(exitJump);
    adjustStack(1); /* the exit path still has the condition */
    emitOp(OP_POP);
}

/* After an error, skips to a likely statement boundary so one mistake gives
 * one message rather than a cascade. */
static void synchronize(void) {
    parser.panicMode = false;
    while (parser.current.type != TOKEN_EOF) {
        if (parser.previous.type == TOKEN_SEMICOLON) {
            return;
        }
        switch (parser.current.type) {
        case TOKEN_CLASS:
        case TOKEN_FUN:
        case TOKEN_VAR:
        case TOKEN_FOR:
        case TOKEN_IF:
        case TOKEN_WHILE:
        case TOKEN_PRINT:
        case TOKEN_RETURN: return;
        default: break;
        }
        advance();
    }
}

static void declaration(void) {
    if (!enterNesting()) {
        /* Skip the rest of the too-deep construct so the loop ends. */
        advance();
        return;
    }
    const char *start = parser.current.start;
    if (match(TOKEN_CLASS)) {
        classDeclaration();
    } else if (match(TOKEN_FUN)) {
        funDeclaration();
    } else if (match(TOKEN_VAR)) {
        varDeclaration();
    } else {
        statement();
    }
    if (parser.panicMode) {
        synchronize();
    }
    /* Every declaration consumes at least one token, or the loops calling
     * this one could spin forever on an error that consumed nothing. */
    if (parser.current.start == start && parser.current.type != TOKEN_EOF) {
        advance();
    }
    leaveNesting();
}

static void statement(void) {
    if (match(TOKEN_PRINT)) {
        printStatement();
    } else if (match(TOKEN_FOR)) {
        forStatement();
    } else if (match(TOKEN_IF)) {
        ifStatement();
    } else if (match(TOKEN_RETURN)) {
        returnStatement();
    } else if (match(TOKEN_WHILE)) {
        whileStatement();
    } else if (match(TOKEN_LEFT_BRACE)) {
        if (!enterNesting()) {
            return;
        }
        beginScope();
        block();
        endScope();
        leaveNesting();
    } else {
        expressionStatement();
    }
}

ObjFunction *compile(const char *source, int sourceLength) {
    scanner_init(source, sourceLength);
    Compiler compiler;
    currentClass = NULL;
    current = NULL;
    initCompiler(&compiler, TYPE_SCRIPT);

    parser.hadError = false;
    parser.panicMode = false;
    parser.reportedAtEnd = false;
    parser.nesting = 0;

    advance();
    while (!match(TOKEN_EOF)) {
        declaration();
    }

    ObjFunction *function = endCompiler();
    return parser.hadError ? NULL : function;
}

void compiler_mark_roots(void) {
    for (Compiler *compiler = current; compiler != NULL; compiler = compiler->enclosing) {
        gc_mark_object((Obj *)compiler->function);
    }
}
