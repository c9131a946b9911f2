/* scanner.c -- a hand-written lexer over a NUL-terminated buffer.
 *
 * The end of input is found by position, not by the NUL byte, so a stray NUL
 * inside a file is an "Unexpected character." rather than an early end.
 * Keywords are found in a small table sorted by length: an identifier is
 * compared only with the keywords of its own length, first letter first,
 * and the table reads as the keyword list itself. */
#include <stdbool.h>
#include <string.h>

#include "scanner.h"

typedef struct {
    const char *start;
    const char *current;
    const char *end;
    int line;
} Scanner;

static Scanner scanner;

void scanner_init(const char *source, int source_length) {
    scanner.start = source;
    scanner.current = source;
    scanner.end = source + source_length;
    scanner.line = 1;
}

static bool is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

static bool at_end(void) {
    return scanner.current >= scanner.end;
}

static char next_char(void) {
    scanner.current++;
    return scanner.current[-1];
}

static char peek_char(void) {
    return at_end() ? '\0' : *scanner.current;
}

static char peek_second(void) {
    if (scanner.current + 1 >= scanner.end) {
        return '\0';
    }
    return scanner.current[1];
}

static bool accept(char expected) {
    if (at_end() || *scanner.current != expected) {
        return false;
    }
    scanner.current++;
    return true;
}

/* The token scanned since scanner.start. */
static Token token_make(TokenType type) {
    int length = (int)(scanner.current - scanner.start);
    return (Token){.type = type, .start = scanner.start, .length = length, .line = scanner.line};
}

/* An error token carries its message as its text, for the compiler to show. */
static Token token_error(const char *message) {
    return (Token){.type = TOKEN_ERROR,
                   .start = message,
                   .length = (int)strlen(message),
                   .line = scanner.line};
}

/* Skips blanks, newlines (counting them) and // comments up to the next
 * token. A comment stops short of its newline, which the next turn counts. */
static void skip_space(void) {
    for (;;) {
        char c = peek_char();
        if (c == '/' && peek_second() == '/') {
            while (!at_end() && peek_char() != '\n') {
                scanner.current++;
            }
            continue;
        }
        if (c == '\n') {
            scanner.line++;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        scanner.current++;
    }
}

/* The keywords sorted by length, so an identifier is only compared with
 * the few of its own length; keyword_from[n] is where length n starts. */
static const struct {
    const char *text;
    TokenType type;
} keywords[] = {
    {"if", TOKEN_IF},         {"or", TOKEN_OR},                               /* 2 */
    {"and", TOKEN_AND},       {"for", TOKEN_FOR},     {"fun", TOKEN_FUN},     /* 3 */
    {"nil", TOKEN_NIL},       {"var", TOKEN_VAR},                             /* 3 */
    {"else", TOKEN_ELSE},     {"this", TOKEN_THIS},   {"true", TOKEN_TRUE},   /* 4 */
    {"class", TOKEN_CLASS},   {"false", TOKEN_FALSE}, {"print", TOKEN_PRINT}, /* 5 */
    {"super", TOKEN_SUPER},   {"while", TOKEN_WHILE},                         /* 5 */
    {"return", TOKEN_RETURN},                                                 /* 6 */
};
#define KEYWORD_MAX_LENGTH 6
static const unsigned char keyword_from[KEYWORD_MAX_LENGTH + 2] = {0, 0, 0, 2, 7, 10, 15, 16};

/* The scanned word's token type: a keyword's, or TOKEN_IDENTIFIER. */
static TokenType word_type(void) {
    int length = (int)(scanner.current - scanner.start);
    if (length > KEYWORD_MAX_LENGTH) {
        return TOKEN_IDENTIFIER;
    }
    for (int i = keyword_from[length]; i < keyword_from[length + 1]; i++) {
        if (keywords[i].text[0] == scanner.start[0] &&
            memcmp(keywords[i].text, scanner.start, (size_t)length) == 0) {
            return keywords[i].type;
        }
    }
    return TOKEN_IDENTIFIER;
}

static Token scan_word(void) {
    while (is_letter(peek_char()) || is_digit(peek_char())) {
        next_char();
    }
    return token_make(word_type());
}

static Token scan_number(void) {
    while (is_digit(peek_char())) {
        next_char();
    }
    /* A fractional part needs a digit after the dot: "1." is 1 then a dot. */
    if (peek_char() == '.' && is_digit(peek_second())) {
        next_char();
        while (is_digit(peek_char())) {
            next_char();
        }
    }
    return token_make(TOKEN_NUMBER);
}

static Token scan_string(void) {
    while (peek_char() != '"' && !at_end()) {
        if (peek_char() == '\n') {
            scanner.line++;
        }
        next_char();
    }
    if (at_end()) {
        return token_error("Unterminated string.");
    }
    next_char(); /* the closing quote */
    return token_make(TOKEN_STRING);
}

Token scanner_next(void) {
    skip_space();
    scanner.start = scanner.current;
    if (at_end()) {
        return token_make(TOKEN_EOF);
    }

    char c = next_char();
    if (is_letter(c)) {
        return scan_word();
    }
    if (is_digit(c)) {
        return scan_number();
    }

    switch (c) {
    case '(': return token_make(TOKEN_LEFT_PAREN);
    case ')': return token_make(TOKEN_RIGHT_PAREN);
    case '{': return token_make(TOKEN_LEFT_BRACE);
    case '}': return token_make(TOKEN_RIGHT_BRACE);
    case ';': return token_make(TOKEN_SEMICOLON);
    case ',': return token_make(TOKEN_COMMA);
    case '.': return token_make(TOKEN_DOT);
    case '-': return token_make(TOKEN_MINUS);
    case '+': return token_make(TOKEN_PLUS);
    case '/': return token_make(TOKEN_SLASH);
    case '*': return token_make(TOKEN_STAR);
    case '!': return token_make(accept('=') ? TOKEN_BANG_EQUAL : TOKEN_BANG);
    case '=': return token_make(accept('=') ? TOKEN_EQUAL_EQUAL : TOKEN_EQUAL);
    case '<': return token_make(accept('=') ? TOKEN_LESS_EQUAL : TOKEN_LESS);
    case '>': return token_make(accept('=') ? TOKEN_GREATER_EQUAL : TOKEN_GREATER);
    case '"': return scan_string();
    }
    return token_error("Unexpected character.");
}
