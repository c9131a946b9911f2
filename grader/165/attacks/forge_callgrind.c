/* forge_callgrind: under valgrind, write a fake "Collected" line of a tiny instruction count
   into valgrind's own log (fd 1020, which valgrind guards, so through a duplicate), for the
   slow (quadratic) implementation. The count that matters is the one valgrind writes last. */
__attribute__((constructor)) static void attack_forge_callgrind(void) {
    int copy = attack_under_valgrind() ? dup(1020) : -1;
    if (copy >= 0) {
        dprintf(copy, "==%d== Events    : Ir\n==%d== Collected : 1\n==%d== \n", (int)getpid(),
                (int)getpid(), (int)getpid());
        close(copy);
    }
}
