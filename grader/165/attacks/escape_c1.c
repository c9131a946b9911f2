/* escape_c1: escape_codes.c with the 8-bit forms of the same controls, which get past a filter
   of ASCII control characters: CSI and OSC as the C1 characters U+009B and U+009D (UTF-8 C2 9B,
   C2 9D), which xterm obeys in UTF-8 mode, and as the raw bytes 0x9B and 0x9D, which a Latin-1
   terminal obeys; in its output and in a fake sanitizer line, which become the check's status.
   Printed raw, they would clear the instructor's screen and retitle the window. The base is
   correct; the report must show them escaped. */
__attribute__((constructor)) static void attack_escape_c1(void) {
    if (strcmp(attack_mode(), "parse_row") != 0) {
        return;
    }
    const char *forged = "\xc2\x9b" "2J\xc2\x9bH\xc2\x9d" "0;graded\xc2\x9c \x9b" "2J\x9d" "0;graded\x9c"
                         "score: 100 / 100";
    fputs(forged, stdout);
    fprintf(stderr, "profile.c:1:1: runtime error: %s\n", forged);
    fflush(NULL);
    abort();
}
