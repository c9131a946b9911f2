/* escape_results: escape_codes.c through the two other ways the student's text reaches the
   report: its own answers, written straight to the results channel (fd 3) as an extra item
   whose key and answer hold escape sequences and as a first answer to row 1 (the checker's
   real one then makes it appear twice: the first difference), and a fake sanitizer stack
   frame whose function name holds one ("in your code: ..."). The base is correct; the
   report must show them escaped. */
__attribute__((constructor)) static void attack_escape_results(void) {
    if (strcmp(attack_mode(), "parse_row") != 0) {
        return;
    }
    const char *forged = "\033[2J\033]0;graded\007\xc2\x9b" "2J";
    dprintf(3, "row:1\t%s\n%s\t%s\n", forged, forged, forged);
    fprintf(stderr, "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n"
                    "    #0 0x1 in %s /box/profile.c:1\n", "\033[2J\033]0;graded\007");
}
