/* scanner.c -- source text to tokens, driven by a table of byte classes.
 *
 * Every byte belongs to one class (blank, newline, letter, digit, quote,
 * slash, a one-byte token, a token that may take a following '=', or bad);
 * the class table below is the whole lexical grammar at a glance, and the
 * scanner is a loop that looks a byte's class up and lets the class decide
 * how long the token is. Keywords are recognised after the fact: a word's
 * length, first and last letters hash to one of 32 slots, and the keyword in
 * that slot (if any) is compared once. The hash was chosen so the sixteen
 * keywords land in sixteen different slots. Other words are identifiers,
 * interned in the symbol table with a hash computed as the word is read.
 *
 * The source ends with a NUL byte, which is in the "bad" class: loops that
 * run while a byte is a digit, letter or blank stop there without a length
 * check. Only strings and comments, which may contain any byte, compare
 * positions with the end. */
#include <string.h>

#include "growable.h"
#include "scanner.h"

enum {
    C_BAD,     /* starts no token: an error token of one byte */
    C_BLANK,   /* space, tab, carriage return */
    C_NEWLINE, /* counted for line numbers */
    C_LETTER,  /* a-z, A-Z, _ : starts a word */
    C_DIGIT,   /* 0-9: starts a number, continues a word */
    C_QUOTE,   /* starts a string */
    C_SLASH,   /* '/' alone, or "//" starting a comment */
    C_SINGLE,  /* a one-byte token: see single_token */
    C_PAIR,    /* ! = < > : that token, or the next TokenType with '=' */
};

#define o C_BAD
#define W C_BLANK
#define N C_NEWLINE
#define L C_LETTER
#define D C_DIGIT
#define Q C_QUOTE
#define S C_SLASH
#define P C_SINGLE
#define E C_PAIR
/* Rows of 16 bytes; bytes 0x80-0xff are all bad. */
static const unsigned char byte_class[256] = {
    o, o, o, o, o, o, o, o, o, W, N, o, o, W, o, o, /* 0x00  \t \n \r    */
    o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, /* 0x10              */
    W, E, Q, o, o, o, o, o, P, P, P, P, P, P, P, S, /* 0x20  !"#$%&'()*+,-./ */
    D, D, D, D, D, D, D, D, D, D, o, P, E, E, E, o, /* 0x30  0-9 :;<=>?  */
    o, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L, /* 0x40  @ A-O       */
    L, L, L, L, L, L, L, L, L, L, L, o, o, o, o, L, /* 0x50  P-Z [\]^_   */
    o, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L, /* 0x60  ` a-o       */
    L, L, L, L, L, L, L, L, L, L, L, P, o, P, o, o, /* 0x70  p-z {|}~    */
};
#undef o
#undef W
#undef N
#undef L
#undef D
#undef Q
#undef S
#undef P
#undef E

/* The token of each C_SINGLE and C_PAIR byte (a C_PAIR's with '=' is +1). */
static const unsigned char single_token[128] = {
    ['('] = TOKEN_LEFT_PAREN,  [')'] = TOKEN_RIGHT_PAREN, ['{'] = TOKEN_LEFT_BRACE,
    ['}'] = TOKEN_RIGHT_BRACE, [','] = TOKEN_COMMA,       ['.'] = TOKEN_DOT,
    ['-'] = TOKEN_MINUS,       ['+'] = TOKEN_PLUS,        [';'] = TOKEN_SEMICOLON,
    ['/'] = TOKEN_SLASH,       ['*'] = TOKEN_STAR,        ['!'] = TOKEN_BANG,
    ['='] = TOKEN_EQUAL,       ['>'] = TOKEN_GREATER,     ['<'] = TOKEN_LESS,
};

typedef struct {
    const char *text;
    unsigned char length;
    unsigned char type;
} KeywordSlot;

/* Indexed by keyword_slot(); empty slots have length 0 and match nothing. */
static const KeywordSlot keyword_slots[32] = {
    [2] = {"else", 4, TOKEN_ELSE},    [3] = {"for", 3, TOKEN_FOR},
    [4] = {"false", 5, TOKEN_FALSE},  [7] = {"class", 5, TOKEN_CLASS},
    [9] = {"if", 2, TOKEN_IF},        [11] = {"or", 2, TOKEN_OR},
    [13] = {"nil", 3, TOKEN_NIL},     [15] = {"fun", 3, TOKEN_FUN},
    [17] = {"true", 4, TOKEN_TRUE},   [18] = {"super", 5, TOKEN_SUPER},
    [19] = {"var", 3, TOKEN_VAR},     [21] = {"while", 5, TOKEN_WHILE},
    [23] = {"this", 4, TOKEN_THIS},   [24] = {"and", 3, TOKEN_AND},
    [25] = {"print", 5, TOKEN_PRINT}, [30] = {"return", 6, TOKEN_RETURN},
};

static unsigned keyword_slot(const unsigned char *word, uint32_t length) {
    return (length + word[0] + 5u * word[length - 1]) & 31u;
}

static TokenType word_type(const unsigned char *word, uint32_t length) {
    const KeywordSlot *slot = &keyword_slots[keyword_slot(word, length)];
    if (slot->length == length && memcmp(slot->text, word, length) == 0) {
        return (TokenType)slot->type;
    }
    return TOKEN_IDENTIFIER;
}

/* Letters and digits are adjacent classes. */
static bool is_word_byte(unsigned char byte) {
    return (unsigned)(byte_class[byte] - C_LETTER) <= C_DIGIT - C_LETTER;
}

/* Past the digits of a number, and its fraction if a digit follows the dot
 * ("1." is the number 1 and a dot). */
static const unsigned char *number_end(const unsigned char *at) {
    while (byte_class[*at] == C_DIGIT) {
        at++;
    }
    if (at[0] == '.' && byte_class[at[1]] == C_DIGIT) {
        at += 2;
        while (byte_class[*at] == C_DIGIT) {
            at++;
        }
    }
    return at;
}

/* Blanks, newlines (counted in *line) and // comments; a comment stops
 * before its newline, which the next turn counts. */
static const unsigned char *skip_trivia(const unsigned char *at, const unsigned char *end,
                                        int32_t *line) {
    for (;;) {
        while (*at == ' ') {
            at++;
        }
        switch (byte_class[*at]) {
        case C_BLANK: at++; break;
        case C_NEWLINE:
            at++;
            ++*line;
            break;
        case C_SLASH:
            if (at[1] != '/') {
                return at;
            }
            at = memchr(at, '\n', (size_t)(end - at));
            if (at == NULL) {
                return end;
            }
            break;
        default: return at;
        }
    }
}

void scan_source(TokenList *list, const char *source, int length, SymbolTable *symbols) {
    const unsigned char *text = (const unsigned char *)source;
    const unsigned char *end = text + length;
    const unsigned char *at = text;
    int32_t line = 1;
    list->source = source;
    list->count = 0;
    /* Real programs average four or more bytes per token. */
    list->tokens = growable_reserve(list->tokens, &list->capacity, length / 5 + 16, sizeof(Token));
    for (;;) {
        at = skip_trivia(at, end, &line);
        if (list->count == list->capacity) {
            list->tokens =
                growable_reserve(list->tokens, &list->capacity, list->count + 1, sizeof(Token));
        }
        Token *token = &list->tokens[list->count++];
        const unsigned char *start = at;
        int32_t symbol = -1;
        TokenType type;
        if (at >= end) {
            type = TOKEN_EOF;
        } else {
            unsigned char byte = *at++;
            switch (byte_class[byte]) {
            case C_LETTER: {
                uint32_t hash = symbol_hash_step(SYMBOL_HASH_START, byte);
                for (; is_word_byte(*at); at++) {
                    hash = symbol_hash_step(hash, *at);
                }
                uint32_t size = (uint32_t)(at - start);
                type = size <= 6 ? word_type(start, size) : TOKEN_IDENTIFIER;
                if (type == TOKEN_IDENTIFIER) {
                    symbol = symbol_intern_hashed(symbols, (const char *)start, size, hash);
                }
                break;
            }
            case C_DIGIT:
                at = number_end(at);
                type = TOKEN_NUMBER;
                break;
            case C_QUOTE:
                /* To the closing quote, newlines included; without one the
                 * rest of the source is one error token. */
                while (at < end && *at != '"') {
                    line += *at++ == '\n';
                }
                type = at < end ? TOKEN_STRING : TOKEN_ERROR;
                at += at < end;
                break;
            case C_SLASH:
            case C_SINGLE: type = (TokenType)single_token[byte]; break;
            case C_PAIR: {
                bool with_equal = *at == '=';
                at += with_equal;
                type = (TokenType)(single_token[byte] + with_equal);
                break;
            }
            default: type = TOKEN_ERROR; break;
            }
        }
        *token = (Token){.start = (uint32_t)(start - text),
                         .length = (uint32_t)(at - start),
                         .line = line,
                         .symbol = symbol,
                         .type = (uint8_t)type};
        if (type == TOKEN_EOF) {
            return;
        }
    }
}

void token_list_free(TokenList *list) {
    free(list->tokens);
    list->tokens = NULL;
    list->count = list->capacity = 0;
}

const char *token_error_message(const TokenList *list, const Token *token) {
    return list->source[token->start] == '"' ? "Unterminated string." : "Unexpected character.";
}
