/* parser.h -- the second stage: tokens to a syntax tree (see ast.h).
 *
 * Recursive descent for declarations and statements, precedence climbing for
 * expressions, both dispatching through tables keyed by token type. The
 * parser checks grammar only; names and scopes are the resolver's business.
 *
 * Syntax errors leave the parse going, as in clox: a missing token is
 * reported and not consumed, and the node gets whatever was there. After an
 * error the parser is in panic mode until the end of the innermost
 * declaration, where it skips to a likely statement boundary.
 *
 * The clock. The parser keeps a counter that it reads (and advances) at
 * every event and at every point where a one-pass compiler would have made
 * a check of the later stages; the readings go into the tree as stamps and
 * into diagnostics as event stamps, and order everything in one timeline.
 *
 * Nesting. The parser recurses on nested constructs, and so do the resolver
 * and the code generator after it, so the depth of the tree is what protects
 * the C stack. Expressions may nest EXPRESSION_DEPTH_MAX levels and
 * statements STATEMENT_DEPTH_MAX (common.h); past either limit compiling
 * stops with one error naming the limit. */
#ifndef DRIP_PARSER_H
#define DRIP_PARSER_H

#include "ast.h"
#include "diagnostics.h"
#include "scanner.h"
#include "symbols.h"

typedef struct {
    const TokenList *tokens;
    Ast *ast;
    SymbolTable *symbols;
    Diagnostics *diagnostics;
    int32_t current;  /* index of the next token to consume */
    int32_t previous; /* index of the last token consumed, or -1 */
    bool panicking;   /* a syntax error since the last resynchronisation */
    bool halted;      /* a fatal error: the rest of the input is ignored */
    uint32_t clock;
    /* Tokens where a declaration that ends there must resynchronise as if
     * in panic mode (see diagnostics.h). */
    int32_t *forced;
    int forced_count;
    int forced_capacity;
} Parser;

/* Where the parser is, to go back there and parse again. */
typedef struct {
    int32_t current;
    int32_t previous;
    bool panicking;
} ParserMark;

/* Starts at the first token (reporting any lexical errors before it). */
void parser_init(Parser *parser, const TokenList *tokens, Ast *ast, SymbolTable *symbols,
                 Diagnostics *diagnostics);
void parser_free(Parser *parser);

bool parser_at_end(const Parser *parser);
/* Parses one top-level declaration into the tree; returns its node. */
NodeRef parse_top_declaration(Parser *parser);

ParserMark parser_mark(const Parser *parser);
void parser_rewind(Parser *parser, ParserMark mark);
void parser_force_sync(Parser *parser, int32_t token);
void parser_clear_forced(Parser *parser);

#endif
