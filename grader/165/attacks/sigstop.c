/* sigstop: stop itself in every sum_named() check and never continue. Only those checks may
   fail, and quickly: a stopped process uses no CPU, so no CPU limit would ever end it. */
__attribute__((constructor)) static void attack_sigstop(void) {
    if (strcmp(attack_mode(), "sum_named") == 0) {
        raise(SIGSTOP);
    }
}
