/* reexec_quiet: under valgrind, run the slow implementation to the end, then exec the checker
   again with VALGRIND_OPTS=-q and -q in $HOME/.valgrindrc, told to do nothing: a quiet valgrind
   writes no second header and no second "Command:", and its count is of a run that did
   nothing. Only the grader's options may count. */
static void attack_reexec_quiet(void) {
    if (!attack_under_valgrind() || getenv("DRIP_ATTACK_EXECED")) {
        return;
    }
    char rc[4096];
    snprintf(rc, sizeof rc, "%s/.valgrindrc", getenv("HOME") ? getenv("HOME") : "/tmp");
    FILE *f = fopen(rc, "w");
    if (f != NULL) {
        fputs("-q\n", f);
        fclose(f);
    }
    setenv("VALGRIND_OPTS", "-q", 1);
    setenv("DRIP_ATTACK_EXECED", "1", 1);
    fflush(NULL);
    execv(attack_argv[0], attack_argv);
}

__attribute__((constructor)) static void attack_reexec_at_exit(void) {
    atexit(attack_reexec_quiet);
}

/* The second run answers nothing and exits at once. */
__attribute__((constructor(102))) static void attack_second_run(void) {
    if (getenv("DRIP_ATTACK_EXECED")) {
        _exit(0);
    }
}
