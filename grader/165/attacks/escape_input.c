/* escape_input: the fourth way the student's text reaches the report, the "input:" line. In
   every sum_named() check it writes one extra answer to the results channel (fd 3) whose key
   holds escape sequences; its real answers are right, so that extra item is the first
   difference, and the report describes its input as sum_named(rows of FILE, "NEEDLE") with
   the needle taken from the key. The base is correct; the report must show it escaped. */
__attribute__((constructor)) static void attack_escape_input(void) {
    if (strcmp(attack_mode(), "sum_named") != 0) {
        return;
    }
    dprintf(3, "sum:\033[2J\033]0;graded\007\xc2\x9b" "2J\t0 sum=0\n");
}
