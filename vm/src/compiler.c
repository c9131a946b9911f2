/* compiler.c -- runs the front end's stages over a program.
 *
 * The source is scanned once, whole. Then each top-level declaration in
 * turn is parsed into a fresh tree, resolved, generated into the script's
 * code, and its errors settled (printed); the tree is then dropped. Only
 * the tokens and the bytecode grow with the program.
 *
 * When settling finds that a one-pass compiler would have resynchronised
 * where our parser did not (an error from the resolver or code generator
 * put it in panic mode: see diagnostics.h), the declaration is done again:
 * the parser and the script's code go back to where the declaration began,
 * the parser is told to resynchronise at that point, and the stages rerun.
 * This only happens in programs that already have an error. Each rerun
 * moves the first disagreement later, so it ends. A declaration may always
 * be rerun REPARSE_MAX times; past that, only while the program's reruns
 * have covered fewer than REPARSE_TOKEN_BUDGET tokens in all. A declaration
 * of a few thousand tokens thus gets clox's messages for hundreds of such
 * errors, while input built to have thousands of them in a huge declaration
 * costs at most REPARSE_MAX times its length plus the budget (past both,
 * some later error messages may differ from clox's, but not whether there
 * is an error). */
#include "compiler.h"
#include "codegen.h"
#include "diagnostics.h"
#include "parser.h"
#include "resolver.h"
#include "scanner.h"
#include "symbols.h"

#define REPARSE_MAX 64
#define REPARSE_TOKEN_BUDGET (1 << 21)

typedef struct {
    TokenList tokens;
    SymbolTable symbols;
    Diagnostics diagnostics;
    Ast ast;
    Parser parser;
    Resolver resolver;
    Codegen codegen;
    int64_t reparsed_tokens; /* by every rerun so far */
} Compilation;

/* The compilation in progress, for the collector's roots (the VM has one
 * compiler at a time, like it has one VM). */
static Compilation *active = NULL;

static void compile_top_declaration(Compilation *c) {
    parser_clear_forced(&c->parser); /* those of the previous declaration */
    ParserMark parser_start = parser_mark(&c->parser);
    CodegenMark code_start = codegen_mark(&c->codegen);
    for (int attempt = 0;; attempt++) {
        ast_reset(&c->ast);
        NodeRef declaration = parse_top_declaration(&c->parser);
        resolve_declaration(&c->resolver, declaration);
        codegen_declaration(&c->codegen, declaration);
        int64_t length = parser_mark(&c->parser).current - parser_start.current;
        bool may_rerun =
            attempt < REPARSE_MAX || c->reparsed_tokens + length <= REPARSE_TOKEN_BUDGET;
        int32_t missed = diagnostics_settle(&c->diagnostics, &c->tokens, may_rerun);
        if (missed < 0) {
            return;
        }
        c->reparsed_tokens += length;
        diagnostics_drop_pending(&c->diagnostics);
        parser_force_sync(&c->parser, missed);
        parser_rewind(&c->parser, parser_start);
        codegen_rewind(&c->codegen, code_start);
    }
}

ObjFunction *compile(const char *source, int source_length) {
    Compilation c = {0};
    symbols_init(&c.symbols);
    scan_source(&c.tokens, source, source_length, &c.symbols);
    diagnostics_init(&c.diagnostics, stderr);
    ast_init(&c.ast);
    active = &c;
    parser_init(&c.parser, &c.tokens, &c.ast, &c.symbols, &c.diagnostics);
    resolver_init(&c.resolver, &c.ast, &c.symbols, &c.diagnostics);
    codegen_begin(&c.codegen, &c.ast, &c.tokens, &c.symbols, &c.diagnostics);
    diagnostics_settle(&c.diagnostics, &c.tokens, false); /* lexical errors before any token */

    while (!parser_at_end(&c.parser)) {
        compile_top_declaration(&c);
    }
    ObjFunction *script = codegen_end(&c.codegen);
    bool failed = c.diagnostics.had_error;

    active = NULL;
    parser_free(&c.parser);
    resolver_free(&c.resolver);
    ast_free(&c.ast);
    diagnostics_free(&c.diagnostics);
    symbols_free(&c.symbols);
    token_list_free(&c.tokens);
    return failed ? NULL : script;
}

void compiler_mark_roots(void) {
    if (active != NULL) {
        codegen_mark_roots(&active->codegen);
        symbols_mark(&active->symbols);
    }
}
