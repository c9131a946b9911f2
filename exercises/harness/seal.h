/* seal.h: a forked case that can leave nothing behind for the cases after it.
 *
 * The grader runs many cases of one submission in one box (fork_tests.c's --sealed), each in a
 * child of one process, and takes a case's result from there only when it would be the same
 * in a box of its own. seal.c has the filter that makes that so.
 */
#ifndef HARNESS_SEAL_H
#define HARNESS_SEAL_H

/* Puts the calling process under the sealed filter; exits (code 125) when it cannot. */
void seal_case(void);

#endif
