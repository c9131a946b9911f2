/* scanner.h -- the first stage of the front end: source text to a token array.
 *
 * The whole source is scanned in one go, before parsing starts, into a
 * TokenList: an array of small fixed-size records that name their text by
 * offset and length in the source rather than copying it. Later stages refer
 * to a token by its index in that array, which is also how they order events
 * ("the error at token 812").
 *
 * Lexical errors do not stop the scan. A byte that starts no token, or a
 * string that never closes, becomes a TOKEN_ERROR token in the array; the
 * parser reports it when it reaches it, as clox reports its error tokens, so
 * the same panic-mode rules apply to it as to any syntax error. */
#ifndef DRIP_SCANNER_H
#define DRIP_SCANNER_H

#include "common.h"
#include "symbols.h"

/* The order matters in one place: each of BANG, EQUAL, GREATER and LESS is
 * followed by its two-character form with '=', which the scanner finds as
 * "the one-character token + 1". */
typedef enum {
    TOKEN_LEFT_PAREN,
    TOKEN_RIGHT_PAREN,
    TOKEN_LEFT_BRACE,
    TOKEN_RIGHT_BRACE,
    TOKEN_COMMA,
    TOKEN_DOT,
    TOKEN_MINUS,
    TOKEN_PLUS,
    TOKEN_SEMICOLON,
    TOKEN_SLASH,
    TOKEN_STAR,
    TOKEN_BANG,
    TOKEN_BANG_EQUAL,
    TOKEN_EQUAL,
    TOKEN_EQUAL_EQUAL,
    TOKEN_GREATER,
    TOKEN_GREATER_EQUAL,
    TOKEN_LESS,
    TOKEN_LESS_EQUAL,
    TOKEN_IDENTIFIER,
    TOKEN_STRING,
    TOKEN_NUMBER,
    TOKEN_AND,
    TOKEN_CLASS,
    TOKEN_ELSE,
    TOKEN_FALSE,
    TOKEN_FOR,
    TOKEN_FUN,
    TOKEN_IF,
    TOKEN_NIL,
    TOKEN_OR,
    TOKEN_PRINT,
    TOKEN_RETURN,
    TOKEN_SUPER,
    TOKEN_THIS,
    TOKEN_TRUE,
    TOKEN_VAR,
    TOKEN_WHILE,
    TOKEN_ERROR,
    TOKEN_EOF,
    TOKEN_TYPE_COUNT
} TokenType;

/* 20 bytes. A string literal's token includes its quotes; its line is the
 * line of its last byte (clox counts newlines as it scans, so a string that
 * spans lines reports the line where it ends), and EOF's is the last line.
 * An identifier's text is interned as it is scanned: `symbol` is its entry
 * in the compilation's symbol table (-1 for other tokens). */
typedef struct {
    uint32_t start; /* byte offset in the source */
    uint32_t length;
    int32_t line;
    int32_t symbol;
    uint8_t type; /* a TokenType */
} Token;

typedef struct {
    const char *source;
    Token *tokens;
    int count;
    int capacity;
} TokenList;

/* Scans source[0 .. length), which must be followed by a NUL byte at
 * source[length] (the loops use it as a sentinel; NUL bytes inside the text
 * are ordinary bad characters), interning identifiers in symbols. The list
 * ends with exactly one TOKEN_EOF. The source must outlive the list. */
void scan_source(TokenList *list, const char *source, int length, SymbolTable *symbols);
void token_list_free(TokenList *list);

/* The message of a TOKEN_ERROR token, as clox words it. */
const char *token_error_message(const TokenList *list, const Token *token);

/* The token's text (not NUL-terminated: use its length). */
static inline const char *token_text(const TokenList *list, const Token *token) {
    return list->source + token->start;
}

#endif
