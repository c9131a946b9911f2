/* fixtures.h: the test data files of exercise 165, as the driver (test_profile.c) sees
 * them: one Case per block of parse_row.txt, sum_named.txt, inclusive.txt, each a list of
 * "key: value" fields; plus the small helpers the driver needs to read values.
 */
#ifndef EX165_FIXTURES_H
#define EX165_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One "key: value" line of a case, its value already unescaped. */
typedef struct {
    char *key;
    char *value;
    int line;
} Field;

/* One block of a data file: a test. */
typedef struct {
    char *name; /* "parse_row.plain_row" */
    const char *function;
    const char *file;
    int line;
    Field *fields;
    size_t nfields;
} Case;

extern Case *cases; /* every case of every file loaded so far */
extern size_t ncases;
extern const char *fixtures_dir; /* the folder of the data files (--fixtures) */

/* Reads DIR/FUNCTION.txt and appends its cases (named FUNCTION.ID). */
void load_cases(const char *function);
void free_cases(void);

/* The value of the first field called key: NULL when absent; required() stops the driver. */
const char *field(const Case *c, const char *key);
const char *required(const Case *c, const char *key);

/* Parsing values. */
bool parse_u64(const char *text, uint64_t *value);
char *split_last_blank(const Field *f, const char *file, uint64_t *number);
char *split_number_text(const char *value, uint64_t *number);
char *unescape(const char *text, const char *file, int line);
char *read_line(FILE *f);

/* Memory and errors: these never return NULL; on failure they stop the driver (exit 2). */
_Noreturn void die(const char *file, int line, const char *message);
void *checked_malloc(size_t size);
void *grow(void *array, size_t count, size_t *capacity, size_t size);
char *copy_string(const char *s);

#endif
