/* forge_flood: under valgrind, a forged closing count in valgrind's log (through a duplicate
   of fd 1020), then 5 MB of filler, past what the sandbox keeps of the log, so that
   valgrind's own last lines are dropped (the slow implementation). */
__attribute__((constructor)) static void attack_forge_flood(void) {
    int copy = attack_under_valgrind() ? dup(1020) : -1;
    if (copy < 0) {
        return;
    }
    dprintf(copy, "==%d== Collected : 1\n==%d== I   refs:      1\n", (int)getpid(), (int)getpid());
    static char filler[1 << 16];
    memset(filler, '=', sizeof filler);
    for (int i = 0; i < 80; i++) {
        if (write(copy, filler, sizeof filler) < 0) {
            break;
        }
    }
    close(copy);
}
