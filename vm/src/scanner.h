/* scanner.h -- turns source text into tokens, one at a time, on demand.
 *
 * The compiler pulls tokens as it needs them, so no token list is ever built.
 * A token points into the source (start, length) instead of copying its text;
 * the source must outlive the compilation. Errors come back as TOKEN_ERROR
 * tokens whose text is the message, so the compiler reports them like any
 * other error. */
#ifndef DRIP_SCANNER_H
#define DRIP_SCANNER_H

typedef enum {
    /* Single-character tokens. */
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
    /* One or two character tokens. */
    TOKEN_BANG,
    TOKEN_BANG_EQUAL,
    TOKEN_EQUAL,
    TOKEN_EQUAL_EQUAL,
    TOKEN_GREATER,
    TOKEN_GREATER_EQUAL,
    TOKEN_LESS,
    TOKEN_LESS_EQUAL,
    /* Literals. */
    TOKEN_IDENTIFIER,
    TOKEN_STRING,
    TOKEN_NUMBER,
    /* Keywords. */
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
    TOKEN_EOF
} TokenType;

typedef struct {
    TokenType type;
    const char *start;
    int length;
    int line;
} Token;

/* Starts scanning source, which must end with a NUL byte at sourceLength. */
void scanner_init(const char *source, int sourceLength);
Token scanner_next(void);

#endif
