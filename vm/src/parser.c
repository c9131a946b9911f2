/* parser.c -- tokens to syntax tree.
 *
 * Layout: the token cursor and its error reporting; expressions (a table of
 * prefix forms, a table of binding powers for infix forms, one climbing
 * loop); statements and declarations (a table from leading keyword to form).
 *
 * Every form consumes tokens exactly where a one-pass Lox compiler does and
 * reports the same message when a token is missing, then carries on with
 * what it has: the node of a form whose name is missing names the token
 * before it, as clox's compiler would have. That keeps error recovery, and
 * so every later message, the same as clox's. */
#include "parser.h"
#include "growable.h"

#define STRINGIFY(x) #x
#define AS_TEXT(x) STRINGIFY(x)

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
} Precedence;

/* ---- the cursor ---- */

static uint32_t tick(Parser *p) {
    return p->clock++;
}

static TokenType type_at(const Parser *p, int32_t token) {
    return (TokenType)p->tokens->tokens[token].type;
}

static TokenType upcoming(const Parser *p) {
    return type_at(p, p->current);
}

static void syntax_error(Parser *p, int32_t token, const char *message) {
    if (p->halted) {
        return;
    }
    p->panicking = true;
    diag_error(p->diagnostics, tick(p), token, message);
}

/* Stops compiling: the one error is reported and the cursor jumps to the
 * end, so every form in progress finishes at once with nothing to report. */
static void halt(Parser *p, const char *message) {
    if (!p->halted) {
        diag_fatal(p->diagnostics, tick(p), p->current, message);
        p->halted = true;
    }
    p->current = p->tokens->count - 1;
}

/* Reports lexical errors until current is a real token. */
static void skip_error_tokens(Parser *p) {
    while (upcoming(p) == TOKEN_ERROR) {
        const Token *bad = &p->tokens->tokens[p->current];
        syntax_error(p, p->current, token_error_message(p->tokens, bad));
        p->current++;
    }
}

/* Consumes one token; at the end the cursor stays on EOF. */
static void step(Parser *p) {
    p->previous = p->current;
    if (upcoming(p) != TOKEN_EOF) {
        p->current++;
        if (UNLIKELY(upcoming(p) == TOKEN_ERROR)) {
            skip_error_tokens(p);
        }
    }
}

static bool accept(Parser *p, TokenType type) {
    bool found = upcoming(p) == type;
    if (found) {
        step(p);
    }
    return found;
}

/* Consumes a token of type, or reports message at the one that is there
 * (which stays, for what follows to try). */
static void expect(Parser *p, TokenType type, const char *message) {
    if (!accept(p, type)) {
        syntax_error(p, p->current, message);
    }
}

/* The symbol of a token's text: the scanner's for an identifier; other
 * tokens stand for names only in broken code, and are interned here. */
static int32_t symbol_of(Parser *p, int32_t token) {
    const Token *t = &p->tokens->tokens[token < 0 ? 0 : token];
    if (t->symbol >= 0) {
        return t->symbol;
    }
    return symbol_intern(p->symbols, token_text(p->tokens, t), t->length);
}

static Node *at(Parser *p, NodeRef ref) {
    return ast_at(p->ast, ref);
}

/* A node of kind at token, stamped now. */
static NodeRef stamped(Parser *p, NodeKind kind, int32_t token) {
    NodeRef ref = ast_node(p->ast, kind);
    Node *node = at(p, ref);
    node->tok = token;
    node->stamp = tick(p);
    return ref;
}

/* A use of the name symbol, reported and placed at token. */
static NodeRef reference(Parser *p, int32_t symbol, int32_t token) {
    NodeRef ref = stamped(p, NODE_VARIABLE, token);
    at(p, ref)->sym = symbol;
    return ref;
}

/* ---- expressions ---- */

static NodeRef parse_level(Parser *p, Precedence lowest, int depth);

static NodeRef parse_expression(Parser *p, int depth) {
    return parse_level(p, PREC_ASSIGNMENT, depth);
}

/* "(a, b, c)" after a callee or method name, the '(' already consumed. More
 * than 255 arguments are parsed (and reported) but not counted. */
static NodeRef parse_arguments(Parser *p, int depth, int32_t *count) {
    NodeList list = node_list();
    if (upcoming(p) != TOKEN_RIGHT_PAREN) {
        do {
            node_list_append(p->ast, &list, parse_expression(p, depth + 1));
            if (list.length > 255) {
                syntax_error(p, p->previous, "Can't have more than 255 arguments.");
            }
        } while (accept(p, TOKEN_COMMA));
    }
    expect(p, TOKEN_RIGHT_PAREN, "Expect ')' after arguments.");
    *count = list.length > 255 ? 255 : list.length;
    return list.head;
}

/* Prefix forms: the token that starts them has just been consumed. */

static NodeRef prefix_group(Parser *p, bool can_assign, int depth) {
    (void)can_assign;
    NodeRef inner = parse_expression(p, depth + 1);
    expect(p, TOKEN_RIGHT_PAREN, "Expect ')' after expression.");
    return inner;
}

static NodeRef prefix_unary(Parser *p, bool can_assign, int depth) {
    (void)can_assign;
    TokenType op = type_at(p, p->previous);
    NodeRef operand = parse_level(p, PREC_UNARY, depth + 1);
    NodeRef ref = ast_node(p->ast, NODE_UNARY);
    Node *node = at(p, ref);
    node->op = (uint8_t)op;
    node->a = operand;
    node->end = p->previous;
    return ref;
}

static NodeRef prefix_literal(Parser *p, bool can_assign, int depth) {
    (void)can_assign, (void)depth;
    NodeRef ref = ast_node(p->ast, NODE_LITERAL);
    at(p, ref)->tok = p->previous;
    at(p, ref)->op = (uint8_t)type_at(p, p->previous);
    return ref;
}

/* A number or a string: a constant, whose token the generator reads. */
static NodeRef prefix_constant(Parser *p, bool can_assign, int depth) {
    (void)can_assign, (void)depth;
    bool number = type_at(p, p->previous) == TOKEN_NUMBER;
    return stamped(p, number ? NODE_NUMBER : NODE_STRING, p->previous);
}

/* A name, or an assignment to it when an '=' follows where one may. */
static NodeRef prefix_name(Parser *p, bool can_assign, int depth) {
    NodeRef target = reference(p, symbol_of(p, p->previous), p->previous);
    if (!can_assign || !accept(p, TOKEN_EQUAL)) {
        return target;
    }
    NodeRef value = parse_expression(p, depth + 1);
    NodeRef ref = ast_node(p->ast, NODE_ASSIGN);
    at(p, ref)->a = target;
    at(p, ref)->b = value;
    at(p, ref)->end = p->previous;
    return ref;
}

static NodeRef prefix_this(Parser *p, bool can_assign, int depth) {
    (void)can_assign, (void)depth;
    NodeRef ref = stamped(p, NODE_THIS, p->previous);
    at(p, ref)->sym = SYMBOL_THIS;
    return ref;
}

/* super.name or super.name(args): the receiver is read first, then the
 * arguments, then the superclass. */
static NodeRef prefix_super(Parser *p, bool can_assign, int depth) {
    (void)can_assign;
    NodeRef ref = stamped(p, NODE_SUPER_GET, p->previous);
    expect(p, TOKEN_DOT, "Expect '.' after 'super'.");
    expect(p, TOKEN_IDENTIFIER, "Expect superclass method name.");
    int32_t name = p->previous;
    uint32_t constant_stamp = tick(p);
    NodeRef receiver = reference(p, SYMBOL_THIS, name);
    NodeRef arguments = NO_NODE;
    int32_t count = 0;
    bool invoked = accept(p, TOKEN_LEFT_PAREN);
    if (invoked) {
        arguments = parse_arguments(p, depth, &count);
    }
    NodeRef superclass = reference(p, SYMBOL_SUPER, p->previous);
    Node *node = at(p, ref);
    node->kind = invoked ? NODE_SUPER_INVOKE : NODE_SUPER_GET;
    node->tok2 = name;
    node->sym = symbol_of(p, name);
    node->stamp2 = constant_stamp;
    node->a = receiver;
    node->b = arguments;
    node->c = superclass;
    node->count = count;
    node->end = p->previous;
    return ref;
}

typedef NodeRef (*PrefixForm)(Parser *p, bool can_assign, int depth);

static const PrefixForm prefix_forms[TOKEN_TYPE_COUNT] = {
    [TOKEN_LEFT_PAREN] = prefix_group, [TOKEN_MINUS] = prefix_unary,
    [TOKEN_BANG] = prefix_unary,       [TOKEN_IDENTIFIER] = prefix_name,
    [TOKEN_STRING] = prefix_constant,  [TOKEN_NUMBER] = prefix_constant,
    [TOKEN_FALSE] = prefix_literal,    [TOKEN_NIL] = prefix_literal,
    [TOKEN_TRUE] = prefix_literal,     [TOKEN_SUPER] = prefix_super,
    [TOKEN_THIS] = prefix_this,
};

/* Infix forms: how tightly each token binds to what precedes it (PREC_NONE
 * for tokens that continue no expression) and which form it makes. */
typedef enum { INFIX_BINARY, INFIX_AND, INFIX_OR, INFIX_CALL, INFIX_PROPERTY } InfixShape;

static const struct {
    unsigned char power;
    unsigned char shape;
} infix_forms[TOKEN_TYPE_COUNT] = {
    [TOKEN_LEFT_PAREN] = {PREC_CALL, INFIX_CALL},
    [TOKEN_DOT] = {PREC_CALL, INFIX_PROPERTY},
    [TOKEN_MINUS] = {PREC_TERM, INFIX_BINARY},
    [TOKEN_PLUS] = {PREC_TERM, INFIX_BINARY},
    [TOKEN_SLASH] = {PREC_FACTOR, INFIX_BINARY},
    [TOKEN_STAR] = {PREC_FACTOR, INFIX_BINARY},
    [TOKEN_BANG_EQUAL] = {PREC_EQUALITY, INFIX_BINARY},
    [TOKEN_EQUAL_EQUAL] = {PREC_EQUALITY, INFIX_BINARY},
    [TOKEN_GREATER] = {PREC_COMPARISON, INFIX_BINARY},
    [TOKEN_GREATER_EQUAL] = {PREC_COMPARISON, INFIX_BINARY},
    [TOKEN_LESS] = {PREC_COMPARISON, INFIX_BINARY},
    [TOKEN_LESS_EQUAL] = {PREC_COMPARISON, INFIX_BINARY},
    [TOKEN_AND] = {PREC_AND, INFIX_AND},
    [TOKEN_OR] = {PREC_OR, INFIX_OR},
};

/* ".name", ".name = value" or ".name(args)" after an object. */
static NodeRef infix_property(Parser *p, NodeRef object, bool can_assign, int depth) {
    expect(p, TOKEN_IDENTIFIER, "Expect property name after '.'.");
    NodeRef ref = stamped(p, NODE_GET, p->previous);
    at(p, ref)->sym = symbol_of(p, p->previous);
    at(p, ref)->a = object;
    if (can_assign && accept(p, TOKEN_EQUAL)) {
        NodeRef value = parse_expression(p, depth + 1);
        at(p, ref)->kind = NODE_SET;
        at(p, ref)->b = value;
    } else if (accept(p, TOKEN_LEFT_PAREN)) {
        int32_t count;
        NodeRef arguments = parse_arguments(p, depth, &count);
        at(p, ref)->kind = NODE_INVOKE;
        at(p, ref)->b = arguments;
        at(p, ref)->count = count;
    }
    at(p, ref)->end = p->previous;
    return ref;
}

/* The operator has just been consumed; left is what precedes it. */
static NodeRef parse_infix(Parser *p, NodeRef left, bool can_assign, int depth) {
    int32_t op = p->previous;
    InfixShape shape = (InfixShape)infix_forms[type_at(p, op)].shape;
    if (shape == INFIX_PROPERTY) {
        return infix_property(p, left, can_assign, depth);
    }
    NodeRef ref;
    if (shape == INFIX_CALL) {
        int32_t count;
        NodeRef arguments = parse_arguments(p, depth, &count);
        ref = ast_node(p->ast, NODE_CALL);
        at(p, ref)->b = arguments;
        at(p, ref)->count = count;
    } else {
        /* and/or group to the right, the arithmetic operators to the left. */
        Precedence power = (Precedence)infix_forms[type_at(p, op)].power;
        Precedence right_side = shape == INFIX_BINARY ? power + 1 : power;
        NodeRef right = parse_level(p, right_side, depth + 1);
        NodeKind kind = shape == INFIX_AND ? NODE_AND : shape == INFIX_OR ? NODE_OR : NODE_BINARY;
        ref = ast_node(p->ast, kind);
        at(p, ref)->b = right;
        at(p, ref)->op = (uint8_t)type_at(p, op);
        at(p, ref)->tok = op;
        at(p, ref)->stamp = tick(p);
    }
    at(p, ref)->a = left;
    at(p, ref)->end = p->previous;
    return ref;
}

/* An expression whose infix operators all bind at least as tightly as
 * lowest. Only at the lowest level may the expression be an assignment
 * target; an '=' left over there was aimed at something else. */
static NodeRef parse_level(Parser *p, Precedence lowest, int depth) {
    if (depth > EXPRESSION_DEPTH_MAX) {
        halt(p, "Too much nesting: expressions nested more than " AS_TEXT(
                    EXPRESSION_DEPTH_MAX) " levels deep.");
        return ast_node(p->ast, NODE_MISSING);
    }
    step(p);
    PrefixForm prefix = prefix_forms[type_at(p, p->previous)];
    if (prefix == NULL) {
        syntax_error(p, p->previous, "Expect expression.");
        NodeRef missing = ast_node(p->ast, NODE_MISSING);
        at(p, missing)->tok = p->previous;
        return missing;
    }
    bool can_assign = lowest <= PREC_ASSIGNMENT;
    NodeRef tree = prefix(p, can_assign, depth);
    while (infix_forms[upcoming(p)].power >= lowest) {
        step(p);
        tree = parse_infix(p, tree, can_assign, depth);
    }
    if (can_assign && accept(p, TOKEN_EQUAL)) {
        syntax_error(p, p->previous, "Invalid assignment target.");
    }
    return tree;
}

/* ---- statements and declarations ---- */

static NodeRef parse_declaration(Parser *p, int depth);
static NodeRef parse_statement(Parser *p, int depth);

/* Declarations up to '}' (or the end), then the '}'. */
static NodeRef parse_block_body(Parser *p, int depth) {
    NodeList items = node_list();
    while (upcoming(p) != TOKEN_RIGHT_BRACE && upcoming(p) != TOKEN_EOF) {
        node_list_append(p->ast, &items, parse_declaration(p, depth));
    }
    expect(p, TOKEN_RIGHT_BRACE, "Expect '}' after block.");
    return items.head;
}

/* A statement of an expression and a ';' (print's, or the expression's own). */
static NodeRef expression_and_semicolon(Parser *p, NodeKind kind, const char *message) {
    NodeRef ref = ast_node(p->ast, kind);
    NodeRef value = parse_expression(p, 0);
    expect(p, TOKEN_SEMICOLON, message);
    at(p, ref)->a = value;
    at(p, ref)->end = p->previous;
    return ref;
}

static NodeRef parse_expression_statement(Parser *p, int depth) {
    (void)depth;
    return expression_and_semicolon(p, NODE_EXPRESSION, "Expect ';' after expression.");
}

static NodeRef form_print(Parser *p, int depth) {
    (void)depth;
    return expression_and_semicolon(p, NODE_PRINT, "Expect ';' after value.");
}

static NodeRef form_block(Parser *p, int depth) {
    NodeRef ref = ast_node(p->ast, NODE_BLOCK);
    NodeRef body = parse_block_body(p, depth + 1);
    at(p, ref)->a = body;
    at(p, ref)->end = p->previous;
    return ref;
}

/* "(condition)" after if and while; tok is where its jump goes. */
static NodeRef parse_condition(Parser *p, NodeRef owner, const char *after_what) {
    expect(p, TOKEN_LEFT_PAREN, after_what);
    NodeRef condition = parse_expression(p, 0);
    expect(p, TOKEN_RIGHT_PAREN, "Expect ')' after condition.");
    at(p, owner)->tok = p->previous;
    return condition;
}

static NodeRef form_if(Parser *p, int depth) {
    NodeRef ref = ast_node(p->ast, NODE_IF);
    NodeRef condition = parse_condition(p, ref, "Expect '(' after 'if'.");
    NodeRef then = parse_statement(p, depth + 1);
    at(p, ref)->tok2 = p->previous;
    at(p, ref)->stamp = tick(p);
    NodeRef otherwise = accept(p, TOKEN_ELSE) ? parse_statement(p, depth + 1) : NO_NODE;
    Node *node = at(p, ref);
    node->a = condition;
    node->b = then;
    node->c = otherwise;
    node->end = p->previous;
    node->stamp2 = tick(p);
    return ref;
}

static NodeRef form_while(Parser *p, int depth) {
    NodeRef ref = ast_node(p->ast, NODE_WHILE);
    NodeRef condition = parse_condition(p, ref, "Expect '(' after 'while'.");
    NodeRef body = parse_statement(p, depth + 1);
    Node *node = at(p, ref);
    node->a = condition;
    node->b = body;
    node->end = p->previous;
    node->stamp = tick(p);
    return ref;
}

static NodeRef form_var(Parser *p, int depth);

/* for (initializer; condition; step) body -- each clause optional. */
static NodeRef form_for(Parser *p, int depth) {
    NodeRef ref = ast_node(p->ast, NODE_FOR);
    expect(p, TOKEN_LEFT_PAREN, "Expect '(' after 'for'.");
    NodeRef initializer = NO_NODE;
    if (accept(p, TOKEN_VAR)) {
        initializer = form_var(p, depth + 1);
    } else if (!accept(p, TOKEN_SEMICOLON)) {
        initializer = parse_expression_statement(p, depth + 1);
    }
    at(p, ref)->a = initializer;
    if (!accept(p, TOKEN_SEMICOLON)) {
        NodeRef condition = parse_expression(p, 0);
        expect(p, TOKEN_SEMICOLON, "Expect ';' after loop condition.");
        at(p, ref)->b = condition;
    }
    at(p, ref)->tok = p->previous; /* the exit jump's line, and the jump over the step's */
    if (!accept(p, TOKEN_RIGHT_PAREN)) {
        NodeRef increment = parse_expression(p, 0);
        at(p, ref)->tok2 = p->previous;
        expect(p, TOKEN_RIGHT_PAREN, "Expect ')' after for clauses.");
        at(p, ref)->c = increment;
        at(p, ref)->tok3 = p->previous;
        at(p, ref)->stamp = tick(p);
    }
    NodeRef body = parse_statement(p, depth + 1);
    at(p, ref)->d = body;
    at(p, ref)->end = p->previous;
    at(p, ref)->stamp2 = tick(p);
    return ref;
}

static NodeRef form_return(Parser *p, int depth) {
    (void)depth;
    NodeRef ref = stamped(p, NODE_RETURN, p->previous);
    if (!accept(p, TOKEN_SEMICOLON)) {
        NodeRef value = parse_expression(p, 0);
        expect(p, TOKEN_SEMICOLON, "Expect ';' after return value.");
        at(p, ref)->a = value;
    }
    at(p, ref)->end = p->previous;
    return ref;
}

/* A declared name: the identifier, or (when it is missing) the token the
 * parser stopped after, which a one-pass compiler would have declared. */
static NodeRef declared_name(Parser *p, NodeKind kind, const char *message) {
    expect(p, TOKEN_IDENTIFIER, message);
    NodeRef ref = stamped(p, kind, p->previous);
    at(p, ref)->sym = symbol_of(p, p->previous);
    return ref;
}

static NodeRef form_var(Parser *p, int depth) {
    (void)depth;
    NodeRef ref = declared_name(p, NODE_VAR, "Expect variable name.");
    if (accept(p, TOKEN_EQUAL)) {
        NodeRef initializer = parse_expression(p, 0);
        at(p, ref)->a = initializer;
    }
    expect(p, TOKEN_SEMICOLON, "Expect ';' after variable declaration.");
    at(p, ref)->end = p->previous;
    return ref;
}

/* Parameters and body of a function whose name is the previous token;
 * class_name is the enclosing class's name token for methods, else -1. */
static NodeRef parse_function(Parser *p, FunctionKind kind, int32_t class_name, int depth) {
    NodeRef ref = ast_node(p->ast, NODE_FUNCTION);
    at(p, ref)->op = (uint8_t)kind;
    at(p, ref)->tok = p->previous;
    at(p, ref)->tok2 = class_name;
    at(p, ref)->sym = symbol_of(p, p->previous);
    expect(p, TOKEN_LEFT_PAREN, "Expect '(' after function name.");
    NodeList parameters = node_list();
    if (upcoming(p) != TOKEN_RIGHT_PAREN) {
        do {
            if (parameters.length == 255) {
                syntax_error(p, p->current, "Can't have more than 255 parameters.");
            }
            node_list_append(p->ast, &parameters,
                             declared_name(p, NODE_PARAM, "Expect parameter name."));
        } while (accept(p, TOKEN_COMMA));
    }
    expect(p, TOKEN_RIGHT_PAREN, "Expect ')' after parameters.");
    expect(p, TOKEN_LEFT_BRACE, "Expect '{' before function body.");
    NodeRef body = parse_block_body(p, depth + 1);
    Node *node = at(p, ref);
    node->a = parameters.head;
    node->count = parameters.length;
    node->b = body;
    node->end = p->previous;
    node->stamp = tick(p);
    return ref;
}

static NodeRef form_fun(Parser *p, int depth) {
    NodeRef ref = declared_name(p, NODE_FUN, "Expect function name.");
    NodeRef function = parse_function(p, FN_FUNCTION, -1, depth);
    at(p, ref)->a = function;
    return ref;
}

static NodeRef parse_method(Parser *p, int32_t class_name, int depth) {
    NodeRef ref = declared_name(p, NODE_METHOD, "Expect method name.");
    FunctionKind kind = at(p, ref)->sym == SYMBOL_INIT ? FN_INITIALIZER : FN_METHOD;
    NodeRef function = parse_function(p, kind, class_name, depth);
    at(p, ref)->a = function;
    return ref;
}

/* class Name [< Super] { methods }. The class is read back twice with a
 * superclass (to inherit into, then to bind methods to), once without. */
static NodeRef form_class(Parser *p, int depth) {
    NodeRef ref = declared_name(p, NODE_CLASS, "Expect class name.");
    int32_t name = at(p, ref)->tok;
    int32_t symbol = at(p, ref)->sym;
    at(p, ref)->stamp2 = tick(p);
    if (accept(p, TOKEN_LESS)) {
        expect(p, TOKEN_IDENTIFIER, "Expect superclass name.");
        NodeRef superclass = reference(p, symbol_of(p, p->previous), p->previous);
        at(p, ref)->a = superclass;
        at(p, ref)->stamp3 = tick(p);
        NodeRef inheritor = reference(p, symbol, p->previous);
        at(p, ref)->b = inheritor;
        at(p, ref)->flags |= NODE_HAS_SUPERCLASS;
    }
    NodeRef holder = reference(p, symbol, p->previous);
    at(p, ref)->c = holder;
    expect(p, TOKEN_LEFT_BRACE, "Expect '{' before class body.");
    NodeList methods = node_list();
    while (upcoming(p) != TOKEN_RIGHT_BRACE && upcoming(p) != TOKEN_EOF) {
        node_list_append(p->ast, &methods, parse_method(p, name, depth));
    }
    expect(p, TOKEN_RIGHT_BRACE, "Expect '}' after class body.");
    at(p, ref)->d = methods.head;
    at(p, ref)->end = p->previous;
    return ref;
}

typedef NodeRef (*StatementForm)(Parser *p, int depth);

/* Forms by leading keyword; a token not listed starts an expression
 * statement. Declarations may stand only where a declaration may. */
static const StatementForm statement_forms[TOKEN_TYPE_COUNT] = {
    [TOKEN_PRINT] = form_print,   [TOKEN_FOR] = form_for,     [TOKEN_IF] = form_if,
    [TOKEN_RETURN] = form_return, [TOKEN_WHILE] = form_while, [TOKEN_LEFT_BRACE] = form_block,
};

static const StatementForm declaration_forms[TOKEN_TYPE_COUNT] = {
    [TOKEN_CLASS] = form_class,
    [TOKEN_FUN] = form_fun,
    [TOKEN_VAR] = form_var,
};

static bool starts_statement(TokenType type) {
    return type == TOKEN_CLASS || type == TOKEN_FUN || type == TOKEN_VAR || type == TOKEN_FOR ||
           type == TOKEN_IF || type == TOKEN_WHILE || type == TOKEN_PRINT || type == TOKEN_RETURN;
}

static bool statement_too_deep(Parser *p, int depth) {
    if (depth <= STATEMENT_DEPTH_MAX) {
        return false;
    }
    halt(p, "Too much nesting: statements nested more than " AS_TEXT(
                STATEMENT_DEPTH_MAX) " levels deep.");
    return true;
}

static NodeRef parse_statement(Parser *p, int depth) {
    if (statement_too_deep(p, depth)) {
        return ast_node(p->ast, NODE_MISSING);
    }
    StatementForm form = statement_forms[upcoming(p)];
    if (form == NULL) {
        return parse_expression_statement(p, depth);
    }
    step(p);
    return form(p, depth);
}

static bool is_forced(const Parser *p, int32_t token) {
    for (int i = 0; i < p->forced_count; i++) {
        if (p->forced[i] == token) {
            return true;
        }
    }
    return false;
}

/* Whether the cursor is at a statement boundary: just after a ';', before
 * a keyword that starts a statement, or at the end. */
static bool at_boundary(const Parser *p) {
    bool after_semicolon = p->previous >= 0 && type_at(p, p->previous) == TOKEN_SEMICOLON;
    return after_semicolon || starts_statement(upcoming(p)) || upcoming(p) == TOKEN_EOF;
}

/* The end of a declaration: where a parser in panic mode skips ahead to a
 * statement boundary and leaves panic mode. */
static void end_declaration(Parser *p) {
    bool resync = p->panicking || is_forced(p, p->current);
    if (!p->halted) {
        diag_sync(p->diagnostics, tick(p), p->current, !at_boundary(p), resync);
    }
    if (!resync) {
        return;
    }
    p->panicking = false;
    while (!at_boundary(p)) {
        step(p);
    }
}

static NodeRef parse_declaration(Parser *p, int depth) {
    if (statement_too_deep(p, depth)) {
        return ast_node(p->ast, NODE_MISSING);
    }
    int32_t start = p->current;
    StatementForm form = declaration_forms[upcoming(p)];
    NodeRef ref;
    if (form != NULL) {
        step(p);
        ref = form(p, depth);
    } else {
        ref = parse_statement(p, depth);
    }
    end_declaration(p);
    /* Every declaration consumes a token: a form that stopped at once on an
     * error would otherwise be met again by the loop that called it. */
    if (p->current == start && upcoming(p) != TOKEN_EOF) {
        step(p);
    }
    return ref;
}

/* ---- the driver's interface ---- */

void parser_init(Parser *parser, const TokenList *tokens, Ast *ast, SymbolTable *symbols,
                 Diagnostics *diagnostics) {
    *parser = (Parser){.tokens = tokens,
                       .ast = ast,
                       .symbols = symbols,
                       .diagnostics = diagnostics,
                       .current = 0,
                       .previous = -1};
    skip_error_tokens(parser);
}

void parser_free(Parser *parser) {
    free(parser->forced);
    parser->forced = NULL;
    parser->forced_count = parser->forced_capacity = 0;
}

bool parser_at_end(const Parser *parser) {
    return upcoming(parser) == TOKEN_EOF;
}

NodeRef parse_top_declaration(Parser *parser) {
    return parse_declaration(parser, 0);
}

ParserMark parser_mark(const Parser *parser) {
    return (ParserMark){parser->current, parser->previous, parser->panicking};
}

void parser_rewind(Parser *parser, ParserMark mark) {
    parser->current = mark.current;
    parser->previous = mark.previous;
    parser->panicking = mark.panicking;
}

void parser_force_sync(Parser *parser, int32_t token) {
    parser->forced = growable_reserve(parser->forced, &parser->forced_capacity,
                                      parser->forced_count + 1, sizeof(int32_t));
    parser->forced[parser->forced_count++] = token;
}

void parser_clear_forced(Parser *parser) {
    parser->forced_count = 0;
}
