/* huge_key: the student's text made large rather than strange. In every sum_named() check it
   writes one extra answer to the results channel (fd 3) whose key is 1 MB of 0x01 bytes; its
   real answers are right, so that item is the first difference, quoted on the "first
   difference at" line (and its needle on the "input:" line). Quoted whole, each check's copy
   was 4 MB once escaped, in report.txt and again in results.json; the grader must cut it. */
__attribute__((constructor)) static void attack_huge_key(void) {
    if (strcmp(attack_mode(), "sum_named") != 0) {
        return;
    }
    enum { KEY = 1 << 20 };
    char *key = malloc(KEY + 1);
    if (key == NULL) {
        return;
    }
    memset(key, 1, KEY);
    key[KEY] = '\0';
    dprintf(3, "sum:%s\t0 sum=0\n", key);
    free(key);
}
