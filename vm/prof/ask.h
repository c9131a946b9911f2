/* ask.h: the two questions dripprof asks a checker (checker.h).
 *
 *   ask_inclusive   inclusive() of folded stacks, for `dripprof top`: the case
 *                   inclusive.COMMAND, one field `stack` per stack;
 *   ask_parse_row   parse_row() of the lines of callgrind_annotate output, for
 *                   `dripprof files` and `rows`: the case parse_row.COMMAND,
 *                   one field `line` per line, its bytes as they are.
 *
 * The answers are read as the chapter's contract words them (profile.h of the
 * chapter, and vm/prof/README.md, "Checkers"): an answer the contract does not
 * allow (-1 from a stub, a row without a name, another return value) is the
 * function's failure, CHECKER_NOT_READY; answers that do not fit the case at
 * all (a missing key, another case's keys) are the checker's,
 * CHECKER_OFF_PROTOCOL. Either way one message says which, and where.
 */
#ifndef DRIP_PROF_ASK_H
#define DRIP_PROF_ASK_H

#include <stddef.h>

#include "annotate.h"
#include "checker.h"
#include "folded.h"
#include "top.h"

/* inclusive()'s costs for stacks[0..count), in the order it returned them. 0, or an exit
 * status after the message. costs_free frees them. */
int ask_inclusive(const Checker *checker, const FoldedLine *stacks, size_t count, Cost **costs,
                  size_t *ncosts);

/* parse_row()'s answer for each of the first text->asked lines of the file input (its name
 * in messages): *answers is a malloc'd array of that many. 0, or an exit status after the
 * message. */
int ask_parse_row(const Checker *checker, const char *input, const AnnotateText *text,
                  AnnotateRow **answers);

#endif
