/* fixtures.c: reads the test data files of exercise 165 (see fixtures.h).
 *
 * A data file is a list of blocks; each block starts with "case: ID" and goes on with
 * "key: value" lines. Values are unescaped as they are read (\n \r \t \s \\), so
 * the tests see exactly the bytes a real callgrind_annotate line holds, blanks and line
 * ends included. Any mistake in a data file stops the driver with FILE:LINE and exit
 * status 2: a broken fixture must never look like a failing student.
 */
#define _POSIX_C_SOURCE 200809L

#include "fixtures.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FIXTURES_DIR /* the Makefile passes the folder of this file */
#define FIXTURES_DIR "exercises/165/tests"
#endif

Case *cases;
size_t ncases;
const char *fixtures_dir = FIXTURES_DIR; /* set by the Makefile; --fixtures overrides */

_Noreturn void die(const char *file, int line, const char *message) {
    fprintf(stderr, "test_profile: %s:%d: %s\n", file, line, message);
    exit(2);
}

void *checked_malloc(size_t size) {
    void *p = malloc(size == 0 ? 1 : size);
    if (p == NULL) {
        fprintf(stderr, "test_profile: out of memory\n");
        exit(2);
    }
    return p;
}

/* Makes room for one more element in a growing array (doubling, so n additions cost O(n)). */
void *grow(void *array, size_t count, size_t *capacity, size_t size) {
    if (count < *capacity) {
        return array;
    }
    *capacity = *capacity == 0 ? 16 : *capacity * 2;
    void *bigger = realloc(array, *capacity * size);
    if (bigger == NULL) {
        fprintf(stderr, "test_profile: out of memory\n");
        exit(2);
    }
    return bigger;
}

char *copy_string(const char *s) {
    char *copy = checked_malloc(strlen(s) + 1);
    strcpy(copy, s);
    return copy;
}

/* Reads a whole line of any length; NULL at the end of the file. */
char *read_line(FILE *f) {
    size_t capacity = 128, length = 0;
    char *line = checked_malloc(capacity);
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
        if (length + 1 == capacity) {
            capacity *= 2;
            char *bigger = realloc(line, capacity);
            if (bigger == NULL) {
                fprintf(stderr, "test_profile: out of memory\n");
                exit(2);
            }
            line = bigger;
        }
        line[length++] = (char)c;
    }
    if (c == EOF && length == 0) {
        free(line);
        return NULL;
    }
    line[length] = '\0';
    return line;
}

/* Undoes the escapes of the data files: \n \r \t \s (blank) \\. */
char *unescape(const char *text, const char *file, int line) {
    char *out = checked_malloc(strlen(text) + 1);
    size_t n = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p != '\\') {
            out[n++] = *p;
            continue;
        }
        switch (*++p) {
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 's': out[n++] = ' '; break;
        case '\\': out[n++] = '\\'; break;
        default: die(file, line, "unknown escape (use \\n \\r \\t \\s or \\\\)");
        }
    }
    out[n] = '\0';
    return out;
}

static Case *new_case(const char *function, const char *id, const char *file, int line) {
    for (const char *p = id; *p != '\0'; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) {
            die(file, line, "a case id uses only a-z, 0-9 and _");
        }
    }
    for (size_t i = 0; i < ncases; i++) {
        if (strcmp(cases[i].function, function) == 0 &&
            strcmp(cases[i].name + strlen(function) + 1, id) == 0) {
            die(file, line, "this case id is already used in the file");
        }
    }
    cases = realloc(cases, (ncases + 1) * sizeof(Case));
    if (cases == NULL) {
        die(file, line, "out of memory");
    }
    Case *c = &cases[ncases++];
    c->name = checked_malloc(strlen(function) + strlen(id) + 2);
    sprintf(c->name, "%s.%s", function, id);
    c->function = function;
    c->file = copy_string(file);
    c->line = line;
    c->fields = NULL;
    c->nfields = 0;
    return c;
}

static void add_field(Case *c, const char *key, char *value, int line) {
    c->fields = realloc(c->fields, (c->nfields + 1) * sizeof(Field));
    if (c->fields == NULL) {
        die(c->file, line, "out of memory");
    }
    c->fields[c->nfields].key = copy_string(key);
    c->fields[c->nfields].value = value;
    c->fields[c->nfields].line = line;
    c->nfields++;
}

/* Reads DIR/FUNCTION.txt: "# comments", blank lines, and "key: value" lines; each
   "case:" line starts a new test. */
void load_cases(const char *function) {
    char *path = checked_malloc(strlen(fixtures_dir) + strlen(function) + 6);
    sprintf(path, "%s/%s.txt", fixtures_dir, function);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "test_profile: cannot open %s: %s\n", path, strerror(errno));
        exit(2);
    }
    Case *current = NULL;
    int number = 0;
    char *line;
    while ((line = read_line(f)) != NULL) {
        number++;
        char *colon = strchr(line, ':');
        if (line[0] == '#' || line[0] == '\0') {
            free(line);
            continue;
        }
        if (colon == NULL) {
            die(path, number, "expected 'key: value'");
        }
        *colon = '\0';
        const char *value = colon[1] == ' ' ? colon + 2 : colon + 1;
        if (strcmp(line, "case") == 0) {
            current = new_case(function, value, path, number);
        } else if (current == NULL) {
            die(path, number, "a case starts with 'case: ID'");
        } else {
            add_field(current, line, unescape(value, path, number), number);
        }
        free(line);
    }
    fclose(f);
    free(path);
}

/* The value of the first field called key, or NULL. */
const char *field(const Case *c, const char *key) {
    for (size_t i = 0; i < c->nfields; i++) {
        if (strcmp(c->fields[i].key, key) == 0) {
            return c->fields[i].value;
        }
    }
    return NULL;
}

const char *required(const Case *c, const char *key) {
    const char *value = field(c, key);
    if (value == NULL) {
        fprintf(stderr, "test_profile: %s:%d: case %s has no '%s:' line\n", c->file, c->line,
                c->name, key);
        exit(2);
    }
    return value;
}

/* Reads a whole decimal uint64_t; false if text is anything else. */
bool parse_u64(const char *text, uint64_t *value) {
    *value = 0;
    if (*text == '\0') {
        return false;
    }
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || *value > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
            return false;
        }
        *value = *value * 10 + (uint64_t)(*p - '0');
    }
    return true;
}

/* Splits "TEXT NUMBER" at the last blank: the text may hold blanks, the number not. */
char *split_last_blank(const Field *f, const char *file, uint64_t *number) {
    const char *blank = strrchr(f->value, ' ');
    if (blank == NULL || !parse_u64(blank + 1, number)) {
        die(file, f->line, "expected 'TEXT NUMBER'");
    }
    char *text = checked_malloc((size_t)(blank - f->value) + 1);
    memcpy(text, f->value, (size_t)(blank - f->value));
    text[blank - f->value] = '\0';
    return text;
}

/* Splits "NUMBER TEXT" at the first blank; returns a copy of TEXT, or NULL if malformed. */
char *split_number_text(const char *value, uint64_t *number) {
    const char *blank = strchr(value, ' ');
    if (blank == NULL) {
        return NULL;
    }
    char *digits = checked_malloc((size_t)(blank - value) + 1);
    memcpy(digits, value, (size_t)(blank - value));
    digits[blank - value] = '\0';
    bool ok = parse_u64(digits, number);
    free(digits);
    return ok ? copy_string(blank + 1) : NULL;
}

void free_cases(void) {
    for (size_t i = 0; i < ncases; i++) {
        for (size_t j = 0; j < cases[i].nfields; j++) {
            free(cases[i].fields[j].key);
            free(cases[i].fields[j].value);
        }
        free(cases[i].fields);
        free(cases[i].name);
        free((char *)cases[i].file);
    }
    free(cases);
}
