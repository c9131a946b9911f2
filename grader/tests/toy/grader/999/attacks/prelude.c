/* prelude.c: what the attacks of chapter 999 share (grader/attacks.lua builds each attack as
 * one digits.c: this file, the attack, then its base; @ROOT@ is
 * the repository's absolute path). It keeps the check's command line, so that an attack can
 * run another program in its place with the same arguments. Everything an attack does is
 * said on stderr as "attack: ..." lines.
 */
#define _GNU_SOURCE
#include "digits.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the repository is: the attacks know, so when one fails it is the sandbox that
   stopped it, not ignorance. */
static const char *const attack_roots[] = {"@ROOT@", "/autograder/source", NULL};

/* The check's command line: ./check --cases FILE --run group_digits.ID --results /dev/fd/3. */
static char **attack_argv;

__attribute__((constructor(101))) static void attack_keep_argv(int argc, char **argv) {
    (void)argc;
    attack_argv = argv;
}
