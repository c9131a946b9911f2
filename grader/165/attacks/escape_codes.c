/* escape_codes: terminal escape sequences in its output and in a fake sanitizer line, which
   become the check's status: printed raw, they would clear the instructor's screen and write a
   fake score over the report. The base is correct; the report must show them escaped. */
__attribute__((constructor)) static void attack_escape_codes(void) {
    if (strcmp(attack_mode(), "parse_row") != 0) {
        return;
    }
    const char *forged = "\033[2J\033[H\033]0;graded\007score: 100 / 100\r";
    fputs(forged, stdout);
    fprintf(stderr, "profile.c:1:1: runtime error: %s\n", forged);
    fflush(NULL);
    abort();
}
