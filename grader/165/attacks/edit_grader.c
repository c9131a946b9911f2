/* edit_grader: rewrite the grader so that every later run scores 100 (this once worked:
   student code ran as the instructor, inside the repository). The base is correct, so the
   designed outcome is full marks, honestly earned, and an untouched grader. */
static void attack_append(const char *relative, const char *text) {
    for (int i = 0; attack_roots[i] != NULL; i++) {
        char *path = NULL;
        if (asprintf(&path, "%s/%s", attack_roots[i], relative) < 0) {
            return;
        }
        FILE *f = fopen(path, "a");
        fprintf(stderr, "attack: append to %s: %s\n", path, f != NULL ? "DONE" : strerror(errno));
        if (f != NULL) {
            fputs(text, f);
            fclose(f);
        }
        free(path);
    }
}

__attribute__((constructor)) static void attack_edit_grader(void) {
    attack_append("grader/engine.lua", "\n-- attack: everyone scores 100\n");
    attack_append("grader/165/rubric.lua", "\n-- attack\n");
    attack_append("grader/pwned", "attack\n");
    attack_append("exercises/harness/runner.lua", "\n-- attack\n");
}
