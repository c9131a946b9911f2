/* ask.c: inclusive() and parse_row() through a checker (see ask.h).
 *
 * The answer forms are the ones the chapter's checker writes for each return
 * value (vm/prof/README.md, "Checkers"):
 *
 *   count<TAB>0 n=N, then N lines cost:NAME<TAB>rank=R cost=C   inclusive() returned 0
 *   count<TAB>0 n=N, then costs<TAB>NULL                        ... with no array
 *   count<TAB>-1, count<TAB>returned-K                          it returned -1 or K
 *   row:I<TAB>1 ir=N pct=P name="NAME"                          parse_row() read a row
 *   row:I<TAB>0, row:I<TAB>-1, row:I<TAB>returned-K             not a row, -1, K
 *   row:I<TAB>0 but-name-is-not-NULL, ... pct=none-but-pct-is-X ..., ... name=NULL
 *                                                               the contract broken
 *
 * Keys and answers arrive unescaped (checker.c), so NAME is the raw name.
 * Nothing here computes an answer: a cost or a row is taken as the function
 * gave it, and only its form is checked.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include "ask.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "tsv.h"

/* Bytes of an input line shown in a message. */
enum { EXCERPT_BYTES = 60 };

/* text[0..length) escaped and cut to fit in buffer, for a message. */
static const char *excerpt(char *buffer, size_t size, const char *text, size_t length) {
    FILE *out = fmemopen(buffer, size, "w");
    buffer[0] = '\0';
    if (out != NULL) {
        tsv_field(out, text, length < EXCERPT_BYTES ? length : EXCERPT_BYTES);
        fputs(length > EXCERPT_BYTES ? "..." : "", out);
        fclose(out);
    }
    return buffer;
}

/* The answers do not answer the case: names the answer (or its absence) and what was due. */
static int off_protocol(const Checker *checker, const CheckerAnswers *answers, size_t i,
                        const char *wanted, const char *case_name) {
    char key[96], answer[96];
    if (i < answers->count) {
        excerpt(key, sizeof key, answers->answers[i].key, strlen(answers->answers[i].key));
        excerpt(answer, sizeof answer, answers->answers[i].answer,
                strlen(answers->answers[i].answer));
    }
    return checker_fail(checker, CHECKER_OFF_PROTOCOL,
                        "gave answers that do not answer the case %s: answer %zu is %s%s%s%s%s, "
                        "where %s was due",
                        case_name, i + 1, i < answers->count ? "\"" : "missing",
                        i < answers->count ? key : "", i < answers->count ? "\\t" : "",
                        i < answers->count ? answer : "", i < answers->count ? "\"" : "", wanted);
}

/* ---- inclusive ------------------------------------------------------------------------ */

/* "rank=R cost=C" of the cost at 0-based position i. */
static bool read_cost(const char *answer, size_t i, uint64_t *cost) {
    uint64_t rank;
    const char *p = answer;
    return strncmp(p, "rank=", 5) == 0 && (p += 5, decimal_read(&p, &rank)) == 0 && rank == i + 1 &&
           strncmp(p, " cost=", 6) == 0 && decimal_parse(p + 6, cost);
}

/* The costs after "count 0 n=N" (answers from first on). */
static int read_costs(const Checker *checker, const CheckerAnswers *answers, size_t first,
                      uint64_t n, const char *case_name, Cost **costs, size_t *ncosts) {
    if (n > 0 && first < answers->count && strcmp(answers->answers[first].key, "costs") == 0 &&
        strcmp(answers->answers[first].answer, "NULL") == 0) {
        return checker_fail(
            checker, CHECKER_NOT_READY,
            "broke its contract: it returned 0 and %" PRIu64 " functions, but no array (NULL)", n);
    }
    if (answers->count - first != n) {
        size_t given = answers->count - first;
        return off_protocol(checker, answers, first + (n < given ? n : given),
                            "one cost:NAME line per function", case_name);
    }
    *costs = calloc(n + 1, sizeof **costs);
    for (size_t i = 0; *costs != NULL && i < n; i++) {
        const CheckerAnswer *a = &answers->answers[first + i];
        if (strncmp(a->key, "cost:", 5) != 0 || !read_cost(a->answer, i, &(*costs)[i].cost)) {
            costs_free(*costs, i);
            *costs = NULL;
            return off_protocol(checker, answers, first + i, "cost:NAME\\trank=R cost=C",
                                case_name);
        }
        (*costs)[i].name = malloc(strlen(a->key + 5) + 1);
        if ((*costs)[i].name == NULL) {
            costs_free(*costs, i);
            *costs = NULL;
            break;
        }
        strcpy((*costs)[i].name, a->key + 5);
        *ncosts = i + 1;
    }
    return *costs == NULL ? checker_fail(checker, 1, "answered, but dripprof ran out of memory")
                          : 0;
}

static int read_inclusive(const Checker *checker, const CheckerAnswers *answers,
                          const char *case_name, Cost **costs, size_t *ncosts) {
    const char *count = answers->count > 0 && strcmp(answers->answers[0].key, "count") == 0
                            ? answers->answers[0].answer
                            : NULL;
    uint64_t n;
    if (count != NULL && strcmp(count, "-1") == 0) {
        return checker_fail(checker, CHECKER_NOT_READY, "is not written yet (it returned -1)");
    }
    if (count != NULL && strncmp(count, "returned-", 9) == 0) {
        return checker_fail(checker, CHECKER_NOT_READY,
                            "broke its contract: it returned %s, not 0 or -1", count + 9);
    }
    if (count == NULL || strncmp(count, "0 n=", 4) != 0 || !decimal_parse(count + 4, &n)) {
        return off_protocol(checker, answers, 0, "count\\t0 n=N (or -1)", case_name);
    }
    return read_costs(checker, answers, 1, n, case_name, costs, ncosts);
}

int ask_inclusive(const Checker *checker, const FoldedLine *stacks, size_t count, Cost **costs,
                  size_t *ncosts) {
    Checker c = *checker;
    c.function = "inclusive";
    char case_name[64];
    snprintf(case_name, sizeof case_name, "inclusive.%s", c.command);
    *costs = NULL;
    *ncosts = 0;
    CheckerCase k;
    int status = checker_open(&c, &k, case_name);
    if (status != 0) {
        return status;
    }
    checker_field(&k, "order", "checked", 7, NULL);
    for (size_t i = 0; i < count; i++) {
        char suffix[32];
        snprintf(suffix, sizeof suffix, " %" PRIu64, stacks[i].count);
        checker_field(&k, "stack", stacks[i].stack, stacks[i].length, suffix);
    }
    CheckerAnswers answers;
    status = checker_run(&c, &k, &answers);
    if (status == 0) {
        status = read_inclusive(&c, &answers, case_name, costs, ncosts);
    }
    checker_free(&answers);
    return status;
}

/* ---- parse_row ------------------------------------------------------------------------- */

/* What a row answer said, before it is taken. */
typedef enum { ROW, NOT_A_ROW, MINUS_ONE, BROKEN, UNKNOWN } RowAnswer;

/* "1 ir=N pct=P name="NAME"" into *row (the name still points into answer). */
static RowAnswer read_row_fields(char *answer, AnnotateRow *row, const char **why) {
    const char *p = answer + 2;
    if (strncmp(p, "ir=", 3) != 0 || (p += 3, decimal_read(&p, &row->ir)) != 0 ||
        strncmp(p, " pct=", 5) != 0) {
        return UNKNOWN;
    }
    p += 5;
    char *name = strstr(p, " name=");
    if (name == NULL) {
        return UNKNOWN;
    }
    *name = '\0';
    name += 6;
    row->has_pct = strcmp(p, "none") != 0;
    row->pct = -1.0;
    char *end;
    if (strncmp(p, "none-but-pct-is-", 16) == 0) {
        *why = "it said the row shows no percentage (has_pct false) but set pct, which must then "
               "be -1.0";
        return BROKEN;
    }
    if (row->has_pct && ((row->pct = strtod(p, &end)), end == p || *end != '\0')) {
        return UNKNOWN;
    }
    if (strcmp(name, "NULL") == 0) {
        *why = "it returned 1 (a row) but gave no name (NULL)";
        return BROKEN;
    }
    size_t length = strlen(name);
    if (length < 2 || name[0] != '"' || name[length - 1] != '"') {
        return UNKNOWN;
    }
    name[length - 1] = '\0';
    row->name = name + 1;
    return ROW;
}

static RowAnswer read_row(char *answer, AnnotateRow *row, const char **why) {
    *row = (AnnotateRow){0};
    if (strcmp(answer, "0") == 0) {
        return NOT_A_ROW;
    }
    if (strcmp(answer, "-1") == 0) {
        return MINUS_ONE;
    }
    if (strcmp(answer, "0 but-name-is-not-NULL") == 0) {
        *why = "it returned 0 (not a row) but set row->name, which must then be NULL";
        return BROKEN;
    }
    if (strncmp(answer, "returned-", 9) == 0) {
        *why = "it returned neither 1, 0 nor -1";
        return BROKEN;
    }
    row->is_row = strncmp(answer, "1 ", 2) == 0;
    return row->is_row ? read_row_fields(answer, row, why) : UNKNOWN;
}

/* The message about answer i (line i + 1 of input) that cannot be taken. */
static int row_failure(const Checker *checker, RowAnswer kind, const char *why, bool all_minus,
                       const char *input, const AnnotateLine *line, size_t i) {
    char text[EXCERPT_BYTES * 4 + 8];
    excerpt(text, sizeof text, line->bytes, line->length);
    if (kind == MINUS_ONE && all_minus) {
        return checker_fail(checker, CHECKER_NOT_READY,
                            "is not written yet (it returned -1 on every line of %s)", input);
    }
    if (kind == MINUS_ONE) {
        return checker_fail(checker, CHECKER_NOT_READY, "returned -1 (an error) on %s:%zu \"%s\"",
                            input, i + 1, text);
    }
    return checker_fail(checker, CHECKER_NOT_READY, "broke its contract on %s:%zu \"%s\": %s",
                        input, i + 1, text, why);
}

/* Takes answers->answers[i] as the answer for line i + 1. */
static int read_rows(const Checker *checker, const CheckerAnswers *answers, const char *input,
                     const AnnotateText *text, const char *case_name, AnnotateRow *rows) {
    bool all_minus = answers->count > 0;
    for (size_t i = 0; i < answers->count; i++) {
        all_minus = all_minus && strcmp(answers->answers[i].answer, "-1") == 0;
    }
    for (size_t i = 0; i < text->asked; i++) {
        char key[32];
        snprintf(key, sizeof key, "row:%zu", i + 1);
        const char *why = "";
        RowAnswer kind = UNKNOWN;
        if (i < answers->count && strcmp(answers->answers[i].key, key) == 0) {
            kind = read_row(answers->answers[i].answer, &rows[i], &why);
        }
        if (kind == UNKNOWN) {
            return off_protocol(checker, answers, i, "row:I\\t1 ir=N pct=P name=\"NAME\", 0 or -1",
                                case_name);
        }
        if (kind == MINUS_ONE || kind == BROKEN) {
            return row_failure(checker, kind, why, all_minus, input, &text->lines[i], i);
        }
    }
    if (answers->count > text->asked) {
        return off_protocol(checker, answers, text->asked, "the end line (one answer per line)",
                            case_name);
    }
    return 0;
}

/* Copies the names of the rows out of the answers' text. 0, or -1 (none kept). */
static int own_names(AnnotateRow *rows, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const char *name = rows[i].name;
        rows[i].name = name ? malloc(strlen(name) + 1) : NULL;
        if (name != NULL && rows[i].name == NULL) {
            while (i-- > 0) {
                free(rows[i].name);
            }
            return -1;
        }
        if (name != NULL) {
            strcpy(rows[i].name, name);
        }
    }
    return 0;
}

int ask_parse_row(const Checker *checker, const char *input, const AnnotateText *text,
                  AnnotateRow **answers) {
    Checker c = *checker;
    c.function = "parse_row";
    char case_name[64];
    snprintf(case_name, sizeof case_name, "parse_row.%s", c.command);
    *answers = calloc(text->asked + 1, sizeof **answers);
    if (*answers == NULL) {
        return checker_fail(&c, 1, "cannot be asked: out of memory");
    }
    CheckerCase k;
    int status = checker_open(&c, &k, case_name);
    if (status != 0) {
        free(*answers);
        *answers = NULL;
        return status;
    }
    for (size_t i = 0; i < text->asked; i++) {
        checker_field(&k, "line", text->lines[i].bytes, text->lines[i].length, NULL);
    }
    CheckerAnswers results;
    status = checker_run(&c, &k, &results);
    if (status == 0) {
        status = read_rows(&c, &results, input, text, case_name, *answers);
    }
    if (status == 0 && own_names(*answers, text->asked) != 0) {
        status = checker_fail(&c, 1, "answered, but dripprof ran out of memory");
    }
    checker_free(&results);
    if (status != 0) {
        free(*answers);
        *answers = NULL;
    }
    return status;
}
