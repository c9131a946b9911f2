/* ptrace_parent: in every sum_named() check, attach to the parent (which stops it) and to
   pid 1, and leave them stopped. Only the checks that do it may fail; the rest of the grading
   goes on. */
#include <sys/ptrace.h>

__attribute__((constructor)) static void attack_ptrace_parent(void) {
    if (strcmp(attack_mode(), "sum_named") != 0) {
        return;
    }
    fprintf(stderr, "attack: ptrace(parent) = %ld\n", ptrace(PTRACE_ATTACH, getppid(), NULL, NULL));
    fprintf(stderr, "attack: ptrace(1) = %ld\n", ptrace(PTRACE_ATTACH, 1, NULL, NULL));
}
