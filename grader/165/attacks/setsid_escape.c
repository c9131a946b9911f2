/* setsid_escape: a daemon in its own session that would go on burning CPU and writing files
   after the check. The base is correct: full marks, and nothing left running. */
__attribute__((constructor)) static void attack_setsid_escape(void) {
    if (!attack_daemon()) {
        return;
    }
    for (;;) {
        FILE *marker = fopen("/tmp/drip-attack-escaped", "w");
        if (marker != NULL) {
            fclose(marker);
        }
        for (volatile long i = 0; i < 10000000; i++) {
        }
    }
}
